// SPDX-License-Identifier: MIT
/*
 * om_file.c - the .om container: CANN's 256-byte ModelFileHeader, the
 * partition table and the partitions (docs/om.md), read as GE's loader
 * reads them (ModelParserBase::ParseModelContent, OmFileLoadHelper) and
 * written as its saver writes a single-model file, with the ModelDef
 * conversion of om_modeldef.c in between.
 *
 * Every field is read and written byte by byte in little-endian order, the
 * order GE's raw struct copies give on the hosts CANN runs on.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "om_int.h"

/* ModelFileHeader field offsets (docs/om.md; 256 bytes in all). */
#define HDR_MAGIC 0
#define HDR_HEADSIZE 4
#define HDR_VERSION 8
#define HDR_LENGTH 76
#define HDR_IS_ENCRYPT 80
#define HDR_MODELTYPE 82
#define HDR_NAME 84
#define HDR_NAME_LEN 32
#define HDR_MODEL_NUM 156
#define HDR_PLATFORM_VERSION 160
#define HDR_PLATFORM_VERSION_LEN 20
#define HDR_MODEL_LENGTH 184
#define HDR_IS_UNKNOW_MODEL 193

/* ModelPartitionTable: u32 num, u32 pad, then num entries of 24 bytes. */
#define TABLE_HEAD 8u
#define TABLE_ENTRY 24u
/* The older TinyModelPartitionTable: u32 num, then entries of 12 bytes. */
#define TINY_HEAD 4u
#define TINY_ENTRY 12u
/* GE's CheckPartitionTableNum accepts 1 .. 8 partitions for one model. */
#define MAX_PARTITIONS 8u
/* ModelHeaderType MODEL_TYPE_IR_MODEL, what ATC and vnpu-atc write. */
#define MODELTYPE_IR 0u

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* A string into a NUL-padded field of @size bytes, cut to size - 1. */
static void put_str(uint8_t *p, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);

	memcpy(p, s, n);
}

static const char *part_name(uint32_t type)
{
	static const char *const names[] = {
		"MODEL_DEF", "WEIGHTS_DATA", "TASK_INFO", "TBE_KERNELS", "CUST_AICPU_KERNELS",
		"SO_BINS", "FLOW_MODEL", "FLOW_SUBMODEL", "MODEL_INOUT_INFO", "STATIC_TASK_DESC",
		"DYNAMIC_TASK_DESC", "TASK_PARAM", "TILING_DATA",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "an unknown type";
}

/* ---- writing ---------------------------------------------------------------- */

enum om_err om_write(const struct om_model *m, void **buf, size_t *len, struct om_error *err)
{
	uint8_t *md, *out, *p;
	size_t mdlen, nparts, table, total;
	uint64_t model_length;
	enum om_err e;

	if (!buf || !len)
		return om_fail(err, OM_ERR_INVALID, "om_write: no buffer to write to");
	*buf = NULL;
	*len = 0;
	if ((e = om_model_check(m, err)) || (e = om_modeldef_pack(m, &md, &mdlen, err)))
		return e;
	/* GE writes no empty partition: no weights, no WEIGHTS_DATA. */
	nparts = m->weights_size ? 2 : 1;
	table = TABLE_HEAD + TABLE_ENTRY * nparts;
	if (__builtin_add_overflow((uint64_t)table + mdlen, m->weights_size, &model_length) ||
	    model_length > SIZE_MAX - OM_HEADER_SIZE) {
		free(md);
		return om_fail(err, OM_ERR_NOMEM, "a model of %" PRIu64 " bytes of weights does not "
			       "fit in memory", m->weights_size);
	}
	total = OM_HEADER_SIZE + (size_t)model_length;
	out = calloc(1, total);
	if (!out) {
		free(md);
		return om_fail(err, OM_ERR_NOMEM, "out of memory for a .om of %zu bytes", total);
	}

	put32(out + HDR_MAGIC, OM_MAGIC);
	put32(out + HDR_HEADSIZE, OM_HEADER_SIZE);
	put32(out + HDR_VERSION, OM_VERSION);
	/* length (76) stays 0: GE reads model_length when it is set. */
	put_str(out + HDR_NAME, HDR_NAME_LEN, m->name);
	put32(out + HDR_MODEL_NUM, 1);
	put_str(out + HDR_PLATFORM_VERSION, HDR_PLATFORM_VERSION_LEN, m->soc_version);
	put64(out + HDR_MODEL_LENGTH, model_length);
	out[HDR_IS_UNKNOW_MODEL] = m->dynamic_shape ? 1 : 0;

	/* The table; mem_offset counts from the end of the table, as GE's saver. */
	p = out + OM_HEADER_SIZE;
	put32(p, (uint32_t)nparts);
	p += TABLE_HEAD;
	put32(p, OM_PART_MODEL_DEF);
	put64(p + 8, 0);
	put64(p + 16, mdlen);
	if (m->weights_size) {
		p += TABLE_ENTRY;
		put32(p, OM_PART_WEIGHTS_DATA);
		put64(p + 8, mdlen);
		put64(p + 16, m->weights_size);
	}
	p = out + OM_HEADER_SIZE + table;
	memcpy(p, md, mdlen);
	if (m->weights_size)
		memcpy(p + mdlen, m->weights, (size_t)m->weights_size);
	free(md);
	*buf = out;
	*len = total;
	return OM_OK;
}

enum om_err om_write_file(const struct om_model *m, const char *path, struct om_error *err)
{
	void *buf;
	size_t len, done = 0;
	enum om_err e;
	int fd;

	if ((e = om_write(m, &buf, &len, err)))
		return e;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		e = om_fail(err, OM_ERR_IO, "%s: %s", path, strerror(errno));
		free(buf);
		return e;
	}
	while (done < len) {
		ssize_t n = write(fd, (const uint8_t *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = om_fail(err, OM_ERR_IO, "%s: writing %zu bytes: %s", path, len,
				    n < 0 ? strerror(errno) : "nothing written");
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !e)
		e = om_fail(err, OM_ERR_IO, "%s: %s", path, strerror(errno));
	free(buf);
	/* No half-written model left behind for a loader to trip on. */
	if (e)
		unlink(path);
	return e;
}

/* ---- reading ---------------------------------------------------------------- */

#define BAD(...) om_fail(err, OM_ERR_FORMAT, __VA_ARGS__)

enum om_err om_load_file(const char *path, void **buf, size_t *len, struct om_error *err)
{
	struct stat st;
	uint8_t *data;
	size_t done = 0, size;
	int fd;

	om_clear(err);
	if (!buf || !len)
		return om_fail(err, OM_ERR_INVALID, "om_load_file: nowhere to put the file");
	*buf = NULL;
	*len = 0;
	fd = open(path ? path : "", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return om_fail(err, OM_ERR_IO, "%s: %s", path ? path : "(null)", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > SIZE_MAX) {
		enum om_err e = om_fail(err, OM_ERR_IO, "%s: %s", path,
					S_ISREG(st.st_mode) ? strerror(errno) : "not a regular file");

		close(fd);
		return e;
	}
	size = (size_t)st.st_size;
	data = malloc(size ? size : 1);
	if (!data) {
		close(fd);
		return om_fail(err, OM_ERR_NOMEM, "%s: out of memory for %zu bytes", path, size);
	}
	while (done < size) {
		ssize_t n = read(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			enum om_err e = om_fail(err, OM_ERR_IO, "%s: read %zu of %zu bytes: %s", path,
						done, size, n < 0 ? strerror(errno) : "file shrank");

			free(data);
			close(fd);
			return e;
		}
		done += (size_t)n;
	}
	close(fd);
	*buf = data;
	*len = size;
	return OM_OK;
}

/* The header's model name, printable, for messages. */
static void header_name(const uint8_t *h, char out[HDR_NAME_LEN])
{
	size_t i;

	for (i = 0; i < HDR_NAME_LEN - 1 && h[HDR_NAME + i]; i++) {
		uint8_t c = h[HDR_NAME + i];

		out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[i] = '\0';
}

struct part {
	const uint8_t *data;
	uint64_t size;
};

/*
 * The header and partition table of the @len bytes at @b: MODEL_DEF into
 * @md, WEIGHTS_DATA (empty when absent) into @w.
 */
static enum om_err read_container(const uint8_t *b, size_t len, struct part *md,
				  struct part *w, struct om_error *err)
{
	uint64_t model_len, thead, tentry, tsize, off = 0, rest;
	uint32_t magic, num;
	char name[HDR_NAME_LEN];
	bool wide, have_md = false, have_w = false;
	const uint8_t *t;

	if (len < OM_HEADER_SIZE)
		return BAD("%zu bytes, fewer than the %u of a ModelFileHeader", len, OM_HEADER_SIZE);
	magic = get32(b + HDR_MAGIC);
	if (magic != OM_MAGIC)
		return BAD("magic 0x%08" PRIX32 ", not 0x%08X: not a .om file", magic, OM_MAGIC);
	if (get32(b + HDR_HEADSIZE) != OM_HEADER_SIZE)
		return BAD("header size %" PRIu32 ", not %u", get32(b + HDR_HEADSIZE), OM_HEADER_SIZE);
	/* GE: model_length, or the older 32-bit length when it is 0. */
	model_len = get64(b + HDR_MODEL_LENGTH);
	wide = model_len != 0;
	if (!wide)
		model_len = get32(b + HDR_LENGTH);
	if (model_len != len - OM_HEADER_SIZE)
		return BAD("the header says %" PRIu64 " bytes follow it, the file has %zu", model_len,
			   len - OM_HEADER_SIZE);
	header_name(b, name);
	if (b[HDR_IS_ENCRYPT])
		return om_fail(err, OM_ERR_FOREIGN, "'%s' is an encrypted offline model; vnpu runs "
			       "models converted from ONNX by vnpu-atc", name);
	if (b[HDR_MODELTYPE] != MODELTYPE_IR)
		return om_fail(err, OM_ERR_FOREIGN, "'%s' is an offline model of type %u (not an IR "
			       "model); vnpu runs models converted from ONNX by vnpu-atc", name,
			       b[HDR_MODELTYPE]);
	if (get32(b + HDR_MODEL_NUM) > 1)
		return om_fail(err, OM_ERR_FOREIGN, "'%s' holds %" PRIu32 " models (ATC's dynamic "
			       "gears); vnpu runs models converted from ONNX by vnpu-atc", name,
			       get32(b + HDR_MODEL_NUM));
	if (b[HDR_IS_UNKNOW_MODEL] > 1)
		return BAD("is_unknow_model is %u, not 0 or 1", b[HDR_IS_UNKNOW_MODEL]);

	thead = wide ? TABLE_HEAD : TINY_HEAD;
	tentry = wide ? TABLE_ENTRY : TINY_ENTRY;
	t = b + OM_HEADER_SIZE;
	if (model_len < thead)
		return BAD("%" PRIu64 " bytes after the header, fewer than a partition table's "
			   "%" PRIu64, model_len, thead);
	num = get32(t);
	if (num < 1 || num > MAX_PARTITIONS)
		return BAD("the partition table says %" PRIu32 " partitions (1 .. %u)", num,
			   MAX_PARTITIONS);
	tsize = thead + tentry * num;
	if (model_len < tsize)
		return BAD("a partition table of %" PRIu32 " entries needs %" PRIu64 " bytes, %" PRIu64
			   " follow the header", num, tsize, model_len);
	rest = model_len - tsize;
	/* GE's loader takes the partitions back to back in table order, by size. */
	for (uint32_t i = 0; i < num; i++) {
		const uint8_t *e = t + thead + tentry * i;
		uint64_t size = wide ? get64(e + 16) : get32(e + 8);

		if (size > rest - off)
			return BAD("partition %" PRIu32 " (%s) of %" PRIu64 " bytes at %" PRIu64 " ends "
				   "past the %" PRIu64 " bytes after the table", i,
				   part_name(get32(e)), size, off, rest);
		off += size;
	}
	if (off != rest)
		return BAD("the partitions hold %" PRIu64 " bytes, %" PRIu64 " follow the table", off,
			   rest);
	off = 0;
	for (uint32_t i = 0; i < num; i++) {
		const uint8_t *e = t + thead + tentry * i;
		uint32_t type = get32(e);
		struct part p = { t + tsize + off, wide ? get64(e + 16) : get32(e + 8) };

		off += p.size;
		if (type == OM_PART_TASK_INFO || type == OM_PART_TBE_KERNELS)
			return om_fail(err, OM_ERR_FOREIGN, "'%s' is an offline model for Ascend "
				       "hardware (ATC output with task info / kernels: a %s partition); "
				       "vnpu runs models converted from ONNX by vnpu-atc", name,
				       part_name(type));
		if (type != OM_PART_MODEL_DEF && type != OM_PART_WEIGHTS_DATA)
			return om_fail(err, OM_ERR_FOREIGN, "'%s' has a partition of type %" PRIu32
				       " (%s), which vnpu-atc does not write: an offline model for "
				       "Ascend hardware; vnpu runs models converted from ONNX by "
				       "vnpu-atc", name, type, part_name(type));
		if ((type == OM_PART_MODEL_DEF && have_md) || (type == OM_PART_WEIGHTS_DATA && have_w))
			return BAD("two %s partitions", part_name(type));
		if (type == OM_PART_MODEL_DEF) {
			*md = p;
			have_md = true;
		} else {
			*w = p;
			have_w = true;
		}
	}
	if (!have_md)
		return BAD("no MODEL_DEF partition among the %" PRIu32, num);
	if (!have_w)
		*w = (struct part){ NULL, 0 };
	return OM_OK;
}

enum om_err om_read(const void *buf, size_t len, struct om_model **out, struct om_error *err)
{
	struct part md = { NULL, 0 }, w = { NULL, 0 };
	struct om_model *m;
	enum om_err e;

	om_clear(err);
	if (!out)
		return om_fail(err, OM_ERR_INVALID, "om_read: nowhere to put the model");
	*out = NULL;
	if (!buf && len)
		return om_fail(err, OM_ERR_INVALID, "om_read: no buffer");
	if ((e = read_container(buf, len, &md, &w, err)))
		return e;
	m = calloc(1, sizeof(*m));
	if (!m)
		return om_fail(err, OM_ERR_NOMEM, "out of memory for a model");
	m->dynamic_shape = ((const uint8_t *)buf)[HDR_IS_UNKNOW_MODEL] == 1;
	if (w.size) {
		if (!(m->weights = malloc((size_t)w.size))) {
			om_model_free(m);
			return om_fail(err, OM_ERR_NOMEM, "out of memory for %" PRIu64 " bytes of "
				       "weights", w.size);
		}
		memcpy(m->weights, w.data, (size_t)w.size);
		m->weights_size = w.size;
	}
	if ((e = om_modeldef_unpack(md.data, (size_t)md.size, w.size, m, err)) ||
	    (e = om_model_check(m, err))) {
		om_model_free(m);
		return e;
	}
	*out = m;
	return OM_OK;
}
