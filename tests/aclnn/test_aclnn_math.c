// SPDX-License-Identifier: MIT
/*
 * test_aclnn_math.c - the element-wise aclnn functions (lib/aclnn/ops/
 * nn_math_*.c): results against host formulas in double over the inputs'
 * values (nnt_values), for contiguous, transposed, sliced, broadcast
 * (stride 0) and aliased views, the float types, integers and bool, the
 * promotion rules, and the refusals with their exact codes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_zero.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_trunc.h"
#include "nnt.h"

#define INV ACLNN_ERR_PARAM_INVALID
#define NUL ACLNN_ERR_PARAM_NULLPTR
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const int64_t D234[] = { 2, 3, 4 };
static const int64_t D34[] = { 3, 4 };

/* ---- host references ---------------------------------------------------------- */

/* @t's values broadcast (numpy) to @nd dims @od, dense row-major. */
static double *bvals(const struct nnt *t, int nd, const int64_t *od)
{
	double *v = nnt_values(t), *r;
	uint64_t n = 1;
	int d;

	for (d = 0; d < nd; d++)
		n *= (uint64_t)od[d];
	r = malloc(n * sizeof(*r));
	ck_assert_ptr_nonnull(r);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t rem = i, src = 0, mul = 1;

		for (d = nd - 1; d >= 0; d--) {
			int td = d - (nd - t->ndim);
			uint64_t k = rem % (uint64_t)od[d];

			rem /= (uint64_t)od[d];
			if (td < 0)
				continue;
			if (t->dims[td] != 1)
				src += k * mul;
			mul *= (uint64_t)t->dims[td];
		}
		r[i] = v[src];
	}
	free(v);
	return r;
}

typedef double (*fn2)(double a, double b, double p);

/* f(a_i, b_i, p) over @nd dims @od (a and b broadcast). */
static double *ref2(const struct nnt *a, const struct nnt *b, int nd, const int64_t *od, fn2 f, double p)
{
	double *va = bvals(a, nd, od), *vb = bvals(b, nd, od);
	uint64_t n = 1;

	for (int d = 0; d < nd; d++)
		n *= (uint64_t)od[d];
	for (uint64_t i = 0; i < n; i++)
		va[i] = f(va[i], vb[i], p);
	free(vb);
	return va;
}

/* f(a_i, s, p) for a host scalar s. */
static double *ref2s(const struct nnt *a, double s, fn2 f, double p)
{
	double *va = nnt_values(a);

	for (uint64_t i = 0; i < nnt_count(a); i++)
		va[i] = f(va[i], s, p);
	return va;
}

static double f_add(double a, double b, double p) { return a + p * b; }
static double f_sub(double a, double b, double p) { return a - p * b; }
static double f_rsub(double a, double b, double p) { return b - p * a; }
static double f_mul(double a, double b, double p) { (void)p; return a * b; }
static double f_div(double a, double b, double p) { (void)p; return a / b; }
static double f_trunc(double a, double b, double p) { (void)p; return trunc(a / b); }
static double f_floor(double a, double b, double p) { (void)p; return floor(a / b); }
static double f_pow(double a, double b, double p) { (void)p; return pow(a, b); }
static double f_rpow(double a, double b, double p) { (void)p; return pow(b, a); }
static double f_max(double a, double b, double p) { (void)p; return a > b ? a : b; }
static double f_min(double a, double b, double p) { (void)p; return a < b ? a : b; }
static double f_or(double a, double b, double p) { (void)p; return (a != 0) || (b != 0); }
static double f_and(double a, double b, double p) { (void)p; return (a != 0) && (b != 0); }
static double f_xor(double a, double b, double p) { (void)p; return (a != 0) != (b != 0); }

/* Python's remainder: the divisor's sign. */
static double f_rem(double a, double b, double p)
{
	double r = fmod(a, b);

	(void)p;
	return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

static double f_rrem(double a, double b, double p) { return f_rem(b, a, p); }

enum cmp { EQ, NE, GT, GE, LT, LE };

static double f_cmp(double a, double b, double p)
{
	switch ((enum cmp)p) {
	case EQ: return a == b;
	case NE: return a != b;
	case GT: return a > b;
	case GE: return a >= b;
	case LT: return a < b;
	default: return a <= b;
	}
}

static void expect_tol(struct nnt *out, double *e, uint64_t n, aclDataType compute)
{
	nnt_expect(out, e, n, nnt_rtol(compute), nnt_atol(compute));
	free(e);
}

static aclScalar *fsc(double v) { return nnt_scalar(ACL_FLOAT, v); }
static aclScalar *isc(double v) { return nnt_scalar(ACL_INT64, v); }

/* ---- arithmetic ----------------------------------------------------------------- */

START_TEST(add_every_type_with_alpha)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT8 };

	for (unsigned int i = 0; i < COUNT(dts); i++) {
		aclDataType dt = dts[i];
		bool fl = dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
		struct nnt *a = nnt_new(dt, 3, D234, -10, 10, 1 + i), *b = nnt_new(dt, 3, D234, -10, 10, 50 + i);
		struct nnt *o = nnt_zeros(dt, 3, D234);
		aclScalar *one = fl ? fsc(1) : isc(1), *two = fl ? fsc(2.5) : isc(2);

		NNT_RUN(aclnnAdd, a->t, b->t, one, o->t);
		expect_tol(o, ref2(a, b, 3, D234, f_add, 1), 24, dt);
		NNT_RUN(aclnnAdd, a->t, b->t, two, o->t);
		expect_tol(o, ref2(a, b, 3, D234, f_add, fl ? 2.5 : 2), 24, dt);
		NNT_RUN(aclnnAdds, a->t, two, two, o->t);
		expect_tol(o, ref2s(a, fl ? 2.5 : 2, f_add, fl ? 2.5 : 2), 24, dt);
		aclDestroyScalar(one);
		aclDestroyScalar(two);
		nnt_free(o);
		nnt_free(b);
		nnt_free(a);
	}
}
END_TEST

/* Transposed self, a row broadcast by stride 0, an out that is a slice of
 * a larger storage whose other elements stay. */
START_TEST(add_views_broadcast_and_sliced_out)
{
	static const int64_t d4[] = { 4 }, d54[] = { 5, 4 }, bst[] = { 0, 1 }, ost[] = { 4, 1 };
	struct nnt *a = nnt_new_transposed(ACL_FLOAT, 2, D34, -5, 5, 3);
	struct nnt *row = nnt_new(ACL_FLOAT, 1, d4, -5, 5, 4);
	struct nnt *b = nnt_view(row, 2, D34, bst, 0);
	struct nnt *obase = nnt_new(ACL_FLOAT, 2, d54, 100, 200, 5);
	struct nnt *o = nnt_view(obase, 2, D34, ost, 4);
	aclScalar *alpha = fsc(-1.5);
	void *before = nnt_snapshot(obase);

	NNT_RUN(aclnnAdd, a->t, b->t, alpha, o->t);
	expect_tol(o, ref2(a, b, 2, D34, f_add, -1.5), 12, ACL_FLOAT);
	nnt_expect_untouched(obase, before);
	/* The same with the row as a rank-1 operand: numpy broadcasting. */
	NNT_RUN(aclnnAdd, a->t, row->t, alpha, o->t);
	expect_tol(o, ref2(a, row, 2, D34, f_add, -1.5), 12, ACL_FLOAT);
	free(before);
	aclDestroyScalar(alpha);
	nnt_free(o);
	nnt_free(obase);
	nnt_free(b);
	nnt_free(row);
	nnt_free(a);
}
END_TEST

START_TEST(add_promotion_and_out_types)
{
	struct nnt *h = nnt_new(ACL_FLOAT16, 2, D34, -4, 4, 6), *f = nnt_new(ACL_FLOAT, 2, D34, -4, 4, 7);
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -20, 20, 8);
	struct nnt *of = nnt_zeros(ACL_FLOAT, 2, D34), *oi = nnt_zeros(ACL_INT32, 2, D34);
	struct nnt *oh = nnt_zeros(ACL_FLOAT16, 2, D34), *od = nnt_zeros(ACL_DOUBLE, 2, D34);
	static const double tv[] = { 0, 1, 0, 1 }, uv[] = { 0, 0, 1, 1 };
	static const int64_t d4[] = { 4 };
	struct nnt *t = nnt_from(ACL_BOOL, 1, d4, tv), *u = nnt_from(ACL_BOOL, 1, d4, uv);
	struct nnt *ob = nnt_zeros(ACL_BOOL, 1, d4), *ob32 = nnt_zeros(ACL_INT32, 1, d4);
	aclScalar *one = isc(1), *half = fsc(0.5), *fone = fsc(1), *bone = nnt_scalar(ACL_BOOL, 1);

	/* fp16 + fp32 computes in fp32. */
	NNT_RUN(aclnnAdd, h->t, f->t, one, of->t);
	expect_tol(of, ref2(h, f, 2, D34, f_add, 1), 12, ACL_FLOAT);
	/* int32 + 0.5 is float; into an int32 out it cannot go. */
	NNT_RUN(aclnnAdds, i->t, half, one, of->t);
	expect_tol(of, ref2s(i, 0.5, f_add, 1), 12, ACL_FLOAT);
	NNT_FAILS(INV, aclnnAdds, i->t, half, one, oi->t);
	/* int32 + int32 into an fp64 out: the out's type differs. */
	NNT_RUN(aclnnAdd, i->t, i->t, one, od->t);
	expect_tol(od, ref2(i, i, 2, D34, f_add, 1), 12, ACL_INT32);
	/* fp32 result into an fp16 out (narrowing float is allowed). */
	NNT_RUN(aclnnAdd, f->t, f->t, fone, oh->t);
	expect_tol(oh, ref2(f, f, 2, D34, f_add, 1), 12, ACL_FLOAT16);
	/* A float alpha with integers is refused. */
	NNT_FAILS(INV, aclnnAdd, i->t, i->t, half, oi->t);
	/* bool + bool is or, also into an int32 out (1, not 2). */
	NNT_RUN(aclnnAdd, t->t, u->t, bone, ob->t);
	expect_tol(ob, ref2(t, u, 1, d4, f_or, 0), 4, ACL_BOOL);
	NNT_RUN(aclnnAdd, t->t, u->t, bone, ob32->t);
	expect_tol(ob32, ref2(t, u, 1, d4, f_or, 0), 4, ACL_INT32);
	aclDestroyScalar(one);
	aclDestroyScalar(half);
	aclDestroyScalar(fone);
	aclDestroyScalar(bone);
}
END_TEST

/* The in-place forms, and an out viewing an input's storage another way
 * (transposed over other): every input is read first. */
START_TEST(add_inplace_and_aliased_out)
{
	static const int64_t d33[] = { 3, 3 }, tst[] = { 1, 3 };
	struct nnt *a = nnt_new(ACL_FLOAT, 2, d33, -5, 5, 9), *b = nnt_new(ACL_FLOAT, 2, d33, -5, 5, 10);
	struct nnt *bt = nnt_view(b, 2, d33, tst, 0);
	aclScalar *alpha = fsc(0.5), *s = fsc(3);
	double *e;

	e = ref2(a, b, 2, d33, f_add, 0.5);
	NNT_RUN(aclnnInplaceAdd, a->t, b->t, alpha);
	expect_tol(a, e, 9, ACL_FLOAT);
	nnt_sync_host(a);
	e = ref2s(a, 3, f_add, 0.5);
	NNT_RUN(aclnnInplaceAdds, a->t, s, alpha);
	expect_tol(a, e, 9, ACL_FLOAT);
	nnt_sync_host(a);
	/* out = b^T, written over b itself: out[i][j] = a[i][j] + 0.5 b[i][j]. */
	e = ref2(a, b, 2, d33, f_add, 0.5);
	NNT_RUN(aclnnAdd, a->t, b->t, alpha, bt->t);
	expect_tol(bt, e, 9, ACL_FLOAT);
	/* selfRef must hold the broadcast shape. */
	{
		static const int64_t d3[] = { 3 };
		struct nnt *v = nnt_new(ACL_FLOAT, 1, d3, 0, 1, 11);

		NNT_FAILS(INV, aclnnInplaceAdd, v->t, a->t, alpha);
		nnt_free(v);
	}
	aclDestroyScalar(alpha);
	aclDestroyScalar(s);
	nnt_free(bt);
	nnt_free(b);
	nnt_free(a);
}
END_TEST

/*
 * AddN over a list of views (dense, transposed, sliced, broadcast) of
 * fp32, fp16, int32; 40 int64 tensors (more than lib/ops' AddN takes in
 * one step); out aliasing an input; an empty list (zeros); refusals.
 * (Lists own their tensors: they are left to the process's end, as the
 * other list tests do.)
 */
START_TEST(addn_lists)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };
	static const int64_t d54[] = { 5, 4 }, st_sl[] = { 4, 1 }, d4[] = { 4 }, st_b[] = { 0, 1 }, d2[] = { 2 };

	for (unsigned int k = 0; k < COUNT(dts); k++) {
		aclDataType dt = dts[k];
		struct nnt *a = nnt_new(dt, 2, D34, -9, 9, 300 + k), *b = nnt_new_transposed(dt, 2, D34, -9, 9, 310 + k);
		struct nnt *base = nnt_new(dt, 2, d54, -9, 9, 320 + k), *c = nnt_view(base, 2, D34, st_sl, 4);
		struct nnt *row = nnt_new(dt, 1, d4, -9, 9, 330 + k), *r = nnt_view(row, 2, D34, st_b, 0);
		struct nnt *o = nnt_zeros(dt, 2, D34);
		const aclTensor *ts[] = { a->t, b->t, c->t, r->t };
		double *va = nnt_values(a), *vb = nnt_values(b), *vc = nnt_values(c), *vr = nnt_values(r), e[12];

		for (int i = 0; i < 12; i++)
			e[i] = va[i] + vb[i] + vc[i] + vr[i];
		NNT_RUN(aclnnAddN, aclCreateTensorList(ts, 4), o->t);
		/* fp16: each input rounded, the sum rounded once */
		nnt_expect(o, e, 12, 2 * nnt_rtol(dt), 2 * nnt_atol(dt));
		free(va);
		free(vb);
		free(vc);
		free(vr);
	}
	{
		enum { N = 40 };
		const aclTensor *ts[N];
		struct nnt *t[N], *o = nnt_zeros(ACL_INT64, 1, d4), *o2 = nnt_zeros(ACL_INT64, 1, d2);
		struct nnt *of = nnt_zeros(ACL_FLOAT, 1, d4), *f = nnt_new(ACL_FLOAT, 1, d4, -1, 1, 5);
		struct nnt *i32 = nnt_new(ACL_INT32, 1, d4, -1, 1, 6), *i2 = nnt_zeros(ACL_INT64, 1, d2);
		struct nnt *u8 = nnt_new(ACL_UINT8, 1, d4, 0, 9, 7), *ou8 = nnt_zeros(ACL_UINT8, 1, d4);
		struct nnt *x0 = nnt_new(ACL_FLOAT, 1, d4, -1, 1, 8), *x1 = nnt_new(ACL_FLOAT, 1, d4, -1, 1, 9);
		struct nnt *alias = nnt_view(x0, 1, d4, (const int64_t[]){ 1 }, 0);
		double e[4] = { 0 }, *v0 = nnt_values(x0), *v1 = nnt_values(x1);

		for (int i = 0; i < N; i++) {
			double *v;

			t[i] = nnt_new(ACL_INT64, 1, d4, -1000, 1000, 400 + (unsigned)i);
			ts[i] = t[i]->t;
			v = nnt_values(t[i]);
			for (int j = 0; j < 4; j++)
				e[j] += v[j];
			free(v);
		}
		NNT_RUN(aclnnAddN, aclCreateTensorList(ts, N), o->t);
		nnt_expect(o, e, 4, 0, 0);
		/* out is a view of the first input's storage */
		for (int j = 0; j < 4; j++)
			e[j] = v0[j] + v1[j];
		NNT_RUN(aclnnAddN, aclCreateTensorList((const aclTensor *[]){ x0->t, x1->t }, 2), alias->t);
		nnt_expect(alias, e, 4, nnt_rtol(ACL_FLOAT), nnt_atol(ACL_FLOAT));
		/* an empty list: zeros */
		NNT_RUN(aclnnAddN, aclCreateTensorList(NULL, 0), of->t);
		nnt_expect(of, (const double[]){ 0, 0, 0, 0 }, 4, 0, 0);
		NNT_FAILS(NUL, aclnnAddN, NULL, o->t);
		NNT_FAILS(NUL, aclnnAddN, aclCreateTensorList((const aclTensor *[]){ t[0]->t }, 1), NULL);
		/* types differ, shapes differ, out of another type or shape, uint8 */
		NNT_FAILS(INV, aclnnAddN, aclCreateTensorList((const aclTensor *[]){ f->t, i32->t }, 2), of->t);
		NNT_FAILS(INV, aclnnAddN, aclCreateTensorList((const aclTensor *[]){ t[1]->t, i2->t }, 2), o->t);
		NNT_FAILS(INV, aclnnAddN, aclCreateTensorList((const aclTensor *[]){ t[2]->t, t[3]->t }, 2), of->t);
		NNT_FAILS(INV, aclnnAddN, aclCreateTensorList((const aclTensor *[]){ t[4]->t, t[5]->t }, 2), o2->t);
		NNT_FAILS(INV, aclnnAddN, aclCreateTensorList((const aclTensor *[]){ u8->t }, 1), ou8->t);
		free(v1);
		free(v0);
	}
}
END_TEST

START_TEST(sub_and_rsub)
{
	struct nnt *a = nnt_new(ACL_FLOAT16, 3, D234, -8, 8, 12), *b = nnt_new(ACL_FLOAT16, 3, D234, -8, 8, 13);
	struct nnt *o = nnt_zeros(ACL_FLOAT16, 3, D234);
	struct nnt *i = nnt_new(ACL_INT32, 3, D234, -50, 50, 14), *j = nnt_new(ACL_INT32, 3, D234, -50, 50, 15);
	struct nnt *oi = nnt_zeros(ACL_INT32, 3, D234), *bl = nnt_new(ACL_BOOL, 3, D234, 0, 1, 16);
	struct nnt *ob = nnt_zeros(ACL_BOOL, 3, D234);
	aclScalar *two = fsc(2), *itwo = isc(2), *s = fsc(1.5), *is = isc(7), *one = isc(1);
	double *e;

	NNT_RUN(aclnnSub, a->t, b->t, two, o->t);
	expect_tol(o, ref2(a, b, 3, D234, f_sub, 2), 24, ACL_FLOAT16);
	NNT_RUN(aclnnSubs, a->t, s, two, o->t);
	expect_tol(o, ref2s(a, 1.5, f_sub, 2), 24, ACL_FLOAT16);
	NNT_RUN(aclnnRsub, i->t, j->t, itwo, oi->t);
	expect_tol(oi, ref2(i, j, 3, D234, f_rsub, 2), 24, ACL_INT32);
	NNT_RUN(aclnnRsubs, i->t, is, itwo, oi->t);
	expect_tol(oi, ref2s(i, 7, f_rsub, 2), 24, ACL_INT32);
	e = ref2(i, j, 3, D234, f_sub, 2);
	NNT_RUN(aclnnInplaceSub, i->t, j->t, itwo);
	expect_tol(i, e, 24, ACL_INT32);
	nnt_sync_host(i);
	e = ref2s(i, 7, f_sub, 1);
	NNT_RUN(aclnnInplaceSubs, i->t, is, one);
	expect_tol(i, e, 24, ACL_INT32);
	/* Subtracting bools is refused, as PyTorch does. */
	NNT_FAILS(INV, aclnnSub, bl->t, bl->t, one, ob->t);
	aclDestroyScalar(two);
	aclDestroyScalar(itwo);
	aclDestroyScalar(s);
	aclDestroyScalar(is);
	aclDestroyScalar(one);
}
END_TEST

START_TEST(mul_and_div)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_UINT8 };
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -20, 20, 17);
	struct nnt *j = nnt_from(ACL_INT32, 2, D34, (const double[]){ 1, -2, 3, 4, -5, 6, 7, 8, -9, 10, 11, 3 });
	struct nnt *of = nnt_zeros(ACL_FLOAT, 2, D34), *oi = nnt_zeros(ACL_INT32, 2, D34);
	aclScalar *s = fsc(-0.25), *is = isc(3);
	double *e;

	for (unsigned int k = 0; k < COUNT(dts); k++) {
		struct nnt *a = nnt_new(dts[k], 2, D34, 0, 12, 20 + k), *b = nnt_new_transposed(dts[k], 2, D34, 0, 12, 30 + k);
		struct nnt *o = nnt_zeros(dts[k], 2, D34);

		NNT_RUN(aclnnMul, a->t, b->t, o->t);
		expect_tol(o, ref2(a, b, 2, D34, f_mul, 0), 12, dts[k]);
		NNT_RUN(aclnnMuls, a->t, is, o->t);
		expect_tol(o, ref2s(a, 3, f_mul, 0), 12, dts[k]);
		nnt_free(o);
		nnt_free(b);
		nnt_free(a);
	}
	/* Integer division is true division, in float. */
	NNT_RUN(aclnnDiv, i->t, j->t, of->t);
	expect_tol(of, ref2(i, j, 2, D34, f_div, 0), 12, ACL_FLOAT);
	NNT_RUN(aclnnDivs, i->t, s, of->t);
	expect_tol(of, ref2s(i, -0.25, f_div, 0), 12, ACL_FLOAT);
	NNT_FAILS(INV, aclnnDiv, i->t, j->t, oi->t);
	NNT_FAILS(INV, aclnnInplaceDiv, i->t, j->t);
	e = ref2(i, j, 2, D34, f_mul, 0);
	NNT_RUN(aclnnInplaceMul, i->t, j->t);
	expect_tol(i, e, 12, ACL_INT32);
	nnt_sync_host(i);
	e = ref2s(i, 3, f_mul, 0);
	NNT_RUN(aclnnInplaceMuls, i->t, is);
	expect_tol(i, e, 12, ACL_INT32);
	/* In-place true division of a float tensor by an integer one. */
	e = ref2(of, j, 2, D34, f_div, 0);
	NNT_RUN(aclnnInplaceDiv, of->t, j->t);
	expect_tol(of, e, 12, ACL_FLOAT);
	nnt_sync_host(of);
	e = ref2s(of, -0.25, f_div, 0);
	NNT_RUN(aclnnInplaceDivs, of->t, s);
	expect_tol(of, e, 12, ACL_FLOAT);
	aclDestroyScalar(s);
	aclDestroyScalar(is);
}
END_TEST

START_TEST(divmod_rounding_modes)
{
	static const double av[] = { 7, -7, 7, -7, 9, -9, 1, 0, 5, -5, 13, -1 };
	static const double bv[] = { 2, 2, -2, -2, 3, 4, -4, 3, 5, 3, -4, 2 };
	struct nnt *ai = nnt_from(ACL_INT32, 2, D34, av), *bi = nnt_from(ACL_INT32, 2, D34, bv);
	struct nnt *af = nnt_new(ACL_FLOAT, 2, D34, -9, 9, 40), *bf = nnt_new(ACL_FLOAT, 2, D34, 0.5, 3, 41);
	struct nnt *oi = nnt_zeros(ACL_INT32, 2, D34), *of = nnt_zeros(ACL_FLOAT, 2, D34);
	aclScalar *s = fsc(-1.5), *is = isc(3);
	double *e;

	NNT_RUN(aclnnDivMod, ai->t, bi->t, 0, of->t);
	expect_tol(of, ref2(ai, bi, 2, D34, f_div, 0), 12, ACL_FLOAT);
	NNT_RUN(aclnnDivMod, ai->t, bi->t, 1, oi->t);
	expect_tol(oi, ref2(ai, bi, 2, D34, f_trunc, 0), 12, ACL_INT32);
	NNT_RUN(aclnnDivMod, ai->t, bi->t, 2, oi->t);
	expect_tol(oi, ref2(ai, bi, 2, D34, f_floor, 0), 12, ACL_INT32);
	NNT_RUN(aclnnDivMod, af->t, bf->t, 1, of->t);
	expect_tol(of, ref2(af, bf, 2, D34, f_trunc, 0), 12, ACL_FLOAT);
	NNT_RUN(aclnnDivMod, af->t, bf->t, 2, of->t);
	expect_tol(of, ref2(af, bf, 2, D34, f_floor, 0), 12, ACL_FLOAT);
	NNT_RUN(aclnnDivMods, af->t, s, 2, of->t);
	expect_tol(of, ref2s(af, -1.5, f_floor, 0), 12, ACL_FLOAT);
	e = ref2s(ai, 3, f_floor, 0);
	NNT_RUN(aclnnInplaceDivMods, ai->t, is, 2);
	expect_tol(ai, e, 12, ACL_INT32);
	nnt_sync_host(ai);
	e = ref2(ai, bi, 2, D34, f_trunc, 0);
	NNT_RUN(aclnnInplaceDivMod, ai->t, bi->t, 1);
	expect_tol(ai, e, 12, ACL_INT32);
	NNT_FAILS(INV, aclnnDivMod, af->t, bf->t, 3, of->t);
	NNT_FAILS(INV, aclnnDivMod, ai->t, bi->t, -1, oi->t);
	aclDestroyScalar(s);
	aclDestroyScalar(is);
}
END_TEST

START_TEST(pow_forms)
{
	struct nnt *a = nnt_new(ACL_FLOAT, 3, D234, 0.1, 3, 42), *b = nnt_new(ACL_FLOAT, 3, D234, -2, 2, 43);
	struct nnt *h = nnt_new(ACL_FLOAT16, 3, D234, 0.1, 2, 44), *i = nnt_new(ACL_INT32, 3, D234, -6, 6, 45);
	struct nnt *o = nnt_zeros(ACL_FLOAT, 3, D234), *oi = nnt_zeros(ACL_INT32, 3, D234);
	aclScalar *two = isc(2), *half = fsc(0.5), *base = fsc(1.5);
	double *e;

	NNT_RUN(aclnnPowTensorTensor, a->t, b->t, o->t);
	expect_tol(o, ref2(a, b, 3, D234, f_pow, 0), 24, ACL_FLOAT);
	/* fp16 ** fp32 promotes to fp32. */
	NNT_RUN(aclnnPowTensorTensor, h->t, b->t, o->t);
	expect_tol(o, ref2(h, b, 3, D234, f_pow, 0), 24, ACL_FLOAT);
	NNT_RUN(aclnnPowTensorScalar, i->t, two, oi->t);
	expect_tol(oi, ref2s(i, 2, f_pow, 0), 24, ACL_INT32);
	/* int32 ** 0.5 is float. */
	NNT_RUN(aclnnPowTensorScalar, a->t, half, o->t);
	expect_tol(o, ref2s(a, 0.5, f_pow, 0), 24, ACL_FLOAT);
	NNT_FAILS(INV, aclnnPowTensorScalar, i->t, half, oi->t);
	NNT_RUN(aclnnPowScalarTensor, base, b->t, o->t);
	expect_tol(o, ref2s(b, 1.5, f_rpow, 0), 24, ACL_FLOAT);
	e = ref2s(i, 2, f_pow, 0);
	NNT_RUN(aclnnInplacePowTensorScalar, i->t, two);
	expect_tol(i, e, 24, ACL_INT32);
	e = ref2(a, b, 3, D234, f_pow, 0);
	NNT_RUN(aclnnInplacePowTensorTensor, a->t, b->t);
	expect_tol(a, e, 24, ACL_FLOAT);
	aclDestroyScalar(two);
	aclDestroyScalar(half);
	aclDestroyScalar(base);
}
END_TEST

START_TEST(maximum_minimum_remainder)
{
	static const int64_t d4[] = { 4 }, d14[] = { 1, 4 };
	static const double iv[] = { 7, -7, 7, -7, 9, -9, 1, 0, 5, -5, 13, -1 };
	static const double dv[] = { 2, 3, -2, -3 };
	struct nnt *a = nnt_new(ACL_FLOAT16, 2, D34, -5, 5, 46), *b = nnt_new(ACL_FLOAT16, 1, d4, -5, 5, 47);
	struct nnt *o = nnt_zeros(ACL_FLOAT16, 2, D34);
	struct nnt *i = nnt_from(ACL_INT32, 2, D34, iv), *d = nnt_from(ACL_INT32, 2, d14, dv);
	struct nnt *oi = nnt_zeros(ACL_INT32, 2, D34), *f = nnt_new(ACL_FLOAT, 2, D34, -9, 9, 48);
	struct nnt *of = nnt_zeros(ACL_FLOAT, 2, D34);
	aclScalar *s = fsc(-2.5), *is = isc(4);
	double *e;

	NNT_RUN(aclnnMaximum, a->t, b->t, o->t);
	expect_tol(o, ref2(a, b, 2, D34, f_max, 0), 12, ACL_FLOAT16);
	NNT_RUN(aclnnMinimum, a->t, b->t, o->t);
	expect_tol(o, ref2(a, b, 2, D34, f_min, 0), 12, ACL_FLOAT16);
	/* fp16 with int32: fp16. */
	NNT_RUN(aclnnMaximum, a->t, i->t, o->t);
	expect_tol(o, ref2(a, i, 2, D34, f_max, 0), 12, ACL_FLOAT16);
	NNT_RUN(aclnnRemainderTensorTensor, i->t, d->t, oi->t);
	expect_tol(oi, ref2(i, d, 2, D34, f_rem, 0), 12, ACL_INT32);
	NNT_RUN(aclnnRemainderTensorScalar, f->t, s, of->t);
	expect_tol(of, ref2s(f, -2.5, f_rem, 0), 12, ACL_FLOAT);
	{
		static const int64_t d14b[] = { 1, 4 };
		struct nnt *o14 = nnt_zeros(ACL_INT32, 2, d14b);

		NNT_RUN(aclnnRemainderScalarTensor, is, d->t, o14->t);
		expect_tol(o14, ref2s(d, 4, f_rrem, 0), 4, ACL_INT32);
		nnt_free(o14);
	}
	e = ref2(i, d, 2, D34, f_rem, 0);
	NNT_RUN(aclnnInplaceRemainderTensorTensor, i->t, d->t);
	expect_tol(i, e, 12, ACL_INT32);
	nnt_sync_host(f);
	e = ref2s(f, -2.5, f_rem, 0);
	NNT_RUN(aclnnInplaceRemainderTensorScalar, f->t, s);
	expect_tol(f, e, 12, ACL_FLOAT);
	aclDestroyScalar(s);
	aclDestroyScalar(is);
}
END_TEST

START_TEST(binary_bad_arguments)
{
	static const int64_t d23[] = { 2, 3 }, d4[] = { 4 }, d9[] = { 1, 1, 1, 1, 1, 1, 1, 1, 2 };
	static const int64_t s9[] = { 2, 2, 2, 2, 2, 2, 2, 2, 1 }, st9[] = { 2 };
	struct nnt *a = nnt_new(ACL_FLOAT, 2, d23, 0, 1, 49), *b = nnt_new(ACL_FLOAT, 1, d4, 0, 1, 50);
	struct nnt *o = nnt_zeros(ACL_FLOAT, 2, d23), *o4 = nnt_zeros(ACL_FLOAT, 1, d4);
	/* Rank 9, past CANN's 8 (and nnt's): made directly over a's storage. */
	aclTensor *r9 = aclCreateTensor(d9, 9, ACL_FLOAT, s9, 0, ACL_FORMAT_ND, st9, 1, a->dev);
	aclScalar *one = fsc(1);
	uint64_t ws;
	aclOpExecutor *ex;

	NNT_FAILS(NUL, aclnnAdd, NULL, a->t, one, o->t);
	NNT_FAILS(NUL, aclnnAdd, a->t, NULL, one, o->t);
	NNT_FAILS(NUL, aclnnAdd, a->t, a->t, NULL, o->t);
	NNT_FAILS(NUL, aclnnAdd, a->t, a->t, one, NULL);
	NNT_FAILS(NUL, aclnnAdds, a->t, NULL, one, o->t);
	NNT_FAILS(NUL, aclnnMul, a->t, NULL, o->t);
	NNT_FAILS(NUL, aclnnPowScalarTensor, NULL, a->t, o->t);
	NNT_FAILS(INV, aclnnAdd, a->t, b->t, one, o->t);	/* [2, 3] and [4] */
	NNT_FAILS(INV, aclnnAdd, a->t, a->t, one, o4->t);	/* out of another shape */
	ck_assert_ptr_nonnull(r9);
	NNT_FAILS(INV, aclnnMaximum, r9, r9, r9);	/* rank 9 */
	aclDestroyTensor(r9);
	ck_assert_int_eq(aclnnAddGetWorkspaceSize(a->t, a->t, one, o->t, NULL, &ex), NUL);
	ck_assert_int_eq(aclnnAddGetWorkspaceSize(a->t, a->t, one, o->t, &ws, NULL), NUL);
	aclDestroyScalar(one);
}
END_TEST

/* ---- comparisons, logic, selection ----------------------------------------------- */

typedef aclnnStatus (*cmp_tt)(const aclTensor *, const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*cmp_ts)(const aclTensor *, const aclScalar *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*cmp_itt)(const aclTensor *, const aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*cmp_its)(const aclTensor *, const aclScalar *, uint64_t *, aclOpExecutor **);

static const struct {
	cmp_tt tt;
	nnt_launch_fn ltt;
	cmp_ts ts;
	nnt_launch_fn lts;
	cmp_itt itt;
	nnt_launch_fn litt;
	cmp_its its;
	nnt_launch_fn lits;
} cmps[] = {
#define C(N)                                                                                       \
	{ aclnn##N##TensorGetWorkspaceSize, aclnn##N##Tensor, aclnn##N##ScalarGetWorkspaceSize,      \
	  aclnn##N##Scalar, aclnnInplace##N##TensorGetWorkspaceSize, aclnnInplace##N##Tensor,        \
	  aclnnInplace##N##ScalarGetWorkspaceSize, aclnnInplace##N##Scalar }
	[EQ] = C(Eq), [NE] = C(Ne), [GT] = C(Gt), [GE] = C(Ge), [LT] = C(Lt), [LE] = C(Le),
#undef C
};

/* GetWorkspaceSize's status @st, then the launch @l of what it made: the
 * pointers are read here, after the call has filled them. */
static void run(aclnnStatus st, const uint64_t *ws, aclOpExecutor *const *ex, nnt_launch_fn l)
{
	ck_assert_msg(st == 0, "GetWorkspaceSize = %d (%s)", st, acl_test_msg());
	st = nnt_launch(*ws, *ex, l);
	ck_assert_msg(st == 0, "launch = %d (%s)", st, acl_test_msg());
}

START_TEST(comparisons_every_form)
{
	/* Whole numbers from 0 (uint8 and bool take them), some equal. */
	static const double av[] = { 1, 2, 3, 4, 5, 6, 3, 0, 2, 8, 9, 1 };
	static const double bv[] = { 1, 0, 3, 5, 5, 7, 3, 1, 1, 8, 9, 2 };
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_UINT8, ACL_BOOL };
	static const int64_t tst[] = { 1, 3 }, d43[] = { 4, 3 };

	for (unsigned int k = 0; k < COUNT(dts); k++) {
		struct nnt *a = nnt_from(dts[k], 2, D34, av);
		struct nnt *bb = nnt_from(dts[k], 2, d43, bv);
		/* other is a transposed view: its [i][j] is bb's [j][i]. */
		struct nnt *b = nnt_view(bb, 2, D34, tst, 0);
		struct nnt *ob = nnt_zeros(ACL_BOOL, 2, D34), *of = nnt_zeros(ACL_FLOAT, 2, D34);
		aclScalar *s = dts[k] == ACL_BOOL ? nnt_scalar(ACL_BOOL, 1) : isc(2);
		double sv = dts[k] == ACL_BOOL ? 1 : 2;

		for (int c = EQ; c <= LE; c++) {
			uint64_t ws;
			aclOpExecutor *ex;
			struct nnt *ac = nnt_from(dts[k], 2, D34, av);
			double *e;

			if (dts[k] == ACL_BOOL && c != EQ && c != NE)
				goto next;	/* ordering of bools: covered by the integers */
			run(cmps[c].tt(a->t, b->t, ob->t, &ws, &ex), &ws, &ex, cmps[c].ltt);
			expect_tol(ob, ref2(a, b, 2, D34, f_cmp, c), 12, ACL_BOOL);
			run(cmps[c].tt(a->t, b->t, of->t, &ws, &ex), &ws, &ex, cmps[c].ltt);
			expect_tol(of, ref2(a, b, 2, D34, f_cmp, c), 12, ACL_FLOAT);
			run(cmps[c].ts(a->t, s, ob->t, &ws, &ex), &ws, &ex, cmps[c].lts);
			expect_tol(ob, ref2s(a, sv, f_cmp, c), 12, ACL_BOOL);
			e = ref2(ac, b, 2, D34, f_cmp, c);
			run(cmps[c].itt(ac->t, b->t, &ws, &ex), &ws, &ex, cmps[c].litt);
			expect_tol(ac, e, 12, dts[k]);
			nnt_free(ac);
			ac = nnt_from(dts[k], 2, D34, av);
			e = ref2s(ac, sv, f_cmp, c);
			run(cmps[c].its(ac->t, s, &ws, &ex), &ws, &ex, cmps[c].lits);
			expect_tol(ac, e, 12, dts[k]);
next:
			nnt_free(ac);
		}
		aclDestroyScalar(s);
		nnt_free(of);
		nnt_free(ob);
		nnt_free(b);
		nnt_free(bb);
		nnt_free(a);
	}
}
END_TEST

START_TEST(comparison_promotion_and_refusals)
{
	static const int64_t d5[] = { 5 }, d2[] = { 2 };
	static const double iv[] = { 1, 2, 3, -4, 0 };
	struct nnt *i = nnt_from(ACL_INT32, 1, d5, iv), *ob = nnt_zeros(ACL_BOOL, 1, d5);
	struct nnt *h = nnt_from(ACL_FLOAT16, 1, d5, (const double[]){ 1.5, 2, 2.5, -4, 0.5 });
	struct nnt *o2 = nnt_zeros(ACL_BOOL, 1, d2);
	aclScalar *s = fsc(2.5);

	/* int32 against 2.5 compares in float: 2 < 2.5, 3 > 2.5. */
	NNT_RUN(aclnnLtScalar, i->t, s, ob->t);
	expect_tol(ob, ref2s(i, 2.5, f_cmp, LT), 5, ACL_BOOL);
	NNT_RUN(aclnnGeTensor, h->t, i->t, ob->t);
	expect_tol(ob, ref2(h, i, 1, d5, f_cmp, GE), 5, ACL_BOOL);
	NNT_FAILS(NUL, aclnnEqTensor, NULL, i->t, ob->t);
	NNT_FAILS(NUL, aclnnEqScalar, i->t, NULL, ob->t);
	NNT_FAILS(INV, aclnnEqTensor, i->t, o2->t, ob->t);
	NNT_FAILS(INV, aclnnEqTensor, i->t, i->t, o2->t);
	aclDestroyScalar(s);
}
END_TEST

START_TEST(logical_functions)
{
	static const double av[] = { 0, 1, 2, 0, -3, 0.5, 0, 0, 1, 1, 7, 0 };
	static const double bv[] = { 0, 0, 1, 1 };
	static const int64_t d4[] = { 4 }, d34s[] = { 0, 1 };
	struct nnt *a = nnt_from(ACL_FLOAT, 2, D34, av), *brow = nnt_from(ACL_INT32, 1, d4, bv);
	struct nnt *b = nnt_view(brow, 2, D34, d34s, 0);
	struct nnt *ab = nnt_from(ACL_BOOL, 2, D34, av), *ob = nnt_zeros(ACL_BOOL, 2, D34);
	struct nnt *oi = nnt_zeros(ACL_INT32, 2, D34);
	double *e;

	NNT_RUN(aclnnLogicalAnd, a->t, b->t, ob->t);
	expect_tol(ob, ref2(a, b, 2, D34, f_and, 0), 12, ACL_BOOL);
	NNT_RUN(aclnnLogicalOr, a->t, b->t, oi->t);
	expect_tol(oi, ref2(a, b, 2, D34, f_or, 0), 12, ACL_INT32);
	NNT_RUN(aclnnLogicalXor, ab->t, b->t, ob->t);
	expect_tol(ob, ref2(ab, b, 2, D34, f_xor, 0), 12, ACL_BOOL);
	NNT_RUN(aclnnLogicalNot, a->t, ob->t);
	e = ref2s(a, 0, f_cmp, EQ);
	expect_tol(ob, e, 12, ACL_BOOL);
	e = ref2(ab, b, 2, D34, f_and, 0);
	NNT_RUN(aclnnInplaceLogicalAnd, ab->t, b->t);
	expect_tol(ab, e, 12, ACL_BOOL);
	nnt_sync_host(ab);
	e = ref2(ab, b, 2, D34, f_or, 0);
	NNT_RUN(aclnnInplaceLogicalOr, ab->t, b->t);
	expect_tol(ab, e, 12, ACL_BOOL);
	nnt_sync_host(ab);
	e = ref2s(ab, 0, f_cmp, EQ);
	NNT_RUN(aclnnInplaceLogicalNot, ab->t);
	expect_tol(ab, e, 12, ACL_BOOL);
	/* In place into a float tensor: 1.0 / 0.0. */
	e = ref2s(a, 0, f_cmp, EQ);
	NNT_RUN(aclnnInplaceLogicalNot, a->t);
	expect_tol(a, e, 12, ACL_FLOAT);
	NNT_FAILS(NUL, aclnnLogicalAnd, a->t, NULL, ob->t);
	NNT_FAILS(NUL, aclnnLogicalNot, a->t, NULL);
}
END_TEST

/* ---- bitwise ----------------------------------------------------------------- */

static double f_band(double a, double b, double p) { (void)p; return (double)((int64_t)a & (int64_t)b); }
static double f_bor(double a, double b, double p) { (void)p; return (double)((int64_t)a | (int64_t)b); }
static double f_bxor(double a, double b, double p) { (void)p; return (double)((int64_t)a ^ (int64_t)b); }

typedef aclnnStatus (*bw_tt)(const aclTensor *, const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*bw_ts)(const aclTensor *, const aclScalar *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*bw_itt)(aclTensor *, const aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*bw_its)(aclTensor *, const aclScalar *, uint64_t *, aclOpExecutor **);

/* CANN declares And's selfRef const (Or's and Xor's not): the table's type. */
static aclnnStatus and_itt(aclTensor *s, const aclTensor *o, uint64_t *ws, aclOpExecutor **ex)
{
	return aclnnInplaceBitwiseAndTensorGetWorkspaceSize(s, o, ws, ex);
}

static aclnnStatus and_its(aclTensor *s, const aclScalar *o, uint64_t *ws, aclOpExecutor **ex)
{
	return aclnnInplaceBitwiseAndScalarGetWorkspaceSize(s, o, ws, ex);
}

static const struct bw {
	bw_tt tt;
	nnt_launch_fn ltt;
	bw_ts ts;
	nnt_launch_fn lts;
	bw_itt itt;
	nnt_launch_fn litt;
	bw_its its;
	nnt_launch_fn lits;
	fn2 f;
} bws[] = {
#define B(N, itt, its, f)                                                                          \
	{ aclnn##N##TensorGetWorkspaceSize, aclnn##N##Tensor, aclnn##N##ScalarGetWorkspaceSize, aclnn##N##Scalar, \
	  itt, aclnnInplace##N##Tensor, its, aclnnInplace##N##Scalar, f }
	B(BitwiseAnd, and_itt, and_its, f_band),
	B(BitwiseOr, aclnnInplaceBitwiseOrTensorGetWorkspaceSize, aclnnInplaceBitwiseOrScalarGetWorkspaceSize, f_bor),
	B(BitwiseXor, aclnnInplaceBitwiseXorTensorGetWorkspaceSize, aclnnInplaceBitwiseXorScalarGetWorkspaceSize,
	  f_bxor),
#undef B
};

/*
 * And, Or, Xor in each form on every integer width and bool: self dense,
 * other a transposed view, the scalar forms, the in-place ones on a slice
 * of a larger storage (the rest untouched), out of a wider or float type.
 */
START_TEST(bitwise_every_form)
{
	/* Signed values fit int8; the unsigned and bool ones are 0..255 and 0/1. */
	static const double sv[] = { 5, -3, 12, 0, 7, -128, 127, 9, -1, 64, 33, -70 };
	static const double s2[] = { 3, -1, 10, 6, 0, 15, -2, 127, 1, -64, 17, 96 };
	static const double uv[] = { 5, 200, 12, 0, 7, 128, 255, 9, 1, 64, 33, 170 };
	static const double u2[] = { 3, 255, 10, 6, 0, 15, 254, 127, 1, 192, 17, 96 };
	static const double bv[] = { 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1 };
	static const double b2[] = { 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0 };
	static const aclDataType dts[] = { ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL };
	static const int64_t tst[] = { 1, 3 }, d43[] = { 4, 3 }, d45[] = { 4, 5 }, st45[] = { 5, 1 };

	for (unsigned int k = 0; k < COUNT(dts); k++) {
		aclDataType dt = dts[k];
		bool sg = dt != ACL_UINT8 && dt != ACL_BOOL;
		const double *va = sg ? sv : dt == ACL_BOOL ? bv : uv, *vb = sg ? s2 : dt == ACL_BOOL ? b2 : u2;
		struct nnt *a = nnt_from(dt, 2, D34, va), *bb = nnt_from(dt, 2, d43, vb);
		struct nnt *b = nnt_view(bb, 2, D34, tst, 0);
		struct nnt *o = nnt_zeros(dt, 2, D34), *of = nnt_zeros(ACL_FLOAT, 2, D34);
		struct nnt *o64 = nnt_zeros(dt == ACL_BOOL ? ACL_BOOL : ACL_INT64, 2, D34);
		aclScalar *sc = dt == ACL_BOOL ? nnt_scalar(ACL_BOOL, 1) : isc(6);
		double scv = dt == ACL_BOOL ? 1 : 6;

		for (unsigned int f = 0; f < COUNT(bws); f++) {
			const struct bw *w = &bws[f];
			struct nnt *base = nnt_zeros(dt, 2, d45), *sl = nnt_view(base, 2, D34, st45, 6);
			uint64_t ws;
			aclOpExecutor *ex;
			void *before;
			double *e;

			run(w->tt(a->t, b->t, o->t, &ws, &ex), &ws, &ex, w->ltt);
			expect_tol(o, ref2(a, b, 2, D34, w->f, 0), 12, dt);
			run(w->tt(a->t, b->t, of->t, &ws, &ex), &ws, &ex, w->ltt);
			expect_tol(of, ref2(a, b, 2, D34, w->f, 0), 12, ACL_FLOAT);
			run(w->ts(b->t, sc, o64->t, &ws, &ex), &ws, &ex, w->lts);
			expect_tol(o64, ref2s(b, scv, w->f, 0), 12, ACL_INT64);
			/* in place on a slice of base, which first gets a's values */
			NNT_RUN(aclnnInplaceCopy, sl->t, a->t);
			nnt_sync_host(base);
			before = nnt_snapshot(base);
			e = ref2(sl, b, 2, D34, w->f, 0);
			run(w->itt(sl->t, b->t, &ws, &ex), &ws, &ex, w->litt);
			expect_tol(sl, e, 12, dt);
			nnt_expect_untouched(base, before);
			free(before);
			e = ref2s(sl, scv, w->f, 0);
			run(w->its(sl->t, sc, &ws, &ex), &ws, &ex, w->lits);
			expect_tol(sl, e, 12, dt);
			nnt_free(sl);
			nnt_free(base);
		}
		aclDestroyScalar(sc);
		nnt_free(o64);
		nnt_free(of);
		nnt_free(o);
		nnt_free(b);
		nnt_free(bb);
		nnt_free(a);
	}
}
END_TEST

/* Promotion (int8 with int32, uint8 with int8, a bool tensor with an
 * integer scalar), a broadcast (stride 0) other, out aliasing self, the
 * TensorOut names, and the refusals: floats, a float scalar, an integer
 * result into bool, shapes, NULLs. */
START_TEST(bitwise_promotion_views_and_refusals)
{
	static const double v8[] = { -1, 2, 3, -4, 5, 6, -7, 8, 9, -10, 11, 12 };
	static const double v32[] = { 1000, -256, 0x7fffffff, 255 };
	static const double vb[] = { 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1 };
	static const int64_t d4[] = { 4 }, st_b[] = { 0, 1 }, d2[] = { 2 };
	struct nnt *i8 = nnt_from(ACL_INT8, 2, D34, v8), *u8 = nnt_from(ACL_UINT8, 2, D34, vb);
	struct nnt *row = nnt_from(ACL_INT32, 1, d4, v32);
	struct nnt *bc = nnt_view(row, 2, D34, st_b, 0);
	struct nnt *bl = nnt_from(ACL_BOOL, 2, D34, vb), *fl = nnt_new(ACL_FLOAT, 2, D34, -2, 2, 7);
	struct nnt *o32 = nnt_zeros(ACL_INT32, 2, D34), *o16 = nnt_zeros(ACL_INT16, 2, D34);
	struct nnt *o64 = nnt_zeros(ACL_INT64, 2, D34), *ob = nnt_zeros(ACL_BOOL, 2, D34);
	struct nnt *o2 = nnt_zeros(ACL_INT32, 1, d2), *ali = nnt_from(ACL_INT32, 2, D34, v8);
	struct nnt *alias = nnt_view(ali, 2, D34, (const int64_t[]){ 4, 1 }, 0);
	aclScalar *s3 = isc(3), *sf = fsc(1.5);
	double *e;

	/* int8 & int32 (broadcast rows) computes in int32 */
	NNT_RUN(aclnnBitwiseAndTensor, i8->t, bc->t, o32->t);
	expect_tol(o32, ref2(i8, bc, 2, D34, f_band, 0), 12, ACL_INT32);
	NNT_RUN(aclnnBitwiseAndTensorOut, i8->t, bc->t, o32->t);
	expect_tol(o32, ref2(i8, bc, 2, D34, f_band, 0), 12, ACL_INT32);
	/* uint8 ^ int8: int16 */
	NNT_RUN(aclnnBitwiseXorTensor, u8->t, i8->t, o16->t);
	expect_tol(o16, ref2(u8, i8, 2, D34, f_bxor, 0), 12, ACL_INT16);
	/* bool | 3: int64 */
	NNT_RUN(aclnnBitwiseOrScalar, bl->t, s3, o64->t);
	expect_tol(o64, ref2s(bl, 3, f_bor, 0), 12, ACL_INT64);
	/* out is a second view of self's storage: as if self were read first */
	e = ref2(ali, bc, 2, D34, f_bor, 0);
	NNT_RUN(aclnnBitwiseOrTensor, ali->t, bc->t, alias->t);
	expect_tol(alias, e, 12, ACL_INT32);
	nnt_sync_host(ali);
	e = ref2(ali, bc, 2, D34, f_band, 0);
	NNT_RUN(aclnnInplaceBitwiseAndTensorOut, ali->t, bc->t);
	expect_tol(ali, e, 12, ACL_INT32);

	NNT_FAILS(INV, aclnnBitwiseAndTensor, fl->t, i8->t, o32->t);
	NNT_FAILS(INV, aclnnBitwiseOrScalar, i8->t, sf, o32->t);
	NNT_FAILS(INV, aclnnBitwiseXorTensor, i8->t, bc->t, ob->t);
	NNT_FAILS(INV, aclnnBitwiseXorTensor, i8->t, o2->t, o32->t);
	NNT_FAILS(INV, aclnnBitwiseAndTensor, i8->t, i8->t, o2->t);
	NNT_FAILS(INV, aclnnInplaceBitwiseOrTensor, o2->t, i8->t);
	NNT_FAILS(INV, aclnnInplaceBitwiseXorScalar, fl->t, s3);
	NNT_FAILS(NUL, aclnnBitwiseAndTensor, NULL, i8->t, o32->t);
	NNT_FAILS(NUL, aclnnBitwiseOrTensor, i8->t, NULL, o32->t);
	NNT_FAILS(NUL, aclnnBitwiseXorScalar, i8->t, NULL, o32->t);
	NNT_FAILS(NUL, aclnnBitwiseAndScalar, i8->t, s3, NULL);
	NNT_FAILS(NUL, aclnnInplaceBitwiseAndScalar, NULL, s3);
	aclDestroyScalar(sf);
	aclDestroyScalar(s3);
	nnt_free(alias);
	nnt_free(ali);
	nnt_free(o2);
	nnt_free(ob);
	nnt_free(o64);
	nnt_free(o16);
	nnt_free(o32);
	nnt_free(fl);
	nnt_free(bl);
	nnt_free(bc);
	nnt_free(row);
	nnt_free(u8);
	nnt_free(i8);
}
END_TEST

START_TEST(swhere_and_isinf)
{
	static const int64_t d31[] = { 3, 1 }, d4[] = { 4 }, d6[] = { 6 };
	struct nnt *c = nnt_from(ACL_BOOL, 2, d31, (const double[]){ 1, 0, 1 });
	struct nnt *cu = nnt_from(ACL_UINT8, 2, d31, (const double[]){ 0, 5, 1 });
	struct nnt *cf = nnt_from(ACL_FLOAT, 2, d31, (const double[]){ 0, 1, 1 });
	struct nnt *a = nnt_new_transposed(ACL_FLOAT16, 2, D34, -3, 3, 52), *b = nnt_new(ACL_FLOAT, 1, d4, -3, 3, 53);
	struct nnt *o = nnt_zeros(ACL_FLOAT, 2, D34), *oh = nnt_zeros(ACL_FLOAT16, 2, D34);
	static const double inf_v[] = { 1, INFINITY, -INFINITY, NAN, -0.0, 65504 };
	struct nnt *fi = nnt_from(ACL_FLOAT, 1, d6, inf_v), *hi = nnt_from(ACL_FLOAT16, 1, d6, inf_v);
	struct nnt *ii = nnt_from(ACL_INT32, 1, d6, (const double[]){ 1, 2, 3, 4, 5, 6 });
	struct nnt *ob = nnt_zeros(ACL_BOOL, 1, d6), *of = nnt_zeros(ACL_FLOAT, 1, d6);
	static const double inf_e[] = { 0, 1, 1, 0, 0, 0 }, none[] = { 0, 0, 0, 0, 0, 0 };
	double *va, *vb, *vc, *e = malloc(12 * sizeof(double));

	for (int pass = 0; pass < 2; pass++) {
		struct nnt *cc = pass ? cu : c;

		va = bvals(a, 2, D34);
		vb = bvals(b, 2, D34);
		vc = bvals(cc, 2, D34);
		for (int k = 0; k < 12; k++)
			e[k] = vc[k] != 0 ? va[k] : vb[k];
		NNT_RUN(aclnnSWhere, cc->t, a->t, b->t, o->t);
		nnt_expect(o, e, 12, nnt_rtol(ACL_FLOAT), nnt_atol(ACL_FLOAT));
		free(va);
		free(vb);
		free(vc);
	}
	/* fp32 result into an fp16 out (e is the uint8 condition's). */
	NNT_RUN(aclnnSWhere, cu->t, a->t, b->t, oh->t);
	nnt_expect(oh, e, 12, nnt_rtol(ACL_FLOAT16), nnt_atol(ACL_FLOAT16));
	free(e);
	NNT_FAILS(INV, aclnnSWhere, cf->t, a->t, b->t, o->t);
	NNT_FAILS(NUL, aclnnSWhere, NULL, a->t, b->t, o->t);
	NNT_RUN(aclnnIsInf, fi->t, ob->t);
	nnt_expect(ob, inf_e, 6, 0, 0);
	NNT_RUN(aclnnIsInf, hi->t, of->t);
	nnt_expect(of, inf_e, 6, 0, 0);
	NNT_RUN(aclnnIsInf, ii->t, ob->t);
	nnt_expect(ob, none, 6, 0, 0);
}
END_TEST

/* ---- unary ------------------------------------------------------------------------ */

typedef aclnnStatus (*un_ws)(const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*iun_ws)(aclTensor *, uint64_t *, aclOpExecutor **);

static double h_sigmoid(double v) { return 1 / (1 + exp(-v)); }
static double h_recip(double v) { return 1 / v; }
static double h_rsqrt(double v) { return 1 / sqrt(v); }
static double h_exp2(double v) { return pow(2, v); }

static const struct unf {
	const char *name;
	un_ws ws;
	nnt_launch_fn run;
	iun_ws iws;
	nnt_launch_fn irun;
	double (*f)(double);
	double lo, hi;
} unfs[] = {
#define U(N, f, lo, hi)                                                                            \
	{ #N, aclnn##N##GetWorkspaceSize, aclnn##N, aclnnInplace##N##GetWorkspaceSize, aclnnInplace##N, f, lo, hi }
	U(Exp, exp, -3, 3), U(Exp2, h_exp2, -3, 3), U(Expm1, expm1, -3, 3), U(Log, log, 0.1, 9), U(Log2, log2, 0.1, 9),
	U(Log10, log10, 0.1, 9), U(Log1p, log1p, -0.5, 9), U(Sqrt, sqrt, 0, 9), U(Rsqrt, h_rsqrt, 0.1, 9),
	U(Sin, sin, -3, 3), U(Cos, cos, -3, 3), U(Tan, tan, -1.2, 1.2), U(Tanh, tanh, -3, 3),
	U(Asin, asin, -1, 1), U(Acos, acos, -1, 1), U(Atan, atan, -5, 5), U(Sinh, sinh, -3, 3),
	U(Cosh, cosh, -3, 3), U(Asinh, asinh, -5, 5), U(Acosh, acosh, 1, 5), U(Atanh, atanh, -0.9, 0.9),
	U(Erf, erf, -2, 2), U(Sigmoid, h_sigmoid, -6, 6), U(Reciprocal, h_recip, 0.5, 4),
	U(Floor, floor, -5, 5), U(Ceil, ceil, -5, 5), U(Round, nearbyint, -5, 5), U(Neg, NULL, -5, 5),
#undef U
};

static double *map1(const struct nnt *t, double (*f)(double))
{
	double *v = nnt_values(t);

	for (uint64_t i = 0; i < nnt_count(t); i++)
		v[i] = f ? f(v[i]) : -v[i];
	return v;
}

/* Each float function on fp32 dense, fp16 transposed, bf16 dense into an
 * fp32 out, and in place on a slice of fp32 storage. */
START_TEST(unary_float_functions)
{
	static const int64_t d54[] = { 5, 4 }, st[] = { 4, 1 };

	for (unsigned int k = 0; k < COUNT(unfs); k++) {
		const struct unf *u = &unfs[k];
		struct nnt *a = nnt_new(ACL_FLOAT, 2, D34, u->lo, u->hi, 60 + k);
		struct nnt *h = nnt_new_transposed(ACL_FLOAT16, 2, D34, u->lo, u->hi, 90 + k);
		struct nnt *bf = nnt_new(ACL_BF16, 2, D34, u->lo, u->hi, 120 + k);
		struct nnt *o = nnt_zeros(ACL_FLOAT, 2, D34), *oh = nnt_zeros(ACL_FLOAT16, 2, D34);
		struct nnt *base = nnt_new(ACL_FLOAT, 2, d54, u->lo, u->hi, 150 + k);
		struct nnt *sl = nnt_view(base, 2, D34, st, 4);
		void *before = nnt_snapshot(base);
		uint64_t ws;
		aclOpExecutor *ex;
		double *e;

		run(u->ws(a->t, o->t, &ws, &ex), &ws, &ex, u->run);
		expect_tol(o, map1(a, u->f), 12, ACL_FLOAT);
		run(u->ws(h->t, oh->t, &ws, &ex), &ws, &ex, u->run);
		expect_tol(oh, map1(h, u->f), 12, ACL_FLOAT16);
		run(u->ws(bf->t, o->t, &ws, &ex), &ws, &ex, u->run);
		expect_tol(o, map1(bf, u->f), 12, ACL_BF16);
		e = map1(sl, u->f);
		run(u->iws(sl->t, &ws, &ex), &ws, &ex, u->irun);
		expect_tol(sl, e, 12, ACL_FLOAT);
		nnt_expect_untouched(base, before);
		free(before);
		nnt_free(sl);
		nnt_free(base);
		nnt_free(oh);
		nnt_free(o);
		nnt_free(bf);
		nnt_free(h);
		nnt_free(a);
	}
}
END_TEST

/* Expm1 near 0, where exp(x) - 1 would lose the digits (fp64: relative
 * 1e-15, where exp - 1 is off by ~1e-7); int64 and bool inputs compute in
 * fp32 into a float out; an integer out or selfRef is refused. */
START_TEST(expm1_near_zero_and_integers)
{
	static const int64_t d4[] = { 4 };
	static const double tiny[] = { 1e-10, -3e-9, 2e-12, 0 }, iv[] = { -3, 0, 1, 4 }, bv[] = { 0, 1, 1, 0 };
	struct nnt *d = nnt_from(ACL_DOUBLE, 1, d4, tiny), *od = nnt_zeros(ACL_DOUBLE, 1, d4);
	struct nnt *i = nnt_from(ACL_INT64, 1, d4, iv), *b = nnt_from(ACL_BOOL, 1, d4, bv);
	struct nnt *of = nnt_zeros(ACL_FLOAT, 1, d4), *oi = nnt_zeros(ACL_INT32, 1, d4);

	NNT_RUN(aclnnExpm1, d->t, od->t);
	nnt_expect(od, (const double[]){ expm1(1e-10), expm1(-3e-9), expm1(2e-12), 0 }, 4, 1e-15, 0);
	NNT_RUN(aclnnExpm1, i->t, of->t);
	expect_tol(of, map1(i, expm1), 4, ACL_FLOAT);
	NNT_RUN(aclnnExpm1, b->t, of->t);
	expect_tol(of, map1(b, expm1), 4, ACL_FLOAT);
	NNT_FAILS(INV, aclnnExpm1, i->t, oi->t);
	NNT_FAILS(INV, aclnnInplaceExpm1, oi->t);
	NNT_FAILS(NUL, aclnnExpm1, NULL, of->t);
	NNT_FAILS(NUL, aclnnExpm1, d->t, NULL);
	NNT_FAILS(NUL, aclnnInplaceExpm1, NULL);
	nnt_free(oi);
	nnt_free(of);
	nnt_free(b);
	nnt_free(i);
	nnt_free(od);
	nnt_free(d);
}
END_TEST

/* Integer inputs: the float functions compute in fp32 (into a float out
 * only), floor/ceil/round and neg keep the integers. */
START_TEST(unary_integer_inputs)
{
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -9, 9, 61), *u8 = nnt_new(ACL_UINT8, 2, D34, 0, 9, 62);
	struct nnt *b = nnt_new(ACL_BOOL, 2, D34, 0, 1, 63);
	struct nnt *of = nnt_zeros(ACL_FLOAT, 2, D34), *oi = nnt_zeros(ACL_INT32, 2, D34);
	struct nnt *ou = nnt_zeros(ACL_UINT8, 2, D34), *ob = nnt_zeros(ACL_BOOL, 2, D34);

	NNT_RUN(aclnnExp, i->t, of->t);
	expect_tol(of, map1(i, exp), 12, ACL_FLOAT);
	NNT_RUN(aclnnSigmoid, b->t, of->t);
	expect_tol(of, map1(b, h_sigmoid), 12, ACL_FLOAT);
	NNT_FAILS(INV, aclnnExp, i->t, oi->t);
	NNT_FAILS(INV, aclnnInplaceSqrt, i->t);
	NNT_RUN(aclnnFloor, i->t, oi->t);
	expect_tol(oi, map1(i, floor), 12, ACL_INT32);
	NNT_RUN(aclnnRound, u8->t, ou->t);
	expect_tol(ou, map1(u8, floor), 12, ACL_UINT8);
	NNT_RUN(aclnnNeg, i->t, oi->t);
	expect_tol(oi, map1(i, NULL), 12, ACL_INT32);
	NNT_RUN(aclnnAbs, i->t, oi->t);
	expect_tol(oi, map1(i, fabs), 12, ACL_INT32);
	NNT_RUN(aclnnRelu, u8->t, ou->t);
	expect_tol(ou, map1(u8, fabs), 12, ACL_UINT8);
	NNT_FAILS(INV, aclnnNeg, b->t, ob->t);
	NNT_FAILS(INV, aclnnGelu, i->t, of->t);
	NNT_FAILS(NUL, aclnnExp, NULL, of->t);
	NNT_FAILS(NUL, aclnnExp, i->t, NULL);
	NNT_FAILS(INV, aclnnExp, of->t, oi->t);
}
END_TEST

static double h_relu(double v) { return v > 0 ? v : 0; }
static double h_sign(double v) { return (v > 0) - (v < 0); }
static double h_gelu_tanh(double v)
{
	return v / 2 * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (v + 0.044715 * v * v * v)));
}
static double h_gelu_erf(double v) { return v / 2 * (1 + erf(v / sqrt(2))); }
static double h_silu(double v) { return v / (1 + exp(-v)); }
static double h_hsig(double v) { return fmax(0, fmin(1, v / 6 + 0.5)); }
static double h_hswish(double v) { return v * h_hsig(v); }

/* The float-only activations on fp32 (sliced out), fp16 and bf16. */
START_TEST(activations)
{
	static const struct {
		un_ws ws;
		nnt_launch_fn run;
		double (*f)(double);
	} acts[] = {
#define A(N, f) { aclnn##N##GetWorkspaceSize, aclnn##N, f }
		A(Relu, h_relu), A(Abs, fabs), A(Sign, h_sign), A(Gelu, h_gelu_tanh), A(Silu, h_silu),
		A(Hardsigmoid, h_hsig), A(Hardswish, h_hswish),
#undef A
	};
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16 };
	static const int64_t d54[] = { 5, 4 }, st[] = { 4, 1 };

	for (unsigned int k = 0; k < COUNT(acts); k++) {
		for (unsigned int d = 0; d < COUNT(dts); d++) {
			struct nnt *a = nnt_new_transposed(dts[d], 2, D34, -7, 7, 200 + 3 * k + d);
			struct nnt *base = nnt_zeros(dts[d], 2, d54), *o = nnt_view(base, 2, D34, st, 8);
			uint64_t ws;
			aclOpExecutor *ex;

			run(acts[k].ws(a->t, o->t, &ws, &ex), &ws, &ex, acts[k].run);
			expect_tol(o, map1(a, acts[k].f), 12, dts[d]);
			nnt_free(o);
			nnt_free(base);
			nnt_free(a);
		}
	}
}
END_TEST

START_TEST(activation_in_place_forms)
{
	struct nnt *a = nnt_new(ACL_FLOAT16, 3, D234, -4, 4, 230);
	double *e;

	e = map1(a, h_relu);
	NNT_RUN(aclnnInplaceRelu, a->t);
	expect_tol(a, e, 24, ACL_FLOAT16);
	nnt_free(a);
	a = nnt_new(ACL_FLOAT16, 3, D234, -4, 4, 231);
	e = map1(a, h_hsig);
	NNT_RUN(aclnnInplaceHardsigmoid, a->t);
	expect_tol(a, e, 24, ACL_FLOAT16);
	nnt_free(a);
	a = nnt_new(ACL_FLOAT, 3, D234, -4, 4, 232);
	e = map1(a, h_hswish);
	NNT_RUN(aclnnInplaceHardswish, a->t);
	expect_tol(a, e, 24, ACL_FLOAT);
	nnt_free(a);
}
END_TEST

static double g_p1, g_p2, g_p3;
static double h_leaky(double v) { return v > 0 ? v : g_p1 * v; }
static double h_elu(double v) { return v > 0 ? g_p2 * v : g_p2 * g_p1 * (exp(g_p3 * v) - 1); }
static double h_softplus(double v) { return g_p1 * v > g_p2 ? v : log1p(exp(g_p1 * v)) / g_p1; }

START_TEST(activations_with_parameters)
{
	struct nnt *a = nnt_new(ACL_FLOAT, 2, D34, -3, 3, 233), *h = nnt_new_transposed(ACL_FLOAT16, 2, D34, -3, 3, 234);
	struct nnt *o = nnt_zeros(ACL_FLOAT, 2, D34), *oh = nnt_zeros(ACL_FLOAT16, 2, D34);
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -3, 3, 235);
	aclScalar *slope = fsc(0.1), *al = fsc(1.5), *sc = fsc(2), *is = fsc(0.5), *beta = fsc(2), *th = fsc(1);
	aclScalar *one = fsc(1), *twenty = fsc(20);
	double *e;

	g_p1 = 0.1;
	NNT_RUN(aclnnLeakyRelu, a->t, slope, o->t);
	expect_tol(o, map1(a, h_leaky), 12, ACL_FLOAT);
	NNT_RUN(aclnnLeakyRelu, h->t, slope, oh->t);
	expect_tol(oh, map1(h, h_leaky), 12, ACL_FLOAT16);
	NNT_FAILS(NUL, aclnnLeakyRelu, a->t, NULL, o->t);
	NNT_FAILS(INV, aclnnLeakyRelu, i->t, slope, o->t);
	g_p1 = 1.5, g_p2 = 2, g_p3 = 0.5;
	NNT_RUN(aclnnElu, a->t, al, sc, is, o->t);
	expect_tol(o, map1(a, h_elu), 12, ACL_FLOAT);
	NNT_FAILS(NUL, aclnnElu, a->t, al, NULL, is, o->t);
	/* Softplus, a threshold that matters (beta x > 1 gives x) and the default 20. */
	g_p1 = 2, g_p2 = 1;
	NNT_RUN(aclnnSoftplus, a->t, beta, th, o->t);
	expect_tol(o, map1(a, h_softplus), 12, ACL_FLOAT);
	NNT_RUN(aclnnSoftplus, h->t, beta, th, oh->t);
	expect_tol(oh, map1(h, h_softplus), 12, ACL_FLOAT16);
	g_p1 = 1, g_p2 = 20;
	NNT_RUN(aclnnSoftplus, a->t, one, twenty, o->t);
	expect_tol(o, map1(a, h_softplus), 12, ACL_FLOAT);
	NNT_FAILS(NUL, aclnnSoftplus, a->t, NULL, th, o->t);
	/* GeluV2: 0 is erf, 1 tanh, other values refused. */
	NNT_RUN(aclnnGeluV2, a->t, 0, o->t);
	expect_tol(o, map1(a, h_gelu_erf), 12, ACL_FLOAT);
	NNT_RUN(aclnnGeluV2, h->t, 1, oh->t);
	expect_tol(oh, map1(h, h_gelu_tanh), 12, ACL_FLOAT16);
	NNT_FAILS(INV, aclnnGeluV2, a->t, 2, o->t);
	/* In place. */
	g_p1 = 0.1;
	e = map1(a, h_leaky);
	NNT_RUN(aclnnInplaceLeakyRelu, a->t, slope);
	expect_tol(a, e, 12, ACL_FLOAT);
	nnt_sync_host(a);
	g_p1 = 1.5, g_p2 = 2, g_p3 = 0.5;
	e = map1(a, h_elu);
	NNT_RUN(aclnnInplaceElu, a->t, al, sc, is);
	expect_tol(a, e, 12, ACL_FLOAT);
}
END_TEST

static double h_clip(double v) { return fmin(fmax(v, g_p1), g_p2); }
static double h_cmin(double v) { return fmax(v, g_p1); }
static double h_cmax(double v) { return fmin(v, g_p2); }

START_TEST(clamps)
{
	static const int64_t d4[] = { 4 }, d31[] = { 3, 1 };
	struct nnt *a = nnt_new_transposed(ACL_FLOAT, 2, D34, -5, 5, 236), *o = nnt_zeros(ACL_FLOAT, 2, D34);
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -9, 9, 237), *oi = nnt_zeros(ACL_INT32, 2, D34);
	struct nnt *lo = nnt_new(ACL_FLOAT, 1, d4, -3, 0, 238), *hi = nnt_new(ACL_FLOAT, 2, d31, 0, 3, 239);
	aclScalar *smin = fsc(-1.5), *smax = fsc(2), *imin = isc(-4), *imax = isc(3), *big = fsc(-10);
	double *e, *va, *vl, *vh;

	g_p1 = -1.5, g_p2 = 2;
	NNT_RUN(aclnnClamp, a->t, smin, smax, o->t);
	expect_tol(o, map1(a, h_clip), 12, ACL_FLOAT);
	NNT_RUN(aclnnClamp, a->t, smin, NULL, o->t);
	expect_tol(o, map1(a, h_cmin), 12, ACL_FLOAT);
	NNT_RUN(aclnnClamp, a->t, NULL, smax, o->t);
	expect_tol(o, map1(a, h_cmax), 12, ACL_FLOAT);
	NNT_FAILS(NUL, aclnnClamp, a->t, NULL, NULL, o->t);
	NNT_RUN(aclnnClampMin, a->t, smin, o->t);
	expect_tol(o, map1(a, h_cmin), 12, ACL_FLOAT);
	NNT_RUN(aclnnClampMax, a->t, smax, o->t);
	expect_tol(o, map1(a, h_cmax), 12, ACL_FLOAT);
	NNT_FAILS(NUL, aclnnClampMin, a->t, NULL, o->t);
	/* min above max gives max. */
	g_p1 = 2, g_p2 = -10;
	NNT_RUN(aclnnClamp, a->t, smax, big, o->t);
	expect_tol(o, map1(a, h_clip), 12, ACL_FLOAT);
	/* Integers with integer bounds stay integers. */
	g_p1 = -4, g_p2 = 3;
	NNT_RUN(aclnnClamp, i->t, imin, imax, oi->t);
	expect_tol(oi, map1(i, h_clip), 12, ACL_INT32);
	NNT_FAILS(INV, aclnnClamp, i->t, smin, imax, oi->t);
	e = map1(i, h_cmax);
	NNT_RUN(aclnnInplaceClampMax, i->t, imax);
	expect_tol(i, e, 12, ACL_INT32);
	/* Tensor bounds broadcast: a row of minima, a column of maxima. */
	va = bvals(a, 2, D34);
	vl = bvals(lo, 2, D34);
	vh = bvals(hi, 2, D34);
	e = malloc(12 * sizeof(double));
	for (int k = 0; k < 12; k++)
		e[k] = fmin(fmax(va[k], vl[k]), vh[k]);
	NNT_RUN(aclnnClampTensor, a->t, lo->t, hi->t, o->t);
	nnt_expect(o, e, 12, 1e-6, 1e-6);
	for (int k = 0; k < 12; k++)
		e[k] = fmax(va[k], vl[k]);
	NNT_RUN(aclnnClampMinTensor, a->t, lo->t, o->t);
	nnt_expect(o, e, 12, 1e-6, 1e-6);
	NNT_RUN(aclnnClampTensor, a->t, lo->t, NULL, o->t);
	nnt_expect(o, e, 12, 1e-6, 1e-6);
	for (int k = 0; k < 12; k++)
		e[k] = fmin(va[k], vh[k]);
	NNT_RUN(aclnnClampMaxTensor, a->t, hi->t, o->t);
	nnt_expect(o, e, 12, 1e-6, 1e-6);
	NNT_RUN(aclnnInplaceClampMaxTensor, a->t, hi->t);
	nnt_expect(a, e, 12, 1e-6, 1e-6);
	nnt_sync_host(a);
	free(va);
	va = bvals(a, 2, D34);
	for (int k = 0; k < 12; k++)
		e[k] = fmax(va[k], vl[k]);
	NNT_RUN(aclnnInplaceClampMinTensor, a->t, lo->t);
	nnt_expect(a, e, 12, 1e-6, 1e-6);
	NNT_FAILS(NUL, aclnnClampTensor, a->t, NULL, NULL, o->t);
	NNT_FAILS(NUL, aclnnClampMaxTensor, a->t, NULL, o->t);
	free(e);
	free(va);
	free(vl);
	free(vh);
}
END_TEST

START_TEST(cast_and_copy)
{
	static const double v[] = { -2.7, -0.5, 0, 0.49, 1.5, 2.5, 3.7, -3.5, 100.25, 7, -1, 0.1 };
	static const int64_t d4[] = { 4 }, st[] = { 0, 1 }, d54[] = { 5, 4 }, ost[] = { 1, 5 }, d45[] = { 4, 5 };
	struct nnt *a = nnt_from(ACL_FLOAT, 2, D34, v);
	struct nnt *oh = nnt_zeros(ACL_FLOAT16, 2, D34), *oi = nnt_zeros(ACL_INT32, 2, D34);
	struct nnt *ob = nnt_zeros(ACL_BOOL, 2, D34), *ob16 = nnt_zeros(ACL_BF16, 2, D34);
	double e[12];

	NNT_RUN(aclnnCast, a->t, ACL_FLOAT16, oh->t);
	nnt_expect(oh, v, 12, nnt_rtol(ACL_FLOAT16), nnt_atol(ACL_FLOAT16));
	NNT_RUN(aclnnCast, a->t, ACL_BF16, ob16->t);
	nnt_expect(ob16, v, 12, nnt_rtol(ACL_BF16), nnt_atol(ACL_BF16));
	for (int k = 0; k < 12; k++)
		e[k] = trunc(v[k]);
	NNT_RUN(aclnnCast, a->t, ACL_INT32, oi->t);
	nnt_expect(oi, e, 12, 0, 0);
	for (int k = 0; k < 12; k++)
		e[k] = v[k] != 0;
	NNT_RUN(aclnnCast, a->t, ACL_BOOL, ob->t);
	nnt_expect(ob, e, 12, 0, 0);
	NNT_FAILS(INV, aclnnCast, a->t, ACL_INT32, oh->t);
	NNT_FAILS(NUL, aclnnCast, NULL, ACL_INT32, oi->t);

	/* Copy: a broadcast int32 row into a transposed fp16 view of [4, 5]
	 * storage, converted; then a transposed fp32 source into a slice. */
	{
		struct nnt *row = nnt_new(ACL_INT32, 1, d4, -50, 50, 240), *src = nnt_view(row, 2, D34, st, 0);
		struct nnt *dbase = nnt_new(ACL_FLOAT16, 2, d45, 0, 1, 241);
		struct nnt *dst = nnt_view(dbase, 2, D34, ost, 0);
		struct nnt *t = nnt_new_transposed(ACL_FLOAT, 2, D34, -9, 9, 242);
		struct nnt *sbase = nnt_new(ACL_DOUBLE, 2, d54, 0, 1, 243);
		struct nnt *sl = nnt_view(sbase, 2, D34, (const int64_t[]){ 4, 1 }, 4);
		void *before = nnt_snapshot(dbase), *sbefore = nnt_snapshot(sbase);
		double *ve;

		NNT_RUN(aclnnInplaceCopy, dst->t, row->t);
		expect_tol(dst, bvals(src, 2, D34), 12, ACL_FLOAT16);
		nnt_expect_untouched(dbase, before);
		NNT_RUN(aclnnInplaceCopy, sl->t, t->t);
		ve = nnt_values(t);
		expect_tol(sl, ve, 12, ACL_FLOAT);
		nnt_expect_untouched(sbase, sbefore);
		NNT_FAILS(INV, aclnnInplaceCopy, row->t, t->t);
		NNT_FAILS(NUL, aclnnInplaceCopy, dst->t, NULL);
		free(before);
		free(sbefore);
	}
}
END_TEST

START_TEST(fills)
{
	static const int64_t d54[] = { 5, 4 }, st[] = { 4, 1 }, d1[] = { 1 }, d2[] = { 2 };
	struct nnt *base = nnt_new(ACL_FLOAT16, 2, d54, 1, 9, 244), *sl = nnt_view(base, 2, D34, st, 4);
	struct nnt *i64 = nnt_zeros(ACL_INT64, 2, D34), *bl = nnt_zeros(ACL_BOOL, 2, D34);
	struct nnt *one = nnt_from(ACL_FLOAT, 1, d1, (const double[]){ -3.25 });
	struct nnt *two = nnt_from(ACL_FLOAT, 1, d2, (const double[]){ 1, 2 });
	void *before = nnt_snapshot(base);
	double e[12];
	int64_t bigv = (INT64_C(1) << 60) + 1;
	aclScalar *s = fsc(2.5), *big = aclCreateScalar(&bigv, ACL_INT64);

	NNT_RUN(aclnnInplaceFillScalar, sl->t, s);
	for (int k = 0; k < 12; k++)
		e[k] = 2.5;
	nnt_expect(sl, e, 12, 0, 0);
	nnt_expect_untouched(base, before);
	NNT_RUN(aclnnInplaceZero, sl->t);
	for (int k = 0; k < 12; k++)
		e[k] = 0;
	nnt_expect(sl, e, 12, 0, 0);
	nnt_expect_untouched(base, before);
	NNT_RUN(aclnnInplaceOne, bl->t);
	for (int k = 0; k < 12; k++)
		e[k] = 1;
	nnt_expect(bl, e, 12, 0, 0);
	NNT_RUN(aclnnInplaceFillTensor, sl->t, one->t);
	for (int k = 0; k < 12; k++)
		e[k] = -3.25;
	nnt_expect(sl, e, 12, 0, 0);
	nnt_expect_untouched(base, before);
	NNT_FAILS(INV, aclnnInplaceFillTensor, sl->t, two->t);
	NNT_FAILS(NUL, aclnnInplaceFillScalar, sl->t, NULL);
	NNT_FAILS(NUL, aclnnInplaceZero, NULL);
	/* 2^60 + 1 needs all 64 bits: a double would round it. */
	NNT_RUN(aclnnInplaceFillScalar, i64->t, big);
	nnt_sync_host(i64);
	for (int k = 0; k < 12; k++)
		ck_assert_int_eq(((int64_t *)i64->host)[k], bigv);
	free(before);
	aclDestroyScalar(s);
	aclDestroyScalar(big);
}
END_TEST

/* ---- second batch: Fmod, FloorDivide, shrinks, thresholds, Trunc, Frac ------------ */

static double f_fmod(double a, double b, double p) { (void)p; return fmod(a, b); }

START_TEST(fmod_and_floor_divide)
{
	static const int64_t d14[] = { 1, 4 }, d54[] = { 5, 4 }, st[] = { 4, 1 };
	static const double av[] = { 7, -7, 7, -7, 9, -9, 1, 0, 5, -5, 13, -1 };
	static const double dv[] = { 2, 3, -2, -3 };
	struct nnt *i = nnt_from(ACL_INT32, 2, D34, av), *d = nnt_from(ACL_INT32, 2, d14, dv);
	struct nnt *oi = nnt_zeros(ACL_INT32, 2, D34), *of = nnt_zeros(ACL_FLOAT, 2, D34);
	struct nnt *f = nnt_new_transposed(ACL_FLOAT, 2, D34, -9, 9, 300), *g = nnt_new(ACL_FLOAT, 1, d14 + 1, 0.5, 3, 301);
	struct nnt *h = nnt_new(ACL_FLOAT16, 2, D34, -9, 9, 302), *oh = nnt_zeros(ACL_FLOAT16, 2, D34);
	struct nnt *base = nnt_new(ACL_FLOAT, 2, d54, -9, 9, 303), *sl = nnt_view(base, 2, D34, st, 4);
	struct nnt *b = nnt_new(ACL_BOOL, 2, D34, 0, 1, 304), *ob = nnt_zeros(ACL_BOOL, 2, D34);
	struct nnt *d3 = nnt_zeros(ACL_INT32, 1, (const int64_t[]){ 3 });
	aclScalar *s = fsc(-1.5), *is = isc(4);
	void *before = nnt_snapshot(base);
	double *e;

	NNT_RUN(aclnnFmodTensor, i->t, d->t, oi->t);
	expect_tol(oi, ref2(i, d, 2, D34, f_fmod, 0), 12, ACL_INT32);
	NNT_RUN(aclnnFmodTensor, f->t, g->t, of->t);
	expect_tol(of, ref2(f, g, 2, D34, f_fmod, 0), 12, ACL_FLOAT);
	NNT_RUN(aclnnFmodScalar, h->t, s, oh->t);
	expect_tol(oh, ref2s(h, -1.5, f_fmod, 0), 12, ACL_FLOAT16);
	/* int32 with a float scalar: float. */
	NNT_RUN(aclnnFmodScalar, i->t, s, of->t);
	expect_tol(of, ref2s(i, -1.5, f_fmod, 0), 12, ACL_FLOAT);
	NNT_FAILS(INV, aclnnFmodScalar, i->t, s, oi->t);
	NNT_RUN(aclnnFloorDivide, i->t, d->t, oi->t);
	expect_tol(oi, ref2(i, d, 2, D34, f_floor, 0), 12, ACL_INT32);
	NNT_RUN(aclnnFloorDivide, f->t, g->t, of->t);
	expect_tol(of, ref2(f, g, 2, D34, f_floor, 0), 12, ACL_FLOAT);
	NNT_RUN(aclnnFloorDivides, h->t, s, oh->t);
	expect_tol(oh, ref2s(h, -1.5, f_floor, 0), 12, ACL_FLOAT16);
	NNT_RUN(aclnnFloorDivides, i->t, is, oi->t);
	expect_tol(oi, ref2s(i, 4, f_floor, 0), 12, ACL_INT32);
	/* In place: on a slice (the rest untouched), other broadcast. */
	e = ref2s(sl, -1.5, f_fmod, 0);
	NNT_RUN(aclnnInplaceFmodScalar, sl->t, s);
	expect_tol(sl, e, 12, ACL_FLOAT);
	nnt_expect_untouched(base, before);
	nnt_sync_host(sl);
	e = ref2(sl, g, 2, D34, f_floor, 0);
	NNT_RUN(aclnnInplaceFloorDivide, sl->t, g->t);
	expect_tol(sl, e, 12, ACL_FLOAT);
	nnt_expect_untouched(base, before);
	e = ref2(i, d, 2, D34, f_fmod, 0);
	NNT_RUN(aclnnInplaceFmodTensor, i->t, d->t);
	expect_tol(i, e, 12, ACL_INT32);
	nnt_sync_host(i);
	e = ref2s(i, 4, f_floor, 0);
	NNT_RUN(aclnnInplaceFloorDivides, i->t, is);
	expect_tol(i, e, 12, ACL_INT32);
	/* Refusals: NULLs, shapes that do not broadcast, bool, an in-place other
	 * that would grow selfRef. */
	NNT_FAILS(NUL, aclnnFmodTensor, NULL, d->t, oi->t);
	NNT_FAILS(NUL, aclnnFloorDivides, i->t, NULL, oi->t);
	NNT_FAILS(INV, aclnnFmodTensor, i->t, d3->t, oi->t);
	NNT_FAILS(INV, aclnnFloorDivide, b->t, b->t, ob->t);
	NNT_FAILS(INV, aclnnInplaceFmodTensor, d->t, i->t);
	free(before);
	aclDestroyScalar(s);
	aclDestroyScalar(is);
}
END_TEST

#define SELU_A 1.6732632423543772
#define SELU_S 1.0507009873554805
static double h_selu(double v) { return SELU_S * (v > 0 ? v : SELU_A * (exp(v) - 1)); }
static double h_celu(double v) { return fmax(0, v) + fmin(0, g_p1 * (exp(v / g_p1) - 1)); }
static double h_softshrink(double v) { return v > g_p1 ? v - g_p1 : v < -g_p1 ? v + g_p1 : 0; }
static double h_hardshrink(double v) { return fabs(v) > g_p1 ? v : 0; }
static double h_threshold(double v) { return v > g_p1 ? v : g_p2; }

START_TEST(selu_celu_shrinks_threshold_hardtanh)
{
	static const int64_t d54[] = { 5, 4 }, st[] = { 4, 1 };
	struct nnt *a = nnt_new_transposed(ACL_FLOAT, 2, D34, -3, 3, 310), *o = nnt_zeros(ACL_FLOAT, 2, D34);
	struct nnt *h = nnt_new(ACL_FLOAT16, 2, D34, -3, 3, 311), *oh = nnt_zeros(ACL_FLOAT16, 2, D34);
	struct nnt *bf = nnt_new(ACL_BF16, 2, D34, -3, 3, 312);
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -9, 9, 313), *oi = nnt_zeros(ACL_INT32, 2, D34);
	struct nnt *base = nnt_zeros(ACL_FLOAT, 2, d54), *os = nnt_view(base, 2, D34, st, 8);
	aclScalar *al = fsc(1.5), *zero = fsc(0), *half = fsc(0.5), *neg = fsc(-0.5);
	aclScalar *th = fsc(0.25), *val = fsc(-2), *ith = isc(1), *ival = isc(-7), *smin = fsc(-1), *smax = fsc(2);
	double *e;

	NNT_RUN(aclnnSelu, a->t, os->t);
	expect_tol(os, map1(a, h_selu), 12, ACL_FLOAT);
	NNT_RUN(aclnnSelu, h->t, oh->t);
	expect_tol(oh, map1(h, h_selu), 12, ACL_FLOAT16);
	NNT_RUN(aclnnSelu, bf->t, o->t);
	expect_tol(o, map1(bf, h_selu), 12, ACL_BF16);
	NNT_FAILS(INV, aclnnSelu, i->t, oi->t);
	g_p1 = 1.5;
	NNT_RUN(aclnnCelu, a->t, al, o->t);
	expect_tol(o, map1(a, h_celu), 12, ACL_FLOAT);
	NNT_RUN(aclnnCelu, h->t, al, oh->t);
	expect_tol(oh, map1(h, h_celu), 12, ACL_FLOAT16);
	NNT_FAILS(INV, aclnnCelu, a->t, zero, o->t);
	NNT_FAILS(NUL, aclnnCelu, a->t, NULL, o->t);
	g_p1 = 0.5;
	NNT_RUN(aclnnSoftshrink, a->t, half, os->t);
	expect_tol(os, map1(a, h_softshrink), 12, ACL_FLOAT);
	NNT_RUN(aclnnSoftshrink, h->t, half, oh->t);
	expect_tol(oh, map1(h, h_softshrink), 12, ACL_FLOAT16);
	NNT_FAILS(INV, aclnnSoftshrink, a->t, neg, o->t);
	NNT_RUN(aclnnHardshrink, a->t, half, o->t);
	expect_tol(o, map1(a, h_hardshrink), 12, ACL_FLOAT);
	NNT_RUN(aclnnHardshrink, bf->t, half, o->t);
	expect_tol(o, map1(bf, h_hardshrink), 12, ACL_BF16);
	NNT_FAILS(NUL, aclnnHardshrink, NULL, half, o->t);
	g_p1 = 0.25, g_p2 = -2;
	NNT_RUN(aclnnThreshold, a->t, th, val, os->t);
	expect_tol(os, map1(a, h_threshold), 12, ACL_FLOAT);
	NNT_RUN(aclnnThreshold, h->t, th, val, oh->t);
	expect_tol(oh, map1(h, h_threshold), 12, ACL_FLOAT16);
	g_p1 = 1, g_p2 = -7;
	NNT_RUN(aclnnThreshold, i->t, ith, ival, oi->t);
	expect_tol(oi, map1(i, h_threshold), 12, ACL_INT32);
	NNT_FAILS(NUL, aclnnThreshold, i->t, ith, NULL, oi->t);
	NNT_FAILS(INV, aclnnThreshold, a->t, th, val, oi->t);
	g_p1 = -1, g_p2 = 2;
	NNT_RUN(aclnnHardtanh, a->t, smin, smax, o->t);
	expect_tol(o, map1(a, h_clip), 12, ACL_FLOAT);
	NNT_RUN(aclnnHardtanh, h->t, smin, smax, oh->t);
	expect_tol(oh, map1(h, h_clip), 12, ACL_FLOAT16);
	NNT_FAILS(NUL, aclnnHardtanh, a->t, NULL, smax, o->t);
	/* In place, the fp32 one transposed. */
	e = map1(a, h_clip);
	NNT_RUN(aclnnInplaceHardtanh, a->t, smin, smax);
	expect_tol(a, e, 12, ACL_FLOAT);
	nnt_sync_host(a);
	e = map1(a, h_selu);
	NNT_RUN(aclnnInplaceSelu, a->t);
	expect_tol(a, e, 12, ACL_FLOAT);
	nnt_sync_host(a);
	g_p1 = 1.5;
	e = map1(h, h_celu);
	NNT_RUN(aclnnInplaceCelu, h->t, al);
	expect_tol(h, e, 12, ACL_FLOAT16);
	g_p1 = 1, g_p2 = -7;
	e = map1(i, h_threshold);
	NNT_RUN(aclnnInplaceThreshold, i->t, ith, ival);
	expect_tol(i, e, 12, ACL_INT32);
	aclDestroyScalar(al);
	aclDestroyScalar(zero);
	aclDestroyScalar(half);
	aclDestroyScalar(neg);
	aclDestroyScalar(th);
	aclDestroyScalar(val);
	aclDestroyScalar(ith);
	aclDestroyScalar(ival);
	aclDestroyScalar(smin);
	aclDestroyScalar(smax);
}
END_TEST

static double h_frac(double v) { return v - trunc(v); }

START_TEST(inf_tests_trunc_frac)
{
	static const int64_t d6[] = { 6 }, d54[] = { 5, 4 }, st[] = { 4, 1 };
	static const double inf_v[] = { 1, INFINITY, -INFINITY, NAN, -0.0, 65504 };
	static const double pos_e[] = { 0, 1, 0, 0, 0, 0 }, neg_e[] = { 0, 0, 1, 0, 0, 0 }, none[] = { 0, 0, 0, 0, 0, 0 };
	struct nnt *fi = nnt_from(ACL_FLOAT, 1, d6, inf_v), *hi = nnt_from(ACL_FLOAT16, 1, d6, inf_v);
	struct nnt *ii = nnt_from(ACL_INT32, 1, d6, (const double[]){ 1, 2, 3, 4, 5, 6 });
	struct nnt *ob = nnt_zeros(ACL_BOOL, 1, d6), *of6 = nnt_zeros(ACL_FLOAT, 1, d6);
	struct nnt *a = nnt_new_transposed(ACL_FLOAT, 2, D34, -5, 5, 320), *o = nnt_zeros(ACL_FLOAT, 2, D34);
	struct nnt *h = nnt_new(ACL_FLOAT16, 2, D34, -5, 5, 321), *oh = nnt_zeros(ACL_FLOAT16, 2, D34);
	struct nnt *i = nnt_new(ACL_INT32, 2, D34, -9, 9, 322), *oi = nnt_zeros(ACL_INT32, 2, D34);
	struct nnt *base = nnt_new(ACL_FLOAT, 2, d54, -5, 5, 323), *sl = nnt_view(base, 2, D34, st, 4);
	void *before = nnt_snapshot(base);
	double *e;

	NNT_RUN(aclnnIsPosInf, fi->t, ob->t);
	nnt_expect(ob, pos_e, 6, 0, 0);
	NNT_RUN(aclnnIsNegInf, fi->t, ob->t);
	nnt_expect(ob, neg_e, 6, 0, 0);
	NNT_RUN(aclnnIsNegInf, hi->t, of6->t);
	nnt_expect(of6, neg_e, 6, 0, 0);
	NNT_RUN(aclnnIsPosInf, ii->t, ob->t);
	nnt_expect(ob, none, 6, 0, 0);
	NNT_FAILS(NUL, aclnnIsPosInf, fi->t, NULL);
	NNT_RUN(aclnnTrunc, a->t, o->t);
	expect_tol(o, map1(a, trunc), 12, ACL_FLOAT);
	NNT_RUN(aclnnTrunc, h->t, oh->t);
	expect_tol(oh, map1(h, trunc), 12, ACL_FLOAT16);
	NNT_RUN(aclnnTrunc, i->t, oi->t);
	expect_tol(oi, map1(i, trunc), 12, ACL_INT32);
	NNT_RUN(aclnnFrac, a->t, o->t);
	expect_tol(o, map1(a, h_frac), 12, ACL_FLOAT);
	NNT_RUN(aclnnFrac, h->t, oh->t);
	expect_tol(oh, map1(h, h_frac), 12, ACL_FLOAT16);
	NNT_FAILS(INV, aclnnFrac, i->t, oi->t);
	NNT_FAILS(INV, aclnnTrunc, a->t, oi->t);
	e = map1(sl, h_frac);
	NNT_RUN(aclnnInplaceFrac, sl->t);
	expect_tol(sl, e, 12, ACL_FLOAT);
	nnt_expect_untouched(base, before);
	e = map1(h, trunc);
	NNT_RUN(aclnnInplaceTrunc, h->t);
	expect_tol(h, e, 12, ACL_FLOAT16);
	/* BitwiseNot: -1 - x for signed (a transposed int16 too), 255 - x for uint8, not for bool. */
	{
		struct nnt *i16 = nnt_new_transposed(ACL_INT16, 2, D34, -300, 300, 324), *o16 = nnt_zeros(ACL_INT16, 2, D34);
		struct nnt *u8 = nnt_new(ACL_UINT8, 2, D34, 0, 255, 325), *ou = nnt_zeros(ACL_UINT8, 2, D34);
		struct nnt *bb = nnt_new(ACL_BOOL, 2, D34, 0, 1, 326), *obb = nnt_zeros(ACL_BOOL, 2, D34);
		double *vi = nnt_values(i), *vs = nnt_values(i16), *vu = nnt_values(u8), *vb = nnt_values(bb);

		for (int k = 0; k < 12; k++) {
			vi[k] = -1 - vi[k];
			vs[k] = -1 - vs[k];
			vu[k] = 255 - vu[k];
			vb[k] = vb[k] == 0;
		}
		NNT_RUN(aclnnBitwiseNot, i->t, oi->t);
		nnt_expect(oi, vi, 12, 0, 0);
		NNT_RUN(aclnnBitwiseNot, i16->t, o16->t);
		nnt_expect(o16, vs, 12, 0, 0);
		NNT_RUN(aclnnBitwiseNot, u8->t, ou->t);
		nnt_expect(ou, vu, 12, 0, 0);
		NNT_RUN(aclnnBitwiseNot, bb->t, obb->t);
		nnt_expect(obb, vb, 12, 0, 0);
		NNT_FAILS(INV, aclnnBitwiseNot, a->t, o->t);
		NNT_FAILS(NUL, aclnnBitwiseNot, i->t, NULL);
		free(vi);
		free(vs);
		free(vu);
		free(vb);
	}
	free(before);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("aclnn_math");
	TCase *tc = acl_tcase("math", true, 60);

	tcase_add_test(tc, add_every_type_with_alpha);
	tcase_add_test(tc, add_views_broadcast_and_sliced_out);
	tcase_add_test(tc, add_promotion_and_out_types);
	tcase_add_test(tc, add_inplace_and_aliased_out);
	tcase_add_test(tc, addn_lists);
	tcase_add_test(tc, sub_and_rsub);
	tcase_add_test(tc, mul_and_div);
	tcase_add_test(tc, divmod_rounding_modes);
	tcase_add_test(tc, pow_forms);
	tcase_add_test(tc, maximum_minimum_remainder);
	tcase_add_test(tc, binary_bad_arguments);
	tcase_add_test(tc, comparisons_every_form);
	tcase_add_test(tc, comparison_promotion_and_refusals);
	tcase_add_test(tc, logical_functions);
	tcase_add_test(tc, bitwise_every_form);
	tcase_add_test(tc, bitwise_promotion_views_and_refusals);
	tcase_add_test(tc, swhere_and_isinf);
	tcase_add_test(tc, unary_float_functions);
	tcase_add_test(tc, unary_integer_inputs);
	tcase_add_test(tc, expm1_near_zero_and_integers);
	tcase_add_test(tc, activations);
	tcase_add_test(tc, activation_in_place_forms);
	tcase_add_test(tc, activations_with_parameters);
	tcase_add_test(tc, clamps);
	tcase_add_test(tc, cast_and_copy);
	tcase_add_test(tc, fills);
	tcase_add_test(tc, fmod_and_floor_divide);
	tcase_add_test(tc, selu_celu_shrinks_threshold_hardtanh);
	tcase_add_test(tc, inf_tests_trunc_frac);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
