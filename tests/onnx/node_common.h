/* SPDX-License-Identifier: MIT */
/*
 * node_common.h - what the two drivers of ONNX's backend node tests share:
 * node_tests.c (one node as one operator call) and model_tests.c (the whole
 * test graph converted by vnpu-atc and run with aclmdlExecute).
 *
 * The expected list (tests/onnx/expected*), the test data (input_K.pb,
 * output_K.pb), the comparison (floats: |got - want| <= 1e-7 + 1e-3 *
 * |want|, NaN where NaN is expected; integers and bool exactly) and the TAP
 * report with its counts are defined here once.
 */
#ifndef VNPU_TESTS_ONNX_NODE_COMMON_H
#define VNPU_TESTS_ONNX_NODE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vnpu_onnx.h"

#define NT_DATA_DIR "/usr/share/libonnx-testdata/data/node"
#define NT_MAX_IO 32

struct nt_result {
	char why[1024];
};

void nt_say(struct nt_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum nt_verdict {
	NT_PASS,
	NT_FAIL,
	NT_UNSUPPORTED,
};

/* Read an expected list ("TEST pass" | "TEST skip REASON"); may be called
 * more than once, a later list's line for a test replacing an earlier
 * one's. 0, or -1 with a message on stderr. */
int nt_list_load(const char *prog, const char *path);

/* Every "test_*" directory of @dir, sorted (free each and the array). -1
 * with a message on stderr when @dir cannot be read. */
int nt_test_names(const char *prog, const char *dir, char ***names, size_t *n);

/* Load "<set>/<kind>_<k>.pb" into @t; 1 when there is no such file, -1 (and
 * why in @r) when it cannot be read. */
int nt_load_pb(const char *set, const char *kind, size_t k, struct onnx_tensor *t, struct nt_result *r);

/*
 * A test set's inputs (input_K.pb, as many as there are, at most
 * NT_MAX_IO) and one expected output per graph output (output_K.pb); the
 * files store bfloat16 as uint16, the graph says which. 0, or -1 with why
 * in @r (what was loaded is released).
 */
int nt_load_set(const struct onnx_graph *g, const char *set, struct onnx_tensor *feeds, size_t *nfeeds,
		struct onnx_tensor *want, size_t *nwant, struct nt_result *r);

/*
 * Run test @name of @dir: load its model; @summary says whether it is one
 * of the driver's tests (a new string for the TAP line in *@op) or not
 * (NULL: NT_UNSUPPORTED with no reason); then @run_set on each of its
 * test_data_set_* directories until one does not pass.
 */
enum nt_verdict nt_run_test(const char *dir, const char *name, char *(*summary)(const struct onnx_model *m),
			    enum nt_verdict (*run_set)(const struct onnx_model *m, const char *set,
						       struct nt_result *r),
			    struct nt_result *r, char **op);

/* Does @got (type @dt) match @want? Says where not, in @r (@k: output index). */
bool nt_compare(const struct onnx_tensor *want, int32_t dt, const void *got, int k, struct nt_result *r);

/*
 * Report test @name (operator or graph summary @op; NULL: not one of the
 * driver's tests, only counted) with verdict @v as a TAP line against the
 * expected list. @verbose adds the reason to listed skips.
 */
void nt_report(const char *name, const char *op, enum nt_verdict v, const struct nt_result *r, bool verbose);

/*
 * The plan line, the counts (@what names the path, e.g. "on the host") and
 * listed tests that were not seen (when @all: every test was run). Returns
 * the exit status: 1 when a test listed as pass failed.
 */
int nt_summary(const char *what, size_t ntests, bool all);

/* Free the expected list. */
void nt_list_free(void);

#endif /* VNPU_TESTS_ONNX_NODE_COMMON_H */
