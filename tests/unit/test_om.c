// SPDX-License-Identifier: MIT
/*
 * Host unit tests for lib/om, the .om container (lib/om/vnpu_om.h,
 * docs/om.md).
 *
 * Round trips of models built here by hand: every attribute kind, empty
 * lists and strings, scalars, -1 dimensions with ranges, gears of each
 * dynamic mode, weights, nodes of several outputs, graph outputs that are
 * inputs or constants. Then the bytes: the header fields at their offsets
 * and the partition table, checked against numbers written down here, not
 * taken from the writer. Then every way a file can be wrong: truncated at
 * each byte of the header and table and around each partition boundary,
 * corrupt fields, foreign files (ATC's task info and kernels, a ModelDef
 * without vnpu's marker or from a newer vnpu), ModelDefs edited with
 * protobuf-c to break one thing each, and every om_model_check() rule.
 * Last a byte-flip loop (fixed seed) over a valid file: any answer but a
 * crash; ASan and UBSan (make unit) watch the reads and the leaks.
 */
#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl_base.h"
#include "ge_ir.pb-c.h"
#include "vnpu_om.h"

/* ---- building models -------------------------------------------------------- */

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	ck_assert_ptr_nonnull(d);
	return d;
}

static void *xmemdup(const void *p, size_t n)
{
	void *d = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(d);
	if (n)
		memcpy(d, p, n);
	return d;
}

static void *grow(void *p, size_t n, size_t size)
{
	void *q = realloc(p, n * size);

	ck_assert_ptr_nonnull(q);
	return q;
}

static struct om_model *model_new(const char *name, const char *soc)
{
	struct om_model *m = calloc(1, sizeof(*m));

	ck_assert_ptr_nonnull(m);
	m->name = xstrdup(name);
	m->soc_version = xstrdup(soc);
	return m;
}

static uint32_t add_value(struct om_model *m, const char *name, enum om_value_kind kind,
			  int32_t dtype, int32_t ndim, const int64_t *dims)
{
	struct om_value *v;

	m->values = grow(m->values, m->nvalues + 1, sizeof(*m->values));
	v = &m->values[m->nvalues];
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(name);
	v->kind = kind;
	v->dtype = dtype;
	v->format = ACL_FORMAT_ND;
	v->ndim = ndim;
	v->dims = ndim ? xmemdup(dims, (size_t)ndim * sizeof(int64_t)) : NULL;
	return m->nvalues++;
}

static uint32_t add_input(struct om_model *m, const char *name, int32_t dtype, int32_t ndim,
			  const int64_t *dims, const int64_t *range)
{
	uint32_t x = add_value(m, name, OM_VALUE_INPUT, dtype, ndim, dims);

	if (range)
		m->values[x].range = xmemdup(range, 2 * (size_t)ndim * sizeof(int64_t));
	m->inputs = grow(m->inputs, m->ninputs + 1, sizeof(*m->inputs));
	m->inputs[m->ninputs++] = x;
	return x;
}

/* A constant whose bytes are appended to the weights. */
static uint32_t add_const(struct om_model *m, const char *name, int32_t dtype, int32_t ndim,
			  const int64_t *dims, const void *bytes, size_t n)
{
	uint32_t x = add_value(m, name, OM_VALUE_CONST, dtype, ndim, dims);

	m->values[x].weight_offset = m->weights_size;
	m->values[x].weight_size = n;
	if (n) {
		m->weights = grow(m->weights, m->weights_size + n, 1);
		memcpy((uint8_t *)m->weights + m->weights_size, bytes, n);
		m->weights_size += n;
	}
	return x;
}

struct out_spec {
	const char *name;
	int32_t dtype, ndim;
	int64_t dims[4];
};

/* A node reading @in, making the values @outs; the attributes are copied deeply. */
static uint32_t add_node(struct om_model *m, const char *name, const char *type, uint32_t nin,
			 const uint32_t *in, uint32_t nout, const struct out_spec *outs,
			 unsigned int nattrs, const struct vops_attr *attrs)
{
	uint32_t i = m->nnodes;
	struct om_node *n;

	m->nodes = grow(m->nodes, m->nnodes + 1, sizeof(*m->nodes));
	n = &m->nodes[m->nnodes++];
	memset(n, 0, sizeof(*n));
	n->name = xstrdup(name);
	n->type = xstrdup(type);
	n->nin = nin;
	n->in = xmemdup(in, nin * sizeof(*in));
	n->nout = nout;
	n->out = calloc(nout, sizeof(*n->out));
	for (uint32_t k = 0; k < nout; k++) {
		uint32_t x = add_value(m, outs[k].name, OM_VALUE_NODE, outs[k].dtype, outs[k].ndim,
				       outs[k].dims);

		m->values[x].node = i;
		m->values[x].port = k;
		m->nodes[i].out[k] = x;
	}
	n = &m->nodes[i];
	n->nattrs = nattrs;
	n->attrs = calloc(nattrs ? nattrs : 1, sizeof(*n->attrs));
	for (unsigned int k = 0; k < nattrs; k++) {
		struct vops_attr *a = &n->attrs[k];

		*a = attrs[k];
		a->name = xstrdup(attrs[k].name);
		if (a->kind == VOPS_ATTR_STRING)
			a->s = xstrdup(attrs[k].s);
		else if (a->kind == VOPS_ATTR_LIST_INT)
			a->li.v = xmemdup(attrs[k].li.v, (size_t)a->li.n * sizeof(int64_t));
		else if (a->kind == VOPS_ATTR_LIST_FLOAT)
			a->lf.v = xmemdup(attrs[k].lf.v, (size_t)a->lf.n * sizeof(float));
	}
	return i;
}

static void set_outputs(struct om_model *m, uint32_t n, const uint32_t *outs)
{
	free(m->outputs);
	m->outputs = xmemdup(outs, n * sizeof(*outs));
	m->noutputs = n;
}

static void set_gears(struct om_model *m, enum om_dynamic mode, uint32_t ngears, uint32_t len,
		      const int64_t *gears)
{
	m->dynamic = mode;
	m->ngears = ngears;
	m->gear_len = len;
	free(m->gears);
	m->gears = xmemdup(gears, (size_t)ngears * len * sizeof(int64_t));
}

static uint32_t value_index(const struct om_model *m, const char *name)
{
	for (uint32_t i = 0; i < m->nvalues; i++)
		if (!strcmp(m->values[i].name, name))
			return i;
	ck_abort_msg("no value '%s'", name);
	return UINT32_MAX;
}

static const int64_t list_i[] = { 1, -2, 3 };
static const float list_f[] = { 0.5f, -1.25f };

/*
 * The model most tests use: inputs x (fp32 [-1, 3, 4, 4], ranged) and s
 * (int64 scalar), constants w (fp32 [3]) and e (fp32 [0]), a node of every
 * attribute kind, a node of two outputs, and graph outputs of every kind:
 * a node's second output, an input, a constant, a node's first output.
 */
static struct om_model *full_model(void)
{
	struct om_model *m = model_new("full", "Ascend910B");
	static const int64_t xd[] = { -1, 3, 4, 4 }, xr[] = { 1, 8, 3, 3, 4, 4, 4, 4 };
	static const int64_t three[] = { 3 }, zero[] = { 0 };
	static const float wv[] = { 1.0f, 2.0f, 3.0f };
	struct vops_attr attrs[] = {
		{ .name = "b_true", .kind = VOPS_ATTR_BOOL, .b = true },
		{ .name = "b_false", .kind = VOPS_ATTR_BOOL, .b = false },
		{ .name = "i_zero", .kind = VOPS_ATTR_INT, .i = 0 },
		{ .name = "i_neg", .kind = VOPS_ATTR_INT, .i = -5 },
		{ .name = "i_big", .kind = VOPS_ATTR_INT, .i = INT64_MIN },
		{ .name = "f", .kind = VOPS_ATTR_FLOAT, .f = 1.5f },
		{ .name = "f_zero", .kind = VOPS_ATTR_FLOAT, .f = 0.0f },
		{ .name = "s", .kind = VOPS_ATTR_STRING, .s = "NCHW" },
		{ .name = "s_empty", .kind = VOPS_ATTR_STRING, .s = "" },
		{ .name = "dt", .kind = VOPS_ATTR_DTYPE, .dt = ACL_FLOAT16 },
		{ .name = "dt_zero", .kind = VOPS_ATTR_DTYPE, .dt = ACL_FLOAT },
		{ .name = "li", .kind = VOPS_ATTR_LIST_INT, .li = { 3, (int64_t *)list_i } },
		{ .name = "li_empty", .kind = VOPS_ATTR_LIST_INT, .li = { 0, NULL } },
		{ .name = "lf", .kind = VOPS_ATTR_LIST_FLOAT, .lf = { 2, (float *)list_f } },
		{ .name = "lf_empty", .kind = VOPS_ATTR_LIST_FLOAT, .lf = { 0, NULL } },
	};
	struct out_spec add_out[] = { { "y", ACL_FLOAT, 4, { -1, 3, 4, 4 } } };
	struct out_spec split_out[] = { { "y0", ACL_FLOAT, 4, { -1, 1, 4, 4 } },
					{ "y1", ACL_FLOAT16, 0, { 0 } } };
	uint32_t x, s, w, in[2], outs[4];

	x = add_input(m, "x", ACL_FLOAT, 4, xd, xr);
	m->values[x].format = ACL_FORMAT_NCHW;
	s = add_input(m, "s", ACL_INT64, 0, NULL, NULL);
	w = add_const(m, "w", ACL_FLOAT, 1, three, wv, sizeof(wv));
	add_const(m, "e", ACL_FLOAT, 1, zero, NULL, 0);
	in[0] = x;
	in[1] = w;
	add_node(m, "add0", "Add", 2, in, 1, add_out, sizeof(attrs) / sizeof(attrs[0]), attrs);
	in[0] = value_index(m, "y");
	in[1] = s;
	add_node(m, "split0", "SplitD", 2, in, 2, split_out, 0, NULL);
	outs[0] = value_index(m, "y1");
	outs[1] = s;
	outs[2] = w;
	outs[3] = value_index(m, "y0");
	set_outputs(m, 4, outs);
	m->dynamic_shape = true;
	return m;
}

/* A static model without weights: one input, one node, one output. */
static struct om_model *small_model(void)
{
	struct om_model *m = model_new("small", "");
	static const int64_t d[] = { 2, 2 };
	struct out_spec o[] = { { "r", ACL_FLOAT, 2, { 2, 2 } } };
	uint32_t a = add_input(m, "a", ACL_FLOAT, 2, d, NULL), out;

	add_node(m, "relu", "Relu", 1, &a, 1, o, 0, NULL);
	out = value_index(m, "r");
	set_outputs(m, 1, &out);
	return m;
}

/* Dynamic batch: a [-1, 4], gears 1, 2, 4 and the gear input. */
static struct om_model *batch_model(void)
{
	struct om_model *m = model_new("batch", "Ascend310P3");
	static const int64_t d[] = { -1, 4 }, gd[] = { 1 }, gears[] = { 1, 2, 4 };
	struct out_spec o[] = { { "r", ACL_FLOAT, 2, { -1, 4 } } };
	uint32_t a = add_input(m, "a", ACL_FLOAT, 2, d, NULL), out;

	add_input(m, OM_DYNAMIC_TENSOR_NAME, ACL_INT64, 1, gd, NULL);
	add_node(m, "relu", "Relu", 1, &a, 1, o, 0, NULL);
	out = value_index(m, "r");
	set_outputs(m, 1, &out);
	set_gears(m, OM_DYNAMIC_BATCH, 3, 1, gears);
	return m;
}

/* ---- comparing models -------------------------------------------------------- */

static void assert_value_eq(const struct om_model *a, const struct om_value *va,
			    const struct om_model *b, const struct om_value *vb)
{
	ck_assert_str_eq(va->name, vb->name);
	ck_assert_int_eq(va->kind, vb->kind);
	ck_assert_int_eq(va->dtype, vb->dtype);
	ck_assert_int_eq(va->format, vb->format);
	ck_assert_int_eq(va->ndim, vb->ndim);
	for (int32_t d = 0; d < va->ndim; d++)
		ck_assert_int_eq(va->dims[d], vb->dims[d]);
	ck_assert_int_eq(!va->range, !vb->range);
	for (int32_t d = 0; va->range && d < 2 * va->ndim; d++)
		ck_assert_int_eq(va->range[d], vb->range[d]);
	if (va->kind == OM_VALUE_CONST) {
		ck_assert_uint_eq(va->weight_size, vb->weight_size);
		ck_assert(!memcmp((const uint8_t *)a->weights + va->weight_offset,
				  (const uint8_t *)b->weights + vb->weight_offset, va->weight_size));
	}
	if (va->kind == OM_VALUE_NODE) {
		ck_assert_str_eq(a->nodes[va->node].name, b->nodes[vb->node].name);
		ck_assert_uint_eq(va->port, vb->port);
	}
}

static void assert_attr_eq(const struct vops_attr *x, const struct vops_attr *y)
{
	ck_assert_str_eq(x->name, y->name);
	ck_assert_int_eq(x->kind, y->kind);
	switch (x->kind) {
	case VOPS_ATTR_BOOL:
		ck_assert_int_eq(x->b, y->b);
		break;
	case VOPS_ATTR_INT:
		ck_assert_int_eq(x->i, y->i);
		break;
	case VOPS_ATTR_FLOAT:
		ck_assert(!memcmp(&x->f, &y->f, sizeof(float)));
		break;
	case VOPS_ATTR_STRING:
		ck_assert_str_eq(x->s, y->s);
		break;
	case VOPS_ATTR_DTYPE:
		ck_assert_int_eq(x->dt, y->dt);
		break;
	case VOPS_ATTR_LIST_INT:
		ck_assert_int_eq(x->li.n, y->li.n);
		ck_assert(!x->li.n || !memcmp(x->li.v, y->li.v, (size_t)x->li.n * sizeof(int64_t)));
		break;
	case VOPS_ATTR_LIST_FLOAT:
		ck_assert_int_eq(x->lf.n, y->lf.n);
		ck_assert(!x->lf.n || !memcmp(x->lf.v, y->lf.v, (size_t)x->lf.n * sizeof(float)));
		break;
	}
}

/* @b is @a read back: the same graph, values matched by name (their order may differ). */
static void assert_model_eq(const struct om_model *a, const struct om_model *b)
{
	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->soc_version, b->soc_version);
	ck_assert_uint_eq(a->nvalues, b->nvalues);
	ck_assert_uint_eq(a->nnodes, b->nnodes);
	ck_assert_uint_eq(a->ninputs, b->ninputs);
	ck_assert_uint_eq(a->noutputs, b->noutputs);
	ck_assert_uint_eq(a->weights_size, b->weights_size);
	ck_assert_int_eq(a->dynamic, b->dynamic);
	ck_assert_int_eq(a->dynamic_shape, b->dynamic_shape);
	ck_assert_uint_eq(a->ngears, b->ngears);
	ck_assert_uint_eq(a->gear_len, b->gear_len);
	for (uint32_t k = 0; k < a->ngears * a->gear_len; k++)
		ck_assert_int_eq(a->gears[k], b->gears[k]);
	for (uint32_t i = 0; i < a->nvalues; i++) {
		const struct om_value *va = &a->values[i];

		assert_value_eq(a, va, b, &b->values[value_index(b, va->name)]);
	}
	for (uint32_t i = 0; i < a->ninputs; i++)
		ck_assert_str_eq(a->values[a->inputs[i]].name, b->values[b->inputs[i]].name);
	for (uint32_t i = 0; i < a->noutputs; i++)
		ck_assert_str_eq(a->values[a->outputs[i]].name, b->values[b->outputs[i]].name);
	for (uint32_t i = 0; i < a->nnodes; i++) {
		const struct om_node *na = &a->nodes[i], *nb = &b->nodes[i];

		ck_assert_str_eq(na->name, nb->name);
		ck_assert_str_eq(na->type, nb->type);
		ck_assert_uint_eq(na->nin, nb->nin);
		ck_assert_uint_eq(na->nout, nb->nout);
		for (uint32_t k = 0; k < na->nin; k++)
			ck_assert_str_eq(a->values[na->in[k]].name, b->values[nb->in[k]].name);
		for (uint32_t k = 0; k < na->nout; k++)
			ck_assert_str_eq(a->values[na->out[k]].name, b->values[nb->out[k]].name);
		ck_assert_uint_eq(na->nattrs, nb->nattrs);
		for (unsigned int k = 0; k < na->nattrs; k++)
			assert_attr_eq(&na->attrs[k], &nb->attrs[k]);
	}
}

static void write_ok(const struct om_model *m, uint8_t **buf, size_t *len)
{
	struct om_error err;
	void *b;

	ck_assert_msg(om_write(m, &b, len, &err) == OM_OK, "%s", err.msg);
	*buf = b;
}

static struct om_model *read_ok(const uint8_t *buf, size_t len)
{
	struct om_error err;
	struct om_model *m;

	ck_assert_msg(om_read(buf, len, &m, &err) == OM_OK, "%s", err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* Read and expect @code, with a message; the model pointer stays NULL. */
static void read_fails(const uint8_t *buf, size_t len, enum om_err code, const char *what)
{
	struct om_error err = { .code = OM_OK };
	struct om_model *m = (struct om_model *)1;
	enum om_err e = om_read(buf, len, &m, &err);

	ck_assert_msg(e == code, "%s: %d, not %d (%s)", what, e, code, err.msg);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(err.msg[0], "%s: no message", what);
	ck_assert_ptr_null(m);
}

static void roundtrip(struct om_model *m)
{
	uint8_t *buf, *buf2, *buf3;
	size_t len, len2, len3;
	struct om_model *r, *r2;

	write_ok(m, &buf, &len);
	r = read_ok(buf, len);
	assert_model_eq(m, r);
	/* What the reader makes writes back to a file that reads as itself. */
	write_ok(r, &buf2, &len2);
	r2 = read_ok(buf2, len2);
	assert_model_eq(r, r2);
	write_ok(r2, &buf3, &len3);
	ck_assert_uint_eq(len2, len3);
	ck_assert(!memcmp(buf2, buf3, len2));
	om_model_free(r2);
	om_model_free(r);
	free(buf3);
	free(buf2);
	free(buf);
	om_model_free(m);
}

/* ---- round trips -------------------------------------------------------------- */

START_TEST(roundtrip_full)
{
	roundtrip(full_model());
}
END_TEST

START_TEST(roundtrip_small)
{
	roundtrip(small_model());
}
END_TEST

START_TEST(roundtrip_batch)
{
	roundtrip(batch_model());
}
END_TEST

START_TEST(roundtrip_hw_and_dims)
{
	struct om_model *m = model_new("hw", "");
	static const int64_t d[] = { 1, 3, -1, -1 }, g2[] = { 2 };
	static const int64_t hw[] = { 224, 224, 448, 448 };
	struct out_spec o[] = { { "r", ACL_FLOAT, 4, { 1, 3, -1, -1 } } };
	uint32_t a = add_input(m, "img", ACL_FLOAT, 4, d, NULL), out;

	add_input(m, OM_DYNAMIC_TENSOR_NAME, ACL_INT64, 1, g2, NULL);
	add_node(m, "relu", "Relu", 1, &a, 1, o, 0, NULL);
	out = value_index(m, "r");
	set_outputs(m, 1, &out);
	set_gears(m, OM_DYNAMIC_HW, 2, 2, hw);
	roundtrip(m);

	/* Dynamic dims: a value for each -1 of both inputs, three of them. */
	m = model_new("dims", "");
	{
		static const int64_t d1[] = { -1, 8 }, d2[] = { -1, -1 }, g3[] = { 3 };
		static const int64_t gears[] = { 1, 1, 8, 2, 2, 16 };
		struct out_spec o2[] = { { "r", ACL_FLOAT, 2, { -1, 8 } } };
		uint32_t in[2];

		in[0] = add_input(m, "p", ACL_FLOAT, 2, d1, NULL);
		in[1] = add_input(m, "q", ACL_FLOAT, 2, d2, NULL);
		add_input(m, OM_DYNAMIC_TENSOR_NAME, ACL_INT64, 1, g3, NULL);
		add_node(m, "mm", "MatMul", 2, in, 1, o2, 0, NULL);
		out = value_index(m, "r");
		set_outputs(m, 1, &out);
		set_gears(m, OM_DYNAMIC_DIMS, 2, 3, gears);
	}
	roundtrip(m);
}
END_TEST

/* Every aclDataType and aclFormat the tables hold survives the trip. */
START_TEST(roundtrip_types_and_formats)
{
	static const int32_t dtypes[] = {
		ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8, ACL_INT16, ACL_UINT16,
		ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_BOOL, ACL_STRING, ACL_COMPLEX64,
		ACL_COMPLEX128, ACL_BF16, ACL_INT4, ACL_UINT1, ACL_COMPLEX32, ACL_HIFLOAT8,
		ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E8M0, ACL_FLOAT6_E3M2,
		ACL_FLOAT6_E2M3, ACL_FLOAT4_E2M1, ACL_FLOAT4_E1M2, ACL_HIFLOAT4, ACL_HIFLOAT4_SCALE,
	};
	static const int32_t formats[] = {
		ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_ND, ACL_FORMAT_NC1HWC0,
		ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_NC1HWC0_C04, ACL_FORMAT_HWCN, ACL_FORMAT_NDHWC,
		ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NCDHW, ACL_FORMAT_NDC1HWC0, ACL_FRACTAL_Z_3D,
		ACL_FORMAT_NC, ACL_FORMAT_NCL, ACL_FORMAT_FRACTAL_NZ_C0_16,
		ACL_FORMAT_FRACTAL_NZ_C0_32, ACL_FORMAT_FRACTAL_NZ_C0_2, ACL_FORMAT_FRACTAL_NZ_C0_4,
		ACL_FORMAT_FRACTAL_NZ_C0_8,
	};
	size_t nd = sizeof(dtypes) / sizeof(dtypes[0]), nf = sizeof(formats) / sizeof(formats[0]);
	size_t n = nd > nf ? nd : nf;
	struct om_model *m = model_new("types", "");
	static const int64_t d[] = { 2 };
	struct out_spec o[] = { { "r", ACL_FLOAT, 1, { 2 } } };
	uint32_t *outs = calloc(n + 1, sizeof(*outs)), a;

	for (size_t i = 0; i < n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "in%zu", i);
		a = add_input(m, name, dtypes[i % nd], 1, d, NULL);
		m->values[a].format = formats[i % nf];
		outs[i] = a;
	}
	add_node(m, "relu", "Relu", 1, &m->inputs[0], 1, o, 0, NULL);
	outs[n] = value_index(m, "r");
	set_outputs(m, (uint32_t)n + 1, outs);
	free(outs);
	roundtrip(m);
}
END_TEST

/* A model of no inputs, nodes or outputs still is a file. */
START_TEST(roundtrip_empty)
{
	roundtrip(model_new("", ""));
}
END_TEST

START_TEST(file_io)
{
	char path[] = "/tmp/test_om_XXXXXX";
	struct om_model *m = full_model(), *r;
	struct om_error err;
	void *buf;
	size_t len;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_msg(om_write_file(m, path, &err) == OM_OK, "%s", err.msg);
	ck_assert_msg(om_load_file(path, &buf, &len, &err) == OM_OK, "%s", err.msg);
	r = read_ok(buf, len);
	assert_model_eq(m, r);
	om_model_free(r);
	free(buf);
	unlink(path);

	ck_assert_int_eq(om_load_file(path, &buf, &len, &err), OM_ERR_IO);
	ck_assert_ptr_null(buf);
	ck_assert(strstr(err.msg, path));
	ck_assert_int_eq(om_load_file("/tmp", &buf, &len, &err), OM_ERR_IO);
	ck_assert_int_eq(om_write_file(m, "/nonexistent-dir/x.om", &err), OM_ERR_IO);
	/* A model that breaks a rule is not written. */
	m->values[0].ndim = -1;
	ck_assert_int_eq(om_write_file(m, path, &err), OM_ERR_INVALID);
	ck_assert_int_ne(access(path, F_OK), 0);
	m->values[0].ndim = 4;
	om_model_free(m);
}
END_TEST

START_TEST(value_bytes)
{
	int64_t d[3] = { 2, 3, 4 };
	struct om_value v = { .name = "v", .dtype = ACL_FLOAT16, .ndim = 3, .dims = d };

	ck_assert_uint_eq(om_value_bytes(&v), 48);
	v.ndim = 0;
	ck_assert_uint_eq(om_value_bytes(&v), 2);
	v.ndim = 3;
	d[1] = -1;
	ck_assert_uint_eq(om_value_bytes(&v), 0);
	d[1] = INT64_MAX;
	ck_assert_uint_eq(om_value_bytes(&v), 0);
	d[1] = 0;
	ck_assert_uint_eq(om_value_bytes(&v), 0);
	d[1] = 3;
	v.dtype = ACL_STRING;
	ck_assert_uint_eq(om_value_bytes(&v), 0);
	ck_assert_uint_eq(om_value_bytes(NULL), 0);
}
END_TEST

/* ---- the bytes ----------------------------------------------------------------- */

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

START_TEST(header_bytes)
{
	struct om_model *m = full_model();
	static const uint8_t magic[4] = { 0x49, 0x4D, 0x4F, 0x44 };	/* "IMOD" */
	uint8_t *b;
	size_t len;
	uint64_t mdsize;

	write_ok(m, &b, &len);
	ck_assert_uint_ge(len, 256 + 8 + 2 * 24);
	ck_assert(!memcmp(b, magic, 4));
	ck_assert_uint_eq(rd32(b + 4), 256);			/* headsize */
	ck_assert_uint_eq(rd32(b + 8), 0x10000000);		/* version 1.0 */
	for (int i = 12; i < 76; i++)				/* checksum */
		ck_assert_uint_eq(b[i], 0);
	ck_assert_uint_eq(rd32(b + 76), 0);			/* length: model_length is set */
	ck_assert_uint_eq(b[80], 0);				/* is_encrypt */
	ck_assert_uint_eq(b[82], 0);				/* modeltype: IR model */
	ck_assert_uint_eq(b[83], 0);				/* genmode: offline */
	ck_assert_str_eq((const char *)b + 84, "full");
	for (int i = 84 + 4; i < 116; i++)
		ck_assert_uint_eq(b[i], 0);
	ck_assert_uint_eq(rd32(b + 156), 1);			/* model_num */
	ck_assert_str_eq((const char *)b + 160, "Ascend910B");
	for (int i = 160 + 10; i < 180; i++)
		ck_assert_uint_eq(b[i], 0);
	ck_assert_uint_eq(rd64(b + 184), len - 256);		/* model_length */
	ck_assert_uint_eq(b[193], 1);				/* is_unknow_model */
	for (int i = 194; i < 256; i++)				/* reserved */
		ck_assert_uint_eq(b[i], 0);

	/* The table: 2 entries, MODEL_DEF then WEIGHTS_DATA, offsets after the table. */
	ck_assert_uint_eq(rd32(b + 256), 2);
	ck_assert_uint_eq(rd32(b + 260), 0);
	ck_assert_uint_eq(rd32(b + 264), 0);			/* MODEL_DEF */
	ck_assert_uint_eq(rd32(b + 268), 0);
	ck_assert_uint_eq(rd64(b + 272), 0);
	mdsize = rd64(b + 280);
	ck_assert_uint_eq(rd32(b + 288), 1);			/* WEIGHTS_DATA */
	ck_assert_uint_eq(rd32(b + 292), 0);
	ck_assert_uint_eq(rd64(b + 296), mdsize);
	ck_assert_uint_eq(rd64(b + 304), 12);			/* w: three fp32 */
	ck_assert_uint_eq(256 + 56 + mdsize + 12, len);
	{
		static const float wv[] = { 1.0f, 2.0f, 3.0f };

		ck_assert(!memcmp(b + len - 12, wv, 12));
	}
	free(b);
	om_model_free(m);

	/* No weights: no WEIGHTS_DATA; a long name and soc cut to 31 and 19 characters. */
	m = small_model();
	free(m->name);
	m->name = xstrdup("a_model_name_longer_than_thirty_one_characters");
	free(m->soc_version);
	m->soc_version = xstrdup("Ascend910B_and_more_characters");
	write_ok(m, &b, &len);
	ck_assert_uint_eq(rd32(b + 256), 1);
	ck_assert_uint_eq(256 + 32 + rd64(b + 280), len);
	ck_assert_uint_eq(b[193], 0);
	ck_assert_int_eq(memcmp(b + 84, "a_model_name_longer_than_thirty", 31), 0);
	ck_assert_uint_eq(b[84 + 31], 0);
	ck_assert_int_eq(memcmp(b + 160, "Ascend910B_and_more", 19), 0);
	ck_assert_uint_eq(b[160 + 19], 0);
	{
		struct om_model *r = read_ok(b, len);

		/* The ModelDef keeps the whole name. */
		ck_assert_str_eq(r->name, m->name);
		ck_assert_str_eq(r->soc_version, m->soc_version);
		om_model_free(r);
	}
	free(b);
	om_model_free(m);
}
END_TEST

/* ---- damaged files -------------------------------------------------------------- */

START_TEST(truncated)
{
	struct om_model *m = full_model();
	uint8_t *b, *c;
	size_t len, table = 256 + 8 + 2 * 24, md;
	size_t bounds[3];

	write_ok(m, &b, &len);
	md = (size_t)rd64(b + 280);
	bounds[0] = table;
	bounds[1] = table + md;
	bounds[2] = len;
	c = malloc(len);
	/* Every byte of the header and the table. */
	for (size_t cut = 0; cut <= table; cut++) {
		memcpy(c, b, cut);
		read_fails(c, cut, OM_ERR_FORMAT, "truncated header or table");
		/* ... and with model_length saying so: the table no longer fits. */
		if (cut >= 256) {
			wr64(c + 184, cut - 256);
			read_fails(c, cut, OM_ERR_FORMAT, "truncated table, model_length fixed");
		}
	}
	/* Around every partition boundary. */
	for (int k = 0; k < 3; k++)
		for (size_t cut = bounds[k] - 1; cut <= bounds[k] + 1; cut++) {
			if (cut >= len)
				continue;
			memcpy(c, b, cut);
			read_fails(c, cut, OM_ERR_FORMAT, "truncated partition");
			wr64(c + 184, cut - 256);
			read_fails(c, cut, OM_ERR_FORMAT, "truncated partition, model_length fixed");
		}
	read_fails(NULL, 0, OM_ERR_FORMAT, "no bytes");
	free(c);
	free(b);
	om_model_free(m);
}
END_TEST

/* Edit a copy of the valid file @b with @edit and expect @code. */
#define EXPECT_EDIT(code, edit, what)                              \
	do {                                                       \
		uint8_t *c_ = xmemdup(b, len);                     \
		uint8_t *c = c_;                                   \
		edit;                                              \
		read_fails(c, len, code, what);                    \
		free(c_);                                          \
	} while (0)

START_TEST(corrupt_header)
{
	struct om_model *m = full_model();
	uint8_t *b;
	size_t len;

	write_ok(m, &b, &len);
	EXPECT_EDIT(OM_ERR_FORMAT, c[0] ^= 1, "magic");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 4, 255), "headsize");
	EXPECT_EDIT(OM_ERR_FORMAT, wr64(c + 184, len - 255), "model_length + 1");
	EXPECT_EDIT(OM_ERR_FORMAT, wr64(c + 184, len - 257), "model_length - 1");
	EXPECT_EDIT(OM_ERR_FORMAT, wr64(c + 184, UINT64_MAX), "model_length huge");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 256, 0), "num 0");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 256, 9), "num 9");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 256, UINT32_MAX), "num huge");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 256, 3), "num 3: the table overlaps the data");
	EXPECT_EDIT(OM_ERR_FORMAT, wr64(c + 280, rd64(c + 280) - 1), "partitions short of the end");
	EXPECT_EDIT(OM_ERR_FORMAT, wr64(c + 280, rd64(c + 280) + 1), "a partition past the end");
	EXPECT_EDIT(OM_ERR_FORMAT, wr64(c + 280, UINT64_MAX), "a partition of 2^64 - 1 bytes");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 288, 0), "two MODEL_DEF partitions");
	EXPECT_EDIT(OM_ERR_FORMAT, wr32(c + 264, 1), "two WEIGHTS_DATA, no MODEL_DEF");
	EXPECT_EDIT(OM_ERR_FORMAT, c[193] = 2, "is_unknow_model 2");
	EXPECT_EDIT(OM_ERR_FORMAT, memset(c + 256 + 56, 0xff, 16), "garbage ModelDef");
	/* The weights disagree with the ModelDef's weight_size: move 4 bytes. */
	EXPECT_EDIT(OM_ERR_FORMAT,
		    (wr64(c + 280, rd64(c + 280) + 4), wr64(c + 296, rd64(c + 296) + 4),
		     wr64(c + 304, rd64(c + 304) - 4)),
		    "ModelDef size changed");
	EXPECT_EDIT(OM_ERR_FOREIGN, c[80] = 1, "encrypted");
	EXPECT_EDIT(OM_ERR_FOREIGN, c[82] = 3, "a flow model");
	EXPECT_EDIT(OM_ERR_FOREIGN, wr32(c + 156, 2), "two models");
	EXPECT_EDIT(OM_ERR_FOREIGN, wr32(c + 288, OM_PART_TASK_INFO), "TASK_INFO");
	EXPECT_EDIT(OM_ERR_FOREIGN, wr32(c + 288, OM_PART_TBE_KERNELS), "TBE_KERNELS");
	EXPECT_EDIT(OM_ERR_FOREIGN, wr32(c + 288, 8), "MODEL_INOUT_INFO");
	/* The name and the checksum are not read. */
	{
		uint8_t *c = xmemdup(b, len);
		struct om_model *r;

		memset(c + 84, 'z', 32);
		memset(c + 12, 0xa5, 64);
		r = read_ok(c, len);
		om_model_free(r);
		free(c);
	}
	free(b);
	om_model_free(m);
}
END_TEST

/* A container around @n partitions (@types, @data, @sizes), 24-byte or 12-byte entries. */
static uint8_t *container(uint32_t n, const uint32_t *types, const uint8_t *const *data,
			  const size_t *sizes, bool tiny, size_t *len)
{
	size_t table = tiny ? 4 + 12 * n : 8 + 24 * n, total = 256 + table, off = 0;
	uint8_t *b;

	for (uint32_t i = 0; i < n; i++)
		total += sizes[i];
	b = calloc(1, total);
	ck_assert_ptr_nonnull(b);
	wr32(b, OM_MAGIC);
	wr32(b + 4, 256);
	wr32(b + 8, OM_VERSION);
	wr32(b + 156, 1);
	if (tiny)
		wr32(b + 76, (uint32_t)(total - 256));
	else
		wr64(b + 184, total - 256);
	wr32(b + 256, n);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = b + 256 + (tiny ? 4 + 12 * i : 8 + 24 * i);

		wr32(e, types[i]);
		if (tiny) {
			wr32(e + 4, (uint32_t)off);
			wr32(e + 8, (uint32_t)sizes[i]);
		} else {
			wr64(e + 8, off);
			wr64(e + 16, sizes[i]);
		}
		if (sizes[i])
			memcpy(b + 256 + table + off, data[i], sizes[i]);
		off += sizes[i];
	}
	*len = total;
	return b;
}


/*
 * ModelDefs unpacked into a pool: the edits below point fields at static
 * strings and arrays, so nothing is freed piece by piece; the pool goes
 * at once.
 */
struct pool {
	void **p;
	size_t n;
};

static void *pool_alloc(void *data, size_t size)
{
	struct pool *pl = data;
	void *q = calloc(1, size ? size : 1);

	ck_assert_ptr_nonnull(q);
	pl->p = grow(pl->p, pl->n + 1, sizeof(void *));
	pl->p[pl->n++] = q;
	return q;
}

static void pool_nofree(void *data, void *ptr)
{
	(void)data;
	(void)ptr;
}

static void pool_release(struct pool *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		free(pl->p[i]);
	free(pl->p);
	pl->p = NULL;
	pl->n = 0;
}

/* The MODEL_DEF partition of the file vnpu writes for @m, unpacked into @pl. */
static Ge__Proto__ModelDef *modeldef_of(const struct om_model *m, struct pool *pl)
{
	ProtobufCAllocator a = { pool_alloc, pool_nofree, pl };
	uint8_t *b;
	size_t len;
	Ge__Proto__ModelDef *md;

	write_ok(m, &b, &len);
	md = ge__proto__model_def__unpack(&a, (size_t)rd64(b + 280),
					  b + 256 + 8 + 24 * rd32(b + 256));
	ck_assert_ptr_nonnull(md);
	free(b);
	return md;
}

/* @md packed into a container with @m's weights, read back expecting @code. */
static void expect_modeldef(const struct om_model *m, const Ge__Proto__ModelDef *md,
			    enum om_err code, const char *what)
{
	size_t n = ge__proto__model_def__get_packed_size(md), len;
	uint8_t *p = malloc(n ? n : 1), *b;
	const uint8_t *data[2] = { p, m->weights };
	size_t sizes[2] = { n, (size_t)m->weights_size };
	uint32_t types[2] = { OM_PART_MODEL_DEF, OM_PART_WEIGHTS_DATA };

	ge__proto__model_def__pack(md, p);
	b = container(m->weights_size ? 2 : 1, types, data, sizes, false, &len);
	if (code == OM_OK)
		om_model_free(read_ok(b, len));
	else
		read_fails(b, len, code, what);
	free(b);
	free(p);
}

static Ge__Proto__AttrDef *model_attr(Ge__Proto__ModelDef *md, const char *key)
{
	for (size_t i = 0; i < md->n_attr; i++)
		if (!strcmp(md->attr[i]->key, key))
			return md->attr[i]->value;
	ck_abort_msg("no ModelDef attribute '%s'", key);
	return NULL;
}

START_TEST(foreign)
{
	struct pool pl = { 0 };
	struct om_model *m = full_model();
	Ge__Proto__ModelDef *md = modeldef_of(m, &pl), bare = GE__PROTO__MODEL_DEF__INIT;
	Ge__Proto__AttrDef *ver = model_attr(md, "vnpu_om_version");
	static const uint8_t task[] = { 0x0a, 0x00 };
	uint32_t types[3] = { OM_PART_MODEL_DEF, OM_PART_TASK_INFO, OM_PART_WEIGHTS_DATA };
	const uint8_t *data[3];
	size_t sizes[3], len, n = ge__proto__model_def__get_packed_size(md);
	uint8_t *p = malloc(n), *b;
	struct om_error err;
	struct om_model *r;

	ge__proto__model_def__pack(md, p);
	data[0] = p;
	sizes[0] = n;
	data[1] = task;
	sizes[1] = sizeof(task);
	data[2] = m->weights;
	sizes[2] = (size_t)m->weights_size;

	/* ATC's output: MODEL_DEF, TASK_INFO, WEIGHTS_DATA (vnpu's own ModelDef inside). */
	b = container(3, types, data, sizes, false, &len);
	ck_assert_int_eq(om_read(b, len, &r, &err), OM_ERR_FOREIGN);
	ck_assert_msg(strstr(err.msg, "Ascend hardware") && strstr(err.msg, "vnpu-atc"), "%s",
		      err.msg);
	free(b);
	types[1] = OM_PART_TBE_KERNELS;
	b = container(3, types, data, sizes, false, &len);
	read_fails(b, len, OM_ERR_FOREIGN, "TBE_KERNELS");
	free(b);
	/* The older 12-byte table: read as GE reads it, and foreign all the same. */
	b = container(3, types, data, sizes, true, &len);
	read_fails(b, len, OM_ERR_FOREIGN, "tiny table, TBE_KERNELS");
	free(b);
	types[1] = OM_PART_WEIGHTS_DATA;
	b = container(1, types + 1, data + 2, sizes + 2, true, &len);
	read_fails(b, len, OM_ERR_FORMAT, "tiny table, no MODEL_DEF");
	free(b);
	{
		const uint8_t *d2[2] = { p, m->weights };
		size_t s2[2] = { n, sizes[2] };

		b = container(2, types, d2, s2, true, &len);
		b[193] = 1;	/* is_unknow_model */
		r = read_ok(b, len);
		assert_model_eq(m, r);
		om_model_free(r);
		free(b);
	}
	free(p);

	/* A ModelDef without vnpu's marker; one from a newer vnpu. */
	bare.name = "resnet50";
	expect_modeldef(m, &bare, OM_ERR_FOREIGN, "no vnpu_om_version");
	ver->i = OM_VNPU_VERSION + 1;
	expect_modeldef(m, md, OM_ERR_FOREIGN, "newer vnpu_om_version");
	ver->i = 0;
	expect_modeldef(m, md, OM_ERR_FORMAT, "vnpu_om_version 0");
	ver->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
	expect_modeldef(m, md, OM_ERR_FORMAT, "vnpu_om_version a float");
	ver->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
	ver->i = OM_VNPU_VERSION;
	expect_modeldef(m, md, OM_OK, "as written");
	pool_release(&pl);
	om_model_free(m);
}
END_TEST

/* ---- ModelDefs broken one way each --------------------------------------------- */

static Ge__Proto__OpDef *find_op(Ge__Proto__ModelDef *md, const char *name)
{
	Ge__Proto__GraphDef *g = md->graph[0];

	for (size_t i = 0; i < g->n_op; i++)
		if (!strcmp(g->op[i]->name, name))
			return g->op[i];
	ck_abort_msg("no op '%s'", name);
	return NULL;
}

static Ge__Proto__AttrDef *find_attr(Ge__Proto__OpDef *op, const char *key)
{
	for (size_t i = 0; i < op->n_attr; i++)
		if (!strcmp(op->attr[i]->key, key))
			return op->attr[i]->value;
	ck_abort_msg("no attribute '%s'", key);
	return NULL;
}

/* Edit @i of a ModelDef of full_model(): what it breaks and the code it gets. */
static const char *edit(int i, Ge__Proto__ModelDef *md, enum om_err *code)
{
	static char *ins[VOPS_MAX_INPUTS + 1];
	static Ge__Proto__TensorDescriptor *descs[VOPS_MAX_INPUTS + 1];
	Ge__Proto__GraphDef *g = md->graph[0];
	Ge__Proto__OpDef *add = find_op(md, "add0"), *x = find_op(md, "x");
	Ge__Proto__OpDef *split = find_op(md, "split0");

	*code = OM_ERR_FORMAT;
	switch (i) {
	case 0: add->input[0] = "x:1"; return "an input string of the wrong port";
	case 1: add->input[0] = "x"; return "an input string without a port";
	case 2: add->input[0] = "y:0"; return "an input string of the wrong op";
	case 3: add->input_desc[1]->name = "nosuch"; return "an input descriptor naming no value";
	case 4: g->op[g->n_op - 1]->type = "Other"; return "no NetOutput";
	case 5: add->type = "NetOutput"; return "two NetOutputs";
	case 6: add->output_desc[0]->layout = "NCHWX"; return "an unknown layout";
	case 7: add->output_desc[0]->dtype = GE__PROTO__DATA_TYPE__DT_QINT8;
		return "a DataType without an aclDataType";
	case 8: find_attr(x, "index")->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
		return "a Data op index not an int";
	case 9: x->n_attr = 0; return "a Data op without index";
	case 10: find_attr(x, "index")->i = 2; return "a Data op index out of range";
	case 11: find_attr(x, "index")->i = 1; return "two Data ops of one index";
	case 12: find_attr(add, "li")->list->val_type =
			GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING;
		return "a list attribute of strings";
	case 13: find_attr(add, "i_zero")->value_case = GE__PROTO__ATTR_DEF__VALUE_EXPRESSION;
		find_attr(add, "i_zero")->expression = (ProtobufCBinaryData){ 1, (uint8_t *)"e" };
		return "an expression attribute";
	case 14: find_attr(add, "s")->s.data[1] = 0; return "a string attribute holding a NUL";
	case 15: find_attr(add, "dt")->dt = (int64_t)INT32_MAX + 1;
		return "a dtype attribute past int32";
	case 16: add->attr[0]->value = NULL; return "an attribute of no value";
	case 17: model_attr(md, "weight_size")->i = 13;
		return "weight_size disagreeing with the partition";
	case 18: md->attr[2]->key = "not_weight_size"; return "no weight_size";
	case 19: find_op(md, "w")->output_desc[0]->data_offset = -1;
		return "a Const of negative data_offset";
	case 20: find_op(md, "w")->output_desc[0]->data_offset = 4; *code = OM_ERR_INVALID;
		return "a Const outside the weights";
	case 21: x->output_desc[0]->attr[0]->value->list_list_int->list_list_i[1]->n_list_i = 1;
		return "a shape_range of the wrong length";
	case 22: x->output_desc[0]->attr[0]->value->list_list_int->n_list_list_i = 3;
		return "a shape_range of the wrong rank";
	case 23: descs[0] = descs[1] = x->output_desc[0]; x->n_output_desc = 2;
		x->output_desc = descs;
		return "a Data op with two output descriptors";
	case 24: find_op(md, "w")->n_output_desc = 0; return "a Const op without its descriptor";
	case 25:
		/* split0 before add0: it reads y, which add0 makes. */
		for (size_t k = 0; k < g->n_op; k++)
			g->op[k] = g->op[k] == add ? split : g->op[k] == split ? add : g->op[k];
		*code = OM_ERR_INVALID;
		return "a node reading a value of a later node";
	case 26: md->n_graph = 0; return "no graph";
	case 27: add->output_desc[0]->name = "x"; *code = OM_ERR_INVALID;
		return "two values of one name";
	case 28: add->n_input_desc = 1; return "more inputs than input descriptors";
	case 29: model_attr(md, "vnpu_dynamic")->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
		return "vnpu_dynamic not an int";
	case 30: model_attr(md, "vnpu_dynamic")->i = OM_DYNAMIC_BATCH; *code = OM_ERR_INVALID;
		return "a dynamic mode without gears";
	case 31: model_attr(md, "vnpu_dynamic")->i = -1; return "a negative dynamic mode";
	case 32: model_attr(md, "soc_version")->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
		return "soc_version not a string";
	case 33:
		for (int k = 0; k <= VOPS_MAX_INPUTS; k++) {
			ins[k] = "x:0";
			descs[k] = x->output_desc[0];
		}
		add->n_input = add->n_input_desc = VOPS_MAX_INPUTS + 1;
		add->input = ins;
		add->input_desc = descs;
		*code = OM_ERR_INVALID;
		return "33 inputs";
	case 34: split->n_output_desc = 0; *code = OM_ERR_INVALID; return "a node of no outputs";
	case 35: x->output_desc[0]->shape->n_dim = VOPS_MAX_RANK + 1; *code = OM_ERR_INVALID;
		x->output_desc[0]->shape->dim = calloc(VOPS_MAX_RANK + 1, sizeof(int64_t));
		return "129 dimensions";
	case 36: g->op[g->n_op - 1]->n_input_desc = 3; return "NetOutput inputs and descriptors";
	}
	return NULL;
}

#define N_EDITS 37

START_TEST(modeldef_edits)
{
	struct pool pl = { 0 };
	struct om_model *m = full_model();
	Ge__Proto__ModelDef *md = modeldef_of(m, &pl);
	int64_t *dims = md->graph[0]->op[0]->output_desc[0]->shape->dim;
	enum om_err code;
	const char *what = edit(_i, md, &code);

	ck_assert_ptr_nonnull(what);
	expect_modeldef(m, md, code, what);
	if (md->graph[0]->op[0]->output_desc[0]->shape->dim != dims)
		free(md->graph[0]->op[0]->output_desc[0]->shape->dim);
	pool_release(&pl);
	om_model_free(m);
}
END_TEST

/* Append a varint to @p at *n. */
static void varint(uint8_t *p, size_t *n, uint64_t v)
{
	do {
		p[(*n)++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

/* Messages nested far deeper than any of vnpu's are skipped whole, not recursed into. */
START_TEST(deep_nesting)
{
	struct om_model *m = small_model(), *r;
	size_t depth = 200000, cap = depth * 6, pos = cap, n, h = 0, len;
	uint8_t *nest = malloc(cap), *p, hdr[32], *b;
	uint32_t type = OM_PART_MODEL_DEF;
	const uint8_t *data[1];
	void *mb;

	/* AttrDef field 10 (GE's func, not in vnpu's schema) inside itself, depth times. */
	for (size_t k = 0; k < depth; k++) {
		uint8_t v[10];
		size_t nv = 0;

		varint(v, &nv, cap - pos);
		pos -= nv;
		memcpy(nest + pos, v, nv);
		nest[--pos] = (10 << 3) | 2;
	}
	/* Appended to vnpu's ModelDef: attr (11) entry {key "deep", value <the nest>}. */
	ck_assert_int_eq(om_write(m, &mb, &n, NULL), OM_OK);
	n = (size_t)rd64((uint8_t *)mb + 280);
	p = malloc(n + 32 + (cap - pos));
	memcpy(p, (uint8_t *)mb + 256 + 32, n);
	free(mb);
	{
		uint8_t vl[10];
		size_t nv = 0;

		varint(vl, &nv, cap - pos);
		hdr[h++] = (11 << 3) | 2;
		varint(hdr, &h, 6 + 1 + nv + (cap - pos));
		hdr[h++] = (1 << 3) | 2;
		hdr[h++] = 4;
		memcpy(hdr + h, "deep", 4);
		h += 4;
		hdr[h++] = (2 << 3) | 2;
		memcpy(hdr + h, vl, nv);
		h += nv;
	}
	memcpy(p + n, hdr, h);
	memcpy(p + n + h, nest + pos, cap - pos);
	n += h + cap - pos;
	data[0] = p;
	b = container(1, &type, data, &n, false, &len);
	r = read_ok(b, len);
	assert_model_eq(m, r);
	om_model_free(r);
	free(b);
	free(p);
	free(nest);
	om_model_free(m);
}
END_TEST

/* ---- om_model_check ---------------------------------------------------------- */

/* Breach @i of one rule, on a fresh full_model() (batch_model() from 40 on). */
static const char *breach(int i, struct om_model *m)
{
	struct om_value *x = &m->values[0], *w = &m->values[2];
	struct om_node *add = &m->nodes[0], *split = m->nnodes > 1 ? &m->nodes[1] : NULL;

	switch (i) {
	case 0: free(m->name); m->name = NULL; return "no model name";
	case 1: free(m->soc_version); m->soc_version = NULL; return "no soc_version";
	case 2: free(w->name); w->name = xstrdup("x"); return "two values named x";
	case 3: free(w->name); w->name = xstrdup(""); return "an empty value name";
	case 4: w->kind = 7; return "a value kind";
	case 5: w->dtype = 999; return "a dtype";
	case 6: w->dtype = ACL_DT_UNDEFINED; return "ACL_DT_UNDEFINED";
	case 7: w->format = 999; return "a format";
	case 8: x->ndim = VOPS_MAX_RANK + 1; return "129 dimensions";
	case 9: x->dims[1] = -2; return "a dimension of -2";
	case 10: w->range = calloc(2, sizeof(int64_t)); w->range[0] = w->range[1] = 3;
		return "a range on a constant";
	case 11: x->dims[0] = 2; return "a range on an input of no -1";
	case 12: x->range[0] = 9; return "a range of min > max";
	case 13: x->range[0] = -1; return "a range of min < 0";
	case 14: x->range[2] = 2; return "a range not {d, d} on a static dimension";
	case 15: w->weight_size = 8; return "weight_size not elements * size";
	case 16: w->weight_offset = 4; return "a constant past the weights";
	case 17: w->weight_offset = UINT64_MAX; return "a constant offset overflowing";
	case 18: w->dims[0] = -1; return "a constant of a -1 dimension";
	case 19: w->dtype = ACL_STRING; return "a constant of no element size";
	case 20: m->values[value_index(m, "y")].port = 1; return "a node value of the wrong port";
	case 21: m->values[value_index(m, "y")].node = 9; return "a node value of no node";
	case 22: m->ninputs = 1; return "an input value not a graph input";
	case 23: m->inputs[1] = 99; return "a graph input out of range";
	case 24: m->inputs[1] = 0; return "a graph input twice";
	case 25: m->inputs[1] = 2; return "a graph input that is a constant";
	case 26: m->outputs[2] = 99; return "a graph output out of range";
	case 27: add->in[1] = 99; return "a node input out of range";
	case 28: add->in[1] = split->out[0]; return "a node input made later";
	case 29: add->in[1] = add->out[0]; return "a node reading itself";
	case 30: split->out[1] = split->out[0]; return "a node output not its port";
	case 31: add->nin = VOPS_MAX_INPUTS + 1; return "33 inputs";
	case 32: split->nout = VOPS_MAX_OUTPUTS + 1; return "17 outputs";
	case 33: free(add->type); add->type = xstrdup("Const"); return "a node of type Const";
	case 34: free(add->type); add->type = xstrdup(""); return "a node of no type";
	case 35: free(add->attrs[1].name); add->attrs[1].name = xstrdup("b_true");
		return "two attributes of one name";
	case 36: free(add->attrs[7].s); add->attrs[7].s = NULL; return "a NULL string attribute";
	case 37: add->attrs[11].li.n = -1; return "a list of -1 values";
	case 38: add->attrs[0].kind = 99; return "an attribute kind";
	case 39: free(m->weights); m->weights = NULL; return "weights_size without weights";
	/* batch_model(): inputs a [-1, 4] and the gear input, gears 1, 2, 4. */
	case 40: m->dynamic = OM_DYNAMIC_NONE; return "gears without a mode";
	case 41: m->gear_len = 2; return "batch gears of 2 values";
	case 42: m->ngears = 0; return "a mode without gears";
	case 43: m->ngears = 129; return "129 gears";
	case 44: m->gears[1] = 0; return "a gear of 0";
	case 45: m->values[m->inputs[1]].dtype = ACL_INT32; return "a gear input not int64";
	case 46: m->values[m->inputs[1]].dims[0] = 2; return "a gear input of the wrong length";
	case 47: m->nodes[0].in[0] = m->inputs[1]; return "a node reading the gear input";
	case 48: { uint32_t t = m->inputs[0]; m->inputs[0] = m->inputs[1]; m->inputs[1] = t; }
		return "the gear input not last";
	case 49: m->dynamic = OM_DYNAMIC_DIMS; m->values[m->inputs[0]].dims[1] = -1;
		return "dims gears of the wrong length";
	case 50: m->dynamic = 7; return "a dynamic mode";
	case 51: m->dynamic = OM_DYNAMIC_HW; return "hw gears of 1 value";
	case 52: free(m->values[m->inputs[0]].dims); m->values[m->inputs[0]].dims = NULL;
		return "dimensions without dims";
	}
	return NULL;
}

#define N_BREACHES 53

START_TEST(check_rules)
{
	struct om_model *m = _i < 40 ? full_model() : batch_model();
	struct om_error err;
	const char *what;
	void *buf = (void *)1;
	size_t len;

	ck_assert_msg(om_model_check(m, &err) == OM_OK, "%s", err.msg);
	what = breach(_i, m);
	ck_assert_ptr_nonnull(what);
	ck_assert_msg(om_model_check(m, &err) == OM_ERR_INVALID, "%s: accepted", what);
	ck_assert_int_eq(err.code, OM_ERR_INVALID);
	ck_assert_msg(err.msg[0], "%s: no message", what);
	ck_assert_int_eq(om_write(m, &buf, &len, NULL), OM_ERR_INVALID);
	ck_assert_ptr_null(buf);
	om_model_free(m);
}
END_TEST

/* ---- fuzz ----------------------------------------------------------------------- */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Flip 1 to 4 random bytes of a valid file, a few thousand times, and
 * sometimes cut it short: any answer but a crash, and a model that reads
 * writes again.
 */
START_TEST(byte_flips)
{
	struct om_model *m = full_model();
	uint8_t *b, *c;
	size_t len;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned int ok = 0, codes[OM_ERR_NOMEM + 1] = { 0 };

	write_ok(m, &b, &len);
	c = malloc(len);
	for (int iter = 0; iter < 5000; iter++) {
		size_t n = len;
		int flips = 1 + (int)(xorshift(&seed) % 4);
		struct om_model *r = NULL;
		struct om_error err;
		enum om_err e;

		memcpy(c, b, len);
		for (int k = 0; k < flips; k++) {
			uint64_t v = xorshift(&seed);

			/* Most flips in the ModelDef, where the parser has work to do. */
			size_t at = (v & 3) ? 256 + 56 + (size_t)(v >> 8) % (len - 256 - 56 - 12)
					    : (size_t)(v >> 8) % len;
			c[at] ^= (uint8_t)(1u << ((v >> 2) & 7));
		}
		if (iter % 10 == 0)
			n = (size_t)(xorshift(&seed) % len);
		e = om_read(c, n, &r, &err);
		ck_assert_int_le(e, OM_ERR_NOMEM);
		codes[e]++;
		if (e == OM_OK) {
			void *buf;
			size_t blen;

			ok++;
			ck_assert_int_eq(om_write(r, &buf, &blen, &err), OM_OK);
			free(buf);
			om_model_free(r);
		} else {
			ck_assert_ptr_null(r);
			ck_assert(err.msg[0]);
		}
	}
	/* The loop reached past the header: formats, invalid graphs, models that still read. */
	ck_assert_uint_gt(codes[OM_ERR_FORMAT], 0);
	ck_assert_uint_gt(codes[OM_ERR_INVALID], 0);
	ck_assert_uint_gt(ok, 0);
	free(c);
	free(b);
	om_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("om");
	TCase *tc = tcase_create("om");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, roundtrip_full);
	tcase_add_test(tc, roundtrip_small);
	tcase_add_test(tc, roundtrip_batch);
	tcase_add_test(tc, roundtrip_hw_and_dims);
	tcase_add_test(tc, roundtrip_types_and_formats);
	tcase_add_test(tc, roundtrip_empty);
	tcase_add_test(tc, file_io);
	tcase_add_test(tc, value_bytes);
	tcase_add_test(tc, header_bytes);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, corrupt_header);
	tcase_add_test(tc, foreign);
	tcase_add_loop_test(tc, modeldef_edits, 0, N_EDITS);
	tcase_add_test(tc, deep_nesting);
	tcase_add_loop_test(tc, check_rules, 0, N_BREACHES);
	tcase_add_test(tc, byte_flips);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
