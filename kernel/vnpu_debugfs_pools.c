// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs view of a device's pools (dri/N/pools), for people and tests:
 *
 *   hazard_records	<workspace-use records alive, all buffers>
 *   client <drm-client-id>
 *	totals	<counters>
 *	stream <id>	<counters> policy <serialize|strict> require_pool <0|1>
 *		range	<va>	<size>[	closed]
 *
 * <counters> is "ranges N binds N unbinds N bytes_bound N
 * hazards_serialized N hazards_rejected N ws_bytes N ws_tasks N" (no
 * ranges for the totals); "closed" marks a range whose buffer's handle is
 * gone (the binding keeps the memory).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <drm/drm_file.h>

#include "vnpu_drv.h"
#include "vnpu_pool.h"
#include "vnpu_stream.h"

static void vnpu_debugfs_show_stats(struct seq_file *m, const struct drm_vnpu_pool_stats *s)
{
	seq_printf(m, "binds %llu unbinds %llu bytes_bound %llu hazards_serialized %llu hazards_rejected %llu ws_bytes %llu ws_tasks %llu",
		   s->binds, s->unbinds, s->bytes_bound, s->hazards_serialized,
		   s->hazards_rejected, s->ws_bytes_used, s->ws_tasks);
}

static void vnpu_debugfs_show_file(struct seq_file *m, struct vnpu_file *vfile)
{
	struct drm_vnpu_pool_stats stats;
	struct vnpu_stream *stream;
	u32 id = 0;

	seq_printf(m, "client %llu\n", vfile->client_id);
	spin_lock(&vfile->pool_totals_lock);
	stats = vfile->pool_totals;
	spin_unlock(&vfile->pool_totals_lock);
	seq_puts(m, "\ttotals\t");
	vnpu_debugfs_show_stats(m, &stats);
	seq_putc(m, '\n');

	while ((stream = vnpu_stream_next(vfile, &id))) {
		vnpu_pool_stats(&stream->pool, vfile, &stats);
		seq_printf(m, "\tstream %u\tranges %u ", id, READ_ONCE(stream->pool.num_ranges));
		vnpu_debugfs_show_stats(m, &stats);
		seq_printf(m, " policy %s require_pool %u\n",
			   READ_ONCE(stream->hazard_policy) == VNPU_HAZARD_STRICT ?
			   "strict" : "serialize", READ_ONCE(stream->require_pool));
		vnpu_pool_show_ranges(m, &stream->pool, "\t\t");
		vnpu_stream_put(stream);
	}
}

static int vnpu_debugfs_pools_show(struct seq_file *m, void *unused)
{
	struct vnpu_device *vdev = m->private;
	struct drm_file *file;

	seq_printf(m, "hazard_records\t%d\n", atomic_read(&vdev->num_hazard_records));
	/* A file on the list has not been through postclose: its state is alive. */
	mutex_lock(&vdev->drm.filelist_mutex);
	list_for_each_entry(file, &vdev->drm.filelist, lhead) {
		struct vnpu_file *vfile = to_vnpu_file(file);

		if (vfile)
			vnpu_debugfs_show_file(m, vfile);
	}
	mutex_unlock(&vdev->drm.filelist_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vnpu_debugfs_pools);

/**
 * vnpu_debugfs_pools_init() - add the pools file to a device's debugfs
 * @vdev: the device, registered (its debugfs directory exists)
 *
 * The file goes away with the directory when the device is unregistered.
 */
void vnpu_debugfs_pools_init(struct vnpu_device *vdev)
{
	debugfs_create_file("pools", 0444, vnpu_debugfs_root(&vdev->drm), vdev,
			    &vnpu_debugfs_pools_fops);
}
