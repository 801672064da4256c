// SPDX-License-Identifier: MIT
/*
 * map_nn.c - ONNX nodes of the nn family to CANN operator calls (onnx_map.h):
 * matrix products, convolution and pooling.
 *
 * CANN's operators take full-rank lists (strides [1, 1, sH, sW], NCHW) and
 * pads per side, axis by axis ([top, bottom, left, right]); ONNX's pads
 * are all the begins, then all the ends. auto_pad becomes explicit pads
 * here (CANN's parser leaves SAME_LOWER and the transposes' output_shape
 * to the caller), and a transposed convolution gets its full output shape
 * as input_size.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "onnx_map.h"

#define NN_MAX_SP 3

/* A one-element tensor the mapping makes: type @dt (ONNX), @v's bits (@es bytes). */
static enum onnx_err made_scalar(struct onnx_map *m, int32_t dt, int32_t acl, const void *v,
				 size_t es, int *at)
{
	struct onnx_call *c = m->call;
	struct onnx_tensor *t;

	if (c->nmade >= ONNX_CALL_MAX_MADE || c->nin >= VOPS_MAX_INPUTS)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "too many made inputs");
	t = &c->made[c->nmade];
	memset(t, 0, sizeof(*t));
	t->dims = calloc(1, sizeof(*t->dims));
	t->data = calloc(1, es ? es : 1);
	if (!t->dims || !t->data) {
		free(t->dims);
		free(t->data);
		t->dims = NULL;
		t->data = NULL;
		return onnx_map_fail(m, ONNX_ERR_NOMEM, "out of memory");
	}
	memcpy(t->data, v, es);
	t->dtype = dt;
	t->acl_dtype = acl;
	t->count = 1;
	t->size = es;
	*at = ONNX_CALL_MADE + c->nmade++;
	return ONNX_OK;
}

/* ---- products ---------------------------------------------------------------- */

/* 2-D operands of version 1's types: MatMul; else BatchMatMulV2 (batches, 1-D operands). */
static enum onnx_err map_matmul(struct onnx_map *m)
{
	int32_t dt = m->nin > 0 ? m->in[0].acl_dtype : -1;
	bool v1 = m->nin == 2 && m->in[0].ndim == 2 && m->in[1].ndim == 2 &&
		  (dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_INT32);
	enum onnx_err ret = onnx_map_simple(m, v1 ? "MatMul" : "BatchMatMulV2");

	if (!ret)
		ret = onnx_map_attr_bool(m, v1 ? "transpose_x1" : "adj_x1", false);
	if (!ret)
		ret = onnx_map_attr_bool(m, v1 ? "transpose_x2" : "adj_x2", false);
	return ret;
}

/* GEMM: a, b, c (0 when absent), alpha, beta as one-element fp32 tensors. */
static enum onnx_err map_gemm(struct onnx_map *m)
{
	float alpha = onnx_attr_float(m->node, "alpha", 1.0f);
	float beta = onnx_attr_float(m->node, "beta", 1.0f);
	int32_t acl = onnx_map_has(m, 0) ? m->in[0].acl_dtype : ACL_DT_UNDEFINED, dt;
	struct onnx_call *c = m->call;
	uint64_t zero = 0;
	enum onnx_err ret;
	int at;

	/* The zero C takes A's type, which a value need not be known for. */
	for (dt = ONNX_FLOAT; dt <= ONNX_BFLOAT16 && onnx_dtype_to_acl(dt) != acl; dt++)
		;
	if (acl == ACL_DT_UNDEFINED || dt > ONNX_BFLOAT16)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "input A's type is not known");
	c->type = "GEMM";
	ret = onnx_map_inputs(m, 0, 1);
	if (!ret && onnx_map_has(m, 2)) {
		ret = onnx_map_inputs(m, 2, 2);
	} else if (!ret) {
		ret = made_scalar(m, dt, acl, &zero, vops_dtype_size(acl), &at);
		if (!ret)
			c->in[c->nin++] = at;
	}
	if (!ret)
		ret = made_scalar(m, ONNX_FLOAT, ACL_FLOAT, &alpha, 4, &at);
	if (!ret) {
		c->in[c->nin++] = at;
		ret = made_scalar(m, ONNX_FLOAT, ACL_FLOAT, &beta, 4, &at);
	}
	if (!ret) {
		c->in[c->nin++] = at;
		ret = onnx_map_outputs(m, 0, 0);
	}
	if (!ret)
		ret = onnx_map_attr_bool(m, "transpose_a", onnx_attr_int(m->node, "transA", 0) != 0);
	if (!ret)
		ret = onnx_map_attr_bool(m, "transpose_b", onnx_attr_int(m->node, "transB", 0) != 0);
	return ret;
}

static enum onnx_err map_einsum(struct onnx_map *m)
{
	const char *eq = onnx_attr_string(m->node, "equation", NULL);
	enum onnx_err ret;

	if (!eq)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "no equation");
	ret = onnx_map_simple(m, "Einsum");
	if (!ret)
		ret = onnx_map_attr_str(m, "equation", eq);
	if (!ret)
		ret = onnx_map_attr_int(m, "N", m->call->nin);
	return ret;
}

/* ---- windows -------------------------------------------------------------------- */

/* ONNX's per-axis window attributes, for @nsp spatial axes. */
struct win {
	int nsp;
	int64_t in[NN_MAX_SP], k[NN_MAX_SP], s[NN_MAX_SP], d[NN_MAX_SP], pb[NN_MAX_SP], pe[NN_MAX_SP];
};

/* @name's @nsp values into @v, else @dflt each; INVALID for another count. */
static enum onnx_err axis_list(struct onnx_map *m, const char *name, int nsp, int64_t dflt,
			       int64_t *v)
{
	size_t n;
	const int64_t *a = onnx_attr_ints(m->node, name, &n);
	int i;

	for (i = 0; i < nsp; i++)
		v[i] = a && n == (size_t)nsp ? a[i] : dflt;
	if (a && n != (size_t)nsp)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "%s has %zu values for %d axes", name, n, nsp);
	return ONNX_OK;
}

/* Strides, dilations and pads (auto_pad resolved) of a convolution or pool. */
static enum onnx_err window(struct onnx_map *m, struct win *w, const int64_t *k)
{
	const char *ap = onnx_attr_string(m->node, "auto_pad", "NOTSET");
	size_t n;
	const int64_t *pads = onnx_attr_ints(m->node, "pads", &n);
	enum onnx_err ret;
	int i;

	ret = axis_list(m, "strides", w->nsp, 1, w->s);
	if (!ret)
		ret = axis_list(m, "dilations", w->nsp, 1, w->d);
	if (ret)
		return ret;
	if (pads && n != 2 * (size_t)w->nsp)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "pads has %zu values for %d axes", n, w->nsp);
	for (i = 0; i < w->nsp; i++) {
		int64_t ext = (k[i] - 1) * w->d[i] + 1, out, tot;

		w->k[i] = k[i];
		w->pb[i] = pads && !strcmp(ap, "NOTSET") ? pads[i] : 0;
		w->pe[i] = pads && !strcmp(ap, "NOTSET") ? pads[w->nsp + i] : 0;
		if (strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER"))
			continue;
		if (w->s[i] < 1)
			return onnx_map_fail(m, ONNX_ERR_INVALID, "stride %lld", (long long)w->s[i]);
		out = (w->in[i] + w->s[i] - 1) / w->s[i];
		tot = (out - 1) * w->s[i] + ext - w->in[i];
		tot = tot > 0 ? tot : 0;
		w->pb[i] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
		w->pe[i] = tot - w->pb[i];
	}
	if (strcmp(ap, "NOTSET") && strcmp(ap, "VALID") && strcmp(ap, "SAME_UPPER") &&
	    strcmp(ap, "SAME_LOWER"))
		return onnx_map_fail(m, ONNX_ERR_INVALID, "auto_pad %s", ap);
	return ONNX_OK;
}

/*
 * CANN's lists for @w: full-rank strides and dilations (@full: 4 or 5
 * entries, N and C first; a 1-D call on a 2-D operator has H = 1) and the
 * interleaved pads.
 */
static enum onnx_err cann_lists(struct onnx_map *m, const struct win *w, int full,
				const char *sname, const char *dname, const int64_t *ksz,
				const char *kname)
{
	int64_t st[5] = { 1, 1, 1, 1, 1 }, dl[5] = { 1, 1, 1, 1, 1 }, ks[5] = { 1, 1, 1, 1, 1 };
	int64_t pd[6] = { 0 };
	int lead = full - w->nsp, i;
	enum onnx_err ret;
	bool dil = false;

	for (i = 0; i < w->nsp; i++) {
		st[lead + i] = w->s[i];
		dl[lead + i] = w->d[i];
		ks[lead + i] = ksz ? ksz[i] : 1;
		pd[2 * (lead - 2 + i)] = w->pb[i];
		pd[2 * (lead - 2 + i) + 1] = w->pe[i];
		dil = dil || w->d[i] != 1;
	}
	ret = kname ? onnx_map_attr_ints(m, kname, ks, full) : ONNX_OK;
	if (!ret)
		ret = onnx_map_attr_ints(m, sname, st, full);
	if (!ret)
		ret = onnx_map_attr_ints(m, "pads", pd, 2 * (full - 2));
	if (!ret && dname && (dil || strcmp(dname, "dilation")))
		ret = onnx_map_attr_ints(m, dname, dl, full);
	return ret;
}

/* x's rank: 3 to 5 (1 to 3 spatial axes). */
static enum onnx_err spatial(struct onnx_map *m, struct win *w)
{
	int i;

	if (!m->nin || !m->in[0].present || m->in[0].ndim < 3 || m->in[0].ndim > 5)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "X must have 3 to 5 dimensions");
	memset(w, 0, sizeof(*w));
	w->nsp = m->in[0].ndim - 2;
	for (i = 0; i < w->nsp; i++)
		w->in[i] = m->in[0].dims[2 + i];
	return ONNX_OK;
}

/* ---- convolution ------------------------------------------------------------------ */

static enum onnx_err map_conv(struct onnx_map *m)
{
	enum onnx_err ret;
	struct win w;
	bool three;

	ret = spatial(m, &w);
	if (ret)
		return ret;
	if (m->nin < 2 || !m->in[1].present || m->in[1].ndim != m->in[0].ndim)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "W must have X's rank");
	three = w.nsp == 3;
	ret = window(m, &w, m->in[1].dims + 2);
	if (!ret)
		ret = onnx_map_simple(m, three ? "Conv3D" : "Conv2D");
	if (!ret)
		ret = cann_lists(m, &w, three ? 5 : 4, "strides", "dilations", NULL, NULL);
	if (!ret)
		ret = onnx_map_attr_int(m, "groups", onnx_attr_int(m->node, "group", 1));
	if (!ret)
		ret = onnx_map_attr_str(m, "data_format", three ? "NCDHW" : "NCHW");
	return ret;
}

/* ConvTranspose: pads from output_shape or auto_pad; input_size the whole output shape. */
static enum onnx_err map_conv_transpose(struct onnx_map *m)
{
	const char *ap = onnx_attr_string(m->node, "auto_pad", "NOTSET");
	int64_t op[NN_MAX_SP], isz[5] = { 1, 1, 1, 1, 1 }, opf[5] = { 0 }, group, os[NN_MAX_SP];
	size_t nos;
	const int64_t *oshape = onnx_attr_ints(m->node, "output_shape", &nos);
	int full, lead, i;
	enum onnx_err ret;
	struct win w;

	ret = spatial(m, &w);
	if (ret)
		return ret;
	if (m->nin < 2 || !m->in[1].present || m->in[1].ndim != m->in[0].ndim)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "W must have X's rank");
	full = w.nsp == 3 ? 5 : 4;
	lead = full - w.nsp;
	group = onnx_attr_int(m->node, "group", 1);
	ret = window(m, &w, m->in[1].dims + 2);
	if (!ret)
		ret = axis_list(m, "output_padding", w.nsp, 0, op);
	if (ret)
		return ret;
	if (oshape && nos != (size_t)w.nsp && nos != (size_t)w.nsp + 2)
		return onnx_map_fail(m, ONNX_ERR_INVALID, "output_shape has %zu values", nos);
	for (i = 0; i < w.nsp; i++) {
		int64_t ext = (w.k[i] - 1) * w.d[i] + 1, tot, half;
		bool same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");

		if (oshape || same) {
			os[i] = oshape ? oshape[nos - (size_t)w.nsp + (size_t)i] : w.in[i] * w.s[i];
			tot = w.s[i] * (w.in[i] - 1) + op[i] + ext - os[i];
			/* ONNX's halves round down (Python's //) */
			half = tot >= 0 ? tot / 2 : -((-tot + 1) / 2);
			w.pb[i] = !strcmp(ap, "SAME_UPPER") ? half : tot - half;
			w.pe[i] = tot - w.pb[i];
			/* a negative end pad is output padding (an output larger than a stride
			 * step gives) */
			if (w.pe[i] < 0) {
				op[i] -= w.pe[i];
				w.pe[i] = 0;
			}
		} else if (!strcmp(ap, "VALID")) {
			w.pb[i] = w.pe[i] = 0;
		}
		os[i] = w.s[i] * (w.in[i] - 1) + op[i] + ext - w.pb[i] - w.pe[i];
		isz[lead + i] = os[i];
		opf[lead + i] = op[i];
	}
	/* window() made SAME pads for a forward convolution: the ones above replace them */
	isz[0] = m->in[0].dims[0];
	isz[1] = m->in[1].dims[1] * group;
	ret = onnx_map_simple(m, w.nsp == 3 ? "Conv3DTransposeD" : "Conv2DTransposeD");
	if (!ret)
		ret = onnx_map_attr_ints(m, "input_size", isz, full);
	if (!ret)
		ret = cann_lists(m, &w, full, "strides", "dilations", NULL, NULL);
	if (!ret)
		ret = onnx_map_attr_int(m, "groups", group);
	if (!ret)
		ret = onnx_map_attr_ints(m, "output_padding", opf, full);
	if (!ret)
		ret = onnx_map_attr_str(m, "data_format", w.nsp == 3 ? "NCDHW" : "NCHW");
	return ret;
}

/* ---- pooling ------------------------------------------------------------------------- */

static enum onnx_err map_pool(struct onnx_map *m, bool max)
{
	int64_t k[NN_MAX_SP], so = onnx_attr_int(m->node, "storage_order", 0);
	bool ceil = onnx_attr_int(m->node, "ceil_mode", 0) != 0;
	bool cip = onnx_attr_int(m->node, "count_include_pad", 0) != 0;
	enum onnx_err ret;
	struct win w;
	bool three;
	int i;

	ret = spatial(m, &w);
	if (!ret)
		ret = axis_list(m, "kernel_shape", w.nsp, 0, k);
	if (ret)
		return ret;
	if (!onnx_node_attr(m->node, "kernel_shape"))
		return onnx_map_fail(m, ONNX_ERR_INVALID, "no kernel_shape");
	three = w.nsp == 3;
	ret = window(m, &w, k);
	if (ret)
		return ret;
	for (i = 0; !max && i < w.nsp; i++)
		if (w.d[i] != 1)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "AvgPoolV2 has no dilations");
	m->call->type = max ? (three ? "MaxPool3D" : "MaxPoolV3") : (three ? "AvgPool3D" : "AvgPoolV2");
	ret = onnx_map_inputs(m, 0, 0);
	if (!ret)
		ret = onnx_map_outputs(m, 0, max ? -1 : 0);
	if (!ret)
		ret = cann_lists(m, &w, three ? 5 : 4, "strides", max ? "dilation" : NULL, k, "ksize");
	if (!ret)
		ret = onnx_map_attr_str(m, "data_format", three ? "NCDHW" : "NCHW");
	if (!ret)
		ret = three ? onnx_map_attr_int(m, "ceil_mode", ceil) : onnx_map_attr_bool(m, "ceil_mode", ceil);
	if (!ret && !three)
		ret = onnx_map_attr_str(m, "padding_mode", "CALCULATED");
	if (!ret && three && max)
		ret = onnx_map_attr_str(m, "padding", "CALCULATED");
	if (!ret && !max)
		ret = three ? onnx_map_attr_bool(m, "count_include_pad", cip) :
			onnx_map_attr_bool(m, "exclusive", !cip);
	if (!ret && max && so)
		ret = onnx_map_attr_int(m, "storage_order", so);
	return ret;
}

static enum onnx_err map_max_pool(struct onnx_map *m)
{
	return map_pool(m, true);
}

static enum onnx_err map_average_pool(struct onnx_map *m)
{
	return map_pool(m, false);
}

static enum onnx_err map_global_average_pool(struct onnx_map *m)
{
	return onnx_map_simple(m, "GlobalAveragePool");
}

/* CANN's parser makes a MaxPool of ksize -1 (its graph engine resolves it): a vnpu
 * operator here. */
static enum onnx_err map_global_max_pool(struct onnx_map *m)
{
	return onnx_map_simple(m, "GlobalMaxPool");
}

const struct onnx_map_entry onnx_map_nn[] = {
	{ "MatMul", map_matmul, "MatMul BatchMatMulV2" },
	{ "Gemm", map_gemm, "GEMM" },
	{ "Einsum", map_einsum, "Einsum" },
	{ "Conv", map_conv, "Conv2D Conv3D" },
	{ "ConvTranspose", map_conv_transpose, "Conv2DTransposeD Conv3DTransposeD" },
	{ "MaxPool", map_max_pool, "MaxPoolV3 MaxPool3D" },
	{ "AveragePool", map_average_pool, "AvgPoolV2 AvgPool3D" },
	{ "GlobalAveragePool", map_global_average_pool, "GlobalAveragePool" },
	{ "GlobalMaxPool", map_global_max_pool, "GlobalMaxPool" },
	{ NULL, NULL, NULL },
};
