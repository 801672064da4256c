// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lib/rt/rt_config.c, aclInit()'s JSON configuration reader.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rt_config.h"

static int parse(const char *text, struct rt_config *cfg)
{
	char err[128];

	return rt_config_parse(text, strlen(text), cfg, err, sizeof(err));
}

static const char *const valid[] = {
	"{}",
	" \n\t{ } \r\n",
	"{\"dump\": {\"dump_list\": [], \"dump_path\": \"/tmp\", \"dump_mode\": \"output\"}}",
	"{\"a\": [1, -2, 3.5, 1e10, -0.5E-3, 0, true, false, null, \"x\", {}, [[]]]}",
	"{\"esc\": \"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\"}",
	"{\"utf8\": \"\xc3\xa9\xe2\x82\xac\"}",
	"\xef\xbb\xbf{}",
	"{\"vnpu\": {}}",
	"{\"vnpu\": {\"other\": 1}}",
	"{\"vnpu\": {\"hazard_policy\": \"serialize\"}}",
};

START_TEST(valid_documents_are_accepted)
{
	struct rt_config cfg;

	ck_assert_msg(parse(valid[_i], &cfg) == RT_CONFIG_OK, "rejected: %s", valid[_i]);
}
END_TEST

static const char *const invalid[] = {
	"",
	"   ",
	"[]",
	"\"text\"",
	"42",
	"{",
	"}",
	"{\"a\"}",
	"{\"a\" 1}",
	"{\"a\": 1,}",
	"{\"a\": [1,]}",
	"{\"a\": [1 2]}",
	"{,}",
	"{a: 1}",
	"{'a': 1}",
	"{\"a\": 01}",
	"{\"a\": 1.}",
	"{\"a\": .5}",
	"{\"a\": -}",
	"{\"a\": 1e}",
	"{\"a\": +1}",
	"{\"a\": tru}",
	"{\"a\": nul}",
	"{\"a\": \"unterminated}",
	"{\"a\": \"bad \\x escape\"}",
	"{\"a\": \"\\u12g4\"}",
	"{\"a\": \"tab\tinside\"}",
	"{} {}",
	"{}x",
	"{\"a\": NaN}",
	"{\"a\": // comment\n 1}",
};

START_TEST(invalid_documents_are_rejected)
{
	struct rt_config cfg;

	ck_assert_msg(parse(invalid[_i], &cfg) == RT_CONFIG_SYNTAX, "accepted: %s", invalid[_i]);
}
END_TEST

START_TEST(nul_byte_is_rejected)
{
	static const char text[] = "{\"a\": \"x\0y\"}";
	struct rt_config cfg;
	char err[64];

	ck_assert_int_eq(rt_config_parse(text, sizeof(text) - 1, &cfg, err, sizeof(err)), RT_CONFIG_SYNTAX);
}
END_TEST

START_TEST(nesting_is_limited)
{
	char deep[300];
	struct rt_config cfg;
	int i;

	/* 64 levels are fine, 65 are not. */
	strcpy(deep, "{\"a\":");
	for (i = 0; i < 62; i++)
		strcat(deep, "[");
	strcat(deep, "{}");
	for (i = 0; i < 62; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	ck_assert_int_eq(parse(deep, &cfg), RT_CONFIG_OK);

	strcpy(deep, "{\"a\":");
	for (i = 0; i < 64; i++)
		strcat(deep, "[");
	for (i = 0; i < 64; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	ck_assert_int_eq(parse(deep, &cfg), RT_CONFIG_SYNTAX);
}
END_TEST

START_TEST(hazard_policy_is_read)
{
	struct rt_config cfg;

	ck_assert_int_eq(parse("{}", &cfg), RT_CONFIG_OK);
	ck_assert_int_eq(cfg.hazard_policy, RT_HAZARD_UNSET);
	ck_assert_int_eq(parse("{\"vnpu\": {\"hazard_policy\": \"strict\"}}", &cfg), RT_CONFIG_OK);
	ck_assert_int_eq(cfg.hazard_policy, RT_HAZARD_STRICT);
	ck_assert_int_eq(parse("{\"vnpu\": {\"hazard_policy\": \"serialize\"}, \"x\": 1}", &cfg), RT_CONFIG_OK);
	ck_assert_int_eq(cfg.hazard_policy, RT_HAZARD_SERIALIZE);
	/* Only at the right place. */
	ck_assert_int_eq(parse("{\"hazard_policy\": \"strict\"}", &cfg), RT_CONFIG_OK);
	ck_assert_int_eq(cfg.hazard_policy, RT_HAZARD_UNSET);
	ck_assert_int_eq(parse("{\"x\": {\"vnpu\": {\"hazard_policy\": \"strict\"}}}", &cfg), RT_CONFIG_OK);
	ck_assert_int_eq(cfg.hazard_policy, RT_HAZARD_UNSET);
	/* The last of repeated keys wins. */
	ck_assert_int_eq(parse("{\"vnpu\": {\"hazard_policy\": \"strict\", \"hazard_policy\": \"serialize\"}}",
			       &cfg), RT_CONFIG_OK);
	ck_assert_int_eq(cfg.hazard_policy, RT_HAZARD_SERIALIZE);
}
END_TEST

START_TEST(bad_vnpu_values_are_attribute_errors)
{
	static const char *const bad[] = {
		"{\"vnpu\": 1}",
		"{\"vnpu\": []}",
		"{\"vnpu\": {\"hazard_policy\": \"lax\"}}",
		"{\"vnpu\": {\"hazard_policy\": 1}}",
		"{\"vnpu\": {\"hazard_policy\": \"STRICT\"}}",
		"{\"vnpu\": {\"hazard_policy\": null}}",
	};
	struct rt_config cfg;
	char err[128];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(rt_config_parse(bad[i], strlen(bad[i]), &cfg, err, sizeof(err)) ==
				      RT_CONFIG_BAD_VALUE, "not an attribute error: %s", bad[i]);
		ck_assert_ptr_nonnull(strstr(err, "vnpu"));
	}
}
END_TEST

START_TEST(errors_name_the_offset)
{
	struct rt_config cfg;
	char err[128];

	ck_assert_int_eq(rt_config_parse("{\"a\": x}", 8, &cfg, err, sizeof(err)), RT_CONFIG_SYNTAX);
	ck_assert_msg(strstr(err, "byte 6"), "message: %s", err);
}
END_TEST

START_TEST(policy_names)
{
	ck_assert_int_eq(rt_hazard_policy_from_string("serialize"), RT_HAZARD_SERIALIZE);
	ck_assert_int_eq(rt_hazard_policy_from_string("strict"), RT_HAZARD_STRICT);
	ck_assert_int_eq(rt_hazard_policy_from_string(""), RT_HAZARD_UNSET);
	ck_assert_int_eq(rt_hazard_policy_from_string("serialized"), RT_HAZARD_UNSET);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lib_config");
	TCase *tc = tcase_create("config");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, valid_documents_are_accepted, 0, sizeof(valid) / sizeof(valid[0]));
	tcase_add_loop_test(tc, invalid_documents_are_rejected, 0, sizeof(invalid) / sizeof(invalid[0]));
	tcase_add_test(tc, nul_byte_is_rejected);
	tcase_add_test(tc, nesting_is_limited);
	tcase_add_test(tc, hazard_policy_is_read);
	tcase_add_test(tc, bad_vnpu_values_are_attribute_errors);
	tcase_add_test(tc, errors_name_the_offset);
	tcase_add_test(tc, policy_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
