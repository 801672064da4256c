// SPDX-License-Identifier: MIT
/*
 * ACL conformance: single operators on the device (aclopExecuteV2,
 * aclopCompileAndExecuteV2, the deprecated aclopExecute, operator handles) without a registered allocator: results against
 * CPU references computed here in double precision, CANN's error codes,
 * buffers that must be device memory, output descriptors refreshed, and
 * the runtime's own workspace pool (one submit per operator when warm,
 * several streams at once); reductions over non-adjacent axes also with a
 * registered allocator (lib/ops runs their chain inside one task, whose
 * workspace block holds the intermediates: one block, one submit).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_optest.h"
#include "acl_test.h"

static const aclDataType types[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32 };

/* ---- results --------------------------------------------------------------------- */

START_TEST(elementwise_operators_match_the_cpu)
{
	static const char *const names[] = { "Add", "Sub", "Mul", "RealDiv" };
	const int64_t d[2] = { 3, 41 }, one[1] = { 1 };
	double want[3 * 41];
	aclrtStream s;
	int t, o, form;

	ACL_OK(aclrtCreateStream(&s));
	for (t = 0; t < 4; t++) {
		for (o = 0; o < 4; o++) {
			for (form = 0; form < 3; form++) {
				/* form 0: same shapes; 1: single-element x1; 2: single-element x2 */
				struct dtensor *a = form == 1 ? dt_new(types[t], 1, one, 1u + (unsigned)o, -30, 30)
							      : dt_new(types[t], 2, d, 1u + (unsigned)o, -30, 30);
				struct dtensor *b = form == 2 ? dt_new(types[t], 0, NULL, 9, 1, 9)
							      : dt_new(types[t], 2, d, 5u + (unsigned)o, 1, 9);
				struct dtensor *y = dt_new(types[t], 2, d, 0, 0, 0);
				size_t i;

				ACL_OK(run_op(names[o], a, b, y, NULL, s));
				ACL_OK(aclrtSynchronizeStream(s));
				for (i = 0; i < y->count; i++) {
					double x1 = a->host[form == 1 ? 0 : i], x2 = b->host[form == 2 ? 0 : i];

					switch (o) {
					case 0: want[i] = x1 + x2; break;
					case 1: want[i] = x1 - x2; break;
					case 2: want[i] = x1 * x2; break;
					default: want[i] = types[t] == ACL_INT32 ? trunc(x1 / x2) : x1 / x2; break;
					}
				}
				dt_expect(y, want, 1e-6);
				dt_free(a);
				dt_free(b);
				dt_free(y);
			}
		}
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(unary_operators_and_casts_match_the_cpu)
{
	const int64_t d[3] = { 2, 3, 17 };
	double want[102];
	aclrtStream s;
	int t, u;

	ACL_OK(aclrtCreateStream(&s));
	for (t = 0; t < 4; t++) {
		struct dtensor *x = dt_new(types[t], 3, d, 40u + (unsigned)t, -100, 100);
		size_t i;

		for (u = 0; u < 2; u++) {
			struct dtensor *y = dt_new(types[t], 3, d, 0, 0, 0);

			ACL_OK(run_op(u ? "Abs" : "Relu", x, NULL, y, NULL, s));
			ACL_OK(aclrtSynchronizeStream(s));
			for (i = 0; i < x->count; i++)
				want[i] = u ? fabs(x->host[i]) : fmax(x->host[i], 0);
			dt_expect(y, want, 0);
			dt_free(y);
		}
		for (u = 0; u < 4; u++) {
			struct dtensor *y = dt_new(types[u], 3, d, 0, 0, 0);
			aclopAttr *attr = aclopCreateAttr();

			/* dst_type as a data type or as an int, as callers do. */
			if (u % 2)
				ACL_OK(aclopSetAttrDataType(attr, "dst_type", types[u]));
			else
				ACL_OK(aclopSetAttrInt(attr, "dst_type", types[u]));
			ACL_OK(run_op("Cast", x, NULL, y, attr, s));
			ACL_OK(aclrtSynchronizeStream(s));
			for (i = 0; i < x->count; i++)
				want[i] = types[u] == ACL_INT32 ? trunc(x->host[i]) : x->host[i];
			dt_expect(y, want, 0);
			dt_free(y);
			aclopDestroyAttr(attr);
		}
		dt_free(x);
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(reductions_and_softmax_match_the_cpu)
{
	const int64_t d[3] = { 3, 4, 300 }, rd[2] = { 3, 4 }, kd[3] = { 3, 4, 1 };
	double want[3 * 4 * 300];
	aclrtStream s;
	int t, keep, mx;

	ACL_OK(aclrtCreateStream(&s));
	for (t = 0; t < 4; t++) {
		struct dtensor *x = dt_new(types[t], 3, d, 50u + (unsigned)t, -6, 6);

		for (keep = 0; keep < 2; keep++) {
			aclopAttr *attr = attr_axes_last(keep);

			for (mx = 0; mx < 2; mx++) {
				struct dtensor *r = dt_new(types[t], keep ? 3 : 2, keep ? kd : rd, 0, 0, 0);

				ACL_OK(run_op(mx ? "ReduceMaxD" : "ReduceSumD", x, NULL, r, attr, s));
				ACL_OK(aclrtSynchronizeStream(s));
				host_reduce(x->host, 12, 300, mx, want);
				/* bf16/fp16 sums of 300 terms: rounding of the result */
				dt_expect(r, want, mx ? 0 : 60);
				dt_free(r);
			}
			aclopDestroyAttr(attr);
		}
		if (types[t] != ACL_INT32) {
			struct dtensor *y = dt_new(types[t], 3, d, 0, 0, 0);

			ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
			ACL_OK(aclrtSynchronizeStream(s));
			host_softmax(x->host, 12, 300, want);
			dt_expect(y, want, 1e-3);
			dt_free(y);
		}
		dt_free(x);
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* want[i][k] = sum or max over c of x[i][c][k] (x is rows x cols x inner). */
static void host_reduce_mid(const double *x, size_t rows, size_t cols, size_t inner, int mx, double *want)
{
	size_t i, c, k;

	for (i = 0; i < rows; i++)
		for (k = 0; k < inner; k++) {
			double acc = mx ? x[i * cols * inner + k] : 0;

			for (c = 0; c < cols; c++) {
				double v = x[(i * cols + c) * inner + k];

				acc = mx ? fmax(acc, v) : acc + v;
			}
			want[i * inner + k] = acc;
		}
}

static void host_softmax_mid(const double *x, size_t rows, size_t cols, size_t inner, double *want)
{
	size_t i, c, k;

	for (i = 0; i < rows; i++)
		for (k = 0; k < inner; k++) {
			double m = -INFINITY, sum = 0;

			for (c = 0; c < cols; c++)
				m = fmax(m, x[(i * cols + c) * inner + k]);
			for (c = 0; c < cols; c++)
				sum += exp(x[(i * cols + c) * inner + k] - m);
			for (c = 0; c < cols; c++)
				want[(i * cols + c) * inner + k] = exp(x[(i * cols + c) * inner + k] - m) / sum;
		}
}

/*
 * Axes other than the last of a [5, 6, 70] tensor: [0], [1], negative,
 * adjacent pairs, with and without keep_dims; the output shapes follow
 * CANN (the reduced axes go, or stay as 1).
 */
START_TEST(reductions_along_any_adjacent_axes)
{
	static const struct {
		int n;
		int64_t axes[2];
		size_t rows, cols, inner;
		int ond;
		int64_t od[3], kd[3];
	} cases[] = {
		{ 1, { 0 }, 1, 5, 420, 2, { 6, 70 }, { 1, 6, 70 } },
		{ 1, { 1 }, 5, 6, 70, 2, { 5, 70 }, { 5, 1, 70 } },
		{ 1, { -3 }, 1, 5, 420, 2, { 6, 70 }, { 1, 6, 70 } },
		{ 2, { -2, 0 }, 1, 30, 70, 1, { 70 }, { 1, 1, 70 } },
		{ 2, { 2, 1 }, 5, 420, 1, 1, { 5 }, { 5, 1, 1 } },
	};
	const int64_t d[3] = { 5, 6, 70 };
	static double want[5 * 6 * 70];
	aclrtStream s;
	unsigned int t, c;
	int keep, mx;

	ACL_OK(aclrtCreateStream(&s));
	for (t = 0; t < 4; t++) {
		struct dtensor *x = dt_new(types[t], 3, d, 60u + t, -6, 6);

		for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			for (keep = 0; keep < 2; keep++) {
				aclopAttr *attr = aclopCreateAttr();

				ACL_OK(aclopSetAttrListInt(attr, "axes", cases[c].n, cases[c].axes));
				ACL_OK(aclopSetAttrBool(attr, "keep_dims", (uint8_t)keep));
				for (mx = 0; mx < 2; mx++) {
					struct dtensor *r = keep ? dt_new(types[t], 3, cases[c].kd, 0, 0, 0)
								 : dt_new(types[t], cases[c].ond, cases[c].od, 0, 0, 0);

					/* mx: the other op only for the first and a negative case */
					if (mx && c != 0 && c != 2)
						break;
					ACL_OK(run_op(mx ? "ReduceMaxD" : "ReduceSumD", x, NULL, r, attr, s));
					ACL_OK(aclrtSynchronizeStream(s));
					host_reduce_mid(x->host, cases[c].rows, cases[c].cols, cases[c].inner, mx,
							want);
					dt_expect(r, want, mx ? 0 : 60);
					dt_free(r);
				}
				aclopDestroyAttr(attr);
			}
		}
		dt_free(x);
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* want[o] = sum or max of x (shape @dims) over the axes in @mask. */
static void host_reduce_axes(const double *x, int nd, const int64_t *dims, const bool *mask, int mx, double *want,
			     size_t nout)
{
	size_t n = 1, i;
	bool *seen = calloc(nout, 1);
	int d;

	ck_assert_ptr_nonnull(seen);
	for (d = 0; d < nd; d++)
		n *= (size_t)dims[d];
	for (i = 0; i < n; i++) {
		size_t rest = i, stride = 1, o = 0;

		for (d = nd - 1; d >= 0; d--) {
			size_t c = rest % (size_t)dims[d];

			rest /= (size_t)dims[d];
			if (!mask[d]) {
				o += c * stride;
				stride *= (size_t)dims[d];
			}
		}
		want[o] = !seen[o] ? x[i] : mx ? fmax(want[o], x[i]) : want[o] + x[i];
		seen[o] = true;
	}
	free(seen);
}

/* The output shape of a reduction of @dims over @mask (CANN's keep_dims). */
static int reduced_shape(int nd, const int64_t *dims, const bool *mask, bool keep, int64_t *od, size_t *count)
{
	int d, k = 0;

	*count = 1;
	for (d = 0; d < nd; d++) {
		if (mask[d] && !keep)
			continue;
		od[k] = mask[d] ? 1 : dims[d];
		*count *= (size_t)od[k++];
	}
	return k;
}

/*
 * Axes that are not adjacent: [0, 2] of a [5, 6, 70] tensor and [0, 2],
 * [1, 3] of a [3, 4, 5, 6] one, every type, sum and max, with and without
 * keep_dims. fp16/bf16 sums are the exact sum of the inputs rounded once
 * (the chain keeps fp32 between its steps): a tolerance of the output's
 * rounding alone.
 */
START_TEST(reductions_over_axes_that_are_not_adjacent)
{
	static const struct {
		int nd;
		int64_t dims[4];
		int n;
		int64_t axes[2];
	} cases[] = {
		{ 3, { 5, 6, 70 }, 2, { 0, 2 } },
		{ 3, { 5, 6, 70 }, 2, { -1, 0 } },
		{ 4, { 3, 4, 5, 6 }, 2, { 0, 2 } },
		{ 4, { 3, 4, 5, 6 }, 2, { 1, 3 } },
	};
	static double want[5 * 6 * 70];
	aclrtStream s;
	unsigned int t, c;
	int keep, mx, i;

	ACL_OK(aclrtCreateStream(&s));
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		bool mask[4] = { false };

		for (i = 0; i < cases[c].n; i++)
			mask[(cases[c].axes[i] + cases[c].nd) % cases[c].nd] = true;
		for (t = 0; t < 4; t++) {
			struct dtensor *x = dt_new(types[t], cases[c].nd, cases[c].dims, 90u + t + 4 * c, -6, 6);

			for (keep = 0; keep < 2; keep++) {
				aclopAttr *attr = aclopCreateAttr();
				int64_t od[4];
				size_t on;
				int ond = reduced_shape(cases[c].nd, cases[c].dims, mask, keep, od, &on);

				ACL_OK(aclopSetAttrListInt(attr, "axes", cases[c].n, cases[c].axes));
				ACL_OK(aclopSetAttrBool(attr, "keep_dims", (uint8_t)keep));
				for (mx = 0; mx < 2; mx++) {
					struct dtensor *r = dt_new(types[t], ond, od, 0, 0, 0);

					ACL_OK(run_op(mx ? "ReduceMaxD" : "ReduceSumD", x, NULL, r, attr, s));
					ACL_OK(aclrtSynchronizeStream(s));
					host_reduce_axes(x->host, cases[c].nd, cases[c].dims, mask, mx, want, on);
					dt_expect(r, want, mx ? 0 : types[t] == ACL_FLOAT ? 100 : 1);
					dt_free(r);
				}
				aclopDestroyAttr(attr);
			}
			dt_free(x);
		}
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

#define MIB (1ul << 20)

/*
 * A non-adjacent reduction with a registered counting allocator: one
 * alloc, getAddrFromBlock and free per operator, the block (workspace and
 * intermediates) inside the user's memory, and one SUBMIT per warm
 * operator; without an allocator the runtime pool does the same.
 */
START_TEST(a_chain_takes_one_block_and_one_submit)
{
	const int64_t d[3] = { 5, 6, 70 }, od[1] = { 6 }, axes[2] = { 0, 2 };
	const bool mask[3] = { true, false, true };
	static const aclDataType ts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };
	/*
	 * The block: the reductions' workspace ({1, 5, 420} then {6, 70}),
	 * then 64-byte aligned buffers. Sum: 8*420 = 3360 bytes of workspace,
	 * the [6, 70] intermediate at 3392 (1680 bytes), total 5120 (the
	 * empty second buffer's aligned offset). Max: 4*420 = 1680, the
	 * intermediate at 1728, total 3456. An fp16 sum casts the input to
	 * fp32 first: 3360, the fp32 input at 3392 (8400 bytes), the [6, 70]
	 * intermediate at 11840 (1680), total 13520; an fp16 max keeps fp16:
	 * 1680, the intermediate at 1728 (840), total 2624.
	 */
	static const size_t block[3][2] = { { 5120, 3456 }, { 13520, 2624 }, { 5120, 3456 } };
	struct test_alloc ta;
	double want[6];
	aclrtStream s;
	unsigned int t, before;
	unsigned long total;
	int i, mx;

	ta_init(&ta, MIB, 2);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	for (t = 0; t < 3; t++) {
		struct dtensor *x = dt_new(ts[t], 3, d, 120u + t, -6, 6), *r = dt_new(ts[t], 1, od, 0, 0, 0);
		aclopAttr *attr = aclopCreateAttr();

		ACL_OK(aclopSetAttrListInt(attr, "axes", 2, axes));
		for (mx = 0; mx < 2; mx++) {
			const char *op = mx ? "ReduceMaxD" : "ReduceSumD";
			uintptr_t addr, pool = (uintptr_t)ta.pool;

			before = atomic_load(&ta.allocs);
			ACL_OK(run_op(op, x, NULL, r, attr, s));
			ck_assert_uint_eq(atomic_load(&ta.allocs), before + 1);
			ck_assert_uint_eq(atomic_load(&ta.get_addrs), before + 1);
			ck_assert_uint_eq(atomic_load(&ta.frees), before + 1);
			ck_assert_uint_eq(atomic_load(&ta.last_size), block[t][mx]);
			addr = atomic_load(&ta.last_addr);
			ck_assert_uint_ge(addr, pool);
			ck_assert_uint_le(addr + atomic_load(&ta.last_size), pool + ta.pool_size);
			ck_assert_uint_eq(atomic_load(&ta.outside_pool), 0);
			ACL_OK(aclrtSynchronizeStream(s));
			host_reduce_axes(x->host, 3, d, mask, mx, want, 6);
			dt_expect(r, want, mx ? 0 : ts[t] == ACL_FLOAT ? 100 : 1);

			/* warm: one ioctl per operator, the SUBMIT; one block each */
			before = atomic_load(&ta.allocs);
			ioctl_count_start();
			for (i = 0; i < 10; i++)
				ACL_OK(run_op(op, x, NULL, r, attr, s));
			total = ioctl_count_stop();
			ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 10);
			ck_assert_uint_eq(total, 10);
			ck_assert_uint_eq(atomic_load(&ta.allocs), before + 10);
			ck_assert_uint_eq(atomic_load(&ta.frees), before + 10);
			ACL_OK(aclrtSynchronizeStream(s));
			dt_expect(r, want, mx ? 0 : ts[t] == ACL_FLOAT ? 100 : 1);
		}
		aclopDestroyAttr(attr);
		dt_free(x);
		dt_free(r);
	}
	ck_assert_uint_eq(atomic_load(&ta.frees), atomic_load(&ta.allocs));
	ck_assert_uint_eq(atomic_load(&ta.wrong_thread), 0);
	ACL_OK(aclrtAllocatorUnregister(s));

	/* the runtime pool: also one SUBMIT per warm operator */
	{
		struct dtensor *x = dt_new(ACL_FLOAT16, 3, d, 130, -6, 6), *r = dt_new(ACL_FLOAT16, 1, od, 0, 0, 0);
		aclopAttr *attr = aclopCreateAttr();

		ACL_OK(aclopSetAttrListInt(attr, "axes", 2, axes));
		ACL_OK(run_op("ReduceSumD", x, NULL, r, attr, s));
		ioctl_count_start();
		for (i = 0; i < 10; i++)
			ACL_OK(run_op("ReduceSumD", x, NULL, r, attr, s));
		total = ioctl_count_stop();
		ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 10);
		ck_assert_uint_eq(total, 10);
		ACL_OK(aclrtSynchronizeStream(s));
		host_reduce_axes(x->host, 3, d, mask, 0, want, 6);
		dt_expect(r, want, 1);
		aclopDestroyAttr(attr);
		dt_free(x);
		dt_free(r);
	}
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
}
END_TEST

/* SoftmaxV2 along axis 0 and axis 1 of a [5, 6, 70] tensor, and over [0, 1]. */
START_TEST(softmax_along_other_axes)
{
	static const struct {
		int n;
		int64_t axes[2];
		size_t rows, cols, inner;
	} cases[] = {
		{ 1, { 0 }, 1, 5, 420 }, { 1, { 1 }, 5, 6, 70 }, { 1, { -2 }, 5, 6, 70 },
		{ 2, { 0, 1 }, 1, 30, 70 },
	};
	const int64_t d[3] = { 5, 6, 70 };
	static double want[5 * 6 * 70];
	aclrtStream s;
	unsigned int t, c;

	ACL_OK(aclrtCreateStream(&s));
	for (t = 0; t < 3; t++) {
		struct dtensor *x = dt_new(types[t], 3, d, 70u + t, -6, 6);

		for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			struct dtensor *y = dt_new(types[t], 3, d, 0, 0, 0);
			aclopAttr *attr = aclopCreateAttr();

			ACL_OK(aclopSetAttrListInt(attr, "axes", cases[c].n, cases[c].axes));
			ACL_OK(run_op("SoftmaxV2", x, NULL, y, attr, s));
			ACL_OK(aclrtSynchronizeStream(s));
			host_softmax_mid(x->host, cases[c].rows, cases[c].cols, cases[c].inner, want);
			dt_expect(y, want, 1e-3);
			dt_free(y);
			aclopDestroyAttr(attr);
		}
		dt_free(x);
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(matmul_matches_the_cpu_with_every_transpose)
{
	const size_t m = 17, n = 23, k = 31;
	double want[17 * 23];
	aclrtStream s;
	int t, tr;

	ACL_OK(aclrtCreateStream(&s));
	for (t = 0; t < 4; t++) {
		for (tr = 0; tr < 4; tr++) {
			bool ta = tr & 1, tb = tr & 2;
			const int64_t ad[2] = { ta ? (int64_t)k : (int64_t)m, ta ? (int64_t)m : (int64_t)k };
			const int64_t bd[2] = { tb ? (int64_t)n : (int64_t)k, tb ? (int64_t)k : (int64_t)n };
			const int64_t od[2] = { (int64_t)m, (int64_t)n };
			struct dtensor *a = dt_new(types[t], 2, ad, 60u + (unsigned)tr, -4, 4);
			struct dtensor *b = dt_new(types[t], 2, bd, 70u + (unsigned)tr, -4, 4);
			struct dtensor *o = dt_new(types[t], 2, od, 0, 0, 0);
			aclopAttr *attr = attr_transpose(ta, tb);

			ACL_OK(run_op("MatMul", a, b, o, attr, s));
			ACL_OK(aclrtSynchronizeStream(s));
			host_matmul(a->host, b->host, m, n, k, ta, tb, want);
			dt_expect(o, want, 16.0 * k);
			aclopDestroyAttr(attr);
			dt_free(a);
			dt_free(b);
			dt_free(o);
		}
	}
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

START_TEST(a_chain_of_operators_matches_the_cpu)
{
	const int64_t ad[2] = { 8, 32 }, bd[2] = { 32, 64 }, hd[2] = { 8, 64 }, rd[1] = { 8 };
	struct dtensor *a = dt_new(ACL_FLOAT, 2, ad, 80, -1, 1), *b = dt_new(ACL_FLOAT, 2, bd, 81, -1, 1);
	struct dtensor *h = dt_new(ACL_FLOAT, 2, hd, 0, 0, 0), *p = dt_new(ACL_FLOAT, 2, hd, 0, 0, 0);
	struct dtensor *r = dt_new(ACL_FLOAT, 1, rd, 0, 0, 0);
	aclopAttr *axes = attr_axes_last(false);
	double mm[8 * 64], sm[8 * 64], want[8];
	aclTensorDesc *in_desc[1] = { h->desc }, *out_desc[1] = { p->desc };
	aclDataBuffer *in[1] = { h->buf }, *out[1] = { p->buf };

	/* MatMul -> SoftmaxV2 -> ReduceSumD on the default stream, the middle
	 * one through the compile-and-execute entry point. */
	ACL_OK(run_op("MatMul", a, b, h, NULL, NULL));
	ACL_OK(aclopCompileAndExecuteV2("SoftmaxV2", 1, in_desc, in, 1, out_desc, out, NULL, ACL_ENGINE_SYS,
					ACL_COMPILE_SYS, NULL, NULL));
	ACL_OK(run_op("ReduceSumD", p, NULL, r, axes, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	host_matmul(a->host, b->host, 8, 64, 32, false, false, mm);
	host_softmax(mm, 8, 64, sm);
	host_reduce(sm, 8, 64, false, want);
	dt_expect(r, want, 1);
	dt_expect(p, sm, 1e-3);
	aclopDestroyAttr(axes);
	dt_free(a);
	dt_free(b);
	dt_free(h);
	dt_free(p);
	dt_free(r);
}
END_TEST

START_TEST(compile_and_execute_checks_its_extra_arguments)
{
	const int64_t d[1] = { 8 };
	struct dtensor *x = dt_new(ACL_FLOAT, 1, d, 90, -1, 1), *y = dt_new(ACL_FLOAT, 1, d, 0, 0, 0);
	aclTensorDesc *in_desc[1] = { x->desc }, *out_desc[1] = { y->desc };
	aclDataBuffer *in[1] = { x->buf }, *out[1] = { y->buf };
	double want[8];
	size_t i;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCompileAndExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL,
								  (aclopEngineType)3, ACL_COMPILE_SYS, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCompileAndExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL,
								  ACL_ENGINE_AICORE, (aclopCompileType)2, NULL, NULL));
	ACL_OK(aclopCompileAndExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, ACL_ENGINE_VECTOR,
					ACL_COMPILE_UNREGISTERED, "/nonexistent/op/path", NULL));
	ACL_ERR(ACL_ERROR_OP_NOT_FOUND, aclopCompileAndExecuteV2("NoSuchOp", 1, in_desc, in, 1, out_desc, out,
								 NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, NULL));
	/* The form with const descriptors checks the same and runs the same. */
	ACL_ERR(ACL_ERROR_INVALID_PARAM,
		aclopCompileAndExecute("Relu", 1, (const aclTensorDesc *const *)in_desc,
				       (const aclDataBuffer *const *)in, 1, (const aclTensorDesc *const *)out_desc,
				       out, NULL, (aclopEngineType)3, ACL_COMPILE_SYS, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM,
		aclopCompileAndExecute("Relu", 1, (const aclTensorDesc *const *)in_desc,
				       (const aclDataBuffer *const *)in, 1, (const aclTensorDesc *const *)out_desc,
				       out, NULL, ACL_ENGINE_SYS, (aclopCompileType)2, NULL, NULL));
	ACL_OK(aclopCompileAndExecute("Relu", 1, (const aclTensorDesc *const *)in_desc,
				      (const aclDataBuffer *const *)in, 1, (const aclTensorDesc *const *)out_desc,
				      out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	for (i = 0; i < 8; i++)
		want[i] = fmax(x->host[i], 0);
	dt_expect(y, want, 0);
	/* Models are not needed; the calls are accepted. */
	ACL_OK(aclopSetModelDir("op_models"));
	ACL_OK(aclopSetModelDir("op_models"));
	ACL_OK(aclopLoad(want, sizeof(want)));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopSetModelDir(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopLoad(NULL, 8));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopLoad(want, 0));
	dt_free(x);
	dt_free(y);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------ */

START_TEST(operator_errors_have_cann_codes_and_messages)
{
	const int64_t d[2] = { 4, 8 }, d3[1] = { 3 }, rd[1] = { 4 };
	struct dtensor *f = dt_new(ACL_FLOAT, 2, d, 1, -1, 1), *g = dt_new(ACL_FLOAT, 2, d, 2, -1, 1);
	struct dtensor *h = dt_new(ACL_FLOAT16, 2, d, 3, -1, 1), *v = dt_new(ACL_FLOAT, 1, d3, 4, -1, 1);
	struct dtensor *r = dt_new(ACL_FLOAT, 1, rd, 0, 0, 0), *i32 = dt_new(ACL_INT32, 2, d, 5, -9, 9);
	aclTensorDesc *c64 = aclCreateTensorDesc(ACL_COMPLEX64, 2, d, ACL_FORMAT_ND);
	aclTensorDesc *nz = aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_FRACTAL_NZ);
	aclTensorDesc *in_desc[3] = { f->desc, g->desc, g->desc }, *out_desc[2] = { g->desc, g->desc };
	aclDataBuffer *in[3] = { f->buf, g->buf, g->buf }, *out[2] = { g->buf, g->buf };
	aclopAttr *attr = aclopCreateAttr();
	const int64_t axis0[1] = { 0 }, axes_2[1] = { 2 }, axes_m3[1] = { -3 }, axes_dup[2] = { 1, -1 };

	ACL_ERR(ACL_ERROR_OP_NOT_FOUND, run_op("NoSuchOp", f, NULL, g, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2(NULL, 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, aclopExecuteV2("Add", 3, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, aclopExecuteV2("Add", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_OP_OUTPUT_NOT_MATCH, aclopExecuteV2("Add", 2, in_desc, in, 2, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, NULL, in, 1, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, in_desc, NULL, 1, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, run_op("Add", f, v, g, NULL, NULL)); /* [4, 8] and [3] do not broadcast */
	ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, run_op("Mul", f, h, g, NULL, NULL)); /* mixed types */
	ACL_ERR(ACL_ERROR_OP_OUTPUT_NOT_MATCH, run_op("Mul", f, g, h, NULL, NULL)); /* output type */
	ACL_ERR(ACL_ERROR_OP_OUTPUT_NOT_MATCH, run_op("Relu", f, NULL, v, NULL, NULL)); /* output shape */
	ACL_ERR(ACL_ERROR_UNSUPPORTED_DATA_TYPE, run_op("SoftmaxV2", i32, NULL, i32, NULL, NULL));
	in_desc[0] = c64;
	ACL_ERR(ACL_ERROR_UNSUPPORTED_DATA_TYPE, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	in_desc[0] = nz;
	ACL_ERR(ACL_ERROR_FORMAT_NOT_MATCH, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("ReduceSumD", f, NULL, r, NULL, NULL)); /* no axes */
	ACL_OK(aclopSetAttrListInt(attr, "axes", 1, axes_2));
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("ReduceSumD", f, NULL, r, attr, NULL)); /* out of range */
	ACL_OK(aclopSetAttrListInt(attr, "axes", 1, axes_m3));
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("ReduceMaxD", f, NULL, r, attr, NULL)); /* out of range */
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("SoftmaxV2", f, NULL, g, attr, NULL)); /* out of range */
	ACL_OK(aclopSetAttrListInt(attr, "axes", 2, axes_dup));
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("ReduceSumD", f, NULL, r, attr, NULL)); /* axis twice */
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("SoftmaxV2", f, NULL, g, attr, NULL)); /* axis twice */
	ACL_OK(aclopSetAttrListInt(attr, "axes", 1, axis0));
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("Cast", f, NULL, g, NULL, NULL)); /* no dst_type */
	ACL_ERR(ACL_ERROR_OP_ATTR_NOT_MATCH, run_op("Relu", f, NULL, g, attr, NULL)); /* Relu has no axes */
	/* None of these queued anything. */
	ACL_OK(aclrtSynchronizeStream(NULL));
	aclDestroyTensorDesc(c64);
	aclDestroyTensorDesc(nz);
	aclopDestroyAttr(attr);
	dt_free(f);
	dt_free(g);
	dt_free(h);
	dt_free(v);
	dt_free(r);
	dt_free(i32);
}
END_TEST

START_TEST(buffers_must_be_device_memory_of_the_stream)
{
	const int64_t d[1] = { 64 };
	struct dtensor *x = dt_new(ACL_FLOAT, 1, d, 6, -1, 1), *y = dt_new(ACL_FLOAT, 1, d, 0, 0, 0);
	float host[64];
	void *pinned, *gone, *small;
	aclDataBuffer *saved = x->buf;
	aclTensorDesc *in_desc[1] = { x->desc }, *out_desc[1] = { y->desc };
	aclDataBuffer *in[1], *out[1] = { y->buf };
	aclrtContext mine, other;
	aclrtStream s;

	memset(host, 0, sizeof(host));
	in[0] = aclCreateDataBuffer(host, sizeof(host));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_OK(aclDestroyDataBuffer(in[0]));
	ACL_OK(aclrtMallocHost(&pinned, 256));
	in[0] = aclCreateDataBuffer(pinned, 256);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_OK(aclDestroyDataBuffer(in[0]));
	ACL_OK(aclrtFreeHost(pinned));
	ACL_OK(aclrtMalloc(&gone, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtFree(gone));
	in[0] = aclCreateDataBuffer(gone, 256);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_OK(aclDestroyDataBuffer(in[0]));
	/* The buffer says 256 bytes, the allocation has fewer. */
	ACL_OK(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	in[0] = aclCreateDataBuffer(small, 256);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	/* The buffer is smaller than the tensor. */
	ACL_OK(aclUpdateDataBuffer(in[0], small, 64));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_OK(aclUpdateDataBuffer(in[0], (char *)small + 2, 256));
	ACL_ERR(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED,
		aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ACL_OK(aclDestroyDataBuffer(in[0]));
	ACL_OK(aclrtFree(small));
	in[0] = saved;

	/* A stream of another context is refused as by every stream API. */
	ACL_OK(aclrtGetCurrentContext(&mine));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateContext(&other, 0));
	ACL_ERR(ACL_ERROR_RT_STREAM_CONTEXT, aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, s));
	ACL_OK(aclrtSetCurrentContext(mine));
	ACL_OK(aclopExecuteV2("Relu", 1, in_desc, in, 1, out_desc, out, NULL, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtDestroyContext(other));
	ACL_OK(aclrtSetCurrentContext(mine));
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(outputs_get_their_shape)
{
	const int64_t d[3] = { 2, 3, 5 }, unknown[2] = { -1, -1 }, rank[1] = { -2 };
	struct dtensor *x = dt_new(ACL_FLOAT, 3, d, 7, -1, 1), *y = dt_new(ACL_FLOAT, 3, d, 0, 0, 0);
	aclTensorDesc *o = aclCreateTensorDesc(ACL_FLOAT, 2, unknown, ACL_FORMAT_ND);
	aclTensorDesc *r = aclCreateTensorDesc(ACL_FLOAT, 1, rank, ACL_FORMAT_ND);
	aclTensorDesc *in_desc[1] = { x->desc }, *out_desc[1] = { o };
	aclDataBuffer *in[1] = { x->buf }, *out[1] = { y->buf };
	aclopAttr *axes = attr_axes_last(false);
	int64_t dim;

	ACL_OK(aclopExecuteV2("ReduceMaxD", 1, in_desc, in, 1, out_desc, out, axes, NULL));
	ck_assert_uint_eq(aclGetTensorDescNumDims(o), 2);
	ACL_OK(aclGetTensorDescDimV2(o, 0, &dim));
	ck_assert_int_eq(dim, 2);
	ACL_OK(aclGetTensorDescDimV2(o, 1, &dim));
	ck_assert_int_eq(dim, 3);
	out_desc[0] = r;
	ACL_OK(aclopExecuteV2("SoftmaxV2", 1, in_desc, in, 1, out_desc, out, NULL, NULL));
	ck_assert_uint_eq(aclGetTensorDescNumDims(r), 3);
	ACL_OK(aclGetTensorDescDimV2(r, 2, &dim));
	ck_assert_int_eq(dim, 5);
	ACL_OK(aclrtSynchronizeStream(NULL));
	aclDestroyTensorDesc(o);
	aclDestroyTensorDesc(r);
	aclopDestroyAttr(axes);
	dt_free(x);
	dt_free(y);
}
END_TEST

START_TEST(integer_division_by_zero_fails_the_stream)
{
	const int64_t d[1] = { 16 };
	struct dtensor *x = dt_new(ACL_INT32, 1, d, 8, 1, 100), *z = dt_new(ACL_INT32, 1, d, 0, 0, 0);
	struct dtensor *y = dt_new(ACL_INT32, 1, d, 0, 0, 0);
	aclrtStream s;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(run_op("RealDiv", x, z, y, NULL, s));
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ACL_OK(aclrtDestroyStream(s));
	dt_free(x);
	dt_free(y);
	dt_free(z);
}
END_TEST

START_TEST(empty_tensors_queue_nothing)
{
	const int64_t e[2] = { 0, 7 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, e, 0, 0, 0), *y = dt_new(ACL_FLOAT, 2, e, 0, 0, 0);

	ioctl_count_start();
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, NULL));
	ACL_OK(run_op("Add", x, x, y, NULL, NULL));
	ck_assert_uint_eq(ioctl_count_stop(), 0);
	dt_free(x);
	dt_free(y);
}
END_TEST

/*
 * Without an engine server every submit fails with -ENOTCONN: an operator
 * says to start the server, queues nothing and gives its workspace back
 * (the next operator on the stream runs). The failure is faked: the
 * guest's server stays up.
 */
START_TEST(operators_without_an_engine_server_say_to_start_it)
{
	const int64_t d[2] = { 4, 64 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 11, -2, 2), *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	double want[4 * 64];
	const char *msg;
	aclrtStream s;

	ACL_OK(aclrtCreateStream(&s));
	ioctl_fake_failure(NR_SUBMIT, ENOTCONN);
	ck_assert_int_eq(run_op("SoftmaxV2", x, NULL, y, NULL, s), ACL_ERROR_RT_DEV_SETUP_ERROR);
	msg = aclGetRecentErrMsg();
	ck_assert_msg(msg && strstr(msg, "has no engine server: start vnpu-engined"), "%s", msg ? msg : "no message");
	ck_assert_int_eq(run_op("Relu", x, NULL, y, NULL, s), ACL_ERROR_RT_DEV_SETUP_ERROR);
	ioctl_fake_failure(0, 0);
	ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(x->host, 4, 64, want);
	dt_expect(y, want, 1e-3);
	ACL_OK(aclrtDestroyStream(s));
	dt_free(x);
	dt_free(y);
}
END_TEST

/* ---- the runtime's workspace pool ----------------------------------------------------- */

START_TEST(the_runtime_pool_costs_one_submit_per_operator)
{
	const int64_t small[2] = { 4, 100 }, big[2] = { 2, 40000 };
	struct dtensor *a = dt_new(ACL_FLOAT, 2, small, 9, -2, 2), *b = dt_new(ACL_FLOAT, 2, small, 0, 0, 0);
	struct dtensor *c = dt_new(ACL_FLOAT, 2, big, 10, -2, 2), *d = dt_new(ACL_FLOAT, 2, big, 0, 0, 0);
	double want[2 * 40000];
	aclrtStream s;
	int i;

	ACL_OK(aclrtCreateStream(&s));
	/* Warm: one block for each size class. */
	ACL_OK(run_op("SoftmaxV2", a, NULL, b, NULL, s));
	ACL_OK(run_op("SoftmaxV2", c, NULL, d, NULL, s));
	ioctl_count_start();
	for (i = 0; i < 30; i++) {
		ACL_OK(run_op("SoftmaxV2", a, NULL, b, NULL, s));
		ACL_OK(run_op("SoftmaxV2", c, NULL, d, NULL, s));
	}
	ck_assert_uint_eq(ioctl_count_stop(), 60);
	ck_assert_uint_eq(ioctl_count(NR_SUBMIT), 60);
	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(a->host, 4, 100, want);
	dt_expect(b, want, 1e-3);
	host_softmax(c->host, 2, 40000, want);
	dt_expect(d, want, 1e-3);
	ACL_OK(aclrtDestroyStream(s));
	dt_free(a);
	dt_free(b);
	dt_free(c);
	dt_free(d);
}
END_TEST

struct pool_runner {
	aclrtContext ctx;
	unsigned int id;
};

static void *pool_runner_main(void *arg)
{
	struct pool_runner *p = arg;
	const int64_t xd[2] = { 8, 700 }, ad[2] = { 20, 30 }, bd[2] = { 40, 30 }, od[2] = { 20, 40 };
	struct dtensor *x, *y, *a, *b, *o;
	aclopAttr *tr;
	double want[8 * 700];
	aclrtStream s;
	int i;

	ACL_OK(aclrtSetCurrentContext(p->ctx));
	ACL_OK(aclrtCreateStream(&s));
	x = dt_new(ACL_BF16, 2, xd, 200 + p->id, -3, 3);
	y = dt_new(ACL_BF16, 2, xd, 0, 0, 0);
	a = dt_new(ACL_FLOAT16, 2, ad, 300 + p->id, -2, 2);
	b = dt_new(ACL_FLOAT16, 2, bd, 400 + p->id, -2, 2);
	o = dt_new(ACL_FLOAT16, 2, od, 0, 0, 0);
	tr = attr_transpose(false, true);
	for (i = 0; i < 15; i++) {
		ACL_OK(run_op("SoftmaxV2", x, NULL, y, NULL, s));
		ACL_OK(run_op("MatMul", a, b, o, tr, s));
	}
	ACL_OK(aclrtSynchronizeStream(s));
	host_softmax(x->host, 8, 700, want);
	dt_expect(y, want, 1e-3);
	host_matmul(a->host, b->host, 20, 40, 30, false, true, want);
	dt_expect(o, want, 60);
	/* Destroyed streams hand their blocks to the others. */
	ACL_OK(aclrtDestroyStream(s));
	aclopDestroyAttr(tr);
	dt_free(x);
	dt_free(y);
	dt_free(a);
	dt_free(b);
	dt_free(o);
	return NULL;
}

START_TEST(streams_share_the_runtime_pool_safely)
{
	struct pool_runner p[6];
	pthread_t t[6];
	aclrtContext ctx;
	unsigned int i, round;

	ACL_OK(aclrtGetCurrentContext(&ctx));
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 6; i++) {
			p[i].ctx = ctx;
			p[i].id = round * 6 + i;
			ck_assert_int_eq(pthread_create(&t[i], NULL, pool_runner_main, &p[i]), 0);
		}
		for (i = 0; i < 6; i++)
			pthread_join(t[i], NULL);
	}
}
END_TEST

/* ---- aclopExecute (deprecated V1) ------------------------------------------------- */

/* Its users compile with a deprecation warning, silenced here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Run @type with aclopExecute's const arrays; @out_desc may differ from
 * out->desc (one with unknown dimensions). */
static aclError run_v1(const char *type, struct dtensor *a, struct dtensor *b, const aclTensorDesc *out_desc,
		       struct dtensor *out, const aclopAttr *attr, aclrtStream stream)
{
	const aclTensorDesc *const in_desc[2] = { a->desc, b ? b->desc : NULL };
	const aclDataBuffer *const in[2] = { a->buf, b ? b->buf : NULL };
	const aclTensorDesc *const od[1] = { out_desc };
	aclDataBuffer *const ob[1] = { out->buf };

	return aclopExecute(type, b ? 2 : 1, in_desc, in, 1, od, ob, attr, stream);
}

START_TEST(execute_v1_computes_add_and_matmul)
{
	const int64_t d[2] = { 3, 41 }, ad[2] = { 31, 17 }, bd[2] = { 31, 23 }, od[2] = { 17, 23 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 11, -30, 30), *y = dt_new(ACL_FLOAT, 2, d, 12, -30, 30);
	struct dtensor *z = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	struct dtensor *a = dt_new(ACL_FLOAT, 2, ad, 13, -4, 4), *b = dt_new(ACL_FLOAT, 2, bd, 14, -4, 4);
	struct dtensor *o = dt_new(ACL_FLOAT, 2, od, 0, 0, 0);
	aclopAttr *tr = attr_transpose(true, false);
	double want[31 * 41];
	aclrtStream s;
	size_t i;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(run_v1("Add", x, y, z->desc, z, NULL, s));
	ACL_OK(run_v1("MatMul", a, b, o->desc, o, tr, s));
	ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < z->count; i++)
		want[i] = x->host[i] + y->host[i];
	dt_expect(z, want, 1e-6);
	host_matmul(a->host, b->host, 17, 23, 31, true, false, want);
	dt_expect(o, want, 16.0 * 31);
	/* The same checks and codes as V2. */
	ACL_ERR(ACL_ERROR_OP_NOT_FOUND, run_v1("NoSuchOp", x, y, z->desc, z, NULL, s));
	ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, run_v1("Add", x, a, z->desc, z, NULL, s));
	ACL_ERR(ACL_ERROR_OP_OUTPUT_NOT_MATCH, run_v1("MatMul", a, b, z->desc, z, tr, s));
	ACL_OK(aclrtDestroyStream(s));
	aclopDestroyAttr(tr);
	dt_free(x);
	dt_free(y);
	dt_free(z);
	dt_free(a);
	dt_free(b);
	dt_free(o);
}
END_TEST

/* Where V2 fills in unknown output dimensions, V1 writes nothing. */
START_TEST(execute_v1_leaves_output_desc_alone)
{
	const int64_t ad[2] = { 31, 17 }, bd[2] = { 31, 23 }, od[2] = { 17, 23 }, unknown[2] = { -1, -1 };
	const int64_t xd[3] = { 2, 3, 5 }, rd[2] = { 2, 3 }, rank[1] = { -2 };
	struct dtensor *a = dt_new(ACL_FLOAT, 2, ad, 15, -4, 4), *b = dt_new(ACL_FLOAT, 2, bd, 16, -4, 4);
	struct dtensor *o = dt_new(ACL_FLOAT, 2, od, 0, 0, 0);
	struct dtensor *x = dt_new(ACL_FLOAT, 3, xd, 17, -1, 1), *r = dt_new(ACL_FLOAT, 2, rd, 0, 0, 0);
	aclTensorDesc *u = aclCreateTensorDesc(ACL_FLOAT, 2, unknown, ACL_FORMAT_ND);
	aclTensorDesc *k = aclCreateTensorDesc(ACL_FLOAT, 1, rank, ACL_FORMAT_ND);
	aclopAttr *tr = attr_transpose(true, false), *axes = attr_axes_last(false);
	double want[17 * 23];
	int64_t dim;

	ACL_OK(run_v1("MatMul", a, b, u, o, tr, NULL));
	ACL_OK(run_v1("ReduceMaxD", x, NULL, k, r, axes, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ck_assert_uint_eq(aclGetTensorDescNumDims(u), 2);
	ACL_OK(aclGetTensorDescDimV2(u, 0, &dim));
	ck_assert_int_eq(dim, -1);
	ACL_OK(aclGetTensorDescDimV2(u, 1, &dim));
	ck_assert_int_eq(dim, -1);
	ck_assert_uint_eq(aclGetTensorDescNumDims(k), 1);
	ACL_OK(aclGetTensorDescDimV2(k, 0, &dim));
	ck_assert_int_eq(dim, -2);
	host_matmul(a->host, b->host, 17, 23, 31, true, false, want);
	dt_expect(o, want, 16.0 * 31);
	host_reduce(x->host, 6, 5, true, want);
	dt_expect(r, want, 0);

	/* V2 with the same descriptor refreshes it. */
	{
		aclTensorDesc *in_desc[2] = { a->desc, b->desc }, *out_desc[1] = { u };
		aclDataBuffer *in[2] = { a->buf, b->buf }, *out[1] = { o->buf };

		ACL_OK(aclopExecuteV2("MatMul", 2, in_desc, in, 1, out_desc, out, tr, NULL));
		ACL_OK(aclrtSynchronizeStream(NULL));
		ACL_OK(aclGetTensorDescDimV2(u, 0, &dim));
		ck_assert_int_eq(dim, 17);
		ACL_OK(aclGetTensorDescDimV2(u, 1, &dim));
		ck_assert_int_eq(dim, 23);
	}
	aclDestroyTensorDesc(u);
	aclDestroyTensorDesc(k);
	aclopDestroyAttr(tr);
	aclopDestroyAttr(axes);
	dt_free(a);
	dt_free(b);
	dt_free(o);
	dt_free(x);
	dt_free(r);
}
END_TEST
#pragma GCC diagnostic pop

/* ---- operator handles -------------------------------------------------------------- */

static aclError exec_handle(aclopHandle *h, struct dtensor *a, struct dtensor *b, struct dtensor *out,
			    aclrtStream stream)
{
	const aclDataBuffer *const in[2] = { a->buf, b ? b->buf : NULL };
	aclDataBuffer *const ob[1] = { out->buf };

	return aclopExecWithHandle(h, b ? 2 : 1, in, 1, ob, stream);
}

/* One handle, several calls with different buffers. */
START_TEST(a_handle_runs_again_with_new_buffers)
{
	const int64_t d[2] = { 3, 41 };
	const aclTensorDesc *in_desc[2], *out_desc[1];
	double want[3 * 41];
	aclopHandle *h = NULL;
	aclrtStream s;
	unsigned int n;
	size_t i;

	{
		struct dtensor *t = dt_new(ACL_INT32, 2, d, 0, 0, 0);

		in_desc[0] = in_desc[1] = out_desc[0] = t->desc;
		ACL_OK(aclopCreateHandle("Add", 2, in_desc, 1, out_desc, NULL, &h));
		ck_assert_ptr_nonnull(h);
		dt_free(t);	/* the handle keeps no reference to it */
	}
	ACL_OK(aclrtCreateStream(&s));
	for (n = 0; n < 4; n++) {
		struct dtensor *x = dt_new(ACL_INT32, 2, d, 20 + n, -1000, 1000);
		struct dtensor *y = dt_new(ACL_INT32, 2, d, 30 + n, -1000, 1000);
		struct dtensor *z = dt_new(ACL_INT32, 2, d, 0, 0, 0);

		ACL_OK(exec_handle(h, x, y, z, n & 1 ? NULL : s));
		ACL_OK(aclrtSynchronizeStream(n & 1 ? NULL : s));
		for (i = 0; i < z->count; i++)
			want[i] = x->host[i] + y->host[i];
		dt_expect(z, want, 0);
		dt_free(x);
		dt_free(y);
		dt_free(z);
	}
	aclopDestroyHandle(h);
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* The caller's descriptors and attributes may go right after creation. */
START_TEST(a_handle_outlives_its_descs_and_attr)
{
	const int64_t ad[2] = { 31, 17 }, bd[2] = { 23, 31 }, od[2] = { 17, 23 };
	aclTensorDesc *da = aclCreateTensorDesc(ACL_FLOAT, 2, ad, ACL_FORMAT_ND);
	aclTensorDesc *db = aclCreateTensorDesc(ACL_FLOAT, 2, bd, ACL_FORMAT_ND);
	aclTensorDesc *dout = aclCreateTensorDesc(ACL_FLOAT, 2, od, ACL_FORMAT_ND);
	aclopAttr *tr = attr_transpose(true, true);
	const aclTensorDesc *in_desc[2] = { da, db }, *out_desc[1] = { dout };
	double want[17 * 23];
	aclopHandle *h = NULL;
	unsigned int n;

	ACL_OK(aclopCreateHandle("MatMul", 2, in_desc, 1, out_desc, tr, &h));
	aclDestroyTensorDesc(da);
	aclDestroyTensorDesc(db);
	aclDestroyTensorDesc(dout);
	aclopDestroyAttr(tr);
	/* Reuse the freed memory with other contents. */
	tr = attr_transpose(false, false);
	for (n = 0; n < 3; n++) {
		struct dtensor *a = dt_new(ACL_FLOAT, 2, ad, 40 + n, -4, 4), *b = dt_new(ACL_FLOAT, 2, bd, 50 + n, -4, 4);
		struct dtensor *o = dt_new(ACL_FLOAT, 2, od, 0, 0, 0);

		ACL_OK(exec_handle(h, a, b, o, NULL));
		ACL_OK(aclrtSynchronizeStream(NULL));
		host_matmul(a->host, b->host, 17, 23, 31, true, true, want);
		dt_expect(o, want, 16.0 * 31);
		dt_free(a);
		dt_free(b);
		dt_free(o);
	}
	aclopDestroyAttr(tr);
	aclopDestroyHandle(h);
}
END_TEST

START_TEST(handle_errors_have_cann_codes)
{
	const int64_t d[2] = { 4, 8 }, d2[2] = { 8, 4 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, d, 60, -1, 1), *y = dt_new(ACL_FLOAT, 2, d, 0, 0, 0);
	struct dtensor *w = dt_new(ACL_FLOAT, 2, d2, 61, -1, 1);
	const aclTensorDesc *in_desc[2] = { x->desc, x->desc }, *out_desc[1] = { y->desc };
	const aclTensorDesc *bad_in[2] = { x->desc, w->desc };
	aclTensorDesc *v2_in[2] = { x->desc, x->desc }, *v2_bad[2] = { x->desc, w->desc }, *v2_out[1] = { y->desc };
	aclDataBuffer *v2_buf[2] = { x->buf, x->buf }, *v2_obuf[1] = { y->buf };
	const aclDataBuffer *const in[2] = { x->buf, x->buf };
	aclDataBuffer *const out[1] = { y->buf };
	aclopHandle *h = NULL, *none = NULL;
	aclError v2;
	double want[32];
	size_t i;

	/* CreateHandle: V2's codes for the same call. */
	v2 = aclopExecuteV2("NoSuchOp", 2, v2_in, v2_buf, 1, v2_out, v2_obuf, NULL, NULL);
	ck_assert_int_eq(v2, ACL_ERROR_OP_NOT_FOUND);
	ACL_ERR(v2, aclopCreateHandle("NoSuchOp", 2, in_desc, 1, out_desc, NULL, &none));
	v2 = aclopExecuteV2("Add", 2, v2_bad, v2_buf, 1, v2_out, v2_obuf, NULL, NULL);
	ck_assert_int_eq(v2, ACL_ERROR_OP_INPUT_NOT_MATCH);
	ACL_ERR(v2, aclopCreateHandle("Add", 2, bad_in, 1, out_desc, NULL, &none));
	ACL_ERR(ACL_ERROR_OP_INPUT_NOT_MATCH, aclopCreateHandle("Add", 1, in_desc, 1, out_desc, NULL, &none));
	ACL_ERR(ACL_ERROR_OP_OUTPUT_NOT_MATCH, aclopCreateHandle("Add", 2, in_desc, 1, bad_in + 1, NULL, &none));
	ck_assert_ptr_null(none);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCreateHandle(NULL, 2, in_desc, 1, out_desc, NULL, &none));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCreateHandle("Add", 2, NULL, 1, out_desc, NULL, &none));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCreateHandle("Add", 2, in_desc, 1, NULL, NULL, &none));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCreateHandle("Add", 2, in_desc, 1, out_desc, NULL, NULL));

	ACL_OK(aclopCreateHandle("Add", 2, in_desc, 1, out_desc, NULL, &h));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(NULL, 2, in, 1, out, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 1, in, 1, out, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 2, in, 0, out, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 3, in, 1, out, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 2, NULL, 1, out, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 2, in, 1, NULL, NULL));
	/* A buffer too small for the handle's descriptors. */
	{
		aclDataBuffer *small = aclCreateDataBuffer(y->dev, y->bytes - 4);
		aclDataBuffer *const sout[1] = { small };

		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 2, in, 1, sout, NULL));
		ACL_OK(aclDestroyDataBuffer(small));
	}
	/* Nothing failed for good: the handle still works. */
	ACL_OK(aclopExecWithHandle(h, 2, in, 1, out, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	for (i = 0; i < y->count; i++)
		want[i] = 2 * x->host[i];
	dt_expect(y, want, 1e-6);
	aclopDestroyHandle(h);
	aclopDestroyHandle(NULL);
	dt_free(x);
	dt_free(y);
	dt_free(w);
}
END_TEST

/* The workspace of a handle's operator comes from the stream's registered
 * allocator, as for V2; without one from the runtime's pool. */
START_TEST(a_handle_takes_workspace_from_the_streams_allocator)
{
	const int64_t xd[2] = { 8, 100 };
	struct dtensor *x = dt_new(ACL_FLOAT, 2, xd, 70, -3, 3), *y = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);
	const aclTensorDesc *in_desc[1] = { x->desc }, *out_desc[1] = { y->desc };
	double want[8 * 100];
	struct test_alloc ta;
	aclopHandle *h = NULL;
	aclrtStream s;
	unsigned int n;

	ACL_OK(aclopCreateHandle("SoftmaxV2", 1, in_desc, 1, out_desc, NULL, &h));
	ta_init(&ta, MIB, 4);
	ACL_OK(aclrtCreateStream(&s));
	ta_register(&ta, s);
	host_softmax(x->host, 8, 100, want);
	for (n = 1; n <= 3; n++) {
		ACL_OK(exec_handle(h, x, NULL, y, s));
		ck_assert_uint_eq(atomic_load(&ta.allocs), n);
		ck_assert_uint_eq(atomic_load(&ta.get_addrs), n);
		ck_assert_uint_eq(atomic_load(&ta.frees), n);
		ck_assert_uint_gt(atomic_load(&ta.last_size), 0);
	}
	ck_assert_uint_eq(atomic_load(&ta.outside_pool), 0);
	ck_assert_uint_eq(atomic_load(&ta.wrong_thread), 0);
	ACL_OK(aclrtSynchronizeStream(s));
	dt_expect(y, want, 1e-3);

	/* Unregistered: the runtime's pool, the allocator is not called. */
	ACL_OK(aclrtAllocatorUnregister(s));
	{
		struct dtensor *y2 = dt_new(ACL_FLOAT, 2, xd, 0, 0, 0);

		ACL_OK(exec_handle(h, x, NULL, y2, s));
		ck_assert_uint_eq(atomic_load(&ta.allocs), 3);
		ACL_OK(aclrtSynchronizeStream(s));
		dt_expect(y2, want, 1e-3);
		dt_free(y2);
	}
	ACL_OK(aclrtDestroyStream(s));
	ta_fini(&ta);
	aclopDestroyHandle(h);
	dt_free(x);
	dt_free(y);
}
END_TEST

static Suite *op_suite(void)
{
	Suite *s = suite_create("acl_op");
	TCase *tc;

	tc = acl_tcase("results", true, 240);
	tcase_add_test(tc, elementwise_operators_match_the_cpu);
	tcase_add_test(tc, unary_operators_and_casts_match_the_cpu);
	tcase_add_test(tc, reductions_and_softmax_match_the_cpu);
	tcase_add_test(tc, reductions_along_any_adjacent_axes);
	tcase_add_test(tc, reductions_over_axes_that_are_not_adjacent);
	tcase_add_test(tc, softmax_along_other_axes);
	tcase_add_test(tc, matmul_matches_the_cpu_with_every_transpose);
	tcase_add_test(tc, a_chain_of_operators_matches_the_cpu);
	tcase_add_test(tc, compile_and_execute_checks_its_extra_arguments);
	tcase_add_test(tc, execute_v1_computes_add_and_matmul);
	tcase_add_test(tc, execute_v1_leaves_output_desc_alone);
	tcase_add_test(tc, a_handle_runs_again_with_new_buffers);
	tcase_add_test(tc, a_handle_outlives_its_descs_and_attr);
	tcase_add_test(tc, a_handle_takes_workspace_from_the_streams_allocator);
	suite_add_tcase(s, tc);

	tc = acl_tcase("errors", true, 60);
	tcase_add_test(tc, operator_errors_have_cann_codes_and_messages);
	tcase_add_test(tc, buffers_must_be_device_memory_of_the_stream);
	tcase_add_test(tc, outputs_get_their_shape);
	tcase_add_test(tc, handle_errors_have_cann_codes);
	tcase_add_test(tc, integer_division_by_zero_fails_the_stream);
	tcase_add_test(tc, empty_tensors_queue_nothing);
	tcase_add_test(tc, operators_without_an_engine_server_say_to_start_it);
	suite_add_tcase(s, tc);

	tc = acl_tcase("runtime_pool", true, 180);
	tcase_add_test(tc, the_runtime_pool_costs_one_submit_per_operator);
	tcase_add_test(tc, streams_share_the_runtime_pool_safely);
	tcase_add_test(tc, a_chain_takes_one_block_and_one_submit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(op_suite());
}
