// SPDX-License-Identifier: MIT
/*
 * rt_device.c - devices: opening a vnpu node per device index (refused
 * unless its ABI is compatible and an engine server is attached), the
 * aclrtSetDevice reference count, the default context, teardown at reset.
 *
 * A device index has at most one open rt_dev at a time (slots[index]). The
 * slot holds one reference; contexts, streams, events and allocations hold
 * one each. Resetting a device empties its slot and tears down everything
 * created on it; the file descriptor is closed when the last reference goes,
 * so a thread still inside a call on that device never sees its descriptor
 * reused.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_errmap.h"

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	struct rt_dev *dev;
	uint32_t set_count;
} slots[RT_MAX_DEVICES];

void rt_dev_get(struct rt_dev *dev)
{
	atomic_fetch_add(&dev->refs, 1);
}

void rt_dev_put(struct rt_dev *dev)
{
	if (!dev || atomic_fetch_sub(&dev->refs, 1) != 1)
		return;
	rt_slotpool_destroy(dev);
	rt_imap_clear(&dev->mem);
	drv_close(dev->fd);
	pthread_rwlock_destroy(&dev->mem_lock);
	pthread_mutex_destroy(&dev->lock);
	pthread_mutex_destroy(&dev->slots.lock);
	pthread_mutex_destroy(&dev->ws_lock);
	pthread_mutex_destroy(&dev->util_lock);
	free(dev);
}

aclError rt_device_count(uint32_t *count)
{
	unsigned int n = 0;
	int ret = drv_count(&n);

	if (ret || !n)
		return rt_err(ACL_ERROR_RT_NO_DEVICE, "no vnpu device found (is the vnpu module loaded?)");
	*count = n;
	return ACL_SUCCESS;
}

static aclError check_index(int32_t index)
{
	unsigned int n = 0;

	if (index < 0 || index >= RT_MAX_DEVICES)
		return rt_err(ACL_ERROR_RT_INVALID_DEVICEID, "device id %d is out of range", index);
	if (slots[index].dev)
		return ACL_SUCCESS;
	if (drv_count(&n) || !n)
		return rt_err(ACL_ERROR_RT_INVALID_DEVICEID,
			      "device id %d: no vnpu device found (is the vnpu module loaded?)", index);
	if ((unsigned int)index >= n)
		return rt_err(ACL_ERROR_RT_INVALID_DEVICEID, "device id %d is out of range: %u device%s", index,
			      n, n == 1 ? "" : "s");
	return ACL_SUCCESS;
}

/* Does a module of ABI @abi (major << 16 | minor) serve this library, built
 * for @major.@minor? The same major, and at least that minor. */
static bool abi_compatible(uint64_t abi, uint32_t major, uint32_t minor)
{
	return abi >> 16 == major && (abi & 0xffff) >= minor;
}

/*
 * Can this library use the device behind @fd? Its ABI must be compatible,
 * and an engine server must be attached: without one every submit would
 * fail (-ENOTCONN), so the device is refused at once, saying what to do.
 */
static aclError dev_check(int fd, int32_t index)
{
	uint64_t abi = 0, attached = 0;
	int ret;

	ret = drv_get_param(fd, VNPU_PARAM_ABI_VERSION, &abi);
	if (ret)
		return rt_err_errno(ret, "cannot read the ABI version of vnpu device %d", index);
	if (!abi_compatible(abi, VNPU_ABI_MAJOR, VNPU_ABI_MINOR))
		return rt_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			      "vnpu device %d speaks ABI %u.%u; this libascendcl needs %u.%u or a later %u.x (load the vnpu.ko built with it)",
			      index, (unsigned int)(abi >> 16), (unsigned int)(abi & 0xffff),
			      VNPU_ABI_MAJOR, VNPU_ABI_MINOR, VNPU_ABI_MAJOR);
	ret = drv_get_param(fd, VNPU_PARAM_ENGINE_ATTACHED, &attached);
	if (ret)
		return rt_err_errno(ret, "cannot ask vnpu device %d whether it has an engine server", index);
	if (!attached)
		return rt_err(ACL_ERROR_RT_DEV_SETUP_ERROR, RT_NO_ENGINE_FMT, (unsigned int)index);
	return ACL_SUCCESS;
}

/* Open device @index into its slot. Called with dev_lock held. */
static aclError dev_open(int32_t index)
{
	struct rt_context *ctx;
	struct rt_dev *dev;
	aclError ret;
	int fd;

	fd = drv_open((unsigned int)index);
	if (fd < 0)
		return rt_err_errno(fd, "cannot open vnpu device %d", index);
	ret = dev_check(fd, index);
	if (ret) {
		drv_close(fd);
		return ret;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		drv_close(fd);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	}
	atomic_init(&dev->refs, 1);
	dev->fd = fd;
	dev->index = (unsigned int)index;
	pthread_mutex_init(&dev->lock, NULL);
	pthread_mutex_init(&dev->slots.lock, NULL);
	pthread_rwlock_init(&dev->mem_lock, NULL);
	pthread_mutex_init(&dev->ws_lock, NULL);
	pthread_mutex_init(&dev->util_lock, NULL);
	/* A new file has used no engine time yet. */
	dev->util_ns = rt_now_ns();
	atomic_init(&dev->sat_mode, ACL_RT_OVERFLOW_MODE_INFNAN);
	rt_wslist_init(&dev->ws_idle);
	rt_list_init(&dev->contexts);
	rt_list_init(&dev->streams);
	rt_list_init(&dev->events);
	rt_imap_init(&dev->mem);

	ret = rt_context_create(dev, true, &ctx);
	if (ret) {
		rt_dev_put(dev);
		return ret;
	}
	dev->default_ctx = ctx;
	rt_context_put(ctx); /* the registry and the list keep it */
	slots[index].dev = dev;
	return ACL_SUCCESS;
}

/* The open device @index (opened if needed), referenced; counts an
 * aclrtSetDevice use if @count_use. */
static aclError dev_get_slot(int32_t index, bool count_use, struct rt_dev **out)
{
	aclError ret;

	pthread_mutex_lock(&dev_lock);
	ret = check_index(index);
	if (!ret && !slots[index].dev)
		ret = dev_open(index);
	if (!ret) {
		if (count_use)
			slots[index].set_count++;
		*out = slots[index].dev;
		rt_dev_get(*out);
	}
	pthread_mutex_unlock(&dev_lock);
	return ret;
}

aclError rt_device_set(int32_t index)
{
	aclError ret;

	pthread_mutex_lock(&dev_lock);
	ret = check_index(index);
	if (!ret && !slots[index].dev)
		ret = dev_open(index);
	if (!ret) {
		/* Teardown empties the slot under dev_lock first, so the
		 * default context is alive while we hold it. */
		slots[index].set_count++;
		rt_context_set_current(slots[index].dev->default_ctx);
	}
	pthread_mutex_unlock(&dev_lock);
	return ret;
}

aclError rt_device_open(int32_t index, struct rt_dev **out)
{
	return dev_get_slot(index, false, out);
}

aclError rt_device_check_id(int32_t index)
{
	aclError ret;

	pthread_mutex_lock(&dev_lock);
	ret = check_index(index);
	pthread_mutex_unlock(&dev_lock);
	return ret;
}

aclError rt_device_param(int32_t index, uint32_t param, uint64_t *value)
{
	struct rt_dev *dev;
	int fd, ret;
	aclError err;

	err = rt_device_check_id(index);
	if (err)
		return err;
	dev = rt_device_get_open(index);
	if (dev) {
		ret = drv_get_param(dev->fd, param, value);
		rt_dev_put(dev);
	} else {
		/* Queries must not need aclrtSetDevice: a file of our own, for
		 * this one question. */
		fd = drv_open((unsigned int)index);
		if (fd < 0)
			return rt_err_errno(fd, "cannot open vnpu device %d", index);
		ret = drv_get_param(fd, param, value);
		drv_close(fd);
	}
	if (ret)
		return rt_err_errno(ret, "cannot read parameter %u of vnpu device %d", param, index);
	return ACL_SUCCESS;
}

bool rt_device_is_set(int32_t index)
{
	bool set;

	if (index < 0 || index >= RT_MAX_DEVICES)
		return false;
	pthread_mutex_lock(&dev_lock);
	set = slots[index].dev && slots[index].set_count > 0;
	pthread_mutex_unlock(&dev_lock);
	return set;
}

struct rt_dev *rt_device_get_open(int index)
{
	struct rt_dev *dev;

	if (index < 0 || index >= RT_MAX_DEVICES)
		return NULL;
	pthread_mutex_lock(&dev_lock);
	dev = slots[index].dev;
	if (dev)
		rt_dev_get(dev);
	pthread_mutex_unlock(&dev_lock);
	return dev;
}

/*
 * Unlink the first entry of @list (the entries' list link and object are at
 * @link_off and @obj_off) under the device lock; its object, referenced, or
 * NULL when the list is empty.
 */
static struct rt_obj *dev_pop(struct rt_dev *dev, struct rt_list *list, size_t link_off,
			      size_t obj_off)
{
	struct rt_obj *obj = NULL;

	pthread_mutex_lock(&dev->lock);
	if (!rt_list_empty(list)) {
		char *entry = (char *)list->next - link_off;

		rt_list_del(list->next);
		obj = (struct rt_obj *)(entry + obj_off);
		rt_obj_get(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	return obj;
}

/* Everything created on @dev goes away; outstanding work is waited for. */
static void dev_teardown(struct rt_dev *dev)
{
	struct rt_obj *obj;

	pthread_mutex_lock(&dev->lock);
	dev->dead = true;
	pthread_mutex_unlock(&dev->lock);

	rt_callback_device_gone(dev);

	while ((obj = dev_pop(dev, &dev->streams, offsetof(struct rt_stream, dev_link),
			      offsetof(struct rt_stream, obj)))) {
		struct rt_stream *s = rt_container_of(obj, struct rt_stream, obj);

		rt_stream_destroy(s, false);
		rt_stream_put(s);
	}
	while ((obj = dev_pop(dev, &dev->events, offsetof(struct rt_event, dev_link),
			      offsetof(struct rt_event, obj)))) {
		struct rt_event *ev = rt_container_of(obj, struct rt_event, obj);

		rt_event_destroy(ev);
		rt_event_put(ev);
	}
	while ((obj = dev_pop(dev, &dev->contexts, offsetof(struct rt_context, dev_link),
			      offsetof(struct rt_context, obj)))) {
		struct rt_context *ctx = rt_container_of(obj, struct rt_context, obj);

		rt_context_destroy(ctx);
		rt_context_put(ctx);
	}
	dev->default_ctx = NULL;

	rt_pool_ws_device_gone(dev);
	rt_memory_release_all(dev);
}

aclError rt_device_reset(int32_t index, bool force)
{
	struct rt_dev *dev;

	if (index < 0 || index >= RT_MAX_DEVICES)
		return rt_err(ACL_ERROR_RT_INVALID_DEVICEID, "device id %d is out of range", index);
	pthread_mutex_lock(&dev_lock);
	dev = slots[index].dev;
	if (!dev) {
		aclError ret = check_index(index);

		pthread_mutex_unlock(&dev_lock);
		return ret;
	}
	/*
	 * Not set (the device is open only for explicit contexts, or its
	 * count went already): a plain reset has no count to release and
	 * does nothing. Otherwise it releases one count; the last one tears
	 * the device down.
	 */
	if (!force && slots[index].set_count != 1) {
		if (slots[index].set_count)
			slots[index].set_count--;
		pthread_mutex_unlock(&dev_lock);
		return ACL_SUCCESS;
	}
	slots[index].set_count = 0;
	slots[index].dev = NULL;
	pthread_mutex_unlock(&dev_lock);

	dev_teardown(dev);
	rt_dev_put(dev);
	return ACL_SUCCESS;
}

void rt_device_reset_all(void)
{
	int i;

	for (i = 0; i < RT_MAX_DEVICES; i++) {
		struct rt_dev *dev;

		pthread_mutex_lock(&dev_lock);
		dev = slots[i].dev;
		slots[i].dev = NULL;
		slots[i].set_count = 0;
		pthread_mutex_unlock(&dev_lock);
		if (dev) {
			dev_teardown(dev);
			rt_dev_put(dev);
		}
	}
}

aclError rt_device_synchronize(struct rt_dev *dev, int64_t deadline)
{
	aclError ret = ACL_SUCCESS;
	struct rt_stream_walk walk;
	struct rt_stream *s;

	/*
	 * Every stream is waited for, also after one has failed (its error is
	 * the one returned, with its message); only running out of time stops
	 * the waiting, and then the timeout is what the caller gets.
	 */
	rt_stream_walk_begin(&walk, dev);
	while ((s = rt_stream_walk_next(&walk))) {
		aclError first = ret, r;
		bool quiet = false;

		if (ret == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
			rt_stream_put(s);
			continue;
		}
		if (first)
			quiet = rt_err_quiet(true);
		r = rt_stream_synchronize(s, deadline);
		if (first)
			rt_err_quiet(quiet);
		if (r == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT && ret)
			ret = rt_err(r, "device %u: stream %p did not finish its work in time", dev->index,
				     (void *)s);
		else if (r && !ret)
			ret = r;
		rt_stream_put(s);
	}
	return ret;
}

aclError rt_device_mem_info(struct rt_dev *dev, size_t *free_bytes, size_t *total)
{
	uint64_t capacity, used;
	int ret;

	ret = drv_get_param(dev->fd, VNPU_PARAM_MEM_CAPACITY, &capacity);
	if (!ret)
		ret = drv_get_param(dev->fd, VNPU_PARAM_MEM_USED, &used);
	if (ret)
		return rt_err_errno(ret, "cannot query the memory of device %u", dev->index);
	*total = (size_t)capacity;
	*free_bytes = (size_t)(used < capacity ? capacity - used : 0);
	return ACL_SUCCESS;
}
