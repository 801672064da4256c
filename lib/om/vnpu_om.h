/* SPDX-License-Identifier: MIT */
/*
 * vnpu_om.h - vnpu's offline model: the graph a .om file holds, as plain C
 * data, and the .om container that carries it.
 *
 * A .om file is CANN's container: the 256-byte ModelFileHeader (magic
 * 0x444F4D49 "IMOD", is_unknow_model 1 when a dimension is decided at
 * execution), a partition table, and the partitions back to back:
 * MODEL_DEF, a ge.proto.ModelDef protobuf written with ge_ir.proto's field
 * numbers (lib/om/ge_ir.proto), and WEIGHTS_DATA, the constants' bytes.
 * docs/om.md describes what vnpu writes in the ModelDef. A file that is a
 * .om but not vnpu's (ATC's output, with task info and Ascend kernels) is
 * refused with OM_ERR_FOREIGN.
 *
 * The graph is CANN-level: every node is one CANN operator call (its type
 * name, inputs, outputs and attributes as aclopSetAttr* would hold them),
 * what lib/ops plans (vops_plan()); vnpu-atc (tools/atc) makes it from an
 * ONNX model, libascendcl's aclmdl* runs it.
 *
 * Failures are returned as an enum om_err with a message in struct
 * om_error (which may be NULL); nothing is printed. No global state.
 */
#ifndef VNPU_LIB_OM_H
#define VNPU_LIB_OM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ModelFileHeader facts (CANN's framework_types_internal.h). */
#define OM_MAGIC 0x444F4D49u
#define OM_HEADER_SIZE 256u
#define OM_VERSION 0x10000000u

/* ModelPartitionType values used here. */
#define OM_PART_MODEL_DEF 0u
#define OM_PART_WEIGHTS_DATA 1u
#define OM_PART_TASK_INFO 2u
#define OM_PART_TBE_KERNELS 3u

/* Version of what vnpu writes in the ModelDef (its attribute "vnpu_om_version"). */
#define OM_VNPU_VERSION 1

/* CANN's name of the extra input that carries the gear (ACL_DYNAMIC_TENSOR_NAME). */
#define OM_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"

enum om_err {
	OM_OK = 0,
	OM_ERR_IO,			/* the file cannot be opened, read or written */
	OM_ERR_FORMAT,			/* not a .om, or truncated or corrupt */
	OM_ERR_FOREIGN,			/* a .om vnpu cannot run (not vnpu's) */
	OM_ERR_INVALID,			/* a well-formed file whose graph breaks the rules below */
	OM_ERR_NOMEM,
};

#define OM_MSG_MAX 512

struct om_error {
	enum om_err code;
	char msg[OM_MSG_MAX];		/* says where: partition, node, value */
};

/* What a value of the graph is. */
enum om_value_kind {
	OM_VALUE_INPUT = 0,		/* a graph input, given at execution */
	OM_VALUE_CONST,			/* bytes in the weights */
	OM_VALUE_NODE,			/* an output of a node */
};

/*
 * One tensor of the graph. @dims holds -1 for a dimension decided at
 * execution; a graph input may say in @range which values it takes.
 */
struct om_value {
	char *name;			/* unique in the graph, never NULL */
	enum om_value_kind kind;
	int32_t dtype;			/* aclDataType */
	int32_t format;			/* aclFormat (ACL_FORMAT_ND unless the input says) */
	int32_t ndim;			/* 0 .. VOPS_MAX_RANK; 0 is a scalar */
	int64_t *dims;			/* ndim entries, each >= 0 or -1 */
	/*
	 * Graph inputs with a -1 dimension: 2 * ndim entries, {min, max} of
	 * each dimension (max -1: no bound; a static dimension d has {d, d}).
	 * NULL otherwise.
	 */
	int64_t *range;
	uint32_t node, port;		/* OM_VALUE_NODE: producing node and its output index */
	uint64_t weight_offset;		/* OM_VALUE_CONST: where its bytes are in the weights */
	uint64_t weight_size;		/* OM_VALUE_CONST: their count (elements * dtype size) */
};

/* One CANN operator call. */
struct om_node {
	char *name;			/* the ONNX node's name (or one made up), never NULL */
	char *type;			/* the CANN operator type */
	uint32_t nin, nout;		/* <= VOPS_MAX_INPUTS, <= VOPS_MAX_OUTPUTS */
	uint32_t *in;			/* value indices of its inputs, in call order */
	uint32_t *out;			/* value indices of its outputs (each an OM_VALUE_NODE of it) */
	unsigned int nattrs;
	struct vops_attr *attrs;	/* owned deep copies (names, strings, lists) */
};

/* How a model's inputs change between executions (CANN's DynamicInputType). */
enum om_dynamic {
	OM_DYNAMIC_NONE = 0,		/* static, or dynamic shapes with ranges */
	OM_DYNAMIC_BATCH = 1,		/* --dynamic_batch_size: gears of one value */
	OM_DYNAMIC_HW = 2,		/* --dynamic_image_size: gears of {h, w} */
	OM_DYNAMIC_DIMS = 3,		/* --dynamic_dims: gears of every -1 dimension */
};

struct om_model {
	char *name;			/* never NULL */
	char *soc_version;		/* as given to vnpu-atc, "" when none */
	uint32_t nvalues, nnodes, ninputs, noutputs;
	struct om_value *values;
	struct om_node *nodes;		/* in execution order: a node's inputs come before it */
	/*
	 * Value indices of the graph inputs (each OM_VALUE_INPUT) in CANN's
	 * input order; with gears the last one is OM_DYNAMIC_TENSOR_NAME
	 * (ACL_INT64, dims {gear_len}), which no node reads.
	 */
	uint32_t *inputs;
	uint32_t *outputs;		/* value indices of the graph outputs, any kind */
	void *weights;			/* the constants' bytes (NULL when weights_size is 0) */
	uint64_t weights_size;
	enum om_dynamic dynamic;
	uint32_t ngears, gear_len;	/* gears: ngears rows of gear_len values */
	int64_t *gears;			/* ngears * gear_len */
	bool dynamic_shape;		/* a dimension is decided at execution (is_unknow_model) */
};

/*
 * Check @m against the rules above (value kinds and indices, execution
 * order, a node's outputs being its own, dimension and range values, the
 * constants inside the weights, the gears). OM_ERR_INVALID with the first
 * breach. om_write() and om_read() call it.
 */
enum om_err om_model_check(const struct om_model *m, struct om_error *err);

/* Serialize @m into a new buffer (*buf, *len; free() it). */
enum om_err om_write(const struct om_model *m, void **buf, size_t *len, struct om_error *err);
/* The same into the file @path (created or truncated). */
enum om_err om_write_file(const struct om_model *m, const char *path, struct om_error *err);

/*
 * Parse the @len bytes at @buf into a new model (*m; om_model_free() it).
 * OM_ERR_FORMAT for a file that is not a .om or is truncated or corrupt
 * (header, partition table, a partition out of bounds, a ModelDef that is
 * not one), OM_ERR_FOREIGN for a .om that is not vnpu's, OM_ERR_INVALID
 * for a graph that om_model_check() refuses.
 */
enum om_err om_read(const void *buf, size_t len, struct om_model **m, struct om_error *err);
/* The whole file @path into a new buffer (*buf, *len; free() it). */
enum om_err om_load_file(const char *path, void **buf, size_t *len, struct om_error *err);

/* Free a model of om_read() (or one built by hand with malloc'ed parts); m may be NULL. */
void om_model_free(struct om_model *m);

/* Bytes of value @v's tensor when every dimension is known, else 0. */
uint64_t om_value_bytes(const struct om_value *v);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_LIB_OM_H */
