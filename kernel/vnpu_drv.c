// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: a virtual NPU; its engine server (vnpu-engined) executes the work.
 *
 * This file holds the module, the devices (one facade platform device and
 * one DRM device each), the per-file state, the ioctl table, GET_PARAM and
 * the fdinfo usage statistics.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"
#include "vnpu_engine.h"
#include "vnpu_gem.h"
#include "vnpu_hazard.h"
#include "vnpu_job.h"
#include "vnpu_pool.h"
#include "vnpu_sched.h"
#include "vnpu_stream.h"
#include "vnpu_vm.h"

unsigned int vnpu_param_devices = 1;
module_param_named(devices, vnpu_param_devices, uint, 0444);
MODULE_PARM_DESC(devices, "Number of vnpu devices to create (1-8, default 1)");

unsigned int vnpu_param_mem_mib = 1024;
module_param_named(mem_mib, vnpu_param_mem_mib, uint, 0444);
MODULE_PARM_DESC(mem_mib, "Device memory capacity per device in MiB (1-65536, default 1024)");

unsigned int vnpu_param_engines = 2;
module_param_named(engines, vnpu_param_engines, uint, 0444);
MODULE_PARM_DESC(engines, "Execution engines per device (1-16, default 2)");

static int vnpu_set_job_timeout(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, VNPU_MAX_JOB_TIMEOUT_MS);
}

static const struct kernel_param_ops vnpu_job_timeout_ops = {
	.set = vnpu_set_job_timeout,
	.get = param_get_uint,
};

unsigned int vnpu_param_job_timeout_ms = 10000;
module_param_cb(job_timeout_ms, &vnpu_job_timeout_ops, &vnpu_param_job_timeout_ms, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "A job is cancelled this long after it starts executing, waits and time queued behind other streams included, in ms (1-3600000, default 10000; writable)");

unsigned int vnpu_param_max_streams_per_file = 2048;
module_param_named(max_streams_per_file, vnpu_param_max_streams_per_file, uint, 0444);
MODULE_PARM_DESC(max_streams_per_file, "Streams one open file may have (1-65536, default 2048)");

unsigned int vnpu_param_max_streams = 8192;
module_param_named(max_streams, vnpu_param_max_streams, uint, 0444);
MODULE_PARM_DESC(max_streams, "Streams a device may have, all files (1-65536, default 8192)");

unsigned int vnpu_param_max_jobs_per_file = 16384;
module_param_named(max_jobs_per_file, vnpu_param_max_jobs_per_file, uint, 0444);
MODULE_PARM_DESC(max_jobs_per_file, "Unfinished jobs one open file may have; a submit past it waits (1-32768, default 16384)");

static struct vnpu_device *vnpu_devices[VNPU_MAX_DEVICES];
static unsigned int vnpu_num_devices;

/* drm-client-id values: unique across devices for the module's lifetime. */
static atomic64_t vnpu_next_client_id = ATOMIC64_INIT(0);

/**
 * vnpu_mem_charge() - reserve device memory capacity
 * @vdev: device
 * @bytes: bytes to reserve
 *
 * Return: 0, or -ENOMEM (and nothing reserved) if the capacity cannot hold
 * @bytes more.
 */
int vnpu_mem_charge(struct vnpu_device *vdev, u64 bytes)
{
	s64 used = atomic64_read(&vdev->mem_used);

	do {
		if (bytes > vdev->mem_capacity - used)
			return -ENOMEM;
	} while (!atomic64_try_cmpxchg(&vdev->mem_used, &used, used + bytes));
	return 0;
}

/**
 * vnpu_mem_uncharge() - give back device memory capacity
 * @vdev: device
 * @bytes: bytes reserved earlier with vnpu_mem_charge()
 */
void vnpu_mem_uncharge(struct vnpu_device *vdev, u64 bytes)
{
	WARN_ON(atomic64_sub_return(bytes, &vdev->mem_used) < 0);
}

int vnpu_ioctl_get_param(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct drm_vnpu_get_param *args = data;

	if (args->pad)
		return -EINVAL;

	switch (args->param) {
	case VNPU_PARAM_ABI_VERSION:
		args->value = VNPU_ABI_MAJOR << 16 | VNPU_ABI_MINOR;
		break;
	case VNPU_PARAM_DEVICE_INDEX:
		args->value = vdev->index;
		break;
	case VNPU_PARAM_NUM_DEVICES:
		args->value = vnpu_param_devices;
		break;
	case VNPU_PARAM_NUM_ENGINES:
		args->value = vdev->num_engines;
		break;
	case VNPU_PARAM_MEM_CAPACITY:
		args->value = vdev->mem_capacity;
		break;
	case VNPU_PARAM_MEM_USED:
		args->value = atomic64_read(&vdev->mem_used);
		break;
	case VNPU_PARAM_FILE_MEM_USED:
		args->value = atomic64_read(&vfile->mem_used);
		break;
	case VNPU_PARAM_VA_START:
		args->value = vnpu_va_start(vdev);
		break;
	case VNPU_PARAM_VA_END:
		args->value = vnpu_va_end(vdev);
		break;
	case VNPU_PARAM_MAX_BO_SIZE:
		args->value = VNPU_MAX_BO_SIZE;
		break;
	case VNPU_PARAM_MAX_STREAMS_PER_FILE:
		args->value = vnpu_param_max_streams_per_file;
		break;
	case VNPU_PARAM_MAX_STREAMS:
		args->value = vnpu_param_max_streams;
		break;
	case VNPU_PARAM_MAX_TASKS_PER_SUBMIT:
		args->value = VNPU_MAX_TASKS_PER_SUBMIT;
		break;
	case VNPU_PARAM_JOB_TIMEOUT_MS:
		args->value = READ_ONCE(vnpu_param_job_timeout_ms);
		break;
	case VNPU_PARAM_CLIENT_ID:
		args->value = vfile->client_id;
		break;
	case VNPU_PARAM_HOST_MEM_USED:
		args->value = atomic64_read(&vdev->host_mem_used);
		break;
	case VNPU_PARAM_MAX_JOBS_PER_FILE:
		args->value = vnpu_param_max_jobs_per_file;
		break;
	case VNPU_PARAM_FILE_JOBS:
		args->value = atomic_read(&vfile->job_quota->unfinished);
		break;
	case VNPU_PARAM_ENGINE_ATTACHED:
		args->value = vnpu_sched_attached(vdev);
		break;
	case VNPU_PARAM_ENGINE_ATTACHES:
		args->value = atomic_read(&vdev->engine_attaches);
		break;
	case VNPU_PARAM_MAX_SUBMIT_DATA:
		args->value = VNPU_MAX_SUBMIT_DATA;
		break;
	case VNPU_PARAM_MAX_OP_DESC_SIZE:
		args->value = VNPU_MAX_OP_DESC_SIZE;
		break;
	case VNPU_PARAM_MAX_OP_OPERANDS:
		args->value = VNPU_MAX_OP_OPERANDS;
		break;
	case VNPU_PARAM_MAX_SUBMIT_OPERANDS:
		args->value = VNPU_MAX_SUBMIT_OPERANDS;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int vnpu_open(struct drm_device *drm, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL);
	if (!vfile)
		return -ENOMEM;

	vfile->job_quota = vnpu_job_quota_create();
	if (!vfile->job_quota)
		goto err_free;
	vfile->vm = vnpu_vm_create(vnpu_va_start(vdev), vnpu_va_end(vdev));
	if (!vfile->vm)
		goto err_quota;
	vfile->vdev = vdev;
	vfile->client_id = atomic64_inc_return(&vnpu_next_client_id);
	xa_init_flags(&vfile->streams, XA_FLAGS_ALLOC1);
	spin_lock_init(&vfile->pool_totals_lock);
	file->driver_priv = vfile;
	return 0;

err_quota:
	vnpu_job_quota_put(vfile->job_quota);
err_free:
	kfree(vfile);
	return -ENOMEM;
}

/* Runs after the core has closed every GEM handle and syncobj of the file. */
static void vnpu_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vnpu_file *vfile = to_vnpu_file(file);

	vnpu_streams_file_close(vfile);
	xa_destroy(&vfile->streams);
	vnpu_vm_put(vfile->vm);
	vnpu_job_quota_put(vfile->job_quota);
	kfree(vfile);
}

/* DRM client usage statistics (Documentation/gpu/drm-usage-stats.rst). */
static void vnpu_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct vnpu_file *vfile = to_vnpu_file(file);
	struct vnpu_device *vdev = vfile->vdev;

	seq_printf(m, "drm-driver:\t%s\n", VNPU_DRIVER_NAME);
	seq_printf(m, "drm-client-id:\t%llu\n", vfile->client_id);
	seq_printf(m, "drm-engine-compute:\t%llu ns\n",
		   (u64)atomic64_read(&vfile->engine_busy_ns));
	seq_printf(m, "drm-engine-capacity-compute:\t%u\n", vdev->num_engines);
	vnpu_gem_show_fdinfo(m, file);
	seq_printf(m, "vnpu-device:\t%u\n", vdev->index);
	seq_printf(m, "vnpu-streams:\t%d\n", atomic_read(&vfile->num_streams));
	seq_printf(m, "vnpu-jobs:\t%d\n", atomic_read(&vfile->job_quota->unfinished));
	vnpu_streams_show_fdinfo(m, vfile);
}

static const struct file_operations vnpu_fops = {
	.owner = THIS_MODULE,
	VNPU_FOPS_BASE,
	.show_fdinfo = vnpu_show_fdinfo,
};

#define VNPU_IOCTL(name, func) \
	DRM_IOCTL_DEF_DRV(VNPU_##name, vnpu_ioctl_##func, DRM_RENDER_ALLOW)
/* Root only (CAP_SYS_ADMIN), on any node of the device. */
#define VNPU_IOCTL_ROOT(name, func) \
	DRM_IOCTL_DEF_DRV(VNPU_##name, vnpu_ioctl_##func, DRM_RENDER_ALLOW | DRM_ROOT_ONLY)

static const struct drm_ioctl_desc vnpu_ioctls[] = {
	VNPU_IOCTL(GET_PARAM, get_param),
	VNPU_IOCTL(BO_CREATE, bo_create),
	VNPU_IOCTL(BO_INFO, bo_info),
	VNPU_IOCTL(BO_USERPTR, bo_userptr),
	VNPU_IOCTL(STREAM_CREATE, stream_create),
	VNPU_IOCTL(STREAM_DESTROY, stream_destroy),
	VNPU_IOCTL(SUBMIT, submit),
	VNPU_IOCTL(STREAM_QUERY, stream_query),
	VNPU_IOCTL(STREAM_SET_PARAM, stream_set_param),
	VNPU_IOCTL(POOL_BIND, pool_bind),
	VNPU_IOCTL(POOL_UNBIND, pool_unbind),
	VNPU_IOCTL(POOL_QUERY, pool_query),
	VNPU_IOCTL(SIGNAL, signal),
	VNPU_IOCTL_ROOT(ENGINE_ATTACH, engine_attach),
	VNPU_IOCTL(STREAM_ABORT, stream_abort),
};

static const struct drm_driver vnpu_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE |
			   VNPU_DRIVER_NODE_FEATURE,
	.open = vnpu_open,
	.postclose = vnpu_postclose,
	.gem_create_object = vnpu_gem_create_object,
	DRM_GEM_SHMEM_DRIVER_OPS,
	.gem_prime_import = vnpu_gem_prime_import,
	.debugfs_init = vnpu_debugfs_init,
	.ioctls = vnpu_ioctls,
	.num_ioctls = ARRAY_SIZE(vnpu_ioctls),
	.fops = &vnpu_fops,
	.name = VNPU_DRIVER_NAME,
	.desc = "Virtual NPU",
	VNPU_DRIVER_DATE("20261129")
	.major = VNPU_ABI_MAJOR,
	.minor = VNPU_ABI_MINOR,
};

static struct vnpu_device *vnpu_device_create(unsigned int index)
{
	struct platform_device *pdev;
	struct vnpu_device *vdev;
	int ret;

	pdev = platform_device_register_simple(VNPU_DRIVER_NAME, index, NULL, 0);
	if (IS_ERR(pdev))
		return ERR_CAST(pdev);

	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_unregister_pdev;
	}

	/* Buffers are dma-mapped (PRIME); the facade device reaches all RAM. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_release_devres;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vnpu_drm_driver,
				  struct vnpu_device, drm);
	if (IS_ERR(vdev)) {
		ret = PTR_ERR(vdev);
		goto err_release_devres;
	}
	vdev->pdev = pdev;
	vdev->index = index;
	vdev->mem_capacity = (u64)vnpu_param_mem_mib << 20;
	vdev->num_engines = vnpu_param_engines;
	vnpu_fault_init(&vdev->fail_bo_alloc);
	vnpu_fault_init(&vdev->fail_job);
	vnpu_hazards_init(vdev);

	ret = vnpu_sched_init(vdev);
	if (ret)
		goto err_release_devres;
	ret = vnpu_engine_dev_init(vdev);
	if (ret)
		goto err_sched;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		goto err_engine;
	vnpu_debugfs_streams_init(vdev);
	vnpu_debugfs_pools_init(vdev);
	return vdev;

err_engine:
	vnpu_engine_dev_fini(vdev);
err_sched:
	vnpu_sched_fini(vdev);
err_release_devres:
	devres_release_group(&pdev->dev, NULL);
err_unregister_pdev:
	platform_device_unregister(pdev);
	return ERR_PTR(ret);
}

static void vnpu_device_destroy(struct vnpu_device *vdev)
{
	struct platform_device *pdev = vdev->pdev;

	drm_dev_unregister(&vdev->drm);
	/* No file is open: only cancelled work can remain, and it ends soon. */
	vnpu_sched_fini(vdev);
	vnpu_engine_dev_fini(vdev);
	/* Drops the DRM device: vdev is gone after this. */
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

static bool vnpu_params_valid(void)
{
	return vnpu_param_devices >= 1 && vnpu_param_devices <= VNPU_MAX_DEVICES &&
	       vnpu_param_engines >= 1 && vnpu_param_engines <= VNPU_MAX_ENGINES &&
	       vnpu_param_mem_mib >= 1 && vnpu_param_mem_mib <= 65536 &&
	       vnpu_param_max_streams_per_file >= 1 &&
	       vnpu_param_max_streams_per_file <= 65536 &&
	       vnpu_param_max_streams >= 1 && vnpu_param_max_streams <= 65536 &&
	       vnpu_param_max_jobs_per_file >= 1 && vnpu_param_max_jobs_per_file <= 32768;
}

static void vnpu_destroy_devices(void)
{
	while (vnpu_num_devices)
		vnpu_device_destroy(vnpu_devices[--vnpu_num_devices]);
}

static int __init vnpu_init(void)
{
	struct vnpu_device *vdev;
	unsigned int i;

	if (!vnpu_params_valid()) {
		pr_err("vnpu: module parameter out of range (see modinfo vnpu)\n");
		return -EINVAL;
	}

	for (i = 0; i < vnpu_param_devices; i++) {
		vdev = vnpu_device_create(i);
		if (IS_ERR(vdev)) {
			vnpu_destroy_devices();
			return PTR_ERR(vdev);
		}
		vnpu_devices[vnpu_num_devices++] = vdev;
	}
	return 0;
}

static void __exit vnpu_exit(void)
{
	vnpu_destroy_devices();
}

module_init(vnpu_init);
module_exit(vnpu_exit);

MODULE_DESCRIPTION("vnpu: virtual NPU whose engines run in a userspace engine server");
MODULE_LICENSE("GPL");
VNPU_IMPORT_NS_DMA_BUF();
