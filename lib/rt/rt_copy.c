// SPDX-License-Identifier: MIT
/*
 * rt_copy.c - memcpy, memset and stream value writes/waits.
 *
 * Paths:
 *  - Synchronous calls copy on the CPU through the runtime's mappings of
 *    the buffers (device memory is mapped on first use). As CANN documents,
 *    they do not synchronise any stream.
 *  - Async calls whose two ends are device-addressable memory of the
 *    stream's device (aclrtMalloc or aclrtMallocHost memory) queue one COPY
 *    (or FILL) task and return.
 *  - Async calls with an end in ordinary pageable host memory (or in another
 *    device's memory, or ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) must have finished
 *    when they return, as CANN documents for pageable memory: they wait for
 *    the stream's earlier work, then copy on the CPU. The copy thus happens
 *    in stream order, and the host memory may be reused at once.
 *
 * The kernel never polls the words that WAIT_VALUE tasks (aclrtValueWait,
 * blocking callbacks) watch: a CPU store into device-addressable memory is
 * announced with a SIGNAL of the range written (host_wrote()), so a stream
 * waiting for a value that aclrtMemcpy or aclrtMemset writes goes on at
 * once. Writes into pageable host memory need none.
 */
#include <string.h>

#include "rt.h"
#include "rt_kind.h"

static enum rt_loc loc_of(const struct rt_ptr *p)
{
	return p->alloc && !p->alloc->host ? RT_LOC_DEVICE : RT_LOC_HOST;
}

static bool on_device(const struct rt_ptr *p, const struct rt_dev *dev)
{
	return p->alloc && p->alloc->dev == dev;
}

static uint64_t device_va(const struct rt_ptr *p)
{
	return p->alloc->va + p->offset;
}

/*
 * The CPU wrote @count bytes at @p (device-addressable memory, or pageable
 * host memory when p->alloc is NULL): let parked waits on words there look
 * again. The range lies in one live allocation the caller holds, so the
 * SIGNAL's only errors (argument and range errors) cannot happen; the
 * write itself is done either way, so nothing is reported.
 */
static void host_wrote(const struct rt_ptr *p, size_t count)
{
	if (p->alloc && count)
		(void)drv_signal(p->alloc->dev->fd, device_va(p), count, NULL);
}

aclError rt_memcpy(struct rt_dev *dev, void *dst, size_t dst_max, const void *src, size_t count,
		   int kind, struct rt_stream *async)
{
	struct rt_ptr d = { 0 }, s = { 0 };
	void *dcpu, *scpu;
	enum rt_dir dir;
	aclError ret;
	int staged, r;

	(void)dst_max;
	ret = rt_ptr_resolve(dev, dst, count, "destination", &d);
	if (ret)
		return ret;
	ret = rt_ptr_resolve(dev, src, count, "source", &s);
	if (ret)
		goto out;
	r = rt_memcpy_direction(kind, loc_of(&d), loc_of(&s), &dir, &staged);
	if (r == RT_KIND_UNKNOWN) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "kind %d is not an aclrtMemcpyKind", kind);
		goto out;
	}
	if (r == RT_KIND_MISMATCH) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "kind %s does not match the addresses: %p is %s memory, %p is %s memory",
			     rt_memcpy_kind_name(kind), dst, rt_loc_name(loc_of(&d)), src, rt_loc_name(loc_of(&s)));
		goto out;
	}
	if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE && d.alloc->dev != s.alloc->dev) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM,
			     "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE between devices %u and %u",
			     s.alloc->dev->index, d.alloc->dev->index);
		goto out;
	}
	if (!count)
		goto out;

	if (async) {
		if (!staged && on_device(&d, async->dev) && on_device(&s, async->dev)) {
			struct drm_vnpu_task task;

			memset(&task, 0, sizeof(task));
			task.kind = VNPU_TASK_COPY;
			task.copy.dst = device_va(&d);
			task.copy.src = device_va(&s);
			task.copy.size = count;
			ret = rt_stream_submit(async, &task, 1, NULL, 0, NULL);
			goto out;
		}
		ret = rt_stream_synchronize(async, RT_FOREVER);
		if (ret)
			goto out;
	}
	ret = rt_ptr_cpu(&d, dst, &dcpu);
	if (!ret)
		ret = rt_ptr_cpu(&s, src, &scpu);
	if (!ret) {
		memmove(dcpu, scpu, count);
		host_wrote(&d, count);
	}
out:
	rt_ptr_release(&d);
	rt_ptr_release(&s);
	return ret;
}

aclError rt_memset(struct rt_dev *dev, void *dst, size_t max, int value, size_t count,
		   struct rt_stream *async)
{
	struct rt_ptr d = { 0 };
	aclError ret;
	void *cpu;

	(void)max;
	ret = rt_ptr_resolve(dev, dst, count, "destination", &d);
	if (ret || !count)
		goto out;
	if (async) {
		if (on_device(&d, async->dev)) {
			struct drm_vnpu_task task;

			memset(&task, 0, sizeof(task));
			task.kind = VNPU_TASK_FILL;
			task.fill.dst = device_va(&d);
			task.fill.size = count;
			task.fill.value = (uint32_t)value & 0xff;
			ret = rt_stream_submit(async, &task, 1, NULL, 0, NULL);
			goto out;
		}
		ret = rt_stream_synchronize(async, RT_FOREVER);
		if (ret)
			goto out;
	}
	ret = rt_ptr_cpu(&d, dst, &cpu);
	if (!ret) {
		memset(cpu, value, count);
		host_wrote(&d, count);
	}
out:
	rt_ptr_release(&d);
	return ret;
}

aclError rt_value_addr(struct rt_dev *dev, void *addr, uint64_t *va)
{
	struct rt_ptr p = { 0 };
	aclError ret;

	if (!addr)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the address must not be NULL");
	if ((uintptr_t)addr % 8)
		return rt_err(ACL_ERROR_INVALID_PARAM, "address %p is not 8-byte aligned", addr);
	ret = rt_ptr_resolve(dev, addr, 8, "address", &p);
	if (ret)
		return ret;
	if (!on_device(&p, dev))
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "address %p is not memory of device %u", addr, dev->index);
	else
		*va = device_va(&p);
	rt_ptr_release(&p);
	return ret;
}

aclError rt_value_cmp(uint32_t flag, uint32_t *cmp)
{
	switch (flag) {
	case ACL_VALUE_WAIT_GEQ: *cmp = VNPU_WAIT_GEQ; break;
	case ACL_VALUE_WAIT_EQ: *cmp = VNPU_WAIT_EQ; break;
	case ACL_VALUE_WAIT_AND: *cmp = VNPU_WAIT_AND; break;
	case ACL_VALUE_WAIT_NOR: *cmp = VNPU_WAIT_NOR; break;
	default:
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag %u is not an ACL_VALUE_WAIT_* condition", flag);
	}
	return ACL_SUCCESS;
}

uint32_t rt_value_flag(uint32_t cmp)
{
	switch (cmp) {
	case VNPU_WAIT_EQ: return ACL_VALUE_WAIT_EQ;
	case VNPU_WAIT_AND: return ACL_VALUE_WAIT_AND;
	case VNPU_WAIT_NOR: return ACL_VALUE_WAIT_NOR;
	default: return ACL_VALUE_WAIT_GEQ;
	}
}

aclError rt_value_op(struct rt_stream *s, void *addr, uint64_t value, uint32_t cmp, bool wait)
{
	struct drm_vnpu_task task;
	uint64_t va;
	aclError ret;

	ret = rt_value_addr(s->dev, addr, &va);
	if (ret)
		return ret;
	memset(&task, 0, sizeof(task));
	task.kind = wait ? VNPU_TASK_WAIT_VALUE : VNPU_TASK_WRITE_VALUE;
	task.flags = VNPU_TASK_VALUE_64;
	task.value.addr = va;
	task.value.value = value;
	task.value.cmp = wait ? cmp : 0;
	return rt_stream_submit(s, &task, 1, NULL, 0, NULL);
}
