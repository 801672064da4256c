/* SPDX-License-Identifier: MIT */
/*
 * atc.h - vnpu-atc's converter: an ONNX model (lib/onnx) into vnpu's
 * offline model (struct om_model, lib/om/vnpu_om.h), and the parsing of
 * ATC's command-line flags into the options that drive it.
 *
 * The converter maps every ONNX node to one CANN operator call
 * (lib/onnx/map), infers every shape with lib/ops' own planner
 * (vops_plan()), folds what is constant by running it on host memory
 * (vops_run()), and drops what no graph output needs. Dynamic dimensions
 * (-1) are found by planning the graph at several input shapes ("probes"):
 * two inside the ranges plus the range ends, or every gear. docs/atc.md
 * says what is supported.
 *
 * Errors are returned with messages (one a line, every problem found, not
 * only the first); nothing is printed. No global state: every function is
 * thread-safe.
 */
#ifndef VNPU_TOOLS_ATC_H
#define VNPU_TOOLS_ATC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_om.h"
#include "vnpu_onnx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What atc_convert() and atc_options_parse() return. */
enum atc_err {
	ATC_OK = 0,
	ATC_ERR_USAGE,			/* a flag or an option value is wrong */
	ATC_ERR_UNSUPPORTED,		/* valid ONNX vnpu cannot convert */
	ATC_ERR_INVALID,		/* the model (or a given tensor) breaks ONNX's rules */
	ATC_ERR_IO,			/* a file cannot be read */
	ATC_ERR_NOMEM,
};

/* ATC's --framework values. */
enum atc_framework {
	ATC_FRAMEWORK_CAFFE = 0,
	ATC_FRAMEWORK_MINDSPORE = 1,
	ATC_FRAMEWORK_TENSORFLOW = 3,
	ATC_FRAMEWORK_ONNX = 5,
};

/* --log: how much the CLI writes to stderr. */
enum atc_log {
	ATC_LOG_NULL = 0,
	ATC_LOG_ERROR,
	ATC_LOG_WARNING,
	ATC_LOG_INFO,
	ATC_LOG_DEBUG,
};

/*
 * One input of --input_shape, "name:d0,d1,...": @dims holds -1 for a
 * dynamic dimension ("-1" or a range "lo~hi"); @range holds {lo, hi} for
 * every dimension (a static d: {d, d}; "-1": {1, -1}, hi -1 meaning no
 * bound).
 */
struct atc_input_shape {
	char *name;
	int32_t ndim;
	int64_t *dims;			/* ndim entries (NULL when 0) */
	int64_t *range;			/* 2 * ndim entries (NULL when 0) */
};

/*
 * One entry of --output_type: @node NULL for the form that casts every
 * output ("FP16"), else "node:index:TYPE" (the @index-th output of ONNX node
 * @node, or of the graph output tensor @node when no node has that name).
 */
struct atc_output_type {
	char *node;
	int32_t index;
	int32_t dtype;			/* aclDataType */
};

/* --vnpu_const_input=NAME:FILE.pb: graph input @name bound to @value. */
struct atc_const_input {
	char *name;
	struct onnx_tensor value;
};

/**
 * struct atc_options - every flag of vnpu-atc, parsed
 * @model: --model, the ONNX file (NULL when not given).
 * @framework: --framework, -1 when not given.
 * @output: --output as given (NULL when not given); atc_output_path() adds ".om".
 * @soc_version: --soc_version, stored in the model (NULL: "").
 * @input_shapes: --input_shape, @ninput_shapes entries.
 * @dynamic: which gear flag was given (--dynamic_batch_size, _image_size, _dims).
 * @ngears: gears, rows of @gear_len values in @gears.
 * @input_format: --input_format as an aclFormat, -1 when not given (ND).
 * @output_types: --output_type, @noutput_types entries.
 * @log: --log (default ATC_LOG_ERROR).
 * @help: --help or -h was given.
 * @const_inputs: --vnpu_const_input, @nconst_inputs entries.
 *
 * atc_options_release() frees what the parser allocated; a caller building
 * one by hand (the tests) may point the fields at its own storage and not
 * release it.
 */
struct atc_options {
	char *model;
	int32_t framework;
	char *output;
	char *soc_version;
	size_t ninput_shapes;
	struct atc_input_shape *input_shapes;
	enum om_dynamic dynamic;
	uint32_t ngears, gear_len;
	int64_t *gears;
	int32_t input_format;
	size_t noutput_types;
	struct atc_output_type *output_types;
	enum atc_log log;
	bool help;
	size_t nconst_inputs;
	struct atc_const_input *const_inputs;
};

/* Options with nothing given (framework and input_format -1, log ERROR). */
void atc_options_init(struct atc_options *o);

/*
 * Parse @argc/@argv (argv[0] is the program) into @o (initialized here).
 * Flags take "--flag=value" and "--flag value". Unknown flags, missing or
 * malformed values, repeated flags that cannot repeat, framework values
 * other than 5, more than one gear flag: ATC_ERR_USAGE, every problem in
 * @msg (one a line). --vnpu_const_input files are read here (ATC_ERR_IO,
 * ATC_ERR_INVALID). Required flags are not checked (see atc_options_check()).
 * On failure @o is released, but for @o->log (--log, if it was given and
 * valid), which says how loud the failure may be.
 */
enum atc_err atc_options_parse(int argc, char *const argv[], struct atc_options *o, char *msg,
			       size_t msg_size);

/* What the CLI needs before converting: --model, --framework=5, --output. */
enum atc_err atc_options_check(const struct atc_options *o, char *msg, size_t msg_size);

/* Free what the parser allocated in @o and re-initialize it. */
void atc_options_release(struct atc_options *o);

/*
 * The single-flag parsers atc_options_parse() uses, into @o (appending to
 * what is there): --input_shape "name:1,3,224,224;name2:-1,4~8", the gear
 * flags (@dynamic says which: "1,2,4", "224,224;448,448", "1,224;2,448"),
 * --output_type ("FP16" or "node:0:FP16;node2:1:INT8"), --input_format
 * ("NCHW", "NHWC", "ND", "NCDHW", "NDHWC").
 */
enum atc_err atc_parse_input_shape(const char *s, struct atc_options *o, char *msg, size_t msg_size);
enum atc_err atc_parse_gears(const char *s, enum om_dynamic dynamic, struct atc_options *o, char *msg,
			     size_t msg_size);
enum atc_err atc_parse_output_type(const char *s, struct atc_options *o, char *msg, size_t msg_size);
enum atc_err atc_parse_input_format(const char *s, int32_t *format, char *msg, size_t msg_size);

/* The aclDataType of ATC's type name ("FP32", "FP16", "INT8", ...), or -1. */
int32_t atc_type_from_name(const char *name);

/* --output with ".om" added unless it ends so (a new string; free() it), or NULL. */
char *atc_output_path(const char *output);

/*
 * Convert @onnx under the options @o (only the conversion's fields are
 * read: input_shapes, gears, input_format, output_types, soc_version,
 * output for the model's name, const_inputs) into a new *@out
 * (om_model_free() it). On failure *@out is NULL and @msg holds every
 * error found, one a line: every ONNX operator without a CANN mapping
 * ("node 'conv7' (LSTM): no CANN operator for ONNX LSTM"), or the first
 * node that cannot be mapped or planned, with lib/ops' message and, for a
 * dynamic model, the input shapes it was planned at.
 */
enum atc_err atc_convert(const struct onnx_model *onnx, const struct atc_options *o, struct om_model **out,
			 char *msg, size_t msg_size);

/* "FP32", "INT64", ...: ATC's name of aclDataType @dtype, or "?". */
const char *atc_type_name(int32_t dtype);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_TOOLS_ATC_H */
