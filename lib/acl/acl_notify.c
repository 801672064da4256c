// SPDX-License-Identifier: MIT
/*
 * acl_notify.c - notifies (aclrtCreateNotify and friends).
 *
 * A notify is one 64-bit word of device memory of the device current when
 * it was created. aclrtRecordNotify queues a WRITE_VALUE task storing 1;
 * aclrtWaitAndResetNotify queues one job of two tasks: a WAIT_VALUE until
 * the word is >= 1, then a WRITE_VALUE storing 0. A record before the wait
 * is therefore not lost, and one wait consumes the records made so far.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "rt_handle.h"

struct acl_notify {
	struct rt_obj obj;
	void *word;		/* aclrtMalloc'ed 8 bytes; freed by destroy */
	uint32_t id;		/* aclrtGetNotifyId: unique in the process */
};

static atomic_uint next_notify_id = 1;

static void notify_release(struct rt_obj *obj)
{
	free((struct acl_notify *)obj);
}

/* The live notify @handle, referenced (rt_obj_put() when done). */
static aclError notify_lookup(aclrtNotify handle, struct acl_notify **out)
{
	struct rt_obj *obj;

	*out = NULL;
	if (!handle)
		return rt_err(ACL_ERROR_INVALID_PARAM, "notify must not be NULL");
	obj = rt_handle_lookup(handle, RT_OBJ_NOTIFY);
	if (!obj)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not a live notify", handle);
	*out = (struct acl_notify *)obj;
	return ACL_SUCCESS;
}

aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
	struct rt_context *ctx;
	struct acl_notify *n;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(notify);
	if (flag)
		return rt_err(ACL_ERROR_INVALID_PARAM, "flag 0x%llx is reserved and must be 0",
			      (unsigned long long)flag);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	n = calloc(1, sizeof(*n));
	if (!n) {
		rt_context_put(ctx);
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of memory for a notify");
	}
	rt_obj_init(&n->obj, RT_OBJ_NOTIFY, notify_release);
	ret = rt_malloc(ctx->dev, sizeof(uint64_t), ACL_MEM_MALLOC_NORMAL_ONLY, false, &n->word);
	if (!ret) {
		ret = rt_memset(ctx->dev, n->word, sizeof(uint64_t), 0, sizeof(uint64_t), NULL);
		if (!ret && rt_handle_add(&n->obj))
			ret = rt_err(ACL_ERROR_BAD_ALLOC, "out of memory registering a notify");
		if (ret)
			rt_free(ctx->dev, n->word, false);
	}
	rt_context_put(ctx);
	if (ret) {
		free(n);
		return ret;
	}
	n->id = atomic_fetch_add(&next_notify_id, 1);
	*notify = n;
	rt_obj_put(&n->obj);
	return ACL_SUCCESS;
}

aclError aclrtDestroyNotify(aclrtNotify notify)
{
	struct acl_notify *n;
	aclError ret;

	ACL_ENTER();
	ret = notify_lookup(notify, &n);
	if (ret)
		return ret;
	if (!rt_handle_remove(&n->obj)) {
		rt_obj_put(&n->obj);
		return rt_err(ACL_ERROR_INVALID_PARAM, "notify %p is being destroyed by another thread", notify);
	}
	ret = rt_free(NULL, n->word, false);
	rt_obj_put(&n->obj);
	return ret;
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
	struct rt_context *ctx;
	struct acl_notify *n;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = notify_lookup(notify, &n);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (!ret) {
		ret = rt_value_op(s, n->word, 1, 0, false);
		acl_stream_done(ctx, s);
	}
	rt_obj_put(&n->obj);
	return ret;
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
	struct drm_vnpu_task task[2];
	struct rt_context *ctx;
	struct acl_notify *n;
	struct rt_stream *s;
	uint64_t va;
	aclError ret;

	ACL_ENTER();
	/* @timeout (seconds, 0: forever) is not enforced per wait yet: the
	 * device's job timeout bounds the wait (docs/libacl.md). */
	(void)timeout;
	ret = notify_lookup(notify, &n);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		goto out;
	ret = rt_value_addr(s->dev, n->word, &va);
	if (!ret) {
		rt_value_task(&task[0], va, 1, VNPU_WAIT_GEQ, true);
		rt_value_task(&task[1], va, 0, 0, false);
		ret = rt_stream_submit(s, task, 2, NULL, 0, NULL);
	}
	acl_stream_done(ctx, s);
out:
	rt_obj_put(&n->obj);
	return ret;
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
	struct acl_notify *n;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(notifyId);
	ret = notify_lookup(notify, &n);
	if (ret)
		return ret;
	*notifyId = n->id;
	rt_obj_put(&n->obj);
	return ACL_SUCCESS;
}

aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num)
{
	struct acl_notify *n;
	aclError ret;
	size_t i;

	ACL_ENTER();
	ACL_REQUIRE(notifies);
	if (!num)
		return rt_err(ACL_ERROR_INVALID_PARAM, "num must not be 0");
	for (i = 0; i < num; i++) {
		ret = notify_lookup(notifies[i], &n);
		if (ret)
			return ret;
		rt_obj_put(&n->obj);
	}
	for (i = 0; i < num; i++) {
		ret = notify_lookup(notifies[i], &n);
		if (ret)
			return ret;
		ret = rt_memset(NULL, n->word, sizeof(uint64_t), 0, sizeof(uint64_t), NULL);
		rt_obj_put(&n->obj);
		if (ret)
			return ret;
	}
	return ACL_SUCCESS;
}
