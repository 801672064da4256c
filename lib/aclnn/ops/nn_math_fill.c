// SPDX-License-Identifier: MIT
/*
 * nn_math_fill.c - aclnn's type conversion and housekeeping: Cast,
 * InplaceCopy, InplaceZero, InplaceOne, InplaceFillScalar,
 * InplaceFillTensor. The core's nn_cast, nn_copy and nn_fill do the work
 * (strided views, broadcasts, every type pair, lib/ops' Cast rules).
 */
#include <stddef.h>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_zero.h"
#include "nn_math.h"

/* The largest integer every double holds exactly: beyond it, a 64-bit
 * fill value goes through nn_scalar, which keeps all its bits. */
#define EXACT_IN_DOUBLE (INT64_C(1) << 53)

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out, uint64_t *ws,
				      aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnCast");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	aclDataType odt;

	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	odt = nn_view(x, o)->dtype;
	if (!vops_dtype_size(dtype))
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "dtype %d is not a type", (int)dtype);
	else if (odt != dtype)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "out's type %s is not dtype %s", vops_dtype_name(odt),
			vops_dtype_name(dtype));
	nnm_check_rank(x, a, "self");
	nn_store(x, nn_cast(x, a, dtype), o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnCast)

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef, const aclTensor *src, uint64_t *ws,
					     aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnInplaceCopy");
	nn_val o = nn_out(x, selfRef, "selfRef"), s = nn_in(x, src, "src");

	nn_copy(x, s, o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnInplaceCopy)

static aclnnStatus fill_const(const char *api, const aclTensor *selfRef, double value, uint64_t *ws,
			      aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);

	nn_fill(x, nn_out(x, selfRef, "selfRef"), value);
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor *selfRef, uint64_t *ws, aclOpExecutor **ex)
{
	return fill_const("aclnnInplaceZero", selfRef, 0.0, ws, ex);
}
NN_LAUNCH(aclnnInplaceZero)

aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor *selfRef, uint64_t *ws, aclOpExecutor **ex)
{
	return fill_const("aclnnInplaceOne", selfRef, 1.0, ws, ex);
}
NN_LAUNCH(aclnnInplaceOne)

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *value, uint64_t *ws,
						   aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnInplaceFillScalar");
	nn_val o = nn_out(x, selfRef, "selfRef");
	bool wide;

	if (nn_null(x, value, "value") || !nn_ok(x))
		return nn_finish(x, ws, ex);
	/* An int64 beyond 2^53 would lose bits as nn_fill's double. */
	wide = value->dtype == ACL_UINT64 ? value->u > (uint64_t)EXACT_IN_DOUBLE
	       : nn_dt_int(value->dtype) ? value->i > EXACT_IN_DOUBLE || value->i < -EXACT_IN_DOUBLE
					 : false;
	if (wide)
		nn_copy(x, nn_scalar(x, value, nn_view(x, o)->dtype, "value"), o);
	else
		nn_fill(x, o, nn_scalar_f64(value));
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnInplaceFillScalar)

aclnnStatus aclnnInplaceFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *value, uint64_t *ws,
						   aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin("aclnnInplaceFillTensor");
	nn_val o = nn_out(x, selfRef, "selfRef"), v = nn_in(x, value, "value");
	const struct nn_view *vv;

	if (!nn_ok(x))
		return nn_finish(x, ws, ex);
	vv = nn_view(x, v);
	if (vv->ndim > 1 || vv->count != 1) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "value must be 0-d or of one element, not %s",
			nn_shape_str(x, v));
		return nn_finish(x, ws, ex);
	}
	/* As a 0-d view of its one element it broadcasts to any shape. */
	nn_copy(x, nn_restride(x, v, 0, NULL, NULL, vv->offset), o);
	return nn_finish(x, ws, ex);
}
NN_LAUNCH(aclnnInplaceFillTensor)
