// SPDX-License-Identifier: MIT
/*
 * op_matmul.c - MatMul: two 2-D inputs of one type, x1 (m x k, or k x m
 * with transpose_x1) times x2 (k x n, or n x k with transpose_x2), into an
 * m x n output of the inputs' type; offset_x must be 0 (no quantisation).
 *
 * fp32, fp16 and bf16 run through BLAS (kern_gemm.c), fp16/bf16 widened to
 * fp32 in the workspace and rounded once into the output; int32 through
 * the plain C i-k-j kernel (kern_fp.c), wrapping modulo 2^32, a transposed
 * operand repacked into the workspace first. An inner dimension of 0 with
 * a non-empty output is refused. Never in place.
 */
#include <inttypes.h>

#include "ops_int.h"

static const char *const matmul_attrs[] = { "transpose_x1", "transpose_x2", "offset_x", NULL };

static enum vops_err matmul_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	const struct vops_attr *offset = vops_attr_find(attrs, n, "offset_x");
	enum vops_err ret;
	bool ta, tb;

	ret = ops_attr_bool(c->def, attrs, n, "transpose_x1", false, &ta, err);
	if (!ret)
		ret = ops_attr_bool(c->def, attrs, n, "transpose_x2", false, &tb, err);
	if (ret)
		return ret;
	if (offset && (offset->kind != VOPS_ATTR_INT || offset->i != 0))
		return ops_fail(err, VOPS_ERR_ATTR, "MatMul: offset_x must be the int 0 (no quantisation)");
	c->at.mm_flags = (ta ? OPS_MM_TRANS_X1 : 0) | (tb ? OPS_MM_TRANS_X2 : 0);
	return VOPS_OK;
}

/* The primitive of a 2-D call: kind, type, flags and {m, n, k}; false if k disagrees. */
static bool matmul_args(const struct ops_call *c, struct ops_args *a, uint64_t *kb)
{
	const struct vops_tensor *x1 = &c->in[0], *x2 = &c->in[1];
	bool ta = c->at.mm_flags & OPS_MM_TRANS_X1, tb = c->at.mm_flags & OPS_MM_TRANS_X2;

	a->kind = OPS_K_MATMUL;
	a->dt = a->odt = x1->dtype;
	a->flags = (ta ? OPS_F_TRANS_A : 0) | (tb ? OPS_F_TRANS_B : 0);
	a->d[0] = (uint64_t)x1->dims[ta ? 1 : 0];
	a->d[2] = (uint64_t)x1->dims[ta ? 0 : 1];
	*kb = (uint64_t)x2->dims[tb ? 1 : 0];
	a->d[1] = (uint64_t)x2->dims[tb ? 0 : 1];
	return a->d[2] == *kb;
}

static enum vops_err matmul_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	const struct vops_tensor *x1 = &c->in[0], *x2 = &c->in[1];
	uint64_t m, n, k, kb, bytes, es = ops_esize(x1->dtype);
	struct ops_args a = { .kind = 0 };
	char s1[96], s2[96];

	if (x1->ndim != 2 || x2->ndim != 2)
		return ops_fail(err, VOPS_ERR_INPUT, "MatMul takes two 2-D inputs, got %s and %s",
				vops_shape_str(s1, sizeof(s1), x1->ndim, x1->dims),
				vops_shape_str(s2, sizeof(s2), x2->ndim, x2->dims));
	if (!matmul_args(c, &a, &kb))
		return ops_fail(err, VOPS_ERR_INPUT,
				"MatMul: x1 %s%s and x2 %s%s do not agree on the inner dimension (%" PRIu64
				" and %" PRIu64 ")", vops_shape_str(s1, sizeof(s1), 2, x1->dims),
				(a.flags & OPS_F_TRANS_A) ? " (transposed)" : "",
				vops_shape_str(s2, sizeof(s2), 2, x2->dims),
				(a.flags & OPS_F_TRANS_B) ? " (transposed)" : "", a.d[2], kb);
	m = a.d[0];
	n = a.d[1];
	k = a.d[2];
	if (m > VOPS_MAX_DIM || n > VOPS_MAX_DIM || k > VOPS_MAX_DIM)
		return ops_too_large(c->def, err);
	p->out[0].dims[0] = (int64_t)m;
	p->out[0].dims[1] = (int64_t)n;
	p->empty = !m || !n;
	if (!p->empty && !k)
		return ops_fail(err, VOPS_ERR_INPUT, "MatMul: an inner dimension of 0 is not supported");
	if (!ops_bytes(m * k, es, &bytes))	/* each factor at most 2^31: no wrap */
		return ops_too_large(c->def, err);
	ops_set_in(p, c, 0, bytes);
	if (!ops_bytes(k * n, es, &bytes))
		return ops_too_large(c->def, err);
	ops_set_in(p, c, 1, bytes);
	if (!ops_bytes(m * n, es, &bytes))
		return ops_too_large(c->def, err);
	ops_set_out(p, x1->dtype, 2, p->out[0].dims, bytes);
	p->in_place = 0;
	return VOPS_OK;
}

static enum vops_err matmul_workspace(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	struct ops_args a = { .kind = 0 };
	uint64_t kb;

	p->ws_bytes = 0;
	if (p->empty)
		return VOPS_OK;
	matmul_args(c, &a, &kb);
	if (!ops_prim_ws(&a, &p->ws_bytes))
		return ops_too_large(c->def, err);
	return VOPS_OK;
}

static enum vops_run_status matmul_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	struct ops_args a = { .kind = 0 };
	uint64_t kb;

	(void)p;
	matmul_args(c, &a, &kb);
	a.in0 = b->in[0];
	a.in1 = b->in[1];
	a.out = b->out[0];
	a.ws = b->ws;
	return ops_prim_run(&a, r);
}

const struct ops_def ops_def_matmul = {
	.name = "MatMul", .id = OPS_ID_MATMUL, .kind = OPS_K_MATMUL, .nin = 2, .nout = 1,
	.attr_fmt = OPS_AF_MATMUL, .dtypes = OPS_DT_ALL, .attrs = matmul_attrs, .parse = matmul_parse,
	.infer = matmul_infer, .workspace = matmul_workspace, .run = matmul_run,
};
