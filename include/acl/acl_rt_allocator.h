/* SPDX-License-Identifier: MIT */
/*
 * vnpu — external allocator registration of the Ascend CANN ACL API.
 *
 * A program hands the runtime its own device-memory pool, per stream: it
 * fills a descriptor with an allocator object and callbacks and registers the
 * descriptor for a stream. Operators executed on that stream
 * (aclopExecuteV2, aclopCompileAndExecuteV2) then take the device memory they
 * need for themselves from the pool; with vnpu that is their workspace,
 * which also holds their intermediate results (see below):
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
 * vnpu asks the allocator for operator workspace only (where operators
 * keep their intermediate results): an operator's inputs and outputs are
 * the caller's data buffers (CANN's executor may
 * also take output and shape memory from it). Operators that need no
 * workspace (the element-wise ones, Cast, fp32 MatMul without transpose)
 * call no callback; allocAdvise is never called.
 *
 * What an operator call returns when the allocator misbehaves (nothing is
 * queued, and a block that was obtained is given back with free first):
 *  - alloc returns NULL: ACL_ERROR_BAD_ALLOC;
 *  - getAddrFromBlock returns NULL, or an address whose [addr, addr +
 *    size) is not inside one aclrtMalloc allocation of the stream's device
 *    (host memory, pinned host memory, freed or foreign memory, too near
 *    the end): ACL_ERROR_INVALID_PARAM;
 *  - an address not 4-byte aligned: ACL_ERROR_MEMORY_ADDRESS_UNALIGNED;
 *  - workspace overlapping the operator's own inputs or output:
 *    ACL_ERROR_INVALID_PARAM.
 *
 * Where vnpu differs from CANN (safer where CANN is undefined):
 *  - A registration is consulted by every aclopExecuteV2 /
 *    aclopCompileAndExecuteV2 call on the stream, at each call: registering,
 *    re-registering or unregistering takes effect from the next operator.
 *    CANN fixes the choice (external or its own allocator) at the first
 *    operator executed on a stream.
 *  - Destroying a stream drops its registration; CANN keeps a stale entry.
 *  - The memory an allocator returns must be device memory of this process
 *    (from aclrtMalloc*): the runtime binds the whole allocation to the
 *    stream the first time it sees it there (one kernel call, remembered),
 *    and the kernel checks that operator workspace lies inside the stream's
 *    bound memory. Freeing such memory with aclrtFree unbinds it from every
 *    stream; work already queued keeps it until it ends.
 *  - One allocator used by two streams that run concurrently: the kernel
 *    detects a block still in use by the other stream's unfinished work and
 *    by default makes the new work wait for it (CANN leaves this
 *    undefined). With the hazard policy "strict" (aclInit configuration
 *    {"vnpu": {"hazard_policy": "strict"}} or VNPU_HAZARD_POLICY=strict)
 *    the operator call fails instead with ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
 *    and queues nothing.
 *  - The registry is keyed by stream whatever the calling thread's current
 *    context (as CANN's); the stream must be a live stream.
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
 * return a block or NULL. vnpu stores it but never calls it. */
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

/* Set the allocAdvise callback (optional). vnpu stores it and returns it
 * from aclrtAllocatorGetByStream() but never calls it.
 * ACL_ERROR_INVALID_PARAM for NULL. */
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
 * nothing; so does a destroyed stream (its registration went with it).
 * ACL_ERROR_INVALID_PARAM if stream is NULL.
 * Work already enqueued keeps the memory it was given; synchronise the stream
 * before returning that memory to the system.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_RT_ALLOCATOR_H */
