/* SPDX-License-Identifier: MIT */
/*
 * acl_internal.h - helpers shared by the ACL surface (acl_*.c).
 */
#ifndef VNPU_LIB_ACL_INTERNAL_H
#define VNPU_LIB_ACL_INTERNAL_H

#include "rt.h"

/* First statement of every API function: names it in error messages. */
#define ACL_ENTER() rt_api_enter(__func__)

/* Reject a NULL argument with ACL_ERROR_INVALID_PARAM. */
#define ACL_REQUIRE(arg)                                                                     \
	do {                                                                                 \
		if (!(arg))                                                                  \
			return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", #arg); \
	} while (0)

/*
 * The calling thread's current context and the stream @handle of it (NULL:
 * its default stream), both referenced; release with acl_stream_done().
 */
static inline aclError acl_stream_begin(const void *handle, struct rt_context **ctx, struct rt_stream **s)
{
	aclError ret = rt_context_require(ctx);

	if (ret)
		return ret;
	ret = rt_stream_resolve(*ctx, handle, s);
	if (ret)
		rt_context_put(*ctx);
	return ret;
}

static inline void acl_stream_done(struct rt_context *ctx, struct rt_stream *s)
{
	rt_stream_put(s);
	rt_context_put(ctx);
}

/* acl_hooks.c: run the registered device state callbacks for @device. */
void acl_devstate_notify(int32_t device, aclrtDeviceState state);
/* Run the init callbacks (after a successful aclInit) or the finalize
 * callbacks (after the library was torn down): the first failure's code,
 * with a message, once all have run. */
aclError acl_init_hooks_run(void);
aclError acl_finalize_hooks_run(void);

/*
 * Copy @n pieces (rt_memcpy_pieces()) on the current context, on @stream
 * (NULL: the default stream) when @async (acl_copy.c). A synchronous copy
 * is refused while a running capture's mode forbids it (rt_ri_unsafe(),
 * naming @api); *@fail as rt_memcpy_pieces() sets it.
 */
aclError acl_copy_pieces(const char *api, const struct rt_copy_piece *pc, size_t n, aclrtStream stream, bool async,
			 size_t *fail);

#endif /* VNPU_LIB_ACL_INTERNAL_H */
