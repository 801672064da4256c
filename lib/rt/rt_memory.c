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
 *
 * Every device has its own VA window (uapi: VNPU_VA_START + index *
 * VNPU_VA_DEVICE_SPAN), so a device address names its device: lookups go
 * straight to that device's table. Only host addresses (aclrtMallocHost
 * memory, keyed by its CPU address) are searched for in every device.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define MIB (1ULL << 20)

int rt_va_device(uint64_t addr)
{
	if (addr < VNPU_VA_START || addr >= VNPU_VA_END)
		return -1;
	return (int)((addr - VNPU_VA_START) / VNPU_VA_DEVICE_SPAN);
}

void rt_alloc_get(struct rt_alloc *a)
{
	atomic_fetch_add(&a->refs, 1);
}

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
	if (!ret) {
		uint64_t *use = &dev->mem_use[a->host], *peak = &dev->mem_peak[a->host];

		*use += a->size;
		if (*use > *peak)
			*peak = *use;
	}
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
	atomic_init(&a->bound, 0);
	atomic_init(&a->freed, false);
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
	a->huge = flags & VNPU_BO_HUGE_ALIGN;
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
			dev->mem_use[host] -= a->size;
		}
	}
	pthread_rwlock_unlock(&dev->mem_lock);
	return a;
}

/*
 * Call @fn on @dev (if it may hold @addr) and then on the other open
 * devices that may, until it returns true. A device address belongs to one
 * device only; a host address may be pinned memory of any device.
 */
static bool for_devices(struct rt_dev *dev, uint64_t addr, bool (*fn)(struct rt_dev *d, void *arg), void *arg)
{
	int owner = rt_va_device(addr), i;
	bool done = false;

	if (dev && (owner < 0 || owner == (int)dev->index) && fn(dev, arg))
		return true;
	for (i = owner < 0 ? 0 : owner; !done && i < RT_MAX_DEVICES && (owner < 0 || i == owner); i++) {
		struct rt_dev *other = rt_device_get_open(i);

		if (other && other != dev)
			done = fn(other, arg);
		rt_dev_put(other);
	}
	return done;
}

struct take_arg {
	uint64_t addr;
	bool host, inside;
	struct rt_alloc *a;
};

static bool take_in(struct rt_dev *d, void *arg)
{
	struct take_arg *t = arg;

	t->a = table_take(d, t->addr, t->host, &t->inside);
	return t->a || t->inside;
}

aclError rt_free(struct rt_dev *dev, void *ptr, bool host)
{
	struct take_arg t = { .addr = (uint64_t)(uintptr_t)ptr, .host = host };

	for_devices(dev, t.addr, take_in, &t);
	if (!t.a) {
		if (t.inside)
			return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not the start of %s allocation", ptr,
				      host ? "an aclrtMallocHost" : "an aclrtMalloc");
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not %s allocation (never allocated, or freed)",
			      ptr, host ? "an aclrtMallocHost" : "a device");
	}
	/* Memory an allocator handed to operators may be bound to streams:
	 * unbind it (running jobs keep it until they end). */
	rt_pool_alloc_freed(t.a);
	rt_alloc_put(t.a);
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

struct lookup_arg {
	uint64_t addr;
	struct rt_alloc *a;
};

static bool lookup_in(struct rt_dev *d, void *arg)
{
	struct lookup_arg *l = arg;

	return table_lookup(d, l->addr, &l->a);
}

aclError rt_ptr_resolve(struct rt_dev *dev, const void *ptr, uint64_t len, const char *what,
			struct rt_ptr *out)
{
	struct lookup_arg l = { .addr = (uint64_t)(uintptr_t)ptr };
	uint64_t addr = l.addr;
	struct rt_alloc *a;

	out->alloc = NULL;
	out->offset = 0;
	for_devices(dev, addr, lookup_in, &l);
	a = l.a;
	if (!a) {
		if (rt_va_device(addr) >= 0)
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

/* The allocation whose usable bytes hold @ptr, referenced; NULL if none. */
static struct rt_alloc *holding(struct rt_dev *dev, const void *ptr)
{
	struct lookup_arg l = { .addr = (uint64_t)(uintptr_t)ptr };

	for_devices(dev, l.addr, lookup_in, &l);
	if (l.a && l.addr - l.a->addr < l.a->size)
		return l.a;
	rt_alloc_put(l.a);
	return NULL;
}

aclError rt_alloc_holding(struct rt_dev *dev, const void *ptr, const char *what, struct rt_alloc **out)
{
	*out = holding(dev, ptr);
	if (*out)
		return ACL_SUCCESS;
	return rt_err(ACL_ERROR_INVALID_PARAM, "%s %p is not inside memory allocated with aclrtMalloc or aclrtMallocHost",
		      what, ptr);
}

aclError rt_free_synced(struct rt_dev *dev, void *ptr, bool host)
{
	struct rt_alloc *a = NULL;
	struct rt_dev *owner;
	aclError sync, ret;

	/* Only a live allocation of the right kind is worth waiting for;
	 * anything else gets rt_free()'s error at once. */
	a = holding(dev, ptr);
	if (a && (a->addr != (uint64_t)(uintptr_t)ptr || a->host != host)) {
		rt_alloc_put(a);
		a = NULL;
	}
	if (!a)
		return rt_free(dev, ptr, host);
	owner = a->dev;
	rt_dev_get(owner);
	rt_alloc_put(a);
	sync = rt_device_synchronize(owner, RT_FOREVER);
	ret = rt_free(owner, ptr, host);
	rt_dev_put(owner);
	return ret ? ret : sync;
}

/* Check one range against @dev's table; mem_lock held. */
static aclError range_locked(struct rt_dev *dev, uint64_t addr, uint64_t len, const char *what,
			     struct rt_alloc **out)
{
	int owner = rt_va_device(addr);
	const struct rt_imap_node *node;
	struct rt_alloc *a;

	if (owner < 0)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s 0x%llx is not device memory (a host address)", what,
			      (unsigned long long)addr);
	if (owner != (int)dev->index)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s 0x%llx is memory of device %d, not of device %u", what,
			      (unsigned long long)addr, owner, dev->index);
	node = rt_imap_find(&dev->mem, addr);
	if (!node)
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%s 0x%llx is not allocated device memory (never allocated, or freed)", what,
			      (unsigned long long)addr);
	a = node->value;
	if (addr - a->addr > a->size || len > a->size - (addr - a->addr))
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%s [0x%llx, +%llu bytes) is not inside one allocation (%llu bytes at 0x%llx)", what,
			      (unsigned long long)addr, (unsigned long long)len, (unsigned long long)a->size,
			      (unsigned long long)a->addr);
	if (out) {
		rt_alloc_get(a);
		*out = a;
	}
	return ACL_SUCCESS;
}

aclError rt_device_range(struct rt_dev *dev, const void *ptr, uint64_t len, const char *what,
			 struct rt_alloc **out)
{
	aclError err;

	pthread_rwlock_rdlock(&dev->mem_lock);
	err = range_locked(dev, (uint64_t)(uintptr_t)ptr, len, what, out);
	pthread_rwlock_unlock(&dev->mem_lock);
	return err;
}

aclError rt_device_ranges(struct rt_dev *dev, unsigned int n, const uint64_t *addr, const uint64_t *len,
			  const char *const *what)
{
	aclError err = ACL_SUCCESS;
	unsigned int i;

	pthread_rwlock_rdlock(&dev->mem_lock);
	for (i = 0; i < n && !err; i++)
		err = range_locked(dev, addr[i], len[i], what[i], NULL);
	pthread_rwlock_unlock(&dev->mem_lock);
	return err;
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
