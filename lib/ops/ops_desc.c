// SPDX-License-Identifier: MIT
/*
 * ops_desc.c - the operator descriptor: a call (struct ops_call) in bytes.
 *
 * Version 1, all fields little-endian, no padding between the parts
 * (docs/ops.md has the same with examples):
 *
 *   header, 16 bytes
 *     0  u32 magic      0x53504f76 ("vOPS")
 *     4  u16 version    1
 *     6  u16 op         enum ops_id
 *     8  u32 size       bytes of the whole descriptor
 *    12  u8  nin        input records that follow
 *    13  u8  nout       outputs of the operator (implied by the op in v1)
 *    14  u16 attr_size  bytes of the attribute block at the end
 *   one record per input, 8 + 8 * rank bytes (layout 0) or 16 + 16 * rank
 *     0  u16 dtype      aclDataType
 *     2  u8  rank       0 .. VOPS_MAX_RANK
 *     3  u8  layout     0: dense row-major; 1: a view (strides, offset)
 *     4  u32 size       bytes of this record: 8 + 8 * rank in layout 0,
 *                       16 + 16 * rank in layout 1
 *     8  i64 dims[rank]                         (layout 0)
 *     8  i64 offset, dims[rank], strides[rank]  (layout 1; in elements)
 *   the operator's attribute block (enum ops_attr_fmt), attr_size bytes
 *     none    0 bytes
 *     Cast    u32 dst (aclDataType), u32 0
 *     axes    u32 flags (bit 0 keep_dims), u32 0, u64 mask[(rank0 + 63) / 64]
 *             (bit i of word i / 64: axis i of input 0; no bit at or above
 *             its rank)
 *     MatMul  u32 flags (bit 0 transpose_x1, bit 1 transpose_x2), u32 0
 *     params  u32 ni, u32 nf, i64 i[ni], f64 f[nf] (the operator's
 *             parameters; its rules check their values)
 *
 * Room to grow without breaking a reader: a record's layout byte and its
 * own size field (strided or offset tensors, broadcasts: a new layout with
 * more fields after the dims), an op id space of 65535 and an attribute
 * block per op, nout for operators whose output types are not implied, and
 * the version for anything else. A reader refuses what it does not know:
 * another magic or version, an unknown op, layout, flag or reserved bit, a
 * length that disagrees with the bytes it has, or bytes left over.
 */
#include <stdio.h>
#include <string.h>

#include "ops_int.h"

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Words of an axes mask over a tensor of rank @rank. */
static uint32_t axes_words(int rank)
{
	return (uint32_t)(rank + 63) / 64;
}

/* Bytes of @c's attribute block. */
static uint32_t attr_size(const struct ops_call *c)
{
	switch (c->def->attr_fmt) {
	case OPS_AF_CAST:
	case OPS_AF_MATMUL:
		return 8;
	case OPS_AF_AXES:
		return 8 + 8 * axes_words(c->in[0].ndim);
	case OPS_AF_PARAMS:
		return 8 + 8 * (c->at.pr.ni + c->at.pr.nf);
	default:
		return 0;
	}
}

bool ops_desc_encode(const struct ops_call *c, struct vops_plan *p)
{
	unsigned char *d = p->desc;
	uint32_t size = OPS_DESC_HDR, at, asz = attr_size(c), w;
	int i, j;

	for (i = 0; i < c->nin; i++)
		size += ops_is_dense(&c->in[i]) ? OPS_DESC_REC(c->in[i].ndim) :
						  OPS_DESC_REC_VIEW(c->in[i].ndim);
	size += asz;
	if (size > VOPS_MAX_DESC)
		return false;

	put32(d, OPS_DESC_MAGIC);
	put16(d + 4, OPS_DESC_VERSION);
	put16(d + 6, c->def->id);
	put32(d + 8, size);
	d[12] = (unsigned char)c->nin;
	d[13] = (unsigned char)c->nout;
	put16(d + 14, (uint16_t)asz);
	at = OPS_DESC_HDR;
	for (i = 0; i < c->nin; i++) {
		const struct vops_tensor *t = &c->in[i];
		bool view = !ops_is_dense(t);
		int64_t st[VOPS_MAX_RANK];

		put16(d + at, (uint16_t)t->dtype);
		d[at + 2] = (unsigned char)t->ndim;
		d[at + 3] = view;
		put32(d + at + 4, view ? OPS_DESC_REC_VIEW(t->ndim) : OPS_DESC_REC(t->ndim));
		at += 8;
		if (view) {
			put64(d + at, (uint64_t)t->offset);
			at += 8;
		}
		for (j = 0; j < t->ndim; j++, at += 8)
			put64(d + at, (uint64_t)t->dims[j]);
		if (view) {
			ops_strides(t, st);
			for (j = 0; j < t->ndim; j++, at += 8)
				put64(d + at, (uint64_t)st[j]);
		}
	}
	switch (c->def->attr_fmt) {
	case OPS_AF_CAST:
		put32(d + at, (uint32_t)c->at.dst);
		put32(d + at + 4, 0);
		break;
	case OPS_AF_MATMUL:
		put32(d + at, c->at.mm_flags);
		put32(d + at + 4, 0);
		break;
	case OPS_AF_AXES:
		put32(d + at, c->at.axes.flags);
		put32(d + at + 4, 0);
		for (w = 0; w < axes_words(c->in[0].ndim); w++)
			put64(d + at + 8 + 8 * w, c->at.axes.mask[w]);
		break;
	case OPS_AF_PARAMS:
		put32(d + at, c->at.pr.ni);
		put32(d + at + 4, c->at.pr.nf);
		for (w = 0; w < c->at.pr.ni; w++)
			put64(d + at + 8 + 8 * w, (uint64_t)c->at.pr.i[w]);
		for (w = 0; w < c->at.pr.nf; w++) {
			uint64_t bits;

			memcpy(&bits, &c->at.pr.f[w], sizeof(bits));
			put64(d + at + 8 + 8 * (c->at.pr.ni + w), bits);
		}
		break;
	default:
		break;
	}
	p->desc_size = size;
	return true;
}

#define FAIL(...)						\
	do {							\
		if (why_size)					\
			snprintf(why, why_size, __VA_ARGS__);	\
		return false;					\
	} while (0)

/* The attribute block of @c at @a (@n bytes, checked to be attr_size()). */
static bool decode_attrs(struct ops_call *c, const unsigned char *a, char *why, size_t why_size)
{
	uint32_t w, words, bits;

	switch (c->def->attr_fmt) {
	case OPS_AF_PARAMS:
		for (w = 0; w < c->at.pr.ni; w++)
			c->at.pr.i[w] = (int64_t)get64(a + 8 + 8 * w);
		for (w = 0; w < c->at.pr.nf; w++) {
			uint64_t b = get64(a + 8 + 8 * (c->at.pr.ni + w));

			memcpy(&c->at.pr.f[w], &b, sizeof(b));
		}
		return true;
	case OPS_AF_CAST:
		c->at.dst = (int32_t)get32(a);
		if (get32(a + 4))
			FAIL("descriptor: %s attribute reserved word is not 0", c->def->name);
		return true;
	case OPS_AF_MATMUL:
		c->at.mm_flags = get32(a);
		if (c->at.mm_flags & ~(OPS_MM_TRANS_X1 | OPS_MM_TRANS_X2) || get32(a + 4))
			FAIL("descriptor: %s attribute flags 0x%x or reserved word unknown", c->def->name,
			     c->at.mm_flags);
		return true;
	case OPS_AF_AXES:
		c->at.axes.flags = get32(a);
		if (c->at.axes.flags & ~(c->def->kind == OPS_K_SOFTMAX ? 0u : OPS_AXES_KEEP_DIMS) ||
		    get32(a + 4))
			FAIL("descriptor: %s attribute flags 0x%x or reserved word unknown", c->def->name,
			     c->at.axes.flags);
		words = axes_words(c->in[0].ndim);
		for (w = 0; w < OPS_AXES_WORDS; w++)
			c->at.axes.mask[w] = w < words ? get64(a + 8 + 8 * w) : 0;
		bits = (uint32_t)c->in[0].ndim % 64;
		if (words && bits && c->at.axes.mask[words - 1] >> bits)
			FAIL("descriptor: %s names an axis beyond rank %d", c->def->name, c->in[0].ndim);
		return true;
	default:
		return true;
	}
}

bool ops_desc_decode(const void *desc, size_t size, struct ops_decoded *d, char *why, size_t why_size)
{
	const unsigned char *p = desc;
	const struct ops_def *def;
	uint32_t hsize, at, asz, ndims = 0;
	unsigned int nin, nout, version, i, j;

	if (!desc || size < OPS_DESC_HDR)
		FAIL("descriptor: %zu bytes, shorter than its %u-byte header", desc ? size : 0,
		     OPS_DESC_HDR);
	if (get32(p) != OPS_DESC_MAGIC)
		FAIL("descriptor: bad magic 0x%08x (not a lib/ops descriptor)", get32(p));
	version = get16(p + 4);
	if (version != OPS_DESC_VERSION)
		FAIL("descriptor: version %u, this engine reads version %u", version, OPS_DESC_VERSION);
	hsize = get32(p + 8);
	if (hsize != size)
		FAIL("descriptor: header says %u bytes, the task has %zu", hsize, size);
	if (size > VOPS_MAX_DESC)
		FAIL("descriptor: %zu bytes, more than the %u lib/ops makes", size, VOPS_MAX_DESC);
	def = ops_def_by_id(get16(p + 6));
	if (!def)
		FAIL("descriptor: unknown operator id %u", get16(p + 6));
	nin = p[12];
	nout = p[13];
	asz = get16(p + 14);
	if ((int)nin < def->nin || (int)nin > ops_nin_max(def) || (int)nout < def->nout ||
	    (int)nout > ops_nout_max(def))
		FAIL("descriptor: %s with %u inputs and %u outputs (it has %u and %u)", def->name, nin, nout,
		     def->nin, def->nout);

	at = OPS_DESC_HDR;
	for (i = 0; i < nin; i++) {
		struct vops_tensor *t = &d->in[i];
		unsigned int rank;

		if (size - at < 8)
			FAIL("descriptor: input %u's record is cut off at byte %u", i, at);
		unsigned int layout, rec;

		rank = p[at + 2];
		layout = p[at + 3];
		if (rank > VOPS_MAX_RANK)
			FAIL("descriptor: input %u has rank %u (at most %d)", i, rank, VOPS_MAX_RANK);
		if (layout > 1)
			FAIL("descriptor: input %u has layout %u (this engine reads layouts 0 and 1)", i,
			     layout);
		rec = layout ? OPS_DESC_REC_VIEW(rank) : OPS_DESC_REC(rank);
		if (get32(p + at + 4) != rec)
			FAIL("descriptor: input %u's record says %u bytes, rank %u takes %u", i,
			     get32(p + at + 4), rank, rec);
		if (size - at < rec)
			FAIL("descriptor: input %u's dimensions are cut off at byte %u", i, at);
		t->dtype = (int16_t)get16(p + at);
		t->ndim = (int32_t)rank;
		t->offset = 0;
		t->strides = NULL;
		at += 8;
		if (layout) {
			t->offset = (int64_t)get64(p + at);
			at += 8;
		}
		t->dims = &d->dims[ndims];
		for (j = 0; j < rank; j++, at += 8)
			d->dims[ndims++] = (int64_t)get64(p + at);
		if (layout) {
			t->strides = &d->dims[ndims];
			for (j = 0; j < rank; j++, at += 8)
				d->dims[ndims++] = (int64_t)get64(p + at);
		}
	}

	d->call.def = def;
	d->call.nin = (int)nin;
	d->call.nout = (int)nout;
	d->call.in = d->in;
	memset(&d->call.at, 0, sizeof(d->call.at));
	if (def->attr_fmt == OPS_AF_PARAMS) {
		if (size - at < 8)
			FAIL("descriptor: %s's parameter counts are cut off", def->name);
		d->call.at.pr.ni = get32(p + at);
		d->call.at.pr.nf = get32(p + at + 4);
		if (d->call.at.pr.ni > OPS_MAX_IPARAMS || d->call.at.pr.nf > OPS_MAX_FPARAMS)
			FAIL("descriptor: %s with %u int and %u float parameters (at most %u and %u)",
			     def->name, d->call.at.pr.ni, d->call.at.pr.nf, OPS_MAX_IPARAMS,
			     OPS_MAX_FPARAMS);
	}
	if (asz != attr_size(&d->call))
		FAIL("descriptor: %s's attribute block is %u bytes, not %u", def->name, asz,
		     attr_size(&d->call));
	if (size - at != asz)
		FAIL("descriptor: %zu bytes after the inputs, the attribute block is %u", size - at, asz);
	return decode_attrs(&d->call, p + at, why, why_size);
}
