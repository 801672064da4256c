// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer helpers for the vnpu selftests and benchmarks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vnpu_bo_util.h"
#include "vnpu_test.h"

uint64_t vnpu_param(int fd, uint32_t param)
{
	uint64_t value;

	return vnpu_get_param(fd, param, &value) ? UINT64_MAX : value;
}

int vnpu_bo_userptr(int fd, const void *ptr, uint64_t size, uint32_t *handle,
		    uint64_t *va)
{
	struct drm_vnpu_bo_userptr args = {
		.user_ptr = (uintptr_t)ptr,
		.size = size,
	};
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_BO_USERPTR, &args);

	if (!ret) {
		*handle = args.handle;
		if (va)
			*va = args.va;
	}
	return ret;
}

int vnpu_prime_export(int fd, uint32_t handle, int *dmabuf_fd)
{
	struct drm_prime_handle args = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
		.fd = -1,
	};
	int ret = vnpu_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args);

	if (!ret)
		*dmabuf_fd = args.fd;
	return ret;
}

int vnpu_prime_import(int fd, int dmabuf_fd, uint32_t *handle)
{
	struct drm_prime_handle args = { .fd = dmabuf_fd };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args);

	if (!ret)
		*handle = args.handle;
	return ret;
}

uint32_t vnpu_crc32(const void *data, size_t len)
{
	static uint32_t table[256];
	const uint8_t *p = data;
	uint32_t crc = ~0u;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* The pattern is a stream of little-endian 64-bit words, word k = f(k). */
static uint64_t pattern_word(uint64_t k, uint32_t seed)
{
	uint64_t x = (k + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)seed * 0xd6e8feb86659fd93ull;

	return x ^ (x >> 29);
}

static uint8_t pattern_byte(size_t i, uint32_t seed)
{
	return (uint8_t)(pattern_word(i / 8, seed) >> (8 * (i % 8)));
}

void vnpu_fill_pattern(void *data, size_t len, uint32_t seed)
{
	uint8_t *p = data;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w = pattern_word(i / 8, seed);

		memcpy(p + i, &w, 8);
	}
	for (; i < len; i++)
		p[i] = pattern_byte(i, seed);
}

long vnpu_check_pattern(const void *data, size_t len, uint32_t seed)
{
	const uint8_t *p = data;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w = pattern_word(i / 8, seed), got;

		memcpy(&got, p + i, 8);
		if (got != w)
			break;
	}
	for (; i < len; i++)
		if (p[i] != pattern_byte(i, seed))
			return (long)i;
	return -1;
}

/* Find "KEY:" in /proc/self/fdinfo/FD and copy the rest of the line. */
static int fdinfo_value(int fd, const char *key, char *buf, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		v = line + klen + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

int vnpu_fdinfo_str(int fd, const char *key, char *buf, size_t len)
{
	return fdinfo_value(fd, key, buf, len);
}

int vnpu_fdinfo_kib(int fd, const char *key, uint64_t *kib)
{
	char value[64], unit[16];
	uint64_t n;
	int ret;

	ret = fdinfo_value(fd, key, value, sizeof(value));
	if (ret)
		return ret;
	if (sscanf(value, "%" SCNu64 " %15s", &n, unit) != 2 || strcmp(unit, "KiB"))
		return -EINVAL;
	*kib = n;
	return 0;
}

int vnpu_fdinfo_unit(int fd, const char *key, uint64_t *n, char *unit, size_t len)
{
	char value[128], *end;
	int ret;

	ret = fdinfo_value(fd, key, value, sizeof(value));
	if (ret)
		return ret;
	errno = 0;
	*n = strtoull(value, &end, 10);
	if (end == value || errno || (*end && *end != ' '))
		return -EINVAL;
	snprintf(unit, len, "%s", end + strspn(end, " "));
	return 0;
}

long vnpu_vm_pinned_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * debugfs lives under the primary minor: the card node next to our render
 * node. Found once per device and process (each lookup opens the device).
 */
int vnpu_debugfs_path(unsigned int index, const char *name, char *buf, size_t len)
{
	static int cards[16] = { [0 ... 15] = -1 };
	char dir_path[96];
	struct dirent *d;
	struct stat st;
	int fd, card = -1;
	DIR *dir;

	if (index < 16 && cards[index] >= 0) {
		snprintf(buf, len, "/sys/kernel/debug/dri/%d/%s", cards[index], name);
		return 0;
	}
	fd = vnpu_open_device(index);
	if (fd < 0)
		return -ENODEV;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	close(fd);
	snprintf(dir_path, sizeof(dir_path), "/sys/dev/char/%u:%u/device/drm",
		 major(st.st_rdev), minor(st.st_rdev));
	dir = opendir(dir_path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "card%d", &card) == 1)
			break;
	closedir(dir);
	if (card < 0)
		return -ENODEV;
	if (index < 16)
		cards[index] = card;
	snprintf(buf, len, "/sys/kernel/debug/dri/%d/%s", card, name);
	return 0;
}

int vnpu_va_resolve(unsigned int index, uint64_t client, uint64_t va,
		    uint64_t len, struct vnpu_resolve *r)
{
	char path[128], cmd[96], answer[128];
	ssize_t n;
	int fd, ret;

	ret = vnpu_debugfs_path(index, "va_resolve", path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(cmd, sizeof(cmd), "%" PRIu64 " %" PRIx64 " %" PRIx64, client, va, len);
	ret = 0;
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = -errno;
	if (!ret) {
		n = read(fd, answer, sizeof(answer) - 1);
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
		} else {
			answer[n] = '\0';
			if (sscanf(answer, "%d %" SCNu64 " %" SCNu64 " %" SCNx32, &r->err,
				   &r->offset, &r->bo_size, &r->crc) != 4)
				ret = -EIO;
		}
	}
	close(fd);
	return ret;
}

int vnpu_fd_resolve(int fd, uint64_t va, uint64_t len, struct vnpu_resolve *r)
{
	uint64_t index = vnpu_param(fd, VNPU_PARAM_DEVICE_INDEX);
	uint64_t client = vnpu_param(fd, VNPU_PARAM_CLIENT_ID);

	if (index == UINT64_MAX || client == UINT64_MAX)
		return -EINVAL;
	return vnpu_va_resolve((unsigned int)index, client, va, len, r);
}
