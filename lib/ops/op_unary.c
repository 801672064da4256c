// SPDX-License-Identifier: MIT
/*
 * op_unary.c - one-input math and activations (the unary family).
 *
 * Every operator here is element-wise over one input of any shape and
 * view; the output has the input's shape and type (IsNaN, IsInf: bool).
 * Floats compute in double and round once to the output type; integers in
 * int64. Parameters (an activation's alpha, ...) are OPS_AF_PARAMS floats.
 */
#include <math.h>

#include "ops_int.h"

static const char *const no_attrs[] = { NULL };

static enum vops_err same_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	return ops_ew_infer(c, p, 0, 0, c->in[0].dtype, err);
}

/* ---- Neg ------------------------------------------------------------------- */

static void neg_f(const struct ops_call *c, double *restrict o, const double *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = -x[0][j];
}

static void neg_i(const struct ops_call *c, int64_t *restrict o, const int64_t *const *restrict x, size_t n)
{
	size_t j;

	(void)c;
	for (j = 0; j < n; j++)
		o[j] = (int64_t)(0 - (uint64_t)x[0][j]);
}

static enum vops_run_status neg_run(const struct ops_call *c, const struct vops_plan *p,
				    const struct ops_bufs *b, struct ops_runner *r)
{
	return ops_ew_call(c, p, b, 0, 0, ops_dt_dom(c->in[0].dtype), neg_f, neg_i, r);
}

static const struct ops_def def_neg = {
	.name = "Neg", .id = OPS_ID_UNARY + 0, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_NONE,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_REAL | OPS_DT_SINT, .attrs = no_attrs,
	.infer = same_infer, .workspace = ops_ws_none, .run = neg_run,
};

/* ---- LeakyRelu: an example with a parameter ------------------------------------- */

static const char *const leaky_attrs[] = { "negative_slope", NULL };

/* CANN's default slope is 0 (ONNX's 0.01). */
static enum vops_err leaky_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				 struct vops_error *err)
{
	double slope;
	enum vops_err ret = ops_attr_float(c->def, attrs, n, "negative_slope", 0.0, &slope, err);

	if (!ret)
		ops_param_f(c, slope);
	return ret;
}

/* The rules check the parameters a descriptor brings: exactly one float. */
static enum vops_err leaky_infer(const struct ops_call *c, struct vops_plan *p, struct vops_error *err)
{
	if (c->at.pr.ni != 0 || c->at.pr.nf != 1)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: %u int and %u float parameters (0 and 1)",
				c->def->name, c->at.pr.ni, c->at.pr.nf);
	return same_infer(c, p, err);
}

static void leaky_f(const struct ops_call *c, double *restrict o, const double *const *restrict x,
		    size_t n)
{
	double a = c->at.pr.f[0];
	size_t j;

	for (j = 0; j < n; j++)
		o[j] = x[0][j] < 0 ? a * x[0][j] : x[0][j];
}

static enum vops_run_status leaky_run(const struct ops_call *c, const struct vops_plan *p,
				      const struct ops_bufs *b, struct ops_runner *r)
{
	return ops_ew_call(c, p, b, 0, 0, OPS_DOM_F64, leaky_f, NULL, r);
}

static const struct ops_def def_leaky_relu = {
	.name = "LeakyRelu", .id = OPS_ID_UNARY + 1, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.flags = OPS_DEF_STRIDED, .dtypes = OPS_DT_REAL, .attrs = leaky_attrs, .parse = leaky_parse,
	.infer = leaky_infer, .workspace = ops_ws_none, .run = leaky_run,
};

/* Index i holds id OPS_ID_UNARY + i; append only. */
const struct ops_def *const ops_unary_defs[] = {
	&def_neg,
	&def_leaky_relu,
	NULL,
};
