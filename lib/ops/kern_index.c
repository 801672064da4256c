// SPDX-License-Identifier: MIT
/*
 * kern_index.c - ResizeD of the index family (op_index.c lists it): ONNX's
 * Resize in CANN's attribute form, every dimension resized.
 *
 * The output is separable: along each dimension d, output coordinate o
 * reads up to T input coordinates (taps) with weights, T = 1 for nearest,
 * 2 for linear, 4 for cubic. run builds those tables in the workspace
 * (per dimension: i64 idx[out_d][T], then f64 w[out_d][T]; idx -1 marks a
 * coordinate outside the crop of tf_crop_and_resize, whose output is the
 * extrapolation value), then each output element is the weighted sum of
 * the product of its dimensions' taps, computed in double and rounded once
 * (integers to nearest). A dimension whose every coordinate has a single
 * tap of weight 1 counts as one tap, so that nearest (and linear along
 * unchanged dimensions) copies elements exactly.
 *
 * Coordinates follow ONNX's reference (onnx/reference/ops/op_resize.py):
 * the transformation sees the output length as scale * input length,
 * taps of input coordinates outside [0, n) read the edge element, and
 * exclude_outside zeroes their weights and renormalises.
 *
 * Parameters: ints mode, coordinate_transformation_mode, nearest_mode,
 * exclude_outside, sizes[r], scales[r] and roi[2 r] (doubles as their
 * bits); floats cubic_coeff_a, extrapolation_value.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ops_int.h"

extern const struct ops_def ops_index_resize_d;

/* Most dimensions ResizeD takes: its parameters hold 4 + 4 r ints. */
#define RS_MAX_RANK 64

enum { RS_NEAREST, RS_LINEAR, RS_CUBIC, RS_NMODES };
enum {
	RS_HALF_PIXEL, RS_PYTORCH_HALF_PIXEL, RS_ALIGN_CORNERS, RS_ASYMMETRIC, RS_TF_HALF_PIXEL_NN,
	RS_TF_CROP_AND_RESIZE, RS_HALF_PIXEL_SYMMETRIC, RS_NCTM,
};
enum { RS_PREFER_FLOOR, RS_PREFER_CEIL, RS_FLOOR, RS_CEIL, RS_NNMODES };

static const char *const rs_modes[] = { "nearest", "linear", "cubic", NULL };
static const char *const rs_ctms[] = {
	"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
	"tf_crop_and_resize", "half_pixel_symmetric", NULL,
};
static const char *const rs_nmodes[] = {
	"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL,
};
static const char *const rs_formats[] = { "NCHW", "NHWC", "ND", NULL };

static const char *const resize_attrs[] = {
	"sizes", "scales", "roi", "coordinate_transformation_mode", "cubic_coeff_a",
	"exclude_outside", "extrapolation_value", "mode", "nearest_mode", "data_format", NULL,
};

static const int rs_taps[RS_NMODES] = { 1, 2, 4 };

/* Parameter positions. */
#define P_MODE 0
#define P_CTM 1
#define P_NMODE 2
#define P_EXCL 3
#define P_SIZES 4
#define P_SCALES(r) (4 + (r))
#define P_ROI(r) (4 + 2 * (r))

static int64_t f2bits(double v)
{
	int64_t b;

	memcpy(&b, &v, sizeof(b));
	return b;
}

static double bits2f(int64_t b)
{
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

static enum vops_err choice(const struct ops_def *def, const struct vops_attr *attrs,
			    unsigned int n, const char *name, const char *dflt,
			    const char *const *names, int64_t *v, struct vops_error *err)
{
	const char *s;
	enum vops_err ret = ops_attr_str(def, attrs, n, name, dflt, &s, err);

	for (*v = 0; !ret && names[*v]; (*v)++)
		if (!strcmp(names[*v], s))
			return VOPS_OK;
	return ret ? ret : ops_fail(err, VOPS_ERR_ATTR, "%s: attribute %s \"%s\" is not supported",
				    def->name, name, s);
}

static enum vops_err resize_parse(struct ops_call *c, const struct vops_attr *attrs, unsigned int n,
				  struct vops_error *err)
{
	const struct ops_def *def = c->def;
	const struct vops_tensor *x = &c->in[0];
	int64_t sizes[RS_MAX_RANK], mode, ctm, nmode, excl, fmt;
	double scales[RS_MAX_RANK], roi[2 * RS_MAX_RANK], a, extrap;
	int ns, nsc, nroi, r = x->ndim, d;
	enum vops_err ret;

	if (r < 1 || r > RS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x has rank %d (1 to %d)", def->name, r,
				RS_MAX_RANK);
	ret = ops_attr_ints(def, attrs, n, "sizes", true, sizes, RS_MAX_RANK, &ns, err);
	if (!ret)
		ret = ops_attr_floats(def, attrs, n, "scales", false, scales, RS_MAX_RANK, &nsc,
				      err);
	if (!ret)
		ret = ops_attr_floats(def, attrs, n, "roi", false, roi, 2 * RS_MAX_RANK, &nroi,
				      err);
	if (!ret)
		ret = choice(def, attrs, n, "mode", "nearest", rs_modes, &mode, err);
	if (!ret)
		ret = choice(def, attrs, n, "coordinate_transformation_mode", "half_pixel", rs_ctms,
			     &ctm, err);
	if (!ret)
		ret = choice(def, attrs, n, "nearest_mode", "round_prefer_floor", rs_nmodes, &nmode,
			     err);
	if (!ret)
		ret = choice(def, attrs, n, "data_format", "NCHW", rs_formats, &fmt, err);
	if (!ret)
		ret = ops_attr_int(def, attrs, n, "exclude_outside", 0, &excl, err);
	if (!ret)
		ret = ops_attr_float(def, attrs, n, "cubic_coeff_a", -0.75, &a, err);
	if (!ret)
		ret = ops_attr_float(def, attrs, n, "extrapolation_value", 0.0, &extrap, err);
	if (ret)
		return ret;
	if (ns != r || (nsc > 0 && nsc != r) || (nroi > 0 && nroi != 2 * r))
		return ops_fail(
			err, VOPS_ERR_ATTR,
			"%s: sizes (%d), scales (%d) and roi (%d values) "
			"must have one (roi: two) per dimension of x (%d), or scales and roi "
			"none",
			def->name, ns, nsc < 0 ? 0 : nsc, nroi < 0 ? 0 : nroi, r);
	ops_param_i(c, mode);
	ops_param_i(c, ctm);
	ops_param_i(c, nmode);
	ops_param_i(c, excl);
	for (d = 0; d < r; d++)
		ops_param_i(c, sizes[d]);
	/* No scales: the size ratios (1 for an empty dimension). */
	for (d = 0; d < r; d++)
		ops_param_i(c, f2bits(nsc > 0 ? scales[d] : x->dims[d] ?
				      (double)sizes[d] / (double)x->dims[d] : 1.0));
	for (d = 0; d < 2 * r; d++)
		ops_param_i(c, f2bits(nroi > 0 ? roi[d] : d < r ? 0.0 : 1.0));
	ops_param_f(c, a);
	ops_param_f(c, extrap);
	return VOPS_OK;
}

static enum vops_err resize_infer(const struct ops_call *c, struct vops_plan *p,
				  struct vops_error *err)
{
	const struct { const int64_t *i; const double *f; } pr = { c->at.pr.i, c->at.pr.f };
	const struct vops_tensor *x = &c->in[0];
	int r = x->ndim, d;
	enum vops_err ret;

	if (r < 1 || r > RS_MAX_RANK)
		return ops_fail(err, VOPS_ERR_INPUT, "%s: x has rank %d (1 to %d)", c->def->name, r,
				RS_MAX_RANK);
	if (c->at.pr.ni != 4 + 4 * (uint32_t)r || c->at.pr.nf != 2)
		return ops_fail(err, VOPS_ERR_ATTR, "%s: %u int and %u float parameters (%d and 2)",
				c->def->name, c->at.pr.ni, c->at.pr.nf, 4 + 4 * r);
	if (pr.i[P_MODE] < 0 || pr.i[P_MODE] >= RS_NMODES || pr.i[P_CTM] < 0 ||
	    pr.i[P_CTM] >= RS_NCTM || pr.i[P_NMODE] < 0 || pr.i[P_NMODE] >= RS_NNMODES ||
	    pr.i[P_EXCL] < 0 || pr.i[P_EXCL] > 1 || !isfinite(pr.f[0]))
		return ops_fail(err, VOPS_ERR_ATTR,
				"%s: mode %" PRId64 ", coordinate_transformation_mode %" PRId64
				", nearest_mode %" PRId64 ", exclude_outside %" PRId64 " or "
				"cubic_coeff_a %g is invalid",
				c->def->name, pr.i[P_MODE], pr.i[P_CTM], pr.i[P_NMODE],
				pr.i[P_EXCL], pr.f[0]);
	for (d = 0; d < r; d++) {
		int64_t sz = pr.i[P_SIZES + d];
		double sc = bits2f(pr.i[P_SCALES(r) + d]);
		double r0 = bits2f(pr.i[P_ROI(r) + d]), r1 = bits2f(pr.i[P_ROI(r) + r + d]);

		if (sz < 0 || (uint64_t)sz > VOPS_MAX_DIM || (sz && !x->dims[d]))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: sizes[%d] %" PRId64 " is invalid for "
					"dimension %" PRId64 " (0 to 2^31, 0 for an empty one)",
					c->def->name, d, sz, x->dims[d]);
		if (!isfinite(sc) || sc <= 0 || !isfinite(r0) || !isfinite(r1))
			return ops_fail(err, VOPS_ERR_ATTR,
					"%s: scales[%d] %g or roi %g, %g is invalid", c->def->name,
					d, sc, r0, r1);
	}
	ret = ops_set_out_n(c, p, 0, x->dtype, r, &pr.i[P_SIZES], err);
	if (!ret)
		ret = ops_set_in_dense(c, p, 0, err);
	if (!ret) {
		uint64_t n = 1;

		for (d = 0; d < r; d++)
			n *= (uint64_t)pr.i[P_SIZES + d];
		p->empty = n == 0;
	}
	return ret;
}

/* Bytes of dimension @d's tables. */
static uint64_t table_bytes(const struct ops_call *c, int d)
{
	return (uint64_t)c->at.pr.i[P_SIZES + d] * (uint64_t)rs_taps[c->at.pr.i[P_MODE]] * 16;
}

static enum vops_err resize_ws(const struct ops_call *c, struct vops_plan *p,
			       struct vops_error *err)
{
	uint64_t ws = 0;
	int d;

	(void)err;
	for (d = 0; d < c->in[0].ndim && !p->empty; d++)
		ws += table_bytes(c, d);
	p->ws_bytes = p->empty ? 0 : ws;
	p->ws_align = 8;
	return VOPS_OK;
}

/* The input coordinate of output coordinate @o along @d; false: outside the crop. */
static bool source_coord(const struct ops_call *c, int d, int64_t o, double *xo)
{
	int r = c->in[0].ndim;
	double n = (double)c->in[0].dims[d], s = bits2f(c->at.pr.i[P_SCALES(r) + d]);
	double ow = s * n, x = (double)o, v;
	double r0 = bits2f(c->at.pr.i[P_ROI(r) + d]), r1 = bits2f(c->at.pr.i[P_ROI(r) + r + d]);

	switch (c->at.pr.i[P_CTM]) {
	case RS_ALIGN_CORNERS:
		v = ow == 1 ? 0 : x * (n - 1) / (ow - 1);
		break;
	case RS_ASYMMETRIC:
		v = x / s;
		break;
	case RS_TF_HALF_PIXEL_NN:
		v = (x + 0.5) / s;
		break;
	case RS_TF_CROP_AND_RESIZE:
		v = ow == 1 ? (r1 - r0) * (n - 1) / 2 : x * (r1 - r0) * (n - 1) / (ow - 1);
		v += r0 * (n - 1);
		if (v < 0 || v > n - 1)
			return false;
		break;
	case RS_PYTORCH_HALF_PIXEL:
		v = ow == 1 ? -0.5 : (x + 0.5) / s - 0.5;
		break;
	case RS_HALF_PIXEL_SYMMETRIC: {
		double adj = (double)c->at.pr.i[P_SIZES + d] / ow;

		v = n / 2 * (1 - adj) + (x + 0.5) / s - 0.5;
		break;
	}
	default:
		v = (x + 0.5) / s - 0.5;
		break;
	}
	*xo = v;
	return true;
}

/* Weights of taps xi - 1 .. xi + 2 at @t (in (0, 1]) of the cubic of @a. */
static void cubic_coeffs(double t, double a, double *w)
{
	double u = 1 - t;

	w[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
	w[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
	w[2] = ((a + 2) * u - (a + 3)) * u * u + 1;
	w[3] = ((a * (u + 1) - 5 * a) * (u + 1) + 8 * a) * (u + 1) - 4 * a;
}

/*
 * The taps of output coordinate @o along @d into @idx and @w (@t of them):
 * clamped to the dimension; idx[0] -1 outside a crop. true when it is one
 * tap of weight 1 (moved to the front).
 */
static bool taps(const struct ops_call *c, int d, int64_t o, int t, int64_t *idx, double *w)
{
	int64_t n = c->in[0].dims[d], xi, base;
	int mode = (int)c->at.pr.i[P_MODE], k, ones = 0, zeros = 0, one = 0;
	double xo, ratio;

	for (k = 0; k < t; k++) {
		idx[k] = 0;
		w[k] = 0;
	}
	/* Coordinates far outside any tensor (scales from a corrupted descriptor)
	 * are outside, like those source_coord() says are. */
	if (!source_coord(c, d, o, &xo) || !isfinite(xo) || fabs(xo) > 0x1p52) {
		idx[0] = -1;
		return true;
	}
	/* The reference puts an integer coordinate on the right of its interval (ratio 1). */
	xi = (int64_t)floor(xo);
	ratio = xo - (double)xi;
	if (ratio == 0) {
		xi -= 1;
		ratio = 1;
	}
	base = xi - (t / 2 - 1);
	if (mode == RS_NEAREST) {
		bool up;

		switch (c->at.pr.i[P_NMODE]) {
		case RS_PREFER_FLOOR: up = ratio > 0.5; break;
		case RS_PREFER_CEIL: up = ratio >= 0.5; break;
		case RS_FLOOR: up = ratio == 1; break;
		default: up = true; break;
		}
		idx[0] = xi + up;
		w[0] = 1;
	} else {
		if (mode == RS_LINEAR) {
			w[0] = 1 - ratio;
			w[1] = ratio;
		} else {
			cubic_coeffs(ratio, c->at.pr.f[0], w);
		}
		for (k = 0; k < t; k++)
			idx[k] = base + k;
		if (c->at.pr.i[P_EXCL]) {
			double sum = 0;

			for (k = 0; k < t; k++) {
				if (idx[k] < 0 || idx[k] >= n)
					w[k] = 0;
				sum += w[k];
			}
			for (k = 0; k < t; k++)
				w[k] /= sum;
		}
	}
	for (k = 0; k < t; k++) {
		idx[k] = idx[k] < 0 ? 0 : idx[k] >= n ? n - 1 : idx[k];
		ones += w[k] == 1;
		zeros += w[k] == 0;
		if (w[k] == 1)
			one = k;
	}
	if (ones != 1 || ones + zeros != t)
		return false;
	/* Any other tap of the dimension reads the same element with weight 0. */
	idx[0] = idx[one];
	w[0] = 1;
	for (k = 1; k < t; k++) {
		idx[k] = idx[0];
		w[k] = 0;
	}
	return true;
}

static enum vops_run_status resize_run(const struct ops_call *c, const struct vops_plan *p,
				       const struct ops_bufs *b, struct ops_runner *r)
{
	const struct vops_tensor *x = &c->in[0];
	int rank = x->ndim, t = rs_taps[c->at.pr.i[P_MODE]], d, nt[RS_MAX_RANK];
	int64_t *idx[RS_MAX_RANK], xs[RS_MAX_RANK], pos[RS_MAX_RANK], tp[RS_MAX_RANK];
	const int64_t *od = p->out[0].dims;
	int32_t dt = x->dtype;
	uint32_t es = ops_esize(dt);
	double *w[RS_MAX_RANK], extrap = c->at.pr.f[1];
	uint64_t n = 1, e, done = 0, at = 0;
	char *ws = b->ws;
	bool unit = true, isint = !ops_dt_float(dt);

	ops_strides(x, xs);
	/* The tables. */
	for (d = 0; d < rank; d++) {
		bool one = true;
		int64_t o;

		idx[d] = (int64_t *)(ws + at);
		w[d] = (double *)(ws + at + table_bytes(c, d) / 2);
		at += table_bytes(c, d);
		for (o = 0; o < od[d]; o++) {
			one &= taps(c, d, o, t, idx[d] + o * t, w[d] + o * t);
			if (++done >= OPS_EW_CHUNK) {
				done = 0;
				if (ops_should_stop(r))
					return VOPS_RUN_CANCELED;
			}
		}
		nt[d] = one ? 1 : t;
		unit &= one;
		n *= (uint64_t)od[d];
		pos[d] = 0;
	}
	for (e = 0; e < n; e++) {
		uint64_t off = 0;
		bool out = false;

		for (d = 0; d < rank; d++) {
			int64_t i0 = idx[d][pos[d] * t];

			out |= i0 < 0;
			off += (uint64_t)i0 * (uint64_t)xs[d];
		}
		if (out) {
			ops_store_f64(b->out[0], dt, (int64_t)e, 1, &extrap, 1);
		} else if (unit) {
			memcpy((char *)b->out[0] + e * es, (const char *)b->in[0] + off * es, es);
		} else {
			double acc = 0;

			/* Every combination of the dimensions' taps. */
			memset(tp, 0, sizeof(tp[0]) * (size_t)rank);
			for (;;) {
				double wt = 1;

				off = 0;
				for (d = 0; d < rank; d++) {
					int64_t k = pos[d] * t + tp[d];

					wt *= w[d][k];
					off += (uint64_t)idx[d][k] * (uint64_t)xs[d];
				}
				if (wt != 0)
					acc += wt * ops_get_f64(b->in[0], dt, (int64_t)off);
				done++;
				for (d = rank - 1; d >= 0 && ++tp[d] == nt[d]; d--)
					tp[d] = 0;
				if (d < 0)
					break;
			}
			if (isint)
				acc = nearbyint(acc);
			ops_store_f64(b->out[0], dt, (int64_t)e, 1, &acc, 1);
		}
		for (d = rank - 1; d >= 0 && ++pos[d] == od[d]; d--)
			pos[d] = 0;
		done += (uint64_t)rank;
		if (done >= OPS_EW_CHUNK) {
			done = 0;
			if (ops_should_stop(r))
				return VOPS_RUN_CANCELED;
		}
	}
	return VOPS_RUN_OK;
}

const struct ops_def ops_index_resize_d = {
	.name = "ResizeD", .id = OPS_ID_INDEX + 12, .nin = 1, .nout = 1, .attr_fmt = OPS_AF_PARAMS,
	.dtypes = OPS_DT_NUM, .attrs = resize_attrs, .parse = resize_parse, .infer = resize_infer,
	.workspace = resize_ws, .run = resize_run,
};
