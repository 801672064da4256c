// SPDX-License-Identifier: MIT
/*
 * ACL conformance, issue 17 streams group: stream identity and creation
 * settings (aclrtStreamGetId / GetPriority / GetFlags), event IDs, and
 * notifies (aclrtCreateNotify ... aclrtNotifyBatchReset): a wait on one
 * stream released by a record on another, a record before the wait, the
 * reset, a wait that times out, and every invalid argument with its code;
 * the streams left to the process (aclrtGetStreamAvailableNum),
 * aclrtRecordEventWithFlag, the operator execution timeouts, and streams
 * made from a configuration object (aclrtCreateStreamV2).
 */
#include <stdint.h>
#include <string.h>

#include "acl_test.h"

/* The 64-bit word at device address @d, read back to the host. */
static uint64_t read_word(void *d)
{
	uint64_t v = 0;

	ACL_OK(aclrtMemcpy(&v, sizeof(v), d, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

START_TEST(stream_identity_and_settings)
{
	aclrtStream a, b, dead;
	int32_t ida, idb, iddef, id2;
	uint32_t prio, flags;

	ACL_OK(aclrtCreateStreamWithConfig(&a, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
	ACL_OK(aclrtCreateStream(&b));
	ACL_OK(aclrtStreamGetId(a, &ida));
	ACL_OK(aclrtStreamGetId(b, &idb));
	ACL_OK(aclrtStreamGetId(NULL, &iddef));
	ACL_OK(aclrtStreamGetId(a, &id2));
	ck_assert_int_ge(ida, 0);
	ck_assert_int_ge(idb, 0);
	ck_assert_int_ne(ida, idb);
	ck_assert_int_ne(ida, iddef);
	ck_assert_int_eq(ida, id2);

	ACL_OK(aclrtStreamGetPriority(a, &prio));
	ck_assert_uint_eq(prio, 3);
	ACL_OK(aclrtStreamGetFlags(a, &flags));
	ck_assert_uint_eq(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
	ACL_OK(aclrtStreamGetPriority(b, &prio));
	ck_assert_uint_eq(prio, 0);
	ACL_OK(aclrtStreamGetFlags(b, &flags));
	ck_assert_uint_eq(flags, 0);
	ACL_OK(aclrtStreamGetPriority(NULL, &prio));
	ck_assert_uint_eq(prio, 0);
	ACL_OK(aclrtStreamGetFlags(NULL, &flags));
	ck_assert_uint_eq(flags, 0);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId(a, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetPriority(a, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetFlags(a, NULL));
	ACL_OK(aclrtCreateStream(&dead));
	ACL_OK(aclrtDestroyStream(dead));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId(dead, &id2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetPriority(dead, &prio));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetFlags(dead, &flags));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId((aclrtStream)&prio, &id2));

	ACL_OK(aclrtDestroyStream(a));
	ACL_OK(aclrtDestroyStream(b));
}
END_TEST

START_TEST(event_ids)
{
	aclrtEvent e1, e2, dead;
	uint32_t i1, i2, again;

	ACL_OK(aclrtCreateEvent(&e1));
	ACL_OK(aclrtCreateEventWithFlag(&e2, ACL_EVENT_SYNC));
	ACL_OK(aclrtGetEventId(e1, &i1));
	ACL_OK(aclrtGetEventId(e2, &i2));
	ACL_OK(aclrtGetEventId(e1, &again));
	ck_assert_uint_ne(i1, i2);
	ck_assert_uint_eq(i1, again);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(NULL, &i1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(e1, NULL));
	ACL_OK(aclrtCreateEvent(&dead));
	ACL_OK(aclrtDestroyEvent(dead));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(dead, &i1));
	ACL_OK(aclrtDestroyEvent(e1));
	ACL_OK(aclrtDestroyEvent(e2));
}
END_TEST

START_TEST(stream_from_a_configuration)
{
	aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
	uint32_t prio = 5, flags, got, big32 = 7;
	uint64_t flag64 = ACL_STREAM_FAST_LAUNCH, huge = 1ull << 32;
	size_t work_size = 4096;
	void *work = &work_size;
	aclrtStream s, plain;
	void *d;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_null(h->workptr);
	ck_assert_uint_eq(h->priority, 0);
	ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)));
	ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag64, sizeof(flag64)));
	ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof(work)));
	ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &work_size, sizeof(work_size)));
	ck_assert_uint_eq(h->priority, 5);
	ck_assert_uint_eq(h->flag, ACL_STREAM_FAST_LAUNCH);
	ck_assert_ptr_eq(h->workptr, work);
	ck_assert_uint_eq(h->workSize, 4096);

	ACL_OK(aclrtCreateStreamV2(&s, h));
	ACL_OK(aclrtStreamGetPriority(s, &got));
	ck_assert_uint_eq(got, 5);
	ACL_OK(aclrtStreamGetFlags(s, &flags));
	ck_assert_uint_eq(flags, ACL_STREAM_FAST_LAUNCH);
	ACL_OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemsetAsync(d, 8, 0x11, 8, s));
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(read_word(d), 0x1111111111111111ull);
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtCreateStreamV2(&plain, NULL));
	ACL_OK(aclrtStreamGetPriority(plain, &got));
	ck_assert_uint_eq(got, 0);
	ACL_OK(aclrtDestroyStream(plain));

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &prio, 4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, NULL, 4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, 2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &huge, 8));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &huge, 8));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, 4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM,
		aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)4, &big32, sizeof(big32)));
	ck_assert_uint_eq(h->priority, 5);
	h->flag = (size_t)huge;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(&s, h));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(NULL, NULL));
	ACL_OK(aclrtDestroyStreamConfigHandle(h));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamConfigHandle(NULL));
}
END_TEST

START_TEST(streams_available)
{
	uint32_t before, during, after;
	aclrtStream s[3];
	void *d;
	int i;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAvailableNum(NULL));
	/* The default stream counts once it has a kernel stream: give it one. */
	ACL_OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtMemsetAsync(d, 8, 0, 8, NULL));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtFree(d));
	ACL_OK(aclrtGetStreamAvailableNum(&before));
	ck_assert_uint_gt(before, 3);
	for (i = 0; i < 3; i++)
		ACL_OK(aclrtCreateStream(&s[i]));
	ACL_OK(aclrtGetStreamAvailableNum(&during));
	ck_assert_uint_eq(during, before - 3);
	for (i = 0; i < 3; i++)
		ACL_OK(aclrtDestroyStream(s[i]));
	ACL_OK(aclrtGetStreamAvailableNum(&after));
	ck_assert_uint_eq(after, before);
}
END_TEST

START_TEST(record_event_with_flag)
{
	aclrtEventRecordedStatus st;
	aclrtStream a, b;
	aclrtEvent ev;
	void *d;

	ACL_OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateStream(&b));
	ACL_OK(aclrtCreateEvent(&ev));
	ACL_OK(aclrtMemsetAsync(d, 8, 0x5a, 8, a));
	ACL_OK(aclrtRecordEventWithFlag(ev, a, ACL_EVENT_RECORD_DEFAULT));
	ACL_OK(aclrtStreamWaitEvent(b, ev));
	ACL_OK(aclrtSynchronizeStream(b));
	ACL_OK(aclrtSynchronizeEvent(ev));
	ACL_OK(aclrtQueryEventStatus(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_uint_eq(read_word(d), 0x5a5a5a5a5a5a5a5aull);

	ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtRecordEventWithFlag(ev, a, ACL_EVENT_RECORD_EXTERNAL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEventWithFlag(ev, a, 2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEventWithFlag(NULL, a, ACL_EVENT_RECORD_DEFAULT));
	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtDestroyStream(a));
	ACL_OK(aclrtDestroyStream(b));
	ACL_OK(aclrtFree(d));
}
END_TEST

/* Stream a waits on the notify; stream b records it: a's later task runs
 * only after the record, and the wait clears the notify again. */
START_TEST(notify_across_two_streams)
{
	aclrtStream a, b;
	aclrtNotify n;
	void *word;

	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateStream(&b));
	ACL_OK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemset(word, 8, 0, 8));
	ACL_OK(aclrtCreateNotify(&n, 0));

	ACL_OK(aclrtWaitAndResetNotify(n, a, 0));
	ACL_OK(aclrtValueWrite(word, 7, 0, a));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(a, 300));
	ck_assert_uint_eq(read_word(word), 0);
	ACL_OK(aclrtRecordNotify(n, b));
	ACL_OK(aclrtSynchronizeStream(b));
	ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_uint_eq(read_word(word), 7);

	/* The wait cleared it: a second wait blocks until a second record. */
	ACL_OK(aclrtWaitAndResetNotify(n, a, 5));
	ACL_OK(aclrtValueWrite(word, 8, 0, a));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(a, 300));
	ck_assert_uint_eq(read_word(word), 7);
	ACL_OK(aclrtRecordNotify(n, NULL));
	ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_uint_eq(read_word(word), 8);

	/* A record made before the wait is not lost. */
	ACL_OK(aclrtRecordNotify(n, b));
	ACL_OK(aclrtSynchronizeStream(b));
	ACL_OK(aclrtWaitAndResetNotify(n, a, 0));
	ACL_OK(aclrtSynchronizeStream(a));

	ACL_OK(aclrtDestroyNotify(n));
	ACL_OK(aclrtFree(word));
	ACL_OK(aclrtDestroyStream(a));
	ACL_OK(aclrtDestroyStream(b));
}
END_TEST

/* aclrtNotifyBatchReset clears recorded notifies: a later wait blocks. */
START_TEST(notify_batch_reset)
{
	aclrtNotify n[2];
	aclrtStream a;

	ACL_OK(aclrtCreateStream(&a));
	ACL_OK(aclrtCreateNotify(&n[0], 0));
	ACL_OK(aclrtCreateNotify(&n[1], 0));
	ACL_OK(aclrtRecordNotify(n[0], a));
	ACL_OK(aclrtRecordNotify(n[1], a));
	ACL_OK(aclrtSynchronizeStream(a));
	ACL_OK(aclrtNotifyBatchReset(n, 2));
	ACL_OK(aclrtWaitAndResetNotify(n[1], a, 0));
	ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(a, 300));
	ACL_OK(aclrtRecordNotify(n[1], NULL));
	ACL_OK(aclrtSynchronizeStream(a));
	ACL_OK(aclrtDestroyNotify(n[0]));
	ACL_OK(aclrtDestroyNotify(n[1]));
	ACL_OK(aclrtDestroyStream(a));
}
END_TEST

/* A wait never released: the device's job timeout (10 s by default) fails
 * the stream with ACL_ERROR_RT_AICORE_TIMEOUT; its later tasks do not
 * run, another stream's do. */
START_TEST(op_execute_timeout_values)
{
	uint64_t interval, actual;
	uint32_t ms;

	ACL_OK(aclrtGetOpTimeOutInterval(&interval));
	ck_assert_uint_eq(interval, 1000);
	/* None set: the device's job timeout (the module's default). */
	ACL_OK(aclrtGetOpExecuteTimeout(&ms));
	ck_assert_uint_eq(ms, 10000);
	ACL_OK(aclrtSetOpExecuteTimeOutV2(1500, &actual));
	ck_assert_uint_eq(actual, 2000);
	ACL_OK(aclrtGetOpExecuteTimeout(&ms));
	ck_assert_uint_eq(ms, 2);
	ACL_OK(aclrtSetOpExecuteTimeOut(3));
	ACL_OK(aclrtGetOpExecuteTimeout(&ms));
	ck_assert_uint_eq(ms, 3000);
	ACL_OK(aclrtSetOpExecuteTimeOutWithMs(250));
	ACL_OK(aclrtGetOpExecuteTimeout(&ms));
	ck_assert_uint_eq(ms, 250);
	/* 0 and anything longer than an hour: an hour. */
	ACL_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
	ck_assert_uint_eq(actual, 3600000000ull);
	ACL_OK(aclrtSetOpExecuteTimeOut(100000));
	ACL_OK(aclrtGetOpExecuteTimeout(&ms));
	ck_assert_uint_eq(ms, 3600000);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetOpExecuteTimeOutV2(1000, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOpExecuteTimeout(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOpTimeOutInterval(NULL));
	/* Back to the device's value, for tests run in this process. */
	ACL_OK(aclrtSetOpExecuteTimeOutWithMs(10000));
}
END_TEST

/* The process's timeout replaces the device's 10 s for later work: a wait
 * never released fails its stream long before a 5 s synchronize gives up,
 * and a stream created before the call follows it too. */
START_TEST(op_execute_timeout_fails_a_hung_stream)
{
	aclrtStream early, late;
	aclrtNotify n;

	ACL_OK(aclrtCreateStream(&early));
	ACL_OK(aclrtCreateNotify(&n, 0));
	ACL_OK(aclrtSetOpExecuteTimeOutWithMs(200));
	ACL_OK(aclrtCreateStream(&late));
	ACL_OK(aclrtWaitAndResetNotify(n, early, 0));
	ACL_OK(aclrtWaitAndResetNotify(n, late, 0));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeStreamWithTimeout(early, 5000));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeStreamWithTimeout(late, 5000));
	ACL_OK(aclrtDestroyStreamForce(early));
	ACL_OK(aclrtDestroyStreamForce(late));
	ACL_OK(aclrtDestroyNotify(n));
	ACL_OK(aclrtSetOpExecuteTimeOutWithMs(10000));
}
END_TEST

START_TEST(notify_wait_times_out)
{
	aclrtStream bad, good;
	aclrtNotify n;
	void *word;

	ACL_OK(aclrtCreateStream(&bad));
	/* Stopped at the failure: the write behind the wait never runs. */
	ACL_OK(aclrtSetStreamFailureMode(bad, ACL_STOP_ON_FAILURE));
	ACL_OK(aclrtCreateStream(&good));
	ACL_OK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
	ACL_OK(aclrtMemset(word, 8, 0, 8));
	ACL_OK(aclrtCreateNotify(&n, 0));
	ACL_OK(aclrtWaitAndResetNotify(n, bad, 1));
	ACL_OK(aclrtValueWrite(word, 5, 0, bad));
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeStream(bad));
	ck_assert_uint_eq(read_word(word), 0);
	ACL_ERR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtRecordNotify(n, bad));
	ACL_OK(aclrtValueWrite(word, 6, 0, good));
	ACL_OK(aclrtSynchronizeStream(good));
	ck_assert_uint_eq(read_word(word), 6);
	ACL_OK(aclrtDestroyStream(bad));
	ACL_OK(aclrtDestroyNotify(n));
	ACL_OK(aclrtFree(word));
	ACL_OK(aclrtDestroyStream(good));
}
END_TEST

START_TEST(notify_arguments)
{
	aclrtNotify n, dead, pair[2];
	uint32_t id1, id2;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(NULL, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(&n, 1));
	ACL_OK(aclrtCreateNotify(&n, 0));
	ACL_OK(aclrtCreateNotify(&dead, 0));
	ACL_OK(aclrtGetNotifyId(n, &id1));
	ACL_OK(aclrtGetNotifyId(dead, &id2));
	ck_assert_uint_ne(id1, id2);
	ACL_OK(aclrtDestroyNotify(dead));

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify(dead));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify((aclrtNotify)&id1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(dead, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtWaitAndResetNotify(NULL, NULL, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtWaitAndResetNotify(dead, NULL, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(NULL, &id1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(dead, &id1));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(n, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(NULL, 1));
	pair[0] = n;
	pair[1] = dead;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(pair, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(pair, 2));
	ACL_OK(aclrtNotifyBatchReset(pair, 1));
	/* A stream that is not live. */
	{
		aclrtStream s;

		ACL_OK(aclrtCreateStream(&s));
		ACL_OK(aclrtDestroyStream(s));
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(n, s));
		ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtWaitAndResetNotify(n, s, 0));
	}
	ACL_OK(aclrtDestroyNotify(n));
}
END_TEST

static Suite *notify_suite(void)
{
	Suite *s = suite_create("acl_notify");
	TCase *tc = acl_tcase("notify", true, 120);

	tcase_add_test(tc, stream_identity_and_settings);
	tcase_add_test(tc, event_ids);
	tcase_add_test(tc, streams_available);
	tcase_add_test(tc, stream_from_a_configuration);
	tcase_add_test(tc, record_event_with_flag);
	tcase_add_test(tc, op_execute_timeout_values);
	tcase_add_test(tc, op_execute_timeout_fails_a_hung_stream);
	tcase_add_test(tc, notify_across_two_streams);
	tcase_add_test(tc, notify_batch_reset);
	tcase_add_test(tc, notify_arguments);
	tcase_add_test(tc, notify_wait_times_out);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return acl_test_run(notify_suite());
}
