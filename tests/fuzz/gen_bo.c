// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of the buffer family: GET_PARAM, BO_CREATE, BO_INFO,
 * BO_USERPTR, GEM_CLOSE, PRIME export and import, and CPU mappings of
 * buffers and dma-bufs.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "fuzz.h"

/* Handles, ids and fds no live object can have (handles count up from 1). */
static uint32_t unknown_id(struct fz_rng *r)
{
	return fz_chance(r, 1, 3) ? 0 : (1u << 30) + (uint32_t)fz_below(r, 1u << 30);
}

static uint64_t page_up(uint64_t n)
{
	return (n + FZ_PAGE - 1) & ~(FZ_PAGE - 1);
}

/* ---------------------------------------------------------------- GET_PARAM */

static void check_param(struct fz_thread *t, uint32_t param, uint64_t v)
{
	uint64_t va = VNPU_VA_START + (uint64_t)t->file->dev * VNPU_VA_DEVICE_SPAN;
	uint64_t abi = (uint64_t)VNPU_ABI_MAJOR << 16 | VNPU_ABI_MINOR;

	switch (param) {
	case VNPU_PARAM_ABI_VERSION:
		if (fz_planted("get_param_abi"))
			abi++;
		fz_check(t, "get_param_abi", v == abi, "ABI version %#llx", (unsigned long long)v);
		break;
	case VNPU_PARAM_DEVICE_INDEX:
		fz_check(t, "get_param_device_index", v == t->file->dev, "index %llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_NUM_DEVICES:
		fz_check(t, "get_param_num_devices", v >= 1 && v == t->num_devices && v <= 8,
			 "%llu devices, %u found", (unsigned long long)v, t->num_devices);
		break;
	case VNPU_PARAM_NUM_ENGINES:
		fz_check(t, "get_param_engines", v >= 1 && v <= 16, "%llu engines",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_VA_START:
		fz_check(t, "get_param_va", v == va, "VA start %#llx", (unsigned long long)v);
		break;
	case VNPU_PARAM_VA_END:
		fz_check(t, "get_param_va", v == va + VNPU_VA_DEVICE_SPAN, "VA end %#llx",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_BO_SIZE:
		fz_check(t, "get_param_bounds", v == VNPU_MAX_BO_SIZE, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_TASKS_PER_SUBMIT:
		fz_check(t, "get_param_bounds", v == VNPU_MAX_TASKS_PER_SUBMIT, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_SUBMIT_DATA:
		fz_check(t, "get_param_bounds", v == VNPU_MAX_SUBMIT_DATA, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_OP_DESC_SIZE:
		fz_check(t, "get_param_bounds", v == VNPU_MAX_OP_DESC_SIZE, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_OP_OPERANDS:
		fz_check(t, "get_param_bounds", v == VNPU_MAX_OP_OPERANDS, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_SUBMIT_OPERANDS:
		fz_check(t, "get_param_bounds", v == VNPU_MAX_SUBMIT_OPERANDS, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_ENGINE_ATTACHED:
		fz_check(t, "get_param_engine_attached", v <= 1, "%llu", (unsigned long long)v);
		break;
	case VNPU_PARAM_MAX_JOBS_PER_FILE:
		fz_check(t, "get_param_bounds", v >= 1 && v <= 32768, "%llu",
			 (unsigned long long)v);
		break;
	case VNPU_PARAM_MEM_USED: {
		uint64_t cap = 0;
		struct drm_vnpu_get_param p = { .param = VNPU_PARAM_MEM_CAPACITY };

		if (!fz_ioctl(t->file->fd, FZ_GET_PARAM, DRM_IOCTL_VNPU_GET_PARAM, &p))
			cap = p.value;
		fz_check(t, "get_param_mem_used", v <= cap, "used %llu > capacity %llu",
			 (unsigned long long)v, (unsigned long long)cap);
		break;
	}
	case VNPU_PARAM_FILE_JOBS: {
		struct drm_vnpu_get_param p = { .param = VNPU_PARAM_MAX_JOBS_PER_FILE };

		if (!fz_ioctl(t->file->fd, FZ_GET_PARAM, DRM_IOCTL_VNPU_GET_PARAM, &p))
			fz_check(t, "get_param_file_jobs", v <= p.value,
				 "%llu unfinished jobs, limit %llu", (unsigned long long)v,
				 (unsigned long long)p.value);
		break;
	}
	}
}

void fz_sweep_params(struct fz_thread *t)
{
	uint32_t param;

	for (param = 0; param <= VNPU_PARAM_MAX_SUBMIT_OPERANDS; param++) {
		struct drm_vnpu_get_param p = { .param = param };
		struct fz_expect e;

		fz_expect_valid(&e, "get_param", 0);
		fz_what(t, "GET_PARAM param=%u (sweep)", param);
		if (!fz_judge(t, FZ_GET_PARAM, fz_ioctl(t->file->fd, FZ_GET_PARAM,
							DRM_IOCTL_VNPU_GET_PARAM, &p), &e))
			check_param(t, param, p.value);
	}
}

void fz_gen_get_param(struct fz_thread *t)
{
	struct drm_vnpu_get_param p = { 0 };
	struct fz_expect e;
	bool bad;

	p.param = fz_chance(&t->rng, 7, 8) ? (uint32_t)fz_below(&t->rng, 24) : fz_any32(&t->rng);
	p.pad = fz_chance(&t->rng, 1, 8) ? fz_any32(&t->rng) : 0;
	p.value = fz_any64(&t->rng);
	bad = p.param > VNPU_PARAM_MAX_SUBMIT_OPERANDS || p.pad;
	if (bad)
		fz_expect_invalid(&e, "get_param_invalid", EINVAL, 0);
	else
		fz_expect_valid(&e, "get_param", 0);
	fz_what(t, "GET_PARAM param=%u pad=%u", p.param, p.pad);
	if (!fz_judge(t, FZ_GET_PARAM,
		      fz_ioctl(t->file->fd, FZ_GET_PARAM, DRM_IOCTL_VNPU_GET_PARAM, &p), &e))
		check_param(t, p.param, p.value);
}

/* ---------------------------------------------------------------- buffers */

/* The checks of a buffer the kernel just gave us, against BO_INFO. */
static void check_new_buf(struct fz_thread *t, struct fz_buf *b, uint64_t asked, bool userptr)
{
	struct fz_file *f = t->file;
	struct drm_vnpu_bo_info info = { .handle = b->handle };
	uint64_t want = page_up(asked);
	unsigned int i;

	fz_check(t, "handle_nonzero_unique", b->handle && !fz_handle_live(f, b->handle),
		 "handle %u", b->handle);
	fz_check(t, "bo_va_window", b->va >= f->va_start && b->va < f->va_end &&
		 !(b->va & (FZ_PAGE - 1)) && want <= f->va_end - b->va,
		 "va %#llx size %llu", (unsigned long long)b->va, (unsigned long long)want);
	if (b->flags & VNPU_BO_HUGE_ALIGN)
		fz_check(t, "bo_huge_align", !(b->va & (FZ_HUGE - 1)), "va %#llx",
			 (unsigned long long)b->va);
	pthread_mutex_lock(&f->mu);
	for (i = 0; i < FZ_MAX_BUFS; i++) {
		const struct fz_buf *o = &f->bufs[i];

		if (o->live && o->handle != b->handle && b->va < o->va + o->size &&
		    o->va < b->va + want) {
			pthread_mutex_unlock(&f->mu);
			fz_violation(t, "bo_va_disjoint", "va %#llx+%llu overlaps handle %u",
				     (unsigned long long)b->va, (unsigned long long)want,
				     o->handle);
			pthread_mutex_lock(&f->mu);
			break;
		}
	}
	pthread_mutex_unlock(&f->mu);
	if (fz_ioctl(f->fd, FZ_BO_INFO, DRM_IOCTL_VNPU_BO_INFO, &info)) {
		fz_violation(t, "bo_info_of_new_handle", "BO_INFO of new handle %u failed",
			     b->handle);
		return;
	}
	if (fz_planted("bo_create_size"))
		want += FZ_PAGE;
	fz_check(t, "bo_create_size", info.size == want, "asked %llu, BO_INFO size %llu",
		 (unsigned long long)asked, (unsigned long long)info.size);
	fz_check(t, "bo_info_matches", info.va == b->va &&
		 info.flags == (b->flags | (userptr ? VNPU_BO_USERPTR : 0)),
		 "BO_INFO va %#llx flags %#x, created va %#llx flags %#x",
		 (unsigned long long)info.va, info.flags, (unsigned long long)b->va, b->flags);
	fz_check(t, "bo_mmap_offset", userptr ? info.mmap_offset == 0 :
		 info.mmap_offset && !(info.mmap_offset & (FZ_PAGE - 1)),
		 "mmap_offset %#llx", (unsigned long long)info.mmap_offset);
	b->size = info.size;
	b->flags = info.flags;
}

static void close_handle(struct fz_thread *t, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	fz_ioctl(t->file->fd, FZ_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &c);
}

static uint64_t bo_size(struct fz_rng *r)
{
	switch (fz_below(r, 10)) {
	case 0:
		return fz_any64(r) & (fz_chance(r, 1, 2) ? 0x3fffff : ~0ull);
	case 1:
		return (uint64_t[]){ 0, 1, FZ_PAGE - 1, FZ_PAGE, FZ_PAGE + 1, FZ_HUGE,
				     VNPU_MAX_BO_SIZE, VNPU_MAX_BO_SIZE + 1, ~0ull,
				     VNPU_MAX_BO_SIZE - 1 }[fz_below(r, 10)];
	case 2:
		return FZ_PAGE * (1 + fz_below(r, 64));
	default:
		return 1 + fz_below(r, 5 * FZ_PAGE);
	}
}

void fz_gen_bo_create(struct fz_thread *t)
{
	struct drm_vnpu_bo_create c = { 0 };
	struct fz_expect e;
	uint64_t asked;
	int ret;

	if (fz_count_bufs(t->file) >= FZ_MAX_BUFS - 2)
		return;
	c.size = asked = bo_size(&t->rng);
	/* Sizes the guest would have to back for real stay small. */
	if (c.size > (64ull << 20) && c.size <= VNPU_MAX_BO_SIZE - 1 && c.size != VNPU_MAX_BO_SIZE)
		c.size = asked = 4ull << 20;
	c.flags = fz_flags(&t->rng, VNPU_BO_FLAGS);
	c.handle = fz_any32(&t->rng);
	c.va = fz_any64(&t->rng);
	if (!c.size || (c.flags & ~VNPU_BO_FLAGS)) {
		fz_expect_invalid(&e, "bo_create_invalid", EINVAL, 0);
		if (c.size > VNPU_MAX_BO_SIZE)
			fz_expect_also(&e, E2BIG, 0);
	} else if (c.size > VNPU_MAX_BO_SIZE) {
		fz_expect_invalid(&e, "bo_create_too_big", E2BIG, 0);
	} else {
		fz_expect_valid(&e, "bo_create", 0);
	}
	fz_what(t, "BO_CREATE size=%llu flags=%#x", (unsigned long long)c.size, c.flags);
	ret = fz_judge(t, FZ_BO_CREATE,
		       fz_ioctl(t->file->fd, FZ_BO_CREATE, DRM_IOCTL_VNPU_BO_CREATE, &c), &e);
	if (ret)
		return;
	{
		struct fz_buf b = { .handle = c.handle, .va = c.va, .flags = c.flags };

		check_new_buf(t, &b, asked, false);
		if (!fz_add_buf(t->file, &b))
			close_handle(t, c.handle);
	}
}

void fz_gen_bo_info(struct fz_thread *t)
{
	struct drm_vnpu_bo_info info = { 0 };
	struct fz_expect e;
	struct fz_buf b;
	bool known = fz_chance(&t->rng, 4, 5) && fz_pick_buf(t->file, &t->rng, &b);

	info.handle = known ? b.handle : unknown_id(&t->rng);
	info.flags = fz_any32(&t->rng);
	info.size = fz_any64(&t->rng);
	if (known)
		fz_expect_valid(&e, "bo_info", 0);
	else
		fz_expect_invalid(&e, "bo_info_unknown_handle", ENOENT, 0);
	fz_what(t, "BO_INFO handle=%u", info.handle);
	if (fz_judge(t, FZ_BO_INFO, fz_ioctl(t->file->fd, FZ_BO_INFO, DRM_IOCTL_VNPU_BO_INFO,
					      &info), &e) || !known)
		return;
	fz_check(t, "bo_info_stable", info.size == b.size && info.va == b.va &&
		 info.flags == b.flags,
		 "handle %u: size %llu va %#llx flags %#x, was %llu %#llx %#x",
		 b.handle, (unsigned long long)info.size, (unsigned long long)info.va, info.flags,
		 (unsigned long long)b.size, (unsigned long long)b.va, b.flags);
}

void fz_gen_bo_userptr(struct fz_thread *t)
{
	struct drm_vnpu_bo_userptr u = { 0 };
	uint64_t pages = 1 + fz_below(&t->rng, 8);
	uint64_t len = pages * FZ_PAGE;
	struct fz_expect e;
	void *mem = NULL;
	int how = (int)fz_below(&t->rng, 12);
	int ret;

	if (fz_count_bufs(t->file) >= FZ_MAX_BUFS - 2)
		return;
	mem = mmap(NULL, len, how == 1 ? PROT_READ : PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return;
	memset(mem, 0, how == 1 ? 0 : len);
	u.user_ptr = (uint64_t)(uintptr_t)mem;
	u.size = len;
	u.handle = fz_any32(&t->rng);
	switch (how) {
	case 0:		/* fields: random; aligned ones name our memory */
		u.user_ptr = fz_chance(&t->rng, 1, 2) ? fz_any64(&t->rng) : u.user_ptr + 1;
		u.size = fz_chance(&t->rng, 1, 2) ? fz_any64(&t->rng) : u.size;
		if (!(u.user_ptr & (FZ_PAGE - 1)) && u.user_ptr && u.size <= VNPU_MAX_BO_SIZE &&
		    !(u.size & (FZ_PAGE - 1)) && u.size) {
			u.user_ptr = (uint64_t)(uintptr_t)mem;
			u.size = u.size > len ? len : u.size;
			fz_expect_valid(&e, "bo_userptr", 0);
		} else {
			fz_expect_invalid(&e, "bo_userptr_invalid", EINVAL, E2BIG, EFAULT, 0);
		}
		break;
	case 1:		/* read-only memory */
		fz_expect_invalid(&e, "bo_userptr_readonly", EFAULT, 0);
		break;
	case 2:		/* memory with no access (still reserved: no other thread maps it) */
		if (mmap(mem, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    mem) {
			munmap(mem, len);
			return;
		}
		fz_expect_invalid(&e, "bo_userptr_no_access", EFAULT, 0);
		break;
	case 3:		/* flags */
		u.flags = 1u << fz_below(&t->rng, 32);
		fz_expect_invalid(&e, "bo_userptr_flags", EINVAL, 0);
		break;
	case 4:		/* a kernel address */
		u.user_ptr = 0xffff888000000000ull;
		fz_expect_invalid(&e, "bo_userptr_kernel", EFAULT, 0);
		break;
	case 5:		/* zero size, unaligned size */
		u.size = fz_chance(&t->rng, 1, 2) ? 0 : len - 1 - fz_below(&t->rng, FZ_PAGE - 1);
		fz_expect_invalid(&e, "bo_userptr_size", EINVAL, 0);
		break;
	default:
		fz_expect_valid(&e, "bo_userptr", 0);
		break;
	}
	fz_what(t, "BO_USERPTR ptr=%#llx size=%llu flags=%#x", (unsigned long long)u.user_ptr,
		(unsigned long long)u.size, u.flags);
	ret = fz_judge(t, FZ_BO_USERPTR,
		       fz_ioctl(t->file->fd, FZ_BO_USERPTR, DRM_IOCTL_VNPU_BO_USERPTR, &u), &e);
	if (ret) {
		if (mem)
			munmap(mem, len);
		return;
	}
	{
		struct fz_buf b = { .handle = u.handle, .va = u.va, .flags = 0 };

		check_new_buf(t, &b, u.size, true);
		/* The buffer keeps its pages; the pool unmaps ours at close. */
		b.uptr = mem;
		b.ulen = len;
		if (!fz_add_buf(t->file, &b)) {
			close_handle(t, u.handle);
			munmap(mem, len);
		}
	}
}

/* Under the file's write lock (driver.c): the handle dies. */
void fz_gen_gem_close(struct fz_thread *t)
{
	struct drm_gem_close c = { 0 };
	struct fz_expect e;
	struct fz_buf b;
	bool known = fz_chance(&t->rng, 5, 6) && fz_pick_buf(t->file, &t->rng, &b);

	c.handle = known ? b.handle : unknown_id(&t->rng);
	if (known && !fz_planted("gem_close_unknown"))
		fz_expect_valid(&e, "gem_close", 0);
	else
		fz_expect_invalid(&e, "gem_close_unknown", EINVAL, 0);
	fz_what(t, "GEM_CLOSE handle=%u", c.handle);
	if (!fz_judge(t, FZ_GEM_CLOSE, fz_ioctl(t->file->fd, FZ_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE,
						 &c), &e) && known) {
		fz_del_buf(t->file, b.handle);
		/* A second close of the same handle fails. */
		fz_expect_invalid(&e, "gem_close_twice", EINVAL, 0);
		fz_judge(t, FZ_GEM_CLOSE,
			 fz_ioctl(t->file->fd, FZ_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &c), &e);
	}
}

/* ---------------------------------------------------------------- PRIME */

void fz_gen_prime_export(struct fz_thread *t)
{
	struct drm_prime_handle p = { 0 };
	struct fz_expect e;
	struct fz_buf b;
	bool known = fz_chance(&t->rng, 6, 7) && fz_pick_buf(t->file, &t->rng, &b);

	p.handle = known ? b.handle : unknown_id(&t->rng);
	p.flags = fz_chance(&t->rng, 6, 7) ? DRM_CLOEXEC | (fz_chance(&t->rng, 1, 2) ? DRM_RDWR : 0)
					   : fz_any32(&t->rng) | DRM_CLOEXEC;
	p.fd = (int)fz_any32(&t->rng);
	if (p.flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		fz_expect_invalid(&e, "prime_export_flags", EINVAL, known ? 0 : ENOENT, 0);
	else if (!known)
		fz_expect_invalid(&e, "prime_export_unknown", ENOENT, 0);
	else
		fz_expect_valid(&e, "prime_export", EMFILE, 0);
	fz_what(t, "PRIME_HANDLE_TO_FD handle=%u flags=%#x", p.handle, p.flags);
	if (fz_judge(t, FZ_PRIME_HANDLE_TO_FD,
		     fz_ioctl(t->file->fd, FZ_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p),
		     &e))
		return;
	if (!fz_check(t, "prime_export_fd", p.fd >= 0, "fd %d", p.fd) || !known)
		return;
	{
		struct fz_xfd x = { .fd = p.fd, .kind = FZ_FD_DMABUF, .size = b.size,
				    .userptr = b.flags & VNPU_BO_USERPTR,
				    .rdwr = p.flags & DRM_RDWR,
				    .handle = b.handle, .gen = b.gen };

		if (!fz_add_xfd(t->file, &x))
			close(p.fd);
	}
}

void fz_gen_prime_import(struct fz_thread *t)
{
	struct drm_prime_handle p = { 0 };
	struct fz_expect e;
	struct fz_xfd x;
	bool known = fz_chance(&t->rng, 5, 6) && fz_pick_xfd(t->file, &t->rng, FZ_FD_DMABUF, &x);
	int which = known ? 0 : (int)fz_below(&t->rng, 3);
	int pipefd[2] = { -1, -1 };
	int ret;

	if (known) {
		p.fd = x.fd;
		fz_expect_valid(&e, "prime_import", 0);
	} else if (which == 0) {
		p.fd = -1 - (int)fz_below(&t->rng, 1000);
		fz_expect_invalid(&e, "prime_import_badf", EBADF, EINVAL, 0);
	} else if (which == 1 && !pipe(pipefd)) {
		p.fd = pipefd[0];
		fz_expect_invalid(&e, "prime_import_not_dmabuf", EINVAL, 0);
	} else {
		p.fd = t->file->fd;
		fz_expect_invalid(&e, "prime_import_not_dmabuf", EINVAL, 0);
	}
	p.handle = fz_any32(&t->rng);
	fz_what(t, "PRIME_FD_TO_HANDLE fd=%d", p.fd);
	ret = fz_judge(t, FZ_PRIME_FD_TO_HANDLE,
		       fz_ioctl(t->file->fd, FZ_PRIME_FD_TO_HANDLE, DRM_IOCTL_PRIME_FD_TO_HANDLE,
				&p), &e);
	if (pipefd[0] >= 0) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	if (ret || !known || !e.may_succeed || !p.handle)
		goto out;
	if (fz_handle_gen(t->file, x.handle) == x.gen) {
		fz_check(t, "prime_import_same_handle", p.handle == x.handle,
			 "own export of handle %u imported as %u", x.handle, p.handle);
	} else if (!fz_handle_live(t->file, p.handle)) {
		struct drm_vnpu_bo_info info = { .handle = p.handle };

		if (fz_ioctl(t->file->fd, FZ_BO_INFO, DRM_IOCTL_VNPU_BO_INFO, &info)) {
			fz_violation(t, "bo_info_of_new_handle", "import handle %u", p.handle);
			goto out;
		}
		fz_check(t, "prime_import_size", info.size == x.size, "size %llu, exported %llu",
			 (unsigned long long)info.size, (unsigned long long)x.size);
		fz_check(t, "bo_va_window", info.va >= t->file->va_start &&
			 info.va + info.size <= t->file->va_end, "va %#llx",
			 (unsigned long long)info.va);
		{
			struct fz_buf b = { .handle = p.handle, .va = info.va, .size = info.size,
					    .flags = info.flags, .imported = true };

			if (!fz_add_buf(t->file, &b))
				close_handle(t, p.handle);
		}
	}
out:
	return;
}

/* ---------------------------------------------------------------- mmap */

void fz_gen_mmap(struct fz_thread *t)
{
	struct fz_expect e;
	uint64_t len, off = 0;
	int fd, ret = 0;
	struct fz_buf b;
	struct fz_xfd x;
	void *cpu;

	if (fz_chance(&t->rng, 1, 3) && fz_pick_xfd(t->file, &t->rng, FZ_FD_DMABUF, &x)) {
		fd = x.fd;
		len = x.size;
		if (x.userptr)
			fz_expect_invalid(&e, "mmap_dmabuf_userptr", EINVAL, EACCES, EPERM,
					  ENODEV, 0);
		else
			/*
			 * Read-only exports refuse writable mappings, and a buffer
			 * keeps the dma-buf (and mode) of its first export.
			 */
			fz_expect_valid(&e, "mmap_dmabuf", EACCES, 0);
		fz_what(t, "mmap dma-buf fd=%d size=%llu", fd, (unsigned long long)len);
	} else if (fz_pick_buf(t->file, &t->rng, &b)) {
		struct drm_vnpu_bo_info info = { .handle = b.handle };

		if (fz_ioctl(t->file->fd, FZ_BO_INFO, DRM_IOCTL_VNPU_BO_INFO, &info))
			return;
		fd = t->file->fd;
		off = info.mmap_offset;
		len = b.size;
		if (fz_chance(&t->rng, 1, 6)) {
			len += FZ_PAGE * (1 + fz_below(&t->rng, 4));
			fz_expect_invalid(&e, "mmap_beyond_buffer", EINVAL, EACCES, ENXIO, 0);
		} else if (!off) {
			fz_expect_invalid(&e, "mmap_unmappable", EINVAL, EACCES, ENXIO, 0);
		} else {
			fz_expect_valid(&e, "mmap", 0);
		}
		fz_what(t, "mmap handle=%u offset=%#llx size=%llu", b.handle,
			(unsigned long long)off, (unsigned long long)len);
	} else {
		return;
	}
	cpu = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (cpu == MAP_FAILED)
		ret = -errno;
	fz_count(FZ_MMAP, ret);
	fz_judge(t, FZ_MMAP, ret, &e);
	if (ret)
		return;
	/* Touch the first and the last byte. */
	((volatile uint8_t *)cpu)[0] = (uint8_t)fz_next(&t->rng);
	(void)((volatile uint8_t *)cpu)[len - 1];
	if (!fz_add_map(t->file, cpu, len))
		munmap(cpu, len);
}

void fz_gen_munmap(struct fz_thread *t)
{
	struct fz_map m;
	int ret;

	if (!fz_take_map(t->file, &t->rng, &m))
		return;
	/* The mapping keeps its memory even if the handle is gone. */
	(void)((volatile uint8_t *)m.cpu)[m.size / 2];
	fz_what(t, "munmap %p size=%llu", m.cpu, (unsigned long long)m.size);
	ret = munmap(m.cpu, m.size) ? -errno : 0;
	fz_count(FZ_MUNMAP, ret);
	fz_check(t, "munmap", !ret, "munmap failed: %d", ret);
}
