// SPDX-License-Identifier: MIT
/*
 * test_atc.c - vnpu-atc's converter and flag parser (tools/atc/atc.h).
 *
 * The real check of a conversion: the struct om_model's nodes are run in
 * order on host memory by a small interpreter here (vops_plan + vops_run,
 * every planned output checked against the shape the model declares), and
 * the graph outputs compared with the ONNX test's output_*.pb (floats
 * within node_tests.c's tolerance, integers exactly). Hand-built ONNX
 * graphs cover folding, dead code, the order of nodes, unsupported
 * operators; the ONNX test data the rest.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "atc.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"

#define DATA "/usr/share/libonnx-testdata/data"
#define MSG 16384
#define RTOL 1e-3
#define ATOL 1e-7
/* convert_and_run(): find which inputs must be bound. */
static const int auto_marker[1];
#define AUTO_CONSTS auto_marker

/* ---- helpers ------------------------------------------------------------------- */

static enum atc_err parse(struct atc_options *o, char *msg, const char *a1, const char *a2, const char *a3,
			  const char *a4)
{
	char *argv[6] = { "vnpu-atc", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	int argc = 1;

	while (argc < 5 && argv[argc])
		argc++;
	return atc_options_parse(argc, argv, o, msg, MSG);
}

static struct onnx_model *load(const char *test)
{
	char path[512];
	struct onnx_model *m = NULL;
	struct onnx_error err;

	snprintf(path, sizeof(path), "%s/%s/model.onnx", DATA, test);
	ck_assert_msg(!onnx_model_load(path, &m, &err), "%s: %s", path, err.msg);
	return m;
}

static void load_pb(const char *test, const char *kind, int k, struct onnx_tensor *t)
{
	char path[512];
	struct onnx_error err;

	snprintf(path, sizeof(path), "%s/%s/test_data_set_0/%s_%d.pb", DATA, test, kind, k);
	ck_assert_msg(!onnx_tensor_load(path, t, &err), "%s: %s", path, err.msg);
}

static bool is_float(int32_t dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

static double get_f(const void *p, int32_t dt, uint64_t i)
{
	switch (dt) {
	case ACL_FLOAT: return ((const float *)p)[i];
	case ACL_DOUBLE: return ((const double *)p)[i];
	case ACL_FLOAT16: return vops_f16_to_f32(((const uint16_t *)p)[i]);
	case ACL_BF16: return vops_bf16_to_f32(((const uint16_t *)p)[i]);
	default: return 0;
	}
}

static void *alloc_aligned(uint64_t size)
{
	void *p = NULL;

	ck_assert(!posix_memalign(&p, 64, size ? size : 64));
	return p;
}

/* ---- the host interpreter ----------------------------------------------------------- */

/* A value at execution: its bytes and its real shape. */
struct rval {
	void *data;
	bool owned;
	int32_t ndim;
	int64_t dims[VOPS_MAX_RANK];
	uint64_t bytes;
};

struct run {
	const struct om_model *m;
	struct rval *v;
};

/* Check value @i's declared dims take @ndim/@dims (a -1 takes any size). */
static void check_declared(const struct om_value *w, int32_t ndim, const int64_t *dims)
{
	int d;

	ck_assert_msg(w->ndim == ndim, "value %s: rank %d at execution, %d declared", w->name, ndim, w->ndim);
	for (d = 0; d < ndim; d++)
		ck_assert_msg(w->dims[d] < 0 || w->dims[d] == dims[d],
			      "value %s: dimension %d is %lld at execution, %lld declared", w->name, d,
			      (long long)dims[d], (long long)w->dims[d]);
}

/*
 * Run @m with @feeds (one per model input in order; NULL for the gear
 * input, filled from @gear). The results stay in @r (run_free()).
 */
static void run_model(struct run *r, const struct om_model *m, const struct onnx_tensor *const *feeds,
		      const int64_t *gear)
{
	struct vops_plan *plan = malloc(sizeof(*plan));
	uint32_t i, k;

	ck_assert(plan);
	r->m = m;
	r->v = calloc(m->nvalues, sizeof(*r->v));
	ck_assert(r->v);
	for (i = 0; i < m->ninputs; i++) {
		const struct om_value *w = &m->values[m->inputs[i]];
		struct rval *v = &r->v[m->inputs[i]];

		if (!feeds[i]) {
			ck_assert_str_eq(w->name, OM_DYNAMIC_TENSOR_NAME);
			v->data = (void *)gear;
			v->ndim = 1;
			v->dims[0] = m->gear_len;
			v->bytes = m->gear_len * sizeof(int64_t);
			continue;
		}
		ck_assert_int_eq(feeds[i]->acl_dtype, w->dtype);
		check_declared(w, feeds[i]->ndim, feeds[i]->dims);
		v->data = feeds[i]->data;
		v->ndim = feeds[i]->ndim;
		memcpy(v->dims, feeds[i]->dims, (size_t)v->ndim * sizeof(int64_t));
		v->bytes = feeds[i]->size;
	}
	for (i = 0; i < m->nvalues; i++) {
		const struct om_value *w = &m->values[i];

		if (w->kind != OM_VALUE_CONST)
			continue;
		ck_assert(w->weight_offset % 64 == 0);
		ck_assert(w->weight_offset + w->weight_size <= m->weights_size);
		ck_assert_uint_eq(om_value_bytes(w), w->weight_size);
		r->v[i].data = (char *)m->weights + w->weight_offset;
		r->v[i].ndim = w->ndim;
		if (w->ndim)
			memcpy(r->v[i].dims, w->dims, (size_t)w->ndim * sizeof(int64_t));
		r->v[i].bytes = w->weight_size;
	}
	for (i = 0; i < m->nnodes; i++) {
		const struct om_node *n = &m->nodes[i];
		struct vops_tensor vt[VOPS_MAX_INPUTS];
		struct vops_operand ops[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
		void *ins[VOPS_MAX_INPUTS];
		struct vops_error err;
		unsigned int no = 0;
		void *ws = NULL;
		char why[256] = "";

		for (k = 0; k < n->nin; k++) {
			struct rval *v = &r->v[n->in[k]];

			ck_assert_msg(v->data || !v->bytes, "node %s: input %u not computed", n->name, k);
			vt[k] = (struct vops_tensor){ .dtype = m->values[n->in[k]].dtype, .ndim = v->ndim, .dims = v->dims };
		}
		ck_assert_msg(!vops_plan(n->type, (int)n->nin, vt, (int)n->nout, n->attrs, n->nattrs, plan, &err),
			      "node %s (%s): %s", n->name, n->type, err.msg);
		for (k = 0; k < n->nin; k++) {
			/* A copy at an aligned address, of the bytes the plan asks. */
			ins[k] = alloc_aligned(plan->in_bytes[k]);
			memcpy(ins[k], r->v[n->in[k]].data,
			       r->v[n->in[k]].bytes < plan->in_bytes[k] ? r->v[n->in[k]].bytes : plan->in_bytes[k]);
			ops[no++] = (struct vops_operand){ ins[k], plan->in_bytes[k], VNPU_OPERAND_READ };
		}
		for (k = 0; k < n->nout; k++) {
			const struct om_value *w = &m->values[n->out[k]];
			struct rval *v = &r->v[n->out[k]];

			ck_assert_int_eq(w->kind, OM_VALUE_NODE);
			ck_assert_uint_eq(w->node, i);
			ck_assert_uint_eq(w->port, k);
			ck_assert_int_eq(plan->out[k].dtype, w->dtype);
			check_declared(w, plan->out[k].ndim, plan->out[k].dims);
			v->data = alloc_aligned(plan->out[k].bytes);
			memset(v->data, 0xa5, plan->out[k].bytes);
			v->owned = true;
			v->ndim = plan->out[k].ndim;
			memcpy(v->dims, plan->out[k].dims, (size_t)v->ndim * sizeof(int64_t));
			v->bytes = plan->out[k].bytes;
			ops[no++] = (struct vops_operand){ v->data, v->bytes, VNPU_OPERAND_WRITE };
		}
		if (plan->ws_bytes) {
			ws = alloc_aligned(plan->ws_bytes);
			ops[no++] = (struct vops_operand){ ws, plan->ws_bytes, VNPU_OPERAND_WORKSPACE };
		}
		if (!plan->empty)
			ck_assert_msg(vops_run(plan->desc, plan->desc_size, ops, no, NULL, why, sizeof(why)) ==
					      VOPS_RUN_OK,
				      "node %s (%s): %s", n->name, n->type, why);
		for (k = 0; k < n->nin; k++)
			free(ins[k]);
		free(ws);
	}
	free(plan);
}

static void run_free(struct run *r)
{
	uint32_t i;

	for (i = 0; r->v && i < r->m->nvalues; i++)
		if (r->v[i].owned)
			free(r->v[i].data);
	free(r->v);
}

/* Output @k of the run against @want (type, shape, elements). */
static void check_output(const struct run *r, uint32_t k, const struct onnx_tensor *want, double rtol)
{
	const struct om_value *w = &r->m->values[r->m->outputs[k]];
	const struct rval *v = &r->v[r->m->outputs[k]];
	size_t es = vops_dtype_size(w->dtype);
	uint64_t i;

	ck_assert_int_eq(w->dtype, want->acl_dtype);
	ck_assert_int_eq(v->ndim, want->ndim);
	ck_assert(!want->ndim || !memcmp(v->dims, want->dims, (size_t)want->ndim * sizeof(int64_t)));
	for (i = 0; i < want->count; i++) {
		if (!is_float(w->dtype)) {
			ck_assert_msg(!memcmp((const char *)v->data + i * es, (const char *)want->data + i * es, es),
				      "output %u element %llu differs", k, (unsigned long long)i);
			continue;
		}
		double g = get_f(v->data, w->dtype, i), x = get_f(want->data, w->dtype, i);

		ck_assert_msg(isnan(x) ? isnan(g) : isinf(x) ? g == x : fabs(g - x) <= ATOL + rtol * fabs(x),
			      "output %u element %llu: %.9g, want %.9g", k, (unsigned long long)i, g, x);
	}
}

/* @m checked, written as a .om and read back (a new model). */
static struct om_model *roundtrip(const struct om_model *m)
{
	struct om_model *back = NULL;
	struct om_error err;
	void *buf = NULL;
	size_t len = 0;

	ck_assert_msg(!om_model_check(m, &err), "om_model_check: %s", err.msg);
	ck_assert_msg(!om_write(m, &buf, &len, &err), "om_write: %s", err.msg);
	ck_assert_uint_eq(*(const uint32_t *)buf, OM_MAGIC);
	ck_assert_msg(!om_read(buf, len, &back, &err), "om_read: %s", err.msg);
	free(buf);
	ck_assert_uint_eq(back->nnodes, m->nnodes);
	ck_assert_uint_eq(back->ninputs, m->ninputs);
	ck_assert_int_eq(back->dynamic, m->dynamic);
	ck_assert_int_eq(back->dynamic_shape, m->dynamic_shape);
	return back;
}

/*
 * Convert ONNX test @test (inputs @consts bound to their .pb, a NULL-
 * terminated list of feed indices as names) and run it on its first data
 * set against output_*.pb. Returns the model (om_model_free() it).
 */
static struct om_model *convert_and_run(const char *test, const int *consts, struct atc_options *o)
{
	struct onnx_model *onnx = load(test);
	struct onnx_tensor feeds[16], want[16];
	const struct onnx_tensor *in[16] = { 0 };
	struct atc_const_input ci[16];
	int auto_used[17];
	int64_t gear[16];
	struct atc_options local;
	struct om_model *m = NULL, *back;
	char *msg = malloc(MSG);
	uint32_t i, nfeeds = 0, k;
	struct run r;

	ck_assert(msg);
	if (!o) {
		atc_options_init(&local);
		o = &local;
	}
	memset(feeds, 0, sizeof(feeds));
	while (onnx_graph_feed(&onnx->graph, nfeeds)) {
		load_pb(test, "input", (int)nfeeds, &feeds[nfeeds]);
		/* ONNX's data store bfloat16 as uint16 (as node_tests.c fixes up). */
		if (onnx_graph_feed(&onnx->graph, nfeeds)->dtype == ONNX_BFLOAT16) {
			feeds[nfeeds].dtype = ONNX_BFLOAT16;
			feeds[nfeeds].acl_dtype = ACL_BF16;
		}
		nfeeds++;
	}
	if (consts == AUTO_CONSTS) {
		/* No input bound; else every input but the first; else all of them. */
		int tries[3][17], t, f;

		for (t = 0; t < 3; t++) {
			for (f = 0, k = 0; f < (int)nfeeds && f < 16; f++)
				if (t == 2 || (t == 1 && f))
					tries[t][k++] = f;
			tries[t][k] = -1;
		}
		for (t = 0; t < 3; t++) {
			for (k = 0; tries[t][k] >= 0; k++) {
				ci[k].name = onnx_graph_feed(&onnx->graph, (size_t)tries[t][k])->name;
				ci[k].value = feeds[tries[t][k]];
			}
			o->const_inputs = ci;
			o->nconst_inputs = k;
			if (!atc_convert(onnx, o, &m, msg, MSG) || t == 2)
				break;
		}
		memcpy(auto_used, tries[t], sizeof(auto_used));
		consts = auto_used;
	}
	for (k = 0; consts && consts[k] >= 0; k++) {
		ci[k].name = onnx_graph_feed(&onnx->graph, (size_t)consts[k])->name;
		ci[k].value = feeds[consts[k]];
	}
	o->const_inputs = ci;
	o->nconst_inputs = k;
	if (!m)
		ck_assert_msg(!atc_convert(onnx, o, &m, msg, MSG), "%s: %s", test, msg);
	o->const_inputs = NULL;
	o->nconst_inputs = 0;
	/* What runs is the model as a .om holds it: written and read back. */
	back = roundtrip(m);
	om_model_free(m);
	m = back;
	ck_assert_uint_eq(m->noutputs, onnx->graph.noutputs);
	/* The model's inputs: the feeds not bound, in ONNX order. */
	for (i = 0, k = 0; i < nfeeds; i++) {
		const char *name = onnx_graph_feed(&onnx->graph, i)->name;
		bool bound = false;
		size_t c;

		for (c = 0; consts && consts[c] >= 0; c++)
			bound |= consts[c] == (int)i;
		if (bound)
			continue;
		ck_assert_uint_lt(k, m->ninputs);
		ck_assert_str_eq(m->values[m->inputs[k]].name, name);
		ck_assert_int_eq(m->values[m->inputs[k]].kind, OM_VALUE_INPUT);
		in[k++] = &feeds[i];
	}
	/* With gears: the one the data's shapes are, from its -1 dimensions in order. */
	if (m->dynamic != OM_DYNAMIC_NONE) {
		uint32_t g = 0, j;
		int d;

		for (j = 0; j < k; j++)
			for (d = 0; d < m->values[m->inputs[j]].ndim; d++)
				if (m->values[m->inputs[j]].dims[d] < 0 && g < 16 &&
				    (m->dynamic != OM_DYNAMIC_BATCH || !g))
					gear[g++] = in[j]->dims[d];
		ck_assert_uint_eq(g, m->gear_len);
		in[k++] = NULL;
	}
	ck_assert_uint_eq(k, m->ninputs);
	run_model(&r, m, in, gear);
	for (i = 0; i < m->noutputs; i++) {
		ck_assert_str_eq(m->values[m->outputs[i]].name, onnx->graph.outputs[i].name);
		load_pb(test, "output", (int)i, &want[i]);
		if (onnx->graph.outputs[i].dtype == ONNX_BFLOAT16) {
			want[i].dtype = ONNX_BFLOAT16;
			want[i].acl_dtype = ACL_BF16;
		}
		check_output(&r, i, &want[i], RTOL);
		onnx_tensor_release(&want[i]);
	}
	run_free(&r);
	for (i = 0; i < nfeeds; i++)
		onnx_tensor_release(&feeds[i]);
	onnx_model_free(onnx);
	free(msg);
	return m;
}

/* Convert @test with @o and expect failure; the message in @msg. */
static enum atc_err convert_fails(const char *test, const struct atc_options *o, char *msg)
{
	struct onnx_model *onnx = load(test);
	struct om_model *m = (struct om_model *)1;
	enum atc_err ret = atc_convert(onnx, o, &m, msg, MSG);

	ck_assert_msg(ret != ATC_OK, "%s converted", test);
	ck_assert_ptr_null(m);
	onnx_model_free(onnx);
	return ret;
}

static struct om_model *convert_ok(const char *test, const struct atc_options *o)
{
	struct onnx_model *onnx = load(test);
	struct om_model *m = NULL;
	char *msg = malloc(MSG);

	ck_assert(msg);
	ck_assert_msg(!atc_convert(onnx, o, &m, msg, MSG), "%s: %s", test, msg);
	om_model_free(roundtrip(m));
	onnx_model_free(onnx);
	free(msg);
	return m;
}

/* The ONNX node tests listed as passing (tests/onnx/expected, every family). */
static char *listed[1024];
static int nlisted;

static void load_listed(void)
{
	static const char *const files[] = { "binary", "index", "move", "nn", "norm", "reduce", "unary" };
	char line[1024], path[256];
	size_t f;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		FILE *fp;

		snprintf(path, sizeof(path), "tests/onnx/expected/%s.txt", files[f]);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp) && nlisted < 1024) {
			char name[512];

			if (sscanf(line, "%500s pass", name) == 1 && strstr(line, " pass") && name[0] != '#') {
				listed[nlisted] = malloc(strlen(name) + 8);
				if (listed[nlisted])
					sprintf(listed[nlisted++], "node/%s", name);
			}
		}
		fclose(fp);
	}
}

/* Every node test the operator library passes, converted and run as a model. */
START_TEST(convert_node_tests)
{
	struct om_model *m;

	/*
	 * Their input "like" is fed as [1] where the model declares its shape
	 * otherwise: the converter takes the declaration (and refuses the
	 * value bound against it), the node tests only the data.
	 */
	if (strstr(listed[_i], "test_castlike_BFLOAT16_to_FLOAT"))
		return;
	m = convert_and_run(listed[_i], AUTO_CONSTS, NULL);

	om_model_free(m);
}
END_TEST

/* ---- hand-built ONNX graphs ------------------------------------------------------ */

#define MK_MAX 16

struct mk {
	struct onnx_model m;
	struct onnx_node nodes[MK_MAX];
	char *io[MK_MAX][2][4];
	struct onnx_attr attrs[MK_MAX][4];
	int64_t ints[MK_MAX][4][4];
	struct onnx_value_info ins[4], outs[4];
	struct onnx_dim dims[4][4];
	struct onnx_tensor inits[8];
	int64_t idims[8][4];
	float idata[8][1024];
};

static void mk_init(struct mk *k)
{
	memset(k, 0, sizeof(*k));
	k->m.ir_version = 8;
	k->m.opset = 13;
	k->m.producer_name = "test_atc";
	k->m.graph.name = "g";
	k->m.graph.inputs = k->ins;
	k->m.graph.outputs = k->outs;
	k->m.graph.nodes = k->nodes;
	k->m.graph.inits = k->inits;
}

/* A float input of dims @dims (-1: symbolic). */
static void mk_input(struct mk *k, const char *name, int ndim, const int64_t *dims)
{
	size_t i = k->m.graph.ninputs++;
	int d;

	for (d = 0; d < ndim; d++)
		k->dims[i][d] = (struct onnx_dim){ dims[d], dims[d] < 0 ? "N" : "" };
	k->ins[i] = (struct onnx_value_info){ .name = (char *)name, .kind = ONNX_VALUE_TENSOR, .dtype = ONNX_FLOAT,
					      .acl_dtype = ACL_FLOAT, .has_shape = true, .ndim = ndim,
					      .dims = k->dims[i] };
}

static void mk_output(struct mk *k, const char *name)
{
	k->outs[k->m.graph.noutputs++] = (struct onnx_value_info){ .name = (char *)name, .kind = ONNX_VALUE_TENSOR,
								  .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT };
}

/* A float initializer of @n elements, dims {n}, values 1, 2, ... */
static void mk_init_f32(struct mk *k, const char *name, int n)
{
	size_t i = k->m.graph.ninits++;
	int e;

	for (e = 0; e < n; e++)
		k->idata[i][e] = (float)(e + 1);
	k->idims[i][0] = n;
	k->inits[i] = (struct onnx_tensor){ .name = (char *)name, .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT,
					    .ndim = 1, .dims = k->idims[i], .count = (uint64_t)n,
					    .size = (size_t)n * 4, .data = k->idata[i] };
}

/* A float initializer of dims @dims, values from a fixed LCG in [-1, 1). */
static void mk_init_lcg(struct mk *k, const char *name, int ndim, const int64_t *dims)
{
	size_t i = k->m.graph.ninits++;
	uint64_t n = 1, e;
	static uint32_t seed = 12345;
	int d;

	for (d = 0; d < ndim; d++) {
		k->idims[i][d] = dims[d];
		n *= (uint64_t)dims[d];
	}
	ck_assert_uint_le(n, 1024);
	for (e = 0; e < n; e++) {
		seed = seed * 1664525u + 1013904223u;
		k->idata[i][e] = (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
	}
	k->inits[i] = (struct onnx_tensor){ .name = (char *)name, .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT,
					    .ndim = ndim, .dims = k->idims[i], .count = n, .size = n * 4,
					    .data = k->idata[i] };
}

/* An int64 initializer of @n values. */
static void mk_init_i64(struct mk *k, const char *name, int n, const int64_t *v)
{
	size_t i = k->m.graph.ninits++;

	memcpy(k->idata[i], v, (size_t)n * sizeof(int64_t));
	k->idims[i][0] = n;
	k->inits[i] = (struct onnx_tensor){ .name = (char *)name, .dtype = ONNX_INT64, .acl_dtype = ACL_INT64,
					    .ndim = 1, .dims = k->idims[i], .count = (uint64_t)n,
					    .size = (size_t)n * 8, .data = k->idata[i] };
}

/* An INTS attribute of node @n (at most 4 values). */
static void mk_ints(struct mk *k, struct onnx_node *n, const char *name, int cnt, const int64_t *v)
{
	size_t i = (size_t)(n - k->nodes), a = n->nattrs++;

	memcpy(k->ints[i][a], v, (size_t)cnt * sizeof(int64_t));
	k->attrs[i][a] = (struct onnx_attr){ .name = (char *)name, .type = ONNX_ATTR_INTS, .n = (size_t)cnt,
					     .ints = k->ints[i][a] };
}

static struct onnx_node *mk_node(struct mk *k, const char *name, const char *op, const char *in0,
				 const char *in1, const char *out0)
{
	size_t i = k->m.graph.nnodes++;
	struct onnx_node *n = &k->nodes[i];

	k->io[i][0][0] = (char *)in0;
	k->io[i][0][1] = (char *)in1;
	k->io[i][0][2] = NULL;
	k->io[i][1][0] = (char *)out0;
	*n = (struct onnx_node){ .name = (char *)name, .op_type = (char *)op, .domain = "",
				 .ninputs = in1 ? 2 : in0 ? 1 : 0, .noutputs = 1, .inputs = k->io[i][0],
				 .outputs = k->io[i][1], .attrs = k->attrs[i] };
	return n;
}

/* ---- flag parsing ----------------------------------------------------------------- */

START_TEST(opts_forms)
{
	struct atc_options o;
	char msg[MSG];

	ck_assert_int_eq(parse(&o, msg, "--model=a.onnx", "--framework", "5", "--output=out"), ATC_OK);
	ck_assert_str_eq(o.model, "a.onnx");
	ck_assert_int_eq(o.framework, 5);
	ck_assert_str_eq(o.output, "out");
	ck_assert_int_eq(o.log, ATC_LOG_ERROR);
	ck_assert(!o.help);
	ck_assert_int_eq(atc_options_check(&o, msg, MSG), ATC_OK);
	atc_options_release(&o);

	ck_assert_int_eq(parse(&o, msg, "--model", "b.onnx", "--soc_version=Ascend310", "--log=debug"), ATC_OK);
	ck_assert_str_eq(o.model, "b.onnx");
	ck_assert_str_eq(o.soc_version, "Ascend310");
	ck_assert_int_eq(o.log, ATC_LOG_DEBUG);
	ck_assert_int_eq(atc_options_check(&o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "--framework is required"));
	ck_assert_ptr_nonnull(strstr(msg, "--output is required"));
	atc_options_release(&o);

	ck_assert_int_eq(parse(&o, msg, "--help", NULL, NULL, NULL), ATC_OK);
	ck_assert(o.help);
	atc_options_release(&o);
	ck_assert_int_eq(parse(&o, msg, "-h", NULL, NULL, NULL), ATC_OK);
	ck_assert(o.help);
	atc_options_release(&o);
	ck_assert_int_eq(parse(&o, msg, "--log=null", "--input_format=NHWC", NULL, NULL), ATC_OK);
	ck_assert_int_eq(o.log, ATC_LOG_NULL);
	ck_assert_int_eq(o.input_format, ACL_FORMAT_NHWC);
	atc_options_release(&o);
	ck_assert_int_eq(parse(&o, msg, "--log", "warning", "--log-x", NULL), ATC_ERR_USAGE);
	ck_assert_int_eq(parse(&o, msg, "--log", "info", NULL, NULL), ATC_OK);
	ck_assert_int_eq(o.log, ATC_LOG_INFO);
	atc_options_release(&o);
}
END_TEST

START_TEST(opts_errors)
{
	struct atc_options o;
	char msg[MSG];

	/* Every bad flag is reported, not only the first. */
	ck_assert_int_eq(parse(&o, msg, "--mode=0", "--bogus", "model.onnx", "--output="), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "unknown flag --mode"));
	ck_assert_ptr_nonnull(strstr(msg, "unknown flag --bogus"));
	ck_assert_ptr_nonnull(strstr(msg, "\"model.onnx\" is not a flag"));
	ck_assert_ptr_nonnull(strstr(msg, "--output needs a value"));
	ck_assert_ptr_null(o.model);

	ck_assert_int_eq(parse(&o, msg, "--model", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "--model needs a value"));
	ck_assert_int_eq(parse(&o, msg, "--model=a", "--model=b", NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "--model is given more than once"));
	ck_assert_int_eq(parse(&o, msg, "--help=yes", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "--help takes no value"));
	ck_assert_int_eq(parse(&o, msg, "--log=verbose", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_int_eq(o.log, ATC_LOG_ERROR);
	/* A failed parse keeps --log: the caller needs it to report the failure. */
	ck_assert_int_eq(parse(&o, msg, "--log=null", "--bogus", NULL, NULL), ATC_ERR_USAGE);
	ck_assert_int_eq(o.log, ATC_LOG_NULL);
	ck_assert_int_eq(parse(&o, msg, "--input_format=NC1HWC0", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_int_eq(parse(&o, msg, "--", NULL, NULL, NULL), ATC_ERR_USAGE);

	ck_assert_int_eq(parse(&o, msg, "--framework=0", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "Caffe"));
	ck_assert_int_eq(parse(&o, msg, "--framework=1", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "MindSpore"));
	ck_assert_int_eq(parse(&o, msg, "--framework=3", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "TensorFlow"));
	ck_assert_int_eq(parse(&o, msg, "--framework=7", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_int_eq(parse(&o, msg, "--framework=onnx", NULL, NULL, NULL), ATC_ERR_USAGE);

	ck_assert_int_eq(parse(&o, msg, "--dynamic_batch_size=1,2", "--dynamic_dims=1;2", NULL, NULL),
			 ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "one gear flag at most"));

	ck_assert_int_eq(parse(&o, msg, "--vnpu_const_input=x", NULL, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_int_eq(parse(&o, msg, "--vnpu_const_input=x:/nonexistent/x.pb", NULL, NULL, NULL), ATC_ERR_IO);
	ck_assert_ptr_nonnull(strstr(msg, "/nonexistent/x.pb"));
}
END_TEST

START_TEST(opts_input_shape)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:1,3,224,224;in:0:-1,4~8,2~-1,5~5;s:;", &o, msg, MSG), ATC_OK);
	ck_assert_uint_eq(o.ninput_shapes, 3);
	ck_assert_str_eq(o.input_shapes[0].name, "x");
	ck_assert_int_eq(o.input_shapes[0].ndim, 4);
	ck_assert_int_eq(o.input_shapes[0].dims[3], 224);
	ck_assert_int_eq(o.input_shapes[0].range[6], 224);
	ck_assert_int_eq(o.input_shapes[0].range[7], 224);
	/* The last colon ends the name. */
	ck_assert_str_eq(o.input_shapes[1].name, "in:0");
	ck_assert_int_eq(o.input_shapes[1].ndim, 4);
	ck_assert_int_eq(o.input_shapes[1].dims[0], -1);
	ck_assert_int_eq(o.input_shapes[1].range[0], 1);
	ck_assert_int_eq(o.input_shapes[1].range[1], -1);
	ck_assert_int_eq(o.input_shapes[1].dims[1], -1);
	ck_assert_int_eq(o.input_shapes[1].range[2], 4);
	ck_assert_int_eq(o.input_shapes[1].range[3], 8);
	ck_assert_int_eq(o.input_shapes[1].range[4], 2);
	ck_assert_int_eq(o.input_shapes[1].range[5], -1);
	/* "5~5" is no range. */
	ck_assert_int_eq(o.input_shapes[1].dims[3], 5);
	ck_assert_str_eq(o.input_shapes[2].name, "s");
	ck_assert_int_eq(o.input_shapes[2].ndim, 0);
	atc_options_release(&o);
}
END_TEST

static const char *const bad_shapes[] = {
	"x", ":1,2", "x:1,,2", "x:1,", "x:a", "x:-2", "x:0~3", "x:5~3", "x:1~", "x:~4", "x:1;x:2", "", ";",
	"x:1.5", "x:99999999999999999999", "x:1~2~3",
};

START_TEST(opts_input_shape_bad)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_msg(atc_parse_input_shape(bad_shapes[_i], &o, msg, MSG) == ATC_ERR_USAGE, "\"%s\" taken",
		      bad_shapes[_i]);
	ck_assert_msg(strstr(msg, "--input_shape"), "\"%s\": %s", bad_shapes[_i], msg);
	atc_options_release(&o);
}
END_TEST

START_TEST(opts_input_shape_rank)
{
	char s[1024] = "x:1";
	struct atc_options o;
	char msg[MSG];
	int i;

	for (i = 1; i <= VOPS_MAX_RANK; i++)
		strcat(s, ",1");
	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape(s, &o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "more than 128 dimensions"));
	atc_options_release(&o);
}
END_TEST

START_TEST(opts_gears)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_gears("1,2,4", OM_DYNAMIC_BATCH, &o, msg, MSG), ATC_OK);
	ck_assert_int_eq(o.dynamic, OM_DYNAMIC_BATCH);
	ck_assert_uint_eq(o.ngears, 3);
	ck_assert_uint_eq(o.gear_len, 1);
	ck_assert_int_eq(o.gears[2], 4);
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_gears("224,224;448,336", OM_DYNAMIC_HW, &o, msg, MSG), ATC_OK);
	ck_assert_uint_eq(o.ngears, 2);
	ck_assert_uint_eq(o.gear_len, 2);
	ck_assert_int_eq(o.gears[3], 336);
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_gears("1,224,3;2,448,3", OM_DYNAMIC_DIMS, &o, msg, MSG), ATC_OK);
	ck_assert_uint_eq(o.ngears, 2);
	ck_assert_uint_eq(o.gear_len, 3);
	ck_assert_int_eq(o.gears[4], 448);
	atc_options_release(&o);
}
END_TEST

static const struct {
	const char *s;
	enum om_dynamic d;
	const char *says;
} bad_gears[] = {
	{ "1", OM_DYNAMIC_BATCH, "1 gears" },
	{ "0,1", OM_DYNAMIC_BATCH, "not a size" },
	{ "1,1", OM_DYNAMIC_BATCH, "repeats" },
	{ "1,2;3,4", OM_DYNAMIC_BATCH, "one list" },
	{ "1,,2", OM_DYNAMIC_BATCH, "not a size" },
	{ "1,2,", OM_DYNAMIC_BATCH, "missing" },
	{ "224;448", OM_DYNAMIC_HW, "each is \"h,w\"" },
	{ "224,224,3;448,448,3", OM_DYNAMIC_HW, "each is \"h,w\"" },
	{ "1,224;2", OM_DYNAMIC_DIMS, "gear 2 has 1 values" },
	{ "1,224;;2,3", OM_DYNAMIC_DIMS, "empty gear" },
	{ "a,b", OM_DYNAMIC_DIMS, "not a size" },
};

START_TEST(opts_gears_bad)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_msg(atc_parse_gears(bad_gears[_i].s, bad_gears[_i].d, &o, msg, MSG) == ATC_ERR_USAGE,
		      "\"%s\" taken", bad_gears[_i].s);
	ck_assert_msg(strstr(msg, bad_gears[_i].says), "\"%s\": %s", bad_gears[_i].s, msg);
	atc_options_release(&o);
}
END_TEST

START_TEST(opts_gears_many)
{
	char s[1024] = "1";
	struct atc_options o;
	char msg[MSG];
	int i;

	for (i = 2; i <= 101; i++)
		snprintf(s + strlen(s), sizeof(s) - strlen(s), ",%d", i);
	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_gears(s, OM_DYNAMIC_BATCH, &o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "101 gears; give 2 to 100"));
	atc_options_release(&o);
	*strrchr(s, ',') = '\0';
	ck_assert_int_eq(atc_parse_gears(s, OM_DYNAMIC_BATCH, &o, msg, MSG), ATC_OK);
	ck_assert_uint_eq(o.ngears, 100);
	atc_options_release(&o);
}
END_TEST

START_TEST(opts_output_type)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_output_type("FP16", &o, msg, MSG), ATC_OK);
	ck_assert_uint_eq(o.noutput_types, 1);
	ck_assert_ptr_null(o.output_types[0].node);
	ck_assert_int_eq(o.output_types[0].dtype, ACL_FLOAT16);
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_output_type("conv1:0:FP16;a:b:2:INT8", &o, msg, MSG), ATC_OK);
	ck_assert_uint_eq(o.noutput_types, 2);
	ck_assert_str_eq(o.output_types[0].node, "conv1");
	ck_assert_int_eq(o.output_types[0].index, 0);
	ck_assert_str_eq(o.output_types[1].node, "a:b");
	ck_assert_int_eq(o.output_types[1].index, 2);
	ck_assert_int_eq(o.output_types[1].dtype, ACL_INT8);
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_output_type("FP99", &o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_int_eq(atc_parse_output_type("a:b:FP16", &o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_int_eq(atc_parse_output_type("a:0:XX", &o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_int_eq(atc_parse_output_type(":0:FP16", &o, msg, MSG), ATC_ERR_USAGE);
	ck_assert_int_eq(atc_parse_output_type("a:-1:FP16", &o, msg, MSG), ATC_ERR_USAGE);
	atc_options_release(&o);
	ck_assert_int_eq(atc_type_from_name("BOOL"), ACL_BOOL);
	ck_assert_str_eq(atc_type_name(ACL_INT64), "INT64");
}
END_TEST

START_TEST(opts_output_path)
{
	char *p = atc_output_path("out");

	ck_assert_str_eq(p, "out.om");
	free(p);
	p = atc_output_path("dir/out.om");
	ck_assert_str_eq(p, "dir/out.om");
	free(p);
	ck_assert_ptr_null(atc_output_path(NULL));
}
END_TEST

START_TEST(opts_const_input)
{
	char arg[512];
	struct atc_options o;
	char msg[MSG];

	snprintf(arg, sizeof(arg), "--vnpu_const_input=shape:%s/node/test_reshape_extended_dims/test_data_set_0/input_1.pb",
		 DATA);
	ck_assert_int_eq(parse(&o, msg, arg, NULL, NULL, NULL), ATC_OK);
	ck_assert_uint_eq(o.nconst_inputs, 1);
	ck_assert_str_eq(o.const_inputs[0].name, "shape");
	ck_assert_int_eq(o.const_inputs[0].value.dtype, ONNX_INT64);
	atc_options_release(&o);
	ck_assert_int_eq(parse(&o, msg, arg, arg, NULL, NULL), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "given twice"));
}
END_TEST

/* ---- conversions, run against the test data ----------------------------------------- */

static const char *const plain_tests[] = {
	"node/test_add",
	"node/test_add_bcast",
	"node/test_relu",
	"node/test_matmul_2d",
	"node/test_gemm_default_matrix_bias",
	"node/test_gemm_all_attributes",
	"node/test_basic_conv_with_padding",
	"node/test_conv_with_strides_padding",
	"node/test_maxpool_2d_pads",
	"node/test_softmax_axis_1",
	"node/test_transpose_default",
	"node/test_split_equal_parts_1d",
	"node/test_cast_FLOAT_to_FLOAT16",
	"pytorch-converted/test_Conv2d",
	"pytorch-converted/test_Conv2d_groups",
	"pytorch-converted/test_Linear",
	"pytorch-converted/test_BatchNorm2d_eval",
	"pytorch-operator/test_operator_basic",
	"pytorch-operator/test_operator_chunk",
	"pytorch-operator/test_operator_repeat",
	"pytorch-operator/test_operator_flatten",
	"simple/test_single_relu_model",
};

START_TEST(convert_plain)
{
	struct om_model *m = convert_and_run(plain_tests[_i], NULL, NULL);

	ck_assert(!m->dynamic_shape);
	ck_assert_int_eq(m->dynamic, OM_DYNAMIC_NONE);
	om_model_free(m);
}
END_TEST

/* Tests whose shape-defining inputs are bound with const inputs (feed indices). */
static const struct {
	const char *test;
	int consts[6];
	uint32_t nodes;
} const_tests[] = {
	{ "node/test_reshape_reordered_all_dims", { 1, -1 }, 1 },
	{ "node/test_reshape_negative_dim", { 1, -1 }, 1 },
	{ "node/test_reshape_zero_dim", { 1, -1 }, 1 },
	{ "node/test_slice", { 1, 2, 3, 4, -1 }, 1 },
	{ "node/test_expand_dim_changed", { 1, -1 }, 1 },
	{ "node/test_unsqueeze_axis_0", { 1, -1 }, 1 },
	{ "simple/test_expand_shape_model1", { 1, -1 }, 1 },
	/* Every input bound: nothing left to run, the output a constant. */
	{ "node/test_add", { 0, 1, -1 }, 0 },
	{ "pytorch-operator/test_operator_basic", { 0, 1, -1 }, 0 },
};

START_TEST(convert_const_inputs)
{
	struct om_model *m = convert_and_run(const_tests[_i].test, const_tests[_i].consts, NULL);

	ck_assert_uint_eq(m->nnodes, const_tests[_i].nodes);
	if (!m->nnodes) {
		ck_assert_int_eq(m->values[m->outputs[0]].kind, OM_VALUE_CONST);
		ck_assert_uint_eq(m->ninputs, 0);
	}
	om_model_free(m);
}
END_TEST

START_TEST(convert_reshape_needs_const)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(convert_fails("node/test_reshape_reordered_all_dims", &o, msg), ATC_ERR_UNSUPPORTED);
	ck_assert_msg(strstr(msg, "node 'Reshape_0' (Reshape)") && strstr(msg, "must be a constant"), "%s", msg);
}
END_TEST

START_TEST(convert_output_type)
{
	struct atc_options o;
	struct om_model *m;
	uint32_t i;

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_output_type("FP16", &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_relu", &o);
	ck_assert_uint_eq(m->nnodes, 2);
	ck_assert_str_eq(m->nodes[1].type, "Cast");
	ck_assert_str_eq(m->values[m->outputs[0]].name, "y");
	ck_assert_int_eq(m->values[m->outputs[0]].dtype, ACL_FLOAT16);
	ck_assert_uint_eq(m->nodes[1].nattrs, 1);
	ck_assert_str_eq(m->nodes[1].attrs[0].name, "dst_type");
	ck_assert_int_eq(m->nodes[1].attrs[0].i, ACL_FLOAT16);
	/* What the Cast reads took another name. */
	i = m->nodes[1].in[0];
	ck_assert_str_eq(m->values[i].name, "y_before_cast");
	ck_assert_int_eq(m->values[i].dtype, ACL_FLOAT);
	om_model_free(m);
	atc_options_release(&o);

	/* By node and output index; an output already of the type is left alone. */
	ck_assert_int_eq(atc_parse_output_type("Relu_0:0:INT32", &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_relu", &o);
	ck_assert_int_eq(m->values[m->outputs[0]].dtype, ACL_INT32);
	om_model_free(m);
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_output_type("y:0:FP32", &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_relu", &o);
	ck_assert_uint_eq(m->nnodes, 1);
	om_model_free(m);
	atc_options_release(&o);
}
END_TEST

START_TEST(convert_output_type_bad)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_output_type("nosuch:0:FP16", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "no node (nor graph output) nosuch"));
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_output_type("Relu_0:1:FP16", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "has no output 1"));
	atc_options_release(&o);
}
END_TEST

START_TEST(convert_input_format)
{
	struct atc_options o;
	struct om_model *m;

	atc_options_init(&o);
	o.input_format = ACL_FORMAT_NCHW;
	o.soc_version = "Ascend310P3";
	o.output = "dir/net.om";
	m = convert_ok("pytorch-converted/test_Conv2d", &o);
	ck_assert_int_eq(m->values[m->inputs[0]].format, ACL_FORMAT_NCHW);
	ck_assert_int_eq(m->values[m->outputs[0]].format, ACL_FORMAT_ND);
	ck_assert_str_eq(m->soc_version, "Ascend310P3");
	ck_assert_str_eq(m->name, "net");
	/* Initializers listed as inputs (IR 3) are constants, not inputs. */
	ck_assert_uint_eq(m->ninputs, 1);
	om_model_free(m);
}
END_TEST

/* ---- dynamic shapes ------------------------------------------------------------------ */

START_TEST(dynamic_range)
{
	struct atc_options o;
	struct om_model *m;
	const struct om_value *x, *y;

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:1~8,4,-1", &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_relu", &o);
	ck_assert(m->dynamic_shape);
	ck_assert_int_eq(m->dynamic, OM_DYNAMIC_NONE);
	x = &m->values[m->inputs[0]];
	y = &m->values[m->outputs[0]];
	ck_assert_int_eq(x->dims[0], -1);
	ck_assert_int_eq(x->dims[1], 4);
	ck_assert_int_eq(x->dims[2], -1);
	ck_assert_ptr_nonnull(x->range);
	ck_assert_int_eq(x->range[0], 1);
	ck_assert_int_eq(x->range[1], 8);
	ck_assert_int_eq(x->range[2], 4);
	ck_assert_int_eq(x->range[3], 4);
	ck_assert_int_eq(x->range[4], 1);
	ck_assert_int_eq(x->range[5], -1);
	ck_assert_int_eq(y->ndim, 3);
	ck_assert_int_eq(y->dims[0], -1);
	ck_assert_int_eq(y->dims[1], 4);
	ck_assert_int_eq(y->dims[2], -1);
	om_model_free(m);
	atc_options_release(&o);
}
END_TEST

/* A dynamic batch through a MatMul with a constant weight: only dimension 0 varies. */
START_TEST(dynamic_model_dims)
{
	static const int64_t xd[] = { -1, 4 };
	struct atc_options o;
	struct om_model *m;
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 2, xd);
	mk_init_f32(&k, "w", 16);
	k.idims[0][0] = 4;
	k.idims[0][1] = 4;
	k.inits[0].ndim = 2;
	mk_node(&k, "mm", "MatMul", "x", "w", "y");
	mk_output(&k, "y");
	atc_options_init(&o);
	{
		char msg[MSG];

		ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	}
	ck_assert(m->dynamic_shape);
	ck_assert_int_eq(m->values[m->outputs[0]].dims[0], -1);
	ck_assert_int_eq(m->values[m->outputs[0]].dims[1], 4);
	ck_assert_int_eq(m->values[m->inputs[0]].range[0], 1);
	ck_assert_int_eq(m->values[m->inputs[0]].range[1], -1);
	/* And it runs at a batch of 3. */
	{
		static float xv[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1 };
		int64_t dims[2] = { 3, 4 };
		struct onnx_tensor t = { .name = "x", .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT, .ndim = 2,
					 .dims = dims, .count = 12, .size = 48, .data = xv };
		const struct onnx_tensor *feeds[1] = { &t };
		struct run r;
		const float *y;

		run_model(&r, m, feeds, NULL);
		y = r.v[m->outputs[0]].data;
		ck_assert_int_eq(r.v[m->outputs[0]].dims[0], 3);
		/* Rows of the identity pick the weight's rows 0, 1 and 3. */
		ck_assert_float_eq(y[0], 1);
		ck_assert_float_eq(y[4], 5);
		ck_assert_float_eq(y[11], 16);
		run_free(&r);
	}
	om_model_free(m);
}
END_TEST

/* Converted with dynamic dimensions, run at the test data's shapes. */
static const struct {
	const char *test, *shape, *gears;
	enum om_dynamic dynamic;
} dyn_tests[] = {
	{ "pytorch-converted/test_Linear", "0:-1,10", "1,4,8", OM_DYNAMIC_BATCH },
	{ "pytorch-converted/test_Linear", "0:1~16,10", NULL, OM_DYNAMIC_NONE },
	{ "pytorch-converted/test_Linear", "0:-1,10", NULL, OM_DYNAMIC_NONE },
	{ "pytorch-converted/test_Conv2d_strided", "0:-1,3,6,6", "1,2", OM_DYNAMIC_BATCH },
	{ "pytorch-converted/test_Conv2d_strided", "0:2,3,-1,-1", "6,6;9,9", OM_DYNAMIC_HW },
	{ "pytorch-converted/test_Conv2d_strided", "0:1~4,3,6~12,6~12", NULL, OM_DYNAMIC_NONE },
	{ "pytorch-converted/test_BatchNorm2d_eval", "0:-1,3,-1,-1", "2,6,6;1,4,4", OM_DYNAMIC_DIMS },
	{ "pytorch-operator/test_operator_basic", "0:1~4;1:1", NULL, OM_DYNAMIC_NONE },
	{ "node/test_relu", "x:-1,4,-1", NULL, OM_DYNAMIC_NONE },
	{ "node/test_softmax_axis_1", "x:-1,4,5", "1,3,7", OM_DYNAMIC_BATCH },
};

START_TEST(dynamic_run)
{
	struct atc_options o;
	struct om_model *m;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_msg(!atc_parse_input_shape(dyn_tests[_i].shape, &o, msg, MSG), "%s", msg);
	if (dyn_tests[_i].gears)
		ck_assert_msg(!atc_parse_gears(dyn_tests[_i].gears, dyn_tests[_i].dynamic, &o, msg, MSG), "%s", msg);
	m = convert_and_run(dyn_tests[_i].test, NULL, &o);
	ck_assert(m->dynamic_shape);
	ck_assert_int_eq(m->dynamic, dyn_tests[_i].dynamic);
	{
		const struct om_value *y = &m->values[m->outputs[0]];
		bool dyn = false;
		int d;

		for (d = 0; d < y->ndim; d++)
			dyn |= y->dims[d] < 0;
		ck_assert_msg(dyn, "output %s has no -1 dimension", y->name);
	}
	om_model_free(m);
	atc_options_release(&o);
}
END_TEST

/*
 * The CNN of the model tests (Conv pad 1 + bias, Relu, MaxPool 2x2,
 * Reshape to [-1, 64], Gemm): converted with a dynamic batch (a range and
 * gears), it computes what the static conversion does at batch 2.
 */
static void mk_cnn(struct mk *k)
{
	static const int64_t xd[] = { -1, 1, 8, 8 }, wd[] = { 4, 1, 3, 3 }, bd[] = { 4 }, gd[] = { 10, 64 },
			     cd[] = { 10 }, shape[] = { -1, 64 }, pads[] = { 1, 1, 1, 1 }, two[] = { 2, 2 };
	struct onnx_node *n;

	mk_init(k);
	mk_input(k, "x", 4, xd);
	mk_init_lcg(k, "w", 4, wd);
	mk_init_lcg(k, "b", 1, bd);
	mk_init_lcg(k, "gw", 2, gd);
	mk_init_lcg(k, "gb", 1, cd);
	mk_init_i64(k, "shape", 2, shape);
	n = mk_node(k, "conv", "Conv", "x", "w", "c");
	n->ninputs = 3;
	k->io[0][0][2] = "b";
	mk_ints(k, n, "pads", 4, pads);
	mk_node(k, "relu", "Relu", "c", NULL, "r");
	n = mk_node(k, "pool", "MaxPool", "r", NULL, "p");
	mk_ints(k, n, "kernel_shape", 2, two);
	mk_ints(k, n, "strides", 2, two);
	mk_node(k, "flat", "Reshape", "p", "shape", "f");
	n = mk_node(k, "fc", "Gemm", "f", "gw", "y");
	n->ninputs = 3;
	k->io[4][0][2] = "gb";
	k->attrs[4][0] = (struct onnx_attr){ .name = "transB", .type = ONNX_ATTR_INT, .i = 1 };
	n->nattrs = 1;
	mk_output(k, "y");
}

START_TEST(dynamic_cnn)
{
	static const char *const how[][2] = { { "x:2,1,8,8", NULL }, { "x:1~64,1,8,8", NULL }, { "x:-1,1,8,8", "1,2,4" } };
	static float xv[2 * 64];
	int64_t dims[4] = { 2, 1, 8, 8 }, gear[1] = { 2 };
	struct onnx_tensor t = { .name = "x", .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT, .ndim = 4, .dims = dims,
				 .count = 128, .size = 512, .data = xv };
	const struct onnx_tensor *feeds[2] = { &t, NULL };
	float want[20];
	struct mk *k = malloc(sizeof(*k));
	struct om_model *m, *back;
	char msg[MSG];
	size_t h;
	int e;

	ck_assert(k);
	for (e = 0; e < 128; e++)
		xv[e] = (float)((e * 37) % 17) / 8.0f - 1.0f;
	mk_cnn(k);
	for (h = 0; h < 3; h++) {
		struct atc_options o;
		struct run r;

		atc_options_init(&o);
		ck_assert_int_eq(atc_parse_input_shape(how[h][0], &o, NULL, 0), ATC_OK);
		if (how[h][1])
			ck_assert_int_eq(atc_parse_gears(how[h][1], OM_DYNAMIC_BATCH, &o, NULL, 0), ATC_OK);
		ck_assert_msg(!atc_convert(&k->m, &o, &m, msg, MSG), "%s: %s", how[h][0], msg);
		back = roundtrip(m);
		ck_assert_uint_eq(m->nnodes, 5);
		ck_assert_int_eq(m->values[m->outputs[0]].dims[0], h ? -1 : 2);
		ck_assert_int_eq(m->values[m->outputs[0]].dims[1], 10);
		run_model(&r, back, feeds, gear);
		ck_assert_int_eq(r.v[back->outputs[0]].dims[0], 2);
		if (!h)
			memcpy(want, r.v[back->outputs[0]].data, sizeof(want));
		else
			ck_assert(!memcmp(want, r.v[back->outputs[0]].data, sizeof(want)));
		run_free(&r);
		om_model_free(back);
		om_model_free(m);
		atc_options_release(&o);
	}
	free(k);
}
END_TEST

/*
 * PyTorch's x.view(x.size(0), -1) with a dynamic batch: Shape, Gather,
 * Unsqueeze, Concat with [-1], Reshape. The shape is known at each probe
 * ([1, -1], [2, -1]), so the Reshape takes [0, -1] and the rest is dropped.
 */
START_TEST(dynamic_view)
{
	static const int64_t xd[] = { -1, 2, 3 }, zero[1] = { 0 }, minus[1] = { -1 };
	static float xv[18];
	int64_t dims[3] = { 3, 2, 3 };
	struct onnx_tensor t = { .name = "x", .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT, .ndim = 3, .dims = dims,
				 .count = 18, .size = 72, .data = xv };
	const struct onnx_tensor *feeds[1] = { &t };
	struct mk *k = malloc(sizeof(*k));
	struct atc_options o;
	struct onnx_node *n;
	struct om_model *m;
	const struct vops_attr *a;
	char msg[MSG];
	struct run r;
	int e;

	ck_assert(k);
	mk_init(k);
	mk_input(k, "x", 3, xd);
	mk_init_i64(k, "idx", 1, zero);
	k->inits[0].ndim = 0;
	mk_init_i64(k, "axes", 1, zero);
	mk_init_i64(k, "rest", 1, minus);
	mk_node(k, "", "Shape", "x", NULL, "s");
	mk_node(k, "", "Gather", "s", "idx", "b");
	mk_node(k, "", "Unsqueeze", "b", "axes", "b1");
	n = mk_node(k, "", "Concat", "b1", "rest", "shape");
	k->attrs[3][0] = (struct onnx_attr){ .name = "axis", .type = ONNX_ATTR_INT, .i = 0 };
	n->nattrs = 1;
	mk_node(k, "view", "Reshape", "x", "shape", "y");
	mk_output(k, "y");
	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:1~8,2,3", &o, NULL, 0), ATC_OK);
	ck_assert_msg(!atc_convert(&k->m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 1);
	ck_assert_str_eq(m->nodes[0].type, "Reshape");
	a = vops_attr_find(m->nodes[0].attrs, m->nodes[0].nattrs, "shape");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->li.n, 2);
	ck_assert_int_eq(a->li.v[0], 0);
	ck_assert_int_eq(a->li.v[1], -1);
	ck_assert_int_eq(m->values[m->outputs[0]].dims[0], -1);
	ck_assert_int_eq(m->values[m->outputs[0]].dims[1], 6);
	for (e = 0; e < 18; e++)
		xv[e] = (float)e;
	run_model(&r, m, feeds, NULL);
	ck_assert_int_eq(r.v[m->outputs[0]].dims[0], 3);
	ck_assert_int_eq(r.v[m->outputs[0]].dims[1], 6);
	ck_assert(!memcmp(r.v[m->outputs[0]].data, xv, sizeof(xv)));
	run_free(&r);
	om_model_free(m);
	atc_options_release(&o);
	free(k);
}
END_TEST

START_TEST(dynamic_range_refused)
{
	struct atc_options o;
	char msg[MSG];

	/* Add's y is [3, 4, 5]: x's batch can only be 1 or 3, not every size in 1~4. */
	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:1~4,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_add", &o, msg), ATC_ERR_INVALID);
	ck_assert_msg(strstr(msg, "node 'Add_0' (Add) (at x [2, 4, 5]): CANN Add:"), "%s", msg);
	atc_options_release(&o);
	/* Two dynamic dimensions are probed at different sizes: these cannot differ. */
	ck_assert_int_eq(atc_parse_input_shape("x:-1,4,5;y:-1,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_add", &o, msg), ATC_ERR_INVALID);
	ck_assert_msg(strstr(msg, "(at x [2, 4, 5], y [3, 4, 5])"), "%s", msg);
	atc_options_release(&o);
	/* Unless the model names them one symbol. */
	{
		static const int64_t xd[] = { -1, 4 };
		struct om_model *m;
		struct mk k;

		mk_init(&k);
		mk_input(&k, "a", 2, xd);
		mk_input(&k, "b", 2, xd);
		mk_node(&k, "", "Add", "a", "b", "y");
		mk_output(&k, "y");
		ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
		ck_assert_int_eq(m->values[m->outputs[0]].dims[0], -1);
		om_model_free(m);
		/* --input_shape keeps the model's symbols. */
		ck_assert_int_eq(atc_parse_input_shape("a:1~8,4;b:1~8,4", &o, NULL, 0), ATC_OK);
		ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
		om_model_free(m);
		atc_options_release(&o);
	}
	/* The range end is planned too. */
	ck_assert_int_eq(atc_parse_input_shape("x:3~4,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_add", &o, msg), ATC_ERR_INVALID);
	ck_assert_msg(strstr(msg, "at x [4, 4, 5]"), "%s", msg);
	atc_options_release(&o);
	/* Rank changes are refused. */
	ck_assert_int_eq(atc_parse_input_shape("x:3,4", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "has 2 dimensions, the model's has 3"));
	atc_options_release(&o);
	ck_assert_int_eq(atc_parse_input_shape("nosuch:3,4", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "the model has no input nosuch"));
	atc_options_release(&o);
}
END_TEST

/* SAME padding at stride 2 depends on the size: one call cannot serve every size. */
START_TEST(dynamic_attrs_refused)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:1,1,5~8,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_conv_with_autopad_same", &o, msg), ATC_ERR_UNSUPPORTED);
	ck_assert_msg(strstr(msg, "node 'Conv_0' (Conv) (at x [1, 1, 6, 5]): its CANN call") &&
			      strstr(msg, "takes attributes decided by a dynamic dimension"),
		      "%s", msg);
	atc_options_release(&o);
}
END_TEST

/* ---- gears ---------------------------------------------------------------------------- */

static void check_gear_input(const struct om_model *m, uint32_t len)
{
	const struct om_value *g = &m->values[m->inputs[m->ninputs - 1]];

	ck_assert_str_eq(g->name, OM_DYNAMIC_TENSOR_NAME);
	ck_assert_int_eq(g->kind, OM_VALUE_INPUT);
	ck_assert_int_eq(g->dtype, ACL_INT64);
	ck_assert_int_eq(g->ndim, 1);
	ck_assert_int_eq(g->dims[0], len);
}

START_TEST(gears_batch)
{
	struct atc_options o;
	struct om_model *m;
	uint32_t i;

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:-1,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("1,2,4", OM_DYNAMIC_BATCH, &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_relu", &o);
	ck_assert_uint_eq(m->ninputs, 2);
	check_gear_input(m, 1);
	ck_assert_int_eq(m->dynamic, OM_DYNAMIC_BATCH);
	ck_assert_uint_eq(m->ngears, 3);
	ck_assert_uint_eq(m->gear_len, 1);
	ck_assert_int_eq(m->gears[2], 4);
	ck_assert(m->dynamic_shape);
	ck_assert_int_eq(m->values[m->inputs[0]].dims[0], -1);
	ck_assert_int_eq(m->values[m->inputs[0]].range[0], 1);
	ck_assert_int_eq(m->values[m->inputs[0]].range[1], 4);
	ck_assert_int_eq(m->values[m->outputs[0]].dims[0], -1);
	/* No node reads the gear input. */
	for (i = 0; i < m->nnodes; i++)
		ck_assert_uint_ne(m->nodes[i].in[0], m->inputs[1]);
	om_model_free(m);
	atc_options_release(&o);
}
END_TEST

START_TEST(gears_hw_and_dims)
{
	struct atc_options o;
	struct om_model *m;
	const struct om_value *y;

	/* Conv's H and W follow the input's: 5x5 -> 3x3, 7x9 -> 5x7. */
	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_input_shape("x:1,1,-1,-1", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("5,5;7,9", OM_DYNAMIC_HW, &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_basic_conv_without_padding", &o);
	check_gear_input(m, 2);
	ck_assert_int_eq(m->dynamic, OM_DYNAMIC_HW);
	y = &m->values[m->outputs[0]];
	ck_assert_int_eq(y->dims[0], 1);
	ck_assert_int_eq(y->dims[1], 1);
	ck_assert_int_eq(y->dims[2], -1);
	ck_assert_int_eq(y->dims[3], -1);
	om_model_free(m);
	atc_options_release(&o);

	ck_assert_int_eq(atc_parse_input_shape("x:-1,4,-1", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("1,5;2,6;3,5", OM_DYNAMIC_DIMS, &o, NULL, 0), ATC_OK);
	m = convert_ok("node/test_relu", &o);
	check_gear_input(m, 2);
	ck_assert_int_eq(m->dynamic, OM_DYNAMIC_DIMS);
	ck_assert_uint_eq(m->ngears, 3);
	ck_assert_int_eq(m->values[m->inputs[0]].range[4], 5);
	ck_assert_int_eq(m->values[m->inputs[0]].range[5], 6);
	om_model_free(m);
	atc_options_release(&o);
}
END_TEST

START_TEST(gears_bad)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(atc_parse_gears("1,2", OM_DYNAMIC_BATCH, &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "no input has a -1 dimension"));
	atc_options_release(&o);

	ck_assert_int_eq(atc_parse_input_shape("x:-1,4,-1", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("1,2,3;2,3,4", OM_DYNAMIC_DIMS, &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "the inputs have 2 -1 dimensions, each gear gives 3"));
	atc_options_release(&o);

	ck_assert_int_eq(atc_parse_input_shape("x:-1,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("5,5;7,7", OM_DYNAMIC_HW, &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "input x has 1 -1 dimensions"));
	atc_options_release(&o);

	ck_assert_int_eq(atc_parse_input_shape("x:1~4,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("1,2", OM_DYNAMIC_BATCH, &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_relu", &o, msg), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "does not go with --dynamic_batch_size's gears"));
	atc_options_release(&o);

	/* A gear the graph cannot run at is refused. */
	ck_assert_int_eq(atc_parse_input_shape("x:-1,4,5", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_parse_gears("3,2", OM_DYNAMIC_BATCH, &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(convert_fails("node/test_add", &o, msg), ATC_ERR_INVALID);
	ck_assert_msg(strstr(msg, "(at x [2, 4, 5])"), "%s", msg);
	atc_options_release(&o);
}
END_TEST

/* ---- graphs built here ------------------------------------------------------------------ */

START_TEST(unsupported_all_listed)
{
	static const int64_t xd[] = { 2, 3 };
	struct atc_options o;
	struct om_model *m = NULL;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 2, xd);
	mk_node(&k, "conv7", "LSTM", "x", NULL, "a");
	mk_node(&k, "", "Relu", "a", NULL, "b");
	mk_node(&k, "g1", "GRU", "b", NULL, "c");
	mk_node(&k, "", "Foo", "c", NULL, "d")->domain = "com.example";
	mk_output(&k, "d");
	atc_options_init(&o);
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_UNSUPPORTED);
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(msg, "node 'conv7' (LSTM): no CANN operator for ONNX LSTM\n"), "%s", msg);
	ck_assert_msg(strstr(msg, "node 'g1' (GRU): no CANN operator for ONNX GRU\n"), "%s", msg);
	ck_assert_msg(strstr(msg, "node 'Foo_3' (com.example.Foo): no CANN operator for domain com.example"), "%s",
		      msg);
	ck_assert_ptr_null(strstr(msg, "Relu"));
}
END_TEST

START_TEST(unsupported_sequences)
{
	struct atc_options o;
	char msg[MSG];

	atc_options_init(&o);
	ck_assert_int_eq(convert_fails("simple/test_sequence_model1", &o, msg), ATC_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(msg, "node 'SequenceEmpty_0' (SequenceEmpty)"));
	ck_assert_ptr_nonnull(strstr(msg, "node 'SequenceInsert_3' (SequenceInsert)"));
	ck_assert_ptr_nonnull(strstr(msg, "node 'SequenceAt_4' (SequenceAt)"));
}
END_TEST

/* Constants fold through several nodes; Shape of a static tensor folds; dead nodes go. */
START_TEST(folding_and_dead_code)
{
	static const int64_t xd[] = { 4 };
	struct atc_options o;
	struct om_model *m;
	struct onnx_node *n;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 1, xd);
	mk_init_f32(&k, "c", 4);
	/* Listed out of order: "cc" is used before the node making it. */
	mk_node(&k, "", "Add", "x", "cc", "y");
	mk_node(&k, "", "Mul", "c", "c", "cc");
	mk_node(&k, "", "Relu", "x", NULL, "dead");
	n = mk_node(&k, "", "Shape", "x", NULL, "shape");
	(void)n;
	mk_output(&k, "y");
	mk_output(&k, "shape");
	atc_options_init(&o);
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	/* Only the Add is left: Mul folded, Relu dead, Shape folded. */
	ck_assert_uint_eq(m->nnodes, 1);
	ck_assert_str_eq(m->nodes[0].type, "Add");
	ck_assert_int_eq(m->values[m->nodes[0].in[1]].kind, OM_VALUE_CONST);
	ck_assert_int_eq(m->values[m->outputs[1]].kind, OM_VALUE_CONST);
	ck_assert_int_eq(m->values[m->outputs[1]].dtype, ACL_INT64);
	{
		static float xv[4] = { 10, 20, 30, 40 };
		int64_t dims[1] = { 4 };
		struct onnx_tensor t = { .name = "x", .dtype = ONNX_FLOAT, .acl_dtype = ACL_FLOAT, .ndim = 1,
					 .dims = dims, .count = 4, .size = 16, .data = xv };
		const struct onnx_tensor *feeds[1] = { &t };
		const float *y;
		struct run r;

		run_model(&r, m, feeds, NULL);
		y = r.v[m->outputs[0]].data;
		ck_assert_float_eq(y[0], 11);
		ck_assert_float_eq(y[3], 56);
		ck_assert_int_eq(*(const int64_t *)r.v[m->outputs[1]].data, 4);
		run_free(&r);
	}
	om_model_free(m);
}
END_TEST

/* A constant too large to store is computed at execution instead. */
START_TEST(fold_cap)
{
	static int64_t shape[2] = { 8192, 4096 }, sdims[1] = { 2 };
	struct atc_options o;
	struct om_model *m;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	k.inits[0] = (struct onnx_tensor){ .name = "shape", .dtype = ONNX_INT64, .acl_dtype = ACL_INT64, .ndim = 1,
					   .dims = sdims, .count = 2, .size = 16, .data = shape };
	k.m.graph.ninits = 1;
	mk_node(&k, "fill", "ConstantOfShape", "shape", NULL, "y");
	mk_output(&k, "y");
	atc_options_init(&o);
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 1);
	ck_assert_str_eq(m->nodes[0].type, "FillD");
	/* At most the fill value is stored. */
	ck_assert_uint_le(m->weights_size, 8);
	ck_assert_int_eq(m->values[m->outputs[0]].dims[0], 8192);
	om_model_free(m);
	/* Half of it is folded. */
	shape[0] = 4096;
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 0);
	ck_assert_uint_eq(m->weights_size, 4096 * 4096 * 4);
	om_model_free(m);
}
END_TEST

/* Reshape by a Shape of a static tensor: the shape folds into the attribute. */
START_TEST(shape_chain_folds)
{
	static const int64_t xd[] = { 2, 3, 4 };
	struct atc_options o;
	struct om_model *m;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 3, xd);
	mk_node(&k, "", "Shape", "x", NULL, "s");
	mk_node(&k, "", "Reshape", "x", "s", "y");
	mk_output(&k, "y");
	atc_options_init(&o);
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 1);
	ck_assert_str_eq(m->nodes[0].type, "Reshape");
	ck_assert_uint_eq(m->nodes[0].nin, 1);
	ck_assert_uint_eq(m->weights_size, 0);
	om_model_free(m);
	/* With a dynamic batch the shape is known at each probe: dimension 0 copies x's. */
	ck_assert_int_eq(atc_parse_input_shape("x:-1,3,4", &o, NULL, 0), ATC_OK);
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 1);
	ck_assert_int_eq(m->nodes[0].attrs[0].li.v[0], 0);
	ck_assert_int_eq(m->nodes[0].attrs[0].li.v[1], 3);
	om_model_free(m);
	atc_options_release(&o);
}
END_TEST

/* Reshape [N, M] to [M, N] by a gathered Shape: no one shape serves every size. */
START_TEST(shape_chain_refused)
{
	static const int64_t xd[] = { -1, -1 }, perm[2] = { 1, 0 };
	struct atc_options o;
	struct om_model *m = NULL;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 2, xd);
	/* Two symbols, N and M: two sizes. */
	k.dims[0][1].param = "M";
	mk_init_i64(&k, "perm", 2, perm);
	mk_node(&k, "", "Shape", "x", NULL, "s");
	mk_node(&k, "", "Gather", "s", "perm", "t");
	mk_node(&k, "swap", "Reshape", "x", "t", "y");
	mk_output(&k, "y");
	atc_options_init(&o);
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_UNSUPPORTED);
	ck_assert_msg(strstr(msg, "node 'swap' (Reshape) (at x [2, 3]): its CANN call (Reshape) takes attributes "
				  "decided by a dynamic dimension"),
		      "%s", msg);
	ck_assert_ptr_null(m);
}
END_TEST

/* Squeeze without axes drops the batch at 1 only: a rank decided at execution. */
START_TEST(rank_changes_refused)
{
	static const int64_t xd[] = { -1, 3 };
	struct atc_options o;
	struct om_model *m = NULL;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 2, xd);
	mk_node(&k, "sq", "Squeeze", "x", NULL, "y");
	mk_output(&k, "y");
	atc_options_init(&o);
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_UNSUPPORTED);
	ck_assert_msg(strstr(msg, "node 'sq' (Squeeze) (at x [2, 3]): output 0 has rank 2") &&
			      strstr(msg, "a rank or type decided at execution is not supported"),
		      "%s", msg);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(shape_of_dynamic_stays)
{
	static const int64_t xd[] = { -1, 3 };
	struct atc_options o;
	struct om_model *m;
	char msg[MSG];
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 2, xd);
	mk_node(&k, "s", "Shape", "x", NULL, "shape");
	mk_output(&k, "shape");
	atc_options_init(&o);
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 1);
	ck_assert_str_eq(m->nodes[0].type, "Shape");
	ck_assert_int_eq(m->values[m->outputs[0]].dims[0], 2);
	om_model_free(m);
}
END_TEST

START_TEST(bad_graphs)
{
	static const int64_t xd[] = { 2 };
	struct atc_options o;
	struct om_model *m = NULL;
	char msg[MSG];
	struct mk k;

	atc_options_init(&o);
	mk_init(&k);
	mk_input(&k, "x", 1, xd);
	mk_node(&k, "r", "Relu", "nowhere", NULL, "y");
	mk_output(&k, "y");
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(msg, "node 'r' (Relu): input 'nowhere' is made by no node"));

	mk_init(&k);
	mk_input(&k, "x", 1, xd);
	mk_node(&k, "r", "Relu", "x", NULL, "y");
	mk_node(&k, "r", "Relu", "x", NULL, "y");
	mk_output(&k, "y");
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(msg, "node 'r_1' (Relu): output 'y' is made twice"));

	mk_init(&k);
	mk_input(&k, "x", 1, xd);
	mk_node(&k, "r", "Relu", "x", NULL, "y");
	mk_output(&k, "z");
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(msg, "output z is made by no node"));

	mk_init(&k);
	mk_input(&k, "x", 1, xd);
	k.ins[0].has_shape = false;
	mk_node(&k, "r", "Relu", "x", NULL, "y");
	mk_output(&k, "y");
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "input x: the model gives no shape"));
	ck_assert_ptr_null(m);
}
END_TEST

/* A graph output that is an input, twice; node names clash with value names. */
START_TEST(names_unique)
{
	static const int64_t xd[] = { 2 };
	struct atc_options o;
	struct om_model *m;
	char msg[MSG];
	uint32_t i, j;
	struct mk k;

	mk_init(&k);
	mk_input(&k, "x", 1, xd);
	mk_node(&k, "y", "Relu", "x", NULL, "y");
	mk_node(&k, "x", "Neg", "y", NULL, "z");
	mk_output(&k, "z");
	mk_output(&k, "x");
	atc_options_init(&o);
	ck_assert_msg(!atc_convert(&k.m, &o, &m, msg, MSG), "%s", msg);
	ck_assert_uint_eq(m->nnodes, 2);
	ck_assert_int_eq(m->values[m->outputs[1]].kind, OM_VALUE_INPUT);
	for (i = 0; i < m->nnodes; i++)
		for (j = 0; j < m->nvalues; j++)
			ck_assert_str_ne(m->nodes[i].name, m->values[j].name);
	om_model_free(roundtrip(m));
	om_model_free(m);
	/* An output that is an input keeps its name: it cannot be cast. */
	ck_assert_int_eq(atc_parse_output_type("FP16", &o, NULL, 0), ATC_OK);
	ck_assert_int_eq(atc_convert(&k.m, &o, &m, msg, MSG), ATC_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(msg, "output x is the graph input of that name"));
	atc_options_release(&o);
}
END_TEST

static Suite *atc_suite(void)
{
	Suite *s = suite_create("atc");
	TCase *t = tcase_create("opts");

	tcase_add_test(t, opts_forms);
	tcase_add_test(t, opts_errors);
	tcase_add_test(t, opts_input_shape);
	tcase_add_loop_test(t, opts_input_shape_bad, 0, sizeof(bad_shapes) / sizeof(bad_shapes[0]));
	tcase_add_test(t, opts_input_shape_rank);
	tcase_add_test(t, opts_gears);
	tcase_add_loop_test(t, opts_gears_bad, 0, sizeof(bad_gears) / sizeof(bad_gears[0]));
	tcase_add_test(t, opts_gears_many);
	tcase_add_test(t, opts_output_type);
	tcase_add_test(t, opts_output_path);
	tcase_add_test(t, opts_const_input);
	suite_add_tcase(s, t);

	t = tcase_create("convert");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, convert_plain, 0, sizeof(plain_tests) / sizeof(plain_tests[0]));
	tcase_add_loop_test(t, convert_const_inputs, 0, sizeof(const_tests) / sizeof(const_tests[0]));
	tcase_add_test(t, convert_reshape_needs_const);
	tcase_add_test(t, convert_output_type);
	tcase_add_test(t, convert_output_type_bad);
	tcase_add_test(t, convert_input_format);
	suite_add_tcase(s, t);

	t = tcase_create("node_tests");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, convert_node_tests, 0, nlisted);
	suite_add_tcase(s, t);

	t = tcase_create("dynamic");
	tcase_add_test(t, dynamic_range);
	tcase_add_test(t, dynamic_model_dims);
	tcase_add_test(t, dynamic_range_refused);
	tcase_add_test(t, dynamic_cnn);
	tcase_add_test(t, dynamic_view);
	tcase_add_test(t, dynamic_attrs_refused);
	tcase_add_loop_test(t, dynamic_run, 0, sizeof(dyn_tests) / sizeof(dyn_tests[0]));
	tcase_add_test(t, gears_batch);
	tcase_add_test(t, gears_hw_and_dims);
	tcase_add_test(t, gears_bad);
	suite_add_tcase(s, t);

	t = tcase_create("graphs");
	tcase_add_test(t, unsupported_all_listed);
	tcase_add_test(t, unsupported_sequences);
	tcase_add_test(t, folding_and_dead_code);
	tcase_add_test(t, fold_cap);
	tcase_add_test(t, rank_changes_refused);
	tcase_add_test(t, shape_chain_folds);
	tcase_add_test(t, shape_chain_refused);
	tcase_add_test(t, shape_of_dynamic_stays);
	tcase_add_test(t, bad_graphs);
	tcase_add_test(t, names_unique);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r;
	int failed;

	load_listed();
	r = srunner_create(atc_suite());
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
