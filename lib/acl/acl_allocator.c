// SPDX-License-Identifier: MIT
/*
 * acl_allocator.c - external allocator registration (acl_rt_allocator.h).
 *
 * As CANN: descriptors are filled with setters and copied at registration
 * (destroying one afterwards is safe); obj, alloc, free and
 * getAddrFromBlock are mandatory, allocAdvise optional; the last
 * registration of a stream wins; unregistering is idempotent. vnpu also
 * checks that the stream is a live stream (any context: the registry is
 * keyed by stream, not by context) and drops the registration when the
 * stream is destroyed.
 */
#include "acl_internal.h"
#include "rt_allocreg.h"

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
	struct rt_allocdesc *d;

	ACL_ENTER();
	d = rt_allocdesc_new();
	if (!d)
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	return d;
}

/* The live descriptor @handle, referenced, or an error. */
static aclError desc_get(aclrtAllocatorDesc handle, struct rt_allocdesc **out)
{
	if (!handle)
		return rt_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc must not be NULL");
	*out = rt_allocdesc_lookup(handle);
	if (!*out)
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%p is not an allocator descriptor (never created, or destroyed)", handle);
	return ACL_SUCCESS;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
	struct rt_allocdesc *d;
	aclError ret;

	ACL_ENTER();
	ret = desc_get(allocatorDesc, &d);
	if (ret)
		return ret;
	if (!rt_allocdesc_destroy(d))
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "allocator descriptor %p has already been destroyed",
			     allocatorDesc);
	rt_allocdesc_put(d);
	return ret;
}

static aclError desc_set(aclrtAllocatorDesc handle, bool present, const char *what,
			 enum rt_allocdesc_field field, const struct rt_allocfns *val)
{
	struct rt_allocdesc *d;
	aclError ret;

	ret = desc_get(handle, &d);
	if (ret)
		return ret;
	if (!present)
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", what);
	else
		rt_allocdesc_set(d, field, val);
	rt_allocdesc_put(d);
	return ret;
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator)
{
	struct rt_allocfns v = { .obj = allocator };

	ACL_ENTER();
	return desc_set(allocatorDesc, allocator, "allocator", RT_ALLOCDESC_OBJ, &v);
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func)
{
	struct rt_allocfns v = { .alloc = func };

	ACL_ENTER();
	return desc_set(allocatorDesc, func, "func", RT_ALLOCDESC_ALLOC, &v);
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func)
{
	struct rt_allocfns v = { .free = func };

	ACL_ENTER();
	return desc_set(allocatorDesc, func, "func", RT_ALLOCDESC_FREE, &v);
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func)
{
	struct rt_allocfns v = { .advise = func };

	ACL_ENTER();
	return desc_set(allocatorDesc, func, "func", RT_ALLOCDESC_ADVISE, &v);
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
						     aclrtAllocatorGetAddrFromBlockFunc func)
{
	struct rt_allocfns v = { .get_addr = func };

	ACL_ENTER();
	return desc_set(allocatorDesc, func, "func", RT_ALLOCDESC_GET_ADDR, &v);
}

/* The live stream @handle (any context), referenced. */
static struct rt_stream *stream_get(aclrtStream handle)
{
	struct rt_obj *obj = rt_handle_lookup(handle, RT_OBJ_STREAM);

	return obj ? rt_container_of(obj, struct rt_stream, obj) : NULL;
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
	struct rt_allocdesc *d;
	struct rt_allocfns fns;
	struct rt_allocrec *rec;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!stream)
		return rt_err(ACL_ERROR_INVALID_PARAM, "stream must not be NULL: an allocator is registered for an "
			      "explicit stream");
	ret = desc_get(allocatorDesc, &d);
	if (ret)
		return ret;
	rt_allocdesc_read(d, &fns);
	rt_allocdesc_put(d);
	if (!fns.obj)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the descriptor has no allocator object "
			      "(aclrtAllocatorSetObjToDesc)");
	if (!fns.alloc)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the descriptor has no alloc function "
			      "(aclrtAllocatorSetAllocFuncToDesc)");
	if (!fns.free)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the descriptor has no free function "
			      "(aclrtAllocatorSetFreeFuncToDesc)");
	if (!fns.get_addr)
		return rt_err(ACL_ERROR_INVALID_PARAM, "the descriptor has no getAddrFromBlock function "
			      "(aclrtAllocatorSetGetAddrFromBlockFuncToDesc)");
	s = stream_get(stream);
	if (!s)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a stream (never created, or destroyed)", stream);
	rec = rt_allocrec_new(allocatorDesc, &fns);
	if (!rec)
		ret = rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	else if (!rt_allocslot_set(&s->alloc_slot, rec))
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p has been destroyed", stream);
	rt_stream_put(s);
	return ret;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc, aclrtAllocator *allocator,
				   aclrtAllocatorAllocFunc *allocFunc, aclrtAllocatorFreeFunc *freeFunc,
				   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
				   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
	const struct rt_allocrec *rec;
	struct rt_stream *s;
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	ACL_REQUIRE(stream);
	ACL_REQUIRE(allocatorDesc);
	s = stream_get(stream);
	if (!s)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a stream (never created, or destroyed)", stream);
	rec = rt_allocslot_enter(&s->alloc_slot);
	if (!rec) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "stream %p is not registered with any allocator", stream);
	} else {
		*allocatorDesc = rec->desc;
		if (allocator)
			*allocator = rec->fns.obj;
		if (allocFunc)
			*allocFunc = rec->fns.alloc;
		if (freeFunc)
			*freeFunc = rec->fns.free;
		if (allocAdviseFunc)
			*allocAdviseFunc = rec->fns.advise;
		if (getAddrFromBlockFunc)
			*getAddrFromBlockFunc = rec->fns.get_addr;
	}
	rt_allocslot_leave(&s->alloc_slot);
	rt_stream_put(s);
	return ret;
}

aclError aclrtAllocatorUnregister(aclrtStream stream)
{
	struct rt_stream *s;

	ACL_ENTER();
	ACL_REQUIRE(stream);
	/* A destroyed stream has no registration left: nothing to do. */
	s = stream_get(stream);
	if (!s)
		return ACL_SUCCESS;
	rt_allocslot_set(&s->alloc_slot, NULL);
	rt_stream_put(s);
	return ACL_SUCCESS;
}
