/* SPDX-License-Identifier: MIT */
/*
 * ops_int.h - lib/ops' operator table and planner internals (private).
 *
 * An operator is one struct ops_def (op_*.c), listed in ops_table.c. A
 * call of it is a struct ops_call: its inputs and its canonical
 * attributes, the operator's own normalised form of CANN's attributes
 * (axes as a bitmask over the input rank, transposes as flags, a Cast's
 * output type). The descriptor (ops_desc.c) is exactly a call in bytes,
 * so that both sides run the same rules on the same thing:
 *
 *   vops_plan:  CANN attributes -> def->parse -> call -> ops_plan_call -> encode
 *   vops_run:   descriptor -> decode -> call -> ops_plan_call -> operands -> def->run
 *
 * ops_plan_call() is the one place the rules live: the input checks every
 * operator shares, then def->infer (types, shapes, outputs, sizes, in
 * place) and def->workspace.
 */
#ifndef VNPU_LIB_OPS_INT_H
#define VNPU_LIB_OPS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "ops_elem.h"
#include "ops_kern.h"
#include "vnpu_ops.h"

/* Operator ids in descriptors: stable, only ever appended. */
enum ops_id {
	OPS_ID_ADD = 1,
	OPS_ID_SUB = 2,
	OPS_ID_MUL = 3,
	OPS_ID_REALDIV = 4,
	OPS_ID_RELU = 5,
	OPS_ID_ABS = 6,
	OPS_ID_CAST = 7,
	OPS_ID_REDUCE_SUM = 8,
	OPS_ID_REDUCE_MAX = 9,
	OPS_ID_SOFTMAX = 10,
	OPS_ID_MATMUL = 11,
	/* The first id of each family after version 1's operators (ops_table.c). */
	OPS_ID_UNARY = 100,
	OPS_ID_BINARY = 200,
	OPS_ID_REDUCE = 300,
	OPS_ID_NORM = 400,
	OPS_ID_NN = 500,
	OPS_ID_MOVE = 600,
	OPS_ID_INDEX = 700,
};

/* Ids a family may have. */
#define OPS_FAMILY_IDS 100

/* How an operator's canonical attributes are laid out in a descriptor. */
enum ops_attr_fmt {
	OPS_AF_NONE = 0,	/* no attribute block */
	OPS_AF_CAST,		/* u32 dst (aclDataType), u32 0 */
	OPS_AF_AXES,		/* u32 flags, u32 0, u64 axes[(rank + 63) / 64] */
	OPS_AF_MATMUL,		/* u32 flags, u32 0 */
	OPS_AF_PARAMS,		/* u32 ni, u32 nf, i64 i[ni], f64 f[nf] (struct ops_params) */
};

/* OPS_AF_AXES flags */
#define OPS_AXES_KEEP_DIMS (1u << 0)
/* OPS_AF_MATMUL flags */
#define OPS_MM_TRANS_X1 (1u << 0)
#define OPS_MM_TRANS_X2 (1u << 1)

/* Bits for the data types an operator's inputs may have (ops_def.dtypes). */
#define OPS_DT_F32 (1u << 0)
#define OPS_DT_F16 (1u << 1)
#define OPS_DT_BF16 (1u << 2)
#define OPS_DT_I32 (1u << 3)
#define OPS_DT_F64 (1u << 4)
#define OPS_DT_I8 (1u << 5)
#define OPS_DT_U8 (1u << 6)
#define OPS_DT_I16 (1u << 7)
#define OPS_DT_U16 (1u << 8)
#define OPS_DT_U32 (1u << 9)
#define OPS_DT_I64 (1u << 10)
#define OPS_DT_U64 (1u << 11)
#define OPS_DT_BOOL (1u << 12)
#define OPS_DT_FLOATS (OPS_DT_F32 | OPS_DT_F16 | OPS_DT_BF16)
/* The four types of the first eleven operators (version 1's kernels). */
#define OPS_DT_ALL (OPS_DT_FLOATS | OPS_DT_I32)
#define OPS_DT_REAL (OPS_DT_FLOATS | OPS_DT_F64)
#define OPS_DT_SINT (OPS_DT_I8 | OPS_DT_I16 | OPS_DT_I32 | OPS_DT_I64)
#define OPS_DT_UINT (OPS_DT_U8 | OPS_DT_U16 | OPS_DT_U32 | OPS_DT_U64)
#define OPS_DT_INTS (OPS_DT_SINT | OPS_DT_UINT)
#define OPS_DT_NUM (OPS_DT_REAL | OPS_DT_INTS)
#define OPS_DT_ANY (OPS_DT_NUM | OPS_DT_BOOL)

/* OPS_DT_* bit of aclDataType @dtype, 0 for a type lib/ops does not take. */
uint32_t ops_dtype_bit(int32_t dtype);

/* Parameters of OPS_AF_PARAMS operators: ints, then floats (doubles). */
#define OPS_MAX_IPARAMS (2 * VOPS_MAX_RANK + 32)
#define OPS_MAX_FPARAMS 8

#define OPS_AXES_WORDS ((VOPS_MAX_RANK + 63) / 64)

struct ops_def;

struct ops_params {
	uint32_t ni, nf;
	int64_t i[OPS_MAX_IPARAMS];
	double f[OPS_MAX_FPARAMS];
};

/* One call: the inputs, the output count and the canonical attributes. */
struct ops_call {
	const struct ops_def *def;
	int nin, nout;
	const struct vops_tensor *in;	/* nin of them */
	union {
		struct ops_params pr;	/* OPS_AF_PARAMS */
		int32_t dst;		/* OPS_AF_CAST: the output type */
		struct {
			uint32_t flags;	/* OPS_AXES_* */
			uint64_t mask[OPS_AXES_WORDS];	/* bit i: axis i */
		} axes;			/* OPS_AF_AXES */
		uint32_t mm_flags;	/* OPS_AF_MATMUL: OPS_MM_* */
	} at;
};

/* ops_def.flags */
/* The inputs may have different types (infer checks them); ops_def.dtypes
 * is input 0's. */
#define OPS_DEF_MIXED (1u << 0)
/* run reads strided inputs itself (struct vops_tensor's strides and
 * offset); for the other operators vops_run() first copies a strided input
 * to a dense one in the workspace. */
#define OPS_DEF_STRIDED (1u << 1)

/* Operand pointers of a run, in operand order (inputs, outputs, workspace). */
struct ops_bufs {
	const void *in[VOPS_MAX_INPUTS];
	void *out[VOPS_MAX_OUTPUTS];
	void *ws;
};

/**
 * struct ops_def - one operator, defined once
 * @name: CANN type name.
 * @id: enum ops_id (descriptors).
 * @kind: the primitive its family runs (enum ops_kind).
 * @nin: inputs (the least, when @nin_max is larger).
 * @nout: outputs (the least, when @nout_max is larger).
 * @nin_max: most inputs of a variadic operator, 0: exactly @nin.
 * @nout_max: most outputs, 0: exactly @nout (the caller's count is the call's).
 * @flags: OPS_DEF_*.
 * @attr_fmt: enum ops_attr_fmt.
 * @dtypes: OPS_DT_* the inputs may have (all inputs one type).
 * @attrs: CANN attribute names it accepts, NULL-terminated.
 * @parse: CANN attributes to @c's canonical ones (vops_plan() only); the
 *	inputs are set and checked. NULL for operators without attributes.
 * @infer: the rules: check @c and fill @p's outputs, input sizes and
 *	alignments, in_place and empty.
 * @workspace: set @p->ws_bytes (0 for empty plans).
 * @run: compute a checked, non-empty plan @p of @c on @b.
 */
struct ops_def {
	const char *name;
	uint16_t id;
	uint8_t kind;
	uint8_t nin, nout;
	uint8_t attr_fmt;
	uint8_t nin_max, nout_max;
	uint32_t flags;
	uint32_t dtypes;
	const char *const *attrs;
	enum vops_err (*parse)(struct ops_call *c, const struct vops_attr *attrs, unsigned int nattrs,
			       struct vops_error *err);
	enum vops_err (*infer)(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);
	enum vops_err (*workspace)(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);
	enum vops_run_status (*run)(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r);
};

static inline int ops_nin_max(const struct ops_def *def)
{
	return def->nin_max ? def->nin_max : def->nin;
}

static inline int ops_nout_max(const struct ops_def *def)
{
	return def->nout_max ? def->nout_max : def->nout;
}

/* ---- ops_table.c ---------------------------------------------------------- */

const struct ops_def *ops_def_by_name(const char *name);
const struct ops_def *ops_def_by_id(unsigned int id);

/* The definitions (op_eltwise.c, op_reduce.c, op_matmul.c). */
extern const struct ops_def ops_def_add, ops_def_sub, ops_def_mul, ops_def_realdiv;
extern const struct ops_def ops_def_relu, ops_def_abs, ops_def_cast;
extern const struct ops_def ops_def_reduce_sum, ops_def_reduce_max, ops_def_softmax;
extern const struct ops_def ops_def_matmul;

/*
 * The families' lists, NULL-terminated, the operator of id base + i at
 * index i: op_unary.c (math and activations), op_binary.c (arithmetic,
 * comparisons, logic, selection), op_reduce2.c (reductions, arg and
 * top-k, scans, softmax family), op_norm.c (normalisations), op_nn.c
 * (matrix products, convolution, pooling), op_move.c (data movement:
 * shapes, views, concatenation, padding), op_index.c (gathers, scatters,
 * one-hot, triangles, space-depth, resize).
 */
extern const struct ops_def *const ops_unary_defs[];
extern const struct ops_def *const ops_binary_defs[];
extern const struct ops_def *const ops_reduce_defs[];
extern const struct ops_def *const ops_norm_defs[];
extern const struct ops_def *const ops_nn_defs[];
extern const struct ops_def *const ops_move_defs[];
extern const struct ops_def *const ops_index_defs[];

/* ---- ops_plan.c: shared rules and helpers --------------------------------- */

/*
 * Check the inputs (ranks, dimensions, types, strides) of @c, then run
 * its operator's infer and workspace into @p, then add what views need
 * (their reach; dense copies in the workspace for operators without
 * OPS_DEF_STRIDED). @op_ws (may be NULL) gets the operator's own
 * workspace bytes, where the copies start. Used by vops_plan() and, on a
 * decoded descriptor, by vops_run().
 */
enum vops_err ops_plan_call(const struct ops_call *c, struct vops_plan *p, uint64_t *op_ws,
			    struct vops_error *err);

/*
 * Where the dense copies of @c's views go in a workspace whose first @op_ws
 * bytes are the operator's own: *@end the workspace's end with them (0
 * when there is none), @at[i] (if not NULL) input i's copy or UINT64_MAX.
 * False on overflow.
 */
bool ops_view_copies(const struct ops_call *c, uint64_t op_ws, uint64_t *end, uint64_t *at);

/* Record a failure in @err (if not NULL) and return @code. */
enum vops_err ops_fail(struct vops_error *err, enum vops_err code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "the tensors are too large" for @def. */
enum vops_err ops_too_large(const struct ops_def *def, struct vops_error *err);



/* *r = a * b; false on 64-bit overflow. */
static inline bool ops_mul(uint64_t a, uint64_t b, uint64_t *r)
{
	if (a && b > UINT64_MAX / a)
		return false;
	*r = a * b;
	return true;
}

/* *bytes = count * size, false above VOPS_MAX_BYTES. */
static inline bool ops_bytes(uint64_t count, uint64_t size, uint64_t *bytes)
{
	return ops_mul(count, size, bytes) && *bytes <= VOPS_MAX_BYTES;
}

/* Elements of @t (1 for a scalar); false on overflow. */
bool ops_count(const struct vops_tensor *t, uint64_t *count);

/* Output 0 of @p: type, shape (copied), bytes and alignment. */
void ops_set_out(struct vops_plan *p, int32_t dtype, int ndim, const int64_t *dims, uint64_t bytes);

/*
 * Output @i of @p: type @dtype and shape @dims (copied), its bytes and
 * alignment from them. VOPS_ERR_INPUT ("too large") above VOPS_MAX_BYTES.
 */
enum vops_err ops_set_out_n(const struct ops_call *c, struct vops_plan *p, int i, int32_t dtype,
			    int ndim, const int64_t *dims, struct vops_error *err);

/* Input @i of @c needs its dense size (ops_count * element size) at the
 * alignment of its type; VOPS_ERR_INPUT when too large. (A view's reach is
 * put in its place by the planner afterwards.) */
enum vops_err ops_set_in_dense(const struct ops_call *c, struct vops_plan *p, int i,
			       struct vops_error *err);

/* An int or list-of-ints attribute, a float attribute, a string one: with
 * a default when absent (@required: absent is an error). */
enum vops_err ops_attr_int(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			   const char *name, int64_t dflt, int64_t *out, struct vops_error *err);
enum vops_err ops_attr_float(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			     const char *name, double dflt, double *out, struct vops_error *err);
/* A list of ints (an Int is a list of one) into @out (at most @max), *@cnt
 * its length; absent: *@cnt = -1 unless @required. */
enum vops_err ops_attr_ints(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			    const char *name, bool required, int64_t *out, int max, int *cnt,
			    struct vops_error *err);
/* A list of floats (a Float is a list of one); as ops_attr_ints. */
enum vops_err ops_attr_floats(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			      const char *name, bool required, double *out, int max, int *cnt,
			      struct vops_error *err);
/* A string attribute, or @dflt; the pointer is the attribute's. */
enum vops_err ops_attr_str(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			   const char *name, const char *dflt, const char **out, struct vops_error *err);
/* A data type attribute (Dtype or Int), or @dflt. */
enum vops_err ops_attr_dtype(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			     const char *name, int32_t dflt, int32_t *out, struct vops_error *err);

/* Append to a call's parameters (planning: the caller keeps within the
 * limits, OPS_MAX_IPARAMS and OPS_MAX_FPARAMS; false when it would not). */
bool ops_param_i(struct ops_call *c, int64_t v);
bool ops_param_f(struct ops_call *c, double v);

/* Normalise axis @a of rank @rank (negative from the end) into *@out;
 * false when out of range. */
bool ops_axis(int64_t a, int rank, int *out);

/*
 * Numpy broadcasting of the shapes of inputs @first .. @last of @c into
 * @dims (*@ndim: the largest rank). VOPS_ERR_INPUT with a message naming
 * the operator, the inputs and their shapes when they do not broadcast.
 */
enum vops_err ops_broadcast(const struct ops_call *c, int first, int last, int *ndim, int64_t *dims,
			    struct vops_error *err);

/* Input @i of @p needs @bytes at the alignment of its type. */
void ops_set_in(struct vops_plan *p, const struct ops_call *c, int i, uint64_t bytes);

/* A boolean attribute (Bool, or Int 0/1) of @def; @dflt if absent. */
enum vops_err ops_attr_bool(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			    const char *name, bool dflt, bool *out, struct vops_error *err);

/* Workspace of none (operators that need none). */
enum vops_err ops_ws_none(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);

/* ---- op_eltwise.c: what element-wise operators share ---------------------- */

/*
 * Output 0 of an element-wise call: inputs @first .. @last broadcast
 * (numpy), type @odt; every input's dense size; in place for an input of
 * the output's element count and element size.
 */
enum vops_err ops_ew_infer(const struct ops_call *c, struct vops_plan *p, int first, int last,
			   int32_t odt, struct vops_error *err);

/* Run inputs @first .. @last of a planned element-wise call through
 * ops_ew_run() in domain @dom. */
enum vops_run_status ops_ew_call(const struct ops_call *c, const struct vops_plan *p,
				 const struct ops_bufs *b, int first, int last, enum ops_dom dom,
				 ops_ew_f64_fn f64, ops_ew_i64_fn i64, struct ops_runner *r);

/* Block functions that copy input 0. */
void ops_copy_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n);
void ops_copy_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n);

/* true when some element of tensor @t (memory @x) is 0 (integer divisors). */
bool ops_any_zero(const struct vops_tensor *t, const void *x);

/* ---- ops_desc.c ----------------------------------------------------------- */

/* Magic and version of a descriptor (docs/ops.md). */
#define OPS_DESC_MAGIC 0x53504f76u	/* "vOPS" in memory order */
#define OPS_DESC_VERSION 1
#define OPS_DESC_HDR 16
#define OPS_DESC_REC(rank) (8u + 8u * (uint32_t)(rank))
/* Layout 1 (a view): the 8 bytes, i64 offset, i64 dims[rank], i64 strides[rank]. */
#define OPS_DESC_REC_VIEW(rank) (16u + 16u * (uint32_t)(rank))

/* Encode @c into @p->desc and @p->desc_size; false if it does not fit. */
bool ops_desc_encode(const struct ops_call *c, struct vops_plan *p);

/* A decoded descriptor: the call and the storage it points into. */
struct ops_decoded {
	struct ops_call call;
	struct vops_tensor in[VOPS_MAX_INPUTS];
	int64_t dims[VOPS_MAX_DESC / 8];	/* the dims and strides of all inputs */
};

/*
 * Decode @desc (@size bytes) into @d: the header, the input records and
 * the attribute block, every length checked, nothing trailing. False, with
 * a line in @why (@why_size bytes, may be 0), if it is not a descriptor
 * this library makes.
 */
bool ops_desc_decode(const void *desc, size_t size, struct ops_decoded *d, char *why,
		     size_t why_size);

#endif /* VNPU_LIB_OPS_INT_H */
