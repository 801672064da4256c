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
 * Output: BENCH lines for tests/bench/report.py (figures bo_create_free_4k,
 * bo_create_free_64k, bo_create_free_1m, va_lookup_1, va_lookup_1k,
 * va_lookup_100k, each va_lookup figure with "size": the live buffers it
 * measured; ratios in tests/bench/ratios.conf against the baseline
 * noop_ioctl), then, for a run on its own, a table and one JSON line
 * starting with {"bench":"buffers"} with this program's own no-op ioctl.
 * usage: bench_buffers [-q]; -q or VNPU_BENCH_MODE=smoke: fewer iterations
 * and 10,000 buffers at most (va_lookup_100k then has "size":10000).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "lib/vnpu_bo_util.h"
#include "lib/vnpu_test.h"

struct stats {
	double median, p99;
};

/*
 * Median and p99 of @s, reported as BENCH line @name with @size (0: none)
 * (frees the samples).
 */
static struct stats report(struct bench_samples *s, const char *name, unsigned long size)
{
	struct stats st = { 0, 0 };

	if (s->n) {
		qsort(s->v, s->n, sizeof(*s->v), bench_cmp_double);
		st.median = s->v[s->n / 2];
		st.p99 = s->v[(unsigned int)((s->n - 1) * 0.99)];
	}
	if (name)
		bench_report_size(s, name, "ns", size);
	else
		free(s->v);
	return st;
}

/*
 * This program's own no-op ioctl for its table, timed as bench_baseline's
 * noop_ioctl is (calls batched per sample, so clock reads do not count).
 * Create+free needs no batching: its clock reads are <1% of it.
 */
static struct stats bench_noop(int fd, unsigned int rounds)
{
	struct bench_samples s;
	uint64_t v;

	for (unsigned int i = 0; i < 1000; i++)	/* warm up */
		BENCH_CHECK(vnpu_get_param(fd, VNPU_PARAM_ABI_VERSION, &v));
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, 500,
		   BENCH_CHECK(vnpu_get_param(fd, VNPU_PARAM_ABI_VERSION, &v)));
	return report(&s, NULL, 0);
}

static struct stats bench_create_free(int fd, uint64_t size, unsigned int n,
				      const char *name)
{
	struct bench_samples s;
	uint32_t handle;
	int ret;

	for (unsigned int i = 0; i < n / 10 + 1; i++) {	/* warm up */
		BENCH_CHECK(vnpu_bo_create(fd, size, 0, &handle, NULL));
		BENCH_CHECK(vnpu_bo_close(fd, handle));
	}
	bench_samples_init(&s, n);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t t0 = bench_now_ns();

		ret = vnpu_bo_create(fd, size, 0, &handle, NULL);
		if (ret)
			bench_fail("BO_CREATE", ret);
		ret = vnpu_bo_close(fd, handle);
		bench_add(&s, (double)(bench_now_ns() - t0));
		if (ret)
			bench_fail("GEM_CLOSE", ret);
	}
	return report(&s, name, 0);
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

/* Several rounds; each sample is one round's ns per lookup. */
static double bench_lookup(const char *path, uint64_t client, uint64_t lookups,
			   unsigned int rounds, uint64_t *buffers, const char *name)
{
	struct bench_samples s;

	bench_samples_init(&s, rounds);
	for (unsigned int i = 0; i < rounds; i++) {
		double ns = lookup_round(path, client, lookups, buffers);

		if (ns < 0)
			bench_fail("va_lookup_bench", (int)ns);
		bench_add(&s, ns);
	}
	return report(&s, name, (unsigned long)*buffers).median;
}

int main(int argc, char **argv)
{
	static const uint64_t sizes[] = { 4096, 64 << 10, 1 << 20 };
	static const char *const cf_names[] = {
		"bo_create_free_4k", "bo_create_free_64k", "bo_create_free_1m",
	};
	static const uint64_t levels[] = { 1, 1000, 100000 };
	static const char *const lookup_names[] = {
		"va_lookup_1", "va_lookup_1k", "va_lookup_100k",
	};
	const char *mode = getenv("VNPU_BENCH_MODE");
	bool quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && strstr(mode, "smoke"));
	unsigned int noop_rounds = quick ? 20 : 200;
	struct stats noop, cf[3];
	double lookup_ns[3];
	uint64_t lookup_bufs[3] = { 0 }, live = 0, client;
	char path[128];
	uint32_t handle;
	int fd, ret;

	fd = vnpu_open_device(0);
	if (fd < 0)
		bench_fail("opening vnpu device 0", ENODEV);
	client = vnpu_param(fd, VNPU_PARAM_CLIENT_ID);

	noop = bench_noop(fd, noop_rounds);
	for (int i = 0; i < 3; i++)
		cf[i] = bench_create_free(fd, sizes[i], (quick ? 200 : 4000) >> (2 * i),
					  cf_names[i]);

	ret = vnpu_debugfs_path(0, "va_lookup_bench", path, sizeof(path));
	if (ret)
		bench_fail("finding debugfs va_lookup_bench", ret);
	for (int i = 0; i < 3; i++) {
		uint64_t want = quick && levels[i] > 10000 ? 10000 : levels[i];

		for (; live < want; live++) {
			ret = vnpu_bo_create(fd, 4096, 0, &handle, NULL);
			if (ret)
				bench_fail("BO_CREATE (lookup population)", ret);
		}
		/*
		 * Smoke runs stop at 10,000 buffers: the figure keeps its name
		 * (ratios.conf) and its "size" says how many buffers were live.
		 */
		lookup_ns[i] = bench_lookup(path, client, quick ? 20000 : 200000, 5,
					    &lookup_bufs[i], lookup_names[i]);
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
