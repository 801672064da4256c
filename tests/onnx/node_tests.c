// SPDX-License-Identifier: MIT
/*
 * node_tests.c - ONNX's backend node tests through vnpu's operator library.
 *
 * Every test of Debian's libonnx-testdata whose graph is one node: the node
 * is mapped to its CANN operator (lib/onnx/map), planned by lib/ops, run,
 * and each output compared with ONNX's expected one (floats: |got - want|
 * <= 1e-7 + 1e-3 * |want|, NaN where NaN is expected; integers and bool
 * exactly; type and shape always).
 *
 *   node_tests [--acl] [--list FILE] [--data DIR] [-v] [TEST...]
 *
 *   --acl    run through libascendcl on device 0, not on host memory
 *            (vops_run): each call through aclopExecuteV2,
 *            aclopCompileAndExecuteV2, aclopExecute and aclopCompileAndExecute
 *            in turn
 *   --list   a file of expected results (a file of tests/onnx/expected; may be
 *            given more than once): "TEST pass" must pass, "TEST skip REASON"
 *            says why it does not
 *   --data   the node tests' directory (default Debian's)
 *   --mutate N  after each call that passes on the host, run N copies of
 *            its descriptor with one to three bytes corrupted on the same
 *            operands (fixed seed): nothing outside the operands may be
 *            touched (ASan, UBSan) and every run must return
 *   --seed S the corruptions' seed (default fixed)
 *
 * Output is TAP: one line per test of an operator that has a mapping (a
 * test listed "pass" that fails is "not ok"; everything else is "ok",
 * with "# SKIP" and the reason when it did not pass), then the counts.
 * Exit status 1 when a listed test failed.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "node_common.h"
#include "onnx_map.h"
#include "vnpu_drm.h"
#include "vnpu_ops.h"
#include "vnpu_onnx.h"

#define MAX_IO NT_MAX_IO

static bool use_acl, verbose;
static unsigned int mutations;	/* --mutate: corrupted descriptors per planned call */
static unsigned long mutated_runs[4];	/* by enum vops_run_status */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static aclrtStream stream;
static unsigned int entry;	/* which ACL entry point runs the next call */

/* ---- running one call ----------------------------------------------------------- */

struct io {
	const struct onnx_tensor *in[MAX_IO];	/* the call's inputs */
	const struct onnx_tensor *want[MAX_IO];	/* the call's expected outputs */
	int nin, nout;
};


static void *alloc_aligned(uint64_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, size ? size : 64))
		return NULL;
	return p;
}

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Stop a corrupted call after a bounded amount of work. */
static bool stop_after(void *priv)
{
	unsigned int *asked = priv;

	return ++*asked > 64;
}

/*
 * Run @mutations corrupted copies of @p's descriptor (one to three bytes
 * changed) on the same operands: whatever vops_run() makes of them, it may
 * touch nothing outside the operands (ASan, UBSan) and must return.
 */
static void mutate(const struct vops_plan *p, const struct vops_operand *good, unsigned int n)
{
	static unsigned char d[VOPS_MAX_DESC];
	struct vops_operand ops[2 * MAX_IO + 1];
	unsigned int m, k, asked;
	struct vops_ctl ctl = { .should_stop = stop_after, .priv = &asked };

	/* Outputs of their own, so that the good results stay to be compared. */
	memcpy(ops, good, n * sizeof(*ops));
	for (k = 0; k < n; k++)
		if (ops[k].access == VNPU_OPERAND_WRITE) {
			ops[k].ptr = alloc_aligned(ops[k].size);
			if (!ops[k].ptr)
				abort();
		}
	for (m = 0; m < mutations; m++) {
		memcpy(d, p->desc, p->desc_size);
		for (k = 0; k <= next_rand() % 3; k++) {
			uint64_t v = next_rand();

			d[v % p->desc_size] = (v >> 32) & 1 ? (unsigned char)(v >> 40) :
							   d[v % p->desc_size] ^ (1u << ((v >> 40) & 7));
		}
		asked = 0;
		mutated_runs[vops_run(d, p->desc_size, ops, n, &ctl, NULL, 0) & 3]++;
	}
	for (k = 0; k < n; k++)
		if (ops[k].access == VNPU_OPERAND_WRITE)
			free(ops[k].ptr);
}

static bool run_host(const struct vops_plan *p, const struct io *io, void **outs, struct nt_result *r)
{
	struct vops_operand ops[2 * MAX_IO + 1];
	unsigned int n = 0, i;
	void *ins[MAX_IO] = { 0 }, *ws = NULL;
	enum vops_run_status st;
	char why[512];
	bool ok = false;

	for (i = 0; i < (unsigned int)io->nin; i++) {
		ins[i] = alloc_aligned(io->in[i]->size);
		if (!ins[i])
			goto out;
		memcpy(ins[i], io->in[i]->data, io->in[i]->size);
		ops[n++] = (struct vops_operand){ ins[i], io->in[i]->size, VNPU_OPERAND_READ };
	}
	for (i = 0; i < (unsigned int)io->nout; i++) {
		memset(outs[i], 0xa5, p->out[i].bytes);
		ops[n++] = (struct vops_operand){ outs[i], p->out[i].bytes, VNPU_OPERAND_WRITE };
	}
	if (p->ws_bytes) {
		ws = alloc_aligned(p->ws_bytes);
		if (!ws)
			goto out;
		ops[n++] = (struct vops_operand){ ws, p->ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	st = vops_run(p->desc, p->desc_size, ops, n, NULL, why, sizeof(why));
	if (st != VOPS_RUN_OK)
		nt_say(r, "vops_run: status %d %s", st, why);
	ok = st == VOPS_RUN_OK;
	if (ok)
		mutate(p, ops, n);
out:
	if (!ok && !r->why[0])
		nt_say(r, "out of memory");
	for (i = 0; i < (unsigned int)io->nin; i++)
		free(ins[i]);
	free(ws);
	return ok;
}

static aclopAttr *acl_attrs(const struct onnx_call *c, struct nt_result *r)
{
	aclopAttr *at = aclopCreateAttr();
	unsigned int i;
	aclError e = ACL_SUCCESS;

	for (i = 0; at && i < c->nattrs && !e; i++) {
		const struct vops_attr *a = &c->attrs[i];

		switch (a->kind) {
		case VOPS_ATTR_BOOL: e = aclopSetAttrBool(at, a->name, a->b); break;
		case VOPS_ATTR_INT: e = aclopSetAttrInt(at, a->name, a->i); break;
		case VOPS_ATTR_FLOAT: e = aclopSetAttrFloat(at, a->name, a->f); break;
		case VOPS_ATTR_STRING: e = aclopSetAttrString(at, a->name, a->s); break;
		case VOPS_ATTR_DTYPE: e = aclopSetAttrDataType(at, a->name, (aclDataType)a->dt); break;
		case VOPS_ATTR_LIST_INT: e = aclopSetAttrListInt(at, a->name, a->li.n, a->li.v); break;
		case VOPS_ATTR_LIST_FLOAT: e = aclopSetAttrListFloat(at, a->name, a->lf.n, a->lf.v); break;
		}
	}
	if (!at || e) {
		nt_say(r, "aclopSetAttr*: %d %s", e, aclGetRecentErrMsg());
		aclopDestroyAttr(at);
		return NULL;
	}
	return at;
}

static aclTensorDesc *acl_desc(int32_t dt, int ndim, const int64_t *dims)
{
	return aclCreateTensorDesc((aclDataType)dt, ndim, ndim ? dims : NULL, ACL_FORMAT_ND);
}

static bool run_acl(const struct onnx_call *c, const struct vops_plan *p, const struct io *io, void **outs,
		    struct nt_result *r)
{
	aclTensorDesc *idesc[MAX_IO] = { 0 }, *odesc[MAX_IO] = { 0 };
	aclDataBuffer *ibuf[MAX_IO] = { 0 }, *obuf[MAX_IO] = { 0 };
	void *idev[MAX_IO] = { 0 }, *odev[MAX_IO] = { 0 };
	static const char *const entry_names[4] = {
		"aclopExecuteV2", "aclopCompileAndExecuteV2", "aclopExecute", "aclopCompileAndExecute",
	};
	aclopAttr *at = acl_attrs(c, r);
	const char *how;
	bool ok = false;
	aclError e;
	int i;

	if (!at)
		return false;
	for (i = 0; i < io->nin; i++) {
		const struct onnx_tensor *t = io->in[i];
		size_t sz = t->size ? t->size : 1;

		idesc[i] = acl_desc(t->acl_dtype, t->ndim, t->dims);
		if (aclrtMalloc(&idev[i], sz, ACL_MEM_MALLOC_HUGE_FIRST) ||
		    (t->size && aclrtMemcpy(idev[i], sz, t->data, t->size, ACL_MEMCPY_HOST_TO_DEVICE))) {
			nt_say(r, "input %d: aclrtMalloc/aclrtMemcpy: %s", i, aclGetRecentErrMsg());
			goto out;
		}
		ibuf[i] = aclCreateDataBuffer(idev[i], t->size);
	}
	for (i = 0; i < io->nout; i++) {
		size_t sz = p->out[i].bytes ? p->out[i].bytes : 1;

		odesc[i] = acl_desc(p->out[i].dtype, p->out[i].ndim, p->out[i].dims);
		if (aclrtMalloc(&odev[i], sz, ACL_MEM_MALLOC_HUGE_FIRST)) {
			nt_say(r, "output %d: aclrtMalloc: %s", i, aclGetRecentErrMsg());
			goto out;
		}
		obuf[i] = aclCreateDataBuffer(odev[i], p->out[i].bytes);
	}
	/* Each test through one of the four entry points, in turn (same rules). */
	how = entry_names[entry % 4];
	switch (entry++ % 4) {
	case 0:
		e = aclopExecuteV2(c->type, io->nin, idesc, ibuf, io->nout, odesc, obuf, at, stream);
		break;
	case 1:
		e = aclopCompileAndExecuteV2(c->type, io->nin, idesc, ibuf, io->nout, odesc, obuf, at,
					     ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, stream);
		break;
	case 2:
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
		e = aclopExecute(c->type, io->nin, (const aclTensorDesc *const *)idesc,
				 (const aclDataBuffer *const *)ibuf, io->nout,
				 (const aclTensorDesc *const *)odesc, obuf, at, stream);
#pragma GCC diagnostic pop
		break;
	default:
		e = aclopCompileAndExecute(c->type, io->nin, (const aclTensorDesc *const *)idesc,
					   (const aclDataBuffer *const *)ibuf, io->nout,
					   (const aclTensorDesc *const *)odesc, obuf, at, ACL_ENGINE_SYS,
					   ACL_COMPILE_SYS, NULL, stream);
		break;
	}
	if (!e)
		e = aclrtSynchronizeStream(stream);
	if (e) {
		nt_say(r, "%s: %d %s", how, e, aclGetRecentErrMsg());
		goto out;
	}
	for (i = 0; i < io->nout; i++)
		if (p->out[i].bytes && aclrtMemcpy(outs[i], p->out[i].bytes, odev[i], p->out[i].bytes,
						   ACL_MEMCPY_DEVICE_TO_HOST)) {
			nt_say(r, "output %d: aclrtMemcpy: %s", i, aclGetRecentErrMsg());
			goto out;
		}
	ok = true;
out:
	for (i = 0; i < MAX_IO; i++) {
		aclDestroyTensorDesc(idesc[i]);
		aclDestroyTensorDesc(odesc[i]);
		aclDestroyDataBuffer(ibuf[i]);
		aclDestroyDataBuffer(obuf[i]);
		if (idev[i])
			aclrtFree(idev[i]);
		if (odev[i])
			aclrtFree(odev[i]);
	}
	aclopDestroyAttr(at);
	return ok;
}

/* ---- one test data set ---------------------------------------------------------- */

static enum nt_verdict run_set(const struct onnx_model *m, const char *set, struct nt_result *r)
{
	const struct onnx_graph *g = &m->graph;
	const struct onnx_node *node = &g->nodes[0];
	struct onnx_tensor feeds[MAX_IO], outs_want[MAX_IO];
	struct onnx_map_input min[MAX_IO];
	size_t nfeeds = 0, nwant = 0, i, j;
	struct vops_tensor vt[MAX_IO];
	struct onnx_call *call = NULL;
	void *outs[MAX_IO] = { 0 };
	enum nt_verdict v = NT_FAIL;
	struct vops_error verr;
	struct onnx_error oerr;
	struct vops_plan *plan = NULL;
	struct io io = { 0 };
	int k;

	memset(feeds, 0, sizeof(feeds));
	memset(outs_want, 0, sizeof(outs_want));
	if (node->ninputs > MAX_IO || node->noutputs > MAX_IO || g->noutputs > MAX_IO) {
		nt_say(r, "more than %d inputs or outputs", MAX_IO);
		return NT_UNSUPPORTED;
	}
	/* Only tensors: sequences and optionals are not operator operands here. */
	for (i = 0; i < g->ninputs; i++)
		if (g->inputs[i].kind != ONNX_VALUE_TENSOR) {
			nt_say(r, "graph input %s is not a tensor", g->inputs[i].name);
			return NT_UNSUPPORTED;
		}
	for (i = 0; i < g->noutputs; i++)
		if (g->outputs[i].kind != ONNX_VALUE_TENSOR) {
			nt_say(r, "graph output %s is not a tensor", g->outputs[i].name);
			return NT_UNSUPPORTED;
		}
	if (nt_load_set(g, set, feeds, &nfeeds, outs_want, &nwant, r))
		goto out;

	/* The node's inputs: fed by the test data (by graph input name) or initializers. */
	for (i = 0; i < node->ninputs; i++) {
		const struct onnx_tensor *val = NULL;

		min[i] = (struct onnx_map_input){ .present = node->inputs[i][0] != '\0' };
		if (!min[i].present)
			continue;
		for (j = 0; j < nfeeds && !val; j++) {
			const struct onnx_value_info *f = onnx_graph_feed(g, j);

			if (f && !strcmp(f->name, node->inputs[i]))
				val = &feeds[j];
		}
		if (!val)
			val = onnx_graph_init(g, node->inputs[i]);
		if (!val) {
			nt_say(r, "node input %s has no value in the test data", node->inputs[i]);
			goto out;
		}
		min[i].acl_dtype = val->acl_dtype;
		min[i].ndim = val->ndim;
		min[i].dims = val->dims;
		min[i].value = val;
	}
	call = calloc(1, sizeof(*call));
	plan = calloc(1, sizeof(*plan));
	if (!call || !plan) {
		nt_say(r, "out of memory");
		goto out;
	}
	if (onnx_map_node(node, m->opset, min, node->ninputs, call, &oerr)) {
		nt_say(r, "%s", oerr.msg);
		v = oerr.code == ONNX_ERR_UNSUPPORTED ? NT_UNSUPPORTED : NT_FAIL;
		free(call);
		call = NULL;
		goto out;
	}
	io.nin = call->nin;
	io.nout = call->nout;
	for (k = 0; k < call->nin; k++) {
		const struct onnx_tensor *t;

		if (call->in[k] >= ONNX_CALL_MADE)
			t = &call->made[call->in[k] - ONNX_CALL_MADE];
		else
			t = min[call->in[k]].value;
		if (t->acl_dtype < 0) {
			nt_say(r, "input %d is %s, which has no aclDataType", k, onnx_dtype_name(t->dtype));
			v = NT_UNSUPPORTED;
			goto out;
		}
		io.in[k] = t;
		vt[k] = (struct vops_tensor){ .dtype = t->acl_dtype, .ndim = t->ndim, .dims = t->dims };
	}
	for (k = 0; k < call->nout; k++) {
		const char *name = node->outputs[call->out[k]];

		io.want[k] = NULL;
		for (j = 0; j < g->noutputs; j++)
			if (!strcmp(g->outputs[j].name, name))
				io.want[k] = &outs_want[j];
	}
	if (vops_plan(call->type, call->nin, vt, call->nout, call->attrs, call->nattrs, plan, &verr)) {
		nt_say(r, "vops_plan(%s): %s", call->type, verr.msg);
		goto out;
	}
	for (k = 0; k < call->nout; k++) {
		const struct onnx_tensor *w = io.want[k];
		char a[128], b[128];

		if (!w)
			continue;
		if (plan->out[k].dtype != w->acl_dtype || plan->out[k].ndim != w->ndim ||
		    (w->ndim && memcmp(plan->out[k].dims, w->dims, (size_t)w->ndim * sizeof(int64_t)))) {
			nt_say(r, "output %d: %s %s planned, want %s %s", k, vops_dtype_name(plan->out[k].dtype),
			    vops_shape_str(a, sizeof(a), plan->out[k].ndim, plan->out[k].dims),
			    vops_dtype_name(w->acl_dtype), vops_shape_str(b, sizeof(b), w->ndim, w->dims));
			goto out;
		}
	}
	for (k = 0; k < call->nout; k++) {
		outs[k] = alloc_aligned(plan->out[k].bytes);
		if (!outs[k]) {
			nt_say(r, "out of memory");
			goto out;
		}
	}
	if (!(use_acl ? run_acl(call, plan, &io, outs, r) : run_host(plan, &io, outs, r)))
		goto out;
	for (k = 0; k < call->nout; k++)
		if (io.want[k] && !nt_compare(io.want[k], plan->out[k].dtype, outs[k], k, r))
			goto out;
	v = NT_PASS;
out:
	for (k = 0; k < MAX_IO; k++)
		free(outs[k]);
	if (call) {
		onnx_call_release(call);
		free(call);
	}
	free(plan);
	for (i = 0; i < nfeeds; i++)
		onnx_tensor_release(&feeds[i]);
	for (i = 0; i < nwant; i++)
		onnx_tensor_release(&outs_want[i]);
	return v;
}

/* ---- one test ------------------------------------------------------------------- */

/* One node of an operator with a mapping: the operator's name; else NULL
 * (not one of the library's tests). */
static char *single_node(const struct onnx_model *m)
{
	const struct onnx_node *n = &m->graph.nodes[0];

	if (m->graph.nnodes != 1 || !onnx_map_find(n->op_type) || (n->domain[0] && strcmp(n->domain, "ai.onnx")))
		return NULL;
	return strdup(n->op_type);
}

int main(int argc, char **argv)
{
	const char *dir = NT_DATA_DIR;
	char **names = NULL;
	size_t nnames = 0, i;
	bool all;
	int a, status;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--acl"))
			use_acl = true;
		else if (!strcmp(argv[a], "-v"))
			verbose = true;
		else if (!strcmp(argv[a], "--mutate") && a + 1 < argc)
			mutations = (unsigned int)strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			rng = (strtoull(argv[++a], NULL, 0) + 1) * 0x9e3779b97f4a7c15ull;
		else if (!strcmp(argv[a], "--list") && a + 1 < argc) {
			if (nt_list_load("node_tests", argv[++a]))
				return 2;
		}
		else if (!strcmp(argv[a], "--data") && a + 1 < argc)
			dir = argv[++a];
		else if (argv[a][0] == '-') {
			fprintf(stderr, "usage: %s [--acl] [--list FILE] [--data DIR] [--mutate N] [--seed S] [-v] "
				"[TEST...]\n",
				argv[0]);
			return 2;
		} else {
			names = realloc(names, (nnames + 1) * sizeof(*names));
			names[nnames++] = strdup(argv[a]);
		}
	}
	all = !nnames;
	if (all && nt_test_names("node_tests", dir, &names, &nnames))
		return 2;
	if (use_acl) {
		aclError e = aclInit(NULL);

		if (!e)
			e = aclrtSetDevice(0);
		if (!e)
			e = aclrtCreateStream(&stream);
		if (e) {
			fprintf(stderr, "node_tests: ACL setup: %d %s\n", e, aclGetRecentErrMsg());
			return 2;
		}
	}
	for (i = 0; i < nnames; i++) {
		struct nt_result r;
		char *op;
		enum nt_verdict v = nt_run_test(dir, names[i], single_node, run_set, &r, &op);

		nt_report(names[i], op, v, &r, verbose);
		free(op);
	}
	status = nt_summary(use_acl ? " through aclopExecuteV2 and its kin" : " on the host", nnames, all);
	if (mutations)
		printf("# corrupted descriptors: %lu ran, %lu faulted, %lu arithmetic errors, %lu "
		       "cancelled\n", mutated_runs[VOPS_RUN_OK], mutated_runs[VOPS_RUN_FAULT],
		       mutated_runs[VOPS_RUN_ARITH], mutated_runs[VOPS_RUN_CANCELED]);
	if (use_acl) {
		aclrtDestroyStream(stream);
		aclrtResetDevice(0);
		aclFinalize();
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	nt_list_free();
	return status;
}
