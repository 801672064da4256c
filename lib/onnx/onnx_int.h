/* SPDX-License-Identifier: MIT */
/*
 * onnx_int.h - what the reader's files share: error helpers, file reading,
 * the TensorProto conversion. The only place that sees protobuf-c's
 * generated types besides the .c files.
 */
#ifndef VNPU_LIB_ONNX_INT_H
#define VNPU_LIB_ONNX_INT_H

#include <stdint.h>

#include "onnx.pb-c.h"
#include "vnpu_onnx.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "lib/onnx copies little-endian tensor data as is: a little-endian host only"
#endif

/* Files larger than this are refused (protobuf's own limit is 2 GiB). */
#define ONNX_MAX_FILE ((size_t)1 << 31)
/* Subgraphs (If, Loop, Scan bodies) nested deeper than this are refused. */
#define ONNX_MAX_DEPTH 32

/* Set err's code and message (printf-style); returns code. */
enum onnx_err onnx_fail(struct onnx_error *err, enum onnx_err code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix err's message with the formatted context and ": "; returns
 * err->code. */
enum onnx_err onnx_wrap(struct onnx_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum onnx_err onnx_nomem(struct onnx_error *err);

/* A malloc'd copy of s, "" for NULL; NULL only when out of memory. */
char *onnx_strdup(const char *s);
/* Read a whole file into a malloc'd buffer (never NULL on success). */
enum onnx_err onnx_read_file(const char *path, uint8_t **buf, size_t *len,
			     struct onnx_error *err);
/* Convert a TensorProto; on failure *t is empty. */
enum onnx_err onnx_tensor_from_proto(const Onnx__TensorProto *p, struct onnx_tensor *t,
				     struct onnx_error *err);
/* An empty tensor of a type and shape: data zeroed, name copied. */
enum onnx_err onnx_tensor_make(struct onnx_tensor *t, const char *name, int32_t dtype,
			       int32_t ndim, const int64_t *dims, struct onnx_error *err);

#endif /* VNPU_LIB_ONNX_INT_H */
