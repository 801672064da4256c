// SPDX-License-Identifier: MIT
/*
 * make_models: write the test models of issue 15 as ONNX files, and check
 * them on the host.
 *
 *   make_models DIR [NAME...]   write DIR/NAME.onnx for each NAME (mlp, cnn,
 *                               cnn_hw; all three when none is named)
 *   make_models --verify DIR    run every model of DIR on host memory, node
 *                               by node as vnpu-atc maps them (lib/onnx/map,
 *                               lib/ops' vops_plan and vops_run), and compare
 *                               with the CPU references of models.h
 *
 * The models and their weights are tests/onnx/models.h's: opset 13, every
 * weight an initializer from the fixed LCG there, so the files are the same
 * bytes on every run and the programs that check the device's answers
 * compute the same weights themselves. The batch dimension of mlp and cnn
 * is the symbolic "N"; cnn_hw's height and width are "H" and "W".
 *
 * The ONNX messages are built with protobuf-c's generated code for Debian's
 * onnx.proto (lib/onnx/onnx.mk: ONNX_GEN); --verify reads them back with
 * lib/onnx, so a model that lib/onnx or the mapping refuses fails here, on
 * the host, before any conversion.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "models.h"
#include "onnx.pb-c.h"
#include "onnx_map.h"
#include "vnpu_drm.h"
#include "vnpu_onnx.h"
#include "vnpu_ops.h"

#define OPSET 13
#define IR_VERSION 7

/* ---- building messages ---------------------------------------------------------- */

/* Every allocation of one model, freed together once it is written. */
struct arena {
	void **p;
	size_t n, cap;
};

static void *a_new(struct arena *a, size_t size)
{
	void *p;

	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		void **np = realloc(a->p, cap * sizeof(*np));

		if (!np) {
			fprintf(stderr, "make_models: out of memory\n");
			exit(1);
		}
		a->p = np;
		a->cap = cap;
	}
	p = calloc(1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "make_models: out of memory\n");
		exit(1);
	}
	a->p[a->n++] = p;
	return p;
}

static void a_free(struct arena *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->p[i]);
	free(a->p);
	memset(a, 0, sizeof(*a));
}

/* A model under construction: its graph's lists grow as parts are added. */
struct model {
	struct arena a;
	Onnx__ModelProto m;
	Onnx__GraphProto g;
	Onnx__OperatorSetIdProto opset, *opsetp[1];
	Onnx__NodeProto *nodes[16];
	Onnx__TensorProto *inits[16];
	Onnx__ValueInfoProto *inputs[4], *outputs[4];
};

static void model_init(struct model *md, const char *name)
{
	static const Onnx__ModelProto m0 = ONNX__MODEL_PROTO__INIT;
	static const Onnx__GraphProto g0 = ONNX__GRAPH_PROTO__INIT;
	static const Onnx__OperatorSetIdProto o0 = ONNX__OPERATOR_SET_ID_PROTO__INIT;

	memset(md, 0, sizeof(*md));
	md->m = m0;
	md->m.has_ir_version = 1;
	md->m.ir_version = IR_VERSION;
	md->m.producer_name = "vnpu make_models";
	md->opset = o0;
	md->opset.domain = "";
	md->opset.has_version = 1;
	md->opset.version = OPSET;
	md->opsetp[0] = &md->opset;
	md->m.opset_import = md->opsetp;
	md->m.n_opset_import = 1;
	md->g = g0;
	md->g.name = (char *)name;
	md->g.node = md->nodes;
	md->g.initializer = md->inits;
	md->g.input = md->inputs;
	md->g.output = md->outputs;
	md->m.graph = &md->g;
}

/* A FLOAT tensor type of @ndim dimensions: @dims[i] >= 0 a number, else @params[i]. */
static Onnx__ValueInfoProto *value_info(struct model *md, const char *name, int ndim, const int64_t *dims,
					const char *const *params)
{
	static const Onnx__ValueInfoProto v0 = ONNX__VALUE_INFO_PROTO__INIT;
	static const Onnx__TypeProto t0 = ONNX__TYPE_PROTO__INIT;
	static const Onnx__TypeProto__Tensor tt0 = ONNX__TYPE_PROTO__TENSOR__INIT;
	static const Onnx__TensorShapeProto s0 = ONNX__TENSOR_SHAPE_PROTO__INIT;
	static const Onnx__TensorShapeProto__Dimension d0 = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
	Onnx__ValueInfoProto *v = a_new(&md->a, sizeof(*v));
	Onnx__TypeProto *t = a_new(&md->a, sizeof(*t));
	Onnx__TypeProto__Tensor *tt = a_new(&md->a, sizeof(*tt));
	Onnx__TensorShapeProto *s = a_new(&md->a, sizeof(*s));
	Onnx__TensorShapeProto__Dimension **dp = a_new(&md->a, (size_t)ndim * sizeof(*dp));
	int i;

	*v = v0;
	*t = t0;
	*tt = tt0;
	*s = s0;
	v->name = (char *)name;
	v->type = t;
	t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	t->tensor_type = tt;
	tt->has_elem_type = 1;
	tt->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	tt->shape = s;
	for (i = 0; i < ndim; i++) {
		dp[i] = a_new(&md->a, sizeof(**dp));
		*dp[i] = d0;
		if (dims[i] >= 0) {
			dp[i]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			dp[i]->dim_value = dims[i];
		} else {
			dp[i]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			dp[i]->dim_param = (char *)params[i];
		}
	}
	s->dim = dp;
	s->n_dim = (size_t)ndim;
	return v;
}

static void add_input(struct model *md, const char *name, int ndim, const int64_t *dims,
		      const char *const *params)
{
	md->inputs[md->g.n_input++] = value_info(md, name, ndim, dims, params);
}

static void add_output(struct model *md, const char *name, int ndim, const int64_t *dims,
		       const char *const *params)
{
	md->outputs[md->g.n_output++] = value_info(md, name, ndim, dims, params);
}

/* A FLOAT initializer of @ndim dimensions whose values are @data (copied). */
static void add_init(struct model *md, const char *name, int ndim, const int64_t *dims, const float *data)
{
	static const Onnx__TensorProto t0 = ONNX__TENSOR_PROTO__INIT;
	Onnx__TensorProto *t = a_new(&md->a, sizeof(*t));
	size_t count = 1;
	int i;

	*t = t0;
	t->name = (char *)name;
	t->has_data_type = 1;
	t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	t->dims = a_new(&md->a, (size_t)ndim * sizeof(*t->dims));
	for (i = 0; i < ndim; i++) {
		t->dims[i] = dims[i];
		count *= (size_t)dims[i];
	}
	t->n_dims = (size_t)ndim;
	t->float_data = a_new(&md->a, count * sizeof(float));
	memcpy(t->float_data, data, count * sizeof(float));
	t->n_float_data = count;
	md->inits[md->g.n_initializer++] = t;
}

/* An attribute of a node: INT (@n < 0, the value @v[0]) or INTS (@n values). */
struct attr_spec {
	const char *name;
	int n;
	int64_t v[4];
};

/* Node @name: @op of the @nin inputs @in (names), one output @out, attributes @attrs. */
static void add_node(struct model *md, const char *name, const char *op, int nin, const char *const *in,
		     const char *out, int nattrs, const struct attr_spec *attrs)
{
	static const Onnx__NodeProto n0 = ONNX__NODE_PROTO__INIT;
	static const Onnx__AttributeProto at0 = ONNX__ATTRIBUTE_PROTO__INIT;
	Onnx__NodeProto *n = a_new(&md->a, sizeof(*n));
	int i;

	*n = n0;
	n->name = (char *)name;
	n->op_type = (char *)op;
	n->input = a_new(&md->a, (size_t)nin * sizeof(*n->input));
	for (i = 0; i < nin; i++)
		n->input[i] = (char *)in[i];
	n->n_input = (size_t)nin;
	n->output = a_new(&md->a, sizeof(*n->output));
	n->output[0] = (char *)out;
	n->n_output = 1;
	n->attribute = a_new(&md->a, (size_t)nattrs * sizeof(*n->attribute));
	for (i = 0; i < nattrs; i++) {
		Onnx__AttributeProto *at = a_new(&md->a, sizeof(*at));

		*at = at0;
		at->name = (char *)attrs[i].name;
		at->has_type = 1;
		if (attrs[i].n < 0) {
			at->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
			at->has_i = 1;
			at->i = attrs[i].v[0];
		} else {
			at->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
			at->ints = a_new(&md->a, (size_t)attrs[i].n * sizeof(*at->ints));
			memcpy(at->ints, attrs[i].v, (size_t)attrs[i].n * sizeof(*at->ints));
			at->n_ints = (size_t)attrs[i].n;
		}
		n->attribute[i] = at;
	}
	n->n_attribute = (size_t)nattrs;
	md->nodes[md->g.n_node++] = n;
}

/* ---- the models --------------------------------------------------------------------- */

static void build_mlp(struct model *md)
{
	static const char *const batch[] = { "N", NULL };
	static const int64_t x_dims[] = { -1, MDL_MLP_IN }, y_dims[] = { -1, MDL_MLP_OUT };
	static const int64_t w1[] = { MDL_MLP_IN, MDL_MLP_HID }, b1[] = { MDL_MLP_HID };
	static const int64_t w2[] = { MDL_MLP_HID, MDL_MLP_OUT }, b2[] = { MDL_MLP_OUT };
	static const char *const mm1[] = { "x", "W1" }, *const add1[] = { "h1", "B1" }, *const relu[] = { "h2" };
	static const char *const mm2[] = { "h3", "W2" }, *const add2[] = { "h4", "B2" };
	struct mdl_mlp *w;

	model_init(md, "mlp");
	w = a_new(&md->a, sizeof(*w));
	mdl_mlp_init(w);
	add_input(md, "x", 2, x_dims, batch);
	add_output(md, "y", 2, y_dims, batch);
	add_init(md, "W1", 2, w1, w->w1);
	add_init(md, "B1", 1, b1, w->b1);
	add_init(md, "W2", 2, w2, w->w2);
	add_init(md, "B2", 1, b2, w->b2);
	add_node(md, "fc1", "MatMul", 2, mm1, "h1", 0, NULL);
	add_node(md, "fc1_bias", "Add", 2, add1, "h2", 0, NULL);
	add_node(md, "relu1", "Relu", 1, relu, "h3", 0, NULL);
	add_node(md, "fc2", "MatMul", 2, mm2, "h4", 0, NULL);
	add_node(md, "fc2_bias", "Add", 2, add2, "y", 0, NULL);
}

static void build_cnn(struct model *md)
{
	static const char *const batch[] = { "N", NULL, NULL, NULL };
	static const int64_t x_dims[] = { -1, 1, MDL_CNN_HW, MDL_CNN_HW }, y_dims[] = { -1, MDL_CNN_OUT };
	static const int64_t cw[] = { MDL_CNN_C, 1, MDL_K, MDL_K }, cb[] = { MDL_CNN_C };
	static const int64_t fw[] = { MDL_CNN_FLAT, MDL_CNN_OUT }, fb[] = { MDL_CNN_OUT };
	static const char *const conv[] = { "x", "conv_w", "conv_b" }, *const relu[] = { "c1" };
	static const char *const pool[] = { "r1" }, *const flat[] = { "p1" };
	static const char *const gemm[] = { "f1", "fc_w", "fc_b" };
	static const struct attr_spec conv_attrs[] = {
		{ "kernel_shape", 2, { MDL_K, MDL_K } },
		{ "pads", 4, { 1, 1, 1, 1 } },
		{ "strides", 2, { 1, 1 } },
	};
	static const struct attr_spec pool_attrs[] = {
		{ "kernel_shape", 2, { 2, 2 } },
		{ "strides", 2, { 2, 2 } },
	};
	static const struct attr_spec flat_attrs[] = { { "axis", -1, { 1 } } };
	struct mdl_cnn *w;

	model_init(md, "cnn");
	w = a_new(&md->a, sizeof(*w));
	mdl_cnn_init(w);
	add_input(md, "x", 4, x_dims, batch);
	add_output(md, "y", 2, y_dims, batch);
	add_init(md, "conv_w", 4, cw, w->cw);
	add_init(md, "conv_b", 1, cb, w->cb);
	add_init(md, "fc_w", 2, fw, w->fw);
	add_init(md, "fc_b", 1, fb, w->fb);
	add_node(md, "conv1", "Conv", 3, conv, "c1", 3, conv_attrs);
	add_node(md, "relu1", "Relu", 1, relu, "r1", 0, NULL);
	add_node(md, "pool1", "MaxPool", 1, pool, "p1", 2, pool_attrs);
	add_node(md, "flatten", "Flatten", 1, flat, "f1", 1, flat_attrs);
	add_node(md, "fc", "Gemm", 3, gemm, "y", 0, NULL);
}

static void build_cnn_hw(struct model *md)
{
	static const char *const hw[] = { NULL, NULL, "H", "W" };
	static const int64_t x_dims[] = { 1, 1, -1, -1 }, y_dims[] = { 1, MDL_HW_C, -1, -1 };
	static const int64_t cw[] = { MDL_HW_C, 1, MDL_K, MDL_K }, cb[] = { MDL_HW_C };
	static const char *const conv[] = { "x", "conv_w", "conv_b" }, *const relu[] = { "c1" };
	static const struct attr_spec conv_attrs[] = {
		{ "kernel_shape", 2, { MDL_K, MDL_K } },
		{ "pads", 4, { 1, 1, 1, 1 } },
	};
	struct mdl_hw *w;

	model_init(md, "cnn_hw");
	w = a_new(&md->a, sizeof(*w));
	mdl_hw_init(w);
	add_input(md, "x", 4, x_dims, hw);
	add_output(md, "y", 4, y_dims, hw);
	add_init(md, "conv_w", 4, cw, w->cw);
	add_init(md, "conv_b", 1, cb, w->cb);
	add_node(md, "conv1", "Conv", 3, conv, "c1", 2, conv_attrs);
	add_node(md, "relu1", "Relu", 1, relu, "y", 0, NULL);
}

static const struct {
	const char *name;
	void (*build)(struct model *md);
} models[] = {
	{ "mlp", build_mlp },
	{ "cnn", build_cnn },
	{ "cnn_hw", build_cnn_hw },
};

#define NMODELS (sizeof(models) / sizeof(models[0]))

/* Pack @md into @dir/@name.onnx, through a temporary file renamed over it. */
static int write_model(struct model *md, const char *dir, const char *name)
{
	size_t len = onnx__model_proto__get_packed_size(&md->m);
	uint8_t *buf = malloc(len ? len : 1);
	char path[4096], tmp[4200];
	FILE *f;
	int ok;

	if (!buf) {
		fprintf(stderr, "make_models: out of memory\n");
		return -1;
	}
	if (onnx__model_proto__pack(&md->m, buf) != len) {
		fprintf(stderr, "make_models: %s: packing gave a different size\n", name);
		free(buf);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s.onnx", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (!f) {
		fprintf(stderr, "make_models: %s: %s\n", tmp, strerror(errno));
		free(buf);
		return -1;
	}
	ok = fwrite(buf, 1, len, f) == len;
	ok = !fclose(f) && ok;
	free(buf);
	if (!ok || rename(tmp, path)) {
		fprintf(stderr, "make_models: writing %s: %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	printf("make_models: %s (%zu bytes)\n", path, len);
	return 0;
}

/* ---- --verify: the models on host memory ---------------------------------------- */

#define MAX_VALUES 32

/* The values of one run: feeds, initializers (borrowed) and node outputs. */
struct run {
	size_t n;
	struct onnx_tensor *v[MAX_VALUES];
	bool owned[MAX_VALUES];
	bool constant[MAX_VALUES];
};

static void run_free(struct run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->owned[i]) {
			onnx_tensor_release(r->v[i]);
			free(r->v[i]);
		}
	r->n = 0;
}

static struct onnx_tensor *run_find(const struct run *r, const char *name, bool *constant)
{
	size_t i;

	for (i = r->n; i-- > 0;)
		if (!strcmp(r->v[i]->name, name)) {
			if (constant)
				*constant = r->constant[i];
			return r->v[i];
		}
	return NULL;
}

static int run_add(struct run *r, struct onnx_tensor *t, bool owned, bool constant)
{
	if (r->n == MAX_VALUES)
		return -1;
	r->v[r->n] = t;
	r->owned[r->n] = owned;
	r->constant[r->n++] = constant;
	return 0;
}

static void *alloc_aligned(uint64_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, size ? size : 64))
		return NULL;
	return p;
}

/* A new FLOAT tensor @name of @ndim @dims holding @data (taken over). */
static struct onnx_tensor *new_tensor(const char *name, int32_t acl_dtype, int ndim, const int64_t *dims,
				      void *data, size_t size)
{
	struct onnx_tensor *t = calloc(1, sizeof(*t));
	int i;

	if (!t)
		return NULL;
	t->name = strdup(name);
	t->dims = calloc((size_t)(ndim ? ndim : 1), sizeof(*t->dims));
	if (!t->name || !t->dims) {
		free(t->name);
		free(t->dims);
		free(t);
		return NULL;
	}
	t->dtype = acl_dtype == ACL_FLOAT ? ONNX_FLOAT : ONNX_UNDEFINED;
	t->acl_dtype = acl_dtype;
	t->ndim = ndim;
	t->count = 1;
	for (i = 0; i < ndim; i++) {
		t->dims[i] = dims[i];
		t->count *= (uint64_t)dims[i];
	}
	t->size = size;
	t->data = data;
	return t;
}

/* Run node @nd of @m on the values of @r, adding its outputs; 0 or -1 with @why. */
static int run_node(const struct onnx_model *m, const struct onnx_node *nd, struct run *r, char *why,
		    size_t why_size)
{
	struct onnx_map_input in[VOPS_MAX_INPUTS];
	struct vops_tensor vt[VOPS_MAX_INPUTS];
	struct vops_operand ops[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
	void *outs[VOPS_MAX_OUTPUTS] = { 0 }, *ws = NULL;
	struct onnx_call *call = calloc(1, sizeof(*call));
	struct vops_plan *plan = calloc(1, sizeof(*plan));
	struct onnx_error oerr;
	struct vops_error verr;
	enum vops_run_status st;
	unsigned int nops = 0;
	int ret = -1, k;
	size_t i;

	if (!call || !plan || nd->ninputs > VOPS_MAX_INPUTS) {
		snprintf(why, why_size, "node %s: out of memory or too many inputs", nd->name);
		goto out_free;
	}
	for (i = 0; i < nd->ninputs; i++) {
		bool constant = false;
		const struct onnx_tensor *t = run_find(r, nd->inputs[i], &constant);

		if (!t) {
			snprintf(why, why_size, "node %s: input %s has no value", nd->name, nd->inputs[i]);
			goto out_free;
		}
		/* Only constants are values the mapping may read, as in vnpu-atc. */
		in[i] = (struct onnx_map_input){ .present = true, .acl_dtype = t->acl_dtype, .ndim = t->ndim,
						 .dims = t->dims, .value = constant ? t : NULL };
	}
	if (onnx_map_node(nd, m->opset, in, nd->ninputs, call, &oerr)) {
		snprintf(why, why_size, "node %s: %s", nd->name, oerr.msg);
		goto out_free;
	}
	for (k = 0; k < call->nin; k++) {
		const struct onnx_tensor *t = call->in[k] >= ONNX_CALL_MADE ? &call->made[call->in[k] - ONNX_CALL_MADE]
									   : run_find(r, nd->inputs[call->in[k]], NULL);

		vt[k] = (struct vops_tensor){ .dtype = t->acl_dtype, .ndim = t->ndim, .dims = t->dims };
		ops[nops++] = (struct vops_operand){ t->data, t->size, VNPU_OPERAND_READ };
	}
	if (vops_plan(call->type, call->nin, vt, call->nout, call->attrs, call->nattrs, plan, &verr)) {
		snprintf(why, why_size, "node %s: vops_plan(%s): %s", nd->name, call->type, verr.msg);
		goto out;
	}
	for (k = 0; k < call->nout; k++) {
		outs[k] = alloc_aligned(plan->out[k].bytes);
		if (!outs[k]) {
			snprintf(why, why_size, "node %s: out of memory", nd->name);
			goto out;
		}
		ops[nops++] = (struct vops_operand){ outs[k], plan->out[k].bytes, VNPU_OPERAND_WRITE };
	}
	if (plan->ws_bytes) {
		ws = alloc_aligned(plan->ws_bytes);
		if (!ws) {
			snprintf(why, why_size, "node %s: out of memory", nd->name);
			goto out;
		}
		ops[nops++] = (struct vops_operand){ ws, plan->ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(plan->desc, plan->desc_size, ops, nops, NULL, why, why_size);
	if (st != VOPS_RUN_OK)
		goto out;
	for (k = 0; k < call->nout; k++) {
		struct onnx_tensor *t = new_tensor(nd->outputs[call->out[k]], plan->out[k].dtype, plan->out[k].ndim,
						   plan->out[k].dims, outs[k], plan->out[k].bytes);

		if (!t || run_add(r, t, true, false)) {
			if (t) {
				onnx_tensor_release(t);
				free(t);
			} else {
				free(outs[k]);
			}
			outs[k] = NULL;
			snprintf(why, why_size, "node %s: out of memory or values", nd->name);
			goto out;
		}
		outs[k] = NULL;
	}
	ret = 0;
out:
	onnx_call_release(call);
out_free:
	for (k = 0; k < VOPS_MAX_OUTPUTS; k++)
		free(outs[k]);
	free(ws);
	free(call);
	free(plan);
	return ret;
}

/*
 * Run @m with input x of @ndim @dims (values from mdl_input(salt 0)) and
 * compare output y with @ref(x): prints a PASS or FAIL line, returns 0 or -1.
 */
static int verify_one(const struct onnx_model *m, const char *what, int ndim, const int64_t *dims,
		      void (*ref)(const float *x, const int64_t *dims, double *y), const int64_t *ydims, int yndim)
{
	const struct onnx_graph *g = &m->graph;
	size_t xn = 1, yn = 1, i;
	struct run r = { 0 };
	struct onnx_tensor *x, *y;
	double *want = NULL;
	char why[1024] = "";
	float *xd;
	int ret = -1, k;

	for (k = 0; k < ndim; k++)
		xn *= (size_t)dims[k];
	for (k = 0; k < yndim; k++)
		yn *= (size_t)ydims[k];
	xd = alloc_aligned(xn * sizeof(float));
	x = xd ? new_tensor("x", ACL_FLOAT, ndim, dims, xd, xn * sizeof(float)) : NULL;
	if (!x) {
		free(xd);
		snprintf(why, sizeof(why), "out of memory");
		goto out;
	}
	mdl_input(xd, xn, 0);
	if (run_add(&r, x, true, false))
		goto out;
	for (i = 0; i < g->ninits; i++)
		if (run_add(&r, &g->inits[i], false, true)) {
			snprintf(why, sizeof(why), "too many values");
			goto out;
		}
	for (i = 0; i < g->nnodes; i++)
		if (run_node(m, &g->nodes[i], &r, why, sizeof(why)))
			goto out;
	y = g->noutputs == 1 ? run_find(&r, g->outputs[0].name, NULL) : NULL;
	if (!y || y->acl_dtype != ACL_FLOAT || y->ndim != yndim ||
	    memcmp(y->dims, ydims, (size_t)yndim * sizeof(*ydims))) {
		snprintf(why, sizeof(why), "output y missing or not FLOAT of the expected shape");
		goto out;
	}
	want = calloc(yn, sizeof(*want));
	if (!want) {
		snprintf(why, sizeof(why), "out of memory");
		goto out;
	}
	ref(xd, dims, want);
	if (mdl_max_error(y->data, want, yn) > MDL_TOLERANCE) {
		snprintf(why, sizeof(why), "max relative error %.3g", mdl_max_error(y->data, want, yn));
		goto out;
	}
	ret = 0;
	snprintf(why, sizeof(why), "max relative error %.1e", mdl_max_error(y->data, want, yn));
out:
	printf("%s %s: %s\n", ret ? "FAIL" : "PASS", what, why);
	free(want);
	run_free(&r);
	return ret;
}

static struct mdl_mlp ref_mlp;
static struct mdl_cnn ref_cnn;
static struct mdl_hw ref_hw;

static void mlp_ref(const float *x, const int64_t *dims, double *y)
{
	mdl_mlp_ref(&ref_mlp, x, (size_t)dims[0], y);
}

static void cnn_ref(const float *x, const int64_t *dims, double *y)
{
	mdl_cnn_ref(&ref_cnn, x, (size_t)dims[0], y);
}

static void hw_ref(const float *x, const int64_t *dims, double *y)
{
	mdl_hw_ref(&ref_hw, x, (size_t)dims[2], (size_t)dims[3], y);
}

static int verify(const char *dir)
{
	static const int64_t batches[] = { 1, 7, 64 };
	static const int64_t hws[][2] = { { 8, 8 }, { 16, 16 }, { 8, 16 }, { 5, 3 } };
	struct onnx_model *m[NMODELS] = { 0 };
	struct onnx_error err;
	int fails = 0;
	size_t i;

	mdl_mlp_init(&ref_mlp);
	mdl_cnn_init(&ref_cnn);
	mdl_hw_init(&ref_hw);
	for (i = 0; i < NMODELS; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s.onnx", dir, models[i].name);
		if (onnx_model_load(path, &m[i], &err)) {
			printf("FAIL %s: %s\n", path, err.msg);
			fails++;
		}
	}
	for (i = 0; i < sizeof(batches) / sizeof(batches[0]) && m[0] && m[1]; i++) {
		const int64_t b = batches[i];
		const int64_t mx[] = { b, MDL_MLP_IN }, my[] = { b, MDL_MLP_OUT };
		const int64_t cx[] = { b, 1, MDL_CNN_HW, MDL_CNN_HW }, cy[] = { b, MDL_CNN_OUT };
		char what[64];

		snprintf(what, sizeof(what), "mlp batch %lld", (long long)b);
		fails += verify_one(m[0], what, 2, mx, mlp_ref, my, 2) != 0;
		snprintf(what, sizeof(what), "cnn batch %lld", (long long)b);
		fails += verify_one(m[1], what, 4, cx, cnn_ref, cy, 2) != 0;
	}
	for (i = 0; i < sizeof(hws) / sizeof(hws[0]) && m[2]; i++) {
		const int64_t hx[] = { 1, 1, hws[i][0], hws[i][1] }, hy[] = { 1, MDL_HW_C, hws[i][0], hws[i][1] };
		char what[64];

		snprintf(what, sizeof(what), "cnn_hw %lldx%lld", (long long)hws[i][0], (long long)hws[i][1]);
		fails += verify_one(m[2], what, 4, hx, hw_ref, hy, 4) != 0;
	}
	for (i = 0; i < NMODELS; i++)
		onnx_model_free(m[i]);
	printf("%s: %d failed\n", fails ? "FAIL" : "PASS", fails);
	return fails ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: make_models DIR [mlp|cnn|cnn_hw ...]\n"
			"       make_models --verify DIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	int i, status = 0;
	size_t k;

	if (argc == 3 && !strcmp(argv[1], "--verify"))
		return verify(argv[2]);
	if (argc < 2 || argv[1][0] == '-')
		return usage();
	for (k = 0; k < NMODELS; k++) {
		bool wanted = argc == 2;
		struct model md;

		for (i = 2; i < argc && !wanted; i++)
			wanted = !strcmp(argv[i], models[k].name);
		if (!wanted)
			continue;
		models[k].build(&md);
		if (write_model(&md, argv[1], models[k].name))
			status = 1;
		a_free(&md.a);
	}
	for (i = 2; i < argc; i++) {
		bool known = false;

		for (k = 0; k < NMODELS; k++)
			known = known || !strcmp(argv[i], models[k].name);
		if (!known) {
			fprintf(stderr, "make_models: no model named %s\n", argv[i]);
			status = 2;
		}
	}
	return status;
}
