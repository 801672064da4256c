// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: fault injection and test hooks, per device, root only. None of
 * this is ABI; tests and benchmarks use it to reach what no ioctl shows.
 *
 *  fail_bo_alloc/    fault injection point (vnpu_fault.h): BO_CREATE
 *                    fails with -ENOMEM; "the next N calls fail" is
 *                    probability 100, interval 1, times N
 *  fail_job/         fault injection point: a job handed to the engine
 *                    server for the first time faults at its first task
 *                    instead (vnpu_sched_hand_out_locked(), vnpu_sched.c)
 *  hazard_rescan_delay_ms
 *                    write N: the next submit on a serializing stream whose
 *                    workspace collides sleeps N ms (at most 10 s) between
 *                    finding the collision and building the dependency
 *                    (vnpu_hazard.c), so a test can let the other job end
 *                    in between
 *  va_resolve        write "CLIENT VA LEN" (client id decimal, VA and LEN
 *                    hex): resolve the range in that file's address space
 *                    as job validation does; read back
 *                    "ERR OFFSET BO_SIZE CRC32" with ERR 0 or a negative
 *                    errno and CRC32 (zlib's) of the range's bytes as the
 *                    kernel sees them through its mapping
 *  va_lookup_bench   write "CLIENT LOOKUPS": time LOOKUPS resolutions of
 *                    random live buffers of that file (lock, look up, take
 *                    and drop the mapping reference: what a submit pays per
 *                    address); read back "buffers N lookups M ns T" with T
 *                    the total time
 *
 * The two command files keep their result per open file, so concurrent
 * users do not see each other's answers.
 */
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_vm.h"

static int vnpu_dbg_counter_get(void *data, u64 *val)
{
	*val = atomic_read((atomic_t *)data);
	return 0;
}

static int vnpu_dbg_counter_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -EINVAL;
	atomic_set((atomic_t *)data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(vnpu_dbg_counter_fops, vnpu_dbg_counter_get,
			 vnpu_dbg_counter_set, "%llu\n");

/* The address space of the open file with drm-client-id @client_id. */
static struct vnpu_vm *vnpu_dbg_client_vm(struct vnpu_device *vdev, u64 client_id)
{
	struct vnpu_vm *vm = NULL;
	struct drm_file *file;

	mutex_lock(&vdev->drm.filelist_mutex);
	list_for_each_entry(file, &vdev->drm.filelist, lhead) {
		struct vnpu_file *vfile = to_vnpu_file(file);

		if (vfile && vfile->client_id == client_id) {
			vm = vnpu_vm_get(vfile->vm);
			break;
		}
	}
	mutex_unlock(&vdev->drm.filelist_mutex);
	return vm;
}

/* zlib's CRC-32 of @len bytes, in slices so a long range does not hog the CPU. */
static u32 vnpu_dbg_crc32(const u8 *p, u64 len)
{
	u32 crc = ~0u;

	while (len) {
		size_t n = min_t(u64, len, SZ_1M);

		crc = crc32_le(crc, p, n);
		p += n;
		len -= n;
		cond_resched();
	}
	return ~crc;
}

static int vnpu_dbg_va_resolve(struct vnpu_device *vdev, const char *cmd,
			       char *out, size_t size)
{
	u64 client, va, len, offset = 0, bo_size = 0;
	struct vnpu_mapping *mapping;
	struct vnpu_vm *vm;
	u32 crc = 0;
	int ret;

	if (sscanf(cmd, "%llu %llx %llx", &client, &va, &len) != 3)
		return -EINVAL;
	vm = vnpu_dbg_client_vm(vdev, client);
	if (!vm)
		return -ENOENT;

	ret = vnpu_vm_resolve(vm, va, len, &mapping, &offset);
	if (!ret) {
		bo_size = vnpu_bo_size(mapping->bo);
		crc = vnpu_dbg_crc32((u8 *)vnpu_bo_vaddr(mapping->bo) + offset, len);
		vnpu_mapping_put(mapping);
	}
	vnpu_vm_put(vm);
	scnprintf(out, size, "%d %llu %llu %08x\n", ret, offset, bo_size, crc);
	return 0;
}

#define VNPU_BENCH_PICKS 4096	/* a power of two */

static int vnpu_dbg_va_lookup_bench(struct vnpu_device *vdev, const char *cmd,
				    char *out, size_t size)
{
	struct vnpu_mapping *mapping;
	unsigned long n, i;
	u64 client, lookups, offset, start, ns;
	struct vnpu_vm *vm;
	u64 *vas, *picks;
	int ret = 0;

	if (sscanf(cmd, "%llu %llu", &client, &lookups) != 2 || !lookups ||
	    lookups > 100000000ULL)
		return -EINVAL;
	vm = vnpu_dbg_client_vm(vdev, client);
	if (!vm)
		return -ENOENT;

	n = vnpu_vm_live_vas(vm, NULL, 0);
	vas = kvmalloc_array(max(n, 1UL), sizeof(*vas), GFP_KERNEL);
	picks = kvmalloc_array(VNPU_BENCH_PICKS, sizeof(*picks), GFP_KERNEL);
	if (!vas || !picks) {
		ret = -ENOMEM;
		goto out;
	}
	n = min(n, vnpu_vm_live_vas(vm, vas, n));
	if (!n) {
		ret = -ENXIO;
		goto out;
	}
	/* Random buffers, chosen before the clock starts. */
	for (i = 0; i < VNPU_BENCH_PICKS; i++)
		picks[i] = vas[get_random_u32() % n];

	start = ktime_get_ns();
	for (i = 0; i < lookups; i++) {
		ret = vnpu_vm_resolve(vm, picks[i & (VNPU_BENCH_PICKS - 1)], 1,
				      &mapping, &offset);
		if (ret)
			break;	/* the owner closed a buffer meanwhile */
		vnpu_mapping_put(mapping);
		if (!(i & 1023))
			cond_resched();
	}
	ns = ktime_get_ns() - start;
	if (!ret)
		scnprintf(out, size, "buffers %lu lookups %llu ns %llu\n", n,
			  lookups, ns);
out:
	kvfree(picks);
	kvfree(vas);
	vnpu_vm_put(vm);
	return ret;
}

/**
 * struct vnpu_dbg_cmd - one open command file
 * @vdev: device
 * @run: the file's command: parses the written line, fills @out
 * @lock: serialises commands and reads on this open file
 * @out: result of the last successful command
 */
struct vnpu_dbg_cmd {
	struct vnpu_device *vdev;
	int (*run)(struct vnpu_device *vdev, const char *cmd, char *out,
		   size_t size);
	struct mutex lock;	/* serialises commands and @out */
	char out[128];
};

static int vnpu_dbg_cmd_open(struct inode *inode, struct file *f,
			     int (*run)(struct vnpu_device *, const char *,
					char *, size_t))
{
	struct vnpu_dbg_cmd *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->vdev = inode->i_private;
	c->run = run;
	mutex_init(&c->lock);
	f->private_data = c;
	return nonseekable_open(inode, f);
}

static int vnpu_dbg_va_resolve_open(struct inode *inode, struct file *f)
{
	return vnpu_dbg_cmd_open(inode, f, vnpu_dbg_va_resolve);
}

static int vnpu_dbg_va_lookup_bench_open(struct inode *inode, struct file *f)
{
	return vnpu_dbg_cmd_open(inode, f, vnpu_dbg_va_lookup_bench);
}

static ssize_t vnpu_dbg_cmd_write(struct file *f, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	struct vnpu_dbg_cmd *c = f->private_data;
	char cmd[96];
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, buf, count))
		return -EFAULT;
	cmd[count] = '\0';

	mutex_lock(&c->lock);
	c->out[0] = '\0';
	ret = c->run(c->vdev, cmd, c->out, sizeof(c->out));
	mutex_unlock(&c->lock);
	return ret ? ret : count;
}

static ssize_t vnpu_dbg_cmd_read(struct file *f, char __user *buf,
				 size_t count, loff_t *ppos)
{
	struct vnpu_dbg_cmd *c = f->private_data;
	ssize_t ret;

	mutex_lock(&c->lock);
	/* Each read returns the whole answer: the file is not seekable. */
	ret = simple_read_from_buffer(buf, count, &(loff_t){ 0 }, c->out,
				      strlen(c->out));
	mutex_unlock(&c->lock);
	return ret;
}

static int vnpu_dbg_cmd_release(struct inode *inode, struct file *f)
{
	struct vnpu_dbg_cmd *c = f->private_data;

	mutex_destroy(&c->lock);
	kfree(c);
	return 0;
}

static const struct file_operations vnpu_dbg_va_resolve_fops = {
	.owner = THIS_MODULE,
	.open = vnpu_dbg_va_resolve_open,
	.write = vnpu_dbg_cmd_write,
	.read = vnpu_dbg_cmd_read,
	.release = vnpu_dbg_cmd_release,
	.llseek = no_llseek,
};

static const struct file_operations vnpu_dbg_va_lookup_bench_fops = {
	.owner = THIS_MODULE,
	.open = vnpu_dbg_va_lookup_bench_open,
	.write = vnpu_dbg_cmd_write,
	.read = vnpu_dbg_cmd_read,
	.release = vnpu_dbg_cmd_release,
	.llseek = no_llseek,
};

/**
 * vnpu_debugfs_init() - drm_driver.debugfs_init
 * @minor: the minor whose debugfs directory is being populated
 *
 * The files live in the directory of the device's primary (or accel) minor,
 * /sys/kernel/debug/dri/<minor>/.
 */
void vnpu_debugfs_init(struct drm_minor *minor)
{
	struct vnpu_device *vdev = to_vnpu_device(minor->dev);
	struct dentry *root = minor->debugfs_root;

	if (minor->type == DRM_MINOR_RENDER)
		return;

	vnpu_fault_debugfs(&vdev->fail_bo_alloc, "fail_bo_alloc", root);
	vnpu_fault_debugfs(&vdev->fail_job, "fail_job", root);
	debugfs_create_file_unsafe("hazard_rescan_delay_ms", 0600, root,
				   &vdev->hazard_rescan_delay_ms, &vnpu_dbg_counter_fops);
	debugfs_create_file("va_resolve", 0600, root, vdev,
			    &vnpu_dbg_va_resolve_fops);
	debugfs_create_file("va_lookup_bench", 0600, root, vdev,
			    &vnpu_dbg_va_lookup_bench_fops);
}
