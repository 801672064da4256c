// SPDX-License-Identifier: MIT
/*
 * ACL conformance: events (record, reset, synchronise, query, timing).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl_test.h"

START_TEST(create_and_destroy)
{
	aclrtEvent ev = NULL;
	uint32_t flags[] = { 0, ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_CAPTURE_STREAM_PROGRESS,
			     ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL, ACL_EVENT_IPC,
			     ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE };
	unsigned int i;

	ACL_OK(aclrtCreateEvent(&ev));
	ck_assert_ptr_nonnull(ev);
	ACL_OK(aclrtDestroyEvent(ev));
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		ACL_OK(aclrtCreateEventWithFlag(&ev, flags[i]));
		ACL_OK(aclrtDestroyEvent(ev));
	}
}
END_TEST

START_TEST(event_arguments)
{
	aclrtEventRecordedStatus rs;
	aclrtEventWaitStatus ws;
	aclrtEvent ev, gone;
	uint64_t ts;
	float ms;
	int local;

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEvent(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(NULL, 0));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(&ev, 0x4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(&ev, 0x80000000u));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(&local));
	ACL_OK(aclrtCreateEvent(&gone));
	ACL_OK(aclrtDestroyEvent(gone));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(gone));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(gone, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtResetEvent(NULL, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEvent(NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEvent(gone));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEventWithTimeout(NULL, 10));

	ACL_OK(aclrtCreateEvent(&ev));
	ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEventWithTimeout(ev, -2));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(ev, &local));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(NULL, &rs));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(ev, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(gone, &rs));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(NULL, &ws));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(ev, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(NULL, ev, ev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(&ms, NULL, ev));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(&ms, ev, NULL));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(&ms, ev, gone));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventGetTimestamp(NULL, &ts));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventGetTimestamp(ev, NULL));
	ACL_OK(aclrtDestroyEvent(ev));
}
END_TEST

/* CANN's "Ex" variant: the same flags accepted and rejected. */
START_TEST(create_ex_with_flag)
{
	uint32_t flags[] = { 0, ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_CAPTURE_STREAM_PROGRESS,
			     ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL, ACL_EVENT_IPC,
			     ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE };
	aclrtEventRecordedStatus rs;
	aclrtEvent ev = NULL;
	unsigned int i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		ev = NULL;
		ACL_OK(aclrtCreateEventExWithFlag(&ev, flags[i]));
		ck_assert_ptr_nonnull(ev);
		/* A working event: record, synchronise, complete. */
		ACL_OK(aclrtRecordEvent(ev, NULL));
		ACL_OK(aclrtSynchronizeEvent(ev));
		ACL_OK(aclrtQueryEventStatus(ev, &rs));
		ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
		ACL_OK(aclrtDestroyEvent(ev));
	}
	ev = NULL;
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&ev, 0x4));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&ev, 0x80000000u));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC | 0x100u));
	ck_assert_ptr_null(ev);
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC));
}
END_TEST

/* aclrtQueryEvent is deprecated in CANN; its users still compile, with a
 * warning this test silences. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
START_TEST(query_event_deprecated)
{
	aclrtEventStatus st = (aclrtEventStatus)7;
	struct acl_gate g;
	aclrtStream s;
	aclrtEvent ev, gone;

	/* CANN's numbering, the other way round from aclrtEventRecordedStatus. */
	ck_assert_int_eq(ACL_EVENT_STATUS_COMPLETE, 0);
	ck_assert_int_eq(ACL_EVENT_STATUS_NOT_READY, 1);

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&ev));
	/* Never recorded: not ready, as aclrtQueryEventStatus says. */
	ACL_OK(aclrtQueryEvent(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_STATUS_NOT_READY);

	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtRecordEvent(ev, s));
	st = (aclrtEventStatus)7;
	ACL_OK(aclrtQueryEvent(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_STATUS_NOT_READY);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeEvent(ev));
	ACL_OK(aclrtQueryEvent(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_STATUS_COMPLETE);

	ACL_OK(aclrtResetEvent(ev, s));
	ACL_OK(aclrtQueryEvent(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_STATUS_NOT_READY);

	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(NULL, &st));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(ev, NULL));
	ACL_OK(aclrtCreateEvent(&gone));
	ACL_OK(aclrtDestroyEvent(gone));
	ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(gone, &st));

	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST
#pragma GCC diagnostic pop

START_TEST(events_need_a_context_to_be_created)
{
	aclrtEvent ev;

	ACL_OK(aclrtResetDevice(0));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEvent(&ev));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEventWithFlag(&ev, ACL_EVENT_SYNC));
	ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
	ACL_OK(aclrtSetDevice(0));
}
END_TEST

START_TEST(record_synchronize_query)
{
	aclrtEventRecordedStatus rs = (aclrtEventRecordedStatus)7;
	struct acl_gate g;
	aclrtStream s;
	aclrtEvent ev;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&ev));
	/* Never recorded: not ready, and synchronising returns at once. */
	ACL_OK(aclrtQueryEventStatus(ev, &rs));
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ACL_OK(aclrtSynchronizeEvent(ev));
	ACL_OK(aclrtSynchronizeEventWithTimeout(ev, 0));

	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtRecordEvent(ev, s));
	ACL_OK(aclrtQueryEventStatus(ev, &rs));
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ACL_ERR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(ev, 50));
	ACL_ERR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(ev, 0));
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeEvent(ev));
	ACL_OK(aclrtQueryEventStatus(ev, &rs));
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ACL_OK(aclrtSynchronizeEventWithTimeout(ev, -1));

	/* Reset forgets the record. */
	ACL_OK(aclrtResetEvent(ev, s));
	ACL_OK(aclrtQueryEventStatus(ev, &rs));
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	/* Record on the default stream. */
	ACL_OK(aclrtRecordEvent(ev, NULL));
	ACL_OK(aclrtSynchronizeEvent(ev));
	ACL_OK(aclrtQueryEventStatus(ev, &rs));
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);

	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

/* The event completes with the work recorded before it, not later work. */
START_TEST(record_covers_earlier_work_only)
{
	struct acl_gate g;
	aclrtStream s;
	aclrtEvent ev;
	uint64_t *word;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&ev));
	ACL_OK(aclrtMallocHost((void **)&word, 8));
	*word = 0;
	ACL_OK(aclrtValueWrite(word, 1, 0, s));
	ACL_OK(aclrtRecordEvent(ev, s));
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtValueWrite(word, 2, 0, s));
	ACL_OK(aclrtSynchronizeEvent(ev));
	ck_assert_uint_eq(*word, 1);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(*word, 2);
	ACL_OK(aclrtFreeHost(word));
	ACL_OK(aclrtDestroyEvent(ev));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

static uint64_t host_us(void)
{
	return acl_test_now_ns() / 1000;
}

START_TEST(elapsed_time_measures_device_time)
{
	aclrtEvent start, end;
	struct acl_gate g;
	aclrtStream s;
	float ms = -1;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&start));
	ACL_OK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
	ACL_OK(aclrtRecordEvent(start, s));
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtRecordEvent(end, s));
	acl_test_sleep_ms(150);
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtEventElapsedTime(&ms, start, end));
	ck_assert_msg(ms >= 140.0f && ms < 10000.0f, "elapsed %f ms", (double)ms);
	/* Reversed order gives the negative difference. */
	ACL_OK(aclrtEventElapsedTime(&ms, end, start));
	ck_assert_msg(ms <= -140.0f, "elapsed %f ms", (double)ms);
	ACL_OK(aclrtEventElapsedTime(&ms, start, start));
	ck_assert(ms == 0.0f);

	/* Back to back: start <= end. */
	ACL_OK(aclrtRecordEvent(start, s));
	ACL_OK(aclrtRecordEvent(end, s));
	ACL_OK(aclrtSynchronizeEvent(end));
	ACL_OK(aclrtEventElapsedTime(&ms, start, end));
	ck_assert_msg(ms >= 0.0f && ms < 1000.0f, "elapsed %f ms", (double)ms);

	ACL_OK(aclrtDestroyEvent(start));
	ACL_OK(aclrtDestroyEvent(end));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

START_TEST(elapsed_time_needs_completed_records)
{
	aclrtEvent start, end;
	struct acl_gate g;
	aclrtStream s;
	uint64_t ts;
	float ms;

	acl_gate_init(&g);
	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&start));
	ACL_OK(aclrtCreateEvent(&end));
	/* Never recorded: CANN's "event recorder null". */
	ACL_ERR(ACL_ERROR_RT_INTERNAL_ERROR, aclrtEventElapsedTime(&ms, start, end));
	ACL_ERR(ACL_ERROR_RT_INTERNAL_ERROR, aclrtEventGetTimestamp(start, &ts));
	ACL_OK(aclrtRecordEvent(start, s));
	ACL_OK(aclrtSynchronizeEvent(start));
	ACL_ERR(ACL_ERROR_RT_INTERNAL_ERROR, aclrtEventElapsedTime(&ms, start, end));
	/* Recorded but not complete: no valid timestamp yet. */
	acl_gate_block(&g, s, 1);
	ACL_OK(aclrtRecordEvent(end, s));
	ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime(&ms, start, end));
	ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventGetTimestamp(end, &ts));
	acl_gate_open(&g, 1);
	ACL_OK(aclrtSynchronizeStream(s));
	ACL_OK(aclrtEventElapsedTime(&ms, start, end));
	ck_assert(ms >= 0.0f);
	/* A reset event has no record again. */
	ACL_OK(aclrtResetEvent(end, s));
	ACL_ERR(ACL_ERROR_RT_INTERNAL_ERROR, aclrtEventElapsedTime(&ms, start, end));

	ACL_OK(aclrtDestroyEvent(start));
	ACL_OK(aclrtDestroyEvent(end));
	ACL_OK(aclrtDestroyStream(s));
	acl_gate_fini(&g);
}
END_TEST

START_TEST(timestamps_are_monotonic_microseconds)
{
	uint64_t before, after, t1 = 0, t2 = 0;
	aclrtEvent e1, e2;
	aclrtStream s;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&e1));
	ACL_OK(aclrtCreateEvent(&e2));
	before = host_us();
	ACL_OK(aclrtRecordEvent(e1, s));
	ACL_OK(aclrtSynchronizeEvent(e1));
	acl_test_sleep_ms(20);
	ACL_OK(aclrtRecordEvent(e2, s));
	ACL_OK(aclrtSynchronizeEvent(e2));
	after = host_us();
	ACL_OK(aclrtEventGetTimestamp(e1, &t1));
	ACL_OK(aclrtEventGetTimestamp(e2, &t2));
	ck_assert_uint_ge(t1, before);
	ck_assert_uint_le(t2, after);
	ck_assert_uint_ge(t2 - t1, 20000);
	ACL_OK(aclrtDestroyEvent(e1));
	ACL_OK(aclrtDestroyEvent(e2));
	ACL_OK(aclrtDestroyStream(s));
}
END_TEST

/* Records on several streams keep their own order per stream. */
START_TEST(many_events_in_order)
{
	enum { N = 64 };
	aclrtEvent ev[N];
	aclrtStream s[2];
	unsigned int i;

	ACL_OK(aclrtCreateStream(&s[0]));
	ACL_OK(aclrtCreateStream(&s[1]));
	for (i = 0; i < N; i++) {
		ACL_OK(aclrtCreateEvent(&ev[i]));
		ACL_OK(aclrtRecordEvent(ev[i], s[i % 2]));
	}
	ACL_OK(aclrtSynchronizeDevice());
	for (i = 2; i < N; i++) {
		float ms;

		ACL_OK(aclrtEventElapsedTime(&ms, ev[i - 2], ev[i]));
		ck_assert_msg(ms >= 0.0f, "event %u: %f ms", i, (double)ms);
	}
	for (i = 0; i < N; i++)
		ACL_OK(aclrtDestroyEvent(ev[i]));
	ACL_OK(aclrtDestroyStream(s[0]));
	ACL_OK(aclrtDestroyStream(s[1]));
}
END_TEST

/* An event outlives the stream it was recorded on. */
START_TEST(event_outlives_its_stream)
{
	aclrtEventRecordedStatus rs;
	aclrtStream s;
	aclrtEvent ev;
	uint64_t ts;

	ACL_OK(aclrtCreateStream(&s));
	ACL_OK(aclrtCreateEvent(&ev));
	ACL_OK(aclrtRecordEvent(ev, s));
	ACL_OK(aclrtDestroyStream(s));
	ACL_OK(aclrtSynchronizeEvent(ev));
	ACL_OK(aclrtQueryEventStatus(ev, &rs));
	ck_assert_int_eq(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ACL_OK(aclrtEventGetTimestamp(ev, &ts));
	ACL_OK(aclrtStreamWaitEvent(NULL, ev));
	ACL_OK(aclrtSynchronizeStream(NULL));
	ACL_OK(aclrtDestroyEvent(ev));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_event");
	TCase *tc = acl_tcase("events", true, 60);

	tcase_add_test(tc, create_and_destroy);
	tcase_add_test(tc, event_arguments);
	tcase_add_test(tc, create_ex_with_flag);
	tcase_add_test(tc, query_event_deprecated);
	tcase_add_test(tc, events_need_a_context_to_be_created);
	tcase_add_test(tc, record_synchronize_query);
	tcase_add_test(tc, record_covers_earlier_work_only);
	tcase_add_test(tc, elapsed_time_measures_device_time);
	tcase_add_test(tc, elapsed_time_needs_completed_records);
	tcase_add_test(tc, timestamps_are_monotonic_microseconds);
	tcase_add_test(tc, many_events_in_order);
	tcase_add_test(tc, event_outlives_its_stream);
	suite_add_tcase(s, tc);
	return acl_test_run(s);
}
