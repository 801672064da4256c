// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-smi - what npu-smi / nvidia-smi show, for vnpu devices.
 *
 * Reads only stable interfaces: the device nodes (GET_PARAM), sysfs, and
 * each client's /proc/PID/fdinfo (the DRM usage-stats keys plus vnpu's own
 * "vnpu-*" keys, documented in the README).
 *
 *   vnpu-smi            devices and the processes using them
 *   vnpu-smi --streams  also each client's streams
 *   vnpu-smi --json     the same as one JSON object
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>

#include "vnpu_drm.h"

#define MAX_DEVICES 64
#define MAX_CLIENTS 1024
#define MAX_STREAMS 256
#define MAX_KEY 64

struct stream_info {
	unsigned int id;
	char detail[512];	/* key=value pairs from fdinfo */
};

struct client_info {
	int pid;
	char name[64];
	uint64_t client_id;
	unsigned int device;
	uint64_t vram_kib, system_kib, engine_ns;
	unsigned int num_streams;
	unsigned int nstream_lines;
	struct stream_info *streams;
};

struct device_info {
	unsigned int index;
	char node[PATH_MAX];
	dev_t rdev;
	uint64_t engines, mem_total, mem_used, host_used, timeout_ms;
};

struct smi {
	struct device_info devices[MAX_DEVICES];
	unsigned int ndevices;
	struct client_info clients[MAX_CLIENTS];
	unsigned int nclients;
};

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param args = { .param = param };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &args))
		return -errno;
	*value = args.value;
	return 0;
}

static bool node_is_vnpu(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ok = v && !strcmp(v->name, "vnpu");

	drmFreeVersion(v);
	return ok;
}

static void probe_node(struct smi *smi, const char *path)
{
	struct device_info *d;
	struct stat st;
	uint64_t index = 0;
	int fd;

	if (smi->ndevices == MAX_DEVICES)
		return;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!node_is_vnpu(fd) || fstat(fd, &st) ||
	    get_param(fd, VNPU_PARAM_DEVICE_INDEX, &index))
		goto out;
	d = &smi->devices[smi->ndevices];
	memset(d, 0, sizeof(*d));
	d->index = (unsigned int)index;
	snprintf(d->node, sizeof(d->node), "%s", path);
	d->rdev = st.st_rdev;
	if (get_param(fd, VNPU_PARAM_NUM_ENGINES, &d->engines) ||
	    get_param(fd, VNPU_PARAM_MEM_CAPACITY, &d->mem_total) ||
	    get_param(fd, VNPU_PARAM_MEM_USED, &d->mem_used) ||
	    get_param(fd, VNPU_PARAM_HOST_MEM_USED, &d->host_used) ||
	    get_param(fd, VNPU_PARAM_JOB_TIMEOUT_MS, &d->timeout_ms))
		goto out;
	smi->ndevices++;
out:
	close(fd);
}

static int cmp_device(const void *a, const void *b)
{
	const struct device_info *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void find_devices(struct smi *smi)
{
	const char *dirs[] = { "/dev/dri", "/dev/accel" };
	const char *prefixes[] = { "renderD", "accel" };
	char path[PATH_MAX];

	for (unsigned int i = 0; i < 2; i++) {
		DIR *dir = opendir(dirs[i]);
		struct dirent *e;

		if (!dir)
			continue;
		while ((e = readdir(dir))) {
			if (strncmp(e->d_name, prefixes[i], strlen(prefixes[i])))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
			probe_node(smi, path);
		}
		closedir(dir);
	}
	qsort(smi->devices, smi->ndevices, sizeof(smi->devices[0]), cmp_device);
}

static struct device_info *device_by_rdev(struct smi *smi, dev_t rdev)
{
	for (unsigned int i = 0; i < smi->ndevices; i++)
		if (smi->devices[i].rdev == rdev)
			return &smi->devices[i];
	return NULL;
}

static bool client_seen(const struct smi *smi, uint64_t client_id)
{
	for (unsigned int i = 0; i < smi->nclients; i++)
		if (smi->clients[i].client_id == client_id)
			return true;
	return false;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* Parse one fdinfo file; returns false if it is not a vnpu client. */
static bool read_fdinfo(const char *path, struct client_info *c)
{
	char line[1024], key[MAX_KEY];
	bool vnpu = false;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *value;
		unsigned int id;

		if (!colon || (size_t)(colon - line) >= sizeof(key))
			continue;
		memcpy(key, line, (size_t)(colon - line));
		key[colon - line] = '\0';
		value = colon + 1;
		while (*value == ' ' || *value == '\t')
			value++;
		trim(value);

		if (!strcmp(key, "drm-driver"))
			vnpu = !strcmp(value, "vnpu");
		else if (!strcmp(key, "drm-client-id"))
			c->client_id = strtoull(value, NULL, 10);
		else if (!strcmp(key, "drm-memory-vram"))
			c->vram_kib = strtoull(value, NULL, 10);
		else if (!strcmp(key, "drm-memory-system"))
			c->system_kib = strtoull(value, NULL, 10);
		else if (!strcmp(key, "drm-engine-compute"))
			c->engine_ns = strtoull(value, NULL, 10);
		else if (!strcmp(key, "vnpu-streams"))
			c->num_streams = (unsigned int)strtoul(value, NULL, 10);
		else if (sscanf(key, "vnpu-stream-%u", &id) == 1 &&
			 c->nstream_lines < MAX_STREAMS) {
			struct stream_info *s = &c->streams[c->nstream_lines++];

			s->id = id;
			snprintf(s->detail, sizeof(s->detail), "%s", value);
		}
	}
	fclose(f);
	return vnpu;
}

static void read_comm(int pid, char *name, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	name[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(name, (int)size, f))
		trim(name);
	fclose(f);
}

static void scan_process(struct smi *smi, int pid)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((e = readdir(dir)) && smi->nclients < MAX_CLIENTS) {
		struct client_info *c = &smi->clients[smi->nclients];
		struct device_info *d;
		struct stat st;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, e->d_name);
		if (stat(path, &st) || !S_ISCHR(st.st_mode))
			continue;
		d = device_by_rdev(smi, st.st_rdev);
		if (!d)
			continue;
		memset(c, 0, sizeof(*c));
		c->streams = calloc(MAX_STREAMS, sizeof(*c->streams));
		if (!c->streams)
			break;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, e->d_name);
		/* dup()ed descriptors share one client: count it once. */
		if (!read_fdinfo(path, c) || client_seen(smi, c->client_id)) {
			free(c->streams);
			continue;
		}
		c->pid = pid;
		c->device = d->index;
		read_comm(pid, c->name, sizeof(c->name));
		smi->nclients++;
	}
	closedir(dir);
}

static void find_clients(struct smi *smi)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;

	if (!proc)
		return;
	while ((e = readdir(proc)))
		if (isdigit((unsigned char)e->d_name[0]))
			scan_process(smi, atoi(e->d_name));
	closedir(proc);
}

static unsigned int device_streams(const struct smi *smi, unsigned int index)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < smi->nclients; i++)
		if (smi->clients[i].device == index)
			n += smi->clients[i].num_streams;
	return n;
}

static void print_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* "a=1 b=x" -> {"a":1,"b":"x"} (numbers stay numbers). */
static void print_json_detail(const char *detail)
{
	char buf[512], *save = NULL, *tok;
	bool first = true;

	snprintf(buf, sizeof(buf), "%s", detail);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '='), *end;

		if (!eq)
			continue;
		*eq = '\0';
		printf("%s", first ? "" : ",");
		first = false;
		print_json_string(tok);
		putchar(':');
		strtoull(eq + 1, &end, 10);
		if (*(eq + 1) && !*end)
			printf("%s", eq + 1);
		else
			print_json_string(eq + 1);
	}
}

static void print_json(const struct smi *smi, bool streams)
{
	printf("{\"abi\":\"%d.%d\",\"devices\":[", VNPU_ABI_MAJOR, VNPU_ABI_MINOR);
	for (unsigned int i = 0; i < smi->ndevices; i++) {
		const struct device_info *d = &smi->devices[i];
		bool first = true;

		printf("%s{\"index\":%u,\"node\":", i ? "," : "", d->index);
		print_json_string(d->node);
		printf(",\"engines\":%" PRIu64 ",\"memory_total\":%" PRIu64
		       ",\"memory_used\":%" PRIu64 ",\"host_memory_used\":%" PRIu64
		       ",\"job_timeout_ms\":%" PRIu64 ",\"streams\":%u,\"processes\":[",
		       d->engines, d->mem_total, d->mem_used, d->host_used,
		       d->timeout_ms, device_streams(smi, d->index));
		for (unsigned int j = 0; j < smi->nclients; j++) {
			const struct client_info *c = &smi->clients[j];

			if (c->device != d->index)
				continue;
			printf("%s{\"pid\":%d,\"name\":", first ? "" : ",", c->pid);
			first = false;
			print_json_string(c->name);
			printf(",\"client_id\":%" PRIu64 ",\"memory_vram\":%" PRIu64
			       ",\"memory_system\":%" PRIu64 ",\"engine_ns\":%" PRIu64
			       ",\"streams\":%u", c->client_id, c->vram_kib << 10,
			       c->system_kib << 10, c->engine_ns, c->num_streams);
			if (streams) {
				printf(",\"stream_detail\":[");
				for (unsigned int k = 0; k < c->nstream_lines; k++) {
					printf("%s{\"id\":%u,", k ? "," : "", c->streams[k].id);
					print_json_detail(c->streams[k].detail);
					putchar('}');
				}
				putchar(']');
			}
			putchar('}');
		}
		printf("]}");
	}
	printf("]}\n");
}

static void print_table(const struct smi *smi, bool streams)
{
	printf("vnpu-smi   ABI %d.%d   %u device%s\n", VNPU_ABI_MAJOR, VNPU_ABI_MINOR,
	       smi->ndevices, smi->ndevices == 1 ? "" : "s");
	printf("+-----+----------------------+---------+------------------------+---------+\n");
	printf("| Dev | Node                 | Engines | Memory used / total    | Streams |\n");
	printf("+-----+----------------------+---------+------------------------+---------+\n");
	for (unsigned int i = 0; i < smi->ndevices; i++) {
		const struct device_info *d = &smi->devices[i];

		printf("| %3u | %-20s | %7" PRIu64 " | %8" PRIu64 " / %8" PRIu64 " MiB | %7u |\n",
		       d->index, d->node, d->engines, d->mem_used >> 20,
		       d->mem_total >> 20, device_streams(smi, d->index));
	}
	printf("+-----+----------------------+---------+------------------------+---------+\n");
	printf("Processes:\n");
	printf("  Dev      PID  Name              Client  Device mem  Host mem   Streams  Engine time\n");
	if (!smi->nclients)
		printf("  (none)\n");
	for (unsigned int i = 0; i < smi->nclients; i++) {
		const struct client_info *c = &smi->clients[i];

		printf("  %3u  %7d  %-16s  %6" PRIu64 "  %6" PRIu64 " KiB  %5" PRIu64
		       " KiB  %7u  %9.3f ms\n", c->device, c->pid, c->name, c->client_id,
		       c->vram_kib, c->system_kib, c->num_streams, c->engine_ns / 1e6);
		if (!streams)
			continue;
		for (unsigned int k = 0; k < c->nstream_lines; k++)
			printf("         stream %-4u %s\n", c->streams[k].id,
			       c->streams[k].detail);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vnpu-smi [--streams] [--json]\n"
		   "  -s, --streams  per-stream detail of every client\n"
		   "  -j, --json     machine-readable output\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "streams", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, streams = false;
	struct smi *smi;
	int opt;

	while ((opt = getopt_long(argc, argv, "sjh", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			streams = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	smi = calloc(1, sizeof(*smi));
	if (!smi)
		return 1;
	find_devices(smi);
	find_clients(smi);
	if (json)
		print_json(smi, streams);
	else
		print_table(smi, streams);
	for (unsigned int i = 0; i < smi->nclients; i++)
		free(smi->clients[i].streams);
	free(smi);
	return 0;
}
