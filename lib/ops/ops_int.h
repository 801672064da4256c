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
};

/* How an operator's canonical attributes are laid out in a descriptor. */
enum ops_attr_fmt {
	OPS_AF_NONE = 0,	/* no attribute block */
	OPS_AF_CAST,		/* u32 dst (aclDataType), u32 0 */
	OPS_AF_AXES,		/* u32 flags, u32 0, u64 axes[(rank + 63) / 64] */
	OPS_AF_MATMUL,		/* u32 flags, u32 0 */
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
#define OPS_DT_FLOATS (OPS_DT_F32 | OPS_DT_F16 | OPS_DT_BF16)
#define OPS_DT_ALL (OPS_DT_FLOATS | OPS_DT_I32)

#define OPS_AXES_WORDS ((VOPS_MAX_RANK + 63) / 64)

struct ops_def;

/* One call: the inputs and the canonical attributes. */
struct ops_call {
	const struct ops_def *def;
	int nin;
	const struct vops_tensor *in;	/* nin of them */
	union {
		int32_t dst;		/* OPS_AF_CAST: the output type */
		struct {
			uint32_t flags;	/* OPS_AXES_* */
			uint64_t mask[OPS_AXES_WORDS];	/* bit i: axis i */
		} axes;			/* OPS_AF_AXES */
		uint32_t mm_flags;	/* OPS_AF_MATMUL: OPS_MM_* */
	} at;
};

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
 * @nin: inputs.
 * @nout: outputs.
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
	uint32_t dtypes;
	const char *const *attrs;
	enum vops_err (*parse)(struct ops_call *c, const struct vops_attr *attrs, unsigned int nattrs,
			       struct vops_error *err);
	enum vops_err (*infer)(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);
	enum vops_err (*workspace)(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);
	enum vops_run_status (*run)(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r);
};

/* ---- ops_table.c ---------------------------------------------------------- */

const struct ops_def *ops_def_by_name(const char *name);
const struct ops_def *ops_def_by_id(unsigned int id);

/* The definitions (op_eltwise.c, op_reduce.c, op_matmul.c). */
extern const struct ops_def ops_def_add, ops_def_sub, ops_def_mul, ops_def_realdiv;
extern const struct ops_def ops_def_relu, ops_def_abs, ops_def_cast;
extern const struct ops_def ops_def_reduce_sum, ops_def_reduce_max, ops_def_softmax;
extern const struct ops_def ops_def_matmul;

/* ---- ops_plan.c: shared rules and helpers --------------------------------- */

/*
 * Check the inputs (ranks, dimensions, types) of @c, then run its
 * operator's infer and workspace into @p. Used by vops_plan() and, on a
 * decoded descriptor, by vops_run().
 */
enum vops_err ops_plan_call(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);

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

/* Input @i of @p needs @bytes at the alignment of its type. */
void ops_set_in(struct vops_plan *p, const struct ops_call *c, int i, uint64_t bytes);

/* A boolean attribute (Bool, or Int 0/1) of @def; @dflt if absent. */
enum vops_err ops_attr_bool(const struct ops_def *def, const struct vops_attr *attrs, unsigned int n,
			    const char *name, bool dflt, bool *out, struct vops_error *err);

/* Workspace of none (operators that need none). */
enum vops_err ops_ws_none(const struct ops_call *c, struct vops_plan *p, struct vops_error *err);

/* ---- ops_desc.c ----------------------------------------------------------- */

/* Magic and version of a descriptor (docs/ops.md). */
#define OPS_DESC_MAGIC 0x53504f76u	/* "vOPS" in memory order */
#define OPS_DESC_VERSION 1
#define OPS_DESC_HDR 16
#define OPS_DESC_REC(rank) (8u + 8u * (uint32_t)(rank))

/* Encode @c into @p->desc and @p->desc_size; false if it does not fit. */
bool ops_desc_encode(const struct ops_call *c, struct vops_plan *p);

/* A decoded descriptor: the call and the storage it points into. */
struct ops_decoded {
	struct ops_call call;
	struct vops_tensor in[VOPS_MAX_INPUTS];
	int64_t dims[VOPS_MAX_DESC / 8];
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
