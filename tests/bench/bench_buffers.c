// SPDX-License-Identifier: GPL-2.0
/*
 * bench_buffers: what buffers cost, as ratios to baselines measured in the
 * same run (this is a benchmark, not a test: it never fails on numbers).
 *
 *  - no-op ioctl: GET_PARAM(ABI_VERSION), the cheapest round trip into the
 *    driver; the baseline.
 *  - create+free: BO_CREATE then GEM_CLOSE of one buffer (4 KiB, 64 KiB,
 *    1 MiB), timed per pair; median and p99, and the median as a multiple
 *    of the no-op median.
 *  - VA lookup with 1, 1,000 and 100,000 live buffers in the file. The
 *    lookup is internal to the driver (job submission resolves every
 *    device address it is given), so it is timed in the kernel by the
 *    va_lookup_bench debugfs hook: LOOKUPS calls of vnpu_vm_resolve() on
 *    random live buffers of this file, each one taking the VA space lock,
 *    walking the interval tree and taking and dropping a mapping
 *    reference, exactly what a submit pays per address. Reported per
 *    lookup (median of several rounds). Needs root and debugfs.
 *
 * Output: a table, then one JSON line starting with {"bench":"buffers".
 * usage: bench_buffers [-q] (quick: fewer iterations, 10,000 buffers max)
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

struct stats {
	double median, p99;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct stats summarize(uint64_t *samples, size_t n)
{
	qsort(samples, n, sizeof(*samples), cmp_u64);
	return (struct stats){
		.median = (double)samples[n / 2],
		.p99 = (double)samples[(n * 99) / 100],
	};
}

static int die(const char *what, int err)
{
	fprintf(stderr, "bench_buffers: %s: %s\n", what, strerror(-err));
	exit(1);
}

static struct stats bench_noop(int fd, size_t n)
{
	struct drm_vnpu_get_param args = { .param = VNPU_PARAM_ABI_VERSION };
	uint64_t *t = calloc(n, sizeof(*t));
	int ret;

	for (size_t i = 0; i < n / 10; i++)	/* warm up */
		vnpu_ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &args);
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = now_ns();

		ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &args);
		t[i] = now_ns() - t0;
		if (ret)
			die("GET_PARAM", ret);
	}
	struct stats s = summarize(t, n);

	free(t);
	return s;
}

static struct stats bench_create_free(int fd, uint64_t size, size_t n)
{
	uint64_t *t = calloc(n, sizeof(*t));
	uint32_t handle;
	int ret;

	for (size_t i = 0; i < n / 10 + 1; i++) {	/* warm up */
		if (!vnpu_bo_create(fd, size, 0, &handle, NULL))
			vnpu_bo_close(fd, handle);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = now_ns();

		ret = vnpu_bo_create(fd, size, 0, &handle, NULL);
		if (ret)
			die("BO_CREATE", ret);
		ret = vnpu_bo_close(fd, handle);
		t[i] = now_ns() - t0;
		if (ret)
			die("GEM_CLOSE", ret);
	}
	struct stats s = summarize(t, n);

	free(t);
	return s;
}

/* One va_lookup_bench round: ns per lookup, or a negative errno. */
static double lookup_round(const char *path, uint64_t client, uint64_t lookups,
			   uint64_t *buffers)
{
	char cmd[64], answer[128];
	uint64_t ns, n, l;
	ssize_t len;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(cmd, sizeof(cmd), "%" PRIu64 " %" PRIu64, client, lookups);
	if (write(fd, cmd, strlen(cmd)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	len = read(fd, answer, sizeof(answer) - 1);
	close(fd);
	if (len <= 0)
		return -EIO;
	answer[len] = '\0';
	if (sscanf(answer, "buffers %" SCNu64 " lookups %" SCNu64 " ns %" SCNu64,
		   &n, &l, &ns) != 3)
		return -EIO;
	*buffers = n;
	return (double)ns / (double)l;
}

static double bench_lookup(const char *path, uint64_t client, uint64_t lookups,
			   int rounds, uint64_t *buffers)
{
	double r[16];

	for (int i = 0; i < rounds; i++) {
		r[i] = lookup_round(path, client, lookups, buffers);
		if (r[i] < 0)
			die("va_lookup_bench", (int)r[i]);
	}
	/* median of the rounds */
	for (int i = 1; i < rounds; i++)
		for (int j = i; j > 0 && r[j - 1] > r[j]; j--) {
			double x = r[j];

			r[j] = r[j - 1];
			r[j - 1] = x;
		}
	return r[rounds / 2];
}

int main(int argc, char **argv)
{
	static const uint64_t sizes[] = { 4096, 64 << 10, 1 << 20 };
	static const uint64_t levels[] = { 1, 1000, 100000 };
	bool quick = argc > 1 && !strcmp(argv[1], "-q");
	size_t noop_n = quick ? 2000 : 20000;
	struct stats noop, cf[3];
	double lookup_ns[3];
	uint64_t lookup_bufs[3] = { 0 }, live = 0, client;
	char path[128];
	uint32_t handle;
	int fd, ret;

	fd = vnpu_open_device(0);
	if (fd < 0) {
		fprintf(stderr, "bench_buffers: no vnpu device\n");
		return 1;
	}
	client = vnpu_param(fd, VNPU_PARAM_CLIENT_ID);

	noop = bench_noop(fd, noop_n);
	for (int i = 0; i < 3; i++)
		cf[i] = bench_create_free(fd, sizes[i], (quick ? 200 : 4000) >> (2 * i));

	ret = vnpu_debugfs_path(0, "va_lookup_bench", path, sizeof(path));
	if (ret)
		die("debugfs", ret);
	for (int i = 0; i < 3; i++) {
		uint64_t want = quick && levels[i] > 10000 ? 10000 : levels[i];

		for (; live < want; live++) {
			ret = vnpu_bo_create(fd, 4096, 0, &handle, NULL);
			if (ret)
				die("BO_CREATE (lookup population)", ret);
		}
		lookup_ns[i] = bench_lookup(path, client, quick ? 20000 : 200000, 5,
					    &lookup_bufs[i]);
	}

	printf("# vnpu buffer benchmark (device 0, %s)\n", quick ? "quick" : "full");
	printf("%-28s %12s %12s %10s\n", "operation", "median ns", "p99 ns", "x no-op");
	printf("%-28s %12.0f %12.0f %10.2f\n", "no-op ioctl (GET_PARAM)",
	       noop.median, noop.p99, 1.0);
	for (int i = 0; i < 3; i++) {
		char name[64];

		snprintf(name, sizeof(name), "create+free %" PRIu64 " KiB", sizes[i] >> 10);
		printf("%-28s %12.0f %12.0f %10.2f\n", name, cf[i].median, cf[i].p99,
		       cf[i].median / noop.median);
	}
	for (int i = 0; i < 3; i++) {
		char name[64];

		snprintf(name, sizeof(name), "VA lookup, %" PRIu64 " buffers", lookup_bufs[i]);
		printf("%-28s %12.1f %12s %10.3f\n", name, lookup_ns[i], "-",
		       lookup_ns[i] / noop.median);
	}

	printf("{\"bench\":\"buffers\",\"quick\":%s,"
	       "\"noop_ioctl_ns\":{\"median\":%.0f,\"p99\":%.0f},"
	       "\"create_free_ns\":{",
	       quick ? "true" : "false", noop.median, noop.p99);
	for (int i = 0; i < 3; i++)
		printf("%s\"%" PRIu64 "\":{\"median\":%.0f,\"p99\":%.0f,\"ratio\":%.2f}",
		       i ? "," : "", sizes[i], cf[i].median, cf[i].p99,
		       cf[i].median / noop.median);
	printf("},\"create_free_4k_ratio\":%.2f,\"va_lookup_ns\":{", cf[0].median / noop.median);
	for (int i = 0; i < 3; i++)
		printf("%s\"%" PRIu64 "\":%.1f", i ? "," : "", lookup_bufs[i], lookup_ns[i]);
	printf("}}\n");
	close(fd);
	return 0;
}
