// SPDX-License-Identifier: MIT
/*
 * nn_net_matmul.c - the matrix products: aclnnMatmul (PyTorch's matmul:
 * 1-D .. N-D, batch axes broadcast), aclnnMm (2-D), aclnnBatchMatMul
 * (3-D, equal batches), aclnnAddmm / aclnnInplaceAddmm (beta self +
 * alpha mat1 @ mat2), aclnnBaddbmm / aclnnInplaceBaddbmm (the batched
 * form), aclnnAddbmm / aclnnInplaceAddbmm (the batch's products summed),
 * aclnnMv (matrix @ vector), aclnnDot (vector . vector) and aclnnEinsum.
 *
 * lib/ops' MatMul (2-D, BLIS tiles in parallel), BatchMatMulV2 (batched,
 * numpy promotion of 1-D operands) and GEMM do the products. An operand
 * that is the transpose of a dense matrix (a weight stored [n, k] used as
 * [k, n]) goes in as the dense layout with the operator's transpose flag,
 * so the operator reads it without a copy; any other view is copied
 * dense by the operator's run. Types: fp32, fp16, bf16 (halves accumulate
 * in fp32, rounded once); a result of another type than out's is cast by
 * nn_store.
 */
#include <string.h>

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_einsum.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "nn_net.h"

/*
 * @v as an operand of a product. When its last two axes swapped give a
 * dense row-major layout, that layout (a view of the same storage) is
 * returned with *@adj set: the operator transposes it itself.
 */
static nn_val mm_operand(struct nn_exec *x, nn_val v, bool *adj)
{
	const struct nn_view *w = nn_view(x, v);
	int64_t d[VOPS_MAX_RANK], s[VOPS_MAX_RANK], want = 1;
	int n = w->ndim, i;

	*adj = false;
	if (!nn_ok(x) || n < 2 || w->dense || n > VOPS_MAX_RANK)
		return v;
	memcpy(d, w->dims, sizeof(d[0]) * (size_t)n);
	memcpy(s, w->strides, sizeof(s[0]) * (size_t)n);
	d[n - 1] = w->dims[n - 2];
	d[n - 2] = w->dims[n - 1];
	s[n - 1] = w->strides[n - 2];
	s[n - 2] = w->strides[n - 1];
	for (i = n - 1; i >= 0; i--) {
		if (d[i] != 1 && s[i] != want)
			return v;
		want *= d[i];
	}
	*adj = true;
	return nn_restride(x, v, n, d, NULL, w->offset);
}

/*
 * @a @ @b (PyTorch's matmul; names @na, @nb in messages), in their common
 * type. The inner dimensions must agree; batch axes broadcast.
 */
static nn_val mm_product(struct nn_exec *x, nn_val a, nn_val b, const char *na, const char *nb)
{
	aclDataType dt = nnn_float_type(x, a, b, na, nb);
	int ra, rb;
	int64_t ka, kb;
	bool ta, tb;

	if (!nn_check_rank(x, a, na, 1, VOPS_MAX_RANK) || !nn_check_rank(x, b, nb, 1, VOPS_MAX_RANK))
		return NN_NONE;
	/* nn_view()'s pointer lasts until the next value: keep what is needed */
	ra = nn_view(x, a)->ndim;
	rb = nn_view(x, b)->ndim;
	ka = nn_view(x, a)->dims[ra - 1];
	kb = nn_view(x, b)->dims[rb == 1 ? 0 : rb - 2];
	if (ka != kb) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the inner dimensions of %s %s and %s %s disagree "
			"(%" PRId64 " and %" PRId64 ")", na, nn_shape_str(x, a), nb, nn_shape_str(x, b),
			ka, kb);
		return NN_NONE;
	}
	a = nn_cast(x, mm_operand(x, a, &ta), dt);
	b = nn_cast(x, mm_operand(x, b, &tb), dt);
	if (ra == 2 && rb == 2) {
		/* version 1's MatMul: BLIS tiles handed to the device's engines */
		struct vops_attr at[] = { NN_ATTR_BOOL("transpose_x1", ta), NN_ATTR_BOOL("transpose_x2", tb) };
		nn_val in[] = { a, b };

		return nn_op1(x, "MatMul", 2, in, at, NN_COUNT(at));
	} else {
		struct vops_attr at[] = { NN_ATTR_BOOL("adj_x1", ta), NN_ATTR_BOOL("adj_x2", tb) };
		nn_val in[] = { a, b };

		return nn_op1(x, "BatchMatMulV2", 2, in, at, NN_COUNT(at));
	}
}

/* The three product functions differ only in the ranks they take. */
static aclnnStatus mm_common(const char *api, const aclTensor *self, const aclTensor *mat2, aclTensor *out,
			     int8_t cube_math_type, int rank, uint64_t *workspace_size, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), b = nn_in(x, mat2, "mat2"), o = nn_out(x, out, "out");

	nnn_cube_math(x, cube_math_type);
	if (rank && nn_check_rank(x, a, "self", rank, rank) && nn_check_rank(x, b, "mat2", rank, rank) &&
	    rank == 3 && nn_view(x, a)->dims[0] != nn_view(x, b)->dims[0])
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the batches of self %s and mat2 %s differ",
			nn_shape_str(x, a), nn_shape_str(x, b));
	nn_store(x, mm_product(x, a, b, "self", "mat2"), o);
	return nn_finish(x, workspace_size, executor);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
					int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return mm_common("aclnnMatmul", self, mat2, out, cubeMathType, 0, workspaceSize, executor);
}
NN_LAUNCH(aclnnMatmul)

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
				    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return mm_common("aclnnMm", self, mat2, out, cubeMathType, 2, workspaceSize, executor);
}
NN_LAUNCH(aclnnMm)

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
					     int8_t cubeMathType, uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	return mm_common("aclnnBatchMatMul", self, mat2, out, cubeMathType, 3, workspaceSize, executor);
}
NN_LAUNCH(aclnnBatchMatMul)

/* ---- beta self + alpha (m1 @ m2) ---------------------------------------------- */

/*
 * The Addmm and Baddbmm functions: @rank 2 (GEMM) or 3 (a batched product,
 * then the scaling and the sum element-wise). self (@s, named @sname)
 * broadcasts to the product's shape; beta 0 ignores it (NaN in self does
 * not propagate, as PyTorch), alpha 1 and beta 1 multiply nothing.
 */
static void addmm_build(struct nn_exec *x, nn_val s, const char *sname, nn_val m1, nn_val m2,
			const char *n1, const char *n2, const aclScalar *beta, const aclScalar *alpha,
			int8_t cube_math_type, int rank, nn_val o)
{
	int64_t want[3];
	aclDataType dt;
	double fb, fa;
	nn_val p;
	int i;

	if (nn_null(x, beta, "beta") || nn_null(x, alpha, "alpha") || !nnn_cube_math(x, cube_math_type))
		return;
	if (!nn_check_rank(x, m1, n1, rank, rank) || !nn_check_rank(x, m2, n2, rank, rank) ||
	    !nn_check_dtype(x, s, sname, nnn_float_dts, NNN_NFLOAT))
		return;
	for (i = 0; i < rank - 2; i++)
		if (nn_view(x, m1)->dims[i] != nn_view(x, m2)->dims[i]) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the batches of %s %s and %s %s differ", n1,
				nn_shape_str(x, m1), n2, nn_shape_str(x, m2));
			return;
		}
	if (nn_view(x, m1)->dims[rank - 1] != nn_view(x, m2)->dims[rank - 2]) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the inner dimensions of %s %s and %s %s disagree", n1,
			nn_shape_str(x, m1), n2, nn_shape_str(x, m2));
		return;
	}
	for (i = 0; i < rank - 1; i++)
		want[i] = nn_view(x, m1)->dims[i];
	want[rank - 1] = nn_view(x, m2)->dims[rank - 1];
	fb = nn_scalar_f64(beta);
	fa = nn_scalar_f64(alpha);
	if (fb != 0 && !nnn_broadcasts_to(x, s, sname, rank, want))
		return;
	/* self's type joins the products' (a bf16 product with an fp32 self: fp32) */
	dt = nn_promote(nnn_float_type(x, m1, m2, n1, n2), nn_view(x, s)->dtype);
	if (rank == 2) {
		bool ta, tb;
		nn_val a = nn_cast(x, mm_operand(x, m1, &ta), dt);
		nn_val b = nn_cast(x, mm_operand(x, m2, &tb), dt);
		nn_val c = fb == 0 ? nn_const(x, 0, dt) : nn_cast(x, s, dt);
		struct vops_attr at[] = { NN_ATTR_BOOL("transpose_a", ta), NN_ATTR_BOOL("transpose_b", tb) };
		nn_val in[] = { a, b, c, nn_scalar(x, alpha, ACL_DOUBLE, "alpha"),
				nn_scalar(x, beta, ACL_DOUBLE, "beta") };

		p = nn_op1(x, "GEMM", 5, in, at, NN_COUNT(at));
	} else {
		p = mm_product(x, m1, m2, n1, n2);
		if (nn_ok(x) && nn_view(x, p)->dtype != dt)
			p = nn_cast(x, p, dt);
		if (fa != 1) {
			nn_val in[] = { p, nn_const(x, fa, dt) };

			p = nn_op1(x, "Mul", 2, in, NULL, 0);
		}
		if (fb != 0) {
			nn_val sb = nn_cast(x, s, dt);

			if (fb != 1) {
				nn_val in[] = { sb, nn_const(x, fb, dt) };

				sb = nn_op1(x, "Mul", 2, in, NULL, 0);
			}
			{
				nn_val in[] = { p, sb };

				p = nn_op1(x, "Add", 2, in, NULL, 0);
			}
		}
	}
	nn_store(x, p, o);
}

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1, const aclTensor *mat2,
				       const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
				       int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnAddmm");
	nn_val s = nn_in(x, self, "self"), a = nn_in(x, mat1, "mat1"), b = nn_in(x, mat2, "mat2");
	nn_val o = nn_out(x, out, "out");

	addmm_build(x, s, "self", a, b, "mat1", "mat2", beta, alpha, cubeMathType, 2, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnAddmm)

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *mat1,
					      const aclTensor *mat2, const aclScalar *beta,
					      const aclScalar *alpha, int8_t cubeMathType,
					      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceAddmm");
	nn_val s = nn_in(x, selfRef, "selfRef"), a = nn_in(x, mat1, "mat1"), b = nn_in(x, mat2, "mat2");
	nn_val o = nn_out(x, selfRef, "selfRef");

	addmm_build(x, s, "selfRef", a, b, "mat1", "mat2", beta, alpha, cubeMathType, 2, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceAddmm)

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
					 const aclTensor *batch2, const aclScalar *beta,
					 const aclScalar *alpha, aclTensor *out, int8_t cubeMathType,
					 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnBaddbmm");
	nn_val s = nn_in(x, self, "self"), a = nn_in(x, batch1, "batch1"), b = nn_in(x, batch2, "batch2");
	nn_val o = nn_out(x, out, "out");

	addmm_build(x, s, "self", a, b, "batch1", "batch2", beta, alpha, cubeMathType, 3, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnBaddbmm)

aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *batch1,
						const aclTensor *batch2, const aclScalar *beta,
						const aclScalar *alpha, int8_t cubeMathType,
						uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceBaddbmm");
	nn_val s = nn_in(x, selfRef, "selfRef"), a = nn_in(x, batch1, "batch1");
	nn_val b = nn_in(x, batch2, "batch2"), o = nn_out(x, selfRef, "selfRef");

	addmm_build(x, s, "selfRef", a, b, "batch1", "batch2", beta, alpha, cubeMathType, 3, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceBaddbmm)

/* ---- sum over the batch: beta self + alpha sum_b (b1[b] @ b2[b]) ------------------ */

/*
 * The sum of the batch's products is one product: b1 seen as [n, b, m]
 * (a view of its storage) made [n, b * m], times b2 [b * m, p]; so GEMM
 * does it all with addmm_build's rank-2 path.
 */
static void addbmm_build(struct nn_exec *x, nn_val s, const char *sname, nn_val b1, nn_val b2,
			 const aclScalar *beta, const aclScalar *alpha, int8_t cube_math_type, nn_val o)
{
	const struct nn_view *w;
	int64_t d[3], st[3], off, m1[2], m2[2];

	if (!nn_check_rank(x, b1, "batch1", 3, 3) || !nn_check_rank(x, b2, "batch2", 3, 3))
		return;
	if (nn_view(x, b1)->dims[0] != nn_view(x, b2)->dims[0] ||
	    nn_view(x, b1)->dims[2] != nn_view(x, b2)->dims[1]) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "batch1 %s and batch2 %s are not [b, n, m] and [b, m, p]",
			nn_shape_str(x, b1), nn_shape_str(x, b2));
		return;
	}
	w = nn_view(x, b1);
	d[0] = w->dims[1];
	d[1] = w->dims[0];
	d[2] = w->dims[2];
	st[0] = w->strides[1];
	st[1] = w->strides[0];
	st[2] = w->strides[2];
	off = w->offset;
	m1[0] = d[0];
	m1[1] = d[1] * d[2];
	m2[0] = d[1] * d[2];
	m2[1] = nn_view(x, b2)->dims[2];
	b1 = nn_reshape(x, nn_restride(x, b1, 3, d, st, off), 2, m1);
	b2 = nn_reshape(x, b2, 2, m2);
	addmm_build(x, s, sname, b1, b2, "batch1", "batch2", beta, alpha, cube_math_type, 2, o);
}

aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
					const aclTensor *batch2, const aclScalar *beta,
					const aclScalar *alpha, aclTensor *out, int8_t cubeMathType,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnAddbmm");
	nn_val s = nn_in(x, self, "self"), a = nn_in(x, batch1, "batch1"), b = nn_in(x, batch2, "batch2");
	nn_val o = nn_out(x, out, "out");

	addbmm_build(x, s, "self", a, b, beta, alpha, cubeMathType, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnAddbmm)

aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor *selfRef, const aclTensor *batch1,
					       const aclTensor *batch2, const aclScalar *beta,
					       const aclScalar *alpha, int8_t cubeMathType,
					       uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnInplaceAddbmm");
	nn_val s = nn_in(x, selfRef, "selfRef"), a = nn_in(x, batch1, "batch1");
	nn_val b = nn_in(x, batch2, "batch2"), o = nn_out(x, selfRef, "selfRef");

	addbmm_build(x, s, "selfRef", a, b, beta, alpha, cubeMathType, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnInplaceAddbmm)

/* ---- vector products ---------------------------------------------------------------- */

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor *self, const aclTensor *vec, aclTensor *out,
				    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnMv");
	nn_val a = nn_in(x, self, "self"), v = nn_in(x, vec, "vec"), o = nn_out(x, out, "out");

	nnn_cube_math(x, cubeMathType);
	if (nn_check_rank(x, a, "self", 2, 2) && nn_check_rank(x, v, "vec", 1, 1))
		nn_store(x, mm_product(x, a, v, "self", "vec"), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnMv)

/* CANN's Dot: both vectors of one type (no promotion), a 0-D out. */
aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor *self, const aclTensor *tensor, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnDot");
	nn_val a = nn_in(x, self, "self"), b = nn_in(x, tensor, "tensor"), o = nn_out(x, out, "out");

	if (nn_check_rank(x, a, "self", 1, 1) && nn_check_rank(x, b, "tensor", 1, 1) &&
	    nn_view(x, a)->dtype != nn_view(x, b)->dtype)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "self and tensor must have one type");
	nn_store(x, mm_product(x, a, b, "self", "tensor"), o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnDot)

/* ---- Einsum ------------------------------------------------------------------------- */

/* lib/ops' Einsum does the equation (any number of operands); the
 * operands share one type, the result is cast to output's. */
aclnnStatus aclnnEinsumGetWorkspaceSize(const aclTensorList *tensors, const char *equation, aclTensor *output,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_UINT16, ACL_INT32,
					   ACL_UINT32, ACL_INT64, ACL_UINT64 };
	struct nn_exec *x = nn_begin("aclnnEinsum");
	nn_val in[VOPS_MAX_INPUTS], o = nn_out(x, output, "output");
	int n = nn_in_list(x, tensors, "tensors", in, VOPS_MAX_INPUTS, false), i;

	if (nn_null(x, equation, "equation") || n < 0)
		return nn_finish(x, workspaceSize, executor);
	for (i = 0; i < n && nn_check_dtype(x, in[i], "tensors", dts, (int)NN_COUNT(dts)); i++)
		if (nn_view(x, in[i])->dtype != nn_view(x, in[0])->dtype)
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "tensors[%d] is not of tensors[0]'s type", i);
	{
		struct vops_attr at[] = { NN_ATTR_STRING("equation", equation), NN_ATTR_INT("N", n) };

		nn_store(x, nn_op1(x, "Einsum", n, in, at, NN_COUNT(at)), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnEinsum)
