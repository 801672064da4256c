// SPDX-License-Identifier: MIT
/*
 * rt_private.c - the runtime's interface to vnpu's libraries over it
 * (rt_private.h): aclnn's launches go through the same stream, device
 * memory and error machinery as aclopExecuteV2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt.h"
#include "rt_op.h"
#include "rt_private.h"

int32_t vnpu_rt_error(int32_t code, const char *api, const char *fmt, va_list ap)
{
	char msg[RT_ERRMSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	rt_api_enter(api);
	return rt_err(code, "%s", msg);
}

/* Up to this many ranges are checked from the stack. */
#define RANGES_ON_STACK 64

static aclError check_ranges(struct rt_dev *dev, const struct vnpu_rt_range *r, unsigned int n)
{
	uint64_t addr_s[RANGES_ON_STACK], len_s[RANGES_ON_STACK];
	const char *what_s[RANGES_ON_STACK];
	uint64_t *addr = addr_s, *len = len_s;
	const char **what = what_s;
	unsigned int i, m = 0;
	aclError err;

	if (n > RANGES_ON_STACK) {
		addr = malloc(n * sizeof(*addr));
		len = malloc(n * sizeof(*len));
		what = malloc(n * sizeof(*what));
		if (!addr || !len || !what) {
			err = rt_err(ACL_ERROR_BAD_ALLOC, "out of memory checking %u operand ranges", n);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		if (!r[i].size)
			continue;
		addr[m] = r[i].addr;
		len[m] = r[i].size;
		what[m++] = r[i].what;
	}
	err = m ? rt_device_ranges(dev, m, addr, len, what) : ACL_SUCCESS;
out:
	if (addr != addr_s) {
		free(addr);
		free(len);
		free(what);
	}
	return err;
}

aclError vnpu_rt_launch(const char *api, aclrtStream stream, int32_t device, const struct drm_vnpu_task *tasks,
			uint32_t ntasks, const void *data, uint32_t data_size, const struct vnpu_rt_range *ranges,
			unsigned int nranges, int workspace)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	uint64_t point;
	aclError err;
	int kerr;

	rt_api_enter(api);
	err = rt_context_require(&ctx);
	if (err)
		return err;
	/* Whatever is wrong with the stream (destroyed, another context's,
	 * another device's), it is a bad argument of the launch; the
	 * message says which. */
	err = rt_stream_resolve(ctx, stream, &s);
	if (err) {
		err = ACL_ERROR_INVALID_PARAM;
		goto put_ctx;
	}
	if (device >= 0 && (uint32_t)device != s->dev->index) {
		err = rt_err(ACL_ERROR_INVALID_PARAM,
			     "stream %p belongs to device %u, the executor was planned on device %d", stream,
			     s->dev->index, device);
		goto put_stream;
	}
	err = check_ranges(s->dev, ranges, nranges);
	if (err || !ntasks)
		goto put_stream;
	err = rt_stream_submit_ops(s, tasks, ntasks, data, data_size, NULL, 0, workspace ? 0 : -1, &point, &kerr);
	if (err && kerr == -ENXIO)
		err = rt_err(ACL_ERROR_INVALID_PARAM,
			     "stream %p: an operand or the workspace is not live device memory (freed meanwhile?)",
			     (void *)s);
put_stream:
	rt_stream_put(s);
put_ctx:
	rt_context_put(ctx);
	return err;
}

int vnpu_rt_format_plain(int32_t format)
{
	return rt_format_plain((aclFormat)format);
}

int32_t vnpu_rt_current_device(void)
{
	struct rt_context *ctx = rt_context_current();
	int32_t dev = ctx ? (int32_t)ctx->dev->index : -1;

	if (ctx)
		rt_context_put(ctx);
	return dev;
}
