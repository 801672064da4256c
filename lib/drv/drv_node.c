// SPDX-License-Identifier: MIT
/*
 * drv_node.c - finding vnpu device nodes, the one place that knows where
 * they live and how to tell them from other DRM nodes. Linked into
 * libascendcl and into the tools (vnpu-engined, vnpu-modload, vnpu-smi).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "drv.h"

bool drv_is_vnpu(int fd)
{
	drmVersionPtr version = drmGetVersion(fd);
	bool ok;

	if (!version)
		return false;
	ok = version->name && !strcmp(version->name, "vnpu");
	drmFreeVersion(version);
	return ok;
}

int drv_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param args = { .param = param };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &args))
		return -errno;
	*value = args.value;
	return 0;
}

int drv_engine_busy_ns(int fd, uint64_t *ns)
{
	static const char key[] = "drm-engine-compute:";
	char path[64], line[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* "drm-engine-compute:\t<n> ns" (the DRM usage-stats format). */
		if (!strncmp(line, key, sizeof(key) - 1)) {
			*ns = strtoull(line + sizeof(key) - 1, NULL, 10);
			found = true;
			break;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

int drv_nodes(int (*fn)(const char *path, int fd, void *arg), void *arg)
{
	/* Accel nodes where the kernel has them, render nodes on 6.1. */
	static const struct {
		const char *dir;
		const char *prefix;
	} places[] = {
		{ "/dev/accel", "accel" },
		{ "/dev/dri", "renderD" },
	};
	unsigned int i;
	int ret = DRV_NODE_NEXT;

	for (i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		DIR *dir = opendir(places[i].dir);
		struct dirent *d;

		if (!dir)
			continue;
		while ((d = readdir(dir))) {
			char path[DRV_NODE_PATH_MAX];
			int fd;

			if (strncmp(d->d_name, places[i].prefix, strlen(places[i].prefix)) ||
			    snprintf(path, sizeof(path), "%s/%s", places[i].dir, d->d_name) >=
			    (int)sizeof(path))
				continue;
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			ret = drv_is_vnpu(fd) ? fn(path, fd, arg) : DRV_NODE_NEXT;
			if (ret == DRV_NODE_NEXT || ret < 0)
				close(fd);
			if (ret != DRV_NODE_NEXT && ret != DRV_NODE_KEEP)
				break;
		}
		closedir(dir);
		if (ret != DRV_NODE_NEXT && ret != DRV_NODE_KEEP)
			return ret;
	}
	return 0;
}
