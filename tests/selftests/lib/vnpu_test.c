// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the vnpu selftests.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>

#include "vnpu_test.h"

static bool is_vnpu(int fd)
{
	drmVersionPtr version = drmGetVersion(fd);
	bool ok;

	if (!version)
		return false;
	ok = !strcmp(version->name, "vnpu");
	drmFreeVersion(version);
	return ok;
}

/* Open the idx-th vnpu node in device order (by VNPU_PARAM_DEVICE_INDEX). */
int vnpu_open_device(unsigned int index)
{
	char path[64];
	int minor;

	for (minor = 128; minor < 192; minor++) {
		uint64_t value;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_vnpu(fd) && !vnpu_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &value) &&
		    value == index)
			return fd;
		close(fd);
	}
	return -1;
}

unsigned int vnpu_count_devices(void)
{
	unsigned int n = 0;
	int fd;

	while ((fd = vnpu_open_device(n)) >= 0) {
		close(fd);
		n++;
	}
	return n;
}

int vnpu_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

int vnpu_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param args = { .param = param };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &args);

	if (!ret)
		*value = args.value;
	return ret;
}

int vnpu_bo_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create args = { .size = size, .flags = flags };
	int ret = vnpu_ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &args);

	if (!ret) {
		*handle = args.handle;
		if (va)
			*va = args.va;
	}
	return ret;
}

int vnpu_bo_info(int fd, uint32_t handle, struct drm_vnpu_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return vnpu_ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, info);
}

int vnpu_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	return vnpu_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &args);
}

void *vnpu_bo_mmap(int fd, uint32_t handle, size_t size)
{
	struct drm_vnpu_bo_info info;
	void *ptr;

	if (vnpu_bo_info(fd, handle, &info) || !info.mmap_offset)
		return NULL;
	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)info.mmap_offset);
	return ptr == MAP_FAILED ? NULL : ptr;
}

bool vnpu_module_param(const char *name, unsigned long *value)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%lu", value) == 1;
	fclose(f);
	return ok;
}

static int write_file(const char *path, const char *value)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int vnpu_set_module_param(const char *name, unsigned long value)
{
	char path[128], text[32];

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	snprintf(text, sizeof(text), "%lu", value);
	return write_file(path, text);
}

/* debugfs lives under the primary minor: find the card node next to ours. */
int vnpu_primary_minor(unsigned int index)
{
	char path[128];
	struct dirent *d;
	struct stat st;
	int fd, card = -1;
	DIR *dir;

	fd = vnpu_open_device(index);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	close(fd);
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/drm",
		 major(st.st_rdev), minor(st.st_rdev));
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "card%d", &card) == 1)
			break;
	closedir(dir);
	return card;
}

int vnpu_debugfs_write(unsigned int index, const char *file, const char *value)
{
	char path[128];
	int card = vnpu_primary_minor(index);

	if (card < 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/%s", card, file);
	return write_file(path, value);
}

int vnpu_fault_arm(unsigned int index, const char *point, int times)
{
	char file[64], value[16];
	int ret;

	snprintf(file, sizeof(file), "%s/probability", point);
	ret = vnpu_debugfs_write(index, file, times ? "100" : "0");
	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s/interval", point);
	ret = vnpu_debugfs_write(index, file, "1");
	if (ret)
		return ret;
	/* The kernel's fault_attr has it, the module's stand-in does not. */
	snprintf(file, sizeof(file), "%s/verbose", point);
	ret = vnpu_debugfs_write(index, file, "0");
	if (ret && ret != -ENOENT)
		return ret;
	snprintf(file, sizeof(file), "%s/times", point);
	snprintf(value, sizeof(value), "%d", times);
	return vnpu_debugfs_write(index, file, value);
}
