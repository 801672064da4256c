/* SPDX-License-Identifier: MIT */
/*
 * vnpu — external allocator registration of the Ascend CANN ACL API.
 *
 * A program hands the runtime its own device-memory pool, per stream: it
 * fills a descriptor with an allocator object and callbacks and registers the
 * descriptor for a stream. Operators executed on that stream
 * (aclopExecuteV2, aclopCompileAndExecuteV2) then take every piece of device
 * memory they need for themselves (workspace, intermediate tensors) from the
 * pool:
 *
 *     block = alloc(allocator, size);   address = getAddrFromBlock(block);
 *     ... the operator is enqueued using address ...
 *     free(allocator, block);           in host order, right after enqueueing
 *
 * Because free() runs while the device may still be using the block, the
 * pool may reuse a freed block only for later work on the same stream (stream
 * order makes that safe). It must not hand the block to another stream that
 * runs concurrently, return it to the system, or be destroyed before the
 * stream has been synchronised (aclrtSynchronizeStream).
 *
 * The callbacks are called on the thread that calls the operator function,
 * never from a runtime worker thread and never while a runtime lock is held,
 * so they may take the program's own locks.
 *
 * Where vnpu differs from CANN (safer where CANN is undefined):
 *  - A registration is consulted by every aclopExecuteV2 /
 *    aclopCompileAndExecuteV2 call on the stream, at each call: registering,
 *    re-registering or unregistering takes effect from the next operator.
 *    CANN fixes the choice (external or its own allocator) at the first
 *    operator executed on a stream.
 *  - Destroying a stream drops its registration; CANN keeps a stale entry.
 *  - The memory an allocator returns must be device memory of this process
 *    (from aclrtMalloc*): the kernel binds it to the stream and checks that
 *    operator workspace lies inside the stream's bound pools. An address
 *    outside device memory makes the operator call fail with
 *    ACL_ERROR_INVALID_PARAM instead of corrupting memory.
 *  - One allocator used by two streams that run concurrently: the kernel
 *    detects a block still in use by the other stream's running work and by
 *    default serialises the two (CANN leaves this undefined).
 *
 * The handle types (aclrtAllocatorDesc, aclrtAllocator, aclrtAllocatorBlock,
 * aclrtAllocatorAddr) are declared in acl_base.h.
 */
#ifndef VNPU_ACL_ACL_RT_ALLOCATOR_H
#define VNPU_ACL_ACL_RT_ALLOCATOR_H

#include <stddef.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Allocate size bytes from the pool; return an opaque block, NULL on failure.
 * allocator is the object set with aclrtAllocatorSetObjToDesc(). */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);

/* Give a block back to the pool (see the ordering rules above). */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);

/* Allocate size bytes, preferably at address addr (a hint for memory reuse);
 * return a block or NULL. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);

/* Return the device address of a block. Called right after every successful
 * alloc/allocAdvise; the block itself is never dereferenced by the runtime. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/* Create an empty allocator descriptor (object and callbacks unset).
 * Returns NULL when out of memory. */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

/* Destroy a descriptor. A registration made with it stays valid (the runtime
 * copied its contents). ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

/* Set the allocator object passed back to the alloc, free and allocAdvise
 * callbacks. ACL_ERROR_INVALID_PARAM if either argument is NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);

/* Set the alloc callback (mandatory). ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func);

/* Set the free callback (mandatory). ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func);

/* Set the allocAdvise callback (optional; without it the runtime uses
 * alloc). ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func);

/* Set the getAddrFromBlock callback (mandatory). ACL_ERROR_INVALID_PARAM for
 * NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func);

/*
 * Register the allocator described by allocatorDesc for stream; the
 * descriptor's contents are copied. A later registration for the same stream
 * replaces the earlier one. No callback is called here.
 * ACL_ERROR_INVALID_PARAM if stream or allocatorDesc is NULL, or if the
 * object, alloc, free or getAddrFromBlock is unset.
 * vnpu: stream must also be a live stream of this process
 * (ACL_ERROR_INVALID_PARAM otherwise); CANN does not check it.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

/*
 * Look up what is registered for stream: the descriptor pointer passed to
 * aclrtAllocatorRegister() and the copied object and callbacks.
 * stream and allocatorDesc must not be NULL; the other outputs may be NULL
 * (skipped). A stream without registration gives ACL_ERROR_INVALID_PARAM.
 * vnpu: a failed lookup affects no later call.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                       aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                                       aclrtAllocatorFreeFunc *freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/*
 * Remove the registration of stream; call it before destroying the allocator.
 * A stream without registration (or a repeated call) succeeds and does
 * nothing. ACL_ERROR_INVALID_PARAM if stream is NULL.
 * Work already enqueued keeps the memory it was given; synchronise the stream
 * before returning that memory to the system.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_RT_ALLOCATOR_H */
