// SPDX-License-Identifier: MIT
/*
 * rt_op.c - CANN operator calls to vnpu operator tasks (pure logic).
 *
 * Built-in operators, by CANN type name, with CANN's attribute names:
 *
 *   Add Sub Mul RealDiv   2 inputs of one type; equal shapes, or one
 *                         operand with a single element (broadcast)
 *   Relu Abs              1 input
 *   Cast                  1 input; dst_type (int or data type), truncate
 *   ReduceSumD ReduceMaxD 1 input; axes (any set, negative ones counted
 *                         from the end; [] is the identity), keep_dims
 *   SoftmaxV2             1 float input; axes (adjacent axes; default the
 *                         last one), half_to_float (false only)
 *   MatMul                2 two-dimensional inputs; transpose_x1,
 *                         transpose_x2, offset_x (0 only)
 *
 * Types: ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32 (vnpu's four).
 * Reductions and softmax see their input as rows x cols x inner: cols the
 * product of the named axes, rows of the dimensions before them, inner of
 * those after (one task with dims {rows, cols, inner}). The workspace is
 * the uapi's formula exactly. A reduction over axes that are not adjacent
 * is a chain of such tasks, one per run of adjacent axes, with the
 * intermediate tensors in the workspace block (plan_chain(), rt_op.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "rt_op.h"

/* The kernel's limits on one operator (kernel/vnpu_ops.h). */
#define OP_MAX_DIM (1ull << 31)
#define OP_MAX_BYTES (1ull << 40)

enum op_kind {
	K_BINARY,
	K_UNARY,
	K_CAST,
	K_REDUCE,
	K_SOFTMAX,
	K_MATMUL,
};

struct op_def {
	const char *name;
	uint32_t vop;
	enum op_kind kind;
	int nin;
	const char *const *attrs;	/* accepted names, NULL-terminated */
};

static const char *const no_attrs[] = { NULL };
static const char *const cast_attrs[] = { "dst_type", "truncate", NULL };
static const char *const reduce_attrs[] = { "axes", "keep_dims", NULL };
static const char *const softmax_attrs[] = { "axes", "half_to_float", NULL };
static const char *const matmul_attrs[] = { "transpose_x1", "transpose_x2", "offset_x", NULL };

static const struct op_def op_defs[] = {
	{ "Add", VNPU_OP_ADD, K_BINARY, 2, no_attrs },
	{ "Sub", VNPU_OP_SUB, K_BINARY, 2, no_attrs },
	{ "Mul", VNPU_OP_MUL, K_BINARY, 2, no_attrs },
	{ "RealDiv", VNPU_OP_DIV, K_BINARY, 2, no_attrs },
	{ "Relu", VNPU_OP_RELU, K_UNARY, 1, no_attrs },
	{ "Abs", VNPU_OP_ABS, K_UNARY, 1, no_attrs },
	{ "Cast", VNPU_OP_CAST, K_CAST, 1, cast_attrs },
	{ "ReduceSumD", VNPU_OP_REDUCE_SUM, K_REDUCE, 1, reduce_attrs },
	{ "ReduceMaxD", VNPU_OP_REDUCE_MAX, K_REDUCE, 1, reduce_attrs },
	{ "SoftmaxV2", VNPU_OP_SOFTMAX, K_SOFTMAX, 1, softmax_attrs },
	{ "MatMul", VNPU_OP_MATMUL, K_MATMUL, 2, matmul_attrs },
};

#define NUM_OPS (sizeof(op_defs) / sizeof(op_defs[0]))

static const struct op_def *find_op(const char *type)
{
	size_t i;

	for (i = 0; i < NUM_OPS; i++)
		if (!strcmp(op_defs[i].name, type))
			return &op_defs[i];
	return NULL;
}

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *r)
{
	if (a && b > UINT64_MAX / a)
		return false;
	*r = a * b;
	return true;
}

/* "[2, 3]" into @buf. */
static const char *shape_str(char *buf, size_t n, int ndims, const int64_t *dims)
{
	size_t at = 0;
	int i;

	at += (size_t)snprintf(buf, n, "[");
	for (i = 0; i < ndims && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%" PRId64, i ? ", " : "", dims[i]);
	if (at < n)
		snprintf(buf + at, n - at, "]");
	return buf;
}

uint64_t rt_op_workspace(uint32_t op, uint32_t dtype, uint32_t flags, uint64_t d0, uint64_t d1, uint64_t d2)
{
	const uint64_t dims[3] = { d0, d1, d2 };
	bool lowp = dtype == VNPU_DTYPE_F16 || dtype == VNPU_DTYPE_BF16;
	uint64_t ws = 0;

	switch (op) {
	case VNPU_OP_REDUCE_SUM:
	case VNPU_OP_REDUCE_MAX:
	case VNPU_OP_SOFTMAX:
		/* dims = { rows, cols, inner }, inner 0 meaning 1 */
		if (dims[2] <= 1)
			return 4 * dims[1];
		return 4 * dims[2] * (op == VNPU_OP_REDUCE_MAX ? 1 : op == VNPU_OP_REDUCE_SUM ? 2 : 3);
	case VNPU_OP_MATMUL:
		/* dims = { m, n, k } */
		if ((flags & VNPU_OP_F_TRANS_A) || lowp)
			ws += 4 * dims[0] * dims[2];
		if ((flags & VNPU_OP_F_TRANS_B) || lowp)
			ws += 4 * dims[2] * dims[1];
		if (lowp)
			ws += 4 * dims[1];
		return ws;
	default:
		return 0;
	}
}

/* ---- attributes ------------------------------------------------------------ */

static aclError check_attr_names(const struct op_def *def, const aclopAttr *attr)
{
	char names[128];
	size_t at = 0;
	unsigned int i;
	int j;

	if (!attr)
		return ACL_SUCCESS;
	for (i = 0; i < attr->count; i++) {
		bool known = false;

		for (j = 0; def->attrs[j]; j++)
			known = known || !strcmp(def->attrs[j], attr->items[i].name);
		if (known)
			continue;
		names[0] = '\0';
		for (j = 0; def->attrs[j] && at < sizeof(names); j++)
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", j ? ", " : "", def->attrs[j]);
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s has no attribute \"%s\" (it takes: %s)", def->name,
			      attr->items[i].name, j ? names : "none");
	}
	return ACL_SUCCESS;
}

/* A boolean attribute (Bool, or Int 0/1); @def if absent. */
static aclError attr_bool(const struct op_def *def, const aclopAttr *attr, const char *name, bool dflt,
			  bool *out)
{
	const struct rt_attr *a = rt_attr_find(attr, name);

	*out = dflt;
	if (!a)
		return ACL_SUCCESS;
	if (a->kind == RT_ATTR_BOOL) {
		*out = a->b;
		return ACL_SUCCESS;
	}
	if (a->kind == RT_ATTR_INT && (a->i == 0 || a->i == 1)) {
		*out = a->i != 0;
		return ACL_SUCCESS;
	}
	return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: attribute %s must be a bool", def->name, name);
}

/*
 * The axes attribute of a reduction or softmax over a tensor of rank @rank,
 * as a set: mask[i] is true for a named axis (negative axes count from the
 * end). Out-of-range and repeated axes are errors. Absent: @required
 * decides; SoftmaxV2's default is the last axis. *@n gets the number of
 * axes named.
 */
static aclError attr_axes(const struct op_def *def, const aclopAttr *attr, int rank, bool required,
			  bool *mask, int *n)
{
	const struct rt_attr *a = rt_attr_find(attr, "axes");
	const int64_t *v;
	int64_t one;
	int count, i;

	memset(mask, 0, (size_t)(rank > 0 ? rank : 1) * sizeof(*mask));
	*n = 0;
	if (!a) {
		if (required)
			return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s needs the attribute axes", def->name);
		one = -1;
		v = &one;
		count = 1;
	} else if (a->kind == RT_ATTR_INT) {
		one = a->i;
		v = &one;
		count = 1;
	} else if (a->kind == RT_ATTR_LIST_INT) {
		v = a->li.v;
		count = a->li.n;
	} else {
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: attribute axes must be a list of ints", def->name);
	}
	for (i = 0; i < count; i++) {
		int64_t axis = v[i];

		if (rank < 1)
			return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: a scalar input has no axis %" PRId64,
				      def->name, axis);
		if (axis < -(int64_t)rank || axis >= rank)
			return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH,
				      "%s: axis %" PRId64 " is out of range for rank %d ([%d, %d])", def->name,
				      axis, rank, -rank, rank - 1);
		if (axis < 0)
			axis += rank;
		if (mask[axis])
			return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: axes names axis %" PRId64 " twice",
				      def->name, axis);
		mask[axis] = true;
		(*n)++;
	}
	return ACL_SUCCESS;
}

/* ---- shapes ---------------------------------------------------------------- */

static void set_out_shape(struct rt_op_plan *p, int ndims, const int64_t *dims)
{
	p->out_ndims = ndims;
	if (ndims)
		memcpy(p->out_dims, dims, (size_t)ndims * sizeof(*dims));
}

static bool same_shape(const aclTensorDesc *a, const aclTensorDesc *b)
{
	return a->ndims == b->ndims && !memcmp(a->dims, b->dims, (size_t)a->ndims * sizeof(*a->dims));
}

/* Shape a single-element operand broadcast against the other gives. */
static void broadcast_shape(struct rt_op_plan *p, const aclTensorDesc *a, const aclTensorDesc *b)
{
	int rank = a->ndims > b->ndims ? a->ndims : b->ndims;
	int i;

	for (i = 0; i < rank; i++) {
		int ia = a->ndims - rank + i, ib = b->ndims - rank + i;
		int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;

		/* One side is all ones, so the larger one is the result. */
		p->out_dims[i] = da > db ? da : db;
	}
	p->out_ndims = rank;
}

static aclError too_large(const struct op_def *def)
{
	return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s: the tensors are too large for one vnpu operator "
		      "(at most 2^31 rows, columns or elements, 2^40 bytes per operand)", def->name);
}

/* bytes = count * size, within the kernel's limit. */
static bool bytes_ok(uint64_t count, uint64_t size, uint64_t *bytes)
{
	return mul_ok(count, size, bytes) && *bytes <= OP_MAX_BYTES;
}

/* ---- the operator kinds ------------------------------------------------------ */

static aclError plan_binary(const struct op_def *def, aclTensorDesc *const *in, struct rt_op_plan *p)
{
	const aclTensorDesc *a = in[0], *b = in[1];
	uint64_t ca, cb, n, es = p->in_esize;
	char sa[96], sb[96];

	if (!rt_tensor_count(a, &ca) || !rt_tensor_count(b, &cb))
		return too_large(def);
	if (same_shape(a, b)) {
		set_out_shape(p, a->ndims, a->dims);
		n = ca;
	} else if (cb == 1 || ca == 1) {
		p->task.op_flags = cb == 1 ? VNPU_OP_F_SCALAR_IN1 : VNPU_OP_F_SCALAR_IN0;
		broadcast_shape(p, a, b);
		n = cb == 1 ? ca : cb;
	} else {
		return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH,
			      "%s: input shapes %s and %s differ; vnpu broadcasts only an operand with a single element",
			      def->name, shape_str(sa, sizeof(sa), a->ndims, a->dims),
			      shape_str(sb, sizeof(sb), b->ndims, b->dims));
	}
	if (n > OP_MAX_DIM || !bytes_ok(n, es, &p->out_bytes))
		return too_large(def);
	p->nin = 2;
	p->in_bytes[0] = (p->task.op_flags & VNPU_OP_F_SCALAR_IN0) ? es : p->out_bytes;
	p->in_bytes[1] = (p->task.op_flags & VNPU_OP_F_SCALAR_IN1) ? es : p->out_bytes;
	p->task.dims[0] = n;
	p->empty = n == 0;
	p->in_place_ok = true;
	return ACL_SUCCESS;
}

static aclError plan_unary(const struct op_def *def, const aclTensorDesc *x, uint32_t out_esize,
			   struct rt_op_plan *p)
{
	uint64_t n;

	if (!rt_tensor_count(x, &n) || n > OP_MAX_DIM || !bytes_ok(n, p->in_esize, &p->in_bytes[0]) ||
	    !bytes_ok(n, out_esize, &p->out_bytes))
		return too_large(def);
	set_out_shape(p, x->ndims, x->dims);
	p->nin = 1;
	p->task.dims[0] = n;
	p->empty = n == 0;
	p->in_place_ok = out_esize <= p->in_esize;
	return ACL_SUCCESS;
}

static aclError plan_cast(const struct op_def *def, const aclTensorDesc *x, const aclopAttr *attr,
			  struct rt_op_plan *p)
{
	const struct rt_attr *a = rt_attr_find(attr, "dst_type");
	aclDataType dst;
	bool truncate;
	aclError ret;

	if (!a)
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "Cast needs the attribute dst_type (the output type)");
	if (a->kind == RT_ATTR_DTYPE)
		dst = a->dt;
	else if (a->kind == RT_ATTR_INT && a->i >= INT32_MIN && a->i <= INT32_MAX)
		dst = (aclDataType)a->i;
	else
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "Cast: attribute dst_type must be a data type or an int");
	/* vnpu's float to int32 conversion always truncates (toward zero). */
	ret = attr_bool(def, attr, "truncate", false, &truncate);
	if (ret)
		return ret;
	p->task.out_dtype = rt_dtype_to_vnpu(dst);
	if (!p->task.out_dtype)
		return rt_err(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
			      "Cast to %s (%d) is not supported (vnpu: ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32)",
			      rt_dtype_name(dst), (int)dst);
	p->out_type = dst;
	p->out_esize = (uint32_t)rt_dtype_size(dst);
	return plan_unary(def, x, p->out_esize, p);
}

/*
 * The tensor @x as rows x cols x inner around the named axes (@mask):
 * rows the product of the dimensions before the first named axis, cols of
 * the named ones, inner of those after the last; none named gives cols = 1.
 * *@adjacent tells whether the named axes are one run (one vnpu task);
 * when they are not, rows x cols x inner is only the element count.
 */
static aclError rows_cols_inner(const struct op_def *def, const aclTensorDesc *x, const bool *mask,
				uint64_t *rows, uint64_t *cols, uint64_t *inner, bool *adjacent)
{
	uint64_t d[3] = { 1, 1, 1 };
	int i, part = 0;

	*adjacent = true;
	for (i = 0; i < x->ndims; i++) {
		int at;

		if (mask[i] && part == 2)
			*adjacent = false;
		if (mask[i])
			part = 1;
		else if (part == 1)
			part = 2;
		at = mask[i] ? 1 : part ? 2 : 0;
		if (!mul_ok(d[at], (uint64_t)x->dims[i], &d[at]))
			return too_large(def);
	}
	*rows = d[0];
	*cols = d[1];
	*inner = d[2];
	return ACL_SUCCESS;
}

/* One step of a chain: @op over @dtype with dims {d0, d1, d2}, from @src to @dst. */
static void add_step(struct rt_op_plan *p, uint32_t op, uint32_t dtype, uint32_t out_dtype, uint64_t d0,
		     uint64_t d1, uint64_t d2, int src, int dst)
{
	struct rt_op_step *st = &p->steps[p->nsteps++];

	memset(st, 0, sizeof(*st));
	st->task.op = op;
	st->task.dtype = dtype;
	st->task.out_dtype = out_dtype;
	st->task.dims[0] = d0;
	st->task.dims[1] = d1;
	st->task.dims[2] = d2;
	st->task.ws_size = rt_op_workspace(op, dtype, 0, d0, d1, d2);
	st->src = src;
	st->dst = dst;
	if (st->task.ws_size > p->ws_region)
		p->ws_region = st->task.ws_size;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * A reduction over axes that are not adjacent (@elems elements, not
 * empty): one reduction per run of named axes, first run first, each
 * seeing the tensor left by the one before as rows x cols x inner. Sums of
 * fp16/bf16 run in fp32 between a CAST of the input and a CAST of the
 * result (rounded once, as one task would); maxima and the other types
 * keep the input's type (a maximum is exact in any type).
 */
static aclError plan_chain(const struct op_def *def, const aclTensorDesc *x, const bool *mask, uint64_t elems,
			   struct rt_op_plan *p)
{
	uint32_t dt = p->task.dtype;
	bool cast = def->vop == VNPU_OP_REDUCE_SUM && (dt == VNPU_DTYPE_F16 || dt == VNPU_DTYPE_BF16);
	uint32_t wdt = cast ? VNPU_DTYPE_F32 : dt, wes = cast ? 4 : p->in_esize;
	uint64_t seg[RT_MAX_DIMS], rows = 1, cur = elems, bytes;
	bool red[RT_MAX_DIMS];
	int nseg = 0, i, nred = 0, k = 0, src, dst;

	/* the shape as runs of kept and of named axes */
	for (i = 0; i < x->ndims; i++) {
		if (nseg && red[nseg - 1] == mask[i]) {
			seg[nseg - 1] *= (uint64_t)x->dims[i];	/* within elems: no overflow */
			continue;
		}
		seg[nseg] = (uint64_t)x->dims[i];
		red[nseg++] = mask[i];
		nred += mask[i];
	}
	p->nsteps = 0;
	p->ws_region = 0;
	if (cast) {
		if (elems > OP_MAX_DIM || !bytes_ok(elems, 4, &p->buf_bytes[0]))
			return too_large(def);
		add_step(p, VNPU_OP_CAST, dt, VNPU_DTYPE_F32, elems, 0, 0, RT_OP_USER, 0);
	}
	src = cast ? 0 : RT_OP_USER;
	for (i = 0; i < nseg; i++) {
		uint64_t cols = seg[i], inner;

		if (!red[i]) {
			rows *= seg[i];
			continue;
		}
		inner = cur / rows / cols;
		if (rows > OP_MAX_DIM || cols > OP_MAX_DIM || inner > OP_MAX_DIM)
			return too_large(def);
		cur = rows * inner;
		k++;
		/* the last reduction writes the output, unless a CAST follows */
		dst = k == nred && !cast ? RT_OP_USER : src == 0 ? 1 : 0;
		add_step(p, def->vop, wdt, 0, rows, cols, inner > 1 ? inner : 0, src, dst);
		if (dst >= 0 && !bytes_ok(cur, wes, &bytes))
			return too_large(def);
		if (dst >= 0 && bytes > p->buf_bytes[dst])
			p->buf_bytes[dst] = bytes;
		src = dst;
	}
	if (cast)
		add_step(p, VNPU_OP_CAST, VNPU_DTYPE_F32, dt, cur, 0, 0, src, RT_OP_USER);
	p->buf_off[0] = align_up(p->ws_region, RT_OP_BUF_ALIGN);
	p->buf_off[1] = align_up(p->buf_off[0] + p->buf_bytes[0], RT_OP_BUF_ALIGN);
	p->task.ws_size = p->buf_off[1] + p->buf_bytes[1];
	if (p->task.ws_size > OP_MAX_BYTES)
		return too_large(def);
	return ACL_SUCCESS;
}

static aclError plan_rows(const struct op_def *def, const aclTensorDesc *x, const aclopAttr *attr,
			  struct rt_op_plan *p)
{
	bool softmax = def->kind == K_SOFTMAX, keep = false, half_to_float = false;
	bool mask[RT_MAX_DIMS], adjacent;
	uint64_t rows = 0, cols = 0, inner = 0, elems, outer;
	int naxes, i;
	aclError ret;

	if (softmax && p->task.dtype == VNPU_DTYPE_I32)
		return rt_err(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
			      "SoftmaxV2 on ACL_INT32 is not supported (ACL_FLOAT, ACL_FLOAT16, ACL_BF16)");
	ret = attr_axes(def, attr, x->ndims, !softmax, mask, &naxes);
	if (!ret && softmax && !naxes)
		ret = rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "SoftmaxV2: axes must name at least one axis");
	if (!ret)
		ret = softmax ? attr_bool(def, attr, "half_to_float", false, &half_to_float)
			      : attr_bool(def, attr, "keep_dims", false, &keep);
	if (ret)
		return ret;
	if (softmax && half_to_float)
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH,
			      "SoftmaxV2: half_to_float=true is not supported (the output has the input's type)");
	ret = rows_cols_inner(def, x, mask, &rows, &cols, &inner, &adjacent);
	if (ret)
		return ret;
	if (!adjacent && softmax)
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH,
			      "SoftmaxV2: the axes are not adjacent; vnpu runs softmax along adjacent axes only "
			      "(a single axis, or a run like [1, 2])");
	/* A chain's tasks are checked one by one (plan_chain). */
	if (!mul_ok(rows, cols, &elems) || !mul_ok(elems, inner, &elems) || !mul_ok(rows, inner, &outer) ||
	    (adjacent && (rows > OP_MAX_DIM || cols > OP_MAX_DIM || inner > OP_MAX_DIM)) ||
	    !bytes_ok(elems, p->in_esize, &p->in_bytes[0]))
		return too_large(def);

	if (softmax) {
		set_out_shape(p, x->ndims, x->dims);
		p->out_bytes = p->in_bytes[0];
		p->empty = elems == 0;
	} else {
		/* The named axes go, or stay as 1 with keep_dims. No axes
		 * named: the identity, as TensorFlow's Sum (CANN's ReduceSumD
		 * follows it; ReduceSum's noop_with_empty_axes defaults to
		 * true). */
		p->out_ndims = 0;
		for (i = 0; i < x->ndims; i++)
			if (!mask[i] || keep)
				p->out_dims[p->out_ndims++] = mask[i] ? 1 : x->dims[i];
		p->out_bytes = outer * p->in_esize;
		if (outer && !cols)
			return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH,
				      "%s: reducing an empty axis is not supported", def->name);
		p->empty = outer == 0;
	}
	p->nin = 1;
	/* In place is fine for a chain too: its first task reads all of the
	 * input before its last one writes the output. */
	p->in_place_ok = true;
	if (!adjacent)
		return p->empty ? ACL_SUCCESS : plan_chain(def, x, mask, elems, p);
	p->task.dims[0] = rows;
	p->task.dims[1] = cols;
	p->task.dims[2] = inner > 1 ? inner : 0;	/* 0: the last axis, as before ABI 1.2 */
	return ACL_SUCCESS;
}

static aclError plan_matmul(const struct op_def *def, aclTensorDesc *const *in, const aclopAttr *attr,
			    struct rt_op_plan *p)
{
	const aclTensorDesc *a = in[0], *b = in[1];
	const struct rt_attr *offset = rt_attr_find(attr, "offset_x");
	uint64_t m, n, k, kb, bytes;
	bool ta, tb;
	char sa[96], sb[96];
	aclError ret;

	ret = attr_bool(def, attr, "transpose_x1", false, &ta);
	if (!ret)
		ret = attr_bool(def, attr, "transpose_x2", false, &tb);
	if (ret)
		return ret;
	if (offset && (offset->kind != RT_ATTR_INT || offset->i != 0))
		return rt_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "MatMul: offset_x must be the int 0 (no quantisation)");
	if (a->ndims != 2 || b->ndims != 2)
		return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "MatMul takes two 2-D inputs, got %s and %s",
			      shape_str(sa, sizeof(sa), a->ndims, a->dims),
			      shape_str(sb, sizeof(sb), b->ndims, b->dims));
	m = (uint64_t)a->dims[ta ? 1 : 0];
	k = (uint64_t)a->dims[ta ? 0 : 1];
	kb = (uint64_t)b->dims[tb ? 1 : 0];
	n = (uint64_t)b->dims[tb ? 0 : 1];
	if (k != kb)
		return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH,
			      "MatMul: x1 %s%s and x2 %s%s do not agree on the inner dimension (%" PRIu64
			      " and %" PRIu64 ")",
			      shape_str(sa, sizeof(sa), a->ndims, a->dims), ta ? " (transposed)" : "",
			      shape_str(sb, sizeof(sb), b->ndims, b->dims), tb ? " (transposed)" : "", k, kb);
	if (m > OP_MAX_DIM || n > OP_MAX_DIM || k > OP_MAX_DIM)
		return too_large(def);
	p->out_ndims = 2;
	p->out_dims[0] = (int64_t)m;
	p->out_dims[1] = (int64_t)n;
	p->empty = !m || !n;
	if (!p->empty && !k)
		return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "MatMul: an inner dimension of 0 is not supported");
	if (!mul_ok(m, k, &bytes) || !bytes_ok(bytes, p->in_esize, &p->in_bytes[0]) ||
	    !mul_ok(k, n, &bytes) || !bytes_ok(bytes, p->in_esize, &p->in_bytes[1]) ||
	    !mul_ok(m, n, &bytes) || !bytes_ok(bytes, p->in_esize, &p->out_bytes) ||
	    !bytes_ok(m * k + k * n + n, 4, &bytes))
		return too_large(def);
	p->nin = 2;
	p->task.op_flags = (ta ? VNPU_OP_F_TRANS_A : 0) | (tb ? VNPU_OP_F_TRANS_B : 0);
	p->task.dims[0] = m;
	p->task.dims[1] = n;
	p->task.dims[2] = k;
	p->in_place_ok = false;
	return ACL_SUCCESS;
}

/* ---- the call ---------------------------------------------------------------- */

static aclError check_desc(const aclTensorDesc *d, const char *what, int i, bool input)
{
	int j;

	if (!d)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] is NULL", what, i);
	if (d->magic != RT_TENSOR_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] (%p) is not a tensor descriptor", what, i,
			      (const void *)d);
	if (!rt_format_plain(d->format))
		return rt_err(ACL_ERROR_FORMAT_NOT_MATCH,
			      "%s[%d] has the blocked format %d; vnpu's operators take plain row-major layouts "
			      "(ND, NCHW, NHWC, ...)", what, i, (int)d->format);
	if (!input)
		return ACL_SUCCESS;
	for (j = 0; j < d->ndims; j++)
		if (d->dims[j] < 0)
			return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH,
				      "%s[%d] has an unknown dimension (%" PRId64 " at %d); vnpu executes known shapes only",
				      what, i, d->dims[j], j);
	return ACL_SUCCESS;
}

static aclError check_output(const struct rt_op_plan *p, const aclTensorDesc *o)
{
	char want[256], got[256];
	int i;

	if (o->dtype != p->out_type)
		return rt_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s produces %s, but outputDesc[0] says %s", p->type,
			      rt_dtype_name(p->out_type), rt_dtype_name(o->dtype));
	if (o->ndims == 1 && o->dims[0] == RT_RANK_UNKNOWN)
		return ACL_SUCCESS;
	if (o->ndims != p->out_ndims)
		goto mismatch;
	for (i = 0; i < o->ndims; i++)
		if (o->dims[i] >= 0 && o->dims[i] != p->out_dims[i])
			goto mismatch;
	return ACL_SUCCESS;
mismatch:
	return rt_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s produces shape %s, but outputDesc[0] has shape %s",
		      p->type, shape_str(want, sizeof(want), p->out_ndims, p->out_dims),
		      shape_str(got, sizeof(got), o->ndims, o->dims));
}

aclError rt_op_plan(const char *type, int nin, aclTensorDesc *const *in_desc, int nout,
		    aclTensorDesc *const *out_desc, const aclopAttr *attr, struct rt_op_plan *p)
{
	const struct op_def *def;
	aclError ret;
	int i;

	memset(p, 0, offsetof(struct rt_op_plan, out_dims));
	if (!type)
		return rt_err(ACL_ERROR_INVALID_PARAM, "opType must not be NULL");
	if (nin < 0 || nout < 0)
		return rt_err(ACL_ERROR_INVALID_PARAM, "numInputs (%d) and numOutputs (%d) must not be negative",
			      nin, nout);
	if ((nin && !in_desc) || (nout && !out_desc))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", nin && !in_desc ? "inputDesc" : "outputDesc");
	if (attr && attr->magic != RT_ATTR_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "attr (%p) is not an operator attribute set",
			      (const void *)attr);
	def = find_op(type);
	if (!def)
		return rt_err(ACL_ERROR_OP_NOT_FOUND,
			      "operator type \"%s\" is not built into vnpu (Add, Sub, Mul, RealDiv, Relu, Abs, Cast, "
			      "ReduceSumD, ReduceMaxD, SoftmaxV2, MatMul)", type);
	p->type = def->name;
	if (nin != def->nin)
		return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s takes %d input%s, got %d%s", def->name, def->nin,
			      def->nin == 1 ? "" : "s", nin,
			      def->kind == K_MATMUL && nin == 3 ? " (vnpu's MatMul has no bias input)" : "");
	if (nout != 1)
		return rt_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s has 1 output, got %d", def->name, nout);
	for (i = 0; i < nin; i++) {
		ret = check_desc(in_desc[i], "inputDesc", i, true);
		if (ret)
			return ret;
	}
	ret = check_desc(out_desc[0], "outputDesc", 0, false);
	if (!ret)
		ret = check_attr_names(def, attr);
	if (ret)
		return ret;

	p->task.op = def->vop;
	p->task.dtype = rt_dtype_to_vnpu(in_desc[0]->dtype);
	if (!p->task.dtype)
		return rt_err(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
			      "%s on %s is not supported (vnpu: ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32)",
			      def->name, rt_dtype_name(in_desc[0]->dtype));
	if (nin == 2 && in_desc[1]->dtype != in_desc[0]->dtype)
		return rt_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s: the inputs have different types (%s and %s)",
			      def->name, rt_dtype_name(in_desc[0]->dtype), rt_dtype_name(in_desc[1]->dtype));
	p->in_esize = (uint32_t)rt_dtype_size(in_desc[0]->dtype);
	p->out_esize = p->in_esize;
	p->out_type = in_desc[0]->dtype;

	switch (def->kind) {
	case K_BINARY:
		ret = plan_binary(def, in_desc, p);
		break;
	case K_UNARY:
		ret = plan_unary(def, in_desc[0], p->in_esize, p);
		break;
	case K_CAST:
		ret = plan_cast(def, in_desc[0], attr, p);
		break;
	case K_REDUCE:
	case K_SOFTMAX:
		ret = plan_rows(def, in_desc[0], attr, p);
		break;
	case K_MATMUL:
		ret = plan_matmul(def, in_desc, attr, p);
		break;
	}
	if (ret)
		return ret;
	if (!p->nsteps)
		p->task.ws_size = rt_op_workspace(p->task.op, p->task.dtype, p->task.op_flags, p->task.dims[0],
						  p->task.dims[1], p->task.dims[2]);
	return check_output(p, out_desc[0]);
}

/* ---- buffers ---------------------------------------------------------------- */

struct span {
	uint64_t start, len;
};

static bool overlap(struct span a, struct span b)
{
	return a.len && b.len && a.start < b.start + b.len && b.start < a.start + a.len;
}

static aclError check_buffer(const aclDataBuffer *b, const char *what, int i, uint64_t need, uint32_t esize,
			     bool used)
{
	uint64_t addr;

	if (!b)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] is NULL", what, i);
	if (b->magic != RT_BUFFER_MAGIC)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] (%p) is not a data buffer", what, i, (const void *)b);
	if (!used)
		return ACL_SUCCESS;
	addr = (uint64_t)(uintptr_t)b->data;
	if (!addr)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] has no memory (NULL data)", what, i);
	if (b->size < need)
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s[%d] holds %zu bytes; the tensor needs %" PRIu64, what, i,
			      b->size, need);
	if (esize && addr % esize)
		return rt_err(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED,
			      "%s[%d] at %p is not aligned to its element size (%u bytes)", what, i, b->data, esize);
	return ACL_SUCCESS;
}

aclError rt_op_bind_buffers(struct rt_op_plan *p, int nin, aclDataBuffer *const *in, int nout,
			    aclDataBuffer *const *out)
{
	struct span out_span;
	aclError ret;
	int i;

	if ((nin && !in) || (nout && !out))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s must not be NULL", nin && !in ? "inputs" : "outputs");
	for (i = 0; i < nin; i++) {
		ret = check_buffer(in[i], "inputs", i, p->in_bytes[i < 2 ? i : 0], p->in_esize, !p->empty);
		if (ret)
			return ret;
	}
	ret = check_buffer(out[0], "outputs", 0, p->out_bytes, p->out_esize, !p->empty);
	if (ret || p->empty)
		return ret;

	p->task.in0 = (uint64_t)(uintptr_t)in[0]->data;
	p->task.in1 = p->nin == 2 ? (uint64_t)(uintptr_t)in[1]->data : 0;
	p->task.out = (uint64_t)(uintptr_t)out[0]->data;
	out_span = (struct span){ p->task.out, p->out_bytes };
	for (i = 0; i < (int)p->nin; i++) {
		uint64_t start = i ? p->task.in1 : p->task.in0;
		bool scalar = p->task.op_flags & (i ? VNPU_OP_F_SCALAR_IN1 : VNPU_OP_F_SCALAR_IN0);

		if (!overlap(out_span, (struct span){ start, p->in_bytes[i] }))
			continue;
		if (p->in_place_ok && !scalar && start == p->task.out)
			continue;
		return rt_err(ACL_ERROR_INVALID_PARAM,
			      "%s: outputs[0] overlaps inputs[%d]; only %s", p->type, i,
			      p->in_place_ok ? "in-place use (the same start address) of a full-size input is allowed"
					     : "separate memory is allowed for this operator");
	}
	return ACL_SUCCESS;
}

aclError rt_op_check_workspace(const struct rt_op_plan *p, uint64_t va, uint64_t size)
{
	struct span ws = { va, size };
	unsigned int i;

	if (va % 4)
		return rt_err(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, "%s: workspace at 0x%" PRIx64
			      " is not 4-byte aligned", p->type, va);
	for (i = 0; i < p->nin; i++)
		if (overlap(ws, (struct span){ i ? p->task.in1 : p->task.in0, p->in_bytes[i] }))
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "%s: workspace [0x%" PRIx64 ", +%" PRIu64 ") overlaps inputs[%u]", p->type, va,
				      size, i);
	if (overlap(ws, (struct span){ p->task.out, p->out_bytes }))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%s: workspace [0x%" PRIx64 ", +%" PRIu64 ") overlaps outputs[0]",
			      p->type, va, size);
	return ACL_SUCCESS;
}

unsigned int rt_op_tasks(const struct rt_op_plan *p, uint64_t ws, struct drm_vnpu_task *tasks)
{
	unsigned int i;

	if (!p->nsteps) {
		memset(&tasks[0], 0, sizeof(tasks[0]));
		tasks[0].kind = VNPU_TASK_OP;
		tasks[0].op = p->task;
		tasks[0].op.ws = p->task.ws_size ? ws : 0;
		return 1;
	}
	for (i = 0; i < p->nsteps; i++) {
		const struct rt_op_step *st = &p->steps[i];
		struct drm_vnpu_task_op *op = &tasks[i].op;

		memset(&tasks[i], 0, sizeof(tasks[i]));
		tasks[i].kind = VNPU_TASK_OP;
		*op = st->task;
		op->in0 = st->src == RT_OP_USER ? p->task.in0 : ws + p->buf_off[st->src];
		op->out = st->dst == RT_OP_USER ? p->task.out : ws + p->buf_off[st->dst];
		/*
		 * Every step names the whole block as its workspace, so the
		 * kernel's cross-stream hazard check covers the intermediates
		 * too; a step uses only the first bytes it needs, below the
		 * intermediate buffers.
		 */
		op->ws = ws;
		op->ws_size = p->task.ws_size;
	}
	return p->nsteps;
}

void rt_op_refresh_output(const struct rt_op_plan *p, aclTensorDesc *out_desc)
{
	/* Fails only when a shape of more than RT_INLINE_DIMS dimensions
	 * cannot get heap memory; the descriptor keeps its shape then. */
	(void)rt_tensor_set_shape(out_desc, p->out_ndims, p->out_dims);
}
