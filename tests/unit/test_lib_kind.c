// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lib/rt/rt_kind.c (aclrtMemcpyKind checking and direction
 * inference) and lib/rt/rt_errmap.c (kernel results to ACL codes).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "vnpu_drm.h"
#include "rt_errmap.h"
#include "rt_kind.h"

#define H RT_LOC_HOST
#define D RT_LOC_DEVICE

struct kind_case {
	int kind;
	enum rt_loc dst, src;
	int result;
	enum rt_dir dir;
	int staged;
};

static const struct kind_case cases[] = {
	{ ACL_MEMCPY_HOST_TO_HOST, H, H, RT_KIND_OK, RT_DIR_H2H, 0 },
	{ ACL_MEMCPY_HOST_TO_HOST, D, H, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_HOST_TO_HOST, H, D, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_HOST_TO_DEVICE, D, H, RT_KIND_OK, RT_DIR_H2D, 0 },
	{ ACL_MEMCPY_HOST_TO_DEVICE, H, D, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_HOST_TO_DEVICE, D, D, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_HOST_TO_DEVICE, H, H, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_DEVICE_TO_HOST, H, D, RT_KIND_OK, RT_DIR_D2H, 0 },
	{ ACL_MEMCPY_DEVICE_TO_HOST, D, H, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_DEVICE_TO_HOST, D, D, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_DEVICE_TO_DEVICE, D, D, RT_KIND_OK, RT_DIR_D2D, 0 },
	{ ACL_MEMCPY_DEVICE_TO_DEVICE, H, D, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_DEVICE_TO_DEVICE, D, H, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, D, D, RT_KIND_OK, RT_DIR_D2D, 0 },
	{ ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, D, D, RT_KIND_OK, RT_DIR_D2D, 0 },
	{ ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, H, H, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, D, H, RT_KIND_OK, RT_DIR_H2D, 1 },
	{ ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, H, H, RT_KIND_MISMATCH, 0, 0 },
	{ ACL_MEMCPY_DEFAULT, H, H, RT_KIND_OK, RT_DIR_H2H, 0 },
	{ ACL_MEMCPY_DEFAULT, D, H, RT_KIND_OK, RT_DIR_H2D, 0 },
	{ ACL_MEMCPY_DEFAULT, H, D, RT_KIND_OK, RT_DIR_D2H, 0 },
	{ ACL_MEMCPY_DEFAULT, D, D, RT_KIND_OK, RT_DIR_D2D, 0 },
	{ -1, H, H, RT_KIND_UNKNOWN, 0, 0 },
	{ 8, D, H, RT_KIND_UNKNOWN, 0, 0 },
	{ 0x7fffffff, D, D, RT_KIND_UNKNOWN, 0, 0 },
};

START_TEST(kind_against_locations)
{
	const struct kind_case *c = &cases[_i];
	enum rt_dir dir = (enum rt_dir)-1;
	int staged = -1;
	int r = rt_memcpy_direction(c->kind, c->dst, c->src, &dir, &staged);

	ck_assert_msg(r == c->result, "kind %d dst %d src %d: %d, expected %d", c->kind, c->dst, c->src, r,
		      c->result);
	if (r == RT_KIND_OK) {
		ck_assert_int_eq(dir, c->dir);
		ck_assert_int_eq(staged, c->staged);
	}
}
END_TEST

START_TEST(kind_names)
{
	ck_assert_str_eq(rt_memcpy_kind_name(ACL_MEMCPY_DEFAULT), "ACL_MEMCPY_DEFAULT");
	ck_assert_str_eq(rt_memcpy_kind_name(ACL_MEMCPY_DEVICE_TO_HOST), "ACL_MEMCPY_DEVICE_TO_HOST");
	ck_assert_str_eq(rt_memcpy_kind_name(99), "unknown");
	ck_assert_str_eq(rt_loc_name(RT_LOC_DEVICE), "device");
}
END_TEST

START_TEST(stream_errors)
{
	ck_assert_int_eq(rt_stream_error_to_acl(VNPU_STREAM_ERROR_NONE), ACL_SUCCESS);
	ck_assert_int_eq(rt_stream_error_to_acl(VNPU_STREAM_ERROR_TIMEOUT), 507014);
	ck_assert_int_eq(rt_stream_error_to_acl(VNPU_STREAM_ERROR_FAULT), 507015);
	ck_assert_int_eq(rt_stream_error_to_acl(VNPU_STREAM_ERROR_ARITH), 507015);
	ck_assert_int_eq(rt_stream_error_to_acl(VNPU_STREAM_ERROR_CANCELED), 107023);
	ck_assert_int_eq(rt_stream_error_to_acl(99), 507000);
	ck_assert_str_ne(rt_stream_error_name(VNPU_STREAM_ERROR_TIMEOUT), rt_stream_error_name(99));
}
END_TEST

START_TEST(errnos)
{
	ck_assert_int_eq(rt_errno_to_acl(0), ACL_SUCCESS);
	ck_assert_int_eq(rt_errno_to_acl(-ENOMEM), 207001);
	ck_assert_int_eq(rt_errno_to_acl(-E2BIG), 207001);
	ck_assert_int_eq(rt_errno_to_acl(-ENOSPC), 207008);
	ck_assert_int_eq(rt_errno_to_acl(-ENODEV), 207004);
	ck_assert_int_eq(rt_errno_to_acl(-ENXIO), 100000);
	ck_assert_int_eq(rt_errno_to_acl(-EINVAL), 100000);
	ck_assert_int_eq(rt_errno_to_acl(-EACCES), 207006);
	ck_assert_int_eq(rt_errno_to_acl(-EIO), 507899);
	ck_assert_int_eq(rt_errno_to_acl(-12345), 507899);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lib_kind");
	TCase *tc = tcase_create("kind");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, kind_against_locations, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, kind_names);
	tcase_add_test(tc, stream_errors);
	tcase_add_test(tc, errnos);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
