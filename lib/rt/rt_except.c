// SPDX-License-Identifier: MIT
/*
 * rt_except.c - task exceptions: the exception callbacks
 * (aclrtSetExceptionInfoCallback, aclrtExceptionInfoCallbackRegister) and
 * what they are told about the failed task.
 *
 * A task on vnpu is one job the runtime queues on a stream (one SUBMIT),
 * and its task id is the job's seqno on its kernel stream (= the stream's
 * timeline point), truncated to 32 bits. Every successful submit records
 * its seqno as the submitting thread's last task id and, in a small ring
 * per stream, which thread queued it. When the runtime first sees a
 * stream failed (STREAM_QUERY: the failed job's seqno), it calls the
 * callbacks once for that failure, with no runtime lock held.
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt.h"

/* What a callback is told (opaque to the application). */
struct rtExceptionInfo {
	uint32_t task_id;
	uint32_t stream_id;
	uint32_t thread_id;
	uint32_t device_id;
	uint32_t error_code;
};

#define EXCEPT_MAX_CALLBACKS 64

/* The callbacks: the one aclrtSetExceptionInfoCallback() set and those
 * registered, in registration order; all under except_lock. */
static pthread_mutex_t except_lock = PTHREAD_MUTEX_INITIALIZER;
static aclrtExceptionInfoCallback except_set;
static aclrtExceptionInfoCallback except_reg[EXCEPT_MAX_CALLBACKS];
static unsigned int except_nreg;

/* This thread's last queued task id (0: none yet) and its Linux tid. */
static _Thread_local uint32_t last_task_id;
static _Thread_local uint32_t my_tid;

static uint32_t thread_tid(void)
{
	if (!my_tid)
		my_tid = (uint32_t)syscall(SYS_gettid);
	return my_tid;
}

void rt_except_set(aclrtExceptionInfoCallback cb)
{
	pthread_mutex_lock(&except_lock);
	except_set = cb;
	pthread_mutex_unlock(&except_lock);
}

aclError rt_except_register(aclrtExceptionInfoCallback cb)
{
	aclError ret = ACL_SUCCESS;
	unsigned int i;

	pthread_mutex_lock(&except_lock);
	for (i = 0; i < except_nreg && except_reg[i] != cb; i++)
		;
	if (i == except_nreg) {
		if (except_nreg == EXCEPT_MAX_CALLBACKS)
			ret = rt_err(ACL_ERROR_STORAGE_OVER_LIMIT, "%d exception callbacks are registered already",
				     EXCEPT_MAX_CALLBACKS);
		else
			except_reg[except_nreg++] = cb;
	}
	pthread_mutex_unlock(&except_lock);
	return ret;
}

aclError rt_except_unregister(aclrtExceptionInfoCallback cb)
{
	unsigned int i;

	pthread_mutex_lock(&except_lock);
	for (i = 0; i < except_nreg && except_reg[i] != cb; i++)
		;
	if (i == except_nreg) {
		pthread_mutex_unlock(&except_lock);
		return rt_err(ACL_ERROR_INVALID_PARAM, "exception callback %p is not registered", (void *)cb);
	}
	for (; i + 1 < except_nreg; i++)
		except_reg[i] = except_reg[i + 1];
	except_nreg--;
	pthread_mutex_unlock(&except_lock);
	return ACL_SUCCESS;
}

void rt_except_job_queued(struct rt_stream *s, uint64_t seqno)
{
	uint32_t id = (uint32_t)seqno;

	last_task_id = id;
	atomic_store(&s->job_threads[seqno % RT_JOB_THREADS], (uint64_t)thread_tid() << 32 | id);
}

uint32_t rt_except_last_task_id(void)
{
	return last_task_id;
}

/* The thread that queued job @seqno of @s, if the ring still has it. */
static uint32_t job_thread(struct rt_stream *s, uint64_t seqno)
{
	uint64_t e = atomic_load(&s->job_threads[seqno % RT_JOB_THREADS]);

	if (!seqno || (uint32_t)e != (uint32_t)seqno)
		return RT_EXCEPT_NONE;
	return (uint32_t)(e >> 32);
}

void rt_except_report(struct rt_stream *s, uint64_t failed_seqno, aclError code)
{
	aclrtExceptionInfoCallback cbs[EXCEPT_MAX_CALLBACKS + 1];
	uint64_t key = failed_seqno ? failed_seqno : UINT64_MAX;
	struct rtExceptionInfo info;
	unsigned int n = 0, i;

	/* Once per failure, whoever notices it first. */
	if (atomic_exchange(&s->except_seqno, key) == key)
		return;
	pthread_mutex_lock(&except_lock);
	if (except_set)
		cbs[n++] = except_set;
	for (i = 0; i < except_nreg; i++)
		cbs[n++] = except_reg[i];
	pthread_mutex_unlock(&except_lock);
	if (!n)
		return;
	info.task_id = failed_seqno ? (uint32_t)failed_seqno : RT_EXCEPT_NONE;
	info.stream_id = atomic_load(&s->id);
	info.thread_id = job_thread(s, failed_seqno);
	info.device_id = s->dev->index;
	info.error_code = (uint32_t)code;
	for (i = 0; i < n; i++)
		cbs[i](&info);
}

uint32_t rt_except_task_id(const struct rtExceptionInfo *info)
{
	return info ? info->task_id : RT_EXCEPT_NONE;
}

uint32_t rt_except_stream_id(const struct rtExceptionInfo *info)
{
	return info ? info->stream_id : RT_EXCEPT_NONE;
}

uint32_t rt_except_thread_id(const struct rtExceptionInfo *info)
{
	return info ? info->thread_id : RT_EXCEPT_NONE;
}

uint32_t rt_except_device_id(const struct rtExceptionInfo *info)
{
	return info ? info->device_id : RT_EXCEPT_NONE;
}

uint32_t rt_except_error_code(const struct rtExceptionInfo *info)
{
	return info ? info->error_code : RT_EXCEPT_NONE;
}
