// SPDX-License-Identifier: MIT
/*
 * rt_slot.c - the runtime's own device-visible words: event timestamps and
 * the words blocking callbacks wait on. They live in 4 KiB pages of pinned
 * host memory (VNPU_BO_HOST, so they use no device memory), mapped once for
 * the CPU; a bitmap per page hands out 8-byte slots.
 */
#include <stdlib.h>

#include "rt.h"

#define SLOTS_PER_PAGE 512 /* 8-byte words in a 4 KiB page */

struct rt_slotpage {
	struct rt_slotpage *next;
	uint32_t handle;
	uint64_t va;
	_Atomic uint64_t *cpu;
	uint64_t used[SLOTS_PER_PAGE / 64];
};

static aclError slotpage_new(struct rt_dev *dev, struct rt_slotpage **out)
{
	struct rt_slotpage *page = calloc(1, sizeof(*page));
	void *cpu;
	int ret;

	if (!page)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	ret = drv_bo_create(dev->fd, 4096, VNPU_BO_HOST, &page->handle, &page->va);
	if (ret) {
		free(page);
		return rt_err_errno(ret, "cannot allocate runtime memory on device %u", dev->index);
	}
	ret = drv_bo_mmap(dev->fd, page->handle, 4096, &cpu);
	if (ret) {
		drv_bo_close(dev->fd, page->handle);
		free(page);
		return rt_err_errno(ret, "cannot map runtime memory of device %u", dev->index);
	}
	page->cpu = cpu;
	*out = page;
	return ACL_SUCCESS;
}

aclError rt_slot_alloc(struct rt_dev *dev, struct rt_slot *slot)
{
	struct rt_slotpage *page;
	aclError ret;
	unsigned int i;

	pthread_mutex_lock(&dev->slots.lock);
	for (page = dev->slots.pages; page; page = page->next) {
		for (i = 0; i < SLOTS_PER_PAGE; i++)
			if (!(page->used[i / 64] & (1ULL << (i % 64))))
				goto found;
	}
	ret = slotpage_new(dev, &page);
	if (ret) {
		pthread_mutex_unlock(&dev->slots.lock);
		return ret;
	}
	page->next = dev->slots.pages;
	dev->slots.pages = page;
	i = 0;
found:
	page->used[i / 64] |= 1ULL << (i % 64);
	pthread_mutex_unlock(&dev->slots.lock);
	slot->page = page;
	slot->index = i;
	slot->va = page->va + 8ULL * i;
	slot->cpu = &page->cpu[i];
	atomic_store(slot->cpu, 0);
	return ACL_SUCCESS;
}

void rt_slot_free(struct rt_dev *dev, struct rt_slot *slot)
{
	pthread_mutex_lock(&dev->slots.lock);
	slot->page->used[slot->index / 64] &= ~(1ULL << (slot->index % 64));
	pthread_mutex_unlock(&dev->slots.lock);
	slot->page = NULL;
}

void rt_slotpool_destroy(struct rt_dev *dev)
{
	struct rt_slotpage *page = dev->slots.pages;

	while (page) {
		struct rt_slotpage *next = page->next;

		drv_bo_munmap((void *)page->cpu, 4096);
		drv_bo_close(dev->fd, page->handle);
		free(page);
		page = next;
	}
	dev->slots.pages = NULL;
}
