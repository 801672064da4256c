// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the model planner (lib/rt/rt_model_plan.c,
 * rt_model_mem.c, rt_model_cache.c): input shapes from descriptors, gears
 * and the model, with the messages of every refusal; node planning through
 * rt_op_plan() (a node's failure names it); the liveness layout (a chain's
 * peak is two values, not the sum; workspaces live for their node only;
 * no block overlaps another live one); outputs in place or copied; the
 * plan cache. The models are built by hand as struct om_model.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_builder.h"
#include "rt.h"
#include "rt_model.h"
#include "rt_op.h"

/* ---- building models ------------------------------------------------------------ */

static const char *msg(void)
{
	const char *m = rt_err_take_message();

	return m ? m : "";
}

#define MSG_HAS(s) ck_assert_msg(strstr(last_msg, (s)), "message \"%s\" lacks \"%s\"", last_msg, (s))
static char last_msg[RT_ERRMSG_MAX];

static aclError plan_with(struct omb *b, aclTensorDesc *const *desc, uint32_t ndesc, const int64_t *gear,
			  struct rt_mplan **p)
{
	int64_t *key;
	uint32_t len;
	aclError err = rt_model_input_dims(&b->m, desc, ndesc, gear, &key, &len);

	if (!err) {
		err = rt_mplan_build(&b->m, key, len, p);
		free(key);
	}
	snprintf(last_msg, sizeof(last_msg), "%s", err ? msg() : "");
	return err;
}

/* No two arena blocks live at the same time overlap: checked by walking
 * the plan as an execution would. */
static void check_no_overlap(const struct rt_mplan *p)
{
	uint32_t n, i, j;

	for (n = 0; n < p->nnodes; n++) {
		const struct rt_mnode *node = &p->nodes[n];
		uint64_t off[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1], size[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
		uint32_t k = 0;

		for (i = 0; i < (uint32_t)node->nin; i++)
			if (p->values[node->in[i]].loc == RT_MLOC_ARENA) {
				off[k] = p->values[node->in[i]].offset;
				size[k++] = p->values[node->in[i]].size;
			}
		for (i = 0; i < (uint32_t)node->nout; i++)
			if (p->values[node->out[i]].loc == RT_MLOC_ARENA) {
				off[k] = p->values[node->out[i]].offset;
				size[k++] = p->values[node->out[i]].size;
			}
		if (node->ws_bytes) {
			off[k] = node->ws_offset;
			size[k++] = node->ws_bytes;
		}
		for (i = 0; i < k; i++) {
			ck_assert_uint_le(off[i] + size[i], p->arena_bytes);
			for (j = i + 1; j < k; j++)
				ck_assert_msg(off[i] + size[i] <= off[j] || off[j] + size[j] <= off[i] ||
					      (off[i] == off[j] && size[i] == size[j] && i < (uint32_t)node->nin &&
					       j < (uint32_t)node->nin),
					      "node %u: blocks %u and %u overlap", n, i, j);
		}
	}
}

/* ---- tests ------------------------------------------------------------------------------ */

/* x -> Relu -> Abs -> Relu ... (10 nodes) -> y: two values live at once. */
START_TEST(chain_peak_is_two_values)
{
	const int64_t d[2] = { 64, 100 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t v, i;

	omb_init(&b, "test", 256, 128);
	v = omb_input(&b, "x", 2, d, NULL);
	for (i = 0; i < 10; i++)
		v = omb_node(&b, i % 2 ? "Abs" : "Relu", 1, &v, 2, d);
	omb_output(&b, v);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p->ntasks, 10);
	/* 9 intermediates of 25600 bytes, the last value is the output. */
	ck_assert_uint_eq(p->sum_bytes, 9 * 25600);
	ck_assert_uint_eq(p->arena_bytes, 2 * 25600);
	ck_assert_int_eq(p->values[v].loc, RT_MLOC_OUTPUT);
	ck_assert_int_eq(p->values[0].loc, RT_MLOC_INPUT);
	check_no_overlap(p);
	ck_assert_uint_eq(p->values[p->nodes[9].in[0]].last_use, 9);
	ck_assert_uint_eq(p->ncopies, 0);
	rt_mplan_put(p);
	omb_free(&b);
}
END_TEST

/* A diamond: x -> a = Relu(x); b = Abs(a); c = Add(a, b): a lives to c. */
START_TEST(diamond_keeps_shared_values_alive)
{
	const int64_t d[1] = { 1000 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t x, a, bb, c, in2[2];

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 1, d, NULL);
	a = omb_node(&b, "Relu", 1, &x, 1, d);
	bb = omb_node(&b, "Abs", 1, &a, 1, d);
	in2[0] = a;
	in2[1] = bb;
	c = omb_node(&b, "Add", 2, in2, 1, d);
	omb_output(&b, c);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p->values[a].last_use, 2);
	ck_assert_uint_ne(p->values[a].offset, p->values[bb].offset);
	ck_assert_uint_eq(p->arena_bytes, 4032 + 4000);	/* the second at 4000 rounded up to 64 */
	check_no_overlap(p);
	rt_mplan_put(p);
	omb_free(&b);
}
END_TEST

/* Workspaces live for their node only: a chain of reductions' workspaces
 * share one place. */
START_TEST(workspaces_live_for_their_node)
{
	const int64_t d[2] = { 8, 50 }, r[1] = { 8 }, r2[2] = { 8, 1 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t x, s1, a, s2;

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 2, d, NULL);
	s1 = omb_node(&b, "ReduceSumD", 1, &x, 1, r);
	omb_attr_axes(&b, 0, -1);
	(void)r2;
	a = omb_node(&b, "Relu", 1, &s1, 1, r);
	s2 = omb_node(&b, "ReduceSumD", 1, &a, 0, NULL);
	omb_attr_axes(&b, 2, -1);
	omb_output(&b, s2);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p->nodes[0].ws_bytes, 4 * 50);
	ck_assert_uint_eq(p->nodes[2].ws_bytes, 4 * 8);
	check_no_overlap(p);
	/* Node 0: s1 and its workspace; node 2: a and its workspace (s1 gone). */
	ck_assert_uint_le(p->arena_bytes, 64 + 64 + 256);
	ck_assert_uint_eq(p->sum_bytes, 32 + 200 + 32 + 32);
	rt_mplan_put(p);
	omb_free(&b);
}
END_TEST

/* Outputs that are inputs, constants or repeated become copies. */
START_TEST(outputs_copied_from_inputs_constants_and_outputs)
{
	const int64_t d[1] = { 4 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t x, c, r;

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 1, d, NULL);
	c = omb_value(&b, "w", OM_VALUE_CONST, 1, d);
	b.m.weights = calloc(1, 64);
	b.m.weights_size = 64;
	b.m.values[c].weight_offset = 0;
	b.m.values[c].weight_size = 16;
	r = omb_node(&b, "Relu", 1, &x, 1, d);
	omb_output(&b, r);
	omb_output(&b, x);
	omb_output(&b, c);
	omb_output(&b, r);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_SUCCESS);
	ck_assert_uint_eq(p->ncopies, 3);
	ck_assert_uint_eq(p->copies[0].output, 1);
	ck_assert_int_eq(p->values[p->copies[0].value].loc, RT_MLOC_INPUT);
	ck_assert_int_eq(p->values[p->copies[1].value].loc, RT_MLOC_CONST);
	ck_assert_int_eq(p->values[p->copies[2].value].loc, RT_MLOC_OUTPUT);
	ck_assert_uint_eq(p->copies[2].from_output, 0);
	ck_assert_uint_eq(p->ntasks, 4);
	ck_assert_uint_eq(p->arena_bytes, 0);
	rt_mplan_put(p);
	omb_free(&b);
}
END_TEST

/* Dynamic dimensions: given by descriptors, checked against the range. */
START_TEST(dynamic_dims_from_descriptors_and_ranges)
{
	const int64_t d[2] = { -1, 16 }, range[4] = { 1, 8, 16, 16 }, wd[2] = { 16, 4 }, od[2] = { -1, 4 };
	struct omb b;
	struct rt_mplan *p;
	aclTensorDesc *t;
	uint32_t x, w, y, in2[2];
	int64_t shape[2] = { 3, 16 };

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 2, d, range);
	w = omb_value(&b, "w", OM_VALUE_CONST, 2, wd);
	b.m.weights = calloc(1, 256);
	b.m.weights_size = 256;
	b.m.values[w].weight_size = 256;
	in2[0] = x;
	in2[1] = w;
	y = omb_node(&b, "MatMul", 2, in2, 2, od);
	omb_output(&b, y);
	b.m.dynamic_shape = true;

	/* Not given. */
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("input 0 (x): dimension 0 is decided at execution (-1) and was not given");
	MSG_HAS("aclmdlSetDatasetTensorDesc");
	t = aclCreateTensorDesc(ACL_FLOAT, 2, shape, ACL_FORMAT_ND);
	ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_SUCCESS);
	ck_assert_int_eq(p->values[y].dims[0], 3);
	ck_assert_int_eq(p->values[y].dims[1], 4);
	ck_assert_uint_eq(p->values[y].bytes, 48);
	ck_assert_uint_eq(p->values[x].bytes, 3 * 64);
	rt_mplan_put(p);
	/* Outside the range. */
	shape[0] = 9;
	ck_assert_int_eq(aclSetTensorShape(t, 2, shape), ACL_SUCCESS);
	ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("input 0 (x): dimension 0 is 9, outside its range [1, 8]");
	/* A known dimension that disagrees; a rank that does. */
	shape[0] = 2;
	shape[1] = 15;
	ck_assert_int_eq(aclSetTensorShape(t, 2, shape), ACL_SUCCESS);
	ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("dimension 1 is 16 in the model; its tensor descriptor says 15");
	ck_assert_int_eq(aclSetTensorShape(t, 1, shape), ACL_SUCCESS);
	ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("input 0 (x) has 2 dimensions; its tensor descriptor gives 1");
	/* Unbounded. */
	b.m.values[x].range[1] = -1;
	shape[0] = 1000;
	shape[1] = 16;
	ck_assert_int_eq(aclSetTensorShape(t, 2, shape), ACL_SUCCESS);
	ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_SUCCESS);
	rt_mplan_put(p);
	shape[0] = 0;
	ck_assert_int_eq(aclSetTensorShape(t, 2, shape), ACL_SUCCESS);
	ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("dimension 0 is 0, outside its range [1, unbounded]");
	aclDestroyTensorDesc(t);
	omb_free(&b);
}
END_TEST

/* Gears fill the -1 dimensions; without one chosen, the largest. */
START_TEST(gears_fill_unknown_dims)
{
	const int64_t d[2] = { -1, 5 }, g[1] = { 3 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t x, y;

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 2, d, NULL);
	y = omb_node(&b, "Relu", 1, &x, 2, d);
	omb_output(&b, y);
	b.m.dynamic = OM_DYNAMIC_BATCH;
	b.m.ngears = 3;
	b.m.gear_len = 1;
	b.m.gears = malloc(3 * sizeof(int64_t));
	b.m.gears[0] = 1;
	b.m.gears[1] = 4;
	b.m.gears[2] = 2;
	(void)omb_input(&b, OM_DYNAMIC_TENSOR_NAME, 1, g, NULL);
	b.m.values[b.m.inputs[1]].dtype = ACL_INT64;
	b.m.values[b.m.inputs[1]].dims[0] = 1;
	ck_assert_ptr_eq(rt_model_largest_gear(&b.m), &b.m.gears[1]);
	ck_assert_int_eq(plan_with(&b, NULL, 0, rt_model_largest_gear(&b.m), &p), ACL_SUCCESS);
	ck_assert_int_eq(p->values[y].dims[0], 4);
	ck_assert_uint_eq(p->values[y].bytes, 80);
	rt_mplan_put(p);
	ck_assert_int_eq(plan_with(&b, NULL, 0, &b.m.gears[2], &p), ACL_SUCCESS);
	ck_assert_int_eq(p->values[y].dims[0], 2);
	rt_mplan_put(p);
	omb_free(&b);
}
END_TEST

/* HW gears fill each input's -1 pair (H, then W); dims gears every -1 in
 * order; a dims gear too short says so. */
START_TEST(hw_and_dims_gears)
{
	const int64_t d[4] = { 1, 3, -1, -1 }, e[2] = { -1, 2 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t x, z, y, w;
	int64_t hw[2] = { 5, 7 }, dims[3] = { 4, 6, 9 };

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 4, d, NULL);
	y = omb_node(&b, "Relu", 1, &x, 4, d);
	omb_output(&b, y);
	b.m.dynamic = OM_DYNAMIC_HW;
	b.m.gear_len = 2;
	ck_assert_int_eq(plan_with(&b, NULL, 0, hw, &p), ACL_SUCCESS);
	ck_assert_int_eq(p->values[y].dims[2], 5);
	ck_assert_int_eq(p->values[y].dims[3], 7);
	rt_mplan_put(p);
	omb_free(&b);

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 4, d, NULL);
	z = omb_input(&b, "z", 2, e, NULL);
	y = omb_node(&b, "Relu", 1, &x, 4, d);
	w = omb_node(&b, "Abs", 1, &z, 2, e);
	omb_output(&b, y);
	omb_output(&b, w);
	b.m.dynamic = OM_DYNAMIC_DIMS;
	b.m.gear_len = 3;
	ck_assert_int_eq(plan_with(&b, NULL, 0, dims, &p), ACL_SUCCESS);
	ck_assert_int_eq(p->values[y].dims[2], 4);
	ck_assert_int_eq(p->values[y].dims[3], 6);
	ck_assert_int_eq(p->values[w].dims[0], 9);
	rt_mplan_put(p);
	b.m.gear_len = 2;
	ck_assert_int_eq(plan_with(&b, NULL, 0, dims, &p), ACL_ERROR_INVALID_PARAM);
	MSG_HAS("input 1 (z): dimension 0 has no value in the model's gears");
	omb_free(&b);
}
END_TEST

/* A node that lib/ops refuses fails with the operator's code, named. */
START_TEST(node_failures_name_the_node)
{
	const int64_t d[1] = { 4 }, e[1] = { 5 }, bad[1] = { 3 };
	struct omb b;
	struct rt_mplan *p;
	uint32_t x, z, y, in2[2];

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 1, d, NULL);
	z = omb_input(&b, "z", 1, e, NULL);
	in2[0] = x;
	in2[1] = z;
	y = omb_node(&b, "Add", 2, in2, 1, d);
	omb_output(&b, y);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_ERROR_OP_INPUT_NOT_MATCH);
	MSG_HAS("node n0 (Add): ");
	omb_free(&b);

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 1, d, NULL);
	y = omb_node(&b, "NoSuchOp", 1, &x, 1, d);
	omb_output(&b, y);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_ERROR_OP_NOT_FOUND);
	MSG_HAS("node n0 (NoSuchOp)");
	omb_free(&b);

	/* The model's output shape disagrees with the operator's. */
	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 1, d, NULL);
	y = omb_node(&b, "Relu", 1, &x, 1, bad);
	omb_output(&b, y);
	ck_assert_int_eq(plan_with(&b, NULL, 0, NULL, &p), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
	MSG_HAS("node n0 (Relu)");
	omb_free(&b);
}
END_TEST

START_TEST(plan_cache_keeps_the_recent_few)
{
	const int64_t d[1] = { -1 }, range[2] = { 1, 100 };
	struct rt_mplan_cache c = { 0 };
	struct omb b;
	struct rt_mplan *p;
	aclTensorDesc *t;
	int64_t shape[1];
	uint32_t x, y;
	int i;

	omb_init(&b, "test", 256, 128);
	x = omb_input(&b, "x", 1, d, range);
	y = omb_node(&b, "Relu", 1, &x, 1, d);
	omb_output(&b, y);
	t = aclCreateTensorDesc(ACL_FLOAT, 1, d, ACL_FORMAT_ND);
	for (i = 1; i <= RT_MODEL_PLAN_CACHE + 1; i++) {
		shape[0] = i;
		ck_assert_int_eq(aclSetTensorShape(t, 1, shape), ACL_SUCCESS);
		ck_assert_int_eq(plan_with(&b, &t, 1, NULL, &p), ACL_SUCCESS);
		ck_assert_ptr_null(rt_mplan_cache_find(&c, p->key, p->key_len));
		rt_mplan_cache_add(&c, p);
	}
	ck_assert_uint_eq(c.count, RT_MODEL_PLAN_CACHE);
	shape[0] = 1;	/* pushed out */
	ck_assert_ptr_null(rt_mplan_cache_find(&c, shape, 1));
	shape[0] = 2;
	p = rt_mplan_cache_find(&c, shape, 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_eq(c.plans[0], p);
	ck_assert_int_eq(p->values[y].dims[0], 2);
	ck_assert_uint_eq(c.hits, 1);
	rt_mplan_cache_clear(&c);
	ck_assert_uint_eq(c.count, 0);
	aclDestroyTensorDesc(t);
	omb_free(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lib_model");
	TCase *tc = tcase_create("planner");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, chain_peak_is_two_values);
	tcase_add_test(tc, diamond_keeps_shared_values_alive);
	tcase_add_test(tc, workspaces_live_for_their_node);
	tcase_add_test(tc, outputs_copied_from_inputs_constants_and_outputs);
	tcase_add_test(tc, dynamic_dims_from_descriptors_and_ranges);
	tcase_add_test(tc, gears_fill_unknown_dims);
	tcase_add_test(tc, hw_and_dims_gears);
	tcase_add_test(tc, node_failures_name_the_node);
	tcase_add_test(tc, plan_cache_keeps_the_recent_few);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
