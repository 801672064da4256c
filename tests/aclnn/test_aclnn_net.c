// SPDX-License-Identifier: MIT
/*
 * test_aclnn_net.c - the neural-network aclnn functions (lib/aclnn/ops/nn_net_*.c):
 * matrix products, convolution, softmax, activations with parameters,
 * normalisations, pooling, einsum and the upsamples. Each result is compared with lib/ops' operator
 * run on the host in fp64 (a local reference, ref64) or with a host formula; inputs
 * contiguous, transposed, sliced and broadcast, outputs into views and in place;
 * fp32, fp16, bf16; bad arguments with their exact codes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_einsum.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "nnt.h"
#include "vnpu_drm.h"	/* VNPU_OPERAND_*: the reference runs lib/ops itself */

#define NULLPTR ACLNN_ERR_PARAM_NULLPTR
#define INVALID ACLNN_ERR_PARAM_INVALID

#define DIMS(...) ((const int64_t[]){ __VA_ARGS__ })
#define NDIMS(...) ((int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)))
/* a tensor of values in [-1, 1], zeros, an int array */
#define T(dt, seed, ...) nnt_new(dt, NDIMS(__VA_ARGS__), DIMS(__VA_ARGS__), -1.0, 1.0, seed)
#define TT(dt, seed, ...) nnt_new_transposed(dt, NDIMS(__VA_ARGS__), DIMS(__VA_ARGS__), -1.0, 1.0, seed)
#define Z(dt, ...) nnt_zeros(dt, NDIMS(__VA_ARGS__), DIMS(__VA_ARGS__))
#define IA(...) aclCreateIntArray(DIMS(__VA_ARGS__), (uint64_t)NDIMS(__VA_ARGS__))

#define A_BOOL(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_BOOL, .b = (v) }
#define A_INT(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_INT, .i = (v) }
#define A_FLOAT(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_FLOAT, .f = (float)(v) }
#define A_STR(n, v) { .name = (char *)(n), .kind = VOPS_ATTR_STRING, .s = (char *)(v) }
#define A_INTS(n, ...) { .name = (char *)(n), .kind = VOPS_ATTR_LIST_INT, \
			 .li = { NDIMS(__VA_ARGS__), (int64_t *)DIMS(__VA_ARGS__) } }

static const aclDataType floats[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16 };
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define NFLOATS COUNT(floats)

/*
 * The reference: lib/ops' @type over the inputs' values in fp64 on the host
 * (every operator used here takes fp64), output @which as doubles. Exact
 * within fp64 rounding, so it checks fp32 and the half types alike; a local
 * helper because nnt_ref() plans with VOPS_MAX_OUTPUTS outputs, which the
 * single-output operators refuse.
 */
static double *ref64(const char *type, int nin, struct nnt *const *in, const struct vops_attr *at, unsigned int nat,
		     int which, uint64_t *count)
{
	struct vops_operand ops[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
	struct vops_tensor t[VOPS_MAX_INPUTS];
	struct vops_plan *plan = malloc(sizeof(*plan));
	struct vops_error err;
	char why[256] = "";
	double *res;
	uint64_t n;
	int k, nops = 0;

	ck_assert(plan);
	for (k = 0; k < nin; k++) {
		uint64_t m = nnt_count(in[k]);

		t[k] = (struct vops_tensor){ .dtype = ACL_DOUBLE, .ndim = in[k]->ndim, .dims = in[k]->dims };
		ops[nops++] = (struct vops_operand){ nnt_values(in[k]), (m ? m : 1) * sizeof(double), VNPU_OPERAND_READ };
	}
	ck_assert_msg(!vops_plan(type, nin, t, which + 1, at, nat, plan, &err), "reference %s: %s", type, err.msg);
	for (k = 0; k < plan->nout; k++)
		ops[nops++] = (struct vops_operand){ calloc(plan->out[k].bytes ? plan->out[k].bytes : 8, 1),
						     plan->out[k].bytes ? plan->out[k].bytes : 8, VNPU_OPERAND_WRITE };
	if (plan->ws_bytes)
		ops[nops++] = (struct vops_operand){ aligned_alloc(64, (plan->ws_bytes + 63) & ~63ull), plan->ws_bytes,
						     VNPU_OPERAND_WORKSPACE };
	if (!plan->empty)
		ck_assert_msg(vops_run(plan->desc, plan->desc_size, ops, (unsigned int)nops, NULL, why, sizeof(why)) ==
			      VOPS_RUN_OK, "reference %s: %s", type, why);
	ck_assert_int_eq(plan->out[which].dtype, ACL_DOUBLE);
	n = 1;
	for (k = 0; k < plan->out[which].ndim; k++)
		n *= (uint64_t)plan->out[which].dims[k];
	res = malloc((n ? n : 1) * sizeof(double));
	memcpy(res, ops[nin + which].ptr, n * sizeof(double));
	for (k = 0; k < nops; k++)
		free(ops[k].ptr);
	free(plan);
	*count = n;
	return res;
}

/* @out equals lib/ops' @type over @in, within @dt's tolerance. */
static void expect_ref(struct nnt *out, const char *type, int nin, struct nnt *const *in, const struct vops_attr *at,
		       unsigned int nat, aclDataType dt)
{
	uint64_t n;
	double *e = ref64(type, nin, in, at, nat, 0, &n);

	ck_assert_uint_eq(n, nnt_count(out));
	nnt_expect(out, e, n, nnt_rtol(dt), nnt_atol(dt));
	free(e);
}

static aclScalar *S(double v)
{
	return nnt_scalar(ACL_FLOAT, v);
}

/* ---- matrix products ---------------------------------------------------------- */

static void matmul_case(aclDataType dt, int na, const int64_t *da, int nb, const int64_t *db, int no,
			const int64_t *dout, unsigned int seed)
{
	struct nnt *a = nnt_new(dt, na, da, -1, 1, seed), *b = nnt_new(dt, nb, db, -1, 1, seed + 1);
	struct nnt *o = nnt_zeros(dt, no, dout), *in[] = { a, b };

	NNT_RUN(aclnnMatmul, a->t, b->t, o->t, 1);
	expect_ref(o, "BatchMatMulV2", 2, in, NULL, 0, dt);
}

START_TEST(matmul_shapes_broadcast_and_one_dimensional_operands)
{
	for (unsigned int i = 0; i < NFLOATS; i++) {
		aclDataType dt = floats[i];

		matmul_case(dt, 2, DIMS(3, 4), 2, DIMS(4, 5), 2, DIMS(3, 5), 1);
		matmul_case(dt, 3, DIMS(2, 3, 4), 2, DIMS(4, 5), 3, DIMS(2, 3, 5), 2);
		matmul_case(dt, 4, DIMS(2, 1, 3, 4), 3, DIMS(3, 4, 2), 4, DIMS(2, 3, 3, 2), 3);
		matmul_case(dt, 1, DIMS(4), 1, DIMS(4), 0, NULL, 4);
		matmul_case(dt, 2, DIMS(3, 4), 1, DIMS(4), 1, DIMS(3), 5);
		matmul_case(dt, 1, DIMS(4), 3, DIMS(2, 4, 5), 2, DIMS(2, 5), 6);
	}
}
END_TEST

START_TEST(matmul_views_and_mixed_types)
{
	/* a transposed weight (read through the operator's transpose flag), a sliced input */
	struct nnt *base = T(ACL_FLOAT, 7, 5, 8), *a = nnt_view(base, 2, DIMS(3, 6), DIMS(8, 1), 9);
	struct nnt *w = TT(ACL_FLOAT, 8, 6, 4), *o = Z(ACL_FLOAT, 3, 4), *in[] = { a, w };

	NNT_RUN(aclnnMatmul, a->t, w->t, o->t, 0);
	expect_ref(o, "BatchMatMulV2", 2, in, NULL, 0, ACL_FLOAT);

	/* batched with a transposed batch of weights */
	{
		struct nnt *x = T(ACL_FLOAT16, 9, 2, 3, 4), *y = TT(ACL_FLOAT16, 10, 2, 4, 5);
		struct nnt *z = Z(ACL_FLOAT16, 2, 3, 5), *in2[] = { x, y };

		NNT_RUN(aclnnMatmul, x->t, y->t, z->t, 0);
		expect_ref(z, "BatchMatMulV2", 2, in2, NULL, 0, ACL_FLOAT16);
	}
	/* fp16 with fp32: fp32; fp16 inputs into an fp32 out */
	{
		struct nnt *x = T(ACL_FLOAT16, 11, 3, 4), *y = T(ACL_FLOAT, 12, 4, 2);
		struct nnt *z = Z(ACL_FLOAT, 3, 2), *in2[] = { x, y };

		NNT_RUN(aclnnMatmul, x->t, y->t, z->t, 0);
		expect_ref(z, "BatchMatMulV2", 2, in2, NULL, 0, ACL_FLOAT);
	}
	{
		struct nnt *x = T(ACL_BF16, 13, 3, 4), *y = T(ACL_BF16, 14, 4, 2);
		struct nnt *z = Z(ACL_FLOAT, 3, 2), *in2[] = { x, y };

		NNT_RUN(aclnnMatmul, x->t, y->t, z->t, 0);
		expect_ref(z, "BatchMatMulV2", 2, in2, NULL, 0, ACL_BF16);
	}
}
END_TEST

START_TEST(mm_and_bmm_into_views)
{
	struct nnt *a = T(ACL_FLOAT, 20, 3, 4), *b = TT(ACL_FLOAT, 21, 4, 5), *in[] = { a, b };
	/* out: columns 1..5 of a [3, 7] tensor; the rest must stay */
	struct nnt *ob = T(ACL_FLOAT, 22, 3, 7), *o = nnt_view(ob, 2, DIMS(3, 5), DIMS(7, 1), 1);
	void *before = nnt_snapshot(ob);

	NNT_RUN(aclnnMm, a->t, b->t, o->t, 0);
	expect_ref(o, "BatchMatMulV2", 2, in, NULL, 0, ACL_FLOAT);
	nnt_expect_untouched(ob, before);
	free(before);

	for (unsigned int i = 0; i < NFLOATS; i++) {
		struct nnt *x = T(floats[i], 23, 2, 3, 4), *y = T(floats[i], 24, 2, 4, 5);
		struct nnt *z = Z(floats[i], 2, 3, 5), *in2[] = { x, y };

		NNT_RUN(aclnnBatchMatMul, x->t, y->t, z->t, 1);
		expect_ref(z, "BatchMatMulV2", 2, in2, NULL, 0, floats[i]);
	}
}
END_TEST

START_TEST(matrix_products_refuse_bad_arguments)
{
	struct nnt *a = T(ACL_FLOAT, 30, 3, 4), *b = T(ACL_FLOAT, 31, 4, 5), *o = Z(ACL_FLOAT, 3, 5);
	struct nnt *b5 = T(ACL_FLOAT, 32, 5, 5), *o4 = Z(ACL_FLOAT, 3, 4), *i32 = Z(ACL_INT32, 3, 4);
	struct nnt *h = T(ACL_FLOAT16, 33, 4, 5), *bf = T(ACL_BF16, 34, 3, 4);
	struct nnt *a3 = T(ACL_FLOAT, 35, 2, 3, 4), *b3 = T(ACL_FLOAT, 36, 3, 4, 5), *o3 = Z(ACL_FLOAT, 2, 3, 5);

	NNT_FAILS(NULLPTR, aclnnMatmul, NULL, b->t, o->t, 0);
	NNT_FAILS(NULLPTR, aclnnMatmul, a->t, NULL, o->t, 0);
	NNT_FAILS(NULLPTR, aclnnMatmul, a->t, b->t, NULL, 0);
	NNT_FAILS(INVALID, aclnnMatmul, a->t, b5->t, o->t, 0);		/* inner 4 and 5 */
	NNT_FAILS(INVALID, aclnnMatmul, a->t, b->t, o4->t, 0);		/* out shape */
	NNT_FAILS(INVALID, aclnnMatmul, a->t, b->t, o->t, 7);		/* cubeMathType */
	NNT_FAILS(INVALID, aclnnMatmul, i32->t, b->t, o->t, 0);		/* int32 */
	NNT_FAILS(INVALID, aclnnMatmul, bf->t, h->t, o->t, 0);		/* bf16 with fp16 */
	NNT_FAILS(INVALID, aclnnMm, a3->t, b->t, o3->t, 0);		/* Mm takes 2-D */
	NNT_FAILS(INVALID, aclnnBatchMatMul, a3->t, b3->t, o3->t, 0);	/* batches 2 and 3 */
	NNT_FAILS(INVALID, aclnnBatchMatMul, a->t, b->t, o->t, 0);	/* 2-D */
	NNT_FAILS(NULLPTR, aclnnAddmm, o->t, a->t, b->t, NULL, S(1), o->t, 0);
	NNT_FAILS(INVALID, aclnnAddmm, o4->t, a->t, b->t, S(1), S(1), o->t, 0);	/* self [3, 4] */
	NNT_FAILS(INVALID, aclnnAddmm, o->t, a->t, b5->t, S(1), S(1), o->t, 0);
	NNT_FAILS(INVALID, aclnnBaddbmm, o3->t, a3->t, b3->t, S(1), S(1), o3->t, 0);
	{
		aclOpExecutor *ex = NULL;
		uint64_t ws = 0;

		ck_assert_int_eq(aclnnMatmulGetWorkspaceSize(a->t, b->t, o->t, 0, NULL, &ex), NULLPTR);
		ck_assert_int_eq(aclnnMatmulGetWorkspaceSize(a->t, b->t, o->t, 0, &ws, NULL), NULLPTR);
	}
}
END_TEST

/* beta * self + alpha * product (dense doubles), @n elements, self broadcast by @sidx */
static double *axpby_ref(const double *prod, const double *self, const uint64_t *sidx, uint64_t n, double beta,
			 double alpha)
{
	double *e = malloc(sizeof(double) * n);

	for (uint64_t i = 0; i < n; i++)
		e[i] = alpha * prod[i] + (beta == 0 ? 0 : beta * self[sidx ? sidx[i] : i]);
	return e;
}

START_TEST(addmm_beta_alpha_broadcast_and_in_place)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *sb = T(dt, 40, 5), *s = nnt_view(sb, 2, DIMS(3, 5), DIMS(0, 1), 0);
		struct nnt *a = T(dt, 41, 3, 4), *b = TT(dt, 42, 4, 5), *o = Z(dt, 3, 5), *in[] = { a, b };
		uint64_t n, idx[15];
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n), *sv = nnt_values(sb), *e;

		for (int i = 0; i < 15; i++)
			idx[i] = (uint64_t)(i % 5);
		NNT_RUN(aclnnAddmm, s->t, a->t, b->t, S(0.5), S(2), o->t, 0);
		e = axpby_ref(p, sv, idx, n, 0.5, 2);
		nnt_expect(o, e, n, nnt_rtol(dt), 2 * nnt_atol(dt));
		free(e);
		free(p);
		free(sv);
	}
	/* beta 0: self's NaN does not propagate */
	{
		double nanv[15];
		struct nnt *a = T(ACL_FLOAT, 43, 3, 4), *b = T(ACL_FLOAT, 44, 4, 5), *o = Z(ACL_FLOAT, 3, 5);
		struct nnt *s, *in[] = { a, b };
		uint64_t n;
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n);

		for (int i = 0; i < 15; i++)
			nanv[i] = NAN;
		s = nnt_from(ACL_FLOAT, 2, DIMS(3, 5), nanv);
		NNT_RUN(aclnnAddmm, s->t, a->t, b->t, S(0), S(1), o->t, 0);
		nnt_expect(o, p, n, 1e-5, 1e-5);
		free(p);
	}
	/* in place: selfRef = 1.5 selfRef - mat1 @ mat2 */
	{
		struct nnt *s = T(ACL_FLOAT, 45, 3, 5), *a = T(ACL_FLOAT, 46, 3, 4), *b = T(ACL_FLOAT, 47, 4, 5);
		struct nnt *in[] = { a, b };
		uint64_t n;
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n), *sv = nnt_values(s), *e;

		NNT_RUN(aclnnInplaceAddmm, s->t, a->t, b->t, S(1.5), S(-1), 0);
		e = axpby_ref(p, sv, NULL, n, 1.5, -1);
		nnt_expect(s, e, n, 1e-5, 1e-5);
		free(e);
		free(p);
		free(sv);
	}
}
END_TEST

START_TEST(baddbmm_and_in_place)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		/* self [3, 5] broadcast over the batch */
		struct nnt *s = T(dt, 50, 3, 5), *a = T(dt, 51, 2, 3, 4), *b = TT(dt, 52, 2, 4, 5);
		struct nnt *o = Z(dt, 2, 3, 5), *in[] = { a, b };
		uint64_t n, idx[30];
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n), *sv = nnt_values(s), *e;

		for (int i = 0; i < 30; i++)
			idx[i] = (uint64_t)(i % 15);
		NNT_RUN(aclnnBaddbmm, s->t, a->t, b->t, S(-1), S(0.5), o->t, 0);
		e = axpby_ref(p, sv, idx, n, -1, 0.5);
		nnt_expect(o, e, n, nnt_rtol(dt), 2 * nnt_atol(dt));
		free(e);
		free(p);
		free(sv);
	}
	{
		struct nnt *s = T(ACL_FLOAT, 53, 2, 3, 5), *a = T(ACL_FLOAT, 54, 2, 3, 4), *b = T(ACL_FLOAT, 55, 2, 4, 5);
		struct nnt *in[] = { a, b };
		uint64_t n;
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n), *sv = nnt_values(s), *e;

		NNT_RUN(aclnnInplaceBaddbmm, s->t, a->t, b->t, S(1), S(1), 0);
		e = axpby_ref(p, sv, NULL, n, 1, 1);
		nnt_expect(s, e, n, 1e-5, 1e-5);
		free(e);
		free(p);
		free(sv);
	}
}
END_TEST

/* ---- convolution ---------------------------------------------------------------- */

START_TEST(convolution_2d_groups_strides_bias_and_types)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = T(dt, 60, 1, 3, 6, 6), *w = T(dt, 61, 4, 3, 3, 3), *b = T(dt, 62, 4);
		struct nnt *o = Z(dt, 1, 4, 6, 6), *in[] = { x, w, b };
		struct vops_attr at[] = { A_INTS("strides", 1, 1, 1, 1), A_INTS("pads", 1, 1, 1, 1),
					  A_STR("data_format", "NCHW") };

		NNT_RUN(aclnnConvolution, x->t, w->t, b->t, IA(1, 1), IA(1, 1), IA(1, 1), false, IA(0, 0), 1, o->t,
			0);
		expect_ref(o, "Conv2D", 3, in, at, COUNT(at), dt);
	}
	/* groups 2, stride 2, dilation 2, no bias, a sliced input */
	{
		struct nnt *xb = T(ACL_FLOAT, 63, 2, 4, 9, 9);
		struct nnt *x = nnt_view(xb, 4, DIMS(2, 4, 8, 8), DIMS(324, 81, 9, 1), 10);
		struct nnt *w = T(ACL_FLOAT, 64, 6, 2, 3, 3), *o = Z(ACL_FLOAT, 2, 6, 3, 3), *in[] = { x, w };
		struct vops_attr at[] = { A_INTS("strides", 1, 1, 2, 2), A_INTS("pads", 1, 1, 1, 1),
					  A_INTS("dilations", 1, 1, 2, 2), A_INT("groups", 2),
					  A_STR("data_format", "NCHW") };

		NNT_RUN(aclnnConvolution, x->t, w->t, NULL, IA(2), IA(1), IA(2), false, NULL, 2, o->t, 0);
		expect_ref(o, "Conv2D", 2, in, at, COUNT(at), ACL_FLOAT);
	}
}
END_TEST

START_TEST(convolution_1d_3d_and_transposed)
{
	{
		struct nnt *x = T(ACL_FLOAT, 70, 2, 3, 8), *w = T(ACL_FLOAT, 71, 4, 3, 3), *b = T(ACL_FLOAT, 72, 4);
		struct nnt *o = Z(ACL_FLOAT, 2, 4, 4), *in[] = { x, w, b };
		struct vops_attr at[] = { A_INTS("strides", 1, 1, 1, 2), A_INTS("pads", 0, 0, 1, 1),
					  A_STR("data_format", "NCHW") };

		NNT_RUN(aclnnConvolution, x->t, w->t, b->t, IA(2), IA(1), IA(1), false, IA(0), 1, o->t, 0);
		expect_ref(o, "Conv2D", 3, in, at, COUNT(at), ACL_FLOAT);
	}
	{
		struct nnt *x = T(ACL_FLOAT16, 73, 1, 2, 4, 4, 4), *w = T(ACL_FLOAT16, 74, 3, 2, 2, 2, 2);
		struct nnt *o = Z(ACL_FLOAT16, 1, 3, 3, 3, 3), *in[] = { x, w };
		struct vops_attr at[] = { A_INTS("strides", 1, 1, 1, 1, 1), A_INTS("pads", 0, 0, 0, 0, 0, 0),
					  A_STR("data_format", "NCDHW") };

		NNT_RUN(aclnnConvolution, x->t, w->t, NULL, IA(1, 1, 1), IA(0, 0, 0), IA(1, 1, 1), false, NULL, 1,
			o->t, 0);
		expect_ref(o, "Conv3D", 2, in, at, COUNT(at), ACL_FLOAT16);
	}
	/* transposed: [1, 4, 3, 3] -> (3 - 1) * 2 - 2 + 3 + 1 = 6 */
	{
		struct nnt *x = T(ACL_FLOAT, 75, 1, 4, 3, 3), *w = T(ACL_FLOAT, 76, 4, 1, 3, 3), *b = T(ACL_FLOAT, 77, 2);
		struct nnt *o = Z(ACL_FLOAT, 1, 2, 6, 6), *in[] = { x, w, b };
		struct vops_attr at[] = { A_INTS("input_size", 1, 2, 6, 6), A_INTS("strides", 1, 1, 2, 2),
					  A_INTS("pads", 1, 1, 1, 1), A_INT("groups", 2),
					  A_INTS("output_padding", 0, 0, 1, 1), A_STR("data_format", "NCHW") };

		NNT_RUN(aclnnConvolution, x->t, w->t, b->t, IA(2, 2), IA(1, 1), IA(1, 1), true, IA(1, 1), 2, o->t, 0);
		expect_ref(o, "Conv2DTransposeD", 3, in, at, COUNT(at), ACL_FLOAT);
	}
}
END_TEST

START_TEST(convolution_refuses_bad_arguments)
{
	struct nnt *x = T(ACL_FLOAT, 80, 1, 3, 6, 6), *w = T(ACL_FLOAT, 81, 4, 3, 3, 3), *o = Z(ACL_FLOAT, 1, 4, 4, 4);
	struct nnt *o5 = Z(ACL_FLOAT, 1, 4, 5, 5), *b3 = T(ACL_FLOAT, 82, 3), *w2 = T(ACL_FLOAT, 83, 4, 1, 3, 3);
	struct nnt *x2 = T(ACL_FLOAT, 84, 6, 6);

	NNT_FAILS(NULLPTR, aclnnConvolution, NULL, w->t, NULL, IA(1), IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(NULLPTR, aclnnConvolution, x->t, NULL, NULL, IA(1), IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(NULLPTR, aclnnConvolution, x->t, w->t, NULL, NULL, IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x->t, w->t, NULL, IA(1), IA(0), IA(1), false, NULL, 1, o5->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x->t, w->t, b3->t, IA(1), IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x->t, w2->t, NULL, IA(1), IA(0), IA(1), false, NULL, 2, o->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x->t, w->t, NULL, IA(0), IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x->t, w->t, NULL, IA(1, 1, 1), IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x2->t, w->t, NULL, IA(1), IA(0), IA(1), false, NULL, 1, o->t, 0);
	NNT_FAILS(INVALID, aclnnConvolution, x->t, w->t, NULL, IA(1), IA(0), IA(1), false, NULL, 1, o->t, 5);
}
END_TEST

/* ---- softmax and activations ----------------------------------------------------- */

START_TEST(softmax_and_log_softmax_over_any_dim)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = TT(dt, 90, 3, 5), *o = Z(dt, 3, 5), *in[] = { x };
		struct vops_attr a1[] = { A_INTS("axes", 1) }, a0[] = { A_INTS("axes", 0) };

		NNT_RUN(aclnnSoftmax, x->t, -1, o->t);
		expect_ref(o, "SoftmaxV2", 1, in, a1, 1, dt);
		NNT_RUN(aclnnSoftmax, x->t, 0, o->t);
		expect_ref(o, "SoftmaxV2", 1, in, a0, 1, dt);
		NNT_RUN(aclnnLogSoftmax, x->t, 1, o->t);
		expect_ref(o, "LogSoftmaxV2", 1, in, a1, 1, dt);
	}
	/* in place, and an fp16 input into an fp32 out */
	{
		struct nnt *x = T(ACL_FLOAT, 91, 2, 3, 4), *c = T(ACL_FLOAT, 91, 2, 3, 4), *in[] = { c };
		struct vops_attr a1[] = { A_INTS("axes", 1) };

		NNT_RUN(aclnnSoftmax, x->t, 1, x->t);
		expect_ref(x, "SoftmaxV2", 1, in, a1, 1, ACL_FLOAT);
	}
	{
		struct nnt *x = T(ACL_FLOAT16, 92, 4, 6), *o = Z(ACL_FLOAT, 4, 6), *in[] = { x };
		struct vops_attr a1[] = { A_INTS("axes", 1) };

		NNT_RUN(aclnnLogSoftmax, x->t, -1, o->t);
		expect_ref(o, "LogSoftmaxV2", 1, in, a1, 1, ACL_FLOAT16);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 93, 3, 5), *o = Z(ACL_FLOAT, 3, 5), *o2 = Z(ACL_FLOAT, 5, 3);

		NNT_FAILS(INVALID, aclnnSoftmax, x->t, 2, o->t);
		NNT_FAILS(INVALID, aclnnSoftmax, x->t, -3, o->t);
		NNT_FAILS(INVALID, aclnnLogSoftmax, x->t, 0, o2->t);
		NNT_FAILS(NULLPTR, aclnnSoftmax, NULL, 0, o->t);
		NNT_FAILS(NULLPTR, aclnnLogSoftmax, x->t, 0, NULL);
	}
}
END_TEST

START_TEST(prelu_gelu_v2_and_log_sigmoid)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = T(dt, 100, 2, 3, 4), *w = T(dt, 101, 3), *w1 = T(dt, 102, 1), *o = Z(dt, 2, 3, 4);
		struct nnt *in[] = { x, w }, *in1[] = { x, w1 }, *xin[] = { x };
		struct vops_attr none[] = { A_STR("approximate", "none") }, tanh_[] = { A_STR("approximate", "tanh") };
		double *xv = nnt_values(x), e[24];

		NNT_RUN(aclnnPrelu, x->t, w->t, o->t);
		expect_ref(o, "PRelu", 2, in, NULL, 0, dt);
		NNT_RUN(aclnnPrelu, x->t, w1->t, o->t);
		expect_ref(o, "PRelu", 2, in1, NULL, 0, dt);
		NNT_RUN(aclnnGeluV2, x->t, 0, o->t);
		expect_ref(o, "GeluV2", 1, xin, none, 1, dt);
		NNT_RUN(aclnnGeluV2, x->t, 1, o->t);
		expect_ref(o, "GeluV2", 1, xin, tanh_, 1, dt);
		NNT_RUN(aclnnLogSigmoid, x->t, o->t);
		for (int i = 0; i < 24; i++)
			e[i] = -log1p(exp(-xv[i]));
		nnt_expect(o, e, 24, nnt_rtol(dt), nnt_atol(dt));
		free(xv);
	}
	/* a transposed input, large magnitudes for LogSigmoid */
	{
		double v[6] = { -100, -20, -1, 0, 30, 100 }, e[6];
		struct nnt *x = nnt_from(ACL_FLOAT, 2, DIMS(2, 3), v), *o = Z(ACL_FLOAT, 2, 3);
		struct nnt *t = TT(ACL_FLOAT, 103, 4, 5), *w = T(ACL_FLOAT, 104, 5), *ot = Z(ACL_FLOAT, 4, 5);
		struct nnt *in[] = { t, w };

		NNT_RUN(aclnnLogSigmoid, x->t, o->t);
		for (int i = 0; i < 6; i++)
			e[i] = v[i] < 0 ? v[i] - log1p(exp(v[i])) : -log1p(exp(-v[i]));
		nnt_expect(o, e, 6, 1e-6, 1e-6);
		NNT_RUN(aclnnPrelu, t->t, w->t, ot->t);
		expect_ref(ot, "PRelu", 2, in, NULL, 0, ACL_FLOAT);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 105, 2, 3, 4), *w2 = T(ACL_FLOAT, 106, 2), *o = Z(ACL_FLOAT, 2, 3, 4);
		struct nnt *i32 = Z(ACL_INT32, 2, 3, 4);

		NNT_FAILS(INVALID, aclnnPrelu, x->t, w2->t, o->t);
		NNT_FAILS(NULLPTR, aclnnPrelu, x->t, NULL, o->t);
		NNT_FAILS(INVALID, aclnnGeluV2, x->t, 2, o->t);
		NNT_FAILS(INVALID, aclnnGeluV2, i32->t, 0, i32->t);
		NNT_FAILS(NULLPTR, aclnnLogSigmoid, NULL, o->t);
	}
}
END_TEST

/* ---- normalisations ------------------------------------------------------------- */

/* rows of @d values: mean and 1 / sqrt(var + eps) of each */
static void row_stats(const double *x, uint64_t rows, uint64_t d, double eps, double *mean, double *rstd)
{
	for (uint64_t r = 0; r < rows; r++) {
		double m = 0, v = 0;

		for (uint64_t i = 0; i < d; i++)
			m += x[r * d + i];
		m /= (double)d;
		for (uint64_t i = 0; i < d; i++)
			v += (x[r * d + i] - m) * (x[r * d + i] - m);
		mean[r] = m;
		rstd[r] = 1 / sqrt(v / (double)d + eps);
	}
}

START_TEST(layer_norm_with_and_without_weights_and_statistics)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = TT(dt, 110, 2, 3, 4), *w = T(dt, 111, 3, 4), *b = T(dt, 112, 3, 4);
		struct nnt *o = Z(dt, 2, 3, 4), *m = Z(dt, 2, 1, 1), *r = Z(dt, 2, 1, 1);
		double *xv = nnt_values(x), *wv = nnt_values(w), *bv = nnt_values(b), mean[2], rstd[2], e[24];

		row_stats(xv, 2, 12, 1e-5, mean, rstd);
		NNT_RUN(aclnnLayerNorm, x->t, IA(3, 4), w->t, b->t, 1e-5, o->t, m->t, r->t);
		for (int i = 0; i < 24; i++)
			e[i] = (xv[i] - mean[i / 12]) * rstd[i / 12] * wv[i % 12] + bv[i % 12];
		nnt_expect(o, e, 24, nnt_rtol(dt), 2 * nnt_atol(dt));
		nnt_expect(m, mean, 2, nnt_rtol(dt), nnt_atol(dt));
		nnt_expect(r, rstd, 2, nnt_rtol(dt), nnt_atol(dt));
		/* no weights, no statistics */
		NNT_RUN(aclnnLayerNorm, x->t, IA(3, 4), NULL, NULL, 1e-5, o->t, NULL, NULL);
		for (int i = 0; i < 24; i++)
			e[i] = (xv[i] - mean[i / 12]) * rstd[i / 12];
		nnt_expect(o, e, 24, nnt_rtol(dt), 2 * nnt_atol(dt));
		free(xv);
		free(wv);
		free(bv);
	}
	/* the last axis only, fp32 weights with an fp16 input, rstd without mean */
	{
		struct nnt *x = T(ACL_FLOAT16, 113, 3, 8), *w = T(ACL_FLOAT, 114, 8), *o = Z(ACL_FLOAT16, 3, 8);
		struct nnt *r = Z(ACL_FLOAT16, 3, 1);
		double *xv = nnt_values(x), *wv = nnt_values(w), mean[3], rstd[3], e[24];

		row_stats(xv, 3, 8, 1e-6, mean, rstd);
		NNT_RUN(aclnnLayerNorm, x->t, IA(8), w->t, NULL, 1e-6, o->t, NULL, r->t);
		for (int i = 0; i < 24; i++)
			e[i] = (xv[i] - mean[i / 8]) * rstd[i / 8] * wv[i % 8];
		nnt_expect(o, e, 24, 1e-2, 2e-2);
		nnt_expect(r, rstd, 3, 1e-2, 1e-2);
		free(xv);
		free(wv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 115, 2, 3, 4), *w = T(ACL_FLOAT, 116, 4), *o = Z(ACL_FLOAT, 2, 3, 4);

		NNT_FAILS(INVALID, aclnnLayerNorm, x->t, IA(3), NULL, NULL, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnLayerNorm, x->t, IA(3, 4), w->t, NULL, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnLayerNorm, x->t, IA(1, 2, 3, 4), NULL, NULL, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(NULLPTR, aclnnLayerNorm, x->t, NULL, NULL, NULL, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(NULLPTR, aclnnLayerNorm, NULL, IA(4), NULL, NULL, 1e-5, o->t, NULL, NULL);
	}
}
END_TEST

/* per-channel batch statistics of @x [n, c, hw] */
static void channel_stats(const double *x, int n, int c, int hw, double *mean, double *var)
{
	for (int j = 0; j < c; j++) {
		double m = 0, v = 0;

		for (int i = 0; i < n; i++)
			for (int q = 0; q < hw; q++)
				m += x[(i * c + j) * hw + q];
		m /= n * hw;
		for (int i = 0; i < n; i++)
			for (int q = 0; q < hw; q++)
				v += (x[(i * c + j) * hw + q] - m) * (x[(i * c + j) * hw + q] - m);
		mean[j] = m;
		var[j] = v / (n * hw);
	}
}

START_TEST(batch_norm_inference_and_training)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = T(dt, 120, 2, 3, 2, 2), *w = T(dt, 121, 3), *b = T(dt, 122, 3), *o = Z(dt, 2, 3, 2, 2);
		struct nnt *rm = T(dt, 123, 3), *rv = nnt_new(dt, 1, DIMS(3), 0.5, 2, 124);
		struct nnt *sm = Z(dt, 3), *si = Z(dt, 3);
		double *xv = nnt_values(x), *wv = nnt_values(w), *bv = nnt_values(b), *rmv = nnt_values(rm);
		double *rvv = nnt_values(rv), e[24], mean[3], var[3], inv[3], nrm[3], nrv[3];

		NNT_RUN(aclnnBatchNorm, x->t, w->t, b->t, rm->t, rv->t, false, 0.1, 1e-5, o->t, sm->t, si->t);
		for (int i = 0; i < 24; i++) {
			int c = i / 4 % 3;

			e[i] = (xv[i] - rmv[c]) / sqrt(rvv[c] + 1e-5) * wv[c] + bv[c];
		}
		nnt_expect(o, e, 24, nnt_rtol(dt), 2 * nnt_atol(dt));

		channel_stats(xv, 2, 3, 4, mean, var);
		for (int c = 0; c < 3; c++) {
			inv[c] = 1 / sqrt(var[c] + 1e-5);
			nrm[c] = 0.9 * rmv[c] + 0.1 * mean[c];
			nrv[c] = 0.9 * rvv[c] + 0.1 * var[c] * 8 / 7;
		}
		NNT_RUN(aclnnBatchNorm, x->t, w->t, b->t, rm->t, rv->t, true, 0.1, 1e-5, o->t, sm->t, si->t);
		for (int i = 0; i < 24; i++) {
			int c = i / 4 % 3;

			e[i] = (xv[i] - mean[c]) * inv[c] * wv[c] + bv[c];
		}
		nnt_expect(o, e, 24, nnt_rtol(dt), 2 * nnt_atol(dt));
		nnt_expect(sm, mean, 3, nnt_rtol(dt), nnt_atol(dt));
		nnt_expect(si, inv, 3, nnt_rtol(dt), nnt_atol(dt));
		nnt_expect(rm, nrm, 3, nnt_rtol(dt), nnt_atol(dt));
		nnt_expect(rv, nrv, 3, nnt_rtol(dt), nnt_atol(dt));
		free(xv);
		free(wv);
		free(bv);
		free(rmv);
		free(rvv);
	}
	/* training without weights or running statistics, a 2-D transposed input */
	{
		struct nnt *x = TT(ACL_FLOAT, 125, 4, 3), *o = Z(ACL_FLOAT, 4, 3);
		double *xv = nnt_values(x), mean[3], var[3], e[12];

		channel_stats(xv, 4, 3, 1, mean, var);
		NNT_RUN(aclnnBatchNorm, x->t, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, o->t, NULL, NULL);
		for (int i = 0; i < 12; i++)
			e[i] = (xv[i] - mean[i % 3]) / sqrt(var[i % 3] + 1e-5);
		nnt_expect(o, e, 12, 1e-5, 1e-5);
		free(xv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 126, 2, 3, 2), *o = Z(ACL_FLOAT, 2, 3, 2), *w4 = T(ACL_FLOAT, 127, 4);
		struct nnt *rm = Z(ACL_FLOAT, 3), *x1 = T(ACL_FLOAT, 128, 1, 3), *o1 = Z(ACL_FLOAT, 1, 3);
		struct nnt *x5 = T(ACL_FLOAT, 129, 3);

		NNT_FAILS(NULLPTR, aclnnBatchNorm, x->t, NULL, NULL, NULL, rm->t, false, 0.1, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnBatchNorm, x->t, w4->t, NULL, NULL, NULL, true, 0.1, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnBatchNorm, x1->t, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, o1->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnBatchNorm, x5->t, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, x5->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnBatchNorm, x->t, NULL, NULL, NULL, NULL, true, 0.1, -1, o->t, NULL, NULL);
	}
}
END_TEST

START_TEST(group_norm_statistics_and_affine)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		/* N 2, C 4, 3 x 2 positions, 2 groups: rows of 2 * 6 values */
		struct nnt *x = T(dt, 130, 2, 4, 3, 2), *g = T(dt, 131, 4), *b = T(dt, 132, 4);
		struct nnt *o = Z(dt, 2, 4, 3, 2), *m = Z(dt, 2, 2), *r = Z(dt, 2, 2);
		double *xv = nnt_values(x), *gv = nnt_values(g), *bv = nnt_values(b), mean[4], rstd[4], e[48];

		row_stats(xv, 4, 12, 1e-5, mean, rstd);
		NNT_RUN(aclnnGroupNorm, x->t, g->t, b->t, 2, 4, 6, 2, 1e-5, o->t, m->t, r->t);
		for (int i = 0; i < 48; i++)
			e[i] = (xv[i] - mean[i / 12]) * rstd[i / 12] * gv[i / 6 % 4] + bv[i / 6 % 4];
		nnt_expect(o, e, 48, nnt_rtol(dt), 2 * nnt_atol(dt));
		nnt_expect(m, mean, 4, nnt_rtol(dt), nnt_atol(dt));
		nnt_expect(r, rstd, 4, nnt_rtol(dt), nnt_atol(dt));
		NNT_RUN(aclnnGroupNorm, x->t, NULL, NULL, 2, 4, 6, 2, 1e-5, o->t, NULL, NULL);
		for (int i = 0; i < 48; i++)
			e[i] = (xv[i] - mean[i / 12]) * rstd[i / 12];
		nnt_expect(o, e, 48, nnt_rtol(dt), 2 * nnt_atol(dt));
		free(xv);
		free(gv);
		free(bv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 133, 2, 4, 3), *o = Z(ACL_FLOAT, 2, 4, 3);

		NNT_FAILS(INVALID, aclnnGroupNorm, x->t, NULL, NULL, 2, 4, 3, 3, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(INVALID, aclnnGroupNorm, x->t, NULL, NULL, 2, 4, 4, 2, 1e-5, o->t, NULL, NULL);
		NNT_FAILS(NULLPTR, aclnnGroupNorm, NULL, NULL, NULL, 2, 4, 3, 2, 1e-5, o->t, NULL, NULL);
	}
}
END_TEST

/* ---- pooling ------------------------------------------------------------------ */

/*
 * PyTorch's 2-D pooling of @x [planes, h, w] on the host: max (with the
 * index within the plane) or average; symmetric pads, ceil mode.
 */
struct hpool {
	int kh, kw, sh, sw, ph, pw, dh, dw;
	bool ceil, avg, count_pad;
	int divisor;
};

static int pool_out(int in, int k, int s, int p, int d, bool ceil)
{
	int ext = (k - 1) * d + 1, o = (in + 2 * p - ext + (ceil ? s - 1 : 0)) / s + 1;

	if (ceil && (o - 1) * s >= in + p)
		o--;
	return o;
}

static void host_pool(const double *x, int planes, int h, int w, const struct hpool *p, double *y, double *idx)
{
	int oh = pool_out(h, p->kh, p->sh, p->ph, p->dh, p->ceil), ow = pool_out(w, p->kw, p->sw, p->pw, p->dw, p->ceil);

	for (int c = 0; c < planes; c++)
		for (int i = 0; i < oh; i++)
			for (int j = 0; j < ow; j++) {
				int h0 = i * p->sh - p->ph, w0 = j * p->sw - p->pw, cnt = 0, best = -1;
				int hend = h0 + p->kh > h + p->ph ? h + p->ph : h0 + p->kh;
				int wend = w0 + p->kw > w + p->pw ? w + p->pw : w0 + p->kw;
				double acc = 0, mx = -INFINITY;

				for (int a = 0; a < p->kh; a++)
					for (int b = 0; b < p->kw; b++) {
						int r = h0 + a * p->dh, q = w0 + b * p->dw;

						if (r < 0 || r >= h || q < 0 || q >= w)
							continue;
						cnt++;
						acc += x[(c * h + r) * w + q];
						if (x[(c * h + r) * w + q] > mx) {
							mx = x[(c * h + r) * w + q];
							best = r * w + q;
						}
					}
				if (p->avg) {
					int div = p->divisor ? p->divisor :
						  p->count_pad ? (hend - h0) * (wend - w0) : cnt;

					y[(c * oh + i) * ow + j] = acc / div;
				} else {
					y[(c * oh + i) * ow + j] = mx;
					if (idx)
						idx[(c * oh + i) * ow + j] = best;
				}
			}
}

START_TEST(max_pool_with_indices_and_onnx_max_pool)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = T(dt, 140, 2, 3, 5, 5), *o = Z(dt, 2, 3, 3, 3), *ix = Z(ACL_INT64, 2, 3, 3, 3);
		struct hpool p = { .kh = 3, .kw = 3, .sh = 2, .sw = 2, .ph = 1, .pw = 1, .dh = 1, .dw = 1 };
		double *xv = nnt_values(x), y[54], iv[54];

		host_pool(xv, 6, 5, 5, &p, y, iv);
		NNT_RUN(aclnnMaxPool2dWithIndices, x->t, IA(3), IA(2), IA(1), IA(1), false, o->t, ix->t);
		nnt_expect(o, y, 54, 0, 0);
		nnt_expect(ix, iv, 54, 0, 0);
		free(xv);
	}
	/* 3-D input, ceil mode, stride empty (the kernel), dilation, int32 indices, a sliced input */
	{
		struct nnt *xb = T(ACL_FLOAT, 141, 2, 6, 7), *x = nnt_view(xb, 3, DIMS(2, 5, 7), DIMS(42, 7, 1), 7);
		struct nnt *o = Z(ACL_FLOAT, 2, 3, 4), *ix = Z(ACL_INT32, 2, 3, 4);
		struct hpool p = { .kh = 2, .kw = 2, .sh = 2, .sw = 2, .dh = 1, .dw = 1, .ceil = true };
		double *xv = nnt_values(x), y[24], iv[24];

		host_pool(xv, 2, 5, 7, &p, y, iv);
		NNT_RUN(aclnnMaxPool2dWithIndices, x->t, IA(2, 2), aclCreateIntArray(NULL, 0), IA(0), IA(1), true,
			o->t, ix->t);
		nnt_expect(o, y, 24, 0, 0);
		nnt_expect(ix, iv, 24, 0, 0);
		free(xv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 142, 1, 2, 6, 6), *o = Z(ACL_FLOAT, 1, 2, 3, 3), *ix = Z(ACL_INT64, 1, 2, 3, 3);
		struct hpool p = { .kh = 2, .kw = 2, .sh = 1, .sw = 1, .dh = 3, .dw = 3 };
		double *xv = nnt_values(x), y[18], iv[18];

		host_pool(xv, 2, 6, 6, &p, y, iv);
		NNT_RUN(aclnnMaxPool2dWithIndices, x->t, IA(2), IA(1), IA(0), IA(3), false, o->t, ix->t);
		nnt_expect(o, y, 18, 0, 0);
		nnt_expect(ix, iv, 18, 0, 0);
		free(xv);
	}
	/* aclnnMaxPool: asymmetric pads (top, left, bottom, right), int32 */
	{
		struct nnt *x = nnt_new(ACL_INT32, 4, DIMS(1, 2, 4, 4), -50, 50, 143), *o = Z(ACL_INT32, 1, 2, 2, 2);
		double *xv = nnt_values(x), y[8];

		/* window 3, stride 2, pad top/left 1, bottom/right 0: rows -1..1 and 1..3 */
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < 2; i++)
				for (int j = 0; j < 2; j++) {
					double m = -INFINITY;

					for (int a = 0; a < 3; a++)
						for (int b = 0; b < 3; b++) {
							int r = i * 2 - 1 + a, q = j * 2 - 1 + b;

							if (r >= 0 && r < 4 && q >= 0 && q < 4 && xv[(c * 4 + r) * 4 + q] > m)
								m = xv[(c * 4 + r) * 4 + q];
						}
					y[(c * 2 + i) * 2 + j] = m;
				}
		NNT_RUN(aclnnMaxPool, x->t, IA(3, 3), IA(2, 2), 0, IA(1, 1, 0, 0), IA(1, 1), 0, o->t);
		nnt_expect(o, y, 8, 0, 0);
		free(xv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 144, 1, 2, 5, 5), *o = Z(ACL_FLOAT, 1, 2, 3, 3), *ix = Z(ACL_INT64, 1, 2, 3, 3);
		struct nnt *bad = Z(ACL_FLOAT, 1, 2, 3, 3), *x2 = T(ACL_FLOAT, 145, 5, 5);

		NNT_FAILS(INVALID, aclnnMaxPool2dWithIndices, x->t, IA(3), IA(2), IA(2), IA(1), false, o->t, ix->t);
		NNT_FAILS(INVALID, aclnnMaxPool2dWithIndices, x->t, IA(3), IA(2), IA(1), IA(1), false, o->t, bad->t);
		NNT_FAILS(INVALID, aclnnMaxPool2dWithIndices, x2->t, IA(3), IA(2), IA(1), IA(1), false, o->t, ix->t);
		NNT_FAILS(NULLPTR, aclnnMaxPool2dWithIndices, x->t, NULL, IA(2), IA(1), IA(1), false, o->t, ix->t);
		NNT_FAILS(INVALID, aclnnMaxPool2dWithIndices, x->t, IA(0), IA(2), IA(1), IA(1), false, o->t, ix->t);
		NNT_FAILS(INVALID, aclnnMaxPool, x->t, IA(3), IA(2), 1, IA(1), IA(1), 0, o->t);
		NNT_FAILS(INVALID, aclnnMaxPool, x->t, IA(3), IA(2), 0, IA(2, 2, 2, 2), IA(1), 0, o->t);
		NNT_FAILS(INVALID, aclnnMaxPool, x->t, IA(3), IA(2), 0, IA(1), IA(1), 0, x->t);
	}
}
END_TEST

START_TEST(avg_pool_divisors_and_ceil_mode)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = T(dt, 150, 2, 2, 5, 5), *o = Z(dt, 2, 2, 3, 3);
		double *xv = nnt_values(x), y[36];
		struct hpool p = { .kh = 3, .kw = 3, .sh = 2, .sw = 2, .ph = 1, .pw = 1, .dh = 1, .dw = 1, .avg = true };

		host_pool(xv, 4, 5, 5, &p, y, NULL);
		NNT_RUN(aclnnAvgPool2d, x->t, IA(3), IA(2), IA(1), false, false, 0, 0, o->t);
		nnt_expect(o, y, 36, nnt_rtol(dt), nnt_atol(dt));
		p.count_pad = true;
		host_pool(xv, 4, 5, 5, &p, y, NULL);
		NNT_RUN(aclnnAvgPool2d, x->t, IA(3), IA(2), IA(1), false, true, 0, 1, o->t);
		nnt_expect(o, y, 36, nnt_rtol(dt), nnt_atol(dt));
		p.divisor = 4;
		host_pool(xv, 4, 5, 5, &p, y, NULL);
		NNT_RUN(aclnnAvgPool2d, x->t, IA(3), IA(2), IA(1), false, true, 4, 0, o->t);
		nnt_expect(o, y, 36, nnt_rtol(dt), nnt_atol(dt));
		free(xv);
	}
	/* ceil mode with count_include_pad on a transposed 3-D input: windows cut at the padded end */
	{
		struct nnt *x = TT(ACL_FLOAT, 151, 3, 6, 6), *o = Z(ACL_FLOAT, 3, 4, 4);
		struct hpool p = { .kh = 3, .kw = 3, .sh = 2, .sw = 2, .ph = 1, .pw = 1, .dh = 1, .dw = 1,
				   .ceil = true, .avg = true, .count_pad = true };
		double *xv = nnt_values(x), y[48];

		ck_assert_int_eq(pool_out(6, 3, 2, 1, 1, true), 4);
		host_pool(xv, 3, 6, 6, &p, y, NULL);
		NNT_RUN(aclnnAvgPool2d, x->t, IA(3, 3), IA(2, 2), IA(1, 1), true, true, 0, 0, o->t);
		nnt_expect(o, y, 48, 1e-5, 1e-6);
		free(xv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 152, 1, 2, 5, 5), *o = Z(ACL_FLOAT, 1, 2, 3, 3), *i = Z(ACL_INT32, 1, 2, 5, 5);

		NNT_FAILS(INVALID, aclnnAvgPool2d, x->t, IA(3), IA(2), IA(1), false, false, -1, 0, o->t);
		NNT_FAILS(INVALID, aclnnAvgPool2d, x->t, IA(3), IA(2), IA(2), false, false, 0, 0, o->t);
		NNT_FAILS(INVALID, aclnnAvgPool2d, x->t, IA(3), IA(2), IA(1), false, false, 0, 9, o->t);
		NNT_FAILS(INVALID, aclnnAvgPool2d, i->t, IA(3), IA(2), IA(1), false, false, 0, 0, o->t);
		NNT_FAILS(NULLPTR, aclnnAvgPool2d, x->t, IA(3), NULL, IA(1), false, false, 0, 0, o->t);
		NNT_FAILS(INVALID, aclnnAvgPool2d, x->t, IA(3), IA(2), IA(1), false, false, 0, 0, x->t);
	}
}
END_TEST

/*
 * PyTorch's 3-D pooling of @x [planes, n, n, n] on the host, the same
 * window on every axis: kernel @k, stride @s, pad @p, dilation @d (no ceil
 * mode); max with the index within the plane, or the average (the pad
 * counted when @count_pad, else the elements).
 */
static void host_pool3(const double *x, int planes, int n, int k, int s, int p, int d, bool avg, bool count_pad,
		       double *y, double *idx)
{
	int o = pool_out(n, k, s, p, d, false), at = 0;

	for (int c = 0; c < planes; c++)
		for (int i = 0; i < o; i++)
			for (int j = 0; j < o; j++)
				for (int l = 0; l < o; l++, at++) {
					int c0[3] = { i * s - p, j * s - p, l * s - p }, cnt = 0, best = -1, full = 1;
					double acc = 0, mx = -INFINITY;

					for (int a = 0; a < 3; a++) {
						int end = c0[a] + k > n + p ? n + p : c0[a] + k;

						full *= end - c0[a];
					}
					for (int a = 0; a < k; a++)
						for (int b = 0; b < k; b++)
							for (int e = 0; e < k; e++) {
								int r = c0[0] + a * d, q = c0[1] + b * d, t = c0[2] + e * d, f;

								if (r < 0 || r >= n || q < 0 || q >= n || t < 0 || t >= n)
									continue;
								f = (r * n + q) * n + t;
								cnt++;
								acc += x[c * n * n * n + f];
								if (x[c * n * n * n + f] > mx) {
									mx = x[c * n * n * n + f];
									best = f;
								}
							}
					y[at] = avg ? acc / (count_pad ? full : cnt) : mx;
					if (idx)
						idx[at] = best;
				}
}

/* aclnnMaxPool3dWithArgmax and aclnnAvgPool3d on every float type, a
 * 4-D input (no N) that is a slice of a larger storage, padding and
 * dilation, int32 indices, and the refusals. */
START_TEST(pools_3d)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = T(dt, 170 + k, 1, 2, 5, 5, 5), *o = Z(dt, 1, 2, 2, 2, 2), *ix = Z(ACL_INT64, 1, 2, 2, 2, 2);
		struct nnt *oa = Z(dt, 1, 2, 3, 3, 3);
		double *xv = nnt_values(x), y[54], iv[16];

		host_pool3(xv, 2, 5, 3, 2, 0, 1, false, false, y, iv);
		NNT_RUN(aclnnMaxPool3dWithArgmax, x->t, IA(3), IA(2), IA(0), NULL, false, o->t, ix->t);
		nnt_expect(o, y, 16, 0, 0);
		nnt_expect(ix, iv, 16, 0, 0);
		/* kernel 3, stride 2, pad 1: 3 per axis; the pad in the divisor or not */
		host_pool3(xv, 2, 5, 3, 2, 1, 1, true, false, y, NULL);
		NNT_RUN(aclnnAvgPool3d, x->t, IA(3, 3, 3), IA(2, 2, 2), IA(1, 1, 1), false, false, 0, oa->t);
		nnt_expect(oa, y, 54, nnt_rtol(dt), nnt_atol(dt));
		host_pool3(xv, 2, 5, 3, 2, 1, 1, true, true, y, NULL);
		NNT_RUN(aclnnAvgPool3d, x->t, IA(3), IA(2), IA(1), false, true, 0, oa->t);
		nnt_expect(oa, y, 54, nnt_rtol(dt), nnt_atol(dt));
		free(xv);
	}
	{
		/* [C, D, H, W] = [2, 4, 4, 4] viewed from [2, 5, 4, 4] at depth 1; dilation 2, pad 1 */
		struct nnt *xb = T(ACL_FLOAT, 175, 2, 5, 4, 4);
		struct nnt *x = nnt_view(xb, 4, DIMS(2, 4, 4, 4), DIMS(80, 16, 4, 1), 16);
		struct nnt *o = Z(ACL_FLOAT, 2, 2, 2, 2), *ix = Z(ACL_INT32, 2, 2, 2, 2);
		struct nnt *oa = Z(ACL_FLOAT, 2, 2, 2, 2);
		double *xv = nnt_values(x), y[16], iv[16];

		host_pool3(xv, 2, 4, 2, 2, 1, 2, false, false, y, iv);
		NNT_RUN(aclnnMaxPool3dWithArgmax, x->t, IA(2), aclCreateIntArray(NULL, 0), IA(1), IA(2), false, o->t,
			ix->t);
		nnt_expect(o, y, 16, 0, 0);
		nnt_expect(ix, iv, 16, 0, 0);
		host_pool3(xv, 2, 4, 2, 2, 0, 1, true, false, y, NULL);
		NNT_RUN(aclnnAvgPool3d, x->t, IA(2), aclCreateIntArray(NULL, 0), IA(0), false, false, 0, oa->t);
		nnt_expect(oa, y, 16, 1e-5, 1e-6);
		/* divisorOverride: the window's sum over 4 */
		for (int i = 0; i < 16; i++)
			y[i] *= 8.0 / 4.0;
		NNT_RUN(aclnnAvgPool3d, x->t, IA(2), IA(2), IA(0), false, false, 4, oa->t);
		nnt_expect(oa, y, 16, 1e-5, 1e-6);
		free(xv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 176, 1, 2, 4, 4, 4), *o = Z(ACL_FLOAT, 1, 2, 2, 2, 2);
		struct nnt *ix = Z(ACL_INT64, 1, 2, 2, 2, 2), *bad = Z(ACL_FLOAT, 1, 2, 2, 2, 2);
		struct nnt *x2 = T(ACL_FLOAT, 177, 4, 4, 4), *i = Z(ACL_INT32, 1, 2, 4, 4, 4);

		NNT_FAILS(INVALID, aclnnMaxPool3dWithArgmax, x->t, IA(2), IA(2), IA(0), NULL, false, o->t, bad->t);
		NNT_FAILS(INVALID, aclnnMaxPool3dWithArgmax, x2->t, IA(2), IA(2), IA(0), NULL, false, o->t, ix->t);
		NNT_FAILS(INVALID, aclnnMaxPool3dWithArgmax, x->t, IA(2, 2), IA(2), IA(0), NULL, false, o->t, ix->t);
		NNT_FAILS(INVALID, aclnnMaxPool3dWithArgmax, x->t, IA(2), IA(2), IA(2), NULL, false, o->t, ix->t);
		NNT_FAILS(NULLPTR, aclnnMaxPool3dWithArgmax, x->t, NULL, IA(2), IA(0), NULL, false, o->t, ix->t);
		NNT_FAILS(NULLPTR, aclnnMaxPool3dWithArgmax, x->t, IA(2), IA(2), IA(0), NULL, false, o->t, NULL);
		NNT_FAILS(INVALID, aclnnAvgPool3d, x->t, IA(2), IA(2), IA(0), false, false, -1, o->t);
		NNT_FAILS(INVALID, aclnnAvgPool3d, i->t, IA(2), IA(2), IA(0), false, false, 0, o->t);
		NNT_FAILS(INVALID, aclnnAvgPool3d, x->t, IA(2), IA(2), IA(0), false, false, 0, x->t);
		NNT_FAILS(NULLPTR, aclnnAvgPool3d, x->t, IA(2), IA(2), NULL, false, false, 0, o->t);
		NNT_FAILS(NULLPTR, aclnnAvgPool3d, x->t, IA(2), NULL, IA(0), false, false, 0, o->t);
	}
}
END_TEST

/* ---- the lib/ops operators of helper nnops: RmsNorm, adaptive pools ------------------ */

START_TEST(rms_norm_against_the_formula)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *x = TT(dt, 160, 3, 8), *g = T(dt, 161, 8), *y = Z(dt, 3, 8), *r = Z(ACL_FLOAT, 3, 1);
		double *xv = nnt_values(x), *gv = nnt_values(g), rs[3], e[24];

		for (int i = 0; i < 3; i++) {
			double s = 0;

			for (int j = 0; j < 8; j++)
				s += xv[i * 8 + j] * xv[i * 8 + j];
			rs[i] = 1 / sqrt(s / 8 + 1e-6);
		}
		for (int i = 0; i < 24; i++)
			e[i] = xv[i] * rs[i / 8] * gv[i % 8];
		NNT_RUN(aclnnRmsNorm, x->t, g->t, 1e-6, y->t, r->t);
		nnt_expect(y, e, 24, nnt_rtol(dt), 2 * nnt_atol(dt));
		nnt_expect(r, rs, 3, 1e-5, 1e-5);
		free(xv);
		free(gv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 162, 3, 8), *g = T(ACL_FLOAT, 163, 4), *y = Z(ACL_FLOAT, 3, 8);
		struct nnt *r = Z(ACL_FLOAT, 3, 1);

		NNT_FAILS(INVALID, aclnnRmsNorm, x->t, g->t, 1e-6, y->t, r->t);
		NNT_FAILS(NULLPTR, aclnnRmsNorm, x->t, NULL, 1e-6, y->t, r->t);
	}
}
END_TEST

START_TEST(adaptive_pools_against_the_bins)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		/* 5 x 7 into 3 x 4: uneven, overlapping bins */
		struct nnt *x = T(dt, 170, 2, 2, 5, 7), *oa = Z(dt, 2, 2, 3, 4), *om = Z(dt, 2, 2, 3, 4);
		struct nnt *ix = Z(ACL_INT64, 2, 2, 3, 4);
		double *xv = nnt_values(x), ea[48], em[48], ei[48];

		for (int c = 0; c < 4; c++)
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 4; j++) {
					int h0 = i * 5 / 3, h1 = ((i + 1) * 5 + 2) / 3, w0 = j * 7 / 4, w1 = ((j + 1) * 7 + 3) / 4;
					double s = 0, m = -INFINITY;
					int best = 0, q = (c * 3 + i) * 4 + j;

					for (int r = h0; r < h1; r++)
						for (int t = w0; t < w1; t++) {
							double v = xv[(c * 5 + r) * 7 + t];

							s += v;
							if (v > m) {
								m = v;
								best = r * 7 + t;
							}
						}
					ea[q] = s / ((h1 - h0) * (w1 - w0));
					em[q] = m;
					ei[q] = best;
				}
		NNT_RUN(aclnnAdaptiveAvgPool2d, x->t, IA(3, 4), oa->t);
		nnt_expect(oa, ea, 48, nnt_rtol(dt), nnt_atol(dt));
		NNT_RUN(aclnnAdaptiveMaxPool2d, x->t, IA(3, 4), om->t, ix->t);
		nnt_expect(om, em, 48, 0, 0);
		nnt_expect(ix, ei, 48, 0, 0);
		free(xv);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 171, 2, 5, 7), *o = Z(ACL_FLOAT, 2, 3, 4);

		NNT_FAILS(INVALID, aclnnAdaptiveAvgPool2d, x->t, IA(0, 4), o->t);
		NNT_FAILS(INVALID, aclnnAdaptiveAvgPool2d, x->t, IA(3, 3), o->t);
		NNT_FAILS(NULLPTR, aclnnAdaptiveAvgPool2d, x->t, NULL, o->t);
	}
}
END_TEST

/* ---- batch 2: Mv, Dot, Addbmm, Einsum, InstanceNorm, the upsamples ----------------- */

START_TEST(mv_and_dot_against_the_products)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		/* a transposed matrix, a strided vector (every other element) */
		struct nnt *a = TT(dt, 180, 3, 4), *vb = T(dt, 181, 8), *v = nnt_view(vb, 1, DIMS(4), DIMS(2), 1);
		struct nnt *o = Z(dt, 3), *in[] = { a, v };
		struct nnt *p = T(dt, 182, 5), *q = T(dt, 183, 5), *d = nnt_zeros(dt, 0, NULL), *in2[] = { p, q };

		NNT_RUN(aclnnMv, a->t, v->t, o->t, 1);
		expect_ref(o, "BatchMatMulV2", 2, in, NULL, 0, dt);
		NNT_RUN(aclnnDot, p->t, q->t, d->t);
		expect_ref(d, "BatchMatMulV2", 2, in2, NULL, 0, dt);
	}
	{
		struct nnt *a = T(ACL_FLOAT, 184, 3, 4), *v = T(ACL_FLOAT, 185, 5), *o = Z(ACL_FLOAT, 3);
		struct nnt *h = T(ACL_FLOAT16, 186, 5), *d = nnt_zeros(ACL_FLOAT, 0, NULL);

		NNT_FAILS(INVALID, aclnnMv, a->t, v->t, o->t, 0);
		NNT_FAILS(INVALID, aclnnMv, a->t, a->t, o->t, 0);
		NNT_FAILS(NULLPTR, aclnnMv, a->t, NULL, o->t, 0);
		NNT_FAILS(INVALID, aclnnDot, v->t, h->t, d->t);
		NNT_FAILS(INVALID, aclnnDot, v->t, o->t, d->t);
		NNT_FAILS(NULLPTR, aclnnDot, NULL, v->t, d->t);
	}
}
END_TEST

START_TEST(addbmm_sums_the_batch_and_in_place)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		/* self [1, 5] broadcast to [3, 5]; batch1 transposed (not dense as [n, b, m]) */
		struct nnt *s = T(dt, 190, 1, 5), *a = TT(dt, 191, 2, 3, 4), *b = T(dt, 192, 2, 4, 5);
		struct nnt *o = Z(dt, 3, 5), *in[] = { a, b };
		uint64_t n;
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n), *sv = nnt_values(s), e[15];

		for (int i = 0; i < 15; i++)
			e[i] = -1.0 * sv[i % 5] + 0.5 * (p[i] + p[15 + i]);
		NNT_RUN(aclnnAddbmm, s->t, a->t, b->t, S(-1), S(0.5), o->t, 0);
		nnt_expect(o, e, 15, nnt_rtol(dt), 2 * nnt_atol(dt));
		free(p);
		free(sv);
	}
	{
		struct nnt *s = T(ACL_FLOAT, 193, 3, 5), *a = T(ACL_FLOAT, 194, 4, 3, 2), *b = TT(ACL_FLOAT, 195, 4, 2, 5);
		struct nnt *in[] = { a, b }, *bad = T(ACL_FLOAT, 196, 3, 2, 5);
		uint64_t n;
		double *p = ref64("BatchMatMulV2", 2, in, NULL, 0, 0, &n), *sv = nnt_values(s), e[15];

		for (int i = 0; i < 15; i++)
			e[i] = sv[i] + p[i] + p[15 + i] + p[30 + i] + p[45 + i];
		NNT_RUN(aclnnInplaceAddbmm, s->t, a->t, b->t, S(1), S(1), 0);
		nnt_expect(s, e, 15, 1e-5, 1e-5);
		NNT_FAILS(INVALID, aclnnInplaceAddbmm, s->t, a->t, bad->t, S(1), S(1), 0);
		NNT_FAILS(NULLPTR, aclnnInplaceAddbmm, s->t, a->t, b->t, NULL, S(1), 0);
		free(p);
		free(sv);
	}
}
END_TEST

START_TEST(einsum_equations_views_and_types)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32 };

	for (unsigned int k = 0; k < COUNT(dts); k++) {
		aclDataType dt = dts[k];
		struct nnt *a = TT(dt, 200, 3, 4), *b = T(dt, 201, 4, 5), *o = Z(dt, 3, 5), *in[] = { a, b };
		struct nnt *x = T(dt, 202, 2, 3, 4), *y = TT(dt, 203, 2, 4, 3), *z = Z(dt, 2, 3), *in2[] = { x, y };
		const aclTensor *l1[] = { a->t, b->t }, *l2[] = { x->t, y->t };
		struct vops_attr at1[] = { A_STR("equation", "ij,jk->ik"), A_INT("N", 2) };
		struct vops_attr at2[] = { A_STR("equation", "bij,bji->bi"), A_INT("N", 2) };

		NNT_RUN(aclnnEinsum, aclCreateTensorList(l1, 2), "ij,jk->ik", o->t);
		expect_ref(o, "Einsum", 2, in, at1, COUNT(at1), dt);
		NNT_RUN(aclnnEinsum, aclCreateTensorList(l2, 2), "bij,bji->bi", z->t);
		expect_ref(z, "Einsum", 2, in2, at2, COUNT(at2), dt);
	}
	{
		/* a list owns its elements, each once: the same tensor twice is refused by aclCreateTensorList */
		struct nnt *a = T(ACL_FLOAT, 204, 3, 4), *b = T(ACL_FLOAT16, 205, 4, 5), *o = Z(ACL_FLOAT, 3, 5);
		struct nnt *c = T(ACL_FLOAT, 206, 3, 4);
		const aclTensor *l[] = { a->t, b->t }, *l2[] = { a->t, c->t };

		NNT_FAILS(INVALID, aclnnEinsum, aclCreateTensorList(l, 2), "ij,jk->ik", o->t);
		NNT_FAILS(INVALID, aclnnEinsum, aclCreateTensorList(l2, 2), "ij,jk->ik", o->t);
		NNT_FAILS(NULLPTR, aclnnEinsum, aclCreateTensorList(l2, 2), NULL, o->t);
	}
}
END_TEST

START_TEST(instance_norm_nchw_nhwc_against_the_formula)
{
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		/* NCHW [2, 3, 2, 3], sliced out of a wider tensor */
		struct nnt *base = T(dt, 210, 2, 3, 2, 4), *xv = nnt_view(base, 4, DIMS(2, 3, 2, 3), DIMS(24, 8, 4, 1), 1);
		struct nnt *g = T(dt, 211, 3), *b = T(ACL_FLOAT, 212, 3), *y = Z(dt, 2, 3, 2, 3);
		struct nnt *m = Z(dt, 2, 3, 1, 1), *v = Z(dt, 2, 3, 1, 1);
		double *xs = nnt_values(xv), *gs = nnt_values(g), *bs = nnt_values(b), e[36], em[6], ev[6];

		for (int q = 0; q < 6; q++) {
			double s = 0, s2 = 0;

			for (int i = 0; i < 6; i++)
				s += xs[q * 6 + i];
			em[q] = s / 6;
			for (int i = 0; i < 6; i++)
				s2 += (xs[q * 6 + i] - em[q]) * (xs[q * 6 + i] - em[q]);
			ev[q] = s2 / 6;
			for (int i = 0; i < 6; i++)
				e[q * 6 + i] = (xs[q * 6 + i] - em[q]) / sqrt(ev[q] + 1e-5) * gs[q % 3] + bs[q % 3];
		}
		NNT_RUN(aclnnInstanceNorm, xv->t, g->t, b->t, "NCHW", 1e-5, y->t, m->t, v->t);
		nnt_expect(y, e, 36, nnt_rtol(dt), 4 * nnt_atol(dt));
		nnt_expect(m, em, 6, nnt_rtol(dt), nnt_atol(dt));
		nnt_expect(v, ev, 6, nnt_rtol(dt), nnt_atol(dt));
		free(xs);
		free(gs);
		free(bs);
	}
	{
		/* NHWC [1, 2, 2, 3]: channel last */
		struct nnt *x = T(ACL_FLOAT, 213, 1, 2, 2, 3), *g = T(ACL_FLOAT, 214, 3), *b = T(ACL_FLOAT, 215, 3);
		struct nnt *y = Z(ACL_FLOAT, 1, 2, 2, 3), *m = Z(ACL_FLOAT, 1, 1, 1, 3), *v = Z(ACL_FLOAT, 1, 1, 1, 3);
		double *xs = nnt_values(x), *gs = nnt_values(g), *bs = nnt_values(b), e[12], em[3], ev[3];

		for (int c = 0; c < 3; c++) {
			double s = 0, s2 = 0;

			for (int i = 0; i < 4; i++)
				s += xs[i * 3 + c];
			em[c] = s / 4;
			for (int i = 0; i < 4; i++)
				s2 += (xs[i * 3 + c] - em[c]) * (xs[i * 3 + c] - em[c]);
			ev[c] = s2 / 4;
			for (int i = 0; i < 4; i++)
				e[i * 3 + c] = (xs[i * 3 + c] - em[c]) / sqrt(ev[c] + 1e-6) * gs[c] + bs[c];
		}
		NNT_RUN(aclnnInstanceNorm, x->t, g->t, b->t, "NHWC", 1e-6, y->t, m->t, v->t);
		nnt_expect(y, e, 12, 1e-5, 1e-5);
		nnt_expect(m, em, 3, 1e-6, 1e-6);
		nnt_expect(v, ev, 3, 1e-6, 1e-6);
		NNT_FAILS(INVALID, aclnnInstanceNorm, x->t, g->t, b->t, "NCHW", 1e-6, y->t, m->t, v->t);
		NNT_FAILS(INVALID, aclnnInstanceNorm, x->t, g->t, b->t, "NHWC", 1e-6, y->t, y->t, v->t);
		NNT_FAILS(NULLPTR, aclnnInstanceNorm, x->t, g->t, b->t, NULL, 1e-6, y->t, m->t, v->t);
		NNT_FAILS(NULLPTR, aclnnInstanceNorm, x->t, g->t, b->t, "NHWC", 1e-6, y->t, NULL, v->t);
		free(xs);
		free(gs);
		free(bs);
	}
}
END_TEST

/* PyTorch's bilinear source coordinate of output @o (of @on) over @in inputs. */
static double bl_src(int o, int on, int in, bool align, double scale)
{
	double s;

	if (align)
		return on > 1 ? (double)o * (in - 1) / (on - 1) : 0;
	s = ((double)o + 0.5) / (scale > 0 ? scale : (double)on / in) - 0.5;
	return s < 0 ? 0 : s;
}

static void host_bilinear(const double *x, int planes, int h, int w, int oh, int ow, bool align, double sh,
			  double sw, double *y)
{
	for (int p = 0; p < planes; p++)
		for (int i = 0; i < oh; i++)
			for (int j = 0; j < ow; j++) {
				double fy = bl_src(i, oh, h, align, sh), fx = bl_src(j, ow, w, align, sw);
				int y0 = (int)fy, x0 = (int)fx, y1 = y0 + 1 < h ? y0 + 1 : h - 1;
				int x1 = x0 + 1 < w ? x0 + 1 : w - 1;
				double ly = fy - y0, lx = fx - x0;
				const double *q = x + p * h * w;

				y[(p * oh + i) * ow + j] = (1 - ly) * ((1 - lx) * q[y0 * w + x0] + lx * q[y0 * w + x1]) +
							   ly * ((1 - lx) * q[y1 * w + x0] + lx * q[y1 * w + x1]);
			}
}

START_TEST(upsample_nearest_and_bilinear_against_pytorch)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_UINT8 };

	for (unsigned int k = 0; k < COUNT(dts); k++) {
		aclDataType dt = dts[k];
		/* [1, 2, 3, 4] transposed storage, to 5 x 7 */
		struct nnt *x = nnt_new_transposed(dt, 4, DIMS(1, 2, 3, 4), 0, 100, 220), *o = Z(dt, 1, 2, 5, 7);
		double *xs = nnt_values(x), e[70];

		for (int p = 0; p < 2; p++)
			for (int i = 0; i < 5; i++)
				for (int j = 0; j < 7; j++)
					e[(p * 5 + i) * 7 + j] = xs[(p * 3 + i * 3 / 5) * 4 + j * 4 / 7];
		NNT_RUN(aclnnUpsampleNearest2d, x->t, IA(5, 7), o->t);
		nnt_expect(o, e, 70, 0, 0);
		free(xs);
	}
	for (unsigned int k = 0; k < NFLOATS; k++) {
		aclDataType dt = floats[k];
		struct nnt *base = T(dt, 221, 2, 2, 3, 5), *x = nnt_view(base, 4, DIMS(2, 2, 3, 4), DIMS(30, 15, 5, 1), 1);
		double *xs = nnt_values(x), e[2 * 2 * 7 * 6];

		for (int al = 0; al < 2; al++) {
			struct nnt *o = Z(dt, 2, 2, 7, 6);

			host_bilinear(xs, 4, 3, 4, 7, 6, al, 0, 0, e);
			NNT_RUN(aclnnUpsampleBilinear2d, x->t, IA(7, 6), al, 0.0, 0.0, o->t);
			nnt_expect(o, e, 168, nnt_rtol(dt), 2 * nnt_atol(dt));
		}
		{
			/* the scales the coordinates use when given: 2.5 and 1.5 */
			struct nnt *o = Z(dt, 2, 2, 7, 6);

			host_bilinear(xs, 4, 3, 4, 7, 6, false, 2.5, 1.5, e);
			NNT_RUN(aclnnUpsampleBilinear2d, x->t, IA(7, 6), false, 2.5, 1.5, o->t);
			nnt_expect(o, e, 168, nnt_rtol(dt), 2 * nnt_atol(dt));
		}
		free(xs);
	}
	{
		struct nnt *x = T(ACL_FLOAT, 222, 1, 2, 3, 4), *o = Z(ACL_FLOAT, 1, 2, 5, 7), *i = T(ACL_INT32, 223, 1, 2, 3, 4);
		struct nnt *oi = Z(ACL_INT32, 1, 2, 5, 7);

		NNT_FAILS(INVALID, aclnnUpsampleNearest2d, x->t, IA(5, 7, 1), o->t);
		NNT_FAILS(INVALID, aclnnUpsampleNearest2d, x->t, IA(5, 6), o->t);
		NNT_FAILS(NULLPTR, aclnnUpsampleNearest2d, x->t, NULL, o->t);
		NNT_FAILS(INVALID, aclnnUpsampleBilinear2d, i->t, IA(5, 7), false, 0.0, 0.0, oi->t);
		NNT_FAILS(INVALID, aclnnUpsampleBilinear2d, x->t, IA(0, 7), false, 0.0, 0.0, o->t);
	}
}
END_TEST

static Suite *net_suite(void)
{
	Suite *s = suite_create("aclnn_net");
	TCase *mm = acl_tcase("matmul", true, 60), *cv = acl_tcase("conv", true, 60);
	TCase *act = acl_tcase("activations", true, 60), *nm = acl_tcase("norm", true, 60);
	TCase *pl = acl_tcase("pool", true, 60);

	tcase_add_test(mm, matmul_shapes_broadcast_and_one_dimensional_operands);
	tcase_add_test(mm, matmul_views_and_mixed_types);
	tcase_add_test(mm, mm_and_bmm_into_views);
	tcase_add_test(mm, matrix_products_refuse_bad_arguments);
	tcase_add_test(mm, addmm_beta_alpha_broadcast_and_in_place);
	tcase_add_test(mm, baddbmm_and_in_place);
	tcase_add_test(mm, mv_and_dot_against_the_products);
	tcase_add_test(mm, addbmm_sums_the_batch_and_in_place);
	tcase_add_test(mm, einsum_equations_views_and_types);
	tcase_add_test(cv, convolution_2d_groups_strides_bias_and_types);
	tcase_add_test(cv, convolution_1d_3d_and_transposed);
	tcase_add_test(cv, convolution_refuses_bad_arguments);
	tcase_add_test(act, softmax_and_log_softmax_over_any_dim);
	tcase_add_test(act, prelu_gelu_v2_and_log_sigmoid);
	tcase_add_test(nm, layer_norm_with_and_without_weights_and_statistics);
	tcase_add_test(nm, batch_norm_inference_and_training);
	tcase_add_test(nm, group_norm_statistics_and_affine);
	tcase_add_test(nm, rms_norm_against_the_formula);
	tcase_add_test(nm, instance_norm_nchw_nhwc_against_the_formula);
	tcase_add_test(pl, max_pool_with_indices_and_onnx_max_pool);
	tcase_add_test(pl, avg_pool_divisors_and_ceil_mode);
	tcase_add_test(pl, pools_3d);
	tcase_add_test(pl, adaptive_pools_against_the_bins);
	tcase_add_test(pl, upsample_nearest_and_bilinear_against_pytorch);
	suite_add_tcase(s, mm);
	suite_add_tcase(s, cv);
	suite_add_tcase(s, act);
	suite_add_tcase(s, nm);
	suite_add_tcase(s, pl);
	return s;
}

int main(void)
{
	return acl_test_run(net_suite());
}
