// SPDX-License-Identifier: MIT
/*
 * aclnn launches captured into a task graph (aclmdlRI, docs/capture.md): the
 * second stage of a two-stage call is recorded, not run, and every replay
 * runs it again on the same tensors.
 */
#include <stdlib.h>

#include "aclnnop/aclnn_add.h"
#include "nnt.h"

START_TEST(an_aclnn_launch_is_captured_and_replayed)
{
	const int64_t dims[1] = { 8 };
	const double zeros[8] = { 0 }, ones[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	struct nnt *acc = nnt_from(ACL_FLOAT, 1, dims, zeros), *one = nnt_from(ACL_FLOAT, 1, dims, ones);
	aclScalar *alpha = nnt_scalar(ACL_FLOAT, 2.0);
	aclOpExecutor *ex;
	uint64_t ws = 0;
	aclrtStream s;
	aclmdlRI ri;
	void *mem = NULL;
	double *v;
	int r, i;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	/* acc += 2 * one, in place. */
	ck_assert_int_eq(aclnnInplaceAddGetWorkspaceSize(acc->t, one->t, alpha, &ws, &ex), 0);
	/* The caller's workspace: it must live as long as the graph. */
	if (ws)
		ACL_OK(aclrtMalloc(&mem, ws, ACL_MEM_MALLOC_NORMAL_ONLY));
	ck_assert_int_eq(aclnnInplaceAdd(mem, ws, ex, s), 0);
	ACL_OK(aclmdlRICaptureEnd(s, &ri));
	nnt_sync_host(acc);
	v = nnt_values(acc);
	ck_assert(v[0] == 0);		/* recorded, not run */
	free(v);
	for (r = 0; r < 3; r++)
		ACL_OK(aclmdlRIExecuteAsync(ri, s));
	ACL_OK(aclrtSynchronizeStream(s));
	nnt_sync_host(acc);
	v = nnt_values(acc);
	for (i = 0; i < 8; i++)
		ck_assert_msg(v[i] == 6, "element %d is %g, expected 6", i, v[i]);
	free(v);
	ACL_OK(aclmdlRIDestroy(ri));
	if (mem)
		ACL_OK(aclrtFree(mem));
	ACL_OK(aclrtDestroyStream(s));
	aclDestroyScalar(alpha);
	nnt_free(acc);
	nnt_free(one);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("aclnn_capture");
	TCase *tc = acl_tcase("capture", true, 60);

	tcase_add_test(tc, an_aclnn_launch_is_captured_and_replayed);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
