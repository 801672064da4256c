// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-smi - what npu-smi / nvidia-smi show, for vnpu devices.
 *
 * Reads only stable interfaces, no sysfs: the GET_PARAM ioctl of each vnpu
 * node, and /proc: each process's fd directory and comm, and each client's
 * fdinfo (the DRM usage-stats keys plus vnpu's own "vnpu-*" keys,
 * documented in docs/abi-pools.md). docs/vnpu-smi.md has the JSON layout.
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

#include "drv.h"
#include "vnpu_drm.h"

#define MAX_DEVICES 64

struct stream_info {
	unsigned int id;
	char *detail;	/* key=value pairs from fdinfo; NULL without --streams */
};

/* A memory region's size from fdinfo: drm-total-<region> wins over the
 * older drm-memory-<region>. */
struct region {
	uint64_t bytes;
	bool from_total;
};

struct client_info {
	int pid;
	char *name;
	uint64_t client_id;
	unsigned int device;
	struct region vram, system;
	uint64_t engine_ns;
	unsigned int streams_key;	/* vnpu-streams */
	unsigned int jobs;		/* vnpu-jobs: unfinished jobs */
	unsigned int nstreams, cap;	/* vnpu-stream-<id> lines */
	struct stream_info *streams;
};

struct device_info {
	unsigned int index;
	char node[PATH_MAX];
	dev_t rdev;
	uint64_t engines, mem_total, mem_used, host_used, timeout_ms;
	uint64_t server;		/* an engine server is attached */
};

struct smi {
	bool want_detail;
	struct device_info devices[MAX_DEVICES];
	unsigned int ndevices;
	struct client_info *clients;
	unsigned int nclients, cap;
	/* Processes whose descriptors or fdinfo could not be read. */
	unsigned int unreadable;
};

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (n && size > SIZE_MAX / n) {
		fprintf(stderr, "vnpu-smi: out of memory\n");
		exit(1);
	}
	p = realloc(p, n * size);
	if (!p) {
		fprintf(stderr, "vnpu-smi: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n, 1), s, n);
}

/* One vnpu node: a device line (every node of a device, for the fds). */
static int probe_node(const char *path, int fd, void *arg)
{
	struct smi *smi = arg;
	struct device_info *d;
	struct stat st;
	uint64_t index = 0;

	if (smi->ndevices == MAX_DEVICES)
		return -ENOSPC;	/* no room for more: stop */
	if (fstat(fd, &st) || drv_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &index))
		return DRV_NODE_NEXT;
	d = &smi->devices[smi->ndevices];
	memset(d, 0, sizeof(*d));
	d->index = (unsigned int)index;
	snprintf(d->node, sizeof(d->node), "%s", path);
	d->rdev = st.st_rdev;
	if (drv_get_param(fd, VNPU_PARAM_NUM_ENGINES, &d->engines) ||
	    drv_get_param(fd, VNPU_PARAM_MEM_CAPACITY, &d->mem_total) ||
	    drv_get_param(fd, VNPU_PARAM_MEM_USED, &d->mem_used) ||
	    drv_get_param(fd, VNPU_PARAM_HOST_MEM_USED, &d->host_used) ||
	    drv_get_param(fd, VNPU_PARAM_JOB_TIMEOUT_MS, &d->timeout_ms) ||
	    drv_get_param(fd, VNPU_PARAM_ENGINE_ATTACHED, &d->server))
		return DRV_NODE_NEXT;
	smi->ndevices++;
	return DRV_NODE_NEXT;
}

static int cmp_device(const void *a, const void *b)
{
	const struct device_info *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void find_devices(struct smi *smi)
{
	drv_nodes(probe_node, smi);
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

/*
 * A DRM usage-stats memory value, "<n>[ <unit>]": no unit means bytes,
 * else KiB or MiB (drm-usage-stats.rst). False if it cannot be parsed.
 */
static bool parse_memory(const char *value, uint64_t *bytes)
{
	char *end;
	uint64_t n;
	unsigned int shift;

	/* strtoull() would take "-1" as a huge number. */
	if (!isdigit((unsigned char)*value))
		return false;
	errno = 0;
	n = strtoull(value, &end, 10);
	if (end == value || errno)
		return false;
	while (*end == ' ')
		end++;
	if (!*end)
		shift = 0;
	else if (!strcmp(end, "KiB"))
		shift = 10;
	else if (!strcmp(end, "MiB"))
		shift = 20;
	else
		return false;
	if (n > UINT64_MAX >> shift)
		return false;
	*bytes = n << shift;
	return true;
}

static void set_region(struct region *r, const char *value, bool total)
{
	uint64_t bytes;

	if ((r->from_total && !total) || !parse_memory(value, &bytes))
		return;
	r->bytes = bytes;
	r->from_total = total;
}

static void add_stream(struct smi *smi, struct client_info *c, unsigned int id,
		       const char *detail)
{
	struct stream_info *s;

	if (c->nstreams == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->streams = xrealloc(c->streams, c->cap, sizeof(*c->streams));
	}
	s = &c->streams[c->nstreams++];
	s->id = id;
	s->detail = smi->want_detail ? xstrdup(detail) : NULL;
}

static void free_client(struct client_info *c)
{
	for (unsigned int i = 0; i < c->nstreams; i++)
		free(c->streams[i].detail);
	free(c->streams);
	free(c->name);
}

/*
 * Parse one fdinfo file into @c: 1 if it is a vnpu client, 0 if not, -1 if
 * it cannot be read.
 */
static int read_fdinfo(struct smi *smi, const char *path, struct client_info *c)
{
	char *line = NULL;
	size_t size = 0;
	bool vnpu = false;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (getline(&line, &size, f) >= 0) {
		char *colon = strchr(line, ':'), *key = line, *value;
		unsigned int id;
		char tail;

		if (!colon)
			continue;
		*colon = '\0';
		value = colon + 1;
		while (*value == ' ' || *value == '\t')
			value++;
		trim(value);

		if (!strcmp(key, "drm-driver"))
			vnpu = !strcmp(value, "vnpu");
		else if (!strcmp(key, "drm-client-id"))
			c->client_id = strtoull(value, NULL, 10);
		else if (!strcmp(key, "drm-total-vram"))
			set_region(&c->vram, value, true);
		else if (!strcmp(key, "drm-memory-vram"))
			set_region(&c->vram, value, false);
		else if (!strcmp(key, "drm-total-system"))
			set_region(&c->system, value, true);
		else if (!strcmp(key, "drm-memory-system"))
			set_region(&c->system, value, false);
		else if (!strcmp(key, "drm-engine-compute"))
			c->engine_ns = strtoull(value, NULL, 10);	/* "<n> ns" */
		else if (!strcmp(key, "vnpu-streams"))
			c->streams_key = (unsigned int)strtoul(value, NULL, 10);
		else if (!strcmp(key, "vnpu-jobs"))
			c->jobs = (unsigned int)strtoul(value, NULL, 10);
		else if (sscanf(key, "vnpu-stream-%u%c", &id, &tail) == 1)
			add_stream(smi, c, id, value);
	}
	free(line);
	fclose(f);
	return vnpu;
}

/* The process name, or NULL if it is gone. */
static char *read_comm(int pid)
{
	char path[64], *name = NULL;
	size_t size = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (getline(&name, &size, f) < 0) {
		free(name);
		name = NULL;
	} else {
		trim(name);
	}
	fclose(f);
	return name;
}

/* A process that exited while we looked is not "unreadable". */
static bool gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

static void scan_process(struct smi *smi, int pid)
{
	char path[PATH_MAX];
	bool unreadable = false;
	struct dirent *e;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir) {
		if (!gone(errno))
			smi->unreadable++;
		return;
	}
	while ((e = readdir(dir))) {
		struct client_info c = { 0 };
		struct device_info *d;
		struct stat st;
		int ret;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, e->d_name);
		if (stat(path, &st)) {
			unreadable |= !gone(errno);
			continue;
		}
		if (!S_ISCHR(st.st_mode))
			continue;
		d = device_by_rdev(smi, st.st_rdev);
		if (!d)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, e->d_name);
		ret = read_fdinfo(smi, path, &c);
		if (ret < 0)
			unreadable |= !gone(errno);
		/* dup()ed descriptors share one client: count it once. */
		if (ret <= 0 || client_seen(smi, c.client_id)) {
			free_client(&c);
			continue;
		}
		c.pid = pid;
		c.device = d->index;
		c.name = read_comm(pid);
		if (!c.name)
			c.name = xstrdup("");
		if (smi->nclients == smi->cap) {
			smi->cap = smi->cap ? 2 * smi->cap : 16;
			smi->clients = xrealloc(smi->clients, smi->cap, sizeof(*smi->clients));
		}
		smi->clients[smi->nclients++] = c;
	}
	closedir(dir);
	smi->unreadable += unreadable;
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

/* A client's streams: its vnpu-stream lines, or vnpu-streams without them. */
static unsigned int client_streams(const struct client_info *c)
{
	return c->nstreams ? c->nstreams : c->streams_key;
}

static unsigned int device_streams(const struct smi *smi, unsigned int index)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < smi->nclients; i++)
		if (smi->clients[i].device == index)
			n += client_streams(&smi->clients[i]);
	return n;
}

/*
 * Length of the well-formed UTF-8 sequence at @s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if it is not one.
 */
static size_t utf8_sequence(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
		       (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

/*
 * A JSON string. Process names are bytes, not necessarily UTF-8: each
 * byte that does not start a well-formed UTF-8 sequence becomes U+FFFD
 * (the replacement character, "\ufffd"), so the output is always valid
 * UTF-8 JSON; control characters are \u-escaped.
 */
static void print_json_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putchar('"');
	while (*s) {
		size_t n = utf8_sequence(s);

		if (!n) {
			fputs("\\ufffd", stdout);
			s++;
		} else if (*s == '"' || *s == '\\') {
			printf("\\%c", *s++);
		} else if (*s < 0x20 || *s == 0x7f) {
			printf("\\u%04x", *s++);
		} else {
			fwrite(s, 1, n, stdout);
			s += n;
		}
	}
	putchar('"');
}

/* "a=1 b=x" -> "a":1,"b":"x" (numbers stay numbers). */
static void print_json_detail(const char *detail)
{
	char *buf = xstrdup(detail), *save = NULL, *tok;

	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '='), *end;

		if (!eq)
			continue;
		*eq = '\0';
		putchar(',');
		print_json_string(tok);
		putchar(':');
		strtoull(eq + 1, &end, 10);
		if (isdigit((unsigned char)eq[1]) && !*end)
			printf("%s", eq + 1);
		else
			print_json_string(eq + 1);
	}
	free(buf);
}

static void print_json(const struct smi *smi, bool streams)
{
	printf("{\"abi\":\"%d.%d\",\"devices\":[", VNPU_ABI_MAJOR, VNPU_ABI_MINOR);
	for (unsigned int i = 0; i < smi->ndevices; i++) {
		const struct device_info *d = &smi->devices[i];
		bool first = true;

		printf("%s{\"index\":%u,\"node\":", i ? "," : "", d->index);
		print_json_string(d->node);
		printf(",\"engines\":%" PRIu64 ",\"engine_server\":%s,\"memory_total\":%" PRIu64
		       ",\"memory_used\":%" PRIu64 ",\"host_memory_used\":%" PRIu64
		       ",\"job_timeout_ms\":%" PRIu64 ",\"streams\":%u,\"processes\":[",
		       d->engines, d->server ? "true" : "false", d->mem_total, d->mem_used,
		       d->host_used, d->timeout_ms, device_streams(smi, d->index));
		for (unsigned int j = 0; j < smi->nclients; j++) {
			const struct client_info *c = &smi->clients[j];

			if (c->device != d->index)
				continue;
			printf("%s{\"pid\":%d,\"name\":", first ? "" : ",", c->pid);
			first = false;
			print_json_string(c->name);
			printf(",\"client_id\":%" PRIu64 ",\"memory_vram\":%" PRIu64
			       ",\"memory_system\":%" PRIu64 ",\"engine_ns\":%" PRIu64
			       ",\"jobs\":%u,\"streams\":%u", c->client_id, c->vram.bytes,
			       c->system.bytes, c->engine_ns, c->jobs, client_streams(c));
			if (streams) {
				printf(",\"stream_detail\":[");
				for (unsigned int k = 0; k < c->nstreams; k++) {
					printf("%s{\"id\":%u", k ? "," : "", c->streams[k].id);
					print_json_detail(c->streams[k].detail);
					putchar('}');
				}
				putchar(']');
			}
			putchar('}');
		}
		printf("]}");
	}
	printf("],\"unreadable_processes\":%u}\n", smi->unreadable);
}

/*
 * A process name for the terminal: any process can name itself with
 * control bytes (prctl(PR_SET_NAME)), escape sequences included, so those
 * become '?'. Other bytes pass, UTF-8 included.
 */
static const char *printable_name(const char *name, char *buf, size_t size)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++)
		buf[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
	buf[i] = '\0';
	return buf;
}

static void print_table(const struct smi *smi, bool streams)
{
	printf("vnpu-smi   ABI %d.%d   %u device%s\n", VNPU_ABI_MAJOR, VNPU_ABI_MINOR,
	       smi->ndevices, smi->ndevices == 1 ? "" : "s");
	printf("+-----+----------------------+---------+--------+------------------------+---------+\n");
	printf("| Dev | Node                 | Engines | Server | Memory used / total    | Streams |\n");
	printf("+-----+----------------------+---------+--------+------------------------+---------+\n");
	for (unsigned int i = 0; i < smi->ndevices; i++) {
		const struct device_info *d = &smi->devices[i];

		printf("| %3u | %-20s | %7" PRIu64 " | %-6s | %8" PRIu64 " / %8" PRIu64
		       " MiB | %7u |\n", d->index, d->node, d->engines, d->server ? "yes" : "NONE",
		       d->mem_used >> 20, d->mem_total >> 20, device_streams(smi, d->index));
	}
	printf("+-----+----------------------+---------+--------+------------------------+---------+\n");
	for (unsigned int i = 0; i < smi->ndevices; i++)
		if (!smi->devices[i].server)
			printf("Device %u has no engine server and takes no work: start vnpu-engined "
			       "(vnpu-modload engine-start).\n", smi->devices[i].index);
	printf("Processes:\n");
	printf("  Dev      PID  Name              Client  Device mem  Host mem   Streams     Jobs  Engine time\n");
	if (!smi->nclients)
		printf("  (none)\n");
	for (unsigned int i = 0; i < smi->nclients; i++) {
		const struct client_info *c = &smi->clients[i];
		char name[64];

		printf("  %3u  %7d  %-16s  %6" PRIu64 "  %6" PRIu64 " KiB  %5" PRIu64
		       " KiB  %7u  %7u  %9.3f ms\n", c->device, c->pid,
		       printable_name(c->name, name, sizeof(name)), c->client_id,
		       c->vram.bytes >> 10, c->system.bytes >> 10, client_streams(c),
		       c->jobs, c->engine_ns / 1e6);
		if (!streams)
			continue;
		for (unsigned int k = 0; k < c->nstreams; k++)
			printf("         stream %-4u %s\n", c->streams[k].id,
			       c->streams[k].detail);
	}
	if (smi->unreadable)
		printf("  %u process%s whose descriptors could not be read (no permission"
		       " for /proc/PID/fd or fdinfo): vnpu clients among them are not"
		       " shown\n", smi->unreadable, smi->unreadable == 1 ? "" : "es");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vnpu-smi [--streams] [--json]\n"
		   "  -s, --streams  per-stream detail of every client\n"
		   "  -j, --json     machine-readable output\n"
		   "\n"
		   "Table: device memory in MiB, process memory in KiB, engine time in ms.\n"
		   "JSON: memory in bytes, engine time in ns, one object:\n"
		   "  {\"abi\", \"devices\": [{\"index\", \"node\", \"engines\", \"memory_total\",\n"
		   "    \"memory_used\", \"host_memory_used\", \"job_timeout_ms\", \"streams\",\n"
		   "    \"processes\": [{\"pid\", \"name\", \"client_id\", \"memory_vram\",\n"
		   "      \"memory_system\", \"engine_ns\", \"jobs\", \"streams\",\n"
		   "      \"stream_detail\" (--streams): [{\"id\", then every key=value of the\n"
		   "        stream's fdinfo line: state, error, pool_ranges, pool_bytes,\n"
		   "        hazards_serialized, hazards_rejected, ws_bytes, ...}]}]}],\n"
		   "   \"unreadable_processes\"}\n"
		   "Bytes of a name that are not UTF-8 become U+FFFD. See docs/vnpu-smi.md.\n");
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
	smi->want_detail = streams;
	find_devices(smi);
	find_clients(smi);
	if (json)
		print_json(smi, streams);
	else
		print_table(smi, streams);
	for (unsigned int i = 0; i < smi->nclients; i++)
		free_client(&smi->clients[i]);
	free(smi->clients);
	free(smi);
	return 0;
}
