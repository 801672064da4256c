/* SPDX-License-Identifier: MIT */
/*
 * om_int.h - what lib/om's files share: the error helper, the type and
 * format tables, and the ModelDef conversion between om_file.c (the
 * container) and om_modeldef.c (the protobuf). Only om_modeldef.c sees
 * protobuf-c's generated types.
 */
#ifndef VNPU_LIB_OM_INT_H
#define VNPU_LIB_OM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vnpu_om.h"

/*
 * Most gears a model may have: CANN's ACL_MAX_BATCH_NUM, ACL_MAX_HW_NUM
 * and ACL_MAX_SHAPE_COUNT are all 128 (acl_mdl.h), the size of the arrays
 * aclmdlGetDynamicBatch() and friends fill.
 */
#define OM_MAX_GEARS 128

/* The op types the ModelDef uses for what is not a node (docs/om.md). */
#define OM_OP_DATA "Data"
#define OM_OP_CONST "Const"
#define OM_OP_NETOUTPUT "NetOutput"

/* Set err's code and message (printf-style) when err is not NULL; returns code. */
enum om_err om_fail(struct om_error *err, enum om_err code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear err (code OM_OK, empty message) when it is not NULL. */
void om_clear(struct om_error *err);

/*
 * aclDataType @dtype as ge_ir.proto's DataType (its numbering differs:
 * DT_FLOAT16 is 2, ACL_FLOAT16 1), or -1 for a value that is not an
 * aclDataType vnpu can name in a file.
 */
int32_t om_dtype_to_proto(int32_t dtype);
/* The reverse: proto DataType @pdt as an aclDataType, or ACL_DT_UNDEFINED (-1). */
int32_t om_dtype_from_proto(int32_t pdt);

/* aclFormat @format as GE's layout string ("ND", "NCHW", ...), or NULL. */
const char *om_format_name(int32_t format);
/* The reverse, or ACL_FORMAT_UNDEFINED (-1) for a string no aclFormat has. */
int32_t om_format_from_name(const char *name);

/* "Data", "Const" and "NetOutput": types a node may not have. */
bool om_reserved_type(const char *type);

/*
 * Serialize @m (already checked) as a ge.proto.ModelDef into a new
 * buffer (*buf, *len; free() it).
 */
enum om_err om_modeldef_pack(const struct om_model *m, uint8_t **buf, size_t *len,
			     struct om_error *err);

/*
 * Parse the ModelDef in the @len bytes at @buf into @m (zeroed by the
 * caller; the weights and dynamic_shape are the container's and are left
 * alone). @weights_size is the WEIGHTS_DATA partition's size, which the
 * ModelDef's "weight_size" must match. On failure @m holds whatever was
 * filled, for om_model_free()'s parts. Does not run om_model_check().
 */
enum om_err om_modeldef_unpack(const uint8_t *buf, size_t len, uint64_t weights_size,
			       struct om_model *m, struct om_error *err);

#endif /* VNPU_LIB_OM_INT_H */
