// SPDX-License-Identifier: MIT
/*
 * test_aclnn_shape.c - aclnn's reductions, shape functions and indexing
 * (lib/aclnn/ops/nn_reduce.c, nn_move.c, nn_index.c) in the guest.
 *
 * Results are checked against host formulas written here (a reduction
 * loop, index arithmetic for every move and gather), over inputs that are
 * contiguous, transposed, sliced (an offset into a larger storage) and
 * broadcast (a stride of 0), in fp32, fp16 and an integer type, with outs
 * that are views too. Bad arguments fail with their exact codes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "nnt.h"

#define D(...) ((const int64_t[]){ __VA_ARGS__ })
#define NV(...) (sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t))
#define IA(...) aclCreateIntArray(D(__VA_ARGS__), NV(__VA_ARGS__))
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static aclIntArray *ia_empty(void)
{
	static const int64_t none[1];

	return aclCreateIntArray(none, 0);
}

/* ---- inputs of every layout ---------------------------------------------------- */

enum layout { L_DENSE, L_TRANSPOSED, L_SLICED, L_BROADCAST, L_COUNT };
static const char *const layout_name[] = { "dense", "transposed", "sliced", "broadcast" };

/*
 * A tensor of @dims in layout @l: dense; transposed storage (rank >= 2;
 * else dense); a window from element [1, 1, ...] of a storage one larger
 * in every dimension; or dimension 0 broadcast (stride 0) from a storage
 * with one row.
 */
static struct nnt *mk(enum layout l, aclDataType dt, int nd, const int64_t *dims, double lo, double hi,
		      unsigned int seed)
{
	int64_t bd[NNT_MAX_RANK], st[NNT_MAX_RANK], s = 1, off = 0;
	struct nnt *b;

	if (l == L_TRANSPOSED && nd >= 2)
		return nnt_new_transposed(dt, nd, dims, lo, hi, seed);
	if (l == L_SLICED) {
		for (int i = nd - 1; i >= 0; i--) {
			bd[i] = dims[i] + 1;
			st[i] = s;
			off += s;
			s *= bd[i];
		}
		b = nnt_new(dt, nd, bd, lo, hi, seed);
		return nnt_view(b, nd, dims, st, off);
	}
	if (l == L_BROADCAST && nd >= 1) {
		memcpy(bd, dims, sizeof(*dims) * (size_t)nd);
		bd[0] = 1;
		for (int i = nd - 1; i >= 0; i--) {
			st[i] = i ? s : 0;
			s *= bd[i];
		}
		b = nnt_new(dt, nd, bd, lo, hi, seed);
		return nnt_view(b, nd, dims, st, 0);
	}
	return nnt_new(dt, nd, dims, lo, hi, seed);
}

/* Free @t and the storage it views. */
static void fr(struct nnt *t)
{
	struct nnt *b = t ? t->base : NULL;

	nnt_free(t);
	if (b)
		nnt_free(b);
}

/* An output of @dims viewing transposed storage (its last two dimensions
 * swapped in memory): a non-contiguous out. */
static struct nnt *out_transposed(aclDataType dt, int nd, const int64_t *dims)
{
	int64_t sd[NNT_MAX_RANK], st[NNT_MAX_RANK], s = 1;
	struct nnt *b;

	if (nd < 2)
		return nnt_zeros(dt, nd, dims);
	memcpy(sd, dims, sizeof(*dims) * (size_t)nd);
	sd[nd - 1] = dims[nd - 2];
	sd[nd - 2] = dims[nd - 1];
	for (int i = nd - 1; i >= 0; i--) {
		st[i] = s;
		s *= sd[i];
	}
	b = nnt_zeros(dt, nd, sd);
	/* view dimension nd-1 walks storage dimension nd-2 and back */
	{
		int64_t t = st[nd - 1];

		st[nd - 1] = st[nd - 2];
		st[nd - 2] = t;
	}
	return nnt_view(b, nd, dims, st, 0);
}

/* Row-major coordinates of linear index @i over @dims. */
static void coords(uint64_t i, int nd, const int64_t *dims, int64_t *c)
{
	for (int k = nd - 1; k >= 0; k--) {
		c[k] = dims[k] ? (int64_t)(i % (uint64_t)dims[k]) : 0;
		i = dims[k] ? i / (uint64_t)dims[k] : 0;
	}
}

static uint64_t lin(int nd, const int64_t *dims, const int64_t *c)
{
	uint64_t i = 0;

	for (int k = 0; k < nd; k++)
		i = i * (uint64_t)dims[k] + (uint64_t)c[k];
	return i;
}

static uint64_t count_of(int nd, const int64_t *dims)
{
	uint64_t n = 1;

	for (int k = 0; k < nd; k++)
		n *= (uint64_t)dims[k];
	return n;
}

/* ---- the host reduction ------------------------------------------------------------ */

enum hop { H_SUM, H_MEAN, H_PROD, H_MAX, H_MIN, H_ALL, H_ANY, H_ARGMAX, H_ARGMIN, H_L1, H_L2, H_LINF };

/* Reduce dense @v (@nd, @dims) over the axes of bit mask @mask by @op
 * (arg ops: along one axis, the first extreme's index). The result in
 * order (keepdim changes no order); *@cnt its count. Integer means
 * truncate when @trunc. */
static double *host_reduce(const double *v, int nd, const int64_t *dims, unsigned int mask, enum hop op, bool trunc,
			   uint64_t *cnt)
{
	int64_t od[NNT_MAX_RANK], c[NNT_MAX_RANK], oc[NNT_MAX_RANK];
	int on = 0;
	uint64_t n = count_of(nd, dims), m, per;
	double *r, *best;

	for (int k = 0; k < nd; k++)
		if (!(mask & (1u << k)))
			od[on++] = dims[k];
	m = count_of(on, od);
	per = m ? n / m : 0;
	r = calloc(m ? m : 1, sizeof(*r));
	best = calloc(m ? m : 1, sizeof(*best));
	for (uint64_t o = 0; o < m; o++)
		r[o] = op == H_PROD || op == H_ALL ? 1 : op == H_MAX || op == H_ARGMAX ? -INFINITY
			: op == H_MIN || op == H_ARGMIN					? INFINITY
											: 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t o;
		int k2 = 0;
		int64_t at = 0;
		double x = v[i];

		coords(i, nd, dims, c);
		for (int k = 0; k < nd; k++)
			if (!(mask & (1u << k)))
				oc[k2++] = c[k];
			else
				at = c[k];
		o = lin(on, od, oc);
		switch (op) {
		case H_SUM:
		case H_MEAN:
			r[o] += x;
			break;
		case H_L1:
			r[o] += fabs(x);
			break;
		case H_L2:
			r[o] += x * x;
			break;
		case H_LINF:
			r[o] = fmax(r[o], fabs(x));
			break;
		case H_PROD:
			r[o] *= x;
			break;
		case H_MAX:
			r[o] = fmax(r[o], x);
			break;
		case H_MIN:
			r[o] = fmin(r[o], x);
			break;
		case H_ALL:
			r[o] = r[o] && x != 0;
			break;
		case H_ANY:
			r[o] = r[o] || x != 0;
			break;
		case H_ARGMAX:
		case H_ARGMIN:
			/* the first extreme: strictly better replaces */
			if ((op == H_ARGMAX && x > r[o]) || (op == H_ARGMIN && x < r[o])) {
				r[o] = x;
				best[o] = (double)at;
			}
			break;
		}
	}
	for (uint64_t o = 0; o < m; o++) {
		if (op == H_MEAN)
			r[o] = trunc ? (double)(int64_t)(r[o] / (double)per) : r[o] / (double)per;
		else if (op == H_L2)
			r[o] = sqrt(r[o]);
		else if (op == H_ARGMAX || op == H_ARGMIN)
			r[o] = best[o];
	}
	free(best);
	*cnt = m;
	return r;
}

/* Axis list @axes (@n; none: every axis) as a mask over rank @nd. */
static unsigned int mask_of(const int64_t *axes, int n, int nd)
{
	unsigned int m = 0;

	for (int i = 0; i < n; i++)
		m |= 1u << (axes[i] < 0 ? axes[i] + nd : axes[i]);
	return n ? m : (1u << nd) - 1;
}

/* The reduced shape of @dims over @mask. */
static int red_dims(int nd, const int64_t *dims, unsigned int mask, bool keep, int64_t *od)
{
	int on = 0;

	for (int k = 0; k < nd; k++)
		if (!(mask & (1u << k)))
			od[on++] = dims[k];
		else if (keep)
			od[on++] = 1;
	return on;
}

/* ---- reductions ---------------------------------------------------------------------- */

enum red_fn { R_SUM, R_MEAN, R_AMAX, R_AMIN, R_ALL, R_ANY };

static void run_red(enum red_fn f, struct nnt *self, aclIntArray *dims, bool keep, aclDataType dt, struct nnt *out)
{
	switch (f) {
	case R_SUM:
		NNT_RUN(aclnnReduceSum, self->t, dims, keep, dt, out->t);
		break;
	case R_MEAN:
		NNT_RUN(aclnnMean, self->t, dims, keep, dt, out->t);
		break;
	case R_AMAX:
		NNT_RUN(aclnnAmax, self->t, dims, keep, out->t);
		break;
	case R_AMIN:
		NNT_RUN(aclnnAmin, self->t, dims, keep, out->t);
		break;
	case R_ALL:
		NNT_RUN(aclnnAll, self->t, dims, keep, out->t);
		break;
	case R_ANY:
		NNT_RUN(aclnnAny, self->t, dims, keep, out->t);
		break;
	}
}

/* @f over every layout, the axis lists [1], [-1, 0], [] and keepdim both
 * ways, self of @dt computing in @ct into an out of @ot. */
static void check_reduction(enum red_fn f, enum hop op, aclDataType dt, aclDataType ct, aclDataType ot)
{
	static const int64_t dims[] = { 3, 4, 5 };
	static const int64_t ax1[] = { 1 }, ax2[] = { -1, 0 };
	static const struct {
		const int64_t *v;
		int n;
	} axes[] = { { ax1, 1 }, { ax2, 2 }, { NULL, 0 } };
	bool ints = !(ct == ACL_FLOAT || ct == ACL_FLOAT16 || ct == ACL_DOUBLE || ct == ACL_BF16);

	for (int l = 0; l < L_COUNT; l++)
		for (unsigned int a = 0; a < NELEM(axes); a++)
			for (int keep = 0; keep < 2; keep++) {
				/* zeros among the values for all/any */
				double lo = f == R_ALL || f == R_ANY ? 0 : ints ? -20 : -2;
				double hi = f == R_ALL || f == R_ANY ? 1 : ints ? 20 : 2;
				struct nnt *self = mk((enum layout)l, dt, 3, dims, lo, hi, 11 + (unsigned int)l);
				unsigned int mask = mask_of(axes[a].v, axes[a].n, 3);
				int64_t od[3];
				int on = red_dims(3, dims, mask, keep, od);
				struct nnt *out = nnt_zeros(ot, on, od);
				aclIntArray *ia = axes[a].n ? aclCreateIntArray(axes[a].v, (uint64_t)axes[a].n) : ia_empty();
				double *v = nnt_values(self), *e;
				uint64_t cnt;

				run_red(f, self, ia, keep, ct, out);
				e = host_reduce(v, 3, dims, mask, op, ints, &cnt);
				ck_assert_msg(cnt == nnt_count(out), "%s: count", layout_name[l]);
				nnt_expect(out, e, cnt, 2 * nnt_rtol(dt) + nnt_rtol(ot), nnt_atol(dt) + nnt_atol(ot));
				free(v);
				free(e);
				aclDestroyIntArray(ia);
				fr(out);
				fr(self);
			}
}

START_TEST(reduce_sum_over_dims_of_every_layout)
{
	check_reduction(R_SUM, H_SUM, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
	check_reduction(R_SUM, H_SUM, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16);
	check_reduction(R_SUM, H_SUM, ACL_INT32, ACL_INT32, ACL_INT32);
	/* dtype: int32 summed as int64, fp16 as fp32 */
	check_reduction(R_SUM, H_SUM, ACL_INT32, ACL_INT64, ACL_INT64);
	check_reduction(R_SUM, H_SUM, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT);
}
END_TEST

START_TEST(mean_over_dims_of_every_layout)
{
	check_reduction(R_MEAN, H_MEAN, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
	check_reduction(R_MEAN, H_MEAN, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT16);
	/* integer means truncate */
	check_reduction(R_MEAN, H_MEAN, ACL_INT32, ACL_INT32, ACL_INT32);
}
END_TEST

START_TEST(amax_amin_over_dims_of_every_layout)
{
	check_reduction(R_AMAX, H_MAX, ACL_FLOAT, ACL_DT_UNDEFINED, ACL_FLOAT);
	check_reduction(R_AMAX, H_MAX, ACL_FLOAT16, ACL_DT_UNDEFINED, ACL_FLOAT16);
	check_reduction(R_AMIN, H_MIN, ACL_INT32, ACL_DT_UNDEFINED, ACL_INT32);
	check_reduction(R_AMIN, H_MIN, ACL_FLOAT, ACL_DT_UNDEFINED, ACL_FLOAT);
}
END_TEST

START_TEST(all_any_over_dims_and_empty_axes)
{
	check_reduction(R_ALL, H_ALL, ACL_FLOAT, ACL_DT_UNDEFINED, ACL_BOOL);
	check_reduction(R_ANY, H_ANY, ACL_INT32, ACL_DT_UNDEFINED, ACL_BOOL);
	check_reduction(R_ALL, H_ALL, ACL_BOOL, ACL_DT_UNDEFINED, ACL_BOOL);
	{
		/* an empty axis: all of nothing is true, any false */
		struct nnt *self = nnt_zeros(ACL_FLOAT, 2, D(3, 0));
		struct nnt *o1 = nnt_zeros(ACL_BOOL, 1, D(3)), *o2 = nnt_zeros(ACL_BOOL, 1, D(3));
		aclIntArray *ia = IA(1);
		const double t[] = { 1, 1, 1 }, f[] = { 0, 0, 0 };

		NNT_RUN(aclnnAll, self->t, ia, false, o1->t);
		NNT_RUN(aclnnAny, self->t, ia, false, o2->t);
		nnt_expect(o1, t, 3, 0, 0);
		nnt_expect(o2, f, 3, 0, 0);
	}
}
END_TEST

START_TEST(max_min_prod_of_every_element)
{
	for (int l = 0; l < L_COUNT; l++) {
		static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

		for (unsigned int k = 0; k < NELEM(dts); k++) {
			aclDataType dt = dts[k];
			struct nnt *self = mk((enum layout)l, dt, 2, D(3, 4), -3, 3, 5);
			struct nnt *mx = nnt_zeros(dt, 0, NULL), *mn = nnt_zeros(dt, 0, NULL);
			double *v = nnt_values(self), *e;
			uint64_t cnt;

			NNT_RUN(aclnnMax, self->t, mx->t);
			NNT_RUN(aclnnMin, self->t, mn->t);
			e = host_reduce(v, 2, D(3, 4), 3, H_MAX, false, &cnt);
			nnt_expect(mx, e, 1, 0, 0);
			free(e);
			e = host_reduce(v, 2, D(3, 4), 3, H_MIN, false, &cnt);
			nnt_expect(mn, e, 1, 0, 0);
			free(e);
			free(v);
			fr(mx);
			fr(mn);
			fr(self);
		}
		{
			/* products of values near 1 (fp32), of small integers as int64 */
			struct nnt *self = mk((enum layout)l, ACL_FLOAT, 2, D(3, 4), 0.5, 1.5, 7);
			struct nnt *p = nnt_zeros(ACL_FLOAT, 0, NULL), *pd = nnt_zeros(ACL_FLOAT, 2, D(3, 1));
			struct nnt *si = mk((enum layout)l, ACL_INT32, 2, D(3, 4), -3, 3, 8);
			struct nnt *pi = nnt_zeros(ACL_INT64, 1, D(4));
			double *v = nnt_values(self), *vi = nnt_values(si), *e;
			uint64_t cnt;

			NNT_RUN(aclnnProd, self->t, ACL_FLOAT, p->t);
			NNT_RUN(aclnnProdDim, self->t, -1, true, ACL_FLOAT, pd->t);
			NNT_RUN(aclnnProdDim, si->t, 0, false, ACL_INT64, pi->t);
			e = host_reduce(v, 2, D(3, 4), 3, H_PROD, false, &cnt);
			nnt_expect(p, e, 1, 1e-5, 1e-6);
			free(e);
			e = host_reduce(v, 2, D(3, 4), 2, H_PROD, false, &cnt);
			nnt_expect(pd, e, 3, 1e-5, 1e-6);
			free(e);
			e = host_reduce(vi, 2, D(3, 4), 1, H_PROD, false, &cnt);
			nnt_expect(pi, e, 4, 0, 0);
			free(e);
			free(v);
			free(vi);
			fr(p);
			fr(pd);
			fr(pi);
			fr(si);
			fr(self);
		}
	}
}
END_TEST

/* Distinct values: a permutation of 0 .. n-1, scaled (no ties: argmax is
 * unambiguous). */
static struct nnt *distinct(aclDataType dt, int nd, const int64_t *dims, double scale, unsigned int seed)
{
	uint64_t n = count_of(nd, dims);
	double *v = malloc(n * sizeof(*v));
	struct nnt *t;

	for (uint64_t i = 0; i < n; i++)
		v[i] = (double)i;
	srand(seed);
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = (uint64_t)rand() % (i + 1);
		double s = v[i];

		v[i] = v[j];
		v[j] = s;
	}
	for (uint64_t i = 0; i < n; i++)
		v[i] = (v[i] - (double)n / 2) * scale;
	t = nnt_from(dt, nd, dims, v);
	free(v);
	return t;
}

/* @base (dense) seen transposed: a [d1, d0] view of a [d0, d1] storage. */
static struct nnt *transposed_view(struct nnt *base)
{
	return nnt_view(base, 2, D(base->dims[1], base->dims[0]), D(1, base->dims[1]), 0);
}

START_TEST(argmax_argmin_maxdim_mindim_along_a_dim)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

	for (unsigned int k = 0; k < NELEM(dts); k++)
		for (int tr = 0; tr < 2; tr++)
			for (int dim = -2; dim < 2; dim++)
				for (int keep = 0; keep < 2; keep++) {
					struct nnt *b = distinct(dts[k], 2, D(5, 6), dts[k] == ACL_INT32 ? 1 : 0.5, 3 + k);
					struct nnt *self = tr ? transposed_view(b) : b;
					int nd = 2, ax = dim < 0 ? dim + nd : dim;
					int64_t od[2];
					int on = red_dims(nd, self->dims, 1u << ax, keep, od);
					struct nnt *am = nnt_zeros(ACL_INT64, on, od), *an = nnt_zeros(ACL_INT32, on, od);
					struct nnt *mv = nnt_zeros(dts[k], on, od), *mi = nnt_zeros(ACL_INT64, on, od);
					struct nnt *nv = nnt_zeros(dts[k], on, od), *ni = nnt_zeros(ACL_INT32, on, od);
					double *v = nnt_values(self), *e;
					uint64_t cnt;

					NNT_RUN(aclnnArgMax, self->t, dim, keep, am->t);
					NNT_RUN(aclnnArgMin, self->t, dim, keep, an->t);
					NNT_RUN(aclnnMaxDim, self->t, dim, keep, mv->t, mi->t);
					NNT_RUN(aclnnMinDim, self->t, dim, keep, nv->t, ni->t);
					e = host_reduce(v, nd, self->dims, 1u << ax, H_ARGMAX, false, &cnt);
					nnt_expect(am, e, cnt, 0, 0);
					nnt_expect(mi, e, cnt, 0, 0);
					free(e);
					e = host_reduce(v, nd, self->dims, 1u << ax, H_ARGMIN, false, &cnt);
					nnt_expect(an, e, cnt, 0, 0);
					nnt_expect(ni, e, cnt, 0, 0);
					free(e);
					e = host_reduce(v, nd, self->dims, 1u << ax, H_MAX, false, &cnt);
					nnt_expect(mv, e, cnt, 0, 0);
					free(e);
					e = host_reduce(v, nd, self->dims, 1u << ax, H_MIN, false, &cnt);
					nnt_expect(nv, e, cnt, 0, 0);
					free(e);
					free(v);
					fr(am);
					fr(an);
					fr(mv);
					fr(mi);
					fr(nv);
					fr(ni);
					if (tr)
						nnt_free(self);
					nnt_free(b);
				}
}
END_TEST

START_TEST(cumsum_along_a_dim_with_dtype_exclusive_reverse)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

	for (unsigned int k = 0; k < NELEM(dts); k++)
		for (int l = 0; l < L_COUNT; l++)
			for (int dim = -1; dim < 2; dim++)
				for (int mode = 0; mode < 4; mode++) {
					aclDataType ot = dts[k] == ACL_INT32 && mode == 0 ? ACL_INT64 : dts[k];
					struct nnt *self = mk((enum layout)l, dts[k], 2, D(4, 5), -4, 4, 2 + (unsigned)l);
					struct nnt *out = nnt_zeros(ot, 2, D(4, 5));
					bool excl = mode & 1, rev = mode & 2;
					int ax = dim < 0 ? dim + 2 : dim;
					double *v = nnt_values(self), e[20];
					int64_t c[2];

					if (mode == 0)
						NNT_RUN(aclnnCumsum, self->t, dim, ot, out->t);
					else
						NNT_RUN(aclnnCumsumV2, self->t, dim, excl, rev, out->t);
					for (int i = 0; i < 20; i++) {
						double s = 0;

						coords((uint64_t)i, 2, D(4, 5), c);
						for (int64_t j = 0; j < (ax ? 5 : 4); j++) {
							int64_t cc[2] = { c[0], c[1] };
							bool in = rev ? j > c[ax] || (!excl && j == c[ax])
								      : j < c[ax] || (!excl && j == c[ax]);

							cc[ax] = j;
							if (in)
								s += v[lin(2, D(4, 5), cc)];
						}
						e[i] = s;
					}
					nnt_expect(out, e, 20, 2 * nnt_rtol(dts[k]), 2 * nnt_atol(dts[k]));
					free(v);
					fr(out);
					fr(self);
				}
}
END_TEST

/* The running product along @ax of @v (dense [4, 5]) at each element. */
static void cumprod_ref(const double *v, int ax, double *e)
{
	int64_t c[2];

	for (int i = 0; i < 20; i++) {
		double p = 1;

		coords((uint64_t)i, 2, D(4, 5), c);
		for (int64_t j = 0; j <= c[ax]; j++) {
			int64_t cc[2] = { c[0], c[1] };

			cc[ax] = j;
			p *= v[lin(2, D(4, 5), cc)];
		}
		e[i] = p;
	}
}

/* Cumprod on each layout along each dim (an int32 or int64 scalar), in
 * input's type or a dtype; the in-place form on each layout but the
 * broadcast one (its elements alias); the refusals. */
START_TEST(cumprod_along_a_dim)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

	for (unsigned int k = 0; k < NELEM(dts); k++)
		for (int l = 0; l < L_COUNT; l++)
			for (int dim = -2; dim < 2; dim++) {
				/* int32 with a dtype of int64; small values keep fp16's products exact-ish */
				aclDataType ot = dts[k] == ACL_INT32 && dim == 0 ? ACL_INT64 : dts[k];
				struct nnt *in = mk((enum layout)l, dts[k], 2, D(4, 5), -2, 2, 40 + (unsigned)l);
				struct nnt *out = nnt_zeros(ot, 2, D(4, 5));
				aclScalar *ds = nnt_scalar(dim & 1 ? ACL_INT32 : ACL_INT64, dim);
				int ax = dim < 0 ? dim + 2 : dim;
				double *v = nnt_values(in), e[20];

				cumprod_ref(v, ax, e);
				NNT_RUN(aclnnCumprod, in->t, ds, ot == dts[k] ? ACL_DT_UNDEFINED : ot, out->t);
				nnt_expect(out, e, 20, 4 * nnt_rtol(dts[k]), 4 * nnt_atol(dts[k]));
				if (l != L_BROADCAST) {
					void *before = nnt_snapshot(in->base ? in->base : in);

					NNT_RUN(aclnnInplaceCumprod, in->t, ds);
					nnt_expect(in, e, 20, 4 * nnt_rtol(dts[k]), 4 * nnt_atol(dts[k]));
					if (in->base)
						nnt_expect_untouched(in->base, before);
					free(before);
				}
				aclDestroyScalar(ds);
				free(v);
				fr(out);
				fr(in);
			}
}
END_TEST

/* aclnnIndexPutImpl: two index tensors that broadcast (int64 with a
 * negative index, int32) into a transposed selfRef; one index tensor with
 * repeats, accumulating values broadcast over the rows; bool; refusals. */
START_TEST(index_put_impl)
{
	struct nnt *self = nnt_new_transposed(ACL_FLOAT, 2, D(4, 3), -9, 9, 60);
	struct nnt *i0 = nnt_from(ACL_INT64, 2, D(2, 1), (const double[]){ 3, -4 });
	struct nnt *i1 = nnt_from(ACL_INT32, 1, D(3), (const double[]){ 0, 2, 1 });
	struct nnt *v = nnt_from(ACL_FLOAT, 1, D(3), (const double[]){ 10, 20, 30 });
	double *e = nnt_values(self);

	/* B = [2, 3]: rows 3 and 0, columns 0, 2, 1, values broadcast over the rows */
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 3; c++)
			e[(r ? 0 : 3) * 3 + (int)(const double[]){ 0, 2, 1 }[c]] = (c + 1) * 10;
	NNT_RUN(aclnnIndexPutImpl, self->t, aclCreateTensorList((const aclTensor *[]){ i0->t, i1->t }, 2), v->t, false,
		false);
	nnt_expect(self, e, 12, 0, 0);
	/* rows 1, 1, 2 += [1, 2, 3]: row 1 gets it twice */
	{
		struct nnt *r = nnt_from(ACL_INT64, 1, D(3), (const double[]){ 1, 1, 2 });
		struct nnt *a = nnt_from(ACL_FLOAT, 2, D(1, 3), (const double[]){ 1, 2, 3 });

		nnt_sync_host(self);
		free(e);
		e = nnt_values(self);
		for (int c = 0; c < 3; c++) {
			e[3 + c] += 2 * (c + 1);
			e[6 + c] += c + 1;
		}
		NNT_RUN(aclnnIndexPutImpl, self->t, aclCreateTensorList((const aclTensor *[]){ r->t }, 1), a->t, true, true);
		nnt_expect(self, e, 12, 1e-6, 1e-6);
		nnt_free(a);
		nnt_free(r);
	}
	/* bool, accumulating: true stays true */
	{
		struct nnt *b = nnt_from(ACL_BOOL, 1, D(4), (const double[]){ 0, 1, 0, 0 });
		struct nnt *r = nnt_from(ACL_INT64, 1, D(3), (const double[]){ 1, 2, 2 });
		struct nnt *bv = nnt_from(ACL_BOOL, 1, D(3), (const double[]){ 1, 1, 1 });

		NNT_RUN(aclnnIndexPutImpl, b->t, aclCreateTensorList((const aclTensor *[]){ r->t }, 1), bv->t, true, false);
		nnt_expect(b, (const double[]){ 0, 1, 1, 0 }, 4, 0, 0);
	}
	{
		struct nnt *m = nnt_from(ACL_BOOL, 1, D(4), (const double[]){ 1, 0, 1, 0 });
		struct nnt *f = nnt_from(ACL_FLOAT, 1, D(2), (const double[]){ 0, 1 });
		struct nnt *vi = nnt_from(ACL_INT32, 1, D(3), (const double[]){ 1, 2, 3 });
		struct nnt *v4 = nnt_from(ACL_FLOAT, 1, D(4), (const double[]){ 1, 2, 3, 4 });
		struct nnt *j = nnt_from(ACL_INT64, 1, D(2), (const double[]){ 0, 1 });
		struct nnt *j3 = nnt_from(ACL_INT64, 1, D(3), (const double[]){ 0, 1, 2 });

		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ m->t }, 1), v->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ f->t }, 1), v->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ j->t }, 1), vi->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ j->t }, 1), v4->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ j->t, j3->t }, 2), v->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ j->t, j3->t, i0->t }, 3), v->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnIndexPutImpl, NULL,
			  aclCreateTensorList((const aclTensor *[]){ j->t }, 1), v->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnIndexPutImpl, self->t, NULL, v->t, false, false);
		NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnIndexPutImpl, self->t,
			  aclCreateTensorList((const aclTensor *[]){ j->t }, 1), NULL, false, false);
	}
	free(e);
}
END_TEST

START_TEST(cumprod_refusals)
{
	struct nnt *a = nnt_new(ACL_FLOAT, 2, D(3, 4), -2, 2, 5), *o = nnt_zeros(ACL_FLOAT, 2, D(3, 4));
	struct nnt *oi = nnt_zeros(ACL_INT32, 2, D(3, 4)), *o2 = nnt_zeros(ACL_FLOAT, 2, D(4, 3));
	struct nnt *b = nnt_new(ACL_BOOL, 2, D(3, 4), 0, 1, 6), *ob = nnt_zeros(ACL_BOOL, 2, D(3, 4));
	aclScalar *d1 = nnt_scalar(ACL_INT32, 1), *d2 = nnt_scalar(ACL_INT32, 2), *df = nnt_scalar(ACL_FLOAT, 1);

	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnCumprod, NULL, d1, ACL_DT_UNDEFINED, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnCumprod, a->t, NULL, ACL_DT_UNDEFINED, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnCumprod, a->t, d1, ACL_DT_UNDEFINED, NULL);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnInplaceCumprod, a->t, NULL);
	/* dim out of range or not an integer; out of another type or shape; bool */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumprod, a->t, d2, ACL_DT_UNDEFINED, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnInplaceCumprod, a->t, d2);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumprod, a->t, df, ACL_DT_UNDEFINED, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumprod, a->t, d1, ACL_DT_UNDEFINED, oi->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumprod, a->t, d1, ACL_INT32, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumprod, a->t, d1, ACL_DT_UNDEFINED, o2->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumprod, b->t, d1, ACL_DT_UNDEFINED, ob->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnInplaceCumprod, b->t, d1);
	aclDestroyScalar(df);
	aclDestroyScalar(d2);
	aclDestroyScalar(d1);
	fr(ob);
	fr(b);
	fr(o2);
	fr(oi);
	fr(o);
	fr(a);
}
END_TEST

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

START_TEST(topk_and_sort_along_a_dim)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

	for (unsigned int k = 0; k < NELEM(dts); k++)
		for (int tr = 0; tr < 2; tr++)
			for (int largest = 0; largest < 2; largest++) {
				struct nnt *b = distinct(dts[k], 2, D(4, 7), 1, 9 + k);
				struct nnt *self = tr ? transposed_view(b) : b;
				int64_t rows = self->dims[0], cols = self->dims[1], kk = 3;
				struct nnt *tv = nnt_zeros(dts[k], 2, D(rows, kk)), *ti = nnt_zeros(ACL_INT64, 2, D(rows, kk));
				struct nnt *sv = nnt_zeros(dts[k], 2, D(rows, cols));
				struct nnt *si = nnt_zeros(ACL_INT64, 2, D(rows, cols));
				double *v = nnt_values(self), *ev = malloc(sizeof(double) * (size_t)(rows * cols));
				double *ei = malloc(sizeof(double) * (size_t)(rows * cols));
				double *tve = malloc(sizeof(double) * (size_t)(rows * kk));
				double *tie = malloc(sizeof(double) * (size_t)(rows * kk));

				NNT_RUN(aclnnTopk, self->t, kk, -1, largest, true, tv->t, ti->t);
				NNT_RUN(aclnnSort, self->t, false, 1, largest, sv->t, si->t);
				for (int64_t r = 0; r < rows; r++) {
					double *row = ev + r * cols;

					memcpy(row, v + r * cols, sizeof(double) * (size_t)cols);
					qsort(row, (size_t)cols, sizeof(double), cmp_desc);
					if (!largest)
						for (int64_t i = 0; i < cols / 2; i++) {
							double s = row[i];

							row[i] = row[cols - 1 - i];
							row[cols - 1 - i] = s;
						}
					for (int64_t i = 0; i < cols; i++)
						for (int64_t j = 0; j < cols; j++)
							if (v[r * cols + j] == row[i])
								ei[r * cols + i] = (double)j;
					memcpy(tve + r * kk, row, sizeof(double) * (size_t)kk);
					memcpy(tie + r * kk, ei + r * cols, sizeof(double) * (size_t)kk);
				}
				nnt_expect(sv, ev, (uint64_t)(rows * cols), 0, 0);
				nnt_expect(si, ei, (uint64_t)(rows * cols), 0, 0);
				nnt_expect(tv, tve, (uint64_t)(rows * kk), 0, 0);
				nnt_expect(ti, tie, (uint64_t)(rows * kk), 0, 0);
				free(v);
				free(ev);
				free(ei);
				free(tve);
				free(tie);
				fr(tv);
				fr(ti);
				fr(sv);
				fr(si);
				if (tr)
					nnt_free(self);
				nnt_free(b);
			}
}
END_TEST

START_TEST(vector_norms_over_dims)
{
	static const struct {
		double p;
		enum hop op;
	} ords[] = { { 1, H_L1 }, { 2, H_L2 }, { INFINITY, H_LINF } };

	for (int l = 0; l < L_COUNT; l++)
		for (unsigned int k = 0; k < NELEM(ords); k++)
			for (int all = 0; all < 2; all++) {
				struct nnt *self = mk((enum layout)l, ACL_FLOAT, 2, D(3, 4), -2, 2, 4);
				struct nnt *h = mk((enum layout)l, ACL_FLOAT16, 2, D(3, 4), -2, 2, 4);
				unsigned int mask = all ? 3 : 2;
				int64_t od[2];
				int on = red_dims(2, D(3, 4), mask, !all, od);
				struct nnt *o1 = nnt_zeros(ACL_FLOAT, on, od), *o2 = nnt_zeros(ACL_FLOAT16, on, od);
				struct nnt *o3 = nnt_zeros(ACL_FLOAT, on, od);
				aclScalar *p = nnt_scalar(ACL_FLOAT, ords[k].p);
				aclIntArray *ia = all ? ia_empty() : IA(-1);
				double *v = nnt_values(self), *vh = nnt_values(h), *e;
				uint64_t cnt;

				NNT_RUN(aclnnLinalgVectorNorm, self->t, p, ia, !all, ACL_FLOAT, o1->t);
				/* fp16 computed in fp32, written as fp16 */
				NNT_RUN(aclnnLinalgVectorNorm, h->t, p, ia, !all, ACL_FLOAT, o2->t);
				NNT_RUN(aclnnNorm, self->t, p, ia, !all, o3->t);
				e = host_reduce(v, 2, D(3, 4), mask, ords[k].op, false, &cnt);
				nnt_expect(o1, e, cnt, 1e-5, 1e-6);
				nnt_expect(o3, e, cnt, 1e-5, 1e-6);
				free(e);
				e = host_reduce(vh, 2, D(3, 4), mask, ords[k].op, false, &cnt);
				nnt_expect(o2, e, cnt, 1e-2, 1e-3);
				free(e);
				free(v);
				free(vh);
				aclDestroyScalar(p);
				aclDestroyIntArray(ia);
				fr(o1);
				fr(o2);
				fr(o3);
				fr(h);
				fr(self);
			}
}
END_TEST

/* ---- moves ----------------------------------------------------------------------------- */

static const aclDataType move_dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

START_TEST(permute_into_a_transposed_out)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++) {
			static const int64_t perm[] = { 2, 0, -2 };
			struct nnt *self = mk((enum layout)l, move_dts[k], 3, D(2, 3, 4), -50, 50, 1 + (unsigned)l);
			struct nnt *out = out_transposed(move_dts[k], 3, D(4, 2, 3));
			aclIntArray *ia = aclCreateIntArray(perm, 3);
			double *v = nnt_values(self), e[24];
			int64_t c[3];

			NNT_RUN(aclnnPermute, self->t, ia, out->t);
			for (int i = 0; i < 24; i++) {
				coords((uint64_t)i, 3, D(4, 2, 3), c);
				/* out[a][b][c] = self[b][c][a] */
				e[i] = v[lin(3, D(2, 3, 4), D(c[1], c[2], c[0]))];
			}
			nnt_expect(out, e, 24, 0, 0);
			free(v);
			aclDestroyIntArray(ia);
			fr(out);
			fr(self);
		}
}
END_TEST

START_TEST(slice_expand_repeat_flip_of_views)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++) {
			aclDataType dt = move_dts[k];
			struct nnt *self = mk((enum layout)l, dt, 2, D(4, 6), -50, 50, 21 + (unsigned)l);
			double *v = nnt_values(self);
			int64_t c[4];

			{
				/* [4, 6][:, -5:100:2] -> [4, 3] columns 1, 3, 5 */
				struct nnt *out = out_transposed(dt, 2, D(4, 3));
				double e[12];

				NNT_RUN(aclnnSlice, self->t, -1, -5, 100, 2, out->t);
				for (int i = 0; i < 12; i++)
					e[i] = v[(i / 3) * 6 + 1 + 2 * (i % 3)];
				nnt_expect(out, e, 12, 0, 0);
				fr(out);
			}
			{
				/* [4, 6] -> [2, 4, 6] along a new leading dimension; a
				 * column [4, 1] -> [4, 6] */
				struct nnt *out = nnt_zeros(dt, 3, D(2, 4, 6));
				struct nnt *col = nnt_view(self->base ? self->base : self, 2, D(4, 1),
							   D(self->strides[0], 1), self->offset);
				struct nnt *o2 = out_transposed(dt, 2, D(4, 6));
				aclIntArray *ia = IA(2, -1, 6), *ib = IA(4, 6);
				double e[48], *vc = nnt_values(col);

				NNT_RUN(aclnnExpand, self->t, ia, out->t);
				NNT_RUN(aclnnExpand, col->t, ib, o2->t);
				for (int i = 0; i < 48; i++)
					e[i] = v[i % 24];
				nnt_expect(out, e, 48, 0, 0);
				for (int i = 0; i < 24; i++)
					e[i] = vc[i / 6];
				nnt_expect(o2, e, 24, 0, 0);
				free(vc);
				aclDestroyIntArray(ia);
				aclDestroyIntArray(ib);
				nnt_free(col);
				fr(out);
				fr(o2);
			}
			{
				/* repeat [4, 6] by [2, 1, 2] -> [2, 4, 12] */
				struct nnt *out = out_transposed(dt, 3, D(2, 4, 12));
				aclIntArray *ia = IA(2, 1, 2);
				double e[96];

				NNT_RUN(aclnnRepeat, self->t, ia, out->t);
				for (int i = 0; i < 96; i++) {
					coords((uint64_t)i, 3, D(2, 4, 12), c);
					e[i] = v[c[1] * 6 + c[2] % 6];
				}
				nnt_expect(out, e, 96, 0, 0);
				aclDestroyIntArray(ia);
				fr(out);
			}
			{
				/* flip both dimensions, then only the last */
				struct nnt *o1 = nnt_zeros(dt, 2, D(4, 6)), *o2 = out_transposed(dt, 2, D(4, 6));
				aclIntArray *ia = IA(0, -1), *ib = IA(1);
				double e1[24], e2[24];

				NNT_RUN(aclnnFlip, self->t, ia, o1->t);
				NNT_RUN(aclnnFlip, self->t, ib, o2->t);
				for (int i = 0; i < 24; i++) {
					e1[i] = v[(3 - i / 6) * 6 + 5 - i % 6];
					e2[i] = v[(i / 6) * 6 + 5 - i % 6];
				}
				nnt_expect(o1, e1, 24, 0, 0);
				nnt_expect(o2, e2, 24, 0, 0);
				aclDestroyIntArray(ia);
				aclDestroyIntArray(ib);
				fr(o1);
				fr(o2);
			}
			free(v);
			fr(self);
		}
}
END_TEST

START_TEST(cat_and_stack_of_views_into_views)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++) {
		aclDataType dt = move_dts[k];
		/* [2, 3], [2, 1] (a sliced column), [2, 2] (transposed) along
		 * dim -1; an fp16 one promotes with the others */
		struct nnt *a = nnt_new(dt, 2, D(2, 3), -9, 9, 1);
		struct nnt *bb = nnt_new(dt, 2, D(2, 4), -9, 9, 2);
		struct nnt *b = nnt_view(bb, 2, D(2, 1), D(4, 1), 2);
		/* whole numbers: exact in every out type */
		struct nnt *cb = nnt_from(ACL_FLOAT16, 2, D(2, 2), (const double[]){ 1, -2, 3, 4 });
		struct nnt *c = transposed_view(cb);
		struct nnt *empty = nnt_zeros(dt, 1, D(0));
		const aclTensor *ts[] = { a->t, b->t, empty->t, c->t };
		aclTensorList *l = aclCreateTensorList(ts, 4);
		struct nnt *out = out_transposed(dt, 2, D(2, 6));
		double *va = nnt_values(a), *vb = nnt_values(b), *vc = nnt_values(c), e[24];

		NNT_RUN(aclnnCat, l, -1, out->t);
		for (int i = 0; i < 12; i++) {
			int r = i / 6, col = i % 6;

			e[i] = col < 3 ? va[r * 3 + col] : col < 4 ? vb[r] : vc[r * 2 + col - 4];
		}
		nnt_expect(out, e, 12, 0, 0);
		{
			/* stack three [2, 3] (dense, sliced, broadcast) along dim 1 */
			struct nnt *s1 = mk(L_DENSE, dt, 2, D(2, 3), -9, 9, 4);
			struct nnt *s2 = mk(L_SLICED, dt, 2, D(2, 3), -9, 9, 5);
			struct nnt *s3 = mk(L_BROADCAST, dt, 2, D(2, 3), -9, 9, 6);
			const aclTensor *st[] = { s1->t, s2->t, s3->t };
			aclTensorList *sl = aclCreateTensorList(st, 3);
			struct nnt *so = out_transposed(dt, 3, D(2, 3, 3));
			double *v1 = nnt_values(s1), *v2 = nnt_values(s2), *v3 = nnt_values(s3);
			int64_t cc[3];

			NNT_RUN(aclnnStack, sl, 1, so->t);
			for (int i = 0; i < 18; i++) {
				coords((uint64_t)i, 3, D(2, 3, 3), cc);
				e[i] = (cc[1] == 0 ? v1 : cc[1] == 1 ? v2 : v3)[cc[0] * 3 + cc[2]];
			}
			nnt_expect(so, e, 18, 0, 0);
			free(v1);
			free(v2);
			free(v3);
		}
		free(va);
		free(vb);
		free(vc);
	}
}
END_TEST

START_TEST(split_into_views_of_a_list)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++) {
			aclDataType dt = move_dts[k];
			struct nnt *self = mk((enum layout)l, dt, 2, D(7, 3), -50, 50, 31 + (unsigned)l);
			struct nnt *p0 = nnt_zeros(dt, 2, D(3, 3)), *p1 = out_transposed(dt, 2, D(3, 3));
			struct nnt *p2 = nnt_zeros(dt, 2, D(1, 3));
			const aclTensor *ps[] = { p0->t, p1->t, p2->t };
			aclTensorList *pl = aclCreateTensorList(ps, 3);
			struct nnt *q0 = nnt_zeros(dt, 2, D(7, 1)), *q1 = nnt_zeros(dt, 2, D(7, 0));
			struct nnt *q2 = nnt_zeros(dt, 2, D(7, 2));
			const aclTensor *qs[] = { q0->t, q1->t, q2->t };
			aclTensorList *ql = aclCreateTensorList(qs, 3);
			aclIntArray *sizes = IA(1, 0, 2);
			double *v = nnt_values(self), e[21];

			NNT_RUN(aclnnSplitTensor, self->t, 3, 0, pl);
			NNT_RUN(aclnnSplitWithSize, self->t, sizes, -1, ql);
			nnt_expect(p0, v, 9, 0, 0);
			nnt_expect(p1, v + 9, 9, 0, 0);
			nnt_expect(p2, v + 18, 3, 0, 0);
			for (int i = 0; i < 7; i++) {
				e[i] = v[i * 3];
				e[7 + 2 * i] = v[i * 3 + 1];
				e[8 + 2 * i] = v[i * 3 + 2];
			}
			nnt_expect(q0, e, 7, 0, 0);
			nnt_expect(q2, e + 7, 14, 0, 0);
			free(v);
			aclDestroyIntArray(sizes);
			fr(self);
		}
}
END_TEST

START_TEST(constant_pad_nd_pads_and_crops)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++) {
			aclDataType dt = move_dts[k];
			struct nnt *self = mk((enum layout)l, dt, 2, D(3, 4), -50, 50, 41 + (unsigned)l);
			/* last dimension: 1 before, crop 1 after; first: 2 after */
			aclIntArray *pad = IA(1, -1, 0, 2);
			aclScalar *val = nnt_scalar(dt, dt == ACL_INT32 ? 7 : 2.5);
			struct nnt *out = out_transposed(dt, 2, D(5, 4));
			double *v = nnt_values(self), e[20];

			NNT_RUN(aclnnConstantPadNd, self->t, pad, val, out->t);
			for (int i = 0; i < 20; i++) {
				int r = i / 4, c = i % 4 - 1;

				e[i] = r < 3 && c >= 0 ? v[r * 4 + c] : dt == ACL_INT32 ? 7 : 2.5;
			}
			nnt_expect(out, e, 20, 0, 0);
			free(v);
			aclDestroyScalar(val);
			aclDestroyIntArray(pad);
			fr(out);
			fr(self);
		}
}
END_TEST

/* ---- indexing ---------------------------------------------------------------------------- */

START_TEST(index_select_embedding_gather)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++)
			for (int it = 0; it < 2; it++) {
				aclDataType dt = move_dts[k], idt = it ? ACL_INT32 : ACL_INT64;
				struct nnt *self = mk((enum layout)l, dt, 2, D(4, 5), -50, 50, 51 + (unsigned)l);
				struct nnt *idx = nnt_from(idt, 1, D(3), (const double[]){ 3, 0, 3 });
				struct nnt *o1 = out_transposed(dt, 2, D(4, 3)), *o2 = nnt_zeros(dt, 3, D(2, 2, 5));
				struct nnt *ids = nnt_from(idt, 2, D(2, 2), (const double[]){ 1, 2, 0, 3 });
				struct nnt *gi = nnt_from(idt, 2, D(2, 5), (const double[]){ 0, 1, 2, 3, 0, 3, 3, 2, 1, 0 });
				struct nnt *o3 = nnt_zeros(dt, 2, D(2, 5)), *o4 = nnt_zeros(dt, 2, D(2, 5));
				double *v = nnt_values(self), *g = nnt_values(gi), e[20];

				NNT_RUN(aclnnIndexSelect, self->t, 1, idx->t, o1->t);
				for (int i = 0; i < 12; i++)
					e[i] = v[(i / 3) * 5 + (int)((const double[]){ 3, 0, 3 })[i % 3]];
				nnt_expect(o1, e, 12, 0, 0);
				NNT_RUN(aclnnEmbedding, self->t, ids->t, o2->t);
				for (int i = 0; i < 20; i++)
					e[i] = v[(int)((const double[]){ 1, 2, 0, 3 })[i / 5] * 5 + i % 5];
				nnt_expect(o2, e, 20, 0, 0);
				/* gather along 0: out[i][j] = self[index[i][j]][j]; along -1 */
				NNT_RUN(aclnnGather, self->t, 0, gi->t, o3->t);
				for (int i = 0; i < 10; i++)
					e[i] = v[(int)g[i] * 5 + i % 5];
				nnt_expect(o3, e, 10, 0, 0);
				NNT_RUN(aclnnGather, self->t, -1, gi->t, o4->t);
				for (int i = 0; i < 10; i++)
					e[i] = v[(i / 5) * 5 + (int)g[i]];
				nnt_expect(o4, e, 10, 0, 0);
				free(v);
				free(g);
				fr(self);
			}
}
END_TEST

START_TEST(scatter_replace_add_mul_value_and_in_place)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int reduce = 0; reduce < 3; reduce++) {
			aclDataType dt = move_dts[k];
			struct nnt *self = mk(L_TRANSPOSED, dt, 2, D(3, 4), -5, 5, 61);
			/* src larger than index: its leading [2, 3] window is used */
			struct nnt *src = mk(L_SLICED, dt, 2, D(3, 4), -5, 5, 62);
			struct nnt *idx = nnt_from(ACL_INT64, 2, D(2, 3), (const double[]){ 2, 0, 1, 2, 2, 0 });
			struct nnt *out = out_transposed(dt, 2, D(3, 4)), *ov = nnt_zeros(dt, 2, D(3, 4));
			aclScalar *val = nnt_scalar(dt, 3);
			double *v = nnt_values(self), *s = nnt_values(src), *ix = nnt_values(idx), e[12], ev[12];

			NNT_RUN(aclnnScatter, self->t, 0, idx->t, src->t, reduce, out->t);
			NNT_RUN(aclnnScatterValue, self->t, 0, idx->t, val, reduce, ov->t);
			memcpy(e, v, sizeof(e));
			memcpy(ev, v, sizeof(ev));
			for (int i = 0; i < 6; i++) {
				int r = (int)ix[i], c = i % 3;
				double u = s[(i / 3) * 4 + c];

				e[r * 4 + c] = reduce == 0 ? u : reduce == 1 ? e[r * 4 + c] + u : e[r * 4 + c] * u;
				ev[r * 4 + c] = reduce == 0 ? 3 : reduce == 1 ? ev[r * 4 + c] + 3 : ev[r * 4 + c] * 3;
			}
			nnt_expect(out, e, 12, nnt_rtol(dt), nnt_atol(dt));
			nnt_expect(ov, ev, 12, nnt_rtol(dt), nnt_atol(dt));
			if (reduce == 1) {
				struct nnt *oa = nnt_zeros(dt, 2, D(3, 4));

				NNT_RUN(aclnnScatterAdd, self->t, 0, idx->t, src->t, oa->t);
				nnt_expect(oa, e, 12, nnt_rtol(dt), nnt_atol(dt));
				fr(oa);
			}
			/* in place: self itself (a transposed view) becomes the result */
			NNT_RUN(aclnnInplaceScatter, self->t, 0, idx->t, src->t, reduce);
			nnt_expect(self, e, 12, nnt_rtol(dt), nnt_atol(dt));
			NNT_RUN(aclnnInplaceScatterValue, out->t, 0, idx->t, val, 0);
			for (int i = 0; i < 6; i++)
				e[(int)ix[i] * 4 + i % 3] = 3;
			nnt_expect(out, e, 12, nnt_rtol(dt), nnt_atol(dt));
			free(v);
			free(s);
			free(ix);
			aclDestroyScalar(val);
			fr(out);
			fr(ov);
			fr(src);
			fr(self);
		}
}
END_TEST

START_TEST(one_hot_at_any_axis)
{
	static const aclDataType sdts[] = { ACL_INT32, ACL_INT64 };
	static const aclDataType odts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };

	for (unsigned int s = 0; s < NELEM(sdts); s++)
		for (unsigned int k = 0; k < NELEM(odts); k++)
			for (int axis = -1; axis < 2; axis++) {
				/* 5 is outside [0, 4): a row of offValue */
				struct nnt *self = nnt_from(sdts[s], 2, D(2, 3), (const double[]){ 0, 3, 1, 2, 5, 3 });
				struct nnt *on = nnt_from(odts[k], 1, D(2), (const double[]){ 5, 9 });
				struct nnt *off = nnt_from(odts[k], 1, D(1), (const double[]){ -1 });
				int ax = axis < 0 ? 2 : axis;
				int64_t od[3];
				double e[24], *v = nnt_values(self);
				int64_t c[3];
				struct nnt *out;

				for (int i = 0, j = 0; i < 3; i++)
					od[i] = i == ax ? 4 : D(2, 3)[j++];
				out = out_transposed(odts[k], 3, od);
				NNT_RUN(aclnnOneHot, self->t, 4, on->t, off->t, axis, out->t);
				for (int i = 0; i < 24; i++) {
					int64_t sc[2];

					coords((uint64_t)i, 3, od, c);
					for (int q = 0, j = 0; q < 3; q++)
						if (q != ax)
							sc[j++] = c[q];
					e[i] = v[sc[0] * 3 + sc[1]] == (double)c[ax] ? 5 : -1;
				}
				nnt_expect(out, e, 24, 0, 0);
				free(v);
				fr(out);
			}
}
END_TEST

START_TEST(tril_triu_and_in_place)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++)
			for (int diag = -1; diag < 2; diag++) {
				aclDataType dt = move_dts[k];
				struct nnt *self = mk((enum layout)l, dt, 3, D(2, 3, 4), -50, 50, 71 + (unsigned)l);
				struct nnt *lo = out_transposed(dt, 3, D(2, 3, 4)), *up = nnt_zeros(dt, 3, D(2, 3, 4));
				double *v = nnt_values(self), el[24], eu[24];
				int64_t c[3];

				NNT_RUN(aclnnTril, self->t, diag, lo->t);
				NNT_RUN(aclnnTriu, self->t, diag, up->t);
				for (int i = 0; i < 24; i++) {
					coords((uint64_t)i, 3, D(2, 3, 4), c);
					el[i] = c[2] - c[1] <= diag ? v[i] : 0;
					eu[i] = c[2] - c[1] >= diag ? v[i] : 0;
				}
				nnt_expect(lo, el, 24, 0, 0);
				nnt_expect(up, eu, 24, 0, 0);
				/* in place on a view: the rest of the storage stays */
				if (l != L_BROADCAST) {
					void *before = nnt_snapshot(self);

					NNT_RUN(aclnnInplaceTriu, self->t, diag);
					nnt_expect(self, eu, 24, 0, 0);
					nnt_expect_untouched(self, before);
					NNT_RUN(aclnnInplaceTril, lo->t, diag - 1);
					for (int i = 0; i < 24; i++) {
						coords((uint64_t)i, 3, D(2, 3, 4), c);
						el[i] = c[2] - c[1] <= diag - 1 ? el[i] : 0;
					}
					nnt_expect(lo, el, 24, 0, 0);
					free(before);
				}
				free(v);
				fr(lo);
				fr(up);
				fr(self);
			}
}
END_TEST

START_TEST(masked_fill_with_a_broadcast_mask_in_place)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_BROADCAST; l++) {
			aclDataType dt = move_dts[k];
			struct nnt *self = mk((enum layout)l, dt, 2, D(3, 4), -50, 50, 81 + (unsigned)l);
			/* a [4] mask broadcast over the rows; a uint8 [3, 1] one */
			struct nnt *m1 = nnt_from(ACL_BOOL, 1, D(4), (const double[]){ 1, 0, 0, 1 });
			struct nnt *m2 = nnt_from(ACL_UINT8, 2, D(3, 1), (const double[]){ 0, 1, 0 });
			struct nnt *val = nnt_from(ACL_FLOAT, 1, D(1), (const double[]){ -7 });
			aclScalar *s = nnt_scalar(ACL_FLOAT, 6);
			double *v = nnt_values(self), e[12];
			void *before = nnt_snapshot(self);

			NNT_RUN(aclnnInplaceMaskedFillScalar, self->t, m1->t, s);
			NNT_RUN(aclnnInplaceMaskedFillTensor, self->t, m2->t, val->t);
			for (int i = 0; i < 12; i++)
				e[i] = i / 4 == 1 ? -7 : (i % 4 == 0 || i % 4 == 3) ? 6 : v[i];
			nnt_expect(self, e, 12, 0, 0);
			nnt_expect_untouched(self, before);
			free(before);
			free(v);
			aclDestroyScalar(s);
			fr(self);
		}
}
END_TEST

/* ---- bad arguments ------------------------------------------------------------------------ */

START_TEST(bad_arguments_have_exact_codes)
{
	struct nnt *a = nnt_new(ACL_FLOAT, 2, D(3, 4), -1, 1, 1), *o = nnt_zeros(ACL_FLOAT, 1, D(3));
	struct nnt *o34 = nnt_zeros(ACL_FLOAT, 2, D(3, 4)), *oi = nnt_zeros(ACL_INT32, 2, D(4, 3));
	struct nnt *fidx = nnt_from(ACL_FLOAT, 1, D(2), (const double[]){ 0, 1 });
	struct nnt *iidx = nnt_from(ACL_INT64, 1, D(2), (const double[]){ 0, 1 });
	struct nnt *b = nnt_new(ACL_FLOAT, 2, D(3, 5), -1, 1, 2);
	aclIntArray *d1 = IA(1), *d5 = IA(5), *dd = IA(1, -1), *perm = IA(1, 0), *sizes = IA(1, 1);
	const aclTensor *two[] = { a->t, b->t };
	aclTensorList *l2 = aclCreateTensorList(two, 2);
	struct nnt *p0 = nnt_zeros(ACL_FLOAT, 2, D(1, 4)), *p1 = nnt_zeros(ACL_FLOAT, 2, D(1, 4));
	const aclTensor *parts[] = { p0->t, p1->t };
	aclTensorList *pl = aclCreateTensorList(parts, 2);
	struct nnt *t3 = nnt_zeros(ACL_FLOAT, 2, D(3, 3)), *i3 = nnt_zeros(ACL_INT64, 2, D(3, 3));

	/* NULL tensors and arrays */
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnReduceSum, NULL, d1, false, ACL_FLOAT, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnReduceSum, a->t, NULL, false, ACL_FLOAT, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnMean, a->t, d1, false, ACL_FLOAT, NULL);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnPermute, a->t, NULL, oi->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnCat, NULL, 0, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnLinalgVectorNorm, a->t, NULL, d1, false, ACL_FLOAT, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnIndexSelect, a->t, 0, NULL, o->t);
	/* dims out of range, repeated */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnReduceSum, a->t, d5, false, ACL_FLOAT, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnAmax, a->t, dd, false, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnArgMax, a->t, 2, false, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCumsum, a->t, -3, ACL_FLOAT, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnSlice, a->t, 2, 0, 1, 1, o34->t);
	/* out of the wrong shape, type; dtype not out's */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnReduceSum, a->t, d1, true, ACL_FLOAT, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnReduceSum, a->t, d1, false, ACL_INT32, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnPermute, a->t, perm, oi->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnArgMax, a->t, 1, false, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnAmax, a->t, d1, false, oi->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnSlice, a->t, 1, 0, 2, 0, o34->t);
	/* index of the wrong type */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnIndexSelect, a->t, 0, fidx->t, o->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnEmbedding, a->t, fidx->t, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnGather, a->t, 0, iidx->t, o34->t);
	/* split sections that do not add up, a list of the wrong length */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnSplitWithSize, a->t, sizes, 0, pl);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnSplitTensor, a->t, 1, 0, pl);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnSplitTensor, a->t, 0, 0, pl);
	/* a list with mismatched shapes: [3, 4] and [3, 5] along 0; stacked */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnCat, l2, 0, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnStack, l2, 0, o34->t);
	/* values: k too large, reduce unknown, pad odd, expand impossible */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnTopk, a->t, 5, 1, true, true, t3->t, i3->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnExpand, a->t, d5, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnScatter, a->t, 0, i3->t, a->t, 3, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnTril, o->t, 0, o->t);
	{
		aclScalar *z = nnt_scalar(ACL_FLOAT, 0);

		NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnConstantPadNd, a->t, d1, z, o34->t);
		NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnConstantPadNd, a->t, perm, NULL, o34->t);
		aclDestroyScalar(z);
	}
}
END_TEST

/* ---- the second batch: statistics, flatten, roll, arange, gather_nd -------------- */

/* The host statistics of dense [3, 4] @v over dimension @axis (-1: both):
 * the mean into @mean, the variance with divisor max(0, N - @corr) into @var. */
static int host_var(const double *v, int axis, int64_t corr, double *mean, double *var)
{
	int no = axis < 0 ? 1 : axis == 0 ? 4 : 3, n = axis < 0 ? 12 : axis == 0 ? 3 : 4;

	for (int o = 0; o < no; o++) {
		double s = 0, q = 0;

		for (int j = 0; j < n; j++)
			s += v[axis < 0 ? j : axis == 0 ? j * 4 + o : o * 4 + j];
		s /= n;
		for (int j = 0; j < n; j++) {
			double d = v[axis < 0 ? j : axis == 0 ? j * 4 + o : o * 4 + j] - s;

			q += d * d;
		}
		mean[o] = s;
		var[o] = q / (double)(n - corr > 0 ? n - corr : 0);
	}
	return no;
}

START_TEST(var_std_logsumexp_over_dims)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16 };

	for (unsigned int k = 0; k < NELEM(dts); k++)
		for (int l = 0; l < L_COUNT; l++) {
			aclDataType dt = dts[k];
			struct nnt *self = mk((enum layout)l, dt, 2, D(3, 4), -2, 2, 61 + (unsigned)l);
			struct nnt *ov = nnt_zeros(dt, 1, D(4)), *os = nnt_zeros(dt, 2, D(3, 1));
			struct nnt *om = nnt_zeros(dt, 2, D(3, 1)), *oall = nnt_zeros(dt, 0, NULL);
			struct nnt *ol = out_transposed(dt, 2, D(1, 4)), *ol2 = nnt_zeros(ACL_FLOAT, 0, NULL);
			struct nnt *ol3 = out_transposed(dt, 2, D(1, 4)), *o3 = nnt_zeros(dt, 1, D(3));
			aclIntArray *d0 = IA(0), *dm1 = IA(-1), *none = ia_empty();
			double *v = nnt_values(self), m[4], var[4], e[4];
			double rt = nnt_rtol(dt) * 4, at = nnt_atol(dt) * 4;
			int n;

			/* var along 0, unbiased; std along -1 with correction 2, kept; both with the mean */
			NNT_RUN(aclnnVar, self->t, d0, true, false, ov->t);
			n = host_var(v, 0, 1, m, var);
			nnt_expect(ov, var, (uint64_t)n, rt, at);
			NNT_RUN(aclnnStd, self->t, dm1, 2, true, os->t);
			n = host_var(v, 1, 2, m, var);
			for (int i = 0; i < n; i++)
				e[i] = sqrt(var[i]);
			nnt_expect(os, e, (uint64_t)n, rt, at);
			NNT_RUN(aclnnStdMeanCorrection, self->t, dm1, 0, true, os->t, om->t);
			n = host_var(v, 1, 0, m, var);
			for (int i = 0; i < n; i++)
				e[i] = sqrt(var[i]);
			nnt_expect(os, e, (uint64_t)n, rt, at);
			nnt_expect(om, m, (uint64_t)n, rt, at);
			NNT_RUN(aclnnVarMean, self->t, d0, 2, true, ol->t, ol3->t);
			n = host_var(v, 0, 2, m, var);
			nnt_expect(ol, var, (uint64_t)n, rt, at);
			nnt_expect(ol3, m, (uint64_t)n, rt, at);
			NNT_RUN(aclnnVarCorrection, self->t, dm1, 0, false, o3->t);
			n = host_var(v, 1, 0, m, var);
			nnt_expect(o3, var, (uint64_t)n, rt, at);
			/* NULL and empty dims: every element */
			host_var(v, -1, 0, m, var);
			NNT_RUN(aclnnVar, self->t, NULL, false, false, oall->t);
			nnt_expect(oall, var, 1, rt, at);
			NNT_RUN(aclnnStd, self->t, none, 1, false, oall->t);
			host_var(v, -1, 1, m, var);
			e[0] = sqrt(var[0]);
			nnt_expect(oall, e, 1, rt, at);
			/* logsumexp along 0 kept, into a transposed out; every dim into fp32 */
			NNT_RUN(aclnnLogSumExp, self->t, d0, true, ol->t);
			for (int j = 0; j < 4; j++) {
				double s = 0;

				for (int i = 0; i < 3; i++)
					s += exp(v[i * 4 + j]);
				e[j] = log(s);
			}
			nnt_expect(ol, e, 4, rt, at);
			NNT_RUN(aclnnLogSumExp, self->t, none, false, ol2->t);
			{
				double s = 0;

				for (int i = 0; i < 12; i++)
					s += exp(v[i]);
				e[0] = log(s);
			}
			nnt_expect(ol2, e, 1, rt, at);
			free(v);
			aclDestroyIntArray(d0);
			aclDestroyIntArray(dm1);
			aclDestroyIntArray(none);
			fr(o3);
			fr(ol3);
			fr(ol2);
			fr(ol);
			fr(oall);
			fr(om);
			fr(os);
			fr(ov);
			fr(self);
		}
	{
		/* an integer self computes in out's float type */
		struct nnt *si = nnt_from(ACL_INT32, 1, D(3), (const double[]){ 0, 1, 2 });
		struct nnt *o = nnt_zeros(ACL_FLOAT, 0, NULL);
		aclIntArray *d0 = IA(0);
		double e = log(1 + exp(1) + exp(2));

		NNT_RUN(aclnnLogSumExp, si->t, d0, false, o->t);
		nnt_expect(o, &e, 1, 1e-5, 1e-5);
		aclDestroyIntArray(d0);
		fr(o);
		fr(si);
	}
}
END_TEST

START_TEST(flatten_roll_of_views)
{
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++) {
			aclDataType dt = move_dts[k];
			struct nnt *self = mk((enum layout)l, dt, 3, D(2, 3, 4), -50, 50, 71 + (unsigned)l);
			struct nnt *of = out_transposed(dt, 2, D(2, 12)), *of0 = nnt_zeros(dt, 2, D(1, 24));
			struct nnt *or1 = out_transposed(dt, 3, D(2, 3, 4)), *or2 = nnt_zeros(dt, 3, D(2, 3, 4));
			aclIntArray *sh = IA(1, -5), *dm = IA(-1, 1), *sh1 = IA(7), *none = ia_empty();
			double *v = nnt_values(self), e[24];
			int64_t c[3];

			NNT_RUN(aclnnFlatten, self->t, 1, of->t);
			nnt_expect(of, v, 24, 0, 0);
			NNT_RUN(aclnnFlatten, self->t, -3, of0->t);
			nnt_expect(of0, v, 24, 0, 0);
			/* out[a][b][c] = self[a][(b + 5) mod 3][(c - 1) mod 4] */
			NNT_RUN(aclnnRoll, self->t, sh, dm, or1->t);
			for (int i = 0; i < 24; i++) {
				coords((uint64_t)i, 3, D(2, 3, 4), c);
				e[i] = v[lin(3, D(2, 3, 4), D(c[0], (c[1] + 5) % 3, (c[2] + 3) % 4))];
			}
			nnt_expect(or1, e, 24, 0, 0);
			/* empty dims: the flattened tensor rolled by 7 */
			NNT_RUN(aclnnRoll, self->t, sh1, none, or2->t);
			for (int i = 0; i < 24; i++)
				e[i] = v[(i + 24 - 7) % 24];
			nnt_expect(or2, e, 24, 0, 0);
			free(v);
			aclDestroyIntArray(sh);
			aclDestroyIntArray(dm);
			aclDestroyIntArray(sh1);
			aclDestroyIntArray(none);
			fr(or2);
			fr(or1);
			fr(of0);
			fr(of);
			fr(self);
		}
}
END_TEST

START_TEST(arange_and_gather_nd)
{
	static const aclDataType odts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64 };

	for (unsigned int k = 0; k < NELEM(odts); k++) {
		bool fl = odts[k] == ACL_FLOAT || odts[k] == ACL_FLOAT16;
		double s = fl ? -1.5 : 10, st = fl ? 0.25 : -3, en = fl ? 1.0 : -2;
		int n = fl ? 10 : 4;
		aclScalar *a0 = nnt_scalar(fl ? ACL_FLOAT : ACL_INT64, s), *a1 = nnt_scalar(fl ? ACL_FLOAT : ACL_INT64, en);
		aclScalar *a2 = nnt_scalar(fl ? ACL_FLOAT : ACL_INT64, st);
		struct nnt *b = nnt_zeros(odts[k], 1, D(2 * (int64_t)n));
		/* every other element of a larger storage */
		struct nnt *o = nnt_view(b, 1, D(n), D(2), 1);
		double e[10];

		NNT_RUN(aclnnArange, a0, a1, a2, o->t);
		for (int i = 0; i < n; i++)
			e[i] = s + i * st;
		nnt_expect(o, e, (uint64_t)n, nnt_rtol(odts[k]), nnt_atol(odts[k]));
		aclDestroyScalar(a0);
		aclDestroyScalar(a1);
		aclDestroyScalar(a2);
		fr(o);
	}
	for (unsigned int k = 0; k < NELEM(move_dts); k++)
		for (int l = 0; l < L_COUNT; l++)
			for (int it = 0; it < 2; it++) {
				aclDataType dt = move_dts[k], idt = it ? ACL_INT32 : ACL_INT64;
				struct nnt *self = mk((enum layout)l, dt, 3, D(2, 3, 4), -50, 50, 81 + (unsigned)l);
				struct nnt *i2 = nnt_from(idt, 2, D(3, 2), (const double[]){ 1, 2, 0, -1, -2, 0 });
				struct nnt *o = out_transposed(dt, 2, D(3, 4));
				double *v = nnt_values(self), e[12];
				static const int rows[3][2] = { { 1, 2 }, { 0, 2 }, { 0, 0 } };

				/* out[i] = self[idx[i][0]][idx[i][1]], negatives from the end */
				NNT_RUN(aclnnGatherNd, self->t, i2->t, true, o->t);
				for (int i = 0; i < 12; i++)
					e[i] = v[(rows[i / 4][0] * 3 + rows[i / 4][1]) * 4 + i % 4];
				nnt_expect(o, e, 12, 0, 0);
				/* scatter rows back: data with rows (1,2), (0,2), (0,0) replaced */
				{
					struct nnt *up = mk((enum layout)l, dt, 2, D(3, 4), -50, 50, 91 + (unsigned)l);
					struct nnt *pi = nnt_from(idt, 2, D(3, 2), (const double[]){ 1, 2, 0, 2, 0, 0 });
					struct nnt *so = out_transposed(dt, 3, D(2, 3, 4));
					double *u = nnt_values(up), es[24];

					NNT_RUN(aclnnScatterNd, self->t, pi->t, up->t, so->t);
					memcpy(es, v, sizeof(es));
					for (int i = 0; i < 12; i++)
						es[(rows[i / 4][0] * 3 + rows[i / 4][1]) * 4 + i % 4] = u[i];
					nnt_expect(so, es, 24, 0, 0);
					free(u);
					fr(so);
					fr(pi);
					fr(up);
				}
				free(v);
				fr(o);
				fr(i2);
				fr(self);
			}
}
END_TEST

START_TEST(second_batch_bad_arguments)
{
	struct nnt *a = nnt_new(ACL_FLOAT, 2, D(3, 4), -1, 1, 1), *o4 = nnt_zeros(ACL_FLOAT, 1, D(4));
	struct nnt *o34 = nnt_zeros(ACL_FLOAT, 2, D(3, 4)), *oi = nnt_zeros(ACL_INT32, 1, D(4));
	struct nnt *fidx = nnt_from(ACL_FLOAT, 2, D(1, 2), (const double[]){ 0, 1 });
	struct nnt *o5 = nnt_zeros(ACL_FLOAT, 1, D(5));
	aclIntArray *d0 = IA(0), *d5 = IA(5), *sh2 = IA(1, 2), *dm1 = IA(0);
	aclScalar *one = nnt_scalar(ACL_FLOAT, 1), *zero = nnt_scalar(ACL_FLOAT, 0), *four = nnt_scalar(ACL_FLOAT, 4);

	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnVar, NULL, d0, true, false, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnLogSumExp, a->t, NULL, false, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnArange, one, NULL, one, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnRoll, a->t, NULL, d0, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnGatherNd, a->t, NULL, false, o4->t);
	/* dim out of range, wrong shape, integer out */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnStd, a->t, d5, 1, false, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnVar, a->t, d0, true, true, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnLogSumExp, a->t, d0, false, oi->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnFlatten, a->t, 2, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnFlatten, a->t, 1, o4->t);
	/* shifts and dims of different lengths */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnRoll, a->t, sh2, dm1, o34->t);
	/* a zero step, a range of the wrong length, the wrong direction */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnArange, zero, four, zero, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnArange, zero, four, one, o5->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnArange, four, zero, one, o4->t);
	/* indices of a float type */
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnGatherNd, a->t, fidx->t, false, o4->t);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnScatterNd, a->t, fidx->t, o4->t, o34->t);
	NNT_FAILS(ACLNN_ERR_PARAM_NULLPTR, aclnnVarMean, a->t, d0, 1, false, o4->t, NULL);
	NNT_FAILS(ACLNN_ERR_PARAM_INVALID, aclnnVarCorrection, a->t, d5, 1, false, o4->t);
	aclDestroyScalar(one);
	aclDestroyScalar(zero);
	aclDestroyScalar(four);
	aclDestroyIntArray(d0);
	aclDestroyIntArray(d5);
	aclDestroyIntArray(sh2);
	aclDestroyIntArray(dm1);
	fr(o5);
	fr(fidx);
	fr(oi);
	fr(o34);
	fr(o4);
	fr(a);
}
END_TEST

static Suite *shape_suite(void)
{
	Suite *s = suite_create("aclnn_shape");
	TCase *tc = acl_tcase("reductions", true, 120);

	tcase_add_test(tc, reduce_sum_over_dims_of_every_layout);
	tcase_add_test(tc, mean_over_dims_of_every_layout);
	tcase_add_test(tc, amax_amin_over_dims_of_every_layout);
	tcase_add_test(tc, all_any_over_dims_and_empty_axes);
	tcase_add_test(tc, max_min_prod_of_every_element);
	tcase_add_test(tc, argmax_argmin_maxdim_mindim_along_a_dim);
	tcase_add_test(tc, cumsum_along_a_dim_with_dtype_exclusive_reverse);
	tcase_add_test(tc, cumprod_along_a_dim);
	tcase_add_test(tc, cumprod_refusals);
	tcase_add_test(tc, index_put_impl);
	tcase_add_test(tc, topk_and_sort_along_a_dim);
	tcase_add_test(tc, vector_norms_over_dims);
	suite_add_tcase(s, tc);

	tc = acl_tcase("moves", true, 120);
	tcase_add_test(tc, permute_into_a_transposed_out);
	tcase_add_test(tc, slice_expand_repeat_flip_of_views);
	tcase_add_test(tc, cat_and_stack_of_views_into_views);
	tcase_add_test(tc, split_into_views_of_a_list);
	tcase_add_test(tc, constant_pad_nd_pads_and_crops);
	suite_add_tcase(s, tc);

	tc = acl_tcase("indexing", true, 120);
	tcase_add_test(tc, index_select_embedding_gather);
	tcase_add_test(tc, scatter_replace_add_mul_value_and_in_place);
	tcase_add_test(tc, one_hot_at_any_axis);
	tcase_add_test(tc, tril_triu_and_in_place);
	tcase_add_test(tc, masked_fill_with_a_broadcast_mask_in_place);
	suite_add_tcase(s, tc);

	tc = acl_tcase("batch2", true, 120);
	tcase_add_test(tc, var_std_logsumexp_over_dims);
	tcase_add_test(tc, flatten_roll_of_views);
	tcase_add_test(tc, arange_and_gather_nd);
	suite_add_tcase(s, tc);

	tc = acl_tcase("errors", true, 60);
	tcase_add_test(tc, bad_arguments_have_exact_codes);
	tcase_add_test(tc, second_batch_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(shape_suite());
}
