/* SPDX-License-Identifier: MIT */
/*
 * nnt.h - helpers of the aclnn suites (tests/aclnn/test_*.c): tensors with
 * a host copy of their storage, views of them (transposed, sliced,
 * broadcast, aliased), launches, and the reference: the same lib/ops
 * operator run on the host over dense copies of the views.
 *
 * Built on tests/acl/lib/acl_test.h (fixtures, ACL_OK / ACL_ERR): use
 * acl_tcase(name, true, seconds), which gives every test aclInit and
 * device 0; nnt_stream() is a stream created on first use.
 */
#ifndef VNPU_NNT_H
#define VNPU_NNT_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl_test.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "vnpu_ops.h"

#define NNT_MAX_RANK 8

/* A tensor of the test: an aclTensor over device storage, with the host
 * copy of that storage (nnt_sync_host() refreshes it). */
struct nnt {
	aclTensor *t;
	aclDataType dtype;
	int ndim;
	int64_t dims[NNT_MAX_RANK];
	int64_t strides[NNT_MAX_RANK];
	int64_t offset;
	uint64_t storage_elems;
	void *dev;			/* device storage (shared by views) */
	void *host;			/* host copy of the storage (shared by views) */
	struct nnt *base;		/* the tensor owning the storage, or NULL */
};

aclrtStream nnt_stream(void);

/* A dense tensor of deterministic values in [lo, hi] (integers: whole
 * numbers; bool: 0/1) from @seed, uploaded. */
struct nnt *nnt_new(aclDataType dt, int ndim, const int64_t *dims, double lo, double hi, unsigned int seed);
/* The same shape, its storage laid out transposed (the last two
 * dimensions swapped; rank >= 2): a non-contiguous view. */
struct nnt *nnt_new_transposed(aclDataType dt, int ndim, const int64_t *dims, double lo, double hi,
			       unsigned int seed);
/* A dense tensor of zeros. */
struct nnt *nnt_zeros(aclDataType dt, int ndim, const int64_t *dims);
/* A view of @base's storage (aliasing it): @ndim dims, @strides (elements;
 * 0 broadcasts), from element @offset. */
struct nnt *nnt_view(struct nnt *base, int ndim, const int64_t *dims, const int64_t *strides, int64_t offset);
/* Host values from a double array (dense, @dims' count of them), uploaded. */
struct nnt *nnt_from(aclDataType dt, int ndim, const int64_t *dims, const double *values);
void nnt_free(struct nnt *t);		/* views before their base */

/* Copy the whole device storage to the host copy (after a launch). */
void nnt_sync_host(struct nnt *t);
/* The view's elements, dense row-major, as doubles (malloc'd). Reads the
 * host copy: call nnt_sync_host() first for outputs. */
double *nnt_values(const struct nnt *t);
/* Element count of the view. */
uint64_t nnt_count(const struct nnt *t);

/* A host scalar of type @dt holding @v. */
aclScalar *nnt_scalar(aclDataType dt, double v);

/*
 * Launch an executor: allocate @ws bytes of device workspace (none for 0),
 * call @launch on nnt_stream(), synchronize, free. Returns the launch's
 * status (or the synchronize's ACL code).
 */
typedef aclnnStatus (*nnt_launch_fn)(void *ws, uint64_t ws_size, aclOpExecutor *e, aclrtStream s);
aclnnStatus nnt_launch(uint64_t ws, aclOpExecutor *e, nnt_launch_fn launch);

/* GetWorkspaceSize then launch, asserting both succeed:
 * NNT_RUN(aclnnAdd, self->t, other->t, alpha, out->t); */
#define NNT_RUN(api, ...)                                                                          \
	do {                                                                                       \
		uint64_t ws_ = 0;                                                                  \
		aclOpExecutor *ex_ = NULL;                                                         \
		aclnnStatus r_ = api##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_);                   \
		ck_assert_msg(r_ == 0, #api "GetWorkspaceSize = %d (%s)", r_, acl_test_msg());     \
		r_ = nnt_launch(ws_, ex_, api);                                                    \
		ck_assert_msg(r_ == 0, #api " = %d (%s)", r_, acl_test_msg());                     \
	} while (0)

/* GetWorkspaceSize fails with exactly @code and a message. */
#define NNT_FAILS(code, api, ...)                                                                  \
	do {                                                                                       \
		uint64_t ws_ = 0;                                                                  \
		aclOpExecutor *ex_ = NULL;                                                         \
		aclnnStatus r_ = api##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_);                   \
		const char *m_ = aclGetRecentErrMsg();                                             \
		ck_assert_msg(r_ == (code), #api "GetWorkspaceSize = %d, expected %d (%s)", r_,    \
			      (int)(code), m_ ? m_ : "no message");                                \
		ck_assert_msg(m_ && *m_, #api "GetWorkspaceSize failed without a message");        \
	} while (0)

/*
 * The reference: lib/ops' @type run on the host over dense copies of the
 * inputs' views (converted to @in_dt, ACL_DT_UNDEFINED: their own type),
 * with @attrs, planned for outputs 0 .. @which. Returns output @which as
 * doubles (malloc'd, the plan's element count in *@count). Asserts the
 * plan and the run succeed.
 */
double *nnt_ref(const char *type, int nin, struct nnt *const *in, aclDataType in_dt,
		const struct vops_attr *attrs, unsigned int nattrs, int which, uint64_t *count);
/* The same over dense double inputs given directly (@in_dims[i] of rank
 * @in_ndim[i], type @in_dt[i]). */
double *nnt_ref_values(const char *type, int nin, const double *const *in, const aclDataType *in_dt,
		       const int *in_ndim, const int64_t *const *in_dims, const struct vops_attr *attrs,
		       unsigned int nattrs, int which, uint64_t *count);

/* The output view (synced from the device here) equals @expect (@count
 * values, converted to the output's type first: exact for integers and
 * bool, within @rtol/@atol for floats). */
void nnt_expect(struct nnt *out, const double *expect, uint64_t count, double rtol, double atol);
/* Elements of @t's storage outside its view kept the values @before
 * (a host snapshot of the storage taken before the launch). */
void nnt_expect_untouched(struct nnt *t, const void *before);
/* A snapshot of the host copy of @t's storage (malloc'd). */
void *nnt_snapshot(const struct nnt *t);

/* Default tolerances of a type: 0 for integers, ~1e-5 fp32, 1e-2 fp16/bf16. */
double nnt_rtol(aclDataType dt);
double nnt_atol(aclDataType dt);

#endif /* VNPU_NNT_H */
