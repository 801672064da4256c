// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of vnpu-engined's operator path with the real operator
 * library: a call planned by vops_plan() (as libascendcl plans it) goes
 * through a job event, exec_job() and vops_run() (as the server runs it),
 * and a descriptor that asks for more than its operands hold faults
 * without a byte written. Buffers are exactly sized allocations (ASan).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "engined.h"

#define N 1000

static unsigned char *bufs[4];		/* ids 1..3 */
static uint64_t sizes[4];

static void *map(void *priv, const struct drm_vnpu_engine_operand *op)
{
	(void)priv;
	if (op->buffer < 1 || op->buffer > 3 || op->buffer_size != sizes[op->buffer])
		return NULL;
	return bufs[op->buffer];
}

static uint64_t scratch[VNPU_MAX_OP_DESC_SIZE / 8];

/*
 * One OP task over inputs in buffers 1 and 2 and the output in buffer 3,
 * the descriptor @pad bytes into the data area. Returns how the job ended.
 */
static struct exec_result run_add(const struct vops_plan *plan, uint32_t pad, uint64_t out_size)
{
	size_t tasks = sizeof(struct drm_vnpu_engine_task), ops = 3 * sizeof(struct drm_vnpu_engine_operand);
	size_t data = (pad + plan->desc_size + 7) & ~(size_t)7;
	size_t size = sizeof(struct drm_vnpu_engine_job) + tasks + ops + data;
	struct drm_vnpu_engine_job *job = calloc(1, size);
	struct drm_vnpu_engine_task *t = (void *)(job + 1);
	struct drm_vnpu_engine_operand *o = (void *)(t + 1);
	unsigned char *d = (unsigned char *)(o + 3);
	uint32_t cancel = 0, parked = 0;
	struct exec_env env = {
		.map = map, .run_op = vops_run, .cancel = &cancel, .parked = &parked,
		.desc_scratch = scratch,
	};
	struct exec_result res;
	struct job_view v;

	ck_assert_ptr_nonnull(job);
	job->hdr = (struct drm_vnpu_engine_event){ VNPU_ENGINE_EVENT_JOB, (uint32_t)size };
	job->task_count = 1;
	job->operand_count = 3;
	job->data_size = (uint32_t)data;
	*t = (struct drm_vnpu_engine_task){ .kind = VNPU_TASK_OP, .operand = 0, .operand_count = 3,
					    .desc_offset = pad, .desc_size = plan->desc_size };
	for (unsigned int i = 0; i < 3; i++)
		o[i] = (struct drm_vnpu_engine_operand){
			.buffer = i + 1, .buffer_offset = (i + 1) << 20, .buffer_size = sizes[i + 1],
			.size = i < 2 ? N * sizeof(float) : out_size,
			.access = i < 2 ? VNPU_OPERAND_READ : VNPU_OPERAND_WRITE,
		};
	memcpy(d + pad, plan->desc, plan->desc_size);
	ck_assert_int_eq(job_view_init(&v, &job->hdr), 0);
	exec_job(&v, &env, &res);
	free(job);
	return res;
}

static void plan_add(struct vops_plan *plan, int64_t elements)
{
	int64_t dims[1] = { elements };
	struct vops_tensor in[2] = { { .dtype = ACL_FLOAT, .ndim = 1, .dims = dims }, { .dtype = ACL_FLOAT, .ndim = 1, .dims = dims } };
	struct vops_error err;

	ck_assert_int_eq(vops_plan("Add", 2, in, 1, NULL, 0, plan, &err), VOPS_OK);
	ck_assert_uint_eq(vops_plan_operands(plan), 3);
}

static void setup(void)
{
	for (unsigned int i = 1; i <= 3; i++) {
		sizes[i] = 4096;
		bufs[i] = calloc(1, sizes[i]);
		ck_assert_ptr_nonnull(bufs[i]);
	}
	for (unsigned int i = 0; i < N; i++) {
		((float *)bufs[1])[i] = (float)i;
		((float *)bufs[2])[i] = 0.5f;
	}
}

static void teardown(void)
{
	for (unsigned int i = 1; i <= 3; i++)
		free(bufs[i]);
}

START_TEST(planned_add_runs_through_the_server_path)
{
	static struct vops_plan plan;

	plan_add(&plan, N);
	for (uint32_t pad = 0; pad < 8; pad += 3) {
		struct exec_result r;

		memset(bufs[3], 0, sizes[3]);
		r = run_add(&plan, pad, N * sizeof(float));
		ck_assert_msg(r.status == VNPU_ENGINE_DONE_OK, "pad %u: status %u: %s", pad, r.status,
			      r.why);
		for (unsigned int i = 0; i < N; i++)
			ck_assert_float_eq(((float *)bufs[3])[i], (float)i + 0.5f);
		/* Past the output: untouched. */
		ck_assert_uint_eq(bufs[3][N * sizeof(float)], 0);
	}
}
END_TEST

START_TEST(descriptor_larger_than_its_operands_faults_and_writes_nothing)
{
	static struct vops_plan plan;
	struct exec_result r;

	/* A plan for more elements than the 4096-byte buffers hold. */
	plan_add(&plan, 2 * N);
	memset(bufs[3], 0x77, sizes[3]);
	r = run_add(&plan, 0, N * sizeof(float));
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
	ck_assert_uint_eq(r.task, 0);
	ck_assert_ptr_nonnull(strstr(r.why, "operator"));
	for (unsigned int i = 0; i < sizes[3]; i++)
		ck_assert_uint_eq(bufs[3][i], 0x77);
}
END_TEST

START_TEST(garbage_descriptor_faults)
{
	static struct vops_plan plan;
	struct exec_result r;

	plan_add(&plan, N);
	memset(plan.desc, 0xa5, plan.desc_size);
	r = run_add(&plan, 0, N * sizeof(float));
	ck_assert_uint_eq(r.status, VNPU_ENGINE_DONE_FAULT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("engined_ops");
	TCase *tc = tcase_create("engined_ops");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, planned_add_runs_through_the_server_path);
	tcase_add_test(tc, descriptor_larger_than_its_operands_faults_and_writes_nothing);
	tcase_add_test(tc, garbage_descriptor_faults);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
