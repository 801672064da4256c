// SPDX-License-Identifier: GPL-2.0
/*
 * Operators on the device, planned with lib/ops (vops_plan(): CANN type
 * names, aclDataType inputs, CANN attributes), checked by the kernel and
 * run by the engine server, against the CPU reference of
 * lib/vnpu_op_ref.c (double precision, written for the tests): every
 * operator and data type on fixed-seed random inputs, plus edge values of
 * each float format (fp16's also through reductions, softmax and matmul),
 * reductions and softmax along a middle axis (rows x cols x inner, also in
 * place), reductions over axes that are not adjacent (one descriptor, a
 * chain in the server), scalar broadcast (also in place over the scalar),
 * all four matmul transpose combinations, long rows (segmented),
 * chunk-crossing lengths, in-place operation, the workspace really being
 * used (and nothing written beyond it or beyond the output), a descriptor
 * the server refuses (softmax on int32), int32 division by zero failing
 * the stream with VNPU_STREAM_ERROR_ARITH at its task, and timeouts and
 * stream destruction stopping a long operator between chunks.
 *
 * Tolerances (device result vs the exact double result):
 *  - Add, Sub, Mul, RealDiv, any float type: within 1 position of the
 *    correctly rounded result (fp16/bf16 are computed in fp32 and rounded
 *    again);
 *  - Relu, Abs, Cast, ReduceMaxD, every int32 result: exact (NaN: any NaN;
 *    int32 -> fp16/bf16 is rounded to fp32 first, as docs/ops.md says);
 *  - ReduceSumD: 1 position, or |err| <= 1e-5 * sum|x|;
 *  - SoftmaxV2: fp32 |err| <= 1e-5 * |exact| + 2^-126 (relative, so that
 *    tiny outputs are checked too; 2^-126 admits results that underflow)
 *    and each row sums to 1 within 1e-5; fp16/bf16 within 1 position;
 *  - MatMul: 1 position, or |err| <= (k + 8) * 2^-24 * sum_k |a*b| (the
 *    classic bound for a dot product accumulated in fp32).
 */
#include <math.h>

#include "harness/harness.h"
#include "lib/vnpu_op_ref.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define BUF_SIZE (1u << 20)
#define SENTINEL 0x5a
#define GUARD 256

static const char *const dtype_names[] = { "?", "f32", "f16", "bf16", "i32" };
static const uint32_t dtypes[] = { REF_F32, REF_F16, REF_BF16, REF_I32 };

/* The CANN operator of each reference operator. */
static const char *const op_names[] = {
	[REF_OP_ADD] = "Add",
	[REF_OP_SUB] = "Sub",
	[REF_OP_MUL] = "Mul",
	[REF_OP_DIV] = "RealDiv",
	[REF_OP_RELU] = "Relu",
	[REF_OP_ABS] = "Abs",
	[REF_OP_CAST] = "Cast",
	[REF_OP_REDUCE_SUM] = "ReduceSumD",
	[REF_OP_REDUCE_MAX] = "ReduceMaxD",
	[REF_OP_SOFTMAX] = "SoftmaxV2",
	[REF_OP_MATMUL] = "MatMul",
};

/* aclDataType of a reference type. */
static int32_t acl(uint32_t dtype)
{
	return ref_dtype_to_acl(dtype);
}

static unsigned int esize(uint32_t dtype)
{
	return dtype == REF_F32 || dtype == REF_I32 ? 4 : 2;
}

FIXTURE(ops) {
	int fd;
	uint32_t stream;
	struct vnpu_buf in0, in1, out, ws;
};

FIXTURE_VARIANT(ops) {
	uint32_t dtype;
};

FIXTURE_VARIANT_ADD(ops, f32) { .dtype = REF_F32 };
FIXTURE_VARIANT_ADD(ops, f16) { .dtype = REF_F16 };
FIXTURE_VARIANT_ADD(ops, bf16) { .dtype = REF_BF16 };
FIXTURE_VARIANT_ADD(ops, i32) { .dtype = REF_I32 };

FIXTURE_SETUP(ops)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->in0));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->in1));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->out));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, BUF_SIZE, &self->ws));
}

FIXTURE_TEARDOWN(ops)
{
	vnpu_buf_destroy(self->fd, &self->in0);
	vnpu_buf_destroy(self->fd, &self->in1);
	vnpu_buf_destroy(self->fd, &self->out);
	vnpu_buf_destroy(self->fd, &self->ws);
	close(self->fd);
}

/* Offset of the first byte in [0, n) of @p that is not @b, or n. */
static size_t first_not(const void *p, size_t n, unsigned char b)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i] != b)
			return i;
	return n;
}

/* Submit @op and wait; the stream must still be healthy afterwards. */
static void run_ok(struct th_metadata *_metadata, int fd, uint32_t stream,
		   const struct vnpu_op *op)
{
	struct drm_vnpu_stream_query q;

	ASSERT_EQ(0, vnpu_op_submit_wait(fd, stream, op, NULL)) TH_LOG("%s", op->plan.type);
	ASSERT_EQ(0, vnpu_stream_query(fd, stream, &q));
	ASSERT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
}

/* The bytes of @b after @used must still be the sentinel. */
static void expect_guard(struct th_metadata *_metadata, const struct vnpu_buf *b, size_t used)
{
	EXPECT_EQ(GUARD, first_not((const char *)b->cpu + used, GUARD, SENTINEL));
}

/* Random operands for @op in @dtype: ranges that keep float results finite. */
static void fill_operand(void *buf, uint32_t dtype, size_t n, uint32_t op, bool divisor,
			 struct ref_rng *r)
{
	if (dtype == REF_I32) {
		if (op == REF_OP_SOFTMAX || op == REF_OP_MATMUL || op == REF_OP_REDUCE_SUM)
			ref_fill(buf, dtype, n, -2147483648.0, 2147483648.0, false, r);
		else
			ref_fill(buf, dtype, n, -2147483648.0, 2147483648.0, divisor, r);
		return;
	}
	if (op == REF_OP_MATMUL)
		ref_fill(buf, dtype, n, -2, 2, false, r);
	else
		ref_fill(buf, dtype, n, -8, 8, divisor, r);
}

/*
 * A descriptor the server must refuse although the kernel takes it: a
 * SoftmaxV2 of [rows, cols(, inner)] planned for fp32 with its input record
 * changed to ACL_INT32 (docs/ops.md: the record's dtype is its first u16).
 * Run on a stream of its own, the task faults it.
 */
static void expect_int32_softmax_refused(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self,
					 uint64_t rows, uint64_t cols, uint64_t inner)
{
	struct drm_vnpu_stream_query q;
	struct vnpu_op op;
	uint32_t stream;
	uint16_t dt = ACL_INT32;

	EXPECT_EQ(-EINVAL, vnpu_op_rows(&op, "SoftmaxV2", ACL_INT32, rows, cols, inner));
	EXPECT_EQ(VOPS_ERR_DTYPE, op.err.code);
	ASSERT_EQ(0, vnpu_op_rows(&op, "SoftmaxV2", ACL_FLOAT, rows, cols, inner));
	memcpy(op.plan.desc + 16, &dt, sizeof(dt));
	vnpu_op_set_va(&op, self->in0.va, 0, self->out.va, self->ws.va);
	memset(self->out.cpu, SENTINEL, op.plan.out[0].bytes + GUARD);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &stream));
	EXPECT_EQ(-EIO, vnpu_op_submit_wait(self->fd, stream, &op, NULL));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_FAULT, q.error);
	EXPECT_EQ(0, q.failed_task);
	/* A refused descriptor writes nothing. */
	expect_guard(_metadata, &self->out, 0);
	EXPECT_EQ(0, vnpu_stream_destroy(self->fd, stream));
}

/* ---------------------------------------------------------------- element-wise */

static void check_binary(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self,
			 uint32_t op, uint32_t dtype, uint64_t n, uint32_t flags, uint64_t seed)
{
	unsigned int es = esize(dtype), bad = 0;
	uint64_t n0 = (flags & REF_F_SCALAR_IN0) ? 1 : n;
	uint64_t n1 = (flags & REF_F_SCALAR_IN1) ? 1 : n;
	struct vnpu_op o;
	struct ref_rng r;

	ASSERT_EQ(0, vnpu_op_eltwise(&o, op_names[op], acl(dtype), n0, n1)) TH_LOG("%s", o.err.msg);
	ASSERT_EQ(n * es, o.plan.out[0].bytes);
	vnpu_op_set_va(&o, self->in0.va, self->in1.va, self->out.va, 0);
	ref_rng_seed(&r, seed);
	fill_operand(self->in0.cpu, dtype, n0, op, false, &r);
	fill_operand(self->in1.cpu, dtype, n1, op, op == REF_OP_DIV, &r);
	memset(self->out.cpu, SENTINEL, n * es + GUARD);
	run_ok(_metadata, self->fd, self->stream, &o);

	for (uint64_t i = 0; i < n; i++) {
		double want = ref_binary(op, dtype, flags, self->in0.cpu, self->in1.cpu, i);
		uint32_t got = ref_bits(self->out.cpu, dtype, i);

		if (!ref_close(got, dtype, want, 1, 0) && bad++ < 5)
			TH_LOG("%s %s n %llu flags %u [%llu]: got 0x%x (%g) want %.17g",
			       dtype_names[dtype], op_names[op], (unsigned long long)n, flags,
			       (unsigned long long)i, got, ref_decode(got, dtype), want);
	}
	EXPECT_EQ(0, bad);
	expect_guard(_metadata, &self->out, n * es);
}

/* Lengths: one element, a short tail, and more than two 16 Ki chunks. */
static const uint64_t ew_lengths[] = { 1, 31, 40003 };

static void check_binary_all(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self,
			     uint32_t op, uint32_t dtype)
{
	for (unsigned int i = 0; i < sizeof(ew_lengths) / sizeof(ew_lengths[0]); i++)
		check_binary(_metadata, self, op, dtype, ew_lengths[i], 0, op * 100 + i);
	check_binary(_metadata, self, op, dtype, 4099, REF_F_SCALAR_IN0, op * 100 + 7);
	check_binary(_metadata, self, op, dtype, 4099, REF_F_SCALAR_IN1, op * 100 + 8);
	/* a broadcast that crosses the 16 Ki-element chunk boundaries */
	check_binary(_metadata, self, op, dtype, 40003, REF_F_SCALAR_IN0, op * 100 + 9);
	check_binary(_metadata, self, op, dtype, 40003, REF_F_SCALAR_IN1, op * 100 + 10);
}

TEST_F(ops, add)
{
	check_binary_all(_metadata, self, REF_OP_ADD, variant->dtype);
}

TEST_F(ops, sub)
{
	check_binary_all(_metadata, self, REF_OP_SUB, variant->dtype);
}

TEST_F(ops, mul)
{
	check_binary_all(_metadata, self, REF_OP_MUL, variant->dtype);
}

TEST_F(ops, div)
{
	check_binary_all(_metadata, self, REF_OP_DIV, variant->dtype);
}

static void check_unary(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self, uint32_t op,
			uint32_t dtype)
{
	unsigned int es = esize(dtype), bad = 0;
	uint64_t n = 40003;
	struct vnpu_op o;
	struct ref_rng r;

	ASSERT_EQ(0, vnpu_op_eltwise(&o, op_names[op], acl(dtype), n, 0)) TH_LOG("%s", o.err.msg);
	vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, 0);
	ref_rng_seed(&r, op);
	fill_operand(self->in0.cpu, dtype, n, op, false, &r);
	memset(self->out.cpu, SENTINEL, n * es + GUARD);
	run_ok(_metadata, self->fd, self->stream, &o);
	for (uint64_t i = 0; i < n; i++) {
		uint32_t in = ref_bits(self->in0.cpu, dtype, i);
		uint32_t got = ref_bits(self->out.cpu, dtype, i);

		if (got != ref_unary_bits(op, dtype, in) && bad++ < 5)
			TH_LOG("%s %s [%llu]: 0x%x -> 0x%x", dtype_names[dtype], op_names[op],
			       (unsigned long long)i, in, got);
	}
	EXPECT_EQ(0, bad);
	expect_guard(_metadata, &self->out, n * es);
}

TEST_F(ops, relu)
{
	check_unary(_metadata, self, REF_OP_RELU, variant->dtype);
}

TEST_F(ops, abs)
{
	check_unary(_metadata, self, REF_OP_ABS, variant->dtype);
}

/* The output may be the input (element-wise ops work in place). */
TEST_F(ops, in_place)
{
	uint32_t dtype = variant->dtype;
	uint64_t n = 20011;
	unsigned int es = esize(dtype), bad = 0;
	void *orig = malloc(n * es);
	struct vnpu_op o;
	struct ref_rng r;

	ASSERT_NONNULL(orig);
	ASSERT_EQ(0, vnpu_op_eltwise(&o, "Mul", acl(dtype), n, n));
	EXPECT_TRUE(o.plan.in_place & 1);
	vnpu_op_set_va(&o, self->in0.va, self->in1.va, self->in0.va, 0);
	ref_rng_seed(&r, 42);
	fill_operand(self->in0.cpu, dtype, n, REF_OP_MUL, false, &r);
	fill_operand(self->in1.cpu, dtype, n, REF_OP_MUL, false, &r);
	memcpy(orig, self->in0.cpu, n * es);
	run_ok(_metadata, self->fd, self->stream, &o);
	for (uint64_t i = 0; i < n; i++) {
		double want = ref_binary(REF_OP_MUL, dtype, 0, orig, self->in1.cpu, i);

		if (!ref_close(ref_bits(self->in0.cpu, dtype, i), dtype, want, 1, 0))
			bad++;
	}
	EXPECT_EQ(0, bad);
	free(orig);
}

/*
 * In place over a broadcast scalar: the output starts at the scalar, so the
 * first chunk overwrites it; every element, in later chunks too, must use
 * the scalar's original value. 40003 elements span three chunks.
 */
static void check_scalar_in_place(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self,
				  uint32_t op, uint32_t dtype, uint32_t flags)
{
	bool s0 = flags & REF_F_SCALAR_IN0;
	struct vnpu_buf *sb = s0 ? &self->in0 : &self->in1;
	struct vnpu_buf *vb = s0 ? &self->in1 : &self->in0;
	unsigned int es = esize(dtype), bad = 0;
	uint64_t n = 40003;
	uint32_t scalar[1];
	struct vnpu_op o;
	struct ref_rng r;

	ASSERT_EQ(0, vnpu_op_eltwise(&o, op_names[op], acl(dtype), s0 ? 1 : n, s0 ? n : 1));
	vnpu_op_set_va(&o, self->in0.va, self->in1.va, sb->va, 0);
	ref_rng_seed(&r, op * 10 + flags);
	fill_operand(vb->cpu, dtype, n, op, false, &r);
	/* the output's old bytes beyond the scalar must not matter */
	memset(sb->cpu, SENTINEL, n * es + GUARD);
	fill_operand(sb->cpu, dtype, 1, op, false, &r);
	memcpy(scalar, sb->cpu, es);
	run_ok(_metadata, self->fd, self->stream, &o);

	for (uint64_t i = 0; i < n; i++) {
		double want = ref_binary(op, dtype, flags, s0 ? (void *)scalar : vb->cpu,
					 s0 ? vb->cpu : (void *)scalar, i);
		uint32_t got = ref_bits(sb->cpu, dtype, i);

		if (!ref_close(got, dtype, want, 1, 0) && bad++ < 5)
			TH_LOG("%s %s flags %u [%llu]: got 0x%x (%g) want %.17g",
			       dtype_names[dtype], op_names[op], flags, (unsigned long long)i, got,
			       ref_decode(got, dtype), want);
	}
	EXPECT_EQ(0, bad);
	expect_guard(_metadata, sb, n * es);
}

TEST_F(ops, scalar_in_place)
{
	for (uint32_t op = REF_OP_ADD; op <= REF_OP_MUL; op++) {
		check_scalar_in_place(_metadata, self, op, variant->dtype, REF_F_SCALAR_IN0);
		check_scalar_in_place(_metadata, self, op, variant->dtype, REF_F_SCALAR_IN1);
	}
}

/* ---------------------------------------------------------------- cast */

/*
 * Values of every magnitude: sign random, magnitude 2^[-30, 40) (fp16
 * subnormals and overflow, int32 saturation), plus NaN, +-inf and -0 at the
 * start for the float types; int32 from its whole range.
 */
static void fill_cast_source(void *buf, uint32_t dtype, size_t n, struct ref_rng *r)
{
	if (dtype == REF_I32) {
		ref_fill(buf, dtype, n, -2147483648.0, 2147483648.0, false, r);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double mag = ldexp(ref_rng_uniform(r, 1, 2), (int)floor(ref_rng_uniform(r, -30, 40)));

		ref_put(buf, dtype, i, (ref_rng_next(r) & 1) ? -mag : mag);
	}
	ref_put(buf, dtype, 0, NAN);
	ref_put(buf, dtype, 1, INFINITY);
	ref_put(buf, dtype, 2, -INFINITY);
	ref_put(buf, dtype, 3, -0.0);
	ref_put(buf, dtype, 4, 2147483520.0);	/* the largest fp32 below 2^31 */
	ref_put(buf, dtype, 5, -2147483648.0);
}

TEST_F(ops, cast)
{
	uint32_t from = variant->dtype;
	uint64_t n = 20000;
	struct ref_rng r;

	ref_rng_seed(&r, 7 + from);
	fill_cast_source(self->in0.cpu, from, n, &r);
	for (unsigned int k = 0; k < 4; k++) {
		uint32_t to = dtypes[k];
		unsigned int bad = 0;
		struct vnpu_op o;

		ASSERT_EQ(0, vnpu_op_cast(&o, acl(from), acl(to), n)) TH_LOG("%s", o.err.msg);
		vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, 0);
		memset(self->out.cpu, SENTINEL, n * esize(to) + GUARD);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t i = 0; i < n; i++) {
			uint32_t in = ref_bits(self->in0.cpu, from, i);
			uint32_t want = ref_cast_bits(in, from, to);
			uint32_t got = ref_bits(self->out.cpu, to, i);
			bool ok = to != REF_I32 && isnan(ref_decode(want, to)) ?
				  isnan(ref_decode(got, to)) : got == want;

			if (!ok && bad++ < 5)
				TH_LOG("cast %s->%s [%llu]: 0x%x -> 0x%x, want 0x%x",
				       dtype_names[from], dtype_names[to], (unsigned long long)i,
				       in, got, want);
		}
		EXPECT_EQ(0, bad);
		expect_guard(_metadata, &self->out, n * esize(to));
	}
}

/* ---------------------------------------------------------------- rows */

struct shape {
	uint64_t rows, cols;
};

/* Many short rows, rows longer than a chunk (segmented), one column. */
static const struct shape row_shapes[] = { { 37, 129 }, { 3, 20000 }, { 1000, 1 } };

static void check_reduce(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self, uint32_t op,
			 uint32_t dtype)
{
	unsigned int es = esize(dtype);

	for (unsigned int s = 0; s < sizeof(row_shapes) / sizeof(row_shapes[0]); s++) {
		uint64_t rows = row_shapes[s].rows, cols = row_shapes[s].cols;
		unsigned int bad = 0;
		struct vnpu_op o;
		struct ref_rng r;

		ASSERT_EQ(0, vnpu_op_rows(&o, op_names[op], acl(dtype), rows, cols, 0))
			TH_LOG("%s", o.err.msg);
		vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, self->ws.va);
		ref_rng_seed(&r, op * 10 + s);
		fill_operand(self->in0.cpu, dtype, rows * cols, op, false, &r);
		memset(self->out.cpu, SENTINEL, rows * es + GUARD);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t row = 0; row < rows; row++) {
			double mag, want = ref_reduce(op, dtype, self->in0.cpu, cols, row, &mag);
			uint32_t got = ref_bits(self->out.cpu, dtype, row);
			bool ok = op == REF_OP_REDUCE_MAX ?
				  ref_close(got, dtype, want, 0, 0) :
				  ref_close(got, dtype, want, 1, 1e-5 * mag);

			if (!ok && bad++ < 5)
				TH_LOG("%s %s %llux%llu row %llu: got %g want %.10g",
				       dtype_names[dtype], op_names[op], (unsigned long long)rows,
				       (unsigned long long)cols, (unsigned long long)row,
				       ref_decode(got, dtype), want);
		}
		EXPECT_EQ(0, bad);
		expect_guard(_metadata, &self->out, rows * es);
	}
}

TEST_F(ops, reduce_sum)
{
	check_reduce(_metadata, self, REF_OP_REDUCE_SUM, variant->dtype);
}

TEST_F(ops, reduce_max)
{
	check_reduce(_metadata, self, REF_OP_REDUCE_MAX, variant->dtype);
}

/* fp32 softmax: |got - exact| <= 1e-5 * |exact| + 2^-126 (see the top). */
static bool softmax_f32_close(uint32_t got, double want)
{
	double g = ref_decode(got, REF_F32);

	return isfinite(g) && fabs(g - want) <= 1e-5 * fabs(want) + 0x1p-126;
}

TEST_F(ops, softmax)
{
	uint32_t dtype = variant->dtype;
	unsigned int es = esize(dtype);
	double *want;

	if (dtype == REF_I32) {
		/* Not defined on integers: not planned, and refused by the server. */
		expect_int32_softmax_refused(_metadata, self, 2, 2, 0);
		return;
	}
	want = calloc(20000, sizeof(*want));
	ASSERT_NONNULL(want);
	for (unsigned int s = 0; s < 2; s++) {
		uint64_t rows = row_shapes[s].rows, cols = row_shapes[s].cols;
		uint64_t n = rows * cols;
		unsigned int bad = 0;
		struct vnpu_op o;
		struct ref_rng r;

		ASSERT_EQ(0, vnpu_op_rows(&o, "SoftmaxV2", acl(dtype), rows, cols, 0))
			TH_LOG("%s", o.err.msg);
		vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, self->ws.va);
		ref_rng_seed(&r, 99 + s);
		fill_operand(self->in0.cpu, dtype, n, REF_OP_SOFTMAX, false, &r);
		memset(self->out.cpu, SENTINEL, n * es + GUARD);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t row = 0; row < rows; row++) {
			double sum = 0;

			ref_softmax_row(dtype, self->in0.cpu, cols, row, want);
			for (uint64_t c = 0; c < cols; c++) {
				uint32_t got = ref_bits(self->out.cpu, dtype, row * cols + c);
				bool ok = dtype == REF_F32 ?
					  softmax_f32_close(got, want[c]) :
					  ref_close(got, dtype, want[c], 1, 0);

				sum += ref_decode(got, dtype);
				if (!ok && bad++ < 5)
					TH_LOG("%s %llux%llu [%llu][%llu]: got %g want %.10g",
					       dtype_names[dtype], (unsigned long long)rows,
					       (unsigned long long)cols, (unsigned long long)row,
					       (unsigned long long)c, ref_decode(got, dtype), want[c]);
			}
			if (dtype == REF_F32 && fabs(sum - 1) > 1e-5 && bad++ < 5)
				TH_LOG("row %llu sums to %.10g", (unsigned long long)row, sum);
		}
		EXPECT_EQ(0, bad);
		expect_guard(_metadata, &self->out, n * es);
	}
	free(want);
}

/* ---------------------------------------------------------------- middle axis */

struct shape3 {
	uint64_t rows, cols, inner;
};

/*
 * rows x cols x inner along cols: whole rows per chunk, rows in column
 * segments (cols * inner > 16384), inner in blocks (inner > 16384), an
 * explicit inner of 1 (the last axis), a single column.
 */
static const struct shape3 inner_shapes[] = {
	{ 3, 7, 5 }, { 2, 300, 70 }, { 1, 3, 20000 }, { 4, 50, 1 }, { 9, 1, 6 },
};

static void check_reduce_inner(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self,
			       uint32_t op, uint32_t dtype)
{
	unsigned int es = esize(dtype);

	for (unsigned int s = 0; s < sizeof(inner_shapes) / sizeof(inner_shapes[0]); s++) {
		const struct shape3 *sh = &inner_shapes[s];
		uint64_t outn = sh->rows * sh->inner, ws;
		unsigned int bad = 0;
		struct vnpu_op o;
		struct ref_rng r;

		ASSERT_EQ(0, vnpu_op_rows(&o, op_names[op], acl(dtype), sh->rows, sh->cols, sh->inner))
			TH_LOG("%s", o.err.msg);
		ws = o.plan.ws_bytes;
		ASSERT_NE(0, ws);
		vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, self->ws.va);
		ref_rng_seed(&r, 700 + op * 10 + s);
		fill_operand(self->in0.cpu, dtype, sh->rows * sh->cols * sh->inner, op, false, &r);
		memset(self->out.cpu, SENTINEL, outn * es + GUARD);
		memset(self->ws.cpu, SENTINEL, ws + GUARD);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t row = 0; row < sh->rows; row++)
			for (uint64_t k = 0; k < sh->inner; k++) {
				double mag, want = ref_reduce_inner(op, dtype, self->in0.cpu, sh->cols,
								    sh->inner, row, k, &mag);
				uint32_t got = ref_bits(self->out.cpu, dtype, row * sh->inner + k);
				bool ok = op == REF_OP_REDUCE_MAX ?
					  ref_close(got, dtype, want, 0, 0) :
					  ref_close(got, dtype, want, 1, 1e-5 * mag);

				if (!ok && bad++ < 5)
					TH_LOG("%s %s %llux%llux%llu [%llu][%llu]: got %g want %.10g",
					       dtype_names[dtype], op_names[op],
					       (unsigned long long)sh->rows, (unsigned long long)sh->cols,
					       (unsigned long long)sh->inner, (unsigned long long)row,
					       (unsigned long long)k, ref_decode(got, dtype), want);
			}
		EXPECT_EQ(0, bad);
		expect_guard(_metadata, &self->out, outn * es);
		/* the workspace was used, and no more of it than the plan says */
		EXPECT_TRUE(first_not(self->ws.cpu, ws, SENTINEL) < ws);
		expect_guard(_metadata, &self->ws, ws);
	}
}

TEST_F(ops, reduce_sum_inner)
{
	check_reduce_inner(_metadata, self, REF_OP_REDUCE_SUM, variant->dtype);
}

TEST_F(ops, reduce_max_inner)
{
	check_reduce_inner(_metadata, self, REF_OP_REDUCE_MAX, variant->dtype);
}

TEST_F(ops, softmax_inner)
{
	uint32_t dtype = variant->dtype;
	unsigned int es = esize(dtype);
	double *want;

	if (dtype == REF_I32) {
		expect_int32_softmax_refused(_metadata, self, 2, 2, 3);
		return;
	}
	want = calloc(512, sizeof(*want));
	ASSERT_NONNULL(want);
	for (unsigned int s = 0; s < sizeof(inner_shapes) / sizeof(inner_shapes[0]); s++) {
		const struct shape3 *sh = &inner_shapes[s];
		uint64_t n = sh->rows * sh->cols * sh->inner, ws;
		unsigned int bad = 0;
		struct vnpu_op o;
		struct ref_rng r;

		ASSERT_GE(512, sh->cols);
		ASSERT_EQ(0, vnpu_op_rows(&o, "SoftmaxV2", acl(dtype), sh->rows, sh->cols, sh->inner))
			TH_LOG("%s", o.err.msg);
		ws = o.plan.ws_bytes;
		ASSERT_NE(0, ws);
		vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, self->ws.va);
		ref_rng_seed(&r, 900 + s);
		fill_operand(self->in0.cpu, dtype, n, REF_OP_SOFTMAX, false, &r);
		memset(self->out.cpu, SENTINEL, n * es + GUARD);
		memset(self->ws.cpu, SENTINEL, ws + GUARD);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t row = 0; row < sh->rows; row++)
			for (uint64_t k = 0; k < sh->inner; k++) {
				double sum = 0;

				ref_softmax_inner(dtype, self->in0.cpu, sh->cols, sh->inner, row, k,
						  want);
				for (uint64_t c = 0; c < sh->cols; c++) {
					uint64_t i = (row * sh->cols + c) * sh->inner + k;
					uint32_t got = ref_bits(self->out.cpu, dtype, i);
					bool ok = dtype == REF_F32 ?
						  softmax_f32_close(got, want[c]) :
						  ref_close(got, dtype, want[c], 1, 0);

					sum += ref_decode(got, dtype);
					if (!ok && bad++ < 5)
						TH_LOG("%s %llux%llux%llu [%llu][%llu][%llu]: got %g want %.10g",
						       dtype_names[dtype], (unsigned long long)sh->rows,
						       (unsigned long long)sh->cols,
						       (unsigned long long)sh->inner,
						       (unsigned long long)row, (unsigned long long)c,
						       (unsigned long long)k, ref_decode(got, dtype),
						       want[c]);
				}
				if (dtype == REF_F32 && fabs(sum - 1) > 1e-5 && bad++ < 5)
					TH_LOG("[%llu][.][%llu] sums to %.10g", (unsigned long long)row,
					       (unsigned long long)k, sum);
			}
		EXPECT_EQ(0, bad);
		expect_guard(_metadata, &self->out, n * es);
		EXPECT_TRUE(first_not(self->ws.cpu, ws, SENTINEL) < ws);
		expect_guard(_metadata, &self->ws, ws);
	}
	free(want);
}

/* In place (out at in0's address) along a middle axis, segmented. */
TEST_F(ops, inner_in_place)
{
	uint32_t dtype = variant->dtype;
	uint64_t rows = 3, cols = 400, inner = 50, n = rows * cols * inner;
	unsigned int es = esize(dtype), bad = 0;
	void *copy = malloc(n * es);
	struct ref_rng r;

	ASSERT_NONNULL(copy);
	for (uint32_t op = REF_OP_REDUCE_SUM; op <= REF_OP_SOFTMAX; op++) {
		struct vnpu_op o;

		if (op == REF_OP_SOFTMAX && dtype == REF_I32)
			continue;
		ASSERT_EQ(0, vnpu_op_rows(&o, op_names[op], acl(dtype), rows, cols, inner));
		EXPECT_TRUE(o.plan.in_place & 1);
		vnpu_op_set_va(&o, self->in0.va, 0, self->in0.va, self->ws.va);
		ref_rng_seed(&r, 1300 + op);
		fill_operand(self->in0.cpu, dtype, n, op, false, &r);
		memcpy(copy, self->in0.cpu, n * es);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t row = 0; row < rows; row++)
			for (uint64_t k = 0; k < inner; k++) {
				double mag = 0, want[400];
				uint64_t c = (row * 7 + k) % cols;	/* one column per pair */
				uint32_t got;
				bool ok;

				if (op == REF_OP_SOFTMAX) {
					ref_softmax_inner(dtype, copy, cols, inner, row, k, want);
					got = ref_bits(self->in0.cpu, dtype, (row * cols + c) * inner + k);
					ok = dtype == REF_F32 ? softmax_f32_close(got, want[c]) :
					     ref_close(got, dtype, want[c], 1, 0);
				} else {
					want[0] = ref_reduce_inner(op, dtype, copy, cols, inner, row, k,
								   &mag);
					got = ref_bits(self->in0.cpu, dtype, row * inner + k);
					ok = ref_close(got, dtype, want[0],
						       op == REF_OP_REDUCE_MAX ? 0 : 1, 1e-5 * mag);
				}
				if (!ok && bad++ < 5)
					TH_LOG("%s %s in place [%llu][%llu]: got %g",
					       dtype_names[dtype], op_names[op], (unsigned long long)row,
					       (unsigned long long)k, ref_decode(got, dtype));
			}
	}
	EXPECT_EQ(0, bad);
	free(copy);
}

/* ---------------------------------------------------------------- axes not adjacent */

struct axes_case {
	unsigned int ndim;
	int64_t dims[4];
	unsigned int naxes;
	int64_t axes[4];
	bool keep;
};

/*
 * Reductions over axes that are not adjacent: one descriptor, which the
 * server runs as a chain of reductions through its workspace (docs/ops.md),
 * fp16/bf16 sums in fp32 rounded once. The documented example, an axis
 * list out of order and with a negative axis, keep_dims, four dimensions
 * with two runs of axes, and a tensor of more than two chunks.
 */
static const struct axes_case axes_cases[] = {
	{ 3, { 2, 3, 5 }, 2, { 0, 2 }, false },
	{ 3, { 4, 9, 6 }, 2, { -1, 0 }, true },
	{ 4, { 3, 4, 5, 6 }, 2, { 1, 3 }, false },
	{ 4, { 5, 2, 3, 7 }, 3, { 0, 2, 3 }, false },
	{ 4, { 3, 40, 7, 50 }, 2, { 3, 1 }, false },
};

static void check_reduce_axes(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self,
			      uint32_t op, uint32_t dtype)
{
	unsigned int es = esize(dtype);

	for (unsigned int s = 0; s < sizeof(axes_cases) / sizeof(axes_cases[0]); s++) {
		const struct axes_case *c = &axes_cases[s];
		uint64_t n = 1, outn = 1, mask = 0, ws;
		size_t dims[4];
		unsigned int bad = 0;
		struct vnpu_op o;
		struct ref_rng r;

		for (unsigned int d = 0; d < c->ndim; d++) {
			dims[d] = (size_t)c->dims[d];
			n *= dims[d];
		}
		for (unsigned int a = 0; a < c->naxes; a++)
			mask |= 1ull << (c->axes[a] < 0 ? c->axes[a] + c->ndim : c->axes[a]);
		for (unsigned int d = 0; d < c->ndim; d++)
			if (!(mask >> d & 1))
				outn *= dims[d];
		ASSERT_EQ(0, vnpu_op_reduce_axes(&o, op_names[op], acl(dtype), c->ndim, c->dims,
						 c->naxes, c->axes, c->keep))
			TH_LOG("%s", o.err.msg);
		ASSERT_EQ(outn * es, o.plan.out[0].bytes);
		ASSERT_EQ(c->keep ? (int)c->ndim : (int)(c->ndim - c->naxes), o.plan.out[0].ndim);
		ws = o.plan.ws_bytes;
		ASSERT_NE(0, ws);
		ASSERT_GE(BUF_SIZE - GUARD, ws);
		vnpu_op_set_va(&o, self->in0.va, 0, self->out.va, self->ws.va);
		ref_rng_seed(&r, 1500 + op * 10 + s);
		fill_operand(self->in0.cpu, dtype, n, op, false, &r);
		memset(self->out.cpu, SENTINEL, outn * es + GUARD);
		memset(self->ws.cpu, SENTINEL, ws + GUARD);
		run_ok(_metadata, self->fd, self->stream, &o);
		for (uint64_t i = 0; i < outn; i++) {
			double mag, want = ref_reduce_axes(op, dtype, self->in0.cpu, c->ndim, dims,
							   mask, i, &mag);
			uint32_t got = ref_bits(self->out.cpu, dtype, i);
			bool ok = op == REF_OP_REDUCE_MAX ?
				  ref_close(got, dtype, want, 0, 0) :
				  ref_close(got, dtype, want, 1, 1e-5 * mag);

			if (!ok && bad++ < 5)
				TH_LOG("%s %s case %u [%llu]: got %g want %.10g", dtype_names[dtype],
				       op_names[op], s, (unsigned long long)i, ref_decode(got, dtype),
				       want);
		}
		EXPECT_EQ(0, bad);
		expect_guard(_metadata, &self->out, outn * es);
		EXPECT_TRUE(first_not(self->ws.cpu, ws, SENTINEL) < ws);
		expect_guard(_metadata, &self->ws, ws);
	}
}

TEST_F(ops, reduce_sum_axes)
{
	check_reduce_axes(_metadata, self, REF_OP_REDUCE_SUM, variant->dtype);
}

TEST_F(ops, reduce_max_axes)
{
	check_reduce_axes(_metadata, self, REF_OP_REDUCE_MAX, variant->dtype);
}

/* ---------------------------------------------------------------- matmul */

static void check_matmul(struct th_metadata *_metadata, FIXTURE_DATA(ops) *self, uint32_t dtype,
			 uint64_t m, uint64_t n, uint64_t k, uint32_t flags)
{
	unsigned int es = esize(dtype), bad = 0;
	struct vnpu_op o;
	uint64_t need;
	struct ref_rng r;

	ASSERT_EQ(0, vnpu_op_matmul(&o, acl(dtype), m, n, k, flags & REF_F_TRANS_A,
				    flags & REF_F_TRANS_B))
		TH_LOG("%s", o.err.msg);
	need = o.plan.ws_bytes;
	ASSERT_GE(BUF_SIZE - GUARD, need);
	vnpu_op_set_va(&o, self->in0.va, self->in1.va, self->out.va, self->ws.va);
	ref_rng_seed(&r, m * 1000 + n * 10 + flags);
	fill_operand(self->in0.cpu, dtype, m * k, REF_OP_MATMUL, false, &r);
	fill_operand(self->in1.cpu, dtype, k * n, REF_OP_MATMUL, false, &r);
	memset(self->out.cpu, SENTINEL, m * n * es + GUARD);
	memset(self->ws.cpu, SENTINEL, need + GUARD);
	run_ok(_metadata, self->fd, self->stream, &o);

	for (uint64_t i = 0; i < m; i++) {
		for (uint64_t j = 0; j < n; j++) {
			double mag, want = ref_matmul(dtype, flags, self->in0.cpu, self->in1.cpu,
						      m, n, k, i, j, &mag);
			uint32_t got = ref_bits(self->out.cpu, dtype, i * n + j);

			if (!ref_close(got, dtype, want, 1, (k + 8) * REF_F32_EPS * mag) &&
			    bad++ < 5)
				TH_LOG("%s %llux%llux%llu flags %u [%llu][%llu]: got %g want %.10g",
				       dtype_names[dtype], (unsigned long long)m,
				       (unsigned long long)n, (unsigned long long)k, flags,
				       (unsigned long long)i, (unsigned long long)j,
				       ref_decode(got, dtype), want);
		}
	}
	EXPECT_EQ(0, bad);
	expect_guard(_metadata, &self->out, m * n * es);
	/* The operator kept to its workspace (or had none and touched nothing). */
	expect_guard(_metadata, &self->ws, need);
}

TEST_F(ops, matmul_transposes)
{
	static const uint32_t combos[] = {
		0, REF_F_TRANS_A, REF_F_TRANS_B, REF_F_TRANS_A | REF_F_TRANS_B,
	};

	for (unsigned int c = 0; c < 4; c++) {
		check_matmul(_metadata, self, variant->dtype, 33, 47, 29, combos[c]);
		check_matmul(_metadata, self, variant->dtype, 1, 1, 1, combos[c]);
		check_matmul(_metadata, self, variant->dtype, 5, 130, 3, combos[c]);
	}
}

/* One output row is more than a chunk of work: done in blocks of k. */
TEST_F_TIMEOUT(ops, matmul_long_k, 120)
{
	check_matmul(_metadata, self, variant->dtype, 2, 2, 60000, 0);
	check_matmul(_metadata, self, variant->dtype, 2, 2, 60000, REF_F_TRANS_A | REF_F_TRANS_B);
}

/* ---------------------------------------------------------------- workspace */

/*
 * Operators with workspace keep intermediate results there: the bytes the
 * plan asks for change, the bytes after them do not, although the
 * workspace operand given is a page larger.
 */
TEST_F(ops, workspace_is_used)
{
	uint32_t dtype = variant->dtype;
	struct vnpu_op o[4];
	unsigned int n = 0, with_ws = 0;
	struct ref_rng r;

	ASSERT_EQ(0, vnpu_op_rows(&o[n++], "ReduceSumD", acl(dtype), 4, 64, 0));
	ASSERT_EQ(0, vnpu_op_rows(&o[n++], "ReduceMaxD", acl(dtype), 4, 64, 0));
	ASSERT_EQ(0, vnpu_op_matmul(&o[n++], acl(dtype), 8, 8, 8, true, false));
	if (dtype != REF_I32)
		ASSERT_EQ(0, vnpu_op_rows(&o[n++], "SoftmaxV2", acl(dtype), 4, 64, 0));
	ref_rng_seed(&r, 5);
	fill_operand(self->in0.cpu, dtype, 256, REF_OP_MATMUL, false, &r);
	fill_operand(self->in1.cpu, dtype, 256, REF_OP_MATMUL, false, &r);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t used = o[i].plan.ws_bytes;

		/* fp32 MatMul needs none (BLAS transposes itself). */
		if (!used)
			continue;
		with_ws++;
		vnpu_op_set_va(&o[i], self->in0.va, self->in1.va, self->out.va, self->ws.va);
		vnpu_op_ws(&o[i])->size = used + 4096;
		vnpu_op_encode(&o[i]);
		memset(self->ws.cpu, SENTINEL, used + 4096);
		run_ok(_metadata, self->fd, self->stream, &o[i]);
		EXPECT_LT(first_not(self->ws.cpu, used, SENTINEL), used) TH_LOG("%s", o[i].plan.type);
		EXPECT_EQ(4096, first_not((char *)self->ws.cpu + used, 4096, SENTINEL))
			TH_LOG("%s", o[i].plan.type);
	}
	EXPECT_EQ(dtype == REF_F32 ? 3 : n, with_ws);
}

/* A chain in one job: each task sees the previous task's output. */
TEST_F(ops, chain_in_one_job)
{
	uint32_t dtype = variant->dtype;
	uint64_t rows = 16, cols = 100, n = rows * cols;
	uint64_t tmp = self->out.va + 65536, tmp_off = 65536;
	struct vnpu_op sub, relu, max;
	struct vnpu_job job;
	unsigned int bad = 0;
	struct ref_rng r;

	ASSERT_EQ(0, vnpu_op_eltwise(&sub, "Sub", acl(dtype), n, n));
	ASSERT_EQ(0, vnpu_op_eltwise(&relu, "Relu", acl(dtype), n, 0));
	ASSERT_EQ(0, vnpu_op_rows(&max, "ReduceMaxD", acl(dtype), rows, cols, 0));
	vnpu_op_set_va(&sub, self->in0.va, self->in1.va, tmp, 0);
	vnpu_op_set_va(&relu, tmp, 0, tmp, 0);
	vnpu_op_set_va(&max, tmp, 0, self->out.va, self->ws.va);
	vnpu_job_init(&job);
	vnpu_job_add_op(&job, &sub);
	vnpu_job_add_op(&job, &relu);
	vnpu_job_add_op(&job, &max);
	ASSERT_EQ(3, job.count);
	ref_rng_seed(&r, 11);
	fill_operand(self->in0.cpu, dtype, n, REF_OP_SUB, false, &r);
	fill_operand(self->in1.cpu, dtype, n, REF_OP_SUB, false, &r);
	ASSERT_EQ(0, vnpu_job_submit_wait(self->fd, self->stream, &job, NULL));
	for (uint64_t row = 0; row < rows; row++) {
		uint32_t best = 0;
		double bestv = -INFINITY;

		for (uint64_t c = 0; c < cols; c++) {
			uint64_t i = row * cols + c;
			uint32_t d = ref_encode(ref_binary(REF_OP_SUB, dtype, 0, self->in0.cpu,
							   self->in1.cpu, i), dtype);
			uint32_t v = ref_unary_bits(REF_OP_RELU, dtype, d);

			/* The intermediate itself may differ by one position. */
			if (!ref_close(ref_bits((char *)self->out.cpu + tmp_off, dtype, i), dtype,
				       ref_decode(v, dtype), 1, 0))
				bad++;
			if (ref_decode(v, dtype) > bestv) {
				bestv = ref_decode(v, dtype);
				best = v;
			}
		}
		if (!ref_close(ref_bits(self->out.cpu, dtype, row), dtype, ref_decode(best, dtype),
			       1, 0))
			bad++;
	}
	EXPECT_EQ(0, bad);
}

/* ---------------------------------------------------------------- edge values */

/* Every pair of @vals through Add, Sub, Mul, RealDiv; Relu, Abs and casts of each. */
static void check_edges(struct th_metadata *_metadata, int fd, uint32_t stream, uint32_t dtype,
			const uint32_t *vals, unsigned int nv)
{
	struct vnpu_buf a, b, o;
	unsigned int n = nv * nv, bad = 0;

	ASSERT_EQ(0, vnpu_buf_create(fd, 1 << 16, &a));
	ASSERT_EQ(0, vnpu_buf_create(fd, 1 << 16, &b));
	ASSERT_EQ(0, vnpu_buf_create(fd, 1 << 16, &o));
	for (unsigned int i = 0; i < nv; i++) {
		for (unsigned int j = 0; j < nv; j++) {
			ref_put_bits(a.cpu, dtype, i * nv + j, vals[i]);
			ref_put_bits(b.cpu, dtype, i * nv + j, vals[j]);
		}
	}
	for (uint32_t op = REF_OP_ADD; op <= REF_OP_DIV; op++) {
		struct vnpu_op t;

		ASSERT_EQ(0, vnpu_op_eltwise(&t, op_names[op], acl(dtype), n, n));
		vnpu_op_set_va(&t, a.va, b.va, o.va, 0);
		ASSERT_EQ(0, vnpu_op_submit_wait(fd, stream, &t, NULL));
		for (unsigned int i = 0; i < n; i++) {
			double want = ref_binary(op, dtype, 0, a.cpu, b.cpu, i);
			uint32_t got = ref_bits(o.cpu, dtype, i);

			if (!ref_close(got, dtype, want, 1, 0) && bad++ < 8)
				TH_LOG("%s %s: 0x%x, 0x%x -> 0x%x, want %g", dtype_names[dtype],
				       op_names[op], ref_bits(a.cpu, dtype, i),
				       ref_bits(b.cpu, dtype, i), got, want);
		}
	}
	for (uint32_t op = REF_OP_RELU; op <= REF_OP_ABS; op++) {
		struct vnpu_op t;

		ASSERT_EQ(0, vnpu_op_eltwise(&t, op_names[op], acl(dtype), nv, 0));
		vnpu_op_set_va(&t, a.va, 0, o.va, 0);
		for (unsigned int i = 0; i < nv; i++)
			ref_put_bits(a.cpu, dtype, i, vals[i]);
		ASSERT_EQ(0, vnpu_op_submit_wait(fd, stream, &t, NULL));
		for (unsigned int i = 0; i < nv; i++)
			if (ref_bits(o.cpu, dtype, i) != ref_unary_bits(op, dtype, vals[i]) &&
			    bad++ < 8)
				TH_LOG("%s %s: 0x%x -> 0x%x", dtype_names[dtype], op_names[op],
				       vals[i], ref_bits(o.cpu, dtype, i));
	}
	for (unsigned int k = 0; k < 4; k++) {
		uint32_t to = dtypes[k];
		struct vnpu_op t;

		ASSERT_EQ(0, vnpu_op_cast(&t, acl(dtype), acl(to), nv));
		vnpu_op_set_va(&t, a.va, 0, o.va, 0);
		ASSERT_EQ(0, vnpu_op_submit_wait(fd, stream, &t, NULL));
		for (unsigned int i = 0; i < nv; i++) {
			uint32_t want = ref_cast_bits(vals[i], dtype, to);
			uint32_t got = ref_bits(o.cpu, to, i);
			bool ok = to != REF_I32 && isnan(ref_decode(want, to)) ?
				  isnan(ref_decode(got, to)) : got == want;

			if (!ok && bad++ < 8)
				TH_LOG("cast %s->%s: 0x%x -> 0x%x, want 0x%x", dtype_names[dtype],
				       dtype_names[to], vals[i], got, want);
		}
	}
	EXPECT_EQ(0, bad);
	vnpu_buf_destroy(fd, &a);
	vnpu_buf_destroy(fd, &b);
	vnpu_buf_destroy(fd, &o);
}

FIXTURE(edge) {
	int fd;
	uint32_t stream;
};

FIXTURE_SETUP(edge)
{
	self->fd = vnpu_open_device(0);
	ASSERT_GE(self->fd, 0) TH_LOG("no vnpu render node");
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &self->stream));
}

FIXTURE_TEARDOWN(edge)
{
	close(self->fd);
}

TEST_F(edge, f16_values)
{
	static const uint32_t v[] = {
		0x0000, 0x8000,		/* +-0 */
		0x0001, 0x8001,		/* smallest subnormals */
		0x03ff, 0x0200,		/* largest subnormal, a middle one */
		0x0400, 0x8400,		/* smallest normals */
		0x3c00, 0xbc00, 0x3c01,	/* +-1, 1 + ulp */
		0x3555, 0x4248,		/* ~1/3, ~3.14 */
		0x7bff, 0xfbff, 0x7bfe,	/* largest finite */
		0x5bff, 0x1000,		/* 255.9, 2^-11 */
		0x7c00, 0xfc00,		/* +-inf */
		0x7e00, 0xfe01,		/* NaNs */
	};

	check_edges(_metadata, self->fd, self->stream, REF_F16, v, sizeof(v) / sizeof(v[0]));
}

TEST_F(edge, bf16_values)
{
	static const uint32_t v[] = {
		0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x8080, 0x3f80, 0xbf80, 0x3f81,
		0x3eab, 0x4049, 0x7f7f, 0xff7f, 0x7f7e, 0x4b80, 0x0100,
		0x7f80, 0xff80, 0x7fc0, 0xffc1,
	};

	check_edges(_metadata, self->fd, self->stream, REF_BF16, v, sizeof(v) / sizeof(v[0]));
}

TEST_F(edge, f32_values)
{
	static const uint32_t v[] = {
		0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000,
		0xbf800000, 0x3f800001, 0x3eaaaaab, 0x7f7fffff, 0xff7fffff, 0x4f000000,
		0xcf000000, 0x4effffff, 0x477fe000, 0x477ff000, 0x33800000, 0x33000001,
		0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
	};

	check_edges(_metadata, self->fd, self->stream, REF_F32, v, sizeof(v) / sizeof(v[0]));
}

TEST_F(edge, i32_values)
{
	/* No 0: every value is also a divisor (division by zero is tested below). */
	static const uint32_t v[] = {
		1, 0xffffffff, 2, 0xfffffffe, 7, 0x7fffffff, 0x80000000, 0x80000001,
		0x01000001, 0xfeffffff, 0x00ffffff, 0x12345678, 0x40000000,
	};

	check_edges(_metadata, self->fd, self->stream, REF_I32, v, sizeof(v) / sizeof(v[0]));
}

/*
 * fp16 edge values through the operators that combine elements: ReduceSumD,
 * ReduceMaxD, SoftmaxV2 and MatMul, against the double reference. The
 * semantics are IEEE arithmetic on the values widened to fp32, as the host
 * unit tests and docs/ops.md say: a NaN anywhere gives NaN (ReduceMaxD and
 * SoftmaxV2 propagate it), +inf and -inf together sum to NaN, sums past
 * 65504 round to infinity, subnormals add exactly; softmax of a row whose
 * maximum is infinite is NaN (inf - inf), -inf elements of a finite row
 * give 0.
 */
#define H_NAN 0x7e00
#define H_INF 0x7c00
#define H_NINF 0xfc00
#define H_MAX 0x7bff
#define H_NMAX 0xfbff
#define H_ONE 0x3c00
#define H_NONE 0xbc00
#define H_SUB1 0x0001	/* smallest subnormal, 2^-24 */
#define H_NSUB1 0x8001
#define H_SUBMAX 0x03ff	/* largest subnormal */
#define H_NZERO 0x8000
#define EDGE_COLS 13	/* 8 lanes and a tail of 5 */

/* Rows of EDGE_COLS fp16 values; unlisted entries are 0. */
static const uint16_t edge_rows[][EDGE_COLS] = {
	{ H_ONE, 0x4000, 0x4200, H_NAN, 0x4400 },		/* NaN in a lane */
	{ H_ONE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, H_NAN },	/* NaN in the tail */
	{ H_NINF, H_NINF, H_NINF, H_NINF, H_NINF, H_NINF, H_NINF, H_NINF, H_NINF,
	  H_NINF, H_NINF, H_NINF, H_NINF },			/* all -inf */
	{ H_ONE, H_NONE, H_INF, 0x4000 },			/* one +inf */
	{ H_INF, H_NINF, H_ONE },				/* +inf and -inf */
	{ H_MAX, H_MAX, H_ONE },				/* sum overflows */
	{ H_NMAX, H_NMAX, H_NONE },				/* ... negatively */
	{ H_MAX, H_NMAX, H_ONE },				/* cancels exactly */
	{ H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1,
	  H_SUB1, H_SUB1, H_SUB1, H_SUB1 },			/* subnormals */
	{ H_SUBMAX, H_NSUB1, 0x0200, H_NZERO, H_SUB1 },		/* mixed subnormals */
	{ H_NZERO, H_NZERO, H_NZERO, H_NZERO, H_NZERO, H_NZERO, H_NZERO, H_NZERO,
	  H_NZERO, H_NZERO, H_NZERO, H_NZERO, H_NZERO },	/* all -0 */
	{ H_NINF, 0, H_NINF, H_ONE, H_NINF },			/* -inf in a finite row */
	{ H_MAX, H_NMAX, 0, H_NONE },				/* extremes */
};

#define EDGE_ROWS (sizeof(edge_rows) / sizeof(edge_rows[0]))

static void put_edge_rows(void *buf)
{
	for (unsigned int r = 0; r < EDGE_ROWS; r++)
		for (unsigned int c = 0; c < EDGE_COLS; c++)
			ref_put_bits(buf, REF_F16, r * EDGE_COLS + c, edge_rows[r][c]);
}

TEST_F(edge, f16_reductions)
{
	struct vnpu_buf in, o, ws;
	unsigned int bad = 0;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &in));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &o));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &ws));
	put_edge_rows(in.cpu);
	for (uint32_t op = REF_OP_REDUCE_SUM; op <= REF_OP_REDUCE_MAX; op++) {
		struct vnpu_op t;

		ASSERT_EQ(0, vnpu_op_rows(&t, op_names[op], ACL_FLOAT16, EDGE_ROWS, EDGE_COLS, 0));
		vnpu_op_set_va(&t, in.va, 0, o.va, ws.va);
		memset(o.cpu, SENTINEL, 4096);
		ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->stream, &t, NULL));
		for (unsigned int r = 0; r < EDGE_ROWS; r++) {
			double mag, want = ref_reduce(op, REF_F16, in.cpu, EDGE_COLS, r, &mag);
			uint32_t got = ref_bits(o.cpu, REF_F16, r);
			/* these sums are exact in fp32: only the final rounding */
			bool ok = ref_close(got, REF_F16, want, 0, 0);

			if (!ok && bad++ < 8)
				TH_LOG("%s row %u: got 0x%04x want %g", op_names[op], r, got, want);
		}
		expect_guard(_metadata, &o, EDGE_ROWS * 2);
	}
	EXPECT_EQ(0, bad);
	vnpu_buf_destroy(self->fd, &in);
	vnpu_buf_destroy(self->fd, &o);
	vnpu_buf_destroy(self->fd, &ws);
}

/* The same specials in rows longer than a chunk: reduced in segments. */
TEST_F(edge, f16_reductions_segmented)
{
	uint64_t cols = 40000, rows = 4;
	struct vnpu_buf in, o, ws;
	unsigned int bad = 0;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, rows * cols * 2, &in));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 4096, &o));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, cols * 4, &ws));
	for (uint64_t i = 0; i < rows * cols; i++)
		ref_put_bits(in.cpu, REF_F16, i, H_SUB1);
	/* row 0: NaN in the third segment; row 1: all -inf; row 2: +inf last */
	ref_put_bits(in.cpu, REF_F16, 35000, H_NAN);
	for (uint64_t c = 0; c < cols; c++)
		ref_put_bits(in.cpu, REF_F16, cols + c, H_NINF);
	ref_put_bits(in.cpu, REF_F16, 3 * cols - 1, H_INF);
	/* row 3: subnormals only, the sum (40000 * 2^-24) is a normal number */
	for (uint32_t op = REF_OP_REDUCE_SUM; op <= REF_OP_REDUCE_MAX; op++) {
		struct vnpu_op t;

		ASSERT_EQ(0, vnpu_op_rows(&t, op_names[op], ACL_FLOAT16, rows, cols, 0));
		ASSERT_GE(ws.size, t.plan.ws_bytes);
		vnpu_op_set_va(&t, in.va, 0, o.va, ws.va);
		ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->stream, &t, NULL));
		for (unsigned int r = 0; r < rows; r++) {
			double want = ref_reduce(op, REF_F16, in.cpu, cols, r, NULL);
			uint32_t got = ref_bits(o.cpu, REF_F16, r);

			if (!ref_close(got, REF_F16, want, 0, 0) && bad++ < 8)
				TH_LOG("%s row %u: got 0x%04x want %g", op_names[op], r, got, want);
		}
	}
	EXPECT_EQ(0, bad);
	vnpu_buf_destroy(self->fd, &in);
	vnpu_buf_destroy(self->fd, &o);
	vnpu_buf_destroy(self->fd, &ws);
}

TEST_F(edge, f16_softmax)
{
	struct vnpu_buf in, o, ws;
	double want[EDGE_COLS];
	unsigned int bad = 0, nan_rows = 0;
	struct vnpu_op t;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &in));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &o));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &ws));
	put_edge_rows(in.cpu);
	ASSERT_EQ(0, vnpu_op_rows(&t, "SoftmaxV2", ACL_FLOAT16, EDGE_ROWS, EDGE_COLS, 0));
	vnpu_op_set_va(&t, in.va, 0, o.va, ws.va);
	memset(o.cpu, SENTINEL, 4096);
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->stream, &t, NULL));
	for (unsigned int r = 0; r < EDGE_ROWS; r++) {
		ref_softmax_row(REF_F16, in.cpu, EDGE_COLS, r, want);
		nan_rows += isnan(want[0]);
		for (unsigned int c = 0; c < EDGE_COLS; c++) {
			uint32_t got = ref_bits(o.cpu, REF_F16, r * EDGE_COLS + c);

			if (!ref_close(got, REF_F16, want[c], 1, 0) && bad++ < 8)
				TH_LOG("row %u col %u: got 0x%04x want %g", r, c, got, want[c]);
		}
	}
	/* the reference agrees: the two NaN rows, all -inf, the two with +inf */
	EXPECT_EQ(5, nan_rows);
	EXPECT_EQ(0, bad);
	expect_guard(_metadata, &o, EDGE_ROWS * EDGE_COLS * 2);
	vnpu_buf_destroy(self->fd, &in);
	vnpu_buf_destroy(self->fd, &o);
	vnpu_buf_destroy(self->fd, &ws);
}

/*
 * MatMul with A's rows from the edge rows (k = 13) and a B that meets them
 * with 0 (inf * 0 is NaN), 1, -1, large and subnormal values; all four
 * transpose combinations.
 */
TEST_F(edge, f16_matmul)
{
	static const uint16_t bcol[][EDGE_COLS] = {
		{ H_ONE, H_ONE, H_ONE, H_ONE, H_ONE, H_ONE, H_ONE, H_ONE, H_ONE, H_ONE, H_ONE,
		  H_ONE, H_ONE },
		{ 0 },
		{ H_NONE, H_ONE, H_NONE, H_ONE, H_NONE, H_ONE, H_NONE, H_ONE, H_NONE, H_ONE,
		  H_NONE, H_ONE, H_NONE },
		{ H_MAX, H_SUB1, H_SUBMAX, H_NMAX, 0x3800, H_NZERO, H_SUB1, H_ONE, H_MAX, 0,
		  H_NSUB1, H_ONE, H_SUB1 },
		{ H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1, H_SUB1,
		  H_SUB1, H_SUB1, H_SUB1, H_SUB1 },
	};
	uint64_t m = EDGE_ROWS, n = sizeof(bcol) / sizeof(bcol[0]), k = EDGE_COLS;
	static const uint32_t combos[] = {
		0, REF_F_TRANS_A, REF_F_TRANS_B, REF_F_TRANS_A | REF_F_TRANS_B,
	};
	struct vnpu_buf a, b, o, ws;
	unsigned int bad = 0;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &a));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &b));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &o));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &ws));
	for (unsigned int c = 0; c < 4; c++) {
		bool ta = combos[c] & REF_F_TRANS_A, tb = combos[c] & REF_F_TRANS_B;
		struct vnpu_op t;

		ASSERT_EQ(0, vnpu_op_matmul(&t, ACL_FLOAT16, m, n, k, ta, tb));
		ASSERT_GE(ws.size, t.plan.ws_bytes);
		vnpu_op_set_va(&t, a.va, b.va, o.va, ws.va);
		for (uint64_t i = 0; i < m; i++)
			for (uint64_t kk = 0; kk < k; kk++)
				ref_put_bits(a.cpu, REF_F16, ta ? kk * m + i : i * k + kk,
					     edge_rows[i][kk]);
		for (uint64_t kk = 0; kk < k; kk++)
			for (uint64_t j = 0; j < n; j++)
				ref_put_bits(b.cpu, REF_F16, tb ? j * k + kk : kk * n + j,
					     bcol[j][kk]);
		memset(o.cpu, SENTINEL, 4096);
		ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->stream, &t, NULL));
		for (uint64_t i = 0; i < m; i++) {
			for (uint64_t j = 0; j < n; j++) {
				double mag, want = ref_matmul(REF_F16, combos[c], a.cpu, b.cpu, m, n,
							      k, i, j, &mag);
				uint32_t got = ref_bits(o.cpu, REF_F16, i * n + j);

				if (!ref_close(got, REF_F16, want, 1,
					       (k + 8) * REF_F32_EPS * mag) && bad++ < 8)
					TH_LOG("flags %u [%llu][%llu]: got 0x%04x want %g", combos[c],
					       (unsigned long long)i, (unsigned long long)j, got,
					       want);
			}
		}
		expect_guard(_metadata, &o, m * n * 2);
	}
	EXPECT_EQ(0, bad);
	vnpu_buf_destroy(self->fd, &a);
	vnpu_buf_destroy(self->fd, &b);
	vnpu_buf_destroy(self->fd, &o);
	vnpu_buf_destroy(self->fd, &ws);
}

/* The example: 5 + 1 over 40000 fp32 elements, in place, is 6 everywhere. */
TEST_F(edge, scalar_in_place_f32_example)
{
	struct vnpu_buf b;
	uint64_t n = 40000;
	unsigned int bad = 0;
	struct vnpu_op t;
	float *x;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 2 * n * 4, &b));
	x = b.cpu;
	x[0] = 5;
	for (uint64_t i = 0; i < n; i++)
		x[n + i] = 1;
	ASSERT_EQ(0, vnpu_op_eltwise(&t, "Add", ACL_FLOAT, 1, n));
	vnpu_op_set_va(&t, b.va, b.va + n * 4, b.va, 0);
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, self->stream, &t, NULL));
	for (uint64_t i = 0; i < n; i++)
		if (x[i] != 6 && bad++ < 5)
			TH_LOG("[%llu] = %g", (unsigned long long)i, x[i]);
	EXPECT_EQ(0, bad);
	vnpu_buf_destroy(self->fd, &b);
}

/* ---------------------------------------------------------------- failures */

TEST_F(edge, i32_div_by_zero_fails_stream)
{
	struct drm_vnpu_stream_query q;
	struct vnpu_op div;
	struct vnpu_job job;
	struct vnpu_buf b;
	uint32_t sync, other;
	uint64_t seqno;
	int32_t *x;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, 1 << 16, &b));
	x = b.cpu;
	for (int i = 0; i < 100; i++) {
		x[i] = 1000 + i;		/* in0 */
		x[1024 + i] = i == 77 ? 0 : 3;	/* in1 */
	}
	ASSERT_EQ(0, vnpu_op_eltwise(&div, "RealDiv", ACL_INT32, 100, 100));
	vnpu_op_set_va(&div, b.va, b.va + 4096, b.va + 8192, 0);
	vnpu_job_init(&job);
	vnpu_job_add(&job, vnpu_task_nop());
	vnpu_job_add_op(&job, &div);
	vnpu_job_add(&job, vnpu_task_write32(b.va + 12288, 1));

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_job_submit(self->fd, self->stream, &job, NULL, 0, sync, 0, &seqno));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EDOM, vnpu_syncobj_fence_status(self->fd, sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ARITH, q.error);
	EXPECT_EQ(1, q.failed_task);
	EXPECT_EQ(seqno, q.failed_seqno);
	/* The task after the failing one did not run; the stream takes no more. */
	EXPECT_EQ(0, x[3072]);
	EXPECT_EQ(-EIO, vnpu_op_submit_wait(self->fd, self->stream, &div, NULL));

	/* Another stream is unaffected. */
	ASSERT_EQ(0, vnpu_op_eltwise(&div, "RealDiv", ACL_INT32, 10, 10));
	vnpu_op_set_va(&div, b.va, b.va + 4096, b.va + 8192, 0);
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &other));
	ASSERT_EQ(0, vnpu_op_submit_wait(self->fd, other, &div, NULL));
	EXPECT_EQ(1000 / 3, x[2048]);
	EXPECT_EQ(1009 / 3, x[2048 + 9]);
	ASSERT_EQ(0, vnpu_stream_query(self->fd, other, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	vnpu_syncobj_destroy(self->fd, sync);
	vnpu_buf_destroy(self->fd, &b);
}

/*
 * A long MatMul is cancelled between chunks once its job is past the
 * timeout: the stream fails with TIMEOUT long before the MatMul could end.
 */
TEST_F_TIMEOUT(edge, long_operator_times_out, 120)
{
	uint64_t dim = 1024, bytes = dim * dim * 4, t0, elapsed;
	unsigned long saved;
	struct drm_vnpu_stream_query q;
	struct vnpu_buf a, o;
	struct vnpu_op t;
	uint32_t sync;

	ASSERT_TRUE(vnpu_module_param("job_timeout_ms", &saved));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, bytes, &a));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, bytes, &o));
	ASSERT_EQ(0, vnpu_op_matmul(&t, ACL_FLOAT, dim, dim, dim, false, false));
	vnpu_op_set_va(&t, a.va, a.va, o.va, 0);

	ASSERT_EQ(0, vnpu_set_module_param("job_timeout_ms", 50));
	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	t0 = vnpu_now_ns();
	ASSERT_EQ(0, vnpu_op_submit(self->fd, self->stream, &t, sync, NULL));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	elapsed = vnpu_now_ns() - t0;
	vnpu_set_module_param("job_timeout_ms", saved);
	EXPECT_EQ(-ETIMEDOUT, vnpu_syncobj_fence_status(self->fd, sync));
	ASSERT_EQ(0, vnpu_stream_query(self->fd, self->stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_TIMEOUT, q.error);
	EXPECT_EQ(0, q.failed_task);
	/* 2^30 multiply-adds take many seconds here; the stop comes at a chunk. */
	EXPECT_LT(elapsed, 5000000000ull) TH_LOG("took %llu ms", (unsigned long long)elapsed / 1000000);
	vnpu_syncobj_destroy(self->fd, sync);
	vnpu_buf_destroy(self->fd, &a);
	vnpu_buf_destroy(self->fd, &o);
}

/* Destroying the stream stops a running operator at its next chunk. */
TEST_F_TIMEOUT(edge, destroy_stops_running_operator, 120)
{
	uint64_t dim = 1024, bytes = dim * dim * 4, t0;
	struct vnpu_buf a, o;
	struct vnpu_op t;
	uint32_t sync, stream;
	int status;

	ASSERT_EQ(0, vnpu_buf_create(self->fd, bytes, &a));
	ASSERT_EQ(0, vnpu_buf_create(self->fd, bytes, &o));
	ASSERT_EQ(0, vnpu_stream_create(self->fd, VNPU_PRIORITY_NORMAL, &stream));
	ASSERT_EQ(0, vnpu_op_matmul(&t, ACL_FLOAT, dim, dim, dim, false, false));
	vnpu_op_set_va(&t, a.va, a.va, o.va, 0);

	ASSERT_EQ(0, vnpu_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, vnpu_op_submit(self->fd, stream, &t, sync, NULL));
	usleep(100 * 1000);
	t0 = vnpu_now_ns();
	ASSERT_EQ(0, vnpu_stream_destroy(self->fd, stream));
	ASSERT_EQ(0, vnpu_syncobj_wait(self->fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_LT(vnpu_now_ns() - t0, 3000000000ull);
	status = vnpu_syncobj_fence_status(self->fd, sync);
	EXPECT_TRUE(vnpu_status_cancelled(status)) TH_LOG("status %d", status);
	/* The buffers go once the job is gone. */
	vnpu_buf_destroy(self->fd, &a);
	vnpu_buf_destroy(self->fd, &o);
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, VNPU_WAIT_FOREVER_NS));
	vnpu_syncobj_destroy(self->fd, sync);
}

TEST_HARNESS_MAIN
