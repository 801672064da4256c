// SPDX-License-Identifier: GPL-2.0
/*
 * job.c - the events a RUN returns and the layout of a job, checked before
 * anything is read from them: an event or array that does not fit where
 * the kernel says it is never read past its end.
 */
#include <errno.h>
#include <string.h>

#include "engined.h"

void ev_iter_init(struct ev_iter *it, const void *events, size_t used, uint32_t count)
{
	it->pos = events;
	it->left = used;
	it->count = count;
}

int ev_iter_next(struct ev_iter *it, const struct drm_vnpu_engine_event **ev)
{
	const struct drm_vnpu_engine_event *hdr;

	if (!it->count)
		return 0;
	if (it->left < sizeof(*hdr) || ((uintptr_t)it->pos & 7))
		return -EBADMSG;
	hdr = (const struct drm_vnpu_engine_event *)it->pos;
	if (hdr->size < sizeof(*hdr) || (hdr->size & 7) || hdr->size > it->left)
		return -EBADMSG;
	it->pos += hdr->size;
	it->left -= hdr->size;
	it->count--;
	*ev = hdr;
	return 1;
}

int job_view_init(struct job_view *view, const struct drm_vnpu_engine_event *ev)
{
	const struct drm_vnpu_engine_job *job = (const struct drm_vnpu_engine_job *)ev;
	const unsigned char *base = (const unsigned char *)ev;
	uint64_t tasks, operands, need;

	memset(view, 0, sizeof(*view));
	if (ev->size < sizeof(*job))
		return -EINVAL;
	view->job = job;
	view->slot = job->slot;
	view->task_count = job->task_count;
	view->first_task = job->first_task;
	view->operand_count = job->operand_count;
	view->data_size = job->data_size;

	/* 64-bit sums of 32-bit products: no overflow. */
	tasks = (uint64_t)job->task_count * sizeof(struct drm_vnpu_engine_task);
	operands = (uint64_t)job->operand_count * sizeof(struct drm_vnpu_engine_operand);
	need = sizeof(*job) + tasks + operands + job->data_size;
	if (need > ev->size || job->first_task > job->task_count)
		return -EBADMSG;
	view->tasks = (const struct drm_vnpu_engine_task *)(base + sizeof(*job));
	view->operands = (const struct drm_vnpu_engine_operand *)(base + sizeof(*job) + tasks);
	view->data = base + sizeof(*job) + tasks + operands;
	return 0;
}

uint32_t job_fault_task(const struct job_view *view)
{
	if (view->first_task < view->task_count)
		return view->first_task;
	return view->task_count ? view->task_count - 1 : 0;
}

int job_task_operands(const struct job_view *view, const struct drm_vnpu_engine_task *t,
		      const struct drm_vnpu_engine_operand **ops, uint32_t *n)
{
	if ((uint64_t)t->operand + t->operand_count > view->operand_count)
		return -ERANGE;
	*ops = view->operands + t->operand;
	*n = t->operand_count;
	return 0;
}

int job_task_desc(const struct job_view *view, const struct drm_vnpu_engine_task *t,
		  const void **desc)
{
	if (!t->desc_size || t->desc_size > VNPU_MAX_OP_DESC_SIZE ||
	    (uint64_t)t->desc_offset + t->desc_size > view->data_size)
		return -ERANGE;
	*desc = view->data + t->desc_offset;
	return 0;
}
