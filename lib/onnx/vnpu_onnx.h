/* SPDX-License-Identifier: MIT */
/*
 * vnpu_onnx.h - an ONNX reader: models (ModelProto) and tensors
 * (TensorProto, the .pb files of ONNX's backend tests) as plain C data.
 *
 * Everything a load returns is a deep copy: the protobuf messages are freed
 * before the load returns, and nothing here depends on protobuf-c's headers.
 * Strings are NUL-terminated and never NULL ("" when the file has none).
 * Tensors are dense: little-endian, row-major bytes of the element type,
 * whichever field the file used (raw_data or the typed fields).
 *
 * Failures are returned as an enum onnx_err with a message in struct
 * onnx_error (which may be NULL); nothing is printed. There is no global
 * state: every function is thread-safe.
 *
 * Not supported (ONNX_ERR_UNSUPPORTED, with a message saying what): STRING
 * tensors, external data, segmented tensors, sparse initializers, and .pb
 * files of sequences, maps or optionals (SequenceProto, OptionalProto: the
 * graph input or output they belong to says so, see onnx_value_info.kind).
 */
#ifndef VNPU_LIB_ONNX_H
#define VNPU_LIB_ONNX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ONNX's element types (TensorProto.DataType values). */
enum onnx_dtype {
	ONNX_UNDEFINED = 0,
	ONNX_FLOAT = 1,
	ONNX_UINT8 = 2,
	ONNX_INT8 = 3,
	ONNX_UINT16 = 4,
	ONNX_INT16 = 5,
	ONNX_INT32 = 6,
	ONNX_INT64 = 7,
	ONNX_STRING = 8,
	ONNX_BOOL = 9,
	ONNX_FLOAT16 = 10,
	ONNX_DOUBLE = 11,
	ONNX_UINT32 = 12,
	ONNX_UINT64 = 13,
	ONNX_COMPLEX64 = 14,
	ONNX_COMPLEX128 = 15,
	ONNX_BFLOAT16 = 16,
};

/* "FLOAT", "BFLOAT16", ...; "?" for a value that is none of them. */
const char *onnx_dtype_name(int32_t dtype);
/* Bytes of one element (2 for FLOAT16 and BFLOAT16, 1 for BOOL, 8 for
 * COMPLEX64); 0 for UNDEFINED, STRING and unknown values. */
size_t onnx_dtype_size(int32_t dtype);
/* The matching aclDataType (acl/acl_base.h: ACL_FLOAT, ACL_BF16, ...);
 * ACL_DT_UNDEFINED (-1) for UNDEFINED and unknown values. */
int32_t onnx_dtype_to_acl(int32_t dtype);

enum onnx_err {
	ONNX_OK = 0,
	ONNX_ERR_IO,			/* the file cannot be opened or read */
	ONNX_ERR_PARSE,			/* not a protobuf message of the expected type */
	ONNX_ERR_INVALID,		/* parsed, but breaks ONNX's rules */
	ONNX_ERR_UNSUPPORTED,		/* valid ONNX this reader does not take */
	ONNX_ERR_NOMEM,
};

#define ONNX_MSG_MAX 512

struct onnx_error {
	enum onnx_err code;
	char msg[ONNX_MSG_MAX];		/* says where: file, node, attribute, tensor */
};

/* ---- tensors --------------------------------------------------------------- */

struct onnx_tensor {
	char *name;
	int32_t dtype;			/* enum onnx_dtype */
	int32_t acl_dtype;		/* aclDataType */
	int32_t ndim;			/* 0 is a scalar */
	int64_t *dims;			/* ndim entries, each >= 0 (never NULL) */
	uint64_t count;			/* elements: the product of dims */
	size_t size;			/* bytes of data: count * onnx_dtype_size(dtype) */
	/*
	 * Dense little-endian row-major elements (never NULL, even when size
	 * is 0). BOOL is one byte 0 or 1, FLOAT16 and BFLOAT16 their 16-bit
	 * patterns, complex numbers (real, imaginary) pairs.
	 */
	void *data;
};

/* Read a serialized TensorProto (a test's input_K.pb, output_K.pb). On
 * failure *t is left empty (safe to release). */
enum onnx_err onnx_tensor_load(const char *path, struct onnx_tensor *t, struct onnx_error *err);
/* The same from @len bytes at @buf. */
enum onnx_err onnx_tensor_parse(const void *buf, size_t len, struct onnx_tensor *t,
				struct onnx_error *err);
/* A deep copy of @src in *dst. */
enum onnx_err onnx_tensor_copy(struct onnx_tensor *dst, const struct onnx_tensor *src,
			       struct onnx_error *err);
/* Free what *t holds and empty it; t may be NULL. */
void onnx_tensor_release(struct onnx_tensor *t);

/* ---- models ---------------------------------------------------------------- */

/* What a graph input, output or value_info is. */
enum onnx_value_kind {
	ONNX_VALUE_NONE = 0,		/* no type given */
	ONNX_VALUE_TENSOR,
	ONNX_VALUE_SEQUENCE,
	ONNX_VALUE_MAP,
	ONNX_VALUE_OPTIONAL,
	ONNX_VALUE_SPARSE_TENSOR,
};

/* One dimension of a declared shape. */
struct onnx_dim {
	int64_t value;			/* >= 0, or -1 when not a number */
	char *param;			/* symbolic name ("N"), "" when none (unknown
					 * when value is -1 too) */
};

struct onnx_value_info {
	char *name;
	enum onnx_value_kind kind;
	/* Tensors and sparse tensors only (else ONNX_UNDEFINED, -1, false). */
	int32_t dtype;			/* enum onnx_dtype */
	int32_t acl_dtype;		/* aclDataType */
	bool has_shape;			/* false: even the rank is unknown */
	int32_t ndim;
	struct onnx_dim *dims;		/* ndim entries */
	/* Sequences and optionals: what they hold (NULL when not given). */
	struct onnx_value_info *elem;
};

/* AttributeProto.AttributeType values. */
enum onnx_attr_type {
	ONNX_ATTR_UNDEFINED = 0,
	ONNX_ATTR_FLOAT = 1,
	ONNX_ATTR_INT = 2,
	ONNX_ATTR_STRING = 3,
	ONNX_ATTR_TENSOR = 4,
	ONNX_ATTR_GRAPH = 5,
	ONNX_ATTR_FLOATS = 6,
	ONNX_ATTR_INTS = 7,
	ONNX_ATTR_STRINGS = 8,
	ONNX_ATTR_TENSORS = 9,
	ONNX_ATTR_GRAPHS = 10,
	ONNX_ATTR_SPARSE_TENSOR = 11,
	ONNX_ATTR_SPARSE_TENSORS = 12,
	ONNX_ATTR_TYPE_PROTO = 13,
	ONNX_ATTR_TYPE_PROTOS = 14,
};

struct onnx_graph;

/*
 * An attribute: the field its type names holds the value, every other is 0
 * or NULL. Strings are bytes: s_len (s_lens[]) is the length, and a NUL
 * follows. SPARSE_TENSOR(S) and TYPE_PROTO(S) attributes keep their type
 * and name only (n counts their elements).
 */
struct onnx_attr {
	char *name;
	enum onnx_attr_type type;
	int64_t i;
	float f;
	char *s;
	size_t s_len;
	struct onnx_tensor *t;		/* TENSOR */
	struct onnx_graph *g;		/* GRAPH (If, Loop, Scan bodies) */
	size_t n;			/* elements of a list */
	int64_t *ints;
	float *floats;
	char **strings;
	size_t *s_lens;
	struct onnx_tensor *tensors;
	struct onnx_graph *graphs;
};

struct onnx_node {
	char *name;
	char *op_type;
	char *domain;			/* "" is the default domain (ai.onnx) */
	size_t ninputs, noutputs;
	char **inputs;			/* "" is an optional input left out */
	char **outputs;			/* "" is an optional output not wanted */
	size_t nattrs;
	struct onnx_attr *attrs;
};

struct onnx_graph {
	char *name;
	size_t ninputs, noutputs, nvalue_info, ninits, nnodes;
	/* Inputs may include initializers (IR < 4 models list them). */
	struct onnx_value_info *inputs;
	struct onnx_value_info *outputs;
	struct onnx_value_info *value_info;	/* intermediate values' types */
	struct onnx_tensor *inits;		/* initializers */
	struct onnx_node *nodes;		/* in the file's (topological) order */
};

struct onnx_opset {
	char *domain;			/* "" (or "ai.onnx") is the default domain */
	int64_t version;
};

struct onnx_model {
	int64_t ir_version;
	/* The default domain's opset version (the highest imported); 0 when
	 * the model imports none. */
	int64_t opset;
	size_t nopsets;
	struct onnx_opset *opsets;
	char *producer_name;
	size_t nfunctions;		/* model-local functions (not read) */
	struct onnx_graph graph;
};

/* Read a model file. *model is freed with onnx_model_free(). */
enum onnx_err onnx_model_load(const char *path, struct onnx_model **model,
			      struct onnx_error *err);
/* The same from @len bytes at @buf. */
enum onnx_err onnx_model_parse(const void *buf, size_t len, struct onnx_model **model,
			       struct onnx_error *err);
/* model may be NULL. */
void onnx_model_free(struct onnx_model *model);

/* Lookups: NULL when there is none. */
const struct onnx_attr *onnx_node_attr(const struct onnx_node *node, const char *name);
const struct onnx_tensor *onnx_graph_init(const struct onnx_graph *graph, const char *name);
const struct onnx_value_info *onnx_graph_input(const struct onnx_graph *graph, const char *name);
const struct onnx_value_info *onnx_graph_output(const struct onnx_graph *graph, const char *name);
/* The graph inputs an initializer does not provide, in order: the @k-th of
 * them is a backend test's input_k.pb. NULL when k is past the last. */
const struct onnx_value_info *onnx_graph_feed(const struct onnx_graph *graph, size_t k);

/*
 * Attribute getters: the attribute's value, or @def when the node has no
 * attribute of that name *and type* (onnx_node_attr() tells them apart).
 * The list getters return the array and set *n, or return NULL and set *n
 * to 0. Returned pointers live as long as the model.
 */
int64_t onnx_attr_int(const struct onnx_node *node, const char *name, int64_t def);
float onnx_attr_float(const struct onnx_node *node, const char *name, float def);
const char *onnx_attr_string(const struct onnx_node *node, const char *name, const char *def);
const struct onnx_tensor *onnx_attr_tensor(const struct onnx_node *node, const char *name);
const int64_t *onnx_attr_ints(const struct onnx_node *node, const char *name, size_t *n);
const float *onnx_attr_floats(const struct onnx_node *node, const char *name, size_t *n);
char *const *onnx_attr_strings(const struct onnx_node *node, const char *name, size_t *n);

/*
 * A Constant node's value as a tensor of its own (named after the node's
 * output): from value (a copy), value_float(s) (FLOAT, a scalar or 1-D)
 * or value_int(s) (INT64). value_string(s) and sparse_value are
 * ONNX_ERR_UNSUPPORTED; a node that is not a Constant, ONNX_ERR_INVALID.
 */
enum onnx_err onnx_node_constant(const struct onnx_node *node, struct onnx_tensor *t,
				 struct onnx_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_LIB_ONNX_H */
