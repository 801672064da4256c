// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs view of a device's streams and engines (dri/N/streams), read by
 * the tests to see that teardown released every job and stream:
 *
 *   streams	<streams alive, all files>
 *   jobs	<jobs allocated and not yet freed>
 *   parked	<rings parked on a wait, all engines>
 *   engine<i>	runnable <rings queued> parked <rings parked>
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_stream.h"

static int vnpu_debugfs_streams_show(struct seq_file *m, void *unused)
{
	struct vnpu_device *vdev = m->private;
	unsigned int i, runnable, parked;

	seq_printf(m, "streams\t%d\n", atomic_read(&vdev->num_streams));
	seq_printf(m, "jobs\t%d\n", atomic_read(&vdev->num_jobs));
	seq_printf(m, "parked\t%d\n", atomic_read(&vdev->num_parked));
	for (i = 0; i < vdev->num_engines; i++) {
		struct vnpu_engine *engine = &vdev->engines[i];

		spin_lock(&engine->lock);
		runnable = engine->num_runnable;
		parked = engine->num_parked;
		spin_unlock(&engine->lock);
		seq_printf(m, "engine%u\trunnable %u parked %u\n", i, runnable, parked);
	}
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
