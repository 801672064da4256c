// SPDX-License-Identifier: MIT
/*
 * atc_convert.c - an ONNX graph into vnpu's offline model (atc.h).
 *
 * The recipe: the graph's values (initializers, Constant nodes and bound
 * inputs are constants, the other inputs are the model's inputs, with
 * their shapes from the model or --input_shape), the probes (the input
 * shapes the graph is planned at), then every node in execution order:
 * mapped to its CANN call (lib/onnx/map) and planned by lib/ops at every
 * probe, folded on host memory when what it reads is constant; the output
 * casts of --output_type; the liveness of what the graph outputs need; and
 * last the struct om_model itself (atc_emit.c).
 *
 * A dimension is dynamic (-1) when the probes plan it differently: lib/ops'
 * shape inference is the only one, and no second copy of it lives here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "atc_conv.h"
#include "vnpu_drm.h"
#include "onnx_map.h"

/*
 * Most bytes a folded node may make: past it the node stays a CANN call
 * (a ConstantOfShape of a gigabyte is cheaper to run than to store).
 */
#define FOLD_MAX_BYTES (64ull << 20)
/* Most bytes of a value computed at each probe (shapes, not data). */
#define PROBE_MAX_BYTES 4096ull

/* ---- values and nodes ------------------------------------------------------ */

int atc_find(const struct atc_conv *c, const char *name)
{
	size_t i;

	/* Newest first: a node reads mostly what was just made. */
	for (i = c->nv; i-- > 0;)
		if (!strcmp(c->v[i].name, name))
			return (int)i;
	return -1;
}

static bool node_name_taken(const struct atc_conv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nn; i++)
		if (!strcmp(c->n[i].name, name))
			return true;
	return false;
}

/*
 * @base, or @base with "_1", "_2", ... appended: a name no value and no
 * node has. The .om names ops after them and refers to "op:port", so
 * every name must be unique across both.
 */
char *atc_unique_name(const struct atc_conv *c, const char *base)
{
	size_t len = strlen(base) + 24;
	char *s = malloc(len);
	unsigned int k;

	if (!s)
		return NULL;
	snprintf(s, len, "%s", base);
	for (k = 1; atc_find(c, s) >= 0 || node_name_taken(c, s); k++)
		snprintf(s, len, "%s_%u", base, k);
	return s;
}

/* A new value (dims of every probe zeroed); its index, or -1 out of memory. */
static int new_value(struct atc_conv *c, char *name, enum om_value_kind kind, int32_t dtype, int32_t ndim)
{
	struct atc_val *v;

	if (!name)
		return -1;
	if (c->nv == c->capv) {
		size_t cap = c->capv ? 2 * c->capv : 64;
		struct atc_val *grown = realloc(c->v, cap * sizeof(*grown));

		if (!grown) {
			free(name);
			return -1;
		}
		c->v = grown;
		c->capv = cap;
	}
	v = &c->v[c->nv];
	memset(v, 0, sizeof(*v));
	v->name = name;
	v->kind = kind;
	v->dtype = dtype;
	v->ndim = ndim;
	v->node = -1;
	v->format = ACL_FORMAT_ND;
	if (ndim) {
		v->pd = calloc((size_t)c->nprobe * (size_t)ndim, sizeof(int64_t));
		if (!v->pd) {
			free(name);
			return -1;
		}
	}
	return (int)c->nv++;
}

/* Dimension @d of value @v as the model holds it: -1 when the probes disagree. */
int64_t atc_dim(const struct atc_conv *c, const struct atc_val *v, int d)
{
	int p;

	for (p = 1; p < c->nprobe; p++)
		if (v->pd[(size_t)p * (size_t)v->ndim + (size_t)d] != v->pd[d])
			return -1;
	return v->pd[d];
}

static bool is_static(const struct atc_conv *c, const struct atc_val *v)
{
	int d;

	for (d = 0; d < v->ndim; d++)
		if (atc_dim(c, v, d) < 0)
			return false;
	return true;
}

static const int64_t *probe_dims(const struct atc_val *v, int p)
{
	static const int64_t scalar[1];

	return v->ndim ? v->pd + (size_t)p * (size_t)v->ndim : scalar;
}

/* A constant value holding @t (owned when @own): its index or -1. */
static int new_const(struct atc_conv *c, char *name, const struct onnx_tensor *t, bool own)
{
	int i = new_value(c, name, OM_VALUE_CONST, t->acl_dtype, t->ndim), p;

	if (i < 0)
		return -1;
	c->v[i].t = t;
	c->v[i].t_owned = own;
	for (p = 0; p < c->nprobe; p++)
		if (t->ndim)
			memcpy(c->v[i].pd + (size_t)p * (size_t)t->ndim, t->dims, (size_t)t->ndim * sizeof(int64_t));
	return i;
}

static void release_tensor(struct onnx_tensor *t)
{
	if (t) {
		onnx_tensor_release(t);
		free(t);
	}
}

/* A heap copy of @src named @name (or keeping its name when NULL), or NULL. */
static struct onnx_tensor *copy_tensor(const struct onnx_tensor *src)
{
	struct onnx_tensor *t = calloc(1, sizeof(*t));

	if (t && onnx_tensor_copy(t, src, NULL)) {
		free(t);
		return NULL;
	}
	return t;
}

static enum atc_err nomem(struct atc_conv *c)
{
	atc_say(c->m, "out of memory");
	return ATC_ERR_NOMEM;
}

/* ---- inputs and probes --------------------------------------------------- */

static const struct atc_input_shape *given_shape(const struct atc_options *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->ninput_shapes; i++)
		if (!strcmp(o->input_shapes[i].name, name))
			return &o->input_shapes[i];
	return NULL;
}

static const struct atc_const_input *given_const(const struct atc_options *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->nconst_inputs; i++)
		if (!strcmp(o->const_inputs[i].name, name))
			return &o->const_inputs[i];
	return NULL;
}

/* Every option naming an input must name a graph input that is not an initializer. */
static enum atc_err check_option_names(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	enum atc_err ret = ATC_OK;
	size_t i;

	for (i = 0; i < c->o->ninput_shapes; i++) {
		const char *name = c->o->input_shapes[i].name;

		if (!onnx_graph_input(g, name) || onnx_graph_init(g, name)) {
			atc_say(c->m, "--input_shape: the model has no input %s", name);
			ret = ATC_ERR_USAGE;
		} else if (given_const(c->o, name)) {
			atc_say(c->m, "input %s: given both a shape (--input_shape) and a value (--vnpu_const_input)",
				name);
			ret = ATC_ERR_USAGE;
		}
	}
	for (i = 0; i < c->o->nconst_inputs; i++) {
		const char *name = c->o->const_inputs[i].name;

		if (!onnx_graph_input(g, name) || onnx_graph_init(g, name)) {
			atc_say(c->m, "--vnpu_const_input: the model has no input %s", name);
			ret = ATC_ERR_USAGE;
		}
	}
	return ret;
}

/* Graph input @vi bound to the value @ci: a constant, checked against the declaration. */
static enum atc_err bind_const(struct atc_conv *c, const struct onnx_value_info *vi, const struct atc_const_input *ci)
{
	struct onnx_tensor *t = copy_tensor(&ci->value);
	int32_t d;

	if (!t)
		return nomem(c);
	/* ONNX's test data store bfloat16 tensors as uint16: the graph says which. */
	if (vi->dtype == ONNX_BFLOAT16 && t->dtype == ONNX_UINT16) {
		t->dtype = ONNX_BFLOAT16;
		t->acl_dtype = ACL_BF16;
	}
	if (vi->kind == ONNX_VALUE_TENSOR && vi->dtype != ONNX_UNDEFINED && vi->dtype != t->dtype) {
		atc_say(c->m, "--vnpu_const_input: input %s is %s, the model declares %s", vi->name,
			onnx_dtype_name(t->dtype), onnx_dtype_name(vi->dtype));
		release_tensor(t);
		return ATC_ERR_USAGE;
	}
	if (vi->has_shape) {
		bool ok = vi->ndim == t->ndim;

		for (d = 0; ok && d < t->ndim; d++)
			ok = vi->dims[d].value < 0 || vi->dims[d].value == t->dims[d];
		if (!ok) {
			char a[128];

			atc_say(c->m, "--vnpu_const_input: input %s has shape %s, which the model's declaration does not take",
				vi->name, vops_shape_str(a, sizeof(a), t->ndim, t->dims));
			release_tensor(t);
			return ATC_ERR_USAGE;
		}
	}
	free(t->name);
	t->name = strdup(vi->name);
	if (!t->name || new_const(c, strdup(vi->name), t, true) < 0) {
		release_tensor(t);
		return nomem(c);
	}
	return ATC_OK;
}

/* Graph input @vi as a model input: its type, its dims (-1 dynamic) and ranges. */
static enum atc_err add_input(struct atc_conv *c, const struct onnx_value_info *vi)
{
	const struct atc_input_shape *s = given_shape(c->o, vi->name);
	struct atc_val *v;
	int i, d, ndim;

	if (vi->kind != ONNX_VALUE_TENSOR) {
		atc_say(c->m, "input %s is not a tensor (sequences, maps and optionals are not supported)", vi->name);
		return ATC_ERR_UNSUPPORTED;
	}
	if (vi->acl_dtype < 0 || !vops_dtype_size(vi->acl_dtype)) {
		atc_say(c->m, "input %s is %s, which vnpu's operators do not take", vi->name,
			onnx_dtype_name(vi->dtype));
		return ATC_ERR_UNSUPPORTED;
	}
	if (!s && !vi->has_shape) {
		atc_say(c->m, "input %s: the model gives no shape; give one with --input_shape", vi->name);
		return ATC_ERR_USAGE;
	}
	if (s && vi->has_shape && s->ndim != vi->ndim) {
		atc_say(c->m, "--input_shape: input %s has %d dimensions, the model's has %d", vi->name, s->ndim,
			vi->ndim);
		return ATC_ERR_USAGE;
	}
	ndim = s ? s->ndim : vi->ndim;
	i = new_value(c, strdup(vi->name), OM_VALUE_INPUT, vi->acl_dtype, ndim);
	if (i < 0)
		return nomem(c);
	v = &c->v[i];
	v->input = (int)c->ninputs++;
	v->format = c->o->input_format >= 0 ? c->o->input_format : ACL_FORMAT_ND;
	if (ndim) {
		v->dims = malloc((size_t)ndim * sizeof(int64_t));
		v->range = malloc((size_t)ndim * 2 * sizeof(int64_t));
		v->sym = calloc((size_t)ndim, sizeof(char *));
		if (!v->dims || !v->range || !v->sym)
			return nomem(c);
	}
	for (d = 0; d < ndim; d++) {
		if (vi->has_shape && d < vi->ndim && vi->dims[d].param[0])
			v->sym[d] = vi->dims[d].param;
		if (s) {
			v->dims[d] = s->dims[d];
			v->range[2 * d] = s->range[2 * d];
			v->range[2 * d + 1] = s->range[2 * d + 1];
		} else {
			/* A symbolic or unknown dimension: any size. */
			v->dims[d] = vi->dims[d].value;
			v->range[2 * d] = v->dims[d] < 0 ? 1 : v->dims[d];
			v->range[2 * d + 1] = v->dims[d];
		}
	}
	return ATC_OK;
}

static enum atc_err setup_values(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	enum atc_err ret = check_option_names(c);
	size_t i;

	if (ret)
		return ret;
	for (i = 0; i < g->ninits; i++)
		if (new_const(c, strdup(g->inits[i].name), &g->inits[i], false) < 0)
			return nomem(c);
	for (i = 0; i < g->ninputs && !ret; i++) {
		const struct onnx_value_info *vi = &g->inputs[i];
		const struct atc_const_input *ci = given_const(c->o, vi->name);

		/* IR < 4 lists initializers among the inputs: they stay constants. */
		if (onnx_graph_init(g, vi->name))
			continue;
		if (atc_find(c, vi->name) >= 0) {
			atc_say(c->m, "input %s is declared twice", vi->name);
			return ATC_ERR_INVALID;
		}
		ret = ci ? bind_const(c, vi, ci) : add_input(c, vi);
	}
	return ret;
}

/* One dynamic dimension: input value @v, dimension @d. */
struct dyn {
	int v, d;
};

/* The inputs' dynamic dimensions in order into @dyn (at most @max); their count. */
static size_t list_dynamic(const struct atc_conv *c, struct dyn *dyn, size_t max)
{
	size_t i, n = 0;
	int d;

	for (i = 0; i < c->nv; i++)
		for (d = 0; c->v[i].kind == OM_VALUE_INPUT && d < c->v[i].ndim; d++)
			if (c->v[i].dims[d] < 0) {
				if (n < max)
					dyn[n] = (struct dyn){ (int)i, d };
				n++;
			}
	return n;
}

static const char *gear_flag(enum om_dynamic d)
{
	return d == OM_DYNAMIC_BATCH ? "--dynamic_batch_size"
	       : d == OM_DYNAMIC_HW  ? "--dynamic_image_size"
				     : "--dynamic_dims";
}

/*
 * Which gear value each dynamic dimension takes: @which[k] is the index in
 * a gear row of dynamic dimension k.
 */
static enum atc_err gear_slots(struct atc_conv *c, const struct dyn *dyn, size_t ndyn, uint32_t *which)
{
	const struct atc_options *o = c->o;
	const char *flag = gear_flag(o->dynamic);
	size_t k, j;

	if (!ndyn) {
		atc_say(c->m, "%s: no input has a -1 dimension (give them with --input_shape)", flag);
		return ATC_ERR_USAGE;
	}
	for (k = 0; k < ndyn; k++) {
		const int64_t *r = &c->v[dyn[k].v].range[2 * dyn[k].d];

		if (r[0] != 1 || r[1] != -1) {
			atc_say(c->m, "input %s: a range (%" PRId64 "~%" PRId64 ") does not go with %s's gears",
				c->v[dyn[k].v].name, r[0], r[1], flag);
			return ATC_ERR_USAGE;
		}
	}
	switch (o->dynamic) {
	case OM_DYNAMIC_BATCH:
		for (k = 0; k < ndyn; k++)
			which[k] = 0;
		return ATC_OK;
	case OM_DYNAMIC_HW:
		/* Each input with -1 dimensions has two: its height, then its width. */
		for (k = 0; k < ndyn; k = j) {
			for (j = k; j < ndyn && dyn[j].v == dyn[k].v; j++)
				which[j] = (uint32_t)(j - k);
			if (j - k != 2) {
				atc_say(c->m, "%s: input %s has %zu -1 dimensions; the gears give two (h, w)", flag,
					c->v[dyn[k].v].name, j - k);
				return ATC_ERR_USAGE;
			}
		}
		return ATC_OK;
	default:
		if (ndyn != o->gear_len) {
			atc_say(c->m, "%s: the inputs have %zu -1 dimensions, each gear gives %u", flag, ndyn,
				o->gear_len);
			return ATC_ERR_USAGE;
		}
		for (k = 0; k < ndyn; k++)
			which[k] = (uint32_t)k;
		return ATC_OK;
	}
}

/*
 * The probes: every gear; or, with ranges, the low ends, the low ends plus
 * one (two sizes tell a dimension that follows the input's from one that
 * does not) and, when some range is bounded, its high ends; or, static,
 * the shapes themselves.
 */
static enum atc_err setup_probes(struct atc_conv *c)
{
	struct dyn dyn[4 * VOPS_MAX_RANK];
	uint32_t which[4 * VOPS_MAX_RANK];
	size_t ndyn = list_dynamic(c, dyn, sizeof(dyn) / sizeof(dyn[0])), i, k;
	const struct atc_options *o = c->o;
	bool bounded = false;
	enum atc_err ret;
	int p, d;

	if (ndyn > sizeof(dyn) / sizeof(dyn[0])) {
		atc_say(c->m, "the inputs have %zu dynamic dimensions; at most %zu are supported", ndyn,
			sizeof(dyn) / sizeof(dyn[0]));
		return ATC_ERR_UNSUPPORTED;
	}
	if (o->dynamic != OM_DYNAMIC_NONE) {
		ret = gear_slots(c, dyn, ndyn, which);
		if (ret)
			return ret;
		c->nprobe = (int)o->ngears;
	} else if (ndyn) {
		for (k = 0; k < ndyn; k++) {
			const int64_t *r = &c->v[dyn[k].v].range[2 * dyn[k].d];

			bounded |= r[1] > r[0] + 1;
		}
		c->nprobe = bounded ? 3 : 2;
	} else {
		c->nprobe = 1;
	}
	/* Until now every value had one probe's room: make room for all of them. */
	for (i = 0; i < c->nv; i++) {
		struct atc_val *v = &c->v[i];
		int64_t *pd;

		if (!v->ndim)
			continue;
		pd = calloc((size_t)c->nprobe * (size_t)v->ndim, sizeof(int64_t));
		if (!pd)
			return nomem(c);
		for (p = 0; p < c->nprobe; p++)
			memcpy(pd + (size_t)p * (size_t)v->ndim, v->kind == OM_VALUE_INPUT ? v->dims : v->pd,
			       (size_t)v->ndim * sizeof(int64_t));
		free(v->pd);
		v->pd = pd;
	}
	for (k = 0; k < ndyn; k++) {
		struct atc_val *v = &c->v[dyn[k].v];
		int64_t *r = &v->range[2 * dyn[k].d];
		const char *sym = v->sym[dyn[k].d];
		size_t cls = k, j;

		d = dyn[k].d;
		/* Dimensions of one symbol ("N" of two inputs) are one size: the first one's class. */
		for (j = 0; sym && j < k; j++)
			if (c->v[dyn[j].v].sym[dyn[j].d] && !strcmp(c->v[dyn[j].v].sym[dyn[j].d], sym)) {
				cls = j;
				break;
			}
		if (o->dynamic != OM_DYNAMIC_NONE) {
			r[0] = INT64_MAX;
			r[1] = 0;
		}
		for (p = 0; p < c->nprobe; p++) {
			int64_t x;

			if (o->dynamic != OM_DYNAMIC_NONE) {
				x = o->gears[(size_t)p * o->gear_len + which[k]];
				/* The range a gear model's -1 takes: its gears' span. */
				r[0] = x < r[0] ? x : r[0];
				r[1] = x > r[1] ? x : r[1];
			} else if (p == 0) {
				x = r[0];
			} else if (p == 1 || r[1] < 0) {
				/*
				 * Distinct sizes for distinct dimensions where the
				 * ranges allow: a shape value that copies one of them
				 * (general_shape()) is then told from one that copies
				 * another.
				 */
				x = r[1] < 0 || r[0] + 1 + (int64_t)cls <= r[1] ? r[0] + 1 + (int64_t)cls : r[0] + 1;
			} else {
				x = r[1];
			}
			v->pd[(size_t)p * (size_t)v->ndim + (size_t)d] = x;
		}
	}
	return ATC_OK;
}

/* "x [2, 784], y [2]": the dynamic inputs' shapes at probe @p, for messages. */
static const char *describe_probe(const struct atc_conv *c, int p, char *buf, size_t n)
{
	size_t i, at = 0;
	char s[256];

	buf[0] = '\0';
	for (i = 0; i < c->nv && at < n; i++) {
		const struct atc_val *v = &c->v[i];

		if (v->kind != OM_VALUE_INPUT || is_static(c, v))
			continue;
		at += (size_t)snprintf(buf + at, n - at, "%s%s %s", at ? ", " : "", v->name,
				       vops_shape_str(s, sizeof(s), v->ndim, probe_dims(v, p)));
	}
	return buf;
}

/* ---- the nodes ----------------------------------------------------------- */

/* Every node's ONNX operator has a mapping (or is a Constant); else name them all. */
static enum atc_err check_operators(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	enum atc_err ret = ATC_OK;
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const struct onnx_node *n = &g->nodes[i];
		bool def = !n->domain[0] || !strcmp(n->domain, "ai.onnx");

		if (def && (!strcmp(n->op_type, "Constant") || onnx_map_find(n->op_type)))
			continue;
		if (def)
			atc_say(c->m, "node '%s' (%s): no CANN operator for ONNX %s", c->names[i], n->op_type,
				n->op_type);
		else
			atc_say(c->m, "node '%s' (%s.%s): no CANN operator for domain %s", c->names[i], n->domain,
				n->op_type, n->domain);
		ret = ATC_ERR_UNSUPPORTED;
	}
	return ret;
}

/* The node names: the ONNX one, or "<op_type>_<index>", unique among them. */
static enum atc_err name_nodes(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	size_t i, j;

	c->names = calloc(g->nnodes ? g->nnodes : 1, sizeof(char *));
	if (!c->names)
		return nomem(c);
	for (i = 0; i < g->nnodes; i++) {
		const struct onnx_node *n = &g->nodes[i];
		size_t len = strlen(n->op_type) + 48;
		unsigned int k = 0;
		bool clash = true;

		c->names[i] = malloc(len + strlen(n->name));
		if (!c->names[i])
			return nomem(c);
		while (clash) {
			if (n->name[0] && !k)
				snprintf(c->names[i], len + strlen(n->name), "%s", n->name);
			else if (n->name[0])
				snprintf(c->names[i], len + strlen(n->name), "%s_%u", n->name, k);
			else
				snprintf(c->names[i], len, k ? "%s_%zu_%u" : "%s_%zu", n->op_type, i, k);
			k++;
			clash = false;
			for (j = 0; j < i && !clash; j++)
				clash = !strcmp(c->names[j], c->names[i]);
		}
	}
	return ATC_OK;
}

/* Is name @s made by the graph before node position @upto (or an input, initializer)? */
static bool defined_name(const struct atc_conv *c, const bool *done, const char *s)
{
	const struct onnx_graph *g = &c->onnx->graph;
	size_t i, k;

	if (!s[0] || onnx_graph_init(g, s) || onnx_graph_input(g, s))
		return true;
	for (i = 0; i < g->nnodes; i++)
		for (k = 0; done[i] && k < g->nodes[i].noutputs; k++)
			if (!strcmp(g->nodes[i].outputs[k], s))
				return true;
	return false;
}

/*
 * An execution order: ONNX files list nodes topologically, but a file
 * that does not is still ONNX's to allow in any order its values permit.
 * Nodes are taken in file order as soon as their inputs are made.
 */
static enum atc_err order_nodes(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	bool *done = calloc(g->nnodes ? g->nnodes : 1, sizeof(bool)), progress = true;
	size_t n = 0, i, k;

	c->order = malloc((g->nnodes ? g->nnodes : 1) * sizeof(size_t));
	if (!done || !c->order) {
		free(done);
		return nomem(c);
	}
	while (n < g->nnodes && progress) {
		progress = false;
		for (i = 0; i < g->nnodes; i++) {
			bool ready = !done[i];

			for (k = 0; ready && k < g->nodes[i].ninputs; k++)
				ready = defined_name(c, done, g->nodes[i].inputs[k]);
			if (ready) {
				done[i] = true;
				c->order[n++] = i;
				progress = true;
			}
		}
	}
	for (i = 0; i < g->nnodes && n < g->nnodes; i++)
		for (k = 0; !done[i] && k < g->nodes[i].ninputs; k++)
			if (!defined_name(c, done, g->nodes[i].inputs[k])) {
				atc_say(c->m, "node '%s' (%s): input '%s' is made by no node that can run before it",
					c->names[i], g->nodes[i].op_type, g->nodes[i].inputs[k]);
				break;
			}
	free(done);
	return n < g->nnodes ? ATC_ERR_INVALID : ATC_OK;
}

static bool attr_equal(const struct vops_attr *a, const struct vops_attr *b)
{
	if (strcmp(a->name, b->name) || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case VOPS_ATTR_BOOL: return a->b == b->b;
	case VOPS_ATTR_INT: return a->i == b->i;
	case VOPS_ATTR_FLOAT: return !memcmp(&a->f, &b->f, sizeof(float));
	case VOPS_ATTR_STRING: return !strcmp(a->s, b->s);
	case VOPS_ATTR_DTYPE: return a->dt == b->dt;
	case VOPS_ATTR_LIST_INT:
		return a->li.n == b->li.n && (!a->li.n || !memcmp(a->li.v, b->li.v, (size_t)a->li.n * sizeof(int64_t)));
	case VOPS_ATTR_LIST_FLOAT:
		return a->lf.n == b->lf.n && (!a->lf.n || !memcmp(a->lf.v, b->lf.v, (size_t)a->lf.n * sizeof(float)));
	}
	return false;
}

static bool tensor_equal(const struct onnx_tensor *a, const struct onnx_tensor *b)
{
	return a->dtype == b->dtype && a->ndim == b->ndim && a->size == b->size &&
	       (!a->ndim || !memcmp(a->dims, b->dims, (size_t)a->ndim * sizeof(int64_t))) &&
	       (!a->size || !memcmp(a->data, b->data, a->size));
}

/* Is @b the same CANN call as @a (its form decided by no dynamic dimension)? */
static bool call_equal(const struct onnx_call *a, const struct onnx_call *b)
{
	int k;
	unsigned int i;

	if (strcmp(a->type, b->type) || a->nin != b->nin || a->nout != b->nout || a->nattrs != b->nattrs ||
	    a->nmade != b->nmade)
		return false;
	for (k = 0; k < a->nin; k++)
		if (a->in[k] != b->in[k])
			return false;
	for (k = 0; k < a->nout; k++)
		if (a->out[k] != b->out[k])
			return false;
	for (i = 0; i < a->nattrs; i++)
		if (!attr_equal(&a->attrs[i], &b->attrs[i]))
			return false;
	for (k = 0; k < a->nmade; k++)
		if (!tensor_equal(&a->made[k], &b->made[k]))
			return false;
	return true;
}

/* A deep copy of @n attributes (every name, string and list owned). */
static struct vops_attr *copy_attrs(const struct vops_attr *src, unsigned int n)
{
	struct vops_attr *a = calloc(n ? n : 1, sizeof(*a));
	unsigned int i;
	bool ok = a != NULL;

	for (i = 0; ok && i < n; i++) {
		a[i] = src[i];
		a[i].name = strdup(src[i].name);
		ok = a[i].name != NULL;
		if (src[i].kind == VOPS_ATTR_STRING) {
			a[i].s = strdup(src[i].s);
			ok = ok && a[i].s;
		} else if (src[i].kind == VOPS_ATTR_LIST_INT) {
			a[i].li.v = malloc((size_t)(src[i].li.n ? src[i].li.n : 1) * sizeof(int64_t));
			ok = ok && a[i].li.v;
			if (ok && src[i].li.n)
				memcpy(a[i].li.v, src[i].li.v, (size_t)src[i].li.n * sizeof(int64_t));
		} else if (src[i].kind == VOPS_ATTR_LIST_FLOAT) {
			a[i].lf.v = malloc((size_t)(src[i].lf.n ? src[i].lf.n : 1) * sizeof(float));
			ok = ok && a[i].lf.v;
			if (ok && src[i].lf.n)
				memcpy(a[i].lf.v, src[i].lf.v, (size_t)src[i].lf.n * sizeof(float));
		}
	}
	if (!ok && a) {
		atc_free_attrs(a, i);
		a = NULL;
	}
	return a;
}

void atc_free_attrs(struct vops_attr *a, unsigned int n)
{
	unsigned int i;

	for (i = 0; a && i < n; i++) {
		free(a[i].name);
		if (a[i].kind == VOPS_ATTR_STRING)
			free(a[i].s);
		else if (a[i].kind == VOPS_ATTR_LIST_INT)
			free(a[i].li.v);
		else if (a[i].kind == VOPS_ATTR_LIST_FLOAT)
			free(a[i].lf.v);
	}
	free(a);
}

/* The ONNX element type of aclDataType @acl (the inverse of onnx_dtype_to_acl()). */
static int32_t acl_to_onnx(int32_t acl)
{
	int32_t d;

	for (d = ONNX_FLOAT; d <= ONNX_BFLOAT16; d++)
		if (onnx_dtype_to_acl(d) == acl)
			return d;
	return ONNX_UNDEFINED;
}

static void *alloc_aligned(uint64_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, size ? size : 64))
		return NULL;
	memset(p, 0, size ? size : 64);
	return p;
}

/* What a node's call reads, as tensors: its input @k (a value or a made tensor). */
struct call_in {
	const struct onnx_tensor *t;	/* the value when known */
	int32_t dtype, ndim;
	const int64_t *dims;
	bool varies;			/* known, but only at this probe */
};

/*
 * Run planned call @p on host memory: its inputs @in (constants, or inputs
 * it reads no byte of), its outputs into new tensors @out named @names.
 */
static enum atc_err fold(struct atc_conv *c, const char *node, const char *op, const struct vops_plan *p,
			 const struct call_in *in, struct onnx_tensor **out, bool quiet)
{
	struct vops_operand ops[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
	void *bufs[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1] = { 0 };
	enum atc_err ret = ATC_OK;
	unsigned int n = 0, i;
	enum vops_run_status st;
	char why[256] = "";
	int k, d;

	for (k = 0; k < p->nin; k++) {
		uint64_t size = p->in_bytes[k];

		bufs[n] = alloc_aligned(size);
		if (!bufs[n])
			goto oom;
		if (in[k].t && size)
			memcpy(bufs[n], in[k].t->data, in[k].t->size < size ? in[k].t->size : size);
		ops[n] = (struct vops_operand){ bufs[n], size, VNPU_OPERAND_READ };
		n++;
	}
	for (k = 0; k < p->nout; k++) {
		bufs[n] = alloc_aligned(p->out[k].bytes);
		if (!bufs[n])
			goto oom;
		ops[n] = (struct vops_operand){ bufs[n], p->out[k].bytes, VNPU_OPERAND_WRITE };
		n++;
	}
	if (p->ws_bytes) {
		bufs[n] = alloc_aligned(p->ws_bytes);
		if (!bufs[n])
			goto oom;
		ops[n] = (struct vops_operand){ bufs[n], p->ws_bytes, VNPU_OPERAND_WORKSPACE };
		n++;
	}
	st = p->empty ? VOPS_RUN_OK : vops_run(p->desc, p->desc_size, ops, n, NULL, why, sizeof(why));
	if (st != VOPS_RUN_OK) {
		if (!quiet)
			atc_say(c->m, "node '%s' (%s): folding it (its inputs are constant) failed: %s%s", node, op,
			st == VOPS_RUN_ARITH ? "integer division by zero" : "vops_run refused it: ", why);
		ret = ATC_ERR_INVALID;
		goto out;
	}
	for (k = 0; k < p->nout; k++) {
		struct onnx_tensor *t = calloc(1, sizeof(*t));
		unsigned int b = (unsigned int)(p->nin + k);

		out[k] = t;
		if (!t)
			goto oom;
		t->acl_dtype = p->out[k].dtype;
		t->dtype = acl_to_onnx(t->acl_dtype);
		t->ndim = p->out[k].ndim;
		t->dims = malloc((size_t)(t->ndim ? t->ndim : 1) * sizeof(int64_t));
		t->name = strdup(node);
		if (!t->dims || !t->name)
			goto oom;
		t->count = 1;
		for (d = 0; d < t->ndim; d++) {
			t->dims[d] = p->out[k].dims[d];
			t->count *= (uint64_t)t->dims[d];
		}
		t->size = p->out[k].bytes;
		t->data = bufs[b];
		bufs[b] = NULL;
	}
	goto out;
oom:
	ret = nomem(c);
out:
	for (i = 0; i < n; i++)
		free(bufs[i]);
	if (ret)
		for (k = 0; k < p->nout; k++) {
			release_tensor(out[k]);
			out[k] = NULL;
		}
	return ret;
}

/* The inputs of call @call at probe @pr, from the node's values @vin. */
static void call_inputs(const struct atc_conv *c, const struct onnx_call *call, const int *vin, int pr,
			struct call_in *in)
{
	int k;

	for (k = 0; k < call->nin; k++) {
		if (call->in[k] >= ONNX_CALL_MADE) {
			const struct onnx_tensor *t = &call->made[call->in[k] - ONNX_CALL_MADE];

			in[k] = (struct call_in){ t, t->acl_dtype, t->ndim, t->dims, false };
		} else {
			const struct atc_val *v = &c->v[vin[call->in[k]]];

			in[k] = (struct call_in){ v->kind == OM_VALUE_CONST ? v->t : v->pv ? v->pv[pr] : NULL,
						  v->dtype, v->ndim, probe_dims(v, pr), v->pv != NULL };
		}
	}
}

static enum atc_err add_node(struct atc_conv *c, const char *name, const struct onnx_call *call, int *ins,
			     int *outs)
{
	struct atc_node *n;
	int k;

	if (c->nn == c->capn) {
		size_t cap = c->capn ? 2 * c->capn : 64;
		struct atc_node *grown = realloc(c->n, cap * sizeof(*grown));

		if (!grown)
			return nomem(c);
		c->n = grown;
		c->capn = cap;
	}
	n = &c->n[c->nn];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->type = call->type;
	n->nin = call->nin;
	n->nout = call->nout;
	n->attrs = copy_attrs(call->attrs, call->nattrs);
	n->nattrs = call->nattrs;
	if (!n->name || !n->attrs) {
		free(n->name);
		atc_free_attrs(n->attrs, n->nattrs);
		return nomem(c);
	}
	for (k = 0; k < call->nin; k++)
		n->in[k] = ins[k];
	for (k = 0; k < call->nout; k++) {
		n->out[k] = outs[k];
		c->v[outs[k]].node = (int)c->nn;
		c->v[outs[k]].port = k;
	}
	c->nn++;
	return ATC_OK;
}

/*
 * Reshape's shape known only at each probe ([1, -1], [2, -1]: PyTorch's
 * x.view(x.size(0), -1)): one shape for every probe, when there is one.
 * An entry that is input 0's dimension at every probe becomes 0 (copy it;
 * not with allowzero), one more entry that differs becomes -1 (what is
 * left). vin[1] is then that shape, a constant; else it stays, and the
 * probes' calls differ (said so).
 */
static enum atc_err general_shape(struct atc_conv *c, const struct onnx_node *node, const char *nname, int *vin)
{
	const struct atc_val *x = &c->v[vin[0]], *s = &c->v[vin[1]];
	bool zero_ok = !onnx_attr_int(node, "allowzero", 0), minus = false;
	struct onnx_tensor *t;
	int64_t *out, n;
	int i, p, left = -1, v;
	char base[512];

	if (!s->pv[0] || s->pv[0]->dtype != ONNX_INT64 || s->pv[0]->ndim != 1)
		return ATC_OK;
	n = s->pv[0]->dims[0];
	for (p = 1; p < c->nprobe; p++)
		if (!s->pv[p] || s->pv[p]->dtype != ONNX_INT64 || s->pv[p]->ndim != 1 || s->pv[p]->dims[0] != n)
			return ATC_OK;
	t = calloc(1, sizeof(*t));
	if (!t)
		return nomem(c);
	*t = (struct onnx_tensor){ .dtype = ONNX_INT64, .acl_dtype = ACL_INT64, .ndim = 1, .count = (uint64_t)n,
				   .size = (size_t)n * sizeof(int64_t) };
	t->name = strdup(nname);
	t->dims = malloc(sizeof(int64_t));
	t->data = malloc(n ? (size_t)n * sizeof(int64_t) : 1);
	if (!t->name || !t->dims || !t->data) {
		release_tensor(t);
		return nomem(c);
	}
	t->dims[0] = n;
	out = t->data;
	for (i = 0; i < n; i++) {
		bool same = true, copies = zero_ok && i < x->ndim;

		out[i] = ((const int64_t *)s->pv[0]->data)[i];
		for (p = 0; p < c->nprobe; p++) {
			int64_t e = ((const int64_t *)s->pv[p]->data)[i];

			same &= e == out[i];
			copies &= i < x->ndim && e == probe_dims(x, p)[i];
		}
		if (same) {
			minus |= out[i] == -1;
			continue;
		}
		if (copies) {
			out[i] = 0;
			continue;
		}
		if (left >= 0) {
			release_tensor(t);
			return ATC_OK;
		}
		left = i;
	}
	if (left >= 0 && minus) {
		release_tensor(t);
		return ATC_OK;
	}
	if (left >= 0)
		out[left] = -1;
	snprintf(base, sizeof(base), "%s/shape", nname);
	v = new_const(c, atc_unique_name(c, base), t, true);
	if (v < 0) {
		release_tensor(t);
		return nomem(c);
	}
	vin[1] = v;
	return ATC_OK;
}

/* The name of node output @k (ONNX's, or made up for an output nobody wants). */
static char *output_name(struct atc_conv *c, const struct onnx_node *node, const char *nname, int k)
{
	char buf[512];

	if (node->outputs[k][0])
		return strdup(node->outputs[k]);
	snprintf(buf, sizeof(buf), "%s:%d", nname, k);
	return atc_unique_name(c, buf);
}

/*
 * Node @node (named @nname): map it, plan it at every probe, and either fold
 * it (what it reads is constant) or add it to the graph.
 */
enum atc_err atc_node(struct atc_conv *c, const struct onnx_node *node, const char *nname)
{
	struct onnx_map_input min[VOPS_MAX_INPUTS];
	struct vops_tensor vt[VOPS_MAX_INPUTS];
	struct call_in cin[VOPS_MAX_INPUTS];
	struct onnx_tensor *folded[VOPS_MAX_OUTPUTS] = { 0 };
	int vin[VOPS_MAX_INPUTS], ins[VOPS_MAX_INPUTS], outs[VOPS_MAX_OUTPUTS];
	struct onnx_call *call0 = c->call[0];
	struct vops_error verr;
	struct onnx_error oerr;
	enum atc_err ret = ATC_OK;
	bool mapped0 = false, foldable = true, known = c->nprobe > 1;
	char where[1024];
	size_t i;
	int pr, k, d;

	if (node->ninputs > VOPS_MAX_INPUTS || node->noutputs > VOPS_MAX_OUTPUTS) {
		atc_say(c->m, "node '%s' (%s): more than %d inputs or %d outputs", nname, node->op_type,
			VOPS_MAX_INPUTS, VOPS_MAX_OUTPUTS);
		return ATC_ERR_UNSUPPORTED;
	}
	for (i = 0; i < node->ninputs; i++) {
		vin[i] = node->inputs[i][0] ? atc_find(c, node->inputs[i]) : -1;
		if (node->inputs[i][0] && vin[i] < 0) {
			atc_say(c->m, "node '%s' (%s): input '%s' is not made before it", nname, node->op_type,
				node->inputs[i]);
			return ATC_ERR_INVALID;
		}
	}
	for (i = 0; i < node->noutputs; i++)
		if (node->outputs[i][0] && atc_find(c, node->outputs[i]) >= 0) {
			atc_say(c->m, "node '%s' (%s): output '%s' is made twice", nname, node->op_type,
				node->outputs[i]);
			return ATC_ERR_INVALID;
		}
	if (!strcmp(node->op_type, "Reshape") && node->ninputs >= 2 && vin[0] >= 0 && vin[1] >= 0 &&
	    c->v[vin[1]].pv) {
		ret = general_shape(c, node, nname, vin);
		if (ret)
			return ret;
	}
	for (pr = 0; pr < c->nprobe && !ret; pr++) {
		struct onnx_call *call = pr ? c->call[1] : call0;

		for (i = 0; i < node->ninputs; i++) {
			const struct atc_val *v = vin[i] >= 0 ? &c->v[vin[i]] : NULL;

			min[i] = (struct onnx_map_input){ .present = v != NULL };
			if (v)
				min[i] = (struct onnx_map_input){ true, v->dtype, v->ndim, probe_dims(v, pr),
								  v->kind == OM_VALUE_CONST ? v->t
								  : v->pv		    ? v->pv[pr]
											    : NULL };
		}
		where[0] = '\0';
		if (c->nprobe > 1) {
			char probe[768];

			snprintf(where, sizeof(where), " (at %s)", describe_probe(c, pr, probe, sizeof(probe)));
		}
		if (onnx_map_node(node, c->onnx->opset, min, node->ninputs, call, &oerr)) {
			atc_say(c->m, "node '%s' (%s)%s: %s", nname, node->op_type, where, oerr.msg);
			ret = oerr.code == ONNX_ERR_UNSUPPORTED ? ATC_ERR_UNSUPPORTED
			      : oerr.code == ONNX_ERR_NOMEM	? ATC_ERR_NOMEM
								: ATC_ERR_INVALID;
			break;
		}
		if (!pr)
			mapped0 = true;
		if (pr && !call_equal(call0, call)) {
			atc_say(c->m,
				"node '%s' (%s)%s: its CANN call (%s) takes attributes decided by a dynamic "
				"dimension, which a model of one call per node cannot change at execution",
				nname, node->op_type, where, call0->type);
			ret = ATC_ERR_UNSUPPORTED;
		}
		call_inputs(c, call, vin, pr, cin);
		for (k = 0; k < call->nin && !ret; k++) {
			if (cin[k].dtype < 0 || !vops_dtype_size(cin[k].dtype)) {
				atc_say(c->m, "node '%s' (%s): its input %d is of a type vnpu's operators do not take",
					nname, node->op_type, k);
				ret = ATC_ERR_UNSUPPORTED;
			}
			vt[k] = (struct vops_tensor){ .dtype = cin[k].dtype, .ndim = cin[k].ndim, .dims = cin[k].dims };
		}
		if (!ret && vops_plan(call->type, call->nin, vt, call->nout, call->attrs, call->nattrs, c->plan, &verr)) {
			atc_say(c->m, "node '%s' (%s)%s: CANN %s: %s", nname, node->op_type, where, call->type, verr.msg);
			ret = verr.code == VOPS_ERR_NOT_FOUND ? ATC_ERR_UNSUPPORTED : ATC_ERR_INVALID;
		}
		if (ret) {
			if (pr)
				onnx_call_release(call);
			break;
		}
		if (!pr) {
			/* Folded when every input read is constant (Shape, Size read none). */
			uint64_t made = 0;

			for (k = 0; k < call->nin; k++) {
				foldable &= (cin[k].t && !cin[k].varies) ||
					    (c->plan->in_bytes[k] == 0 && is_static(c, &c->v[vin[call->in[k]]]));
				known &= cin[k].t || c->plan->in_bytes[k] == 0;
			}
			for (k = 0; k < call->nout; k++)
				made += c->plan->out[k].bytes;
			foldable &= made <= FOLD_MAX_BYTES;
			known &= !foldable && made <= PROBE_MAX_BYTES;
			if (foldable) {
				ret = fold(c, nname, node->op_type, c->plan, cin, folded, false);
				for (k = 0; k < call->nout && !ret; k++) {
					char *name = output_name(c, node, nname, call->out[k]);

					if (!name)
						ret = nomem(c);
					else if (new_const(c, name, folded[k], true) < 0) {
						release_tensor(folded[k]);
						ret = nomem(c);
					}
					folded[k] = NULL;
				}
				for (; k < call->nout; k++)
					release_tensor(folded[k]);
				onnx_call_release(call0);
				return ret;
			}
			for (k = 0; k < call->nout; k++) {
				int v = new_value(c, output_name(c, node, nname, call->out[k]), OM_VALUE_NODE,
						  c->plan->out[k].dtype, c->plan->out[k].ndim);

				if (v < 0 || (known && !(c->v[v].pv = calloc((size_t)c->nprobe, sizeof(void *))))) {
					ret = nomem(c);
					break;
				}
				outs[k] = v;
			}
			if (ret)
				break;
		}
		for (k = 0; k < call->nout; k++) {
			struct atc_val *v = &c->v[outs[k]];

			if (c->plan->out[k].ndim != v->ndim || c->plan->out[k].dtype != v->dtype) {
				atc_say(c->m,
					"node '%s' (%s)%s: output %d has rank %d, %s, and rank %d, %s at the first "
					"shapes: a rank or type decided at execution is not supported",
					nname, node->op_type, where, k, c->plan->out[k].ndim,
					vops_dtype_name(c->plan->out[k].dtype), v->ndim, vops_dtype_name(v->dtype));
				ret = ATC_ERR_UNSUPPORTED;
				break;
			}
			for (d = 0; d < v->ndim; d++)
				v->pd[(size_t)pr * (size_t)v->ndim + (size_t)d] = c->plan->out[k].dims[d];
		}
		/* Shapes alone decide it: its value at this probe, for the nodes after it. */
		if (!ret && known) {
			enum atc_err e = fold(c, nname, node->op_type, c->plan, cin, folded, true);

			for (k = 0; k < call->nout && !e; k++)
				c->v[outs[k]].pv[pr] = folded[k];
			/* Not computable at some probe (a division by zero): just not known. */
			for (k = 0; e && k < call->nout; k++) {
				struct atc_val *v = &c->v[outs[k]];
				int q;

				for (q = 0; q < c->nprobe; q++)
					release_tensor(v->pv[q]);
				free(v->pv);
				v->pv = NULL;
			}
			known &= !e;
			if (e == ATC_ERR_NOMEM)
				ret = e;	/* fold() said so */
		}
		if (pr)
			onnx_call_release(call);
	}
	if (!ret) {
		/* Tensors the mapping made are constants of the graph. */
		for (k = 0; k < call0->nin && !ret; k++) {
			if (call0->in[k] < ONNX_CALL_MADE) {
				ins[k] = vin[call0->in[k]];
				continue;
			}
			char base[512];
			struct onnx_tensor *t = copy_tensor(&call0->made[call0->in[k] - ONNX_CALL_MADE]);

			snprintf(base, sizeof(base), "%s/const%d", nname, k);
			ins[k] = t ? new_const(c, atc_unique_name(c, base), t, true) : -1;
			if (ins[k] < 0) {
				release_tensor(t);
				ret = nomem(c);
			}
		}
	}
	if (!ret)
		ret = add_node(c, nname, call0, ins, outs);
	if (mapped0)
		onnx_call_release(call0);
	return ret;
}

/* ---- output casts ---------------------------------------------------------- */

/* The graph output entry @t of --output_type names, or NULL (said why). */
static const char *cast_target(struct atc_conv *c, const struct atc_output_type *t)
{
	const struct onnx_graph *g = &c->onnx->graph;
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const struct onnx_node *n = &g->nodes[i];

		if (strcmp(c->names[i], t->node))
			continue;
		if ((size_t)t->index >= n->noutputs || !n->outputs[t->index][0]) {
			atc_say(c->m, "--output_type: node %s has no output %d", t->node, t->index);
			return NULL;
		}
		if (!onnx_graph_output(g, n->outputs[t->index])) {
			atc_say(c->m, "--output_type: output %d of node %s (%s) is not a graph output", t->index,
				t->node, n->outputs[t->index]);
			return NULL;
		}
		return n->outputs[t->index];
	}
	if (t->index == 0 && onnx_graph_output(g, t->node))
		return t->node;
	atc_say(c->m, "--output_type: the model has no node (nor graph output) %s", t->node);
	return NULL;
}

/* A Cast of graph output @name to @dtype, made as an ONNX Cast node is. */
static enum atc_err cast_output(struct atc_conv *c, const char *name, int32_t dtype)
{
	int v = atc_find(c, name);
	char base[512], *pre, *cname;
	struct onnx_attr to = { .name = "to", .type = ONNX_ATTR_INT };
	struct onnx_node node = { .domain = "", .op_type = "Cast", .ninputs = 1, .noutputs = 1, .nattrs = 1,
				  .attrs = &to };
	enum atc_err ret;

	if (v < 0 || c->v[v].dtype == dtype)
		return ATC_OK;
	if (c->v[v].kind == OM_VALUE_INPUT) {
		/* Renaming it would rename the model's input. */
		atc_say(c->m, "--output_type: output %s is the graph input of that name; it cannot be cast", name);
		return ATC_ERR_USAGE;
	}
	to.i = acl_to_onnx(dtype);
	/* The graph output keeps its name: what it was computed as takes another. */
	snprintf(base, sizeof(base), "%s_before_cast", name);
	pre = atc_unique_name(c, base);
	snprintf(base, sizeof(base), "%s_cast", name);
	cname = atc_unique_name(c, base);
	if (!pre || !cname) {
		free(pre);
		free(cname);
		return nomem(c);
	}
	free(c->v[v].name);
	c->v[v].name = pre;
	node.name = cname;
	/* The string, not the slot: atc_node() may move the values. */
	node.inputs = &pre;
	node.outputs = (char **)&name;
	ret = atc_node(c, &node, cname);
	free(cname);
	return ret;
}

static enum atc_err output_casts(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	int32_t *want = calloc(g->noutputs ? g->noutputs : 1, sizeof(int32_t));
	enum atc_err ret = ATC_OK;
	size_t i, j;

	if (!want)
		return nomem(c);
	for (j = 0; j < g->noutputs; j++)
		want[j] = -1;
	for (i = 0; i < c->o->noutput_types; i++) {
		const struct atc_output_type *t = &c->o->output_types[i];
		const char *target = t->node ? cast_target(c, t) : NULL;

		if (t->node && !target) {
			ret = ATC_ERR_USAGE;
			continue;
		}
		for (j = 0; j < g->noutputs; j++)
			if (!target || !strcmp(g->outputs[j].name, target))
				want[j] = t->dtype;
	}
	for (j = 0; j < g->noutputs && !ret; j++)
		if (want[j] >= 0)
			ret = cast_output(c, g->outputs[j].name, want[j]);
	free(want);
	return ret;
}

/* ---- the whole graph --------------------------------------------------------- */

static enum atc_err run_nodes(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	enum atc_err ret = ATC_OK;
	size_t i;

	for (i = 0; i < g->nnodes && !ret; i++) {
		size_t x = c->order[i];
		const struct onnx_node *n = &g->nodes[x];
		struct onnx_error oerr;

		if (!strcmp(n->op_type, "Constant") && (!n->domain[0] || !strcmp(n->domain, "ai.onnx"))) {
			struct onnx_tensor *t = calloc(1, sizeof(*t));

			if (!t)
				return nomem(c);
			if (n->noutputs != 1 || !n->outputs[0][0] || atc_find(c, n->outputs[0]) >= 0) {
				free(t);
				atc_say(c->m, "node '%s' (Constant): needs one output of a new name", c->names[x]);
				return ATC_ERR_INVALID;
			}
			if (onnx_node_constant(n, t, &oerr)) {
				free(t);
				atc_say(c->m, "node '%s' (Constant): %s", c->names[x], oerr.msg);
				return oerr.code == ONNX_ERR_NOMEM	 ? ATC_ERR_NOMEM
				       : oerr.code == ONNX_ERR_UNSUPPORTED ? ATC_ERR_UNSUPPORTED
									   : ATC_ERR_INVALID;
			}
			if (new_const(c, strdup(n->outputs[0]), t, true) < 0) {
				release_tensor(t);
				return nomem(c);
			}
			continue;
		}
		ret = atc_node(c, n, c->names[x]);
	}
	return ret;
}

static enum atc_err check_outputs(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	enum atc_err ret = ATC_OK;
	size_t j;

	if (!g->noutputs) {
		atc_say(c->m, "the graph has no output");
		return ATC_ERR_INVALID;
	}
	for (j = 0; j < g->noutputs; j++) {
		if (g->outputs[j].kind != ONNX_VALUE_TENSOR && g->outputs[j].kind != ONNX_VALUE_NONE) {
			atc_say(c->m, "output %s is not a tensor (sequences, maps and optionals are not supported)",
				g->outputs[j].name);
			ret = ATC_ERR_UNSUPPORTED;
		} else if (atc_find(c, g->outputs[j].name) < 0) {
			atc_say(c->m, "output %s is made by no node", g->outputs[j].name);
			ret = ATC_ERR_INVALID;
		}
	}
	return ret;
}

/* What the graph outputs need, back from them; the rest is dropped. */
static void mark_live(struct atc_conv *c)
{
	const struct onnx_graph *g = &c->onnx->graph;
	size_t i;
	int k;

	for (i = 0; i < g->noutputs; i++)
		c->v[atc_find(c, g->outputs[i].name)].live = true;
	for (i = c->nn; i-- > 0;) {
		struct atc_node *n = &c->n[i];

		for (k = 0; k < n->nout && !n->live; k++)
			n->live = c->v[n->out[k]].live;
		for (k = 0; n->live && k < n->nin; k++)
			c->v[n->in[k]].live = true;
	}
}

static void conv_release(struct atc_conv *c)
{
	size_t i;
	int p;

	for (i = 0; i < c->nv; i++) {
		free(c->v[i].name);
		free(c->v[i].pd);
		free(c->v[i].dims);
		free(c->v[i].range);
		free(c->v[i].sym);
		for (p = 0; c->v[i].pv && p < c->nprobe; p++)
			release_tensor(c->v[i].pv[p]);
		free(c->v[i].pv);
		if (c->v[i].t_owned)
			release_tensor((struct onnx_tensor *)c->v[i].t);
	}
	free(c->v);
	for (i = 0; i < c->nn; i++) {
		free(c->n[i].name);
		atc_free_attrs(c->n[i].attrs, c->n[i].nattrs);
	}
	free(c->n);
	for (i = 0; c->names && i < c->onnx->graph.nnodes; i++)
		free(c->names[i]);
	free(c->names);
	free(c->order);
	free(c->call[0]);
	free(c->call[1]);
	free(c->plan);
}

enum atc_err atc_convert(const struct onnx_model *onnx, const struct atc_options *o, struct om_model **out,
			 char *msg, size_t msg_size)
{
	struct atc_conv c = { .onnx = onnx, .o = o, .nprobe = 1 };
	struct atc_msg m;
	enum atc_err ret;

	atc_msg_init(&m, msg, msg_size);
	c.m = &m;
	*out = NULL;
	c.call[0] = malloc(sizeof(struct onnx_call));
	c.call[1] = malloc(sizeof(struct onnx_call));
	c.plan = malloc(sizeof(struct vops_plan));
	if (!c.call[0] || !c.call[1] || !c.plan)
		ret = nomem(&c);
	else
		ret = name_nodes(&c);
	if (!ret)
		ret = check_operators(&c);
	if (!ret)
		ret = setup_values(&c);
	if (!ret)
		ret = setup_probes(&c);
	if (!ret)
		ret = order_nodes(&c);
	if (!ret)
		ret = run_nodes(&c);
	if (!ret)
		ret = check_outputs(&c);
	if (!ret)
		ret = output_casts(&c);
	if (!ret) {
		mark_live(&c);
		ret = atc_emit(&c, out);
	}
	conv_release(&c);
	return ret;
}
