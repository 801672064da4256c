// SPDX-License-Identifier: MIT
/*
 * ACL conformance, issue 17 streams group: what a failed task does to its
 * stream (aclrtSetStreamFailureMode: CANN's default goes on, stop-on-
 * failure stops the stream's later tasks and not another stream's),
 * discarding and stopping a stream's work (aclrtStreamAbort,
 * aclrtStreamStop), the stream attributes, and the stream-state
 * callbacks; every invalid argument with its code.
 *
 * The failing task is an int32 RealDiv by zero, which the engine reports
 * as an arithmetic error (ACL_ERROR_RT_AICORE_EXCEPTION).
 */
#include <string.h>

#include "acl_optest.h"
#include "acl_test.h"

/* The 64-bit word at device address @d, read back to the host. */
static uint64_t read_word(void *d)
{
	uint64_t v = 0;

	ACL_OK(aclrtMemcpy(&v, sizeof(v), d, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

/* Tensors for a failing int32 division by zero. */
struct divzero {
	struct dtensor *x, *zero, *y;
};

static void divzero_new(struct divzero *w)
{
	const int64_t d[1] = { 16 };

	w->x = dt_new(ACL_INT32, 1, d, 8, 1, 100);
	w->zero = dt_new(ACL_INT32, 1, d, 0, 0, 0);
	w->y = dt_new(ACL_INT32, 1, d, 0, 0, 0);
}

static void divzero_free(struct divzero *w)
{
	dt_free(w->x);
	dt_free(w->zero);
	dt_free(w->y);
}

/* Queue on @s the failing division, then the write of @value to @word. */
static void fail_then_write(struct divzero *w, aclrtStream s, void *word, uint64_t value)
{
	ACL_OK(run_op("RealDiv", w->x, w->zero, w->y, NULL, s));
	ACL_OK(aclrtValueWrite(word, value, 0, s));
}

static void *new_word(void)
{
	void *word;

	ACL_OK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemset(word, 8, 0, 8));
	return word;
}

static uint64_t failure_mode(aclrtStream s)
{
	aclrtStreamAttrValue v;

	memset(&v, 0xff, sizeof(v));
	ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	return v.failureMode;
}

START_TEST(continue_on_failure_is_the_default)
{
	struct divzero w;
	aclrtStream s;
	void *word = new_word();

	divzero_new(&w);
	ACL_OK(aclrtCreateStream(&s));
	ck_assert_uint_eq(failure_mode(s), ACL_CONTINUE_ON_FAILURE);
	ck_assert_uint_eq(failure_mode(NULL), ACL_CONTINUE_ON_FAILURE);
	fail_then_write(&w, s, word, 5);
	/* Reported once, by the synchronisation that covers it... */
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	/* ...and the task behind it ran. */
	ck_assert_uint_eq(read_word(word), 5);
	ACL_OK(aclrtSynchronizeStream(s));
	/* The stream goes on taking and running work. */
	ACL_OK(aclrtValueWrite(word, 6, 0, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 6);
	/* A second failure is reported again, once. */
	fail_then_write(&w, s, word, 7);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 7);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(word));
	divzero_free(&w);
}
END_TEST

START_TEST(an_event_reports_only_failures_before_it)
{
	struct divzero w;
	aclrtEvent before, after;
	aclrtStream s;
	void *word = new_word();

	divzero_new(&w);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&before));
	ACL_OK(aclrtCreateEvent(&after));
	ACL_OK(aclrtValueWrite(word, 1, 0, s));
	ACL_OK(aclrtRecordEvent(before, s));
	fail_then_write(&w, s, word, 2);
	ACL_OK(aclrtRecordEvent(after, s));
	ACL_OK(aclrtSynchronizeEvent(before));
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeEvent(after));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 2);
	ACL_OK(aclrtDestroyEvent(before));
	ACL_OK(aclrtDestroyEvent(after));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(word));
	divzero_free(&w);
}
END_TEST

START_TEST(stop_on_failure_stops_the_stream_not_others)
{
	struct divzero w;
	aclrtStream s, other;
	aclrtStreamAttrValue v;
	void *word = new_word(), *word2 = new_word();

	divzero_new(&w);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateStream(&other));
	ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
	ck_assert_uint_eq(failure_mode(s), ACL_STOP_ON_FAILURE);
	ck_assert_uint_eq(failure_mode(other), ACL_CONTINUE_ON_FAILURE);
	fail_then_write(&w, s, word, 5);
	fail_then_write(&w, other, word2, 5);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	/* The later task did not run; the stream stays failed. */
	ck_assert_uint_eq(read_word(word), 0);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtValueWrite(word, 6, 0, s));
	/* The other stream (default mode) went on past its own failure. */
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(other));
	ck_assert_uint_eq(read_word(word2), 5);
	ACL_OK(aclrtValueWrite(word2, 6, 0, other));
	ACL_OK(aclrtSynchronizeStream(other));
	ck_assert_uint_eq(read_word(word2), 6);

	/* An abort makes the stopped stream usable again. */
	ACL_OK(aclrtStreamAbort(s));
	ACL_OK(aclrtValueWrite(word, 7, 0, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 7);

	/* The attribute is the same setting. */
	v.failureMode = ACL_CONTINUE_ON_FAILURE;
	ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	ck_assert_uint_eq(failure_mode(s), ACL_CONTINUE_ON_FAILURE);
	fail_then_write(&w, s, word, 8);
	ACL_ERR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 8);

	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtDestroyStream(other));
	ACL_OK(aclrtFree(word));
	ACL_OK(aclrtFree(word2));
	divzero_free(&w);
}
END_TEST

START_TEST(abort_discards_unfinished_work)
{
	aclrtStream s;
	aclrtEvent ev;
	void *gate = new_word(), *word = new_word();

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&ev));
	/* Never satisfied: everything behind it waits. */
	ACL_OK(aclrtValueWait(gate, 1, ACL_VALUE_WAIT_EQ, s));
	ACL_OK(aclrtValueWrite(word, 5, 0, s));
	ACL_OK(aclrtRecordEvent(ev, s));
	ACL_OK(aclrtStreamAbort(s));
	ACL_ERR(ACL_ERROR_RT_STREAM_ABORT, aclrtSynchronizeStream(s));
	ACL_ERR(ACL_ERROR_RT_STREAM_ABORT, aclrtSynchronizeEvent(ev));
	ck_assert_uint_eq(read_word(word), 0);
	/* New work runs; the stream's synchronisation is its again. */
	ACL_OK(aclrtValueWrite(word, 6, 0, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 6);
	/* Nothing unfinished: an abort discards nothing. */
	ACL_OK(aclrtStreamAbort(s));
	ACL_OK(aclrtSynchronizeStream(s));
	/* The default stream too. */
	ACL_OK(aclrtValueWait(gate, 1, ACL_VALUE_WAIT_EQ, NULL));
	ACL_OK(aclrtStreamAbort(NULL));
	ACL_ERR(ACL_ERROR_RT_STREAM_ABORT, aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(gate));
	ACL_OK(aclrtFree(word));
}
END_TEST

START_TEST(stop_holds_the_stream_until_abort)
{
	aclrtStream s;
	void *gate = new_word(), *word = new_word();
	const char *m;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtValueWait(gate, 1, ACL_VALUE_WAIT_EQ, s));
	ACL_OK(aclrtValueWrite(word, 5, 0, s));
	ACL_OK(aclrtStreamStop(s));
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
	m = aclGetRecentErrMsg();
	ck_assert_msg(m && strstr(m, "aclrtStreamStop"), "message: %s", m ? m : "none");
	ACL_ERR(ACL_ERROR_RT_STREAM_ABORT, aclrtValueWrite(word, 6, 0, s));
	ck_assert_uint_eq(read_word(word), 0);
	ACL_OK(aclrtStreamAbort(s));
	ACL_OK(aclrtValueWrite(word, 7, 0, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(word), 7);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(gate));
	ACL_OK(aclrtFree(word));
}
END_TEST

START_TEST(attributes)
{
	aclrtStreamAttrValue v;
	aclrtStream s;

	ACL_OK(aclrtCreateStreamWithConfig(&s, 5, 0));
	memset(&v, 0, sizeof(v));
	ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
	ck_assert_uint_eq(v.overflowSwitch, 0);
	v.overflowSwitch = 1;
	ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
	v.userCustomTag = 0xfeedu;
	ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
	v.cacheOpInfoSwitch = 1;
	ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
	memset(&v, 0, sizeof(v));
	ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
	ck_assert_uint_eq(v.overflowSwitch, 1);
	ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
	ck_assert_uint_eq(v.userCustomTag, 0xfeedu);
	ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
	ck_assert_uint_eq(v.cacheOpInfoSwitch, 1);
	ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
	ck_assert_uint_eq(v.streamPriority, 5);

	/* Bad values and attributes. */
	v.streamPriority = 1;
	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
	v.overflowSwitch = 2;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
	v.cacheOpInfoSwitch = 7;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
	v.failureMode = 2;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, (aclrtStreamAttr)99, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAttribute(s, (aclrtStreamAttr)0, &v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, NULL));
	/* The default stream's failure mode is not an attribute to set... */
	v.failureMode = ACL_STOP_ON_FAILURE;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	/* ...but aclrtSetStreamFailureMode sets it. */
	ACL_OK(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE));
	ck_assert_uint_eq(failure_mode(NULL), ACL_STOP_ON_FAILURE);
	ACL_OK(aclrtSetStreamFailureMode(NULL, ACL_CONTINUE_ON_FAILURE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamFailureMode(s, 2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamFailureMode(s, ~0ull));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamFailureMode((aclrtStream)&v, ACL_STOP_ON_FAILURE));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamStop(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamAbort((aclrtStream)&v));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamStop((aclrtStream)&v));
	ACL_OK(aclrtDestroyStream(s));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamAbort(s));
}
END_TEST

/* What the stream-state callbacks saw. */
static struct {
	int created, destroyed;
	aclrtStream last;
	void *arg;
} seen;

static void on_state(aclrtStream stm, aclrtStreamState state, void *args)
{
	if (state == ACL_RT_STREAM_STATE_CREATE_POST)
		seen.created++;
	else if (state == ACL_RT_STREAM_STATE_DESTROY_PRE)
		seen.destroyed++;
	seen.last = stm;
	seen.arg = args;
}

START_TEST(stream_state_callbacks)
{
	aclrtContext ctx, cur;
	char tag[] = "tag";
	aclrtStream s;

	memset(&seen, 0, sizeof(seen));
	ACL_OK(aclrtRegStreamStateCallback("failure-test", on_state, tag));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback("failure-test", on_state, NULL));
	ACL_OK(aclrtCreateStream(&s));
	ck_assert_int_eq(seen.created, 1);
	ck_assert_ptr_eq(seen.last, s);
	ck_assert_ptr_eq(seen.arg, tag);
	ACL_OK(aclrtDestroyStream(s));
	ck_assert_int_eq(seen.destroyed, 1);
	ck_assert_ptr_eq(seen.last, s);
	/* Default streams come and go with their contexts. */
	ACL_OK(aclrtGetCurrentContext(&cur));
	ACL_OK(aclrtCreateContext(&ctx, 0));
	ck_assert_int_eq(seen.created, 2);
	ACL_OK(aclrtDestroyContext(ctx));
	ck_assert_int_eq(seen.destroyed, 2);
	ACL_OK(aclrtSetCurrentContext(cur));
	/* Unregistered: no more calls. */
	ACL_OK(aclrtRegStreamStateCallback("failure-test", NULL, NULL));
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtDestroyStream(s));
	ck_assert_int_eq(seen.created, 2);
	ck_assert_int_eq(seen.destroyed, 2);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback("failure-test", NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback(NULL, on_state, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback("", on_state, NULL));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_failure");
	TCase *tc;

	tc = acl_tcase("failure", true, 120);
	tcase_add_test(tc, continue_on_failure_is_the_default);
	tcase_add_test(tc, an_event_reports_only_failures_before_it);
	tcase_add_test(tc, stop_on_failure_stops_the_stream_not_others);
	tcase_add_test(tc, abort_discards_unfinished_work);
	tcase_add_test(tc, stop_holds_the_stream_until_abort);
	tcase_add_test(tc, attributes);
	tcase_add_test(tc, stream_state_callbacks);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
