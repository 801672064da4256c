// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs view of a device's scheduler and engine server (dri/N/streams),
 * read by the tests to see that teardown released every job and stream
 * and that nothing polls:
 *
 *   streams	<streams alive, all files>
 *   jobs	<jobs allocated and not yet freed>
 *   ready	<jobs waiting for an engine worker>
 *   parked	<jobs parked on a wait>
 *   running	<jobs the engine server holds>
 *   wait_checks	<times the parked waits were looked at>
 *   engine	<pid of the attached server, or 0>
 *   attaches	<servers attached since the module was loaded>
 *   buffers	<buffers with an id for the attached server>
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_sched.h"
#include "vnpu_stream.h"

static int vnpu_debugfs_streams_show(struct seq_file *m, void *unused)
{
	struct vnpu_device *vdev = m->private;
	struct vnpu_sched *sched = &vdev->sched;
	unsigned int ready, parked, running, buffers = 0;
	pid_t pid = 0;
	u64 checks;

	/* The engine stays: its detach needs engine_mutex. */
	mutex_lock(&vdev->engine_mutex);
	spin_lock_irq(&sched->lock);
	ready = sched->num_ready;
	parked = sched->num_parked;
	running = sched->slots_used;
	checks = sched->wait_checks;
	if (sched->engine)
		pid = sched->engine->pid;
	spin_unlock_irq(&sched->lock);
	mutex_lock(&vdev->engine_lock);
	if (pid)
		buffers = vdev->sched.engine->num_buffers;
	mutex_unlock(&vdev->engine_lock);
	mutex_unlock(&vdev->engine_mutex);

	seq_printf(m, "streams\t%d\n", atomic_read(&vdev->num_streams));
	seq_printf(m, "jobs\t%d\n", atomic_read(&sched->num_jobs));
	seq_printf(m, "ready\t%u\n", ready);
	seq_printf(m, "parked\t%u\n", parked);
	seq_printf(m, "running\t%u\n", running);
	seq_printf(m, "wait_checks\t%llu\n", checks);
	seq_printf(m, "engine\t%d\n", pid);
	seq_printf(m, "attaches\t%d\n", atomic_read(&vdev->engine_attaches));
	seq_printf(m, "buffers\t%u\n", buffers);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vnpu_debugfs_streams);

/**
 * vnpu_debugfs_streams_init() - add the streams file to a device's debugfs
 * @vdev: the device, registered (its debugfs directory exists)
 *
 * The file goes away with the directory when the device is unregistered.
 */
void vnpu_debugfs_streams_init(struct vnpu_device *vdev)
{
	debugfs_create_file("streams", 0444, vnpu_debugfs_root(&vdev->drm), vdev,
			    &vnpu_debugfs_streams_fops);
}
