/* SPDX-License-Identifier: MIT */
/*
 * onnx_map.h - an ONNX node as one CANN operator call.
 *
 * The ONNX node tests (tests/onnx) and, later, the model converter turn
 * every ONNX node into the CANN operator that computes it: its CANN type
 * name, which of the node's inputs become the operator's input tensors
 * (shape-defining inputs such as Reshape's shape or Slice's starts become
 * attributes of CANN's "D" forms instead, read from their values), which
 * outputs it produces, and its CANN attributes (struct vops_attr, what
 * aclopSetAttr* would hold). One mapping function per ONNX operator,
 * listed by family in map_*.c; onnx_map_node() finds and runs it.
 *
 * The mapping decides no rule of the operator itself: shapes and types are
 * lib/ops' to check (vops_plan()); a mapping only refuses what CANN's form
 * cannot express (ONNX_ERR_UNSUPPORTED, with the reason).
 */
#ifndef VNPU_LIB_ONNX_MAP_H
#define VNPU_LIB_ONNX_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_ops.h"
#include "vnpu_onnx.h"

/* One input of the node as the mapping sees it. */
struct onnx_map_input {
	bool present;			/* false: an optional input left out ("") */
	int32_t acl_dtype;		/* aclDataType */
	int32_t ndim;
	const int64_t *dims;
	const struct onnx_tensor *value;	/* its value when known (constant), or NULL */
};

#define ONNX_CALL_MAX_ATTRS 32
#define ONNX_CALL_MAX_MADE 4
#define ONNX_CALL_IPOOL 2048
#define ONNX_CALL_FPOOL 512
#define ONNX_CALL_SPOOL 1024

/* ONNX_CALL_MADE + k in onnx_call.in: the tensor call->made[k]. */
#define ONNX_CALL_MADE 1000

/**
 * struct onnx_call - one CANN operator call
 * @type: the CANN operator type (a string constant).
 * @nin: its input tensors; @in[k]: the node input index of input k, or
 *	ONNX_CALL_MADE + j for @made[j], a tensor the mapping made.
 * @nout: its outputs; @out[k]: the node output index output k produces.
 * @made: tensors the mapping made (owned; onnx_call_release() frees them).
 * @attrs: the CANN attributes (their names and values point into the
 *	pools below or at string constants).
 */
struct onnx_call {
	const char *type;
	int nin, nout;
	int in[VOPS_MAX_INPUTS];
	int out[VOPS_MAX_OUTPUTS];
	int nmade;
	struct onnx_tensor made[ONNX_CALL_MAX_MADE];
	unsigned int nattrs;
	struct vops_attr attrs[ONNX_CALL_MAX_ATTRS];
	/* private: value storage */
	int ni, nf, ns;
	int64_t ipool[ONNX_CALL_IPOOL];
	float fpool[ONNX_CALL_FPOOL];
	char spool[ONNX_CALL_SPOOL];
};

/* What a mapping function works on. */
struct onnx_map {
	const struct onnx_node *node;
	int64_t opset;			/* the model's default-domain opset */
	size_t nin;			/* node inputs (node->ninputs) */
	const struct onnx_map_input *in;
	struct onnx_call *call;
	struct onnx_error *err;
};

typedef enum onnx_err (*onnx_map_fn)(struct onnx_map *m);

struct onnx_map_entry {
	const char *onnx;		/* ONNX op_type (default domain) */
	onnx_map_fn map;
	/* The CANN types @map may choose, space-separated (the README's table;
	 * onnx_map_node() refuses a call of any other type). */
	const char *cann;
};

/*
 * Map @node (of a model with default-domain opset @opset) whose inputs are
 * @in (@nin = node->ninputs of them) into @call. ONNX_ERR_UNSUPPORTED (and
 * why, in @err) for an operator without a mapping or a form CANN's
 * operator cannot express. On success release @call with
 * onnx_call_release().
 */
enum onnx_err onnx_map_node(const struct onnx_node *node, int64_t opset, const struct onnx_map_input *in,
			    size_t nin, struct onnx_call *call, struct onnx_error *err);
void onnx_call_release(struct onnx_call *call);

/* The mapping of ONNX op_type @onnx, or NULL. */
const struct onnx_map_entry *onnx_map_find(const char *onnx);
/* Every mapping in turn: onnx_map_first(), then onnx_map_next() until NULL. */
const struct onnx_map_entry *onnx_map_first(void);
const struct onnx_map_entry *onnx_map_next(const struct onnx_map_entry *e);
/* true when @e lists CANN type @cann. */
bool onnx_map_lists(const struct onnx_map_entry *e, const char *cann);

/* ---- for mapping functions (map_*.c) --------------------------------------- */

/* Fail with @code and a message naming the node's operator. */
enum onnx_err onnx_map_fail(struct onnx_map *m, enum onnx_err code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The node's inputs [first, last] (those present) as the call's next input
 * tensors, and outputs [first, last]. -1 as last: to the end. */
enum onnx_err onnx_map_inputs(struct onnx_map *m, int first, int last);
enum onnx_err onnx_map_outputs(struct onnx_map *m, int first, int last);
/* Every present input and every output, in order, as type @type. */
enum onnx_err onnx_map_simple(struct onnx_map *m, const char *type);

/* true when node input @i is present. */
bool onnx_map_has(const struct onnx_map *m, size_t i);

/* The value of node input @i as int64s (any integer type) into @v (at most
 * @max), *@n their count; UNSUPPORTED when the value is not known. */
enum onnx_err onnx_map_ints(struct onnx_map *m, size_t i, int64_t *v, int max, int *n);
/* The value of node input @i as doubles (any numeric type). */
enum onnx_err onnx_map_floats(struct onnx_map *m, size_t i, double *v, int max, int *n);

/* Add a CANN attribute to the call. */
enum onnx_err onnx_map_attr_int(struct onnx_map *m, const char *name, int64_t v);
enum onnx_err onnx_map_attr_bool(struct onnx_map *m, const char *name, bool v);
enum onnx_err onnx_map_attr_float(struct onnx_map *m, const char *name, float v);
enum onnx_err onnx_map_attr_str(struct onnx_map *m, const char *name, const char *v);
enum onnx_err onnx_map_attr_dtype(struct onnx_map *m, const char *name, int32_t acl_dtype);
enum onnx_err onnx_map_attr_ints(struct onnx_map *m, const char *name, const int64_t *v, int n);
enum onnx_err onnx_map_attr_floats(struct onnx_map *m, const char *name, const float *v, int n);

/*
 * Copy the node's ONNX attribute @onnx_name (if present) as CANN attribute
 * @cann_name: INT, FLOAT, STRING, INTS, FLOATS keep their kind.
 */
enum onnx_err onnx_map_copy_attr(struct onnx_map *m, const char *onnx_name, const char *cann_name);

/* The families' lists (NULL-terminated), onnx_map.c looks in each. */
extern const struct onnx_map_entry onnx_map_unary[];
extern const struct onnx_map_entry onnx_map_binary[];
extern const struct onnx_map_entry onnx_map_reduce[];
extern const struct onnx_map_entry onnx_map_norm[];
extern const struct onnx_map_entry onnx_map_nn[];
extern const struct onnx_map_entry onnx_map_move[];
extern const struct onnx_map_entry onnx_map_index[];

#endif /* VNPU_LIB_ONNX_MAP_H */
