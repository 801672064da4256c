// SPDX-License-Identifier: MIT
/*
 * acl_copy.c - copies, of one piece (aclrtMemcpy) or many: 2-D
 * (aclrtMemcpy2d) and batched (aclrtMemcpyBatch, V2), each the pieces of
 * one rt_memcpy_pieces() call; and copies whose addresses lie in memory
 * (aclrtMemcpyAsyncWithOffset, the memcpy descriptors). An
 * async call whose ends are all device-addressable memory of the stream's
 * device is one job (COPY tasks, VNPU_MAX_TASKS_PER_SUBMIT per job);
 * otherwise the CPU copies after the stream's earlier work, as
 * aclrtMemcpyAsync() does with pageable memory.
 */
#include <stdint.h>
#include <stdlib.h>

#include "acl_internal.h"
#include "rt_ri.h"

aclError acl_copy_pieces(const char *api, const struct rt_copy_piece *pc, size_t n, aclrtStream stream, bool async,
			size_t *fail)
{
	struct rt_context *ctx;
	struct rt_stream *s = NULL;
	aclError ret;

	*fail = SIZE_MAX;
	/* A synchronous copy while a capture runs (CANN's unsafe call); an
	 * async one is captured, or refused where it would wait. */
	ret = async ? ACL_SUCCESS : rt_ri_unsafe(api);
	if (ret)
		return ret;
	if (async)
		ret = acl_stream_begin(stream, &ctx, &s);
	else
		ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_memcpy_pieces(ctx->dev, pc, n, s, fail);
	if (async)
		acl_stream_done(ctx, s);
	else
		rt_context_put(ctx);
	return ret;
}

static aclError memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
			  aclrtMemcpyKind kind, aclrtStream stream, bool async)
{
	struct rt_copy_piece *pc;
	aclError ret;
	size_t i, fail;

	ACL_REQUIRE(dst);
	ACL_REQUIRE(src);
	if (width > dpitch || width > spitch)
		return rt_err(ACL_ERROR_INVALID_PARAM, "width %zu is larger than dpitch %zu or spitch %zu", width,
			      dpitch, spitch);
	if (!width || !height)
		return ACL_SUCCESS;
	/* width <= both pitches, so neither is 0 here. */
	if (height - 1 > (SIZE_MAX - width) / dpitch || height - 1 > (SIZE_MAX - width) / spitch)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%zu rows of pitch %zu / %zu do not fit in the address space",
			      height, dpitch, spitch);
	pc = malloc(height * sizeof(*pc));
	if (!pc)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	for (i = 0; i < height; i++)
		pc[i] = (struct rt_copy_piece){ .dst = (char *)dst + i * dpitch, .src = (const char *)src + i * spitch,
						.count = width, .kind = (int)kind };
	ret = acl_copy_pieces(async ? "aclrtMemcpy2dAsync" : "aclrtMemcpy2d", pc, height, stream, async, &fail);
	free(pc);
	return ret;
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
		       aclrtMemcpyKind kind)
{
	ACL_ENTER();
	return memcpy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, false);
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
			    aclrtMemcpyKind kind, aclrtStream stream)
{
	ACL_ENTER();
	return memcpy_2d(dst, dpitch, src, spitch, width, height, kind, stream, true);
}

/* The copy kind two locations give; -1 for a location vnpu has no memory
 * at. A device location must name the current device. */
static int batch_kind(const aclrtMemcpyBatchAttr *a, uint32_t device)
{
	bool dst_dev = a->dstLoc.type == ACL_MEM_LOCATION_TYPE_DEVICE;
	bool src_dev = a->srcLoc.type == ACL_MEM_LOCATION_TYPE_DEVICE;

	if ((!dst_dev && a->dstLoc.type != ACL_MEM_LOCATION_TYPE_HOST) ||
	    (!src_dev && a->srcLoc.type != ACL_MEM_LOCATION_TYPE_HOST) || (dst_dev && a->dstLoc.id != device) ||
	    (src_dev && a->srcLoc.id != device))
		return -1;
	if (dst_dev)
		return src_dev ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE;
	return src_dev ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST;
}

static aclError memcpy_batch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
			     aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
			     aclrtStream stream, bool async)
{
	struct rt_copy_piece *pc;
	struct rt_context *ctx;
	uint32_t device;
	aclError ret;
	size_t i, k;

	ACL_REQUIRE(failIndex);
	*failIndex = SIZE_MAX;
	ACL_REQUIRE(dsts);
	ACL_REQUIRE(destMaxs);
	ACL_REQUIRE(srcs);
	ACL_REQUIRE(sizes);
	ACL_REQUIRE(attrs);
	ACL_REQUIRE(attrsIndexes);
	if (!numBatches || !numAttrs || numAttrs > numBatches)
		return rt_err(ACL_ERROR_INVALID_PARAM, "numBatches %zu and numAttrs %zu: both must be at least 1, "
			      "numAttrs at most numBatches", numBatches, numAttrs);
	/* attrs[k] covers copies attrsIndexes[k] .. attrsIndexes[k + 1] - 1. */
	for (k = 0; k < numAttrs; k++)
		if ((k == 0 && attrsIndexes[0] != 0) || (k && attrsIndexes[k] <= attrsIndexes[k - 1]) ||
		    attrsIndexes[k] >= numBatches)
			return rt_err(ACL_ERROR_INVALID_PARAM, "attrsIndexes[%zu] is %zu: the first must be 0, each "
				      "larger than the one before and smaller than numBatches %zu", k,
				      attrsIndexes[k], numBatches);
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	device = ctx->dev->index;
	rt_context_put(ctx);
	pc = malloc(numBatches * sizeof(*pc));
	if (!pc)
		return rt_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
	for (i = 0, k = 0; i < numBatches; i++) {
		int kind;

		if (k + 1 < numAttrs && i == attrsIndexes[k + 1])
			k++;
		kind = batch_kind(&attrs[k], device);
		if (!dsts[i] || !srcs[i] || sizes[i] > destMaxs[i] || kind < 0) {
			*failIndex = i;
			ret = rt_err(ACL_ERROR_INVALID_PARAM, kind < 0 ?
				     "copy %zu: attrs[%zu] names a location that is not host memory or device %u" :
				     "copy %zu: a NULL address, or a size larger than its destMax (attrs[%zu])",
				     i, k, device);
			goto out;
		}
		pc[i] = (struct rt_copy_piece){ .dst = dsts[i], .src = srcs[i], .count = sizes[i], .kind = kind };
	}
	ret = acl_copy_pieces(async ? "aclrtMemcpyBatchAsync" : "aclrtMemcpyBatch", pc, numBatches, stream, async,
			      failIndex);
out:
	free(pc);
	return ret;
}

aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
			  aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex)
{
	ACL_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, NULL,
			    false);
}

aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
			       aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
			       aclrtStream stream)
{
	ACL_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, stream,
			    true);
}

aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
			    aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs)
{
	size_t fail;

	ACL_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, &fail, NULL,
			    false);
}

aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
				 aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
				 aclrtStream stream)
{
	size_t fail;

	ACL_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, &fail, stream,
			    true);
}

/* ---- copies whose addresses lie in memory --------------------------------- */

/* The one kind the indirect copies take. */
static aclError inner_kind(aclrtMemcpyKind kind)
{
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return rt_err(ACL_ERROR_INVALID_PARAM, "kind %d: only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE is supported",
			      (int)kind);
	return ACL_SUCCESS;
}

aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset, const void **src, size_t count,
				    size_t srcDataOffset, aclrtMemcpyKind kind, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(dst);
	ACL_REQUIRE(src);
	ret = inner_kind(kind);
	if (ret)
		return ret;
	if (count > destMax)
		return rt_err(ACL_ERROR_INVALID_PARAM, "count %zu is larger than destMax %zu", count, destMax);
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_memcpy_offset(s, dst, dstDataOffset, src, srcDataOffset, count);
	acl_stream_done(ctx, s);
	return ret;
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize)
{
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(descSize);
	ret = inner_kind(kind);
	if (ret)
		return ret;
	*descSize = RT_MEMCPY_DESC_SIZE;
	return ACL_SUCCESS;
}

aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr, size_t count,
			    void *config)
{
	struct rt_context *ctx;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(desc);
	ACL_REQUIRE(srcAddr);
	ACL_REQUIRE(dstAddr);
	ret = inner_kind(kind);
	if (ret)
		return ret;
	if (config)
		return rt_err(ACL_ERROR_INVALID_PARAM, "config is reserved and must be NULL");
	ret = rt_context_require(&ctx);
	if (ret)
		return ret;
	ret = rt_memcpy_desc_set(ctx->dev, desc, srcAddr, dstAddr, count);
	rt_context_put(ctx);
	return ret;
}

aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(desc);
	ret = inner_kind(kind);
	if (ret)
		return ret;
	ret = acl_stream_begin(stream, &ctx, &s);
	if (ret)
		return ret;
	ret = rt_memcpy_desc_run(s, desc);
	acl_stream_done(ctx, s);
	return ret;
}
