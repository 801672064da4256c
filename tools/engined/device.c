// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the devices vnpu-engined serves: finding them with
 * libascendcl's own node walk (lib/drv/drv_node.c), attaching as their
 * engine server, mapping the control page, and attaching again after the
 * kernel reset an engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "drv.h"
#include "engined.h"

/* Most workers a device may ask for (the module allows 16). */
#define ENGINED_MAX_ENGINES 256

struct found {
	unsigned int index;
	int fd;
	char path[DRV_NODE_PATH_MAX];
};

static bool wanted(unsigned int index, const unsigned int *want, unsigned int nwant)
{
	unsigned int i;

	if (!nwant)
		return true;
	for (i = 0; i < nwant; i++)
		if (want[i] == index)
			return true;
	return false;
}

/* What the node walk collects. */
struct scan {
	const unsigned int *want;
	unsigned int nwant;
	struct found *out;
	unsigned int n;
};

/*
 * One vnpu node: kept when it is a device we serve and the first node of
 * its index; -EPROTO (the walk stops) for a module of another ABI.
 */
static int probe_node(const char *path, int fd, void *arg)
{
	struct scan *sc = arg;
	uint64_t abi = 0, index = 0;
	unsigned int j;
	int ret;

	ret = drv_get_param(fd, VNPU_PARAM_ABI_VERSION, &abi);
	if (ret) {
		log_err("%s: cannot read the vnpu ABI version: %s", path, strerror(-ret));
		return DRV_NODE_NEXT;
	}
	if (abi >> 16 != VNPU_ABI_MAJOR) {
		log_err("%s: the vnpu module speaks ABI %u.%u, this vnpu-engined ABI %u.%u "
			"(major versions differ: use the server built with the module)",
			path, (unsigned int)(abi >> 16), (unsigned int)(abi & 0xffff), VNPU_ABI_MAJOR,
			VNPU_ABI_MINOR);
		return -EPROTO;
	}
	if (drv_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &index) || index >= ENGINED_MAX_DEVICES ||
	    !wanted((unsigned int)index, sc->want, sc->nwant) || sc->n == ENGINED_MAX_DEVICES)
		return DRV_NODE_NEXT;
	for (j = 0; j < sc->n; j++)
		if (sc->out[j].index == index)
			return DRV_NODE_NEXT;	/* its other node */
	sc->out[sc->n].index = (unsigned int)index;
	sc->out[sc->n].fd = fd;
	snprintf(sc->out[sc->n].path, sizeof(sc->out[sc->n].path), "%s", path);
	sc->n++;
	return DRV_NODE_KEEP;
}

/* Every vnpu node we serve, one per device index (accel nodes first). */
static int scan(const unsigned int *want, unsigned int nwant, struct found *out,
		unsigned int *nout)
{
	struct scan sc = { .want = want, .nwant = nwant, .out = out };
	unsigned int j;
	int ret;

	ret = drv_nodes(probe_node, &sc);
	if (ret < 0) {
		for (j = 0; j < sc.n; j++)
			close(out[j].fd);
		return ret;
	}
	*nout = sc.n;
	return 0;
}

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* Takes @f's node fd: kept on success, closed on failure. */
static int device_init(struct device *dev, struct engined *srv, const struct found *f)
{
	int ret;

	dev->srv = srv;
	dev->index = f->index;
	dev->node_fd = f->fd;
	dev->efd = -1;
	snprintf(dev->path, sizeof(dev->path), "%s", f->path);
	dev->window = (struct window){ 0 };
	ret = -pthread_mutex_init(&dev->lock, NULL);
	if (ret)
		goto err;
	ret = -pthread_cond_init(&dev->cond, NULL);
	if (ret)
		goto err_lock;
	return 0;
err_lock:
	pthread_mutex_destroy(&dev->lock);
err:
	close(f->fd);
	dev->node_fd = -1;
	return ret;
}

int devices_find(struct engined *srv, const unsigned int *want, unsigned int nwant)
{
	struct found found[ENGINED_MAX_DEVICES];
	unsigned int i, n;
	int ret;

	ret = scan(want, nwant, found, &n);
	if (ret)
		return ret;
	for (i = 0; i < nwant; i++) {
		unsigned int j;
		bool seen = false;

		for (j = 0; j < n; j++)
			seen |= found[j].index == want[i];
		if (!seen) {
			log_err("no vnpu device %u (is the module loaded with enough devices?)",
				want[i]);
			ret = -ENODEV;
		}
	}
	if (!ret && !n) {
		log_err("no vnpu device found (is the vnpu module loaded?)");
		ret = -ENODEV;
	}
	if (!ret) {
		srv->devs = calloc(n, sizeof(*srv->devs));
		if (!srv->devs)
			ret = -ENOMEM;
	}
	if (ret) {
		for (i = 0; i < n; i++)
			close(found[i].fd);
		return ret;
	}
	qsort(found, n, sizeof(found[0]), cmp_found);
	for (i = 0; i < n && !ret; i++) {
		ret = device_init(&srv->devs[i], srv, &found[i]);
		if (!ret)
			srv->ndevs++;
	}
	for (; i < n; i++)
		close(found[i].fd);
	return ret;
}

static void attach_error(const struct device *dev, int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		log_err("vnpu device %u (%s): not allowed to attach: the engine server must run "
			"as root (CAP_SYS_ADMIN)", dev->index, dev->path);
		break;
	case EBUSY:
		log_err("vnpu device %u (%s): another engine server is attached", dev->index,
			dev->path);
		break;
	default:
		log_err("vnpu device %u (%s): ENGINE_ATTACH: %s", dev->index, dev->path,
			strerror(err));
		break;
	}
}

/* The attachment's numbers, checked before anything relies on them. */
static int check_attach(const struct device *dev, const struct drm_vnpu_engine_attach *a)
{
	uint64_t ctl_need = offsetof(struct drm_vnpu_engine_ctl, cancel) +
			    (uint64_t)a->num_slots * sizeof(uint32_t);

	if (!a->num_engines || a->num_engines > ENGINED_MAX_ENGINES || !a->num_slots ||
	    a->num_slots > VNPU_ENGINE_SLOTS || a->ctl_size < ctl_need ||
	    a->ctl_offset > INT64_MAX || !a->buffers_size || a->buffers_size > SIZE_MAX ||
	    a->buffers_offset > INT64_MAX - a->buffers_size) {
		log_err("vnpu device %u: the kernel gave %u engines, %u slots, a control page "
			"of %u bytes and a buffer window of %llu: not usable", dev->index,
			a->num_engines, a->num_slots, a->ctl_size,
			(unsigned long long)a->buffers_size);
		return -EPROTO;
	}
	if (dev->workers && a->num_engines != dev->num_engines) {
		log_err("vnpu device %u: attached again with %u engines instead of %u",
			dev->index, a->num_engines, dev->num_engines);
		return -EPROTO;
	}
	return 0;
}

/* Open the node again (to attach again): the same device, at the same path. */
static int reopen_node(struct device *dev)
{
	uint64_t index = 0;
	int fd;

	fd = open(dev->path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		log_err("vnpu device %u: reopening %s: %s", dev->index, dev->path, strerror(err));
		return -err;
	}
	if (!drv_is_vnpu(fd) || drv_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &index) ||
	    index != dev->index) {
		log_err("vnpu device %u: %s is no longer that device", dev->index, dev->path);
		close(fd);
		return -ENODEV;
	}
	dev->node_fd = fd;
	return 0;
}

static int attach_ioctl(struct device *dev, struct drm_vnpu_engine_attach *a)
{
	int ret = 0;

	if (dev->node_fd < 0) {
		ret = reopen_node(dev);
		if (ret)
			return ret;
	}
	if (drmIoctl(dev->node_fd, DRM_IOCTL_VNPU_ENGINE_ATTACH, a)) {
		ret = -errno;
		attach_error(dev, -ret);
	}
	/*
	 * The engine file holds the device; the node would only make the
	 * server look like one of its clients (fdinfo, vnpu-smi).
	 */
	close(dev->node_fd);
	dev->node_fd = -1;
	return ret;
}

int device_attach(struct device *dev)
{
	struct drm_vnpu_engine_attach a = { 0 };
	void *ctl;
	int ret;

	ret = attach_ioctl(dev, &a);
	if (ret)
		return ret;
	ret = check_attach(dev, &a);
	if (ret)
		goto err;
	ctl = mmap(NULL, a.ctl_size, PROT_READ, MAP_SHARED, (int)a.fd, (off_t)a.ctl_offset);
	if (ctl == MAP_FAILED) {
		ret = -errno;
		log_err("vnpu device %u: mapping the control page: %s", dev->index, strerror(-ret));
		goto err;
	}
	ret = window_map(&dev->window, (int)a.fd, a.buffers_offset, a.buffers_size);
	if (ret) {
		log_err("vnpu device %u: mapping the buffer window (%llu bytes): %s", dev->index,
			(unsigned long long)a.buffers_size, strerror(-ret));
		munmap(ctl, a.ctl_size);
		goto err;
	}
	dev->efd = (int)a.fd;
	dev->ctl = ctl;
	dev->ctl_size = a.ctl_size;
	dev->num_engines = a.num_engines;
	dev->num_slots = a.num_slots;
	log_debug("vnpu device %u (%s): attached: %u engines, %u slots", dev->index, dev->path,
		  a.num_engines, a.num_slots);
	return 0;
err:
	close((int)a.fd);
	return ret;
}

/* Drop the attachment: unmap its buffer window and control page, close the file. */
static void device_drop_attachment(struct device *dev)
{
	window_unmap(&dev->window);
	if (dev->ctl)
		munmap((void *)dev->ctl, dev->ctl_size);
	dev->ctl = NULL;
	if (dev->efd >= 0)
		close(dev->efd);
	dev->efd = -1;
}

void device_detach(struct device *dev)
{
	device_drop_attachment(dev);
	if (dev->node_fd >= 0)
		close(dev->node_fd);
	dev->node_fd = -1;
	pthread_cond_destroy(&dev->cond);
	pthread_mutex_destroy(&dev->lock);
}

/* Called by the last worker to arrive, the others waiting: nobody uses it. */
static int device_reattach_locked(struct device *dev)
{
	device_drop_attachment(dev);
	return device_attach(dev);
}

int device_reset(struct device *dev)
{
	struct engined *srv = dev->srv;
	unsigned int gen;
	int ret = -1;

	pthread_mutex_lock(&dev->lock);
	gen = dev->gen;
	if (!dev->waiting++)
		log_info("vnpu device %u: the kernel reset the engine; attaching again", dev->index);
	while (dev->gen == gen && !atomic_load(&srv->stop)) {
		struct timespec until;

		if (dev->waiting == dev->num_engines) {
			if (device_reattach_locked(dev)) {
				engined_fail(srv);
				break;
			}
			dev->gen++;
			log_info("vnpu device %u: attached again", dev->index);
			pthread_cond_broadcast(&dev->cond);
			break;
		}
		/* Workers still blocked in RUN get a kick now and then. */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&dev->cond, &dev->lock, &until) == ETIMEDOUT)
			workers_kick(dev);
	}
	if (dev->gen != gen)
		ret = 0;
	dev->waiting--;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

void device_wake(struct device *dev)
{
	pthread_mutex_lock(&dev->lock);
	pthread_cond_broadcast(&dev->cond);
	pthread_mutex_unlock(&dev->lock);
}
