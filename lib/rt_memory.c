// SPDX-License-Identifier: MIT
/*
 * rt_memory.c - device memory (aclrtMalloc*), pinned host memory
 * (aclrtMallocHost) and the allocation table that resolves any address
 * (start or interior) to its allocation.
 *
 * aclrtMalloc returns the buffer's device address, which never equals a host
 * pointer (device addresses lie in [2^48, 2^52)); the runtime reaches the
 * memory through its own CPU mapping, made on first use. aclrtMallocHost
 * returns the CPU address of a device-addressable host buffer; the table
 * maps that host range to the buffer's device address so that async copies
 * can name it on the device.
 *
 * Table entries are reference counted: a copy in progress keeps the
 * mapping alive even if another thread frees the allocation meanwhile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define MIB (1ULL << 20)

void rt_alloc_put(struct rt_alloc *a)
{
	void *cpu;

	if (!a || atomic_fetch_sub(&a->refs, 1) != 1)
		return;
	cpu = atomic_load(&a->cpu);
	if (cpu)
		drv_bo_munmap(cpu, a->bo_size);
	drv_bo_close(a->dev->fd, a->handle);
	pthread_mutex_destroy(&a->map_lock);
	rt_dev_put(a->dev);
	free(a);
}

static uint64_t round_up(uint64_t x, uint64_t to)
{
	return (x + to - 1) / to * to;
}

/*
 * Size and flags for an aclrtMalloc policy. Only the page-size part (low
 * byte) matters; memory-type and access bits are accepted and ignored.
 * HUGE_FIRST: 2 MiB alignment above 1 MiB. HUGE_ONLY and HUGE1G_ONLY:
 * 2 MiB alignment and granularity. NORMAL_ONLY: pages. Anything else:
 * 2 MiB alignment from 2 MiB on (CANN's rule for out-of-range values).
 */
static void policy_layout(uint64_t usable, uint32_t policy, uint64_t *bo_size, uint32_t *flags)
{
	bool huge;

	*bo_size = usable;
	switch (policy & 0xff) {
	case ACL_MEM_MALLOC_HUGE_FIRST:
	case ACL_MEM_MALLOC_HUGE_FIRST_P2P:
		huge = usable > MIB;
		break;
	case ACL_MEM_MALLOC_HUGE_ONLY:
	case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
	case ACL_MEM_MALLOC_HUGE1G_ONLY:
	case ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
		huge = true;
		*bo_size = round_up(usable, 2 * MIB);
		break;
	case ACL_MEM_MALLOC_NORMAL_ONLY:
	case ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
		huge = false;
		break;
	default:
		huge = usable >= 2 * MIB;
		break;
	}
	*flags = huge ? VNPU_BO_HUGE_ALIGN : 0;
}

static aclError table_insert(struct rt_dev *dev, struct rt_alloc *a)
{
	int ret;

	pthread_rwlock_wrlock(&dev->mem_lock);
	ret = dev->mem_closed ? -ENODEV : rt_imap_insert(&dev->mem, a->addr, a->bo_size, a);
	pthread_rwlock_unlock(&dev->mem_lock);
	if (ret == -ENODEV)
		return rt_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device %u is being reset", dev->index);
	if (ret)
		return rt_err_errno(ret, "cannot record the allocation at 0x%llx", (unsigned long long)a->addr);
	return ACL_SUCCESS;
}

static struct rt_alloc *alloc_new(struct rt_dev *dev, uint32_t handle, uint64_t va, uint64_t size,
				  uint64_t bo_size, bool host)
{
	struct rt_alloc *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	atomic_init(&a->refs, 1);
	rt_dev_get(dev);
	a->dev = dev;
	a->handle = handle;
	a->va = va;
	a->addr = va;
	a->size = size;
	a->bo_size = bo_size;
	a->host = host;
	pthread_mutex_init(&a->map_lock, NULL);
	atomic_init(&a->cpu, NULL);
	return a;
}

aclError rt_malloc(struct rt_dev *dev, size_t size, uint32_t policy, bool align32_only, void **out)
{
	uint64_t usable, bo_size, va;
	struct rt_alloc *a;
	uint32_t handle, flags;
	aclError err;
	int ret;

	/* CANN rounds up to 32 bytes and (aclrtMalloc) adds 32 spare ones. */
	usable = round_up(size, 32) + (align32_only ? 0 : 32);
	if (usable < size || usable > VNPU_MAX_BO_SIZE)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "%zu bytes is more than a buffer can hold", size);
	policy_layout(usable, policy, &bo_size, &flags);
	ret = drv_bo_create(dev->fd, bo_size, flags, &handle, &va);
	if (ret == -ENOMEM || ret == -E2BIG)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "device %u has no room for %zu more bytes",
			      dev->index, size);
	if (ret)
		return rt_err_errno(ret, "cannot allocate %zu bytes on device %u", size, dev->index);

	a = alloc_new(dev, handle, va, usable, round_up(bo_size, 4096), false);
	if (!a) {
		drv_bo_close(dev->fd, handle);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	}
	err = table_insert(dev, a);
	if (err) {
		rt_alloc_put(a);
		return err;
	}
	*out = (void *)(uintptr_t)va;
	return ACL_SUCCESS;
}

aclError rt_malloc_host(struct rt_dev *dev, size_t size, void **out)
{
	uint64_t va, bo_size = round_up(size, 4096);
	struct rt_alloc *a;
	uint32_t handle;
	aclError err;
	void *cpu;
	int ret;

	if (bo_size < size || bo_size > VNPU_MAX_BO_SIZE)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "%zu bytes is more than a buffer can hold", size);
	ret = drv_bo_create(dev->fd, bo_size, VNPU_BO_HOST, &handle, &va);
	if (ret == -ENOMEM || ret == -E2BIG)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot pin %zu bytes of host memory", size);
	if (ret)
		return rt_err_errno(ret, "cannot allocate %zu bytes of pinned host memory", size);
	ret = drv_bo_mmap(dev->fd, handle, bo_size, &cpu);
	if (ret) {
		drv_bo_close(dev->fd, handle);
		return rt_err_errno(ret, "cannot map %zu bytes of pinned host memory", size);
	}
	a = alloc_new(dev, handle, va, size, bo_size, true);
	if (!a) {
		drv_bo_munmap(cpu, bo_size);
		drv_bo_close(dev->fd, handle);
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	}
	a->addr = (uint64_t)(uintptr_t)cpu;
	atomic_store(&a->cpu, cpu);
	err = table_insert(dev, a);
	if (err) {
		rt_alloc_put(a);
		return err;
	}
	*out = cpu;
	return ACL_SUCCESS;
}

/* Remove the allocation starting at @addr from @dev's table; NULL if there
 * is none of the right kind. *@inside tells whether @addr lay inside one. */
static struct rt_alloc *table_take(struct rt_dev *dev, uint64_t addr, bool host, bool *inside)
{
	const struct rt_imap_node *node;
	struct rt_alloc *a = NULL;

	pthread_rwlock_wrlock(&dev->mem_lock);
	node = rt_imap_find(&dev->mem, addr);
	if (node) {
		struct rt_alloc *cand = node->value;

		*inside = true;
		if (cand->addr == addr && cand->host == host) {
			a = cand;
			rt_imap_remove(&dev->mem, addr);
		}
	}
	pthread_rwlock_unlock(&dev->mem_lock);
	return a;
}

aclError rt_free(struct rt_dev *dev, void *ptr, bool host)
{
	uint64_t addr = (uint64_t)(uintptr_t)ptr;
	struct rt_alloc *a;
	bool inside = false;
	int i;

	a = dev ? table_take(dev, addr, host, &inside) : NULL;
	for (i = 0; !a && !inside && i < RT_MAX_DEVICES; i++) {
		struct rt_dev *other = rt_device_get_open(i);

		if (other && other != dev)
			a = table_take(other, addr, host, &inside);
		rt_dev_put(other);
	}
	if (!a) {
		if (inside)
			return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not the start of %s allocation", ptr,
				      host ? "an aclrtMallocHost" : "an aclrtMalloc");
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not %s allocation (never allocated, or freed)",
			      ptr, host ? "an aclrtMallocHost" : "a device");
	}
	rt_alloc_put(a);
	return ACL_SUCCESS;
}

static void collect(const struct rt_imap_node *node, void *arg)
{
	struct rt_alloc ***next = arg;

	*(*next)++ = node->value;
}

void rt_memory_release_all(struct rt_dev *dev)
{
	struct rt_alloc **all, **next;
	size_t n, i;

	pthread_rwlock_wrlock(&dev->mem_lock);
	dev->mem_closed = true;
	n = dev->mem.count;
	all = calloc(n ? n : 1, sizeof(*all));
	if (!all) {
		/* Without memory for the list the buffers stay until the
		 * device's file is closed. */
		pthread_rwlock_unlock(&dev->mem_lock);
		return;
	}
	next = all;
	rt_imap_for_each(&dev->mem, collect, &next);
	rt_imap_clear(&dev->mem);
	pthread_rwlock_unlock(&dev->mem_lock);
	for (i = 0; i < n; i++)
		rt_alloc_put(all[i]);
	free(all);
}

/* Look @addr up in @dev's table: 1 found (referenced), 0 not there. */
static int table_lookup(struct rt_dev *dev, uint64_t addr, struct rt_alloc **out)
{
	const struct rt_imap_node *node;

	pthread_rwlock_rdlock(&dev->mem_lock);
	node = rt_imap_find(&dev->mem, addr);
	if (node) {
		*out = node->value;
		atomic_fetch_add(&(*out)->refs, 1);
	}
	pthread_rwlock_unlock(&dev->mem_lock);
	return node != NULL;
}

aclError rt_ptr_resolve(struct rt_dev *dev, const void *ptr, uint64_t len, const char *what,
			struct rt_ptr *out)
{
	uint64_t addr = (uint64_t)(uintptr_t)ptr;
	struct rt_alloc *a = NULL;
	int i;

	out->alloc = NULL;
	out->offset = 0;
	if (!table_lookup(dev, addr, &a)) {
		for (i = 0; !a && i < RT_MAX_DEVICES; i++) {
			struct rt_dev *other = rt_device_get_open(i);

			if (other && other != dev)
				table_lookup(other, addr, &a);
			rt_dev_put(other);
		}
	}
	if (!a) {
		if (addr >= VNPU_VA_START && addr < VNPU_VA_END)
			return rt_err(ACL_ERROR_INVALID_PARAM, "%s %p is a device address that is not allocated",
				      what, ptr);
		return ACL_SUCCESS; /* pageable host memory */
	}
	if (addr - a->addr > a->size || len > a->size - (addr - a->addr)) {
		aclError ret = rt_err(ACL_ERROR_INVALID_PARAM,
				      "%s [%p, +%llu bytes) is not inside its allocation (%llu bytes at 0x%llx)",
				      what, ptr, (unsigned long long)len, (unsigned long long)a->size,
				      (unsigned long long)a->addr);

		rt_alloc_put(a);
		return ret;
	}
	out->alloc = a;
	out->offset = addr - a->addr;
	return ACL_SUCCESS;
}

void rt_ptr_release(struct rt_ptr *p)
{
	rt_alloc_put(p->alloc);
	p->alloc = NULL;
}

aclError rt_ptr_cpu(struct rt_ptr *p, const void *ptr, void **cpu)
{
	struct rt_alloc *a = p->alloc;
	void *base;
	int ret = 0;

	if (!a) {
		*cpu = (void *)ptr;
		return ACL_SUCCESS;
	}
	base = atomic_load(&a->cpu);
	if (!base) {
		pthread_mutex_lock(&a->map_lock);
		base = atomic_load(&a->cpu);
		if (!base) {
			ret = drv_bo_mmap(a->dev->fd, a->handle, a->bo_size, &base);
			if (!ret)
				atomic_store(&a->cpu, base);
		}
		pthread_mutex_unlock(&a->map_lock);
		if (ret)
			return rt_err_errno(ret, "cannot map device memory at 0x%llx", (unsigned long long)a->addr);
	}
	*cpu = (char *)base + p->offset;
	return ACL_SUCCESS;
}
