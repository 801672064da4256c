// SPDX-License-Identifier: MIT
/*
 * nnt.c - helpers of the aclnn suites (nnt.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt.h"
#include "vnpu_drm.h"

static aclrtStream stream;

aclrtStream nnt_stream(void)
{
	if (!stream)
		ACL_OK(aclrtCreateStream(&stream));
	return stream;
}

/* ---- element access -------------------------------------------------------------- */

static size_t esize(aclDataType dt)
{
	size_t s = vops_dtype_size(dt);

	ck_assert_msg(s, "no element size for type %d", (int)dt);
	return s;
}

static void put(aclDataType dt, void *base, uint64_t i, double v)
{
	unsigned char *p = (unsigned char *)base + i * esize(dt);

	switch (dt) {
	case ACL_FLOAT: { float f = (float)v; memcpy(p, &f, 4); break; }
	case ACL_DOUBLE: memcpy(p, &v, 8); break;
	case ACL_FLOAT16: { uint16_t h = vops_f64_to_f16(v); memcpy(p, &h, 2); break; }
	case ACL_BF16: { uint16_t h = vops_f64_to_bf16(v); memcpy(p, &h, 2); break; }
	case ACL_BOOL: *p = v != 0; break;
	case ACL_INT8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
	case ACL_UINT8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
	case ACL_INT16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
	case ACL_UINT16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case ACL_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
	case ACL_UINT32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	case ACL_INT64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
	case ACL_UINT64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
	default: ck_abort_msg("type %d", (int)dt);
	}
}

static double get(aclDataType dt, const void *base, uint64_t i)
{
	const unsigned char *p = (const unsigned char *)base + i * esize(dt);

	switch (dt) {
	case ACL_FLOAT: { float f; memcpy(&f, p, 4); return f; }
	case ACL_DOUBLE: { double d; memcpy(&d, p, 8); return d; }
	case ACL_FLOAT16: { uint16_t h; memcpy(&h, p, 2); return vops_f16_to_f32(h); }
	case ACL_BF16: { uint16_t h; memcpy(&h, p, 2); return vops_bf16_to_f32(h); }
	case ACL_BOOL: return *p != 0;
	case ACL_INT8: return (int8_t)*p;
	case ACL_UINT8: return *p;
	case ACL_INT16: { int16_t x; memcpy(&x, p, 2); return x; }
	case ACL_UINT16: { uint16_t x; memcpy(&x, p, 2); return x; }
	case ACL_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
	case ACL_UINT32: { uint32_t x; memcpy(&x, p, 4); return x; }
	case ACL_INT64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
	case ACL_UINT64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
	default: ck_abort_msg("type %d", (int)dt);
	}
	return 0;
}

/* @v as stored in type @dt and read back. */
static double round_to(aclDataType dt, double v)
{
	unsigned char b[8];

	put(dt, b, 0, v);
	return get(dt, b, 0);
}

static bool is_float(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

double nnt_rtol(aclDataType dt)
{
	switch (dt) {
	case ACL_FLOAT: return 1e-5;
	case ACL_DOUBLE: return 1e-12;
	case ACL_FLOAT16: return 2e-3;
	case ACL_BF16: return 1.6e-2;
	default: return 0;
	}
}

double nnt_atol(aclDataType dt)
{
	switch (dt) {
	case ACL_FLOAT: return 1e-6;
	case ACL_DOUBLE: return 1e-12;
	case ACL_FLOAT16: return 1e-3;
	case ACL_BF16: return 1e-2;
	default: return 0;
	}
}

/* ---- tensors ------------------------------------------------------------------------- */

static uint64_t count_of(int ndim, const int64_t *dims)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < ndim; i++)
		n *= (uint64_t)dims[i];
	return n;
}

/* The storage offset of view element @i (row-major index). */
static uint64_t view_pos(const struct nnt *t, uint64_t i)
{
	uint64_t pos = (uint64_t)t->offset;
	int d;

	for (d = t->ndim - 1; d >= 0; d--) {
		uint64_t k = i % (uint64_t)t->dims[d];

		i /= (uint64_t)t->dims[d];
		pos += k * (uint64_t)t->strides[d];
	}
	return pos;
}

static void make_acl_tensor(struct nnt *t)
{
	int64_t storage = (int64_t)t->storage_elems;

	t->t = aclCreateTensor(t->dims, (uint64_t)t->ndim, t->dtype, t->strides, t->offset, ACL_FORMAT_ND, &storage, 1,
			       t->dev);
	ck_assert_msg(t->t, "aclCreateTensor: %s", acl_test_msg());
}

static struct nnt *alloc_base(aclDataType dt, int ndim, const int64_t *dims, uint64_t storage)
{
	struct nnt *t = calloc(1, sizeof(*t));
	size_t bytes = (storage ? storage : 1) * esize(dt);

	ck_assert(t && ndim <= NNT_MAX_RANK);
	t->dtype = dt;
	t->ndim = ndim;
	if (ndim)
		memcpy(t->dims, dims, (size_t)ndim * sizeof(*dims));
	t->storage_elems = storage;
	t->host = calloc(1, bytes);
	ck_assert(t->host);
	ACL_OK(aclrtMalloc(&t->dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	return t;
}

static void upload(struct nnt *t)
{
	size_t bytes = (t->storage_elems ? t->storage_elems : 1) * esize(t->dtype);

	ACL_OK(aclrtMemcpy(t->dev, bytes, t->host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void row_major(int ndim, const int64_t *dims, int64_t *strides)
{
	int64_t s = 1;
	int i;

	for (i = ndim - 1; i >= 0; i--) {
		strides[i] = s;
		s *= dims[i] ? dims[i] : 1;
	}
}

static double gen(unsigned int *state, aclDataType dt, double lo, double hi)
{
	double u;

	*state = *state * 1103515245u + 12345u;
	u = (double)((*state >> 8) & 0xffffff) / (double)0xffffff;
	if (dt == ACL_BOOL)
		return u < 0.5 ? 0 : 1;
	if (!is_float(dt))
		return floor(lo + u * (hi - lo + 0.999));
	return lo + u * (hi - lo);
}

static struct nnt *new_laid_out(aclDataType dt, int ndim, const int64_t *dims, double lo, double hi, unsigned int seed,
				bool transposed)
{
	uint64_t n = count_of(ndim, dims), i;
	unsigned int st = seed * 2654435761u + 1;
	struct nnt *t = alloc_base(dt, ndim, dims, n);

	row_major(ndim, dims, t->strides);
	if (transposed) {
		int64_t sd[NNT_MAX_RANK], ss[NNT_MAX_RANK];

		ck_assert(ndim >= 2);
		memcpy(sd, dims, (size_t)ndim * sizeof(*dims));
		sd[ndim - 1] = dims[ndim - 2];
		sd[ndim - 2] = dims[ndim - 1];
		row_major(ndim, sd, ss);
		memcpy(t->strides, ss, (size_t)ndim * sizeof(*ss));
		t->strides[ndim - 1] = ss[ndim - 2];
		t->strides[ndim - 2] = ss[ndim - 1];
	}
	for (i = 0; i < n; i++)
		put(dt, t->host, view_pos(t, i), gen(&st, dt, lo, hi));
	upload(t);
	make_acl_tensor(t);
	return t;
}

struct nnt *nnt_new(aclDataType dt, int ndim, const int64_t *dims, double lo, double hi, unsigned int seed)
{
	return new_laid_out(dt, ndim, dims, lo, hi, seed, false);
}

struct nnt *nnt_new_transposed(aclDataType dt, int ndim, const int64_t *dims, double lo, double hi, unsigned int seed)
{
	return new_laid_out(dt, ndim, dims, lo, hi, seed, true);
}

struct nnt *nnt_zeros(aclDataType dt, int ndim, const int64_t *dims)
{
	return new_laid_out(dt, ndim, dims, 0, 0, 1, false);
}

struct nnt *nnt_from(aclDataType dt, int ndim, const int64_t *dims, const double *values)
{
	struct nnt *t = alloc_base(dt, ndim, dims, count_of(ndim, dims));
	uint64_t i;

	row_major(ndim, dims, t->strides);
	for (i = 0; i < t->storage_elems; i++)
		put(dt, t->host, i, values[i]);
	upload(t);
	make_acl_tensor(t);
	return t;
}

struct nnt *nnt_view(struct nnt *base, int ndim, const int64_t *dims, const int64_t *strides, int64_t offset)
{
	struct nnt *t = calloc(1, sizeof(*t));

	ck_assert(t && ndim <= NNT_MAX_RANK);
	*t = (struct nnt){ .dtype = base->dtype, .ndim = ndim, .offset = offset,
			   .storage_elems = base->storage_elems, .dev = base->dev, .host = base->host,
			   .base = base->base ? base->base : base };
	if (ndim) {
		memcpy(t->dims, dims, (size_t)ndim * sizeof(*dims));
		memcpy(t->strides, strides, (size_t)ndim * sizeof(*strides));
	}
	make_acl_tensor(t);
	return t;
}

void nnt_free(struct nnt *t)
{
	if (!t)
		return;
	aclDestroyTensor(t->t);
	if (!t->base) {
		aclrtFree(t->dev);
		free(t->host);
	}
	free(t);
}

void nnt_sync_host(struct nnt *t)
{
	size_t bytes = (t->storage_elems ? t->storage_elems : 1) * esize(t->dtype);

	ACL_OK(aclrtMemcpy(t->host, bytes, t->dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

uint64_t nnt_count(const struct nnt *t)
{
	return count_of(t->ndim, t->dims);
}

double *nnt_values(const struct nnt *t)
{
	uint64_t n = nnt_count(t), i;
	double *v = malloc((n ? n : 1) * sizeof(*v));

	ck_assert(v);
	for (i = 0; i < n; i++)
		v[i] = get(t->dtype, t->host, view_pos(t, i));
	return v;
}

aclScalar *nnt_scalar(aclDataType dt, double v)
{
	unsigned char b[8] = { 0 };
	aclScalar *s;

	put(dt, b, 0, v);
	s = aclCreateScalar(b, dt);
	ck_assert_msg(s, "aclCreateScalar: %s", acl_test_msg());
	return s;
}

aclnnStatus nnt_launch(uint64_t ws, aclOpExecutor *e, nnt_launch_fn launch)
{
	void *mem = NULL;
	aclnnStatus r;

	if (ws)
		ACL_OK(aclrtMalloc(&mem, ws, ACL_MEM_MALLOC_HUGE_FIRST));
	r = launch(mem, ws, e, nnt_stream());
	if (!r)
		r = aclrtSynchronizeStream(nnt_stream());
	if (mem)
		ACL_OK(aclrtFree(mem));
	return r;
}

/* ---- the reference ---------------------------------------------------------------------- */

double *nnt_ref_values(const char *type, int nin, const double *const *in, const aclDataType *in_dt, const int *in_ndim,
		       const int64_t *const *in_dims, const struct vops_attr *attrs, unsigned int nattrs, int which,
		       uint64_t *count)
{
	struct vops_operand ops[VOPS_MAX_INPUTS + VOPS_MAX_OUTPUTS + 1];
	struct vops_tensor t[VOPS_MAX_INPUTS];
	struct vops_plan *plan = malloc(sizeof(*plan));
	struct vops_error err;
	char why[256] = "";
	uint64_t i, n;
	double *res;
	int k, nops = 0;

	ck_assert(plan && nin <= VOPS_MAX_INPUTS);
	for (k = 0; k < nin; k++) {
		uint64_t m = count_of(in_ndim[k], in_dims[k]);
		void *buf = calloc(m ? m : 1, esize(in_dt[k]));

		ck_assert(buf);
		for (i = 0; i < m; i++)
			put(in_dt[k], buf, i, in[k][i]);
		t[k] = (struct vops_tensor){ .dtype = in_dt[k], .ndim = in_ndim[k], .dims = in_dims[k] };
		ops[nops++] = (struct vops_operand){ buf, (m ? m : 1) * esize(in_dt[k]), VNPU_OPERAND_READ };
	}
	ck_assert_msg(!vops_plan(type, nin, t, VOPS_MAX_OUTPUTS, attrs, nattrs, plan, &err), "reference %s: %s", type,
		      err.msg);
	ck_assert(which < plan->nout);
	for (k = 0; k < plan->nout; k++) {
		void *buf = calloc(plan->out[k].bytes ? plan->out[k].bytes : 8, 1);

		ck_assert(buf);
		ops[nops++] = (struct vops_operand){ buf, plan->out[k].bytes ? plan->out[k].bytes : 8,
						     VNPU_OPERAND_WRITE };
	}
	if (plan->ws_bytes) {
		void *buf = aligned_alloc(64, (plan->ws_bytes + 63) & ~63ull);

		ck_assert(buf);
		ops[nops++] = (struct vops_operand){ buf, plan->ws_bytes, VNPU_OPERAND_WORKSPACE };
	}
	if (!plan->empty)
		ck_assert_msg(vops_run(plan->desc, plan->desc_size, ops, (unsigned int)nops, NULL, why, sizeof(why)) ==
				      VOPS_RUN_OK, "reference %s: %s", type, why);
	n = count_of(plan->out[which].ndim, plan->out[which].dims);
	res = malloc((n ? n : 1) * sizeof(*res));
	ck_assert(res);
	for (i = 0; i < n; i++)
		res[i] = get(plan->out[which].dtype, ops[nin + which].ptr, i);
	for (k = 0; k < nops; k++)
		free(ops[k].ptr);
	*count = n;
	free(plan);
	return res;
}

double *nnt_ref(const char *type, int nin, struct nnt *const *in, aclDataType in_dt, const struct vops_attr *attrs,
		unsigned int nattrs, int which, uint64_t *count)
{
	const double *vals[VOPS_MAX_INPUTS] = { 0 };
	aclDataType dts[VOPS_MAX_INPUTS] = { 0 };
	const int64_t *dims[VOPS_MAX_INPUTS] = { 0 };
	int ndim[VOPS_MAX_INPUTS] = { 0 }, k;
	double *res;

	for (k = 0; k < nin; k++) {
		vals[k] = nnt_values(in[k]);
		dts[k] = in_dt == ACL_DT_UNDEFINED ? in[k]->dtype : in_dt;
		dims[k] = in[k]->dims;
		ndim[k] = in[k]->ndim;
	}
	res = nnt_ref_values(type, nin, vals, dts, ndim, dims, attrs, nattrs, which, count);
	for (k = 0; k < nin; k++)
		free((void *)vals[k]);
	return res;
}

void nnt_expect(struct nnt *out, const double *expect, uint64_t count, double rtol, double atol)
{
	uint64_t n = nnt_count(out), i;
	double *got;

	ck_assert_msg(n == count, "the output has %llu elements, the reference %llu", (unsigned long long)n,
		      (unsigned long long)count);
	nnt_sync_host(out);
	got = nnt_values(out);
	for (i = 0; i < n; i++) {
		double want = round_to(out->dtype, expect[i]), g = got[i];
		bool ok;

		if (isnan(want))
			ok = isnan(g);
		else if (isinf(want))
			ok = g == want;
		else
			ok = fabs(g - want) <= atol + rtol * fabs(want);
		ck_assert_msg(ok, "element %llu: got %.9g, expected %.9g (type %d)", (unsigned long long)i, g, want,
			      (int)out->dtype);
	}
	free(got);
}

void *nnt_snapshot(const struct nnt *t)
{
	size_t bytes = (t->storage_elems ? t->storage_elems : 1) * esize(t->dtype);
	void *p = malloc(bytes);

	ck_assert(p);
	memcpy(p, t->host, bytes);
	return p;
}

void nnt_expect_untouched(struct nnt *t, const void *before)
{
	size_t es = esize(t->dtype);
	unsigned char *in_view = calloc(t->storage_elems ? t->storage_elems : 1, 1);
	uint64_t i, n = nnt_count(t);

	ck_assert(in_view);
	nnt_sync_host(t);
	for (i = 0; i < n; i++)
		in_view[view_pos(t, i)] = 1;
	for (i = 0; i < t->storage_elems; i++)
		if (!in_view[i])
			ck_assert_msg(!memcmp((const unsigned char *)before + i * es,
					      (const unsigned char *)t->host + i * es, es),
				      "storage element %llu outside the view changed", (unsigned long long)i);
	free(in_view);
}
