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
#include <stdint.h>
#include <stdlib.h>
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

/* Resolve and check piece @pc into @d and @s: what rt_memcpy() checks. */
static aclError piece_resolve(struct rt_dev *dev, const struct rt_copy_piece *pc, struct rt_ptr *d, struct rt_ptr *s,
			      int *staged)
{
	enum rt_dir dir;
	aclError ret;
	int r;

	ret = rt_ptr_resolve(dev, pc->dst, pc->count, "destination", d);
	if (ret)
		return ret;
	ret = rt_ptr_resolve(dev, pc->src, pc->count, "source", s);
	if (ret)
		return ret;
	r = rt_memcpy_direction(pc->kind, loc_of(d), loc_of(s), &dir, staged);
	if (r == RT_KIND_UNKNOWN)
		return rt_err(ACL_ERROR_INVALID_PARAM, "kind %d is not an aclrtMemcpyKind", pc->kind);
	if (r == RT_KIND_MISMATCH)
		return rt_err(ACL_ERROR_INVALID_PARAM, "kind %s does not match the addresses: %p is %s memory, %p is %s memory",
			      rt_memcpy_kind_name(pc->kind), pc->dst, rt_loc_name(loc_of(d)), pc->src,
			      rt_loc_name(loc_of(s)));
	if (pc->kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE && d->alloc->dev != s->alloc->dev)
		return rt_err(ACL_ERROR_INVALID_PARAM, "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE between devices %u and %u",
			      s->alloc->dev->index, d->alloc->dev->index);
	return ACL_SUCCESS;
}

/* Queue the pieces as COPY tasks on @st: jobs of at most
 * VNPU_MAX_TASKS_PER_SUBMIT tasks. Empty pieces are left out. */
static aclError queue_pieces(struct rt_stream *st, const struct rt_copy_piece *pc, const struct rt_ptr *d,
			     const struct rt_ptr *s, size_t n)
{
	size_t max = n < VNPU_MAX_TASKS_PER_SUBMIT ? n : VNPU_MAX_TASKS_PER_SUBMIT;
	struct drm_vnpu_task *tasks = calloc(max ? max : 1, sizeof(*tasks));
	aclError ret = ACL_SUCCESS;
	size_t i = 0, k;

	if (!tasks)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	while (i < n && !ret) {
		for (k = 0; i < n && k < max; i++) {
			if (!pc[i].count)
				continue;
			memset(&tasks[k], 0, sizeof(tasks[k]));
			tasks[k].kind = VNPU_TASK_COPY;
			tasks[k].copy.dst = device_va(&d[i]);
			tasks[k].copy.src = device_va(&s[i]);
			tasks[k].copy.size = pc[i].count;
			k++;
		}
		if (k)
			ret = rt_stream_submit(st, tasks, (uint32_t)k, NULL, 0, NULL);
	}
	free(tasks);
	return ret;
}

aclError rt_memcpy_pieces(struct rt_dev *dev, const struct rt_copy_piece *pc, size_t n, struct rt_stream *async,
			  size_t *fail)
{
	struct rt_ptr one[2] = { { 0 } }, *d = one, *s = one + 1;
	bool device_only = async != NULL;
	aclError ret = ACL_SUCCESS;
	size_t i, done = 0, bytes = 0;

	*fail = SIZE_MAX;
	if (n > 1) {
		d = calloc(2 * n, sizeof(*d));
		if (!d)
			return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
		s = d + n;
	}
	for (; done < n; done++) {
		int staged = 0;

		ret = piece_resolve(dev, &pc[done], &d[done], &s[done], &staged);
		if (ret) {
			*fail = done;
			done++;
			goto out;
		}
		if (staged || !on_device(&d[done], async ? async->dev : dev) ||
		    !on_device(&s[done], async ? async->dev : dev))
			device_only = false;
		bytes += pc[done].count;
	}
	if (!bytes)
		goto out;
	/* Device-addressable ends: the stream copies. */
	if (device_only) {
		ret = queue_pieces(async, pc, d, s, n);
		goto out;
	}
	/* Else the CPU copies, in stream order. */
	if (async) {
		ret = rt_stream_synchronize(async, RT_FOREVER);
		if (ret)
			goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		void *dcpu, *scpu;

		if (!pc[i].count)
			continue;
		ret = rt_ptr_cpu(&d[i], pc[i].dst, &dcpu);
		if (!ret)
			ret = rt_ptr_cpu(&s[i], pc[i].src, &scpu);
		if (!ret) {
			memmove(dcpu, scpu, pc[i].count);
			host_wrote(&d[i], pc[i].count);
		}
	}
out:
	for (i = 0; i < done; i++) {
		rt_ptr_release(&d[i]);
		rt_ptr_release(&s[i]);
	}
	if (d != one)
		free(d);
	return ret;
}

aclError rt_memcpy(struct rt_dev *dev, void *dst, size_t dst_max, const void *src, size_t count,
		   int kind, struct rt_stream *async)
{
	struct rt_copy_piece pc = { .dst = dst, .src = src, .count = count, .kind = kind };
	size_t fail;

	(void)dst_max;
	return rt_memcpy_pieces(dev, &pc, 1, async, &fail);
}

/* Store @value (a byte, or a 32-bit word for @width 4) over @count bytes at
 * @cpu. */
static void cpu_fill(unsigned char *cpu, uint32_t value, unsigned int width, size_t count)
{
	size_t i;

	if (width == 1) {
		memset(cpu, (int)value, count);
		return;
	}
	for (i = 0; i + 4 <= count; i += 4)
		memcpy(cpu + i, &value, 4);
}

/* rt_memset() and rt_memset_d32(): @count bytes of @width-byte @value. */
static aclError fill(struct rt_dev *dev, void *dst, uint32_t value, unsigned int width, size_t count,
		     struct rt_stream *async)
{
	struct rt_ptr d = { 0 };
	aclError ret;
	void *cpu;

	ret = rt_ptr_resolve(dev, dst, count, "destination", &d);
	if (ret || !count)
		goto out;
	if (async) {
		if (on_device(&d, async->dev) && device_va(&d) % width == 0) {
			struct drm_vnpu_task task;

			memset(&task, 0, sizeof(task));
			task.kind = VNPU_TASK_FILL;
			task.flags = width == 4 ? VNPU_TASK_FILL_32 : 0;
			task.fill.dst = device_va(&d);
			task.fill.size = count;
			task.fill.value = value;
			ret = rt_stream_submit(async, &task, 1, NULL, 0, NULL);
			goto out;
		}
		ret = rt_stream_synchronize(async, RT_FOREVER);
		if (ret)
			goto out;
	}
	ret = rt_ptr_cpu(&d, dst, &cpu);
	if (!ret) {
		cpu_fill(cpu, value, width, count);
		host_wrote(&d, count);
	}
out:
	rt_ptr_release(&d);
	return ret;
}

aclError rt_memset(struct rt_dev *dev, void *dst, size_t max, int value, size_t count,
		   struct rt_stream *async)
{
	(void)max;
	return fill(dev, dst, (uint32_t)value & 0xff, 1, count, async);
}

aclError rt_memset_d32(struct rt_dev *dev, void *dst, uint32_t value, size_t n, struct rt_stream *async)
{
	if (n > SIZE_MAX / 4)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%zu words do not fit in the address space", n);
	return fill(dev, dst, value, 4, n * 4, async);
}

/* ---- copies whose addresses lie in memory (aclrtMemcpyAsyncWithOffset and
 * the memcpy descriptors) ------------------------------------------------- */

#define DESC_MAGIC 0x76646d63u		/* "cmdv": written by rt_memcpy_desc_set() */

/* The memcpy descriptor as it lies in device memory (RT_MEMCPY_DESC_SIZE
 * bytes, the rest zero). */
struct memcpy_desc {
	uint32_t magic;
	uint32_t kind;
	uint64_t src;
	uint64_t dst;
	uint64_t count;
};

_Static_assert(sizeof(struct memcpy_desc) <= RT_MEMCPY_DESC_SIZE, "descriptor fits its size");

/* Read @n bytes at @where (device or host memory) into @out. */
static aclError read_mem(struct rt_dev *dev, const void *where, void *out, size_t n, const char *what)
{
	struct rt_ptr p = { 0 };
	aclError ret;
	void *cpu;

	ret = rt_ptr_resolve(dev, where, n, what, &p);
	if (!ret)
		ret = rt_ptr_cpu(&p, where, &cpu);
	if (!ret)
		memcpy(out, cpu, n);
	rt_ptr_release(&p);
	return ret;
}

/* Enqueue on @s the device copy of @count bytes from @src to @dst, whose
 * addresses were just read from memory. */
static aclError copy_read(struct rt_stream *s, uint64_t dst, uint64_t src, uint64_t count)
{
	struct rt_copy_piece pc = { .dst = (void *)(uintptr_t)dst, .src = (const void *)(uintptr_t)src,
				    .count = count, .kind = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE };
	size_t fail;

	if (count > SIZE_MAX)
		return rt_err(ACL_ERROR_INVALID_PARAM, "a copy of %llu bytes", (unsigned long long)count);
	return rt_memcpy_pieces(s->dev, &pc, 1, s, &fail);
}

aclError rt_memcpy_offset(struct rt_stream *s, void *const *dst_at, uint64_t dst_off, const void *const *src_at,
			  uint64_t src_off, size_t count)
{
	uint64_t dst, src;
	aclError ret;

	/* The bases may be written by the stream's earlier tasks. */
	ret = rt_stream_synchronize(s, RT_FOREVER);
	if (!ret)
		ret = read_mem(s->dev, dst_at, &dst, sizeof(dst), "dst (where the destination base lies)");
	if (!ret)
		ret = read_mem(s->dev, src_at, &src, sizeof(src), "src (where the source base lies)");
	if (ret)
		return ret;
	if (dst + dst_off < dst || src + src_off < src)
		return rt_err(ACL_ERROR_INVALID_PARAM, "base 0x%llx + offset %llu or 0x%llx + %llu wraps around",
			      (unsigned long long)dst, (unsigned long long)dst_off, (unsigned long long)src,
			      (unsigned long long)src_off);
	return copy_read(s, dst + dst_off, src + src_off, count);
}

aclError rt_memcpy_desc_set(struct rt_dev *dev, void *desc, const void *src, void *dst, size_t count)
{
	struct memcpy_desc d = { .magic = DESC_MAGIC, .kind = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
				 .src = (uint64_t)(uintptr_t)src, .dst = (uint64_t)(uintptr_t)dst, .count = count };
	unsigned char bytes[RT_MEMCPY_DESC_SIZE] = { 0 };
	aclError ret;

	ret = rt_device_range(dev, desc, RT_MEMCPY_DESC_SIZE, "desc", NULL);
	if (ret)
		return ret;
	memcpy(bytes, &d, sizeof(d));
	return rt_memcpy(dev, desc, sizeof(bytes), bytes, sizeof(bytes), ACL_MEMCPY_HOST_TO_DEVICE, NULL);
}

aclError rt_memcpy_desc_run(struct rt_stream *s, const void *desc)
{
	struct memcpy_desc d;
	aclError ret;

	ret = rt_device_range(s->dev, desc, RT_MEMCPY_DESC_SIZE, "desc", NULL);
	if (!ret)
		ret = rt_stream_synchronize(s, RT_FOREVER);
	if (!ret)
		ret = read_mem(s->dev, desc, &d, sizeof(d), "desc");
	if (ret)
		return ret;
	if (d.magic != DESC_MAGIC || d.kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return rt_err(ACL_ERROR_INVALID_PARAM, "desc %p holds no descriptor that aclrtSetMemcpyDesc wrote",
			      desc);
	return copy_read(s, d.dst, d.src, d.count);
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

void rt_value_task(struct drm_vnpu_task *task, uint64_t va, uint64_t value, uint32_t cmp, bool wait)
{
	memset(task, 0, sizeof(*task));
	task->kind = wait ? VNPU_TASK_WAIT_VALUE : VNPU_TASK_WRITE_VALUE;
	task->flags = VNPU_TASK_VALUE_64;
	task->value.addr = va;
	task->value.value = value;
	task->value.cmp = wait ? cmp : 0;
}

aclError rt_value_op(struct rt_stream *s, void *addr, uint64_t value, uint32_t cmp, bool wait)
{
	struct drm_vnpu_task task;
	uint64_t va;
	aclError ret;

	ret = rt_value_addr(s->dev, addr, &va);
	if (ret)
		return ret;
	rt_value_task(&task, va, value, cmp, wait);
	return rt_stream_submit(s, &task, 1, NULL, 0, NULL);
}
