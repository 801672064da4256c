// SPDX-License-Identifier: MIT
/*
 * model_tests.c - ONNX's backend node tests as models: each test's whole
 * graph converted by vnpu-atc's converter (tools/atc, atc_convert()),
 * serialized to a .om and read back (lib/om), then run and every output
 * compared with ONNX's expected one (node_common.h says how).
 *
 *   model_tests [--acl] [--list FILE] [--data DIR] [-v] [TEST...]
 *
 *   (default) run the read-back model's nodes in order on host memory with
 *            lib/ops (vops_plan, vops_run): the converter and the container
 *   --acl    load the .om with aclmdlLoadFromMem on device 0 and run it with
 *            aclmdlExecute; every other test leaves the output buffers NULL,
 *            for the runtime to allocate (freed here with aclrtFree)
 *   --list, --data, -v: as node_tests
 *
 * A test is one of ours when every node of its graph is an ONNX operator
 * with a mapping (lib/onnx/map); the expanded tests (a function written
 * out as several nodes) are whole graphs here. ONNX feeds shape-defining
 * values (Reshape's shape, Slice's starts) as graph inputs, which CANN's
 * attribute forms need at conversion: when a conversion fails, it is tried
 * again with every input but the first bound to the test's values
 * (--vnpu_const_input), as the node tests see them, then with every one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "atc.h"
#include "node_common.h"
#include "onnx_map.h"
#include "vnpu_drm.h"
#include "vnpu_om.h"
#include "vnpu_ops.h"
#include "vnpu_onnx.h"

static bool use_acl, verbose;
static unsigned int acl_runs;	/* every other run leaves the outputs NULL */

struct set_data {
	struct onnx_tensor feeds[NT_MAX_IO], want[NT_MAX_IO];
	size_t nfeeds, nwant;
};

/* The feed of graph input @name (by the graph's feed order), or NULL. */
static const struct onnx_tensor *feed_of(const struct onnx_graph *g, const struct set_data *d, const char *name)
{
	size_t j;

	for (j = 0; j < d->nfeeds; j++) {
		const struct onnx_value_info *f = onnx_graph_feed(g, j);

		if (f && !strcmp(f->name, name))
			return &d->feeds[j];
	}
	return NULL;
}

/* First line of @msg, for a TAP line. */
static void first_line(struct nt_result *r, const char *what, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	nt_say(r, "%s: %.*s", what, (int)(n > 600 ? 600 : n), msg);
}

/*
 * Convert @m, binding the integer feeds to their values when the plain
 * conversion fails. NT_PASS with *@om, or the verdict with why.
 */
static enum nt_verdict convert(const struct onnx_model *m, const struct set_data *d, struct om_model **om,
			       struct nt_result *r)
{
	static char msg[16384];
	struct atc_const_input bound[NT_MAX_IO];
	struct atc_options o;
	enum atc_err e;
	size_t j, n;
	int first;

	atc_options_init(&o);
	e = atc_convert(m, &o, om, msg, sizeof(msg));
	if (e == ATC_OK)
		return NT_PASS;
	/*
	 * As the node tests give every input but the data its value; then
	 * every input (ConstantOfShape, Range: the values are all there is).
	 */
	for (first = 1; first >= 0; first--) {
		n = 0;
		for (j = (size_t)first; j < d->nfeeds; j++) {
			const struct onnx_value_info *f = onnx_graph_feed(&m->graph, j);

			if (f)
				bound[n++] = (struct atc_const_input){ .name = f->name, .value = d->feeds[j] };
		}
		if (!n)
			continue;
		atc_options_init(&o);
		o.const_inputs = bound;
		o.nconst_inputs = n;
		e = atc_convert(m, &o, om, msg, sizeof(msg));
		if (e == ATC_OK)
			return NT_PASS;
	}
	first_line(r, "vnpu-atc", msg);
	return e == ATC_ERR_UNSUPPORTED ? NT_UNSUPPORTED : NT_FAIL;
}

/* Output @k of the graph: type and shape first, then the elements. */
static bool check_output(const struct onnx_tensor *want, int32_t dtype, int32_t ndim, const int64_t *dims,
			 const void *got, int k, struct nt_result *r)
{
	char a[128], b[128];

	if (dtype != want->acl_dtype || ndim != want->ndim ||
	    (ndim && memcmp(dims, want->dims, (size_t)ndim * sizeof(int64_t)))) {
		nt_say(r, "output %d: %s %s produced, want %s %s", k, vops_dtype_name(dtype),
		       vops_shape_str(a, sizeof(a), ndim, dims), vops_dtype_name(want->acl_dtype),
		       vops_shape_str(b, sizeof(b), want->ndim, want->dims));
		return false;
	}
	return nt_compare(want, dtype, got, k, r);
}

/* ---- on the host: the nodes in order with lib/ops ------------------------------- */

struct hval {
	int32_t dtype, ndim;
	int64_t dims[VOPS_MAX_RANK];
	void *data;
	uint64_t bytes;
	bool owned;
};

static void *alloc64(uint64_t size)
{
	void *p = NULL;

	return posix_memalign(&p, 64, size ? size : 64) ? NULL : p;
}

static enum nt_verdict run_host(const struct onnx_model *m, const struct om_model *om, const struct set_data *d,
				struct nt_result *r)
{
	struct hval *v = calloc(om->nvalues ? om->nvalues : 1, sizeof(*v));
	struct vops_plan *plan = malloc(sizeof(*plan));
	enum nt_verdict verdict = NT_FAIL;
	uint32_t i, k;

	if (!v || !plan) {
		nt_say(r, "out of memory");
		goto out;
	}
	for (i = 0; i < om->nvalues; i++) {
		const struct om_value *ov = &om->values[i];

		v[i].dtype = ov->dtype;
		v[i].ndim = ov->ndim;
		if (ov->ndim)
			memcpy(v[i].dims, ov->dims, (size_t)ov->ndim * sizeof(int64_t));
		if (ov->kind == OM_VALUE_CONST) {
			v[i].data = (char *)om->weights + ov->weight_offset;
			v[i].bytes = ov->weight_size;
		} else if (ov->kind == OM_VALUE_INPUT) {
			const struct onnx_tensor *t = feed_of(&m->graph, d, ov->name);

			if (!t) {
				nt_say(r, "model input %s has no value in the test data", ov->name);
				goto out;
			}
			v[i].ndim = t->ndim;
			if (t->ndim)
				memcpy(v[i].dims, t->dims, (size_t)t->ndim * sizeof(int64_t));
			v[i].data = t->data;
			v[i].bytes = t->size;
		}
	}
	for (i = 0; i < om->nnodes; i++) {
		const struct om_node *n = &om->nodes[i];
		struct vops_tensor in[VOPS_MAX_INPUTS];
		struct vops_operand ops[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
		struct vops_error err;
		unsigned int nops = 0;
		void *ws = NULL;
		char why[512];

		for (k = 0; k < n->nin; k++) {
			const struct hval *x = &v[n->in[k]];

			in[k] = (struct vops_tensor){ .dtype = x->dtype, .ndim = x->ndim, .dims = x->dims };
		}
		if (vops_plan(n->type, (int)n->nin, in, (int)n->nout, n->attrs, n->nattrs, plan, &err)) {
			nt_say(r, "node %s (%s): %s", n->name, n->type, err.msg);
			goto out;
		}
		for (k = 0; k < n->nin; k++)
			ops[nops++] = (struct vops_operand){ v[n->in[k]].data, plan->in_bytes[k], VNPU_OPERAND_READ };
		for (k = 0; k < n->nout; k++) {
			struct hval *y = &v[n->out[k]];

			y->dtype = plan->out[k].dtype;
			y->ndim = plan->out[k].ndim;
			memcpy(y->dims, plan->out[k].dims, sizeof(y->dims));
			y->bytes = plan->out[k].bytes;
			y->data = alloc64(y->bytes);
			y->owned = true;
			if (!y->data) {
				nt_say(r, "out of memory");
				goto out;
			}
			ops[nops++] = (struct vops_operand){ y->data, y->bytes, VNPU_OPERAND_WRITE };
		}
		if (plan->empty)
			continue;
		if (plan->ws_bytes) {
			ws = alloc64(plan->ws_bytes);
			if (!ws) {
				nt_say(r, "out of memory");
				goto out;
			}
			ops[nops++] = (struct vops_operand){ ws, plan->ws_bytes, VNPU_OPERAND_WORKSPACE };
		}
		if (vops_run(plan->desc, plan->desc_size, ops, nops, NULL, why, sizeof(why)) != VOPS_RUN_OK) {
			nt_say(r, "node %s (%s): vops_run: %s", n->name, n->type, why);
			free(ws);
			goto out;
		}
		free(ws);
	}
	for (k = 0; k < om->noutputs && k < d->nwant; k++) {
		const struct hval *y = &v[om->outputs[k]];

		if (!check_output(&d->want[k], y->dtype, y->ndim, y->dims, y->data, (int)k, r))
			goto out;
	}
	verdict = NT_PASS;
out:
	if (v)
		for (i = 0; i < om->nvalues; i++)
			if (v[i].owned)
				free(v[i].data);
	free(v);
	free(plan);
	return verdict;
}

/* ---- through aclmdl* -------------------------------------------------------------- */

/* Free a dataset's buffers (device memory and the buffer objects). */
static void free_dataset(aclmdlDataset *ds)
{
	size_t i;

	if (!ds)
		return;
	for (i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++) {
		aclDataBuffer *b = aclmdlGetDatasetBuffer(ds, i);
		void *p = aclGetDataBufferAddr(b);

		if (p)
			aclrtFree(p);
		aclDestroyDataBuffer(b);
	}
	aclmdlDestroyDataset(ds);
}

static bool acl_ok(aclError e, const char *what, struct nt_result *r)
{
	if (e == ACL_SUCCESS)
		return true;
	nt_say(r, "%s: %d %s", what, e, aclGetRecentErrMsg());
	return false;
}

static enum nt_verdict run_acl(const struct onnx_model *m, const void *om_buf, size_t om_len,
			       const struct set_data *d, struct nt_result *r)
{
	aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
	aclmdlDesc *desc = aclmdlCreateDesc();
	bool null_outputs = acl_runs++ % 2;
	enum nt_verdict verdict = NT_FAIL;
	uint32_t id = 0;
	bool loaded = false;
	size_t i, n;

	if (!in || !out || !desc) {
		nt_say(r, "aclmdlCreateDataset/Desc failed");
		goto out;
	}
	if (!acl_ok(aclmdlLoadFromMem(om_buf, om_len, &id), "aclmdlLoadFromMem", r))
		goto out;
	loaded = true;
	if (!acl_ok(aclmdlGetDesc(desc, id), "aclmdlGetDesc", r))
		goto out;
	n = aclmdlGetNumInputs(desc);
	for (i = 0; i < n; i++) {
		const char *name = aclmdlGetInputNameByIndex(desc, i);
		const struct onnx_tensor *t = name ? feed_of(&m->graph, d, name) : NULL;
		void *dev = NULL;
		size_t size;
		aclDataBuffer *b;

		if (!t) {
			nt_say(r, "model input %zu (%s) has no value in the test data", i, name ? name : "?");
			goto out;
		}
		size = t->size ? t->size : 1;
		if (!acl_ok(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc", r))
			goto out;
		if (t->size && !acl_ok(aclrtMemcpy(dev, size, t->data, t->size, ACL_MEMCPY_HOST_TO_DEVICE),
				       "aclrtMemcpy", r)) {
			aclrtFree(dev);
			goto out;
		}
		b = aclCreateDataBuffer(dev, t->size);
		if (!b || aclmdlAddDatasetBuffer(in, b)) {
			nt_say(r, "aclmdlAddDatasetBuffer: %s", aclGetRecentErrMsg());
			aclDestroyDataBuffer(b);
			aclrtFree(dev);
			goto out;
		}
	}
	n = aclmdlGetNumOutputs(desc);
	for (i = 0; i < n; i++) {
		size_t size = aclmdlGetOutputSizeByIndex(desc, i);
		void *dev = NULL;
		aclDataBuffer *b;

		if (!null_outputs &&
		    !acl_ok(aclrtMalloc(&dev, size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc", r))
			goto out;
		b = aclCreateDataBuffer(dev, null_outputs ? 0 : size);
		if (!b || aclmdlAddDatasetBuffer(out, b)) {
			nt_say(r, "aclmdlAddDatasetBuffer: %s", aclGetRecentErrMsg());
			aclDestroyDataBuffer(b);
			if (dev)
				aclrtFree(dev);
			goto out;
		}
	}
	if (!acl_ok(aclmdlExecute(id, in, out), null_outputs ? "aclmdlExecute (NULL outputs)" : "aclmdlExecute", r))
		goto out;
	for (i = 0; i < n && i < d->nwant; i++) {
		aclDataBuffer *b = aclmdlGetDatasetBuffer(out, i);
		aclTensorDesc *td = aclmdlGetDatasetTensorDesc(out, i);
		int32_t dtype = aclmdlGetOutputDataType(desc, i);
		int64_t dims[VOPS_MAX_RANK];
		size_t ndim = td ? aclGetTensorDescNumDims(td) : 0, j, bytes = d->want[i].size;
		void *host;
		bool ok;

		if (!td) {
			nt_say(r, "aclmdlGetDatasetTensorDesc(output %zu) is NULL after the execute", i);
			goto out;
		}
		for (j = 0; j < ndim && j < VOPS_MAX_RANK; j++)
			aclGetTensorDescDimV2(td, j, &dims[j]);
		if (bytes > aclGetDataBufferSizeV2(b)) {
			nt_say(r, "output %zu: buffer of %zu bytes, want %zu", i, (size_t)aclGetDataBufferSizeV2(b),
			       bytes);
			goto out;
		}
		host = alloc64(bytes);
		if (!host) {
			nt_say(r, "out of memory");
			goto out;
		}
		ok = !bytes || acl_ok(aclrtMemcpy(host, bytes, aclGetDataBufferAddr(b), bytes,
						  ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy", r);
		ok = ok && check_output(&d->want[i], dtype, (int32_t)ndim, dims, host, (int)i, r);
		free(host);
		if (!ok)
			goto out;
	}
	verdict = NT_PASS;
out:
	if (loaded && aclmdlUnload(id) && verdict == NT_PASS)
		verdict = acl_ok(ACL_ERROR_FAILURE, "aclmdlUnload", r) ? NT_PASS : NT_FAIL;
	aclmdlDestroyDesc(desc);
	free_dataset(in);
	free_dataset(out);
	return verdict;
}

/* ---- one test ------------------------------------------------------------------- */

static enum nt_verdict run_set(const struct onnx_model *m, const char *set, struct nt_result *r)
{
	struct set_data *d = calloc(1, sizeof(*d));
	struct om_model *om = NULL, *back = NULL;
	enum nt_verdict v = NT_FAIL;
	struct om_error oerr;
	void *buf = NULL;
	size_t len = 0, i;

	if (!d) {
		nt_say(r, "out of memory");
		return NT_FAIL;
	}
	if (nt_load_set(&m->graph, set, d->feeds, &d->nfeeds, d->want, &d->nwant, r))
		goto out;
	v = convert(m, d, &om, r);
	if (v != NT_PASS)
		goto out;
	v = NT_FAIL;
	if (om_write(om, &buf, &len, &oerr) || om_read(buf, len, &back, &oerr)) {
		nt_say(r, "lib/om: %s", oerr.msg);
		goto out;
	}
	if (back->noutputs != d->nwant) {
		nt_say(r, "the model has %u outputs, the test %zu", back->noutputs, d->nwant);
		goto out;
	}
	v = use_acl ? run_acl(m, buf, len, d, r) : run_host(m, back, d, r);
out:
	free(buf);
	om_model_free(om);
	om_model_free(back);
	for (i = 0; i < d->nfeeds; i++)
		onnx_tensor_release(&d->feeds[i]);
	for (i = 0; i < d->nwant; i++)
		onnx_tensor_release(&d->want[i]);
	free(d);
	return v;
}

/* "Add", or "7 nodes: Shape Gather ..." (a new string), for the TAP line. */
static char *graph_summary(const struct onnx_graph *g)
{
	char *s = malloc(256);
	size_t i, n;

	if (!s)
		abort();
	if (g->nnodes == 1) {
		snprintf(s, 256, "%s", g->nodes[0].op_type);
		return s;
	}
	n = (size_t)snprintf(s, 256, "%zu nodes:", g->nnodes);
	for (i = 0; i < g->nnodes && n < 200; i++)
		n += (size_t)snprintf(s + n, 256 - n, " %s", g->nodes[i].op_type);
	if (i < g->nnodes)
		snprintf(s + n, 256 - n, " ...");
	return s;
}

/* Is every node of @g an operator with a mapping, every input and output a tensor? */
static bool ours(const struct onnx_graph *g)
{
	size_t i;

	if (!g->nnodes)
		return false;
	for (i = 0; i < g->nnodes; i++)
		if (!onnx_map_find(g->nodes[i].op_type) ||
		    (g->nodes[i].domain[0] && strcmp(g->nodes[i].domain, "ai.onnx")))
			return false;
	for (i = 0; i < g->ninputs; i++)
		if (g->inputs[i].kind != ONNX_VALUE_TENSOR)
			return false;
	for (i = 0; i < g->noutputs; i++)
		if (g->outputs[i].kind != ONNX_VALUE_TENSOR)
			return false;
	return g->noutputs <= NT_MAX_IO;
}

/* One of ours: its graph's summary; else NULL. */
static char *summary(const struct onnx_model *m)
{
	return ours(&m->graph) ? graph_summary(&m->graph) : NULL;
}

int main(int argc, char **argv)
{
	const char *dir = NT_DATA_DIR;
	char **names = NULL;
	size_t nnames = 0, i;
	bool all;
	int a, status;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--acl")) {
			use_acl = true;
		} else if (!strcmp(argv[a], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[a], "--list") && a + 1 < argc) {
			if (nt_list_load("model_tests", argv[++a]))
				return 2;
		} else if (!strcmp(argv[a], "--data") && a + 1 < argc) {
			dir = argv[++a];
		} else if (argv[a][0] == '-') {
			fprintf(stderr, "usage: %s [--acl] [--list FILE] [--data DIR] [-v] [TEST...]\n", argv[0]);
			return 2;
		} else {
			names = realloc(names, (nnames + 1) * sizeof(*names));
			if (!names)
				abort();
			names[nnames++] = strdup(argv[a]);
		}
	}
	all = !nnames;
	if (all && nt_test_names("model_tests", dir, &names, &nnames))
		return 2;
	if (use_acl) {
		aclError e = aclInit(NULL);

		if (!e)
			e = aclrtSetDevice(0);
		if (e) {
			fprintf(stderr, "model_tests: ACL setup: %d %s\n", e, aclGetRecentErrMsg());
			return 2;
		}
	}
	for (i = 0; i < nnames; i++) {
		struct nt_result r;
		char *op;
		enum nt_verdict v = nt_run_test(dir, names[i], summary, run_set, &r, &op);

		nt_report(names[i], op, v, &r, verbose);
		free(op);
	}
	status = nt_summary(use_acl ? " as models through aclmdlExecute" : " as models on the host", nnames, all);
	if (use_acl) {
		aclrtResetDevice(0);
		aclFinalize();
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	nt_list_free();
	return status;
}
