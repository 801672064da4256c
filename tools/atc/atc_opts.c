// SPDX-License-Identifier: MIT
/*
 * atc_opts.c - ATC's command-line flags into struct atc_options (atc.h):
 * the flag forms, --input_shape with its -1 and ranges, the three gear
 * flags, --output_type, --input_format, and vnpu's --vnpu_const_input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "atc_int.h"

/* ATC's gear counts: more than one, at most 100 (its --dynamic_* checks). */
#define GEARS_MIN 2
#define GEARS_MAX 100
/* A dimension a flag may give: far above anything lib/ops plans. */
#define DIM_MAX (1ll << 40)

void atc_vsay(struct atc_msg *m, const char *fmt, va_list ap)
{
	int n;

	m->lines++;
	if (!m->buf || m->len + 1 >= m->size)
		return;
	if (m->len)
		m->buf[m->len++] = '\n';
	n = vsnprintf(m->buf + m->len, m->size - m->len, fmt, ap);
	if (n < 0)
		m->buf[m->len] = '\0';
	else
		m->len += (size_t)n < m->size - m->len ? (size_t)n : m->size - m->len - 1;
}

void atc_say(struct atc_msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	atc_vsay(m, fmt, ap);
	va_end(ap);
}

static const struct {
	const char *name;
	int32_t dtype;
} type_names[] = {
	{ "FP32", ACL_FLOAT },	 { "FP16", ACL_FLOAT16 }, { "BF16", ACL_BF16 },	  { "FP64", ACL_DOUBLE },
	{ "INT8", ACL_INT8 },	 { "UINT8", ACL_UINT8 },  { "INT16", ACL_INT16 }, { "UINT16", ACL_UINT16 },
	{ "INT32", ACL_INT32 },	 { "UINT32", ACL_UINT32 }, { "INT64", ACL_INT64 }, { "UINT64", ACL_UINT64 },
	{ "BOOL", ACL_BOOL },
};

int32_t atc_type_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (!strcmp(type_names[i].name, name))
			return type_names[i].dtype;
	return -1;
}

const char *atc_type_name(int32_t dtype)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_names[i].dtype == dtype)
			return type_names[i].name;
	return "?";
}

void atc_options_init(struct atc_options *o)
{
	memset(o, 0, sizeof(*o));
	o->framework = -1;
	o->input_format = -1;
	o->log = ATC_LOG_ERROR;
	o->dynamic = OM_DYNAMIC_NONE;
}

void atc_options_release(struct atc_options *o)
{
	size_t i;

	free(o->model);
	free(o->output);
	free(o->soc_version);
	for (i = 0; i < o->ninput_shapes; i++) {
		free(o->input_shapes[i].name);
		free(o->input_shapes[i].dims);
		free(o->input_shapes[i].range);
	}
	free(o->input_shapes);
	free(o->gears);
	for (i = 0; i < o->noutput_types; i++)
		free(o->output_types[i].node);
	free(o->output_types);
	for (i = 0; i < o->nconst_inputs; i++) {
		free(o->const_inputs[i].name);
		onnx_tensor_release(&o->const_inputs[i].value);
	}
	free(o->const_inputs);
	atc_options_init(o);
}

/* An integer filling all of [s, s + len): false when it is not one. */
static bool parse_int(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;
	long long x;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] != '-' && (buf[0] < '0' || buf[0] > '9'))
		return false;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

/* A copy of [s, s + len) as a string. */
static char *dup_n(const char *s, size_t len)
{
	char *p = malloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

/* One dimension of --input_shape: "3", "-1" or "lo~hi" (hi -1: no bound). */
static bool parse_dim(const char *s, size_t len, int64_t *dim, int64_t *lo, int64_t *hi)
{
	const char *t = memchr(s, '~', len);

	if (!t) {
		if (!parse_int(s, len, dim) || *dim < -1 || *dim > DIM_MAX)
			return false;
		*lo = *dim < 0 ? 1 : *dim;
		*hi = *dim;
		return true;
	}
	if (!parse_int(s, (size_t)(t - s), lo) || !parse_int(t + 1, len - (size_t)(t - s) - 1, hi))
		return false;
	if (*lo < 1 || *lo > DIM_MAX || *hi > DIM_MAX || (*hi != -1 && *hi < *lo))
		return false;
	/* "4~4" is no range at all. */
	*dim = *hi == *lo ? *lo : -1;
	return true;
}

/* Parse one "name:dims" entry of @len bytes into @in. */
static enum atc_err parse_shape_entry(const char *s, size_t len, struct atc_input_shape *in, struct atc_msg *m)
{
	const char *colon = NULL, *p, *end = s + len;
	int64_t dims[VOPS_MAX_RANK], range[2 * VOPS_MAX_RANK];
	int n = 0;

	/* The last ':' ends the name: tensor names may hold colons ("x:0"). */
	for (p = s; p < end; p++)
		if (*p == ':')
			colon = p;
	if (!colon || colon == s) {
		atc_say(m, "--input_shape: \"%.*s\" is not name:dims (\"x:1,3,224,224\")", (int)len, s);
		return ATC_ERR_USAGE;
	}
	for (p = colon + 1; p < end;) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t tl = c ? (size_t)(c - p) : (size_t)(end - p);

		if (n >= VOPS_MAX_RANK) {
			atc_say(m, "--input_shape: input %.*s has more than %d dimensions", (int)(colon - s), s,
				VOPS_MAX_RANK);
			return ATC_ERR_USAGE;
		}
		if (!parse_dim(p, tl, &dims[n], &range[2 * n], &range[2 * n + 1])) {
			atc_say(m,
				"--input_shape: input %.*s: dimension \"%.*s\" is not a size, -1 or a range "
				"lo~hi (1 <= lo <= hi, hi -1 for no bound)",
				(int)(colon - s), s, (int)tl, p);
			return ATC_ERR_USAGE;
		}
		n++;
		if (!c)
			break;
		p = c + 1;
		if (p == end) {
			atc_say(m, "--input_shape: input %.*s: a dimension is missing after the last ','",
				(int)(colon - s), s);
			return ATC_ERR_USAGE;
		}
	}
	in->name = dup_n(s, (size_t)(colon - s));
	in->ndim = n;
	in->dims = n ? malloc((size_t)n * sizeof(int64_t)) : NULL;
	in->range = n ? malloc((size_t)n * 2 * sizeof(int64_t)) : NULL;
	if (!in->name || (n && (!in->dims || !in->range))) {
		atc_say(m, "out of memory");
		return ATC_ERR_NOMEM;
	}
	if (n) {
		memcpy(in->dims, dims, (size_t)n * sizeof(int64_t));
		memcpy(in->range, range, (size_t)n * 2 * sizeof(int64_t));
	}
	return ATC_OK;
}

static enum atc_err input_shape(const char *s, struct atc_options *o, struct atc_msg *m)
{
	const char *p = s, *e;
	enum atc_err ret = ATC_OK;
	size_t i;

	while (*p && !ret) {
		struct atc_input_shape *grown;
		size_t len;

		e = strchr(p, ';');
		len = e ? (size_t)(e - p) : strlen(p);
		/* Empty entries (a trailing ';') say nothing. */
		if (len) {
			grown = realloc(o->input_shapes, (o->ninput_shapes + 1) * sizeof(*grown));
			if (!grown) {
				atc_say(m, "out of memory");
				return ATC_ERR_NOMEM;
			}
			o->input_shapes = grown;
			memset(&grown[o->ninput_shapes], 0, sizeof(*grown));
			ret = parse_shape_entry(p, len, &grown[o->ninput_shapes], m);
			o->ninput_shapes++;
			for (i = 0; !ret && i + 1 < o->ninput_shapes; i++)
				if (!strcmp(o->input_shapes[i].name, grown[o->ninput_shapes - 1].name)) {
					atc_say(m, "--input_shape: input %s is given twice", grown[i].name);
					ret = ATC_ERR_USAGE;
				}
		}
		p += len + (e ? 1 : 0);
	}
	if (!ret && !o->ninput_shapes) {
		atc_say(m, "--input_shape: no input given");
		ret = ATC_ERR_USAGE;
	}
	return ret;
}

enum atc_err atc_parse_input_shape(const char *s, struct atc_options *o, char *msg, size_t msg_size)
{
	struct atc_msg m;

	atc_msg_init(&m, msg, msg_size);
	return input_shape(s, o, &m);
}

static const char *gear_flag(enum om_dynamic d)
{
	return d == OM_DYNAMIC_BATCH ? "--dynamic_batch_size"
	       : d == OM_DYNAMIC_HW  ? "--dynamic_image_size"
				     : "--dynamic_dims";
}

static enum atc_err gears(const char *s, enum om_dynamic dynamic, struct atc_options *o, struct atc_msg *m)
{
	const size_t max = GEARS_MAX * VOPS_MAX_RANK;
	const char *flag = gear_flag(dynamic);
	uint32_t rows = 0, len = 0, n = 0, k, r, q;
	const char *p = s;
	int64_t *vals;

	if (dynamic != OM_DYNAMIC_BATCH && dynamic != OM_DYNAMIC_HW && dynamic != OM_DYNAMIC_DIMS) {
		atc_say(m, "gears: dynamic kind %d is none of batch, image size, dims", (int)dynamic);
		return ATC_ERR_USAGE;
	}
	if (o->dynamic != OM_DYNAMIC_NONE) {
		atc_say(m, "%s: %s was given already; one gear flag at most", flag, gear_flag(o->dynamic));
		return ATC_ERR_USAGE;
	}
	vals = malloc(max * sizeof(*vals));
	if (!vals) {
		atc_say(m, "out of memory");
		return ATC_ERR_NOMEM;
	}
	/* Rows are ';'-separated; a batch list is one row of one-value gears. */
	while (*p) {
		const char *e = strchr(p, ';');
		const char *end = e ? e : p + strlen(p);
		uint32_t cnt = 0;

		while (p < end) {
			const char *c = memchr(p, ',', (size_t)(end - p));
			size_t tl = c ? (size_t)(c - p) : (size_t)(end - p);
			int64_t v;

			if (n >= max) {
				atc_say(m, "%s: more than %d gears", flag, GEARS_MAX);
				goto usage;
			}
			if (!parse_int(p, tl, &v) || v < 1 || v > DIM_MAX) {
				atc_say(m, "%s: \"%.*s\" is not a size (1 or more)", flag, (int)tl, p);
				goto usage;
			}
			vals[n++] = v;
			cnt++;
			p = c ? c + 1 : end;
			if (c && p == end) {
				atc_say(m, "%s: a value is missing after a ','", flag);
				goto usage;
			}
		}
		if (!cnt) {
			atc_say(m, "%s: an empty gear", flag);
			goto usage;
		}
		if (dynamic == OM_DYNAMIC_BATCH) {
			if (rows) {
				atc_say(m, "%s: the batch sizes are one list (\"1,2,4\"), not ';'-separated rows",
					flag);
				goto usage;
			}
			len = 1;
			rows = cnt;
		} else {
			if (dynamic == OM_DYNAMIC_HW && cnt != 2) {
				atc_say(m, "%s: gear %u has %u values; each is \"h,w\"", flag, rows + 1, cnt);
				goto usage;
			}
			if (rows && cnt != len) {
				atc_say(m, "%s: gear %u has %u values, gear 1 has %u", flag, rows + 1, cnt, len);
				goto usage;
			}
			len = cnt;
			rows++;
		}
		p = e ? e + 1 : end;
	}
	if (rows < GEARS_MIN || rows > GEARS_MAX) {
		atc_say(m, "%s: %u gears; give %d to %d", flag, rows, GEARS_MIN, GEARS_MAX);
		goto usage;
	}
	for (r = 0; r < rows; r++)
		for (q = 0; q < r; q++) {
			for (k = 0; k < len && vals[r * len + k] == vals[q * len + k]; k++)
				;
			if (k == len) {
				atc_say(m, "%s: gear %u repeats gear %u", flag, r + 1, q + 1);
				goto usage;
			}
		}
	o->gears = vals;
	o->ngears = rows;
	o->gear_len = len;
	o->dynamic = dynamic;
	return ATC_OK;
usage:
	free(vals);
	return ATC_ERR_USAGE;
}

enum atc_err atc_parse_gears(const char *s, enum om_dynamic dynamic, struct atc_options *o, char *msg,
			     size_t msg_size)
{
	struct atc_msg m;

	atc_msg_init(&m, msg, msg_size);
	return gears(s, dynamic, o, &m);
}

static enum atc_err add_output_type(struct atc_options *o, const char *node, size_t node_len, int32_t index,
				    int32_t dtype, struct atc_msg *m)
{
	struct atc_output_type *grown = realloc(o->output_types, (o->noutput_types + 1) * sizeof(*grown));

	if (!grown) {
		atc_say(m, "out of memory");
		return ATC_ERR_NOMEM;
	}
	o->output_types = grown;
	grown[o->noutput_types] = (struct atc_output_type){ .index = index, .dtype = dtype };
	if (node) {
		grown[o->noutput_types].node = dup_n(node, node_len);
		if (!grown[o->noutput_types].node) {
			atc_say(m, "out of memory");
			return ATC_ERR_NOMEM;
		}
	}
	o->noutput_types++;
	return ATC_OK;
}

static enum atc_err output_type(const char *s, struct atc_options *o, struct atc_msg *m)
{
	const char *p = s;
	enum atc_err ret = ATC_OK;

	if (!strchr(s, ':')) {
		int32_t dt = atc_type_from_name(s);

		if (dt < 0) {
			atc_say(m,
				"--output_type: \"%s\" is not a type (FP32, FP16, BF16, FP64, INT8, UINT8, "
				"INT16, UINT16, INT32, UINT32, INT64, UINT64, BOOL)",
				s);
			return ATC_ERR_USAGE;
		}
		return add_output_type(o, NULL, 0, -1, dt, m);
	}
	while (*p && !ret) {
		const char *e = strchr(p, ';'), *end = e ? e : p + strlen(p), *c1 = NULL, *c2 = NULL, *q;
		char tname[16];
		int64_t idx;
		int32_t dt;

		/* node:index:TYPE, split at the last two colons (names may hold more). */
		for (q = p; q < end; q++)
			if (*q == ':') {
				c1 = c2;
				c2 = q;
			}
		if (end == p) {
			p = e ? e + 1 : end;
			continue;
		}
		if (!c1 || c1 == p || !parse_int(c1 + 1, (size_t)(c2 - c1 - 1), &idx) || idx < 0 ||
		    idx > INT32_MAX || (size_t)(end - c2 - 1) >= sizeof(tname)) {
			atc_say(m, "--output_type: \"%.*s\" is not node:index:TYPE (\"conv1:0:FP16\")",
				(int)(end - p), p);
			return ATC_ERR_USAGE;
		}
		memcpy(tname, c2 + 1, (size_t)(end - c2 - 1));
		tname[end - c2 - 1] = '\0';
		dt = atc_type_from_name(tname);
		if (dt < 0) {
			atc_say(m, "--output_type: \"%s\" is not a type (FP32, FP16, INT8, ...)", tname);
			return ATC_ERR_USAGE;
		}
		ret = add_output_type(o, p, (size_t)(c1 - p), (int32_t)idx, dt, m);
		p = e ? e + 1 : end;
	}
	if (!ret && !o->noutput_types) {
		atc_say(m, "--output_type: no output given");
		ret = ATC_ERR_USAGE;
	}
	return ret;
}

enum atc_err atc_parse_output_type(const char *s, struct atc_options *o, char *msg, size_t msg_size)
{
	struct atc_msg m;

	atc_msg_init(&m, msg, msg_size);
	return output_type(s, o, &m);
}

static enum atc_err input_format(const char *s, int32_t *format, struct atc_msg *m)
{
	static const struct {
		const char *name;
		int32_t format;
	} formats[] = {
		{ "NCHW", ACL_FORMAT_NCHW }, { "NHWC", ACL_FORMAT_NHWC },   { "ND", ACL_FORMAT_ND },
		{ "NCDHW", ACL_FORMAT_NCDHW }, { "NDHWC", ACL_FORMAT_NDHWC },
	};
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].name, s)) {
			*format = formats[i].format;
			return ATC_OK;
		}
	atc_say(m, "--input_format: \"%s\" is not NCHW, NHWC, ND, NCDHW or NDHWC", s);
	return ATC_ERR_USAGE;
}

enum atc_err atc_parse_input_format(const char *s, int32_t *format, char *msg, size_t msg_size)
{
	struct atc_msg m;

	atc_msg_init(&m, msg, msg_size);
	return input_format(s, format, &m);
}

/* --vnpu_const_input=NAME:FILE.pb: the file is read now. */
static enum atc_err const_input(const char *s, struct atc_options *o, struct atc_msg *m)
{
	const char *colon = strrchr(s, ':');
	struct atc_const_input *grown, *c;
	struct onnx_error err;
	size_t i;

	if (!colon || colon == s || !colon[1]) {
		atc_say(m, "--vnpu_const_input: \"%s\" is not NAME:FILE.pb", s);
		return ATC_ERR_USAGE;
	}
	for (i = 0; i < o->nconst_inputs; i++)
		if (strlen(o->const_inputs[i].name) == (size_t)(colon - s) &&
		    !strncmp(o->const_inputs[i].name, s, (size_t)(colon - s))) {
			atc_say(m, "--vnpu_const_input: input %s is given twice", o->const_inputs[i].name);
			return ATC_ERR_USAGE;
		}
	grown = realloc(o->const_inputs, (o->nconst_inputs + 1) * sizeof(*grown));
	if (!grown) {
		atc_say(m, "out of memory");
		return ATC_ERR_NOMEM;
	}
	o->const_inputs = grown;
	c = &grown[o->nconst_inputs];
	memset(c, 0, sizeof(*c));
	c->name = dup_n(s, (size_t)(colon - s));
	if (!c->name) {
		atc_say(m, "out of memory");
		return ATC_ERR_NOMEM;
	}
	o->nconst_inputs++;
	if (onnx_tensor_load(colon + 1, &c->value, &err)) {
		atc_say(m, "--vnpu_const_input: %s", err.msg);
		return err.code == ONNX_ERR_IO ? ATC_ERR_IO : err.code == ONNX_ERR_NOMEM ? ATC_ERR_NOMEM
											  : ATC_ERR_INVALID;
	}
	return ATC_OK;
}

enum flag_id {
	F_MODEL,
	F_FRAMEWORK,
	F_OUTPUT,
	F_INPUT_SHAPE,
	F_BATCH,
	F_IMAGE,
	F_DIMS,
	F_INPUT_FORMAT,
	F_OUTPUT_TYPE,
	F_SOC,
	F_LOG,
	F_HELP,
	F_CONST,
	F_COUNT,
};

static const struct {
	const char *name;
	bool value;			/* takes a value */
	bool repeat;			/* may be given more than once */
} flags[F_COUNT] = {
	[F_MODEL] = { "model", true, false },
	[F_FRAMEWORK] = { "framework", true, false },
	[F_OUTPUT] = { "output", true, false },
	[F_INPUT_SHAPE] = { "input_shape", true, false },
	[F_BATCH] = { "dynamic_batch_size", true, false },
	[F_IMAGE] = { "dynamic_image_size", true, false },
	[F_DIMS] = { "dynamic_dims", true, false },
	[F_INPUT_FORMAT] = { "input_format", true, false },
	[F_OUTPUT_TYPE] = { "output_type", true, false },
	[F_SOC] = { "soc_version", true, false },
	[F_LOG] = { "log", true, false },
	[F_HELP] = { "help", false, false },
	[F_CONST] = { "vnpu_const_input", true, true },
};

static enum atc_err set_string(char **field, const char *v, struct atc_msg *m)
{
	*field = strdup(v);
	if (!*field) {
		atc_say(m, "out of memory");
		return ATC_ERR_NOMEM;
	}
	return ATC_OK;
}

static enum atc_err apply(enum flag_id f, const char *v, struct atc_options *o, struct atc_msg *m)
{
	static const char *const logs[] = { "null", "error", "warning", "info", "debug" };
	int64_t fw;
	size_t i;

	switch (f) {
	case F_MODEL:
		return set_string(&o->model, v, m);
	case F_OUTPUT:
		return set_string(&o->output, v, m);
	case F_SOC:
		return set_string(&o->soc_version, v, m);
	case F_FRAMEWORK:
		if (!parse_int(v, strlen(v), &fw)) {
			atc_say(m, "--framework: \"%s\" is not a number (5: ONNX)", v);
			return ATC_ERR_USAGE;
		}
		switch (fw) {
		case ATC_FRAMEWORK_ONNX:
			o->framework = (int32_t)fw;
			return ATC_OK;
		case ATC_FRAMEWORK_CAFFE:
			atc_say(m, "--framework=0: Caffe models are not supported; vnpu-atc converts ONNX (5)");
			return ATC_ERR_USAGE;
		case ATC_FRAMEWORK_MINDSPORE:
			atc_say(m, "--framework=1: MindSpore models are not supported; vnpu-atc converts ONNX (5)");
			return ATC_ERR_USAGE;
		case ATC_FRAMEWORK_TENSORFLOW:
			atc_say(m, "--framework=3: TensorFlow models are not supported; vnpu-atc converts ONNX (5)");
			return ATC_ERR_USAGE;
		default:
			atc_say(m, "--framework=%s: not a framework (0 Caffe, 1 MindSpore, 3 TensorFlow, 5 ONNX)", v);
			return ATC_ERR_USAGE;
		}
	case F_INPUT_SHAPE:
		return input_shape(v, o, m);
	case F_BATCH:
		return gears(v, OM_DYNAMIC_BATCH, o, m);
	case F_IMAGE:
		return gears(v, OM_DYNAMIC_HW, o, m);
	case F_DIMS:
		return gears(v, OM_DYNAMIC_DIMS, o, m);
	case F_INPUT_FORMAT:
		return input_format(v, &o->input_format, m);
	case F_OUTPUT_TYPE:
		return output_type(v, o, m);
	case F_LOG:
		for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
			if (!strcmp(logs[i], v)) {
				o->log = (enum atc_log)i;
				return ATC_OK;
			}
		atc_say(m, "--log: \"%s\" is not error, warning, info, debug or null", v);
		return ATC_ERR_USAGE;
	case F_HELP:
		o->help = true;
		return ATC_OK;
	case F_CONST:
		return const_input(v, o, m);
	default:
		return ATC_ERR_USAGE;
	}
}

/* Worse errors win: out of memory over I/O over invalid data over usage. */
static enum atc_err worse(enum atc_err a, enum atc_err b)
{
	static const int rank[] = {
		[ATC_OK] = 0, [ATC_ERR_USAGE] = 1, [ATC_ERR_UNSUPPORTED] = 2,
		[ATC_ERR_INVALID] = 3, [ATC_ERR_IO] = 4, [ATC_ERR_NOMEM] = 5,
	};

	return rank[b] > rank[a] ? b : a;
}

enum atc_err atc_options_parse(int argc, char *const argv[], struct atc_options *o, char *msg,
			       size_t msg_size)
{
	bool seen[F_COUNT] = { false };
	enum atc_err ret = ATC_OK;
	struct atc_msg m;
	int a;

	atc_msg_init(&m, msg, msg_size);
	atc_options_init(o);
	for (a = 1; a < argc; a++) {
		const char *arg = argv[a], *name, *eq, *v = NULL;
		size_t nlen;
		int f;

		if (!strcmp(arg, "-h")) {
			o->help = true;
			continue;
		}
		if (strncmp(arg, "--", 2) || !arg[2]) {
			atc_say(&m, "\"%s\" is not a flag (flags are --name=value)", arg);
			ret = worse(ret, ATC_ERR_USAGE);
			continue;
		}
		name = arg + 2;
		eq = strchr(name, '=');
		nlen = eq ? (size_t)(eq - name) : strlen(name);
		for (f = 0; f < F_COUNT; f++)
			if (strlen(flags[f].name) == nlen && !strncmp(flags[f].name, name, nlen))
				break;
		if (f == F_COUNT) {
			atc_say(&m, "unknown flag --%.*s", (int)nlen, name);
			ret = worse(ret, ATC_ERR_USAGE);
			continue;
		}
		if (flags[f].value) {
			if (eq)
				v = eq + 1;
			else if (a + 1 < argc)
				v = argv[++a];
			if (!v || !*v) {
				atc_say(&m, "--%s needs a value", flags[f].name);
				ret = worse(ret, ATC_ERR_USAGE);
				continue;
			}
		} else if (eq) {
			atc_say(&m, "--%s takes no value", flags[f].name);
			ret = worse(ret, ATC_ERR_USAGE);
			continue;
		}
		if (seen[f] && !flags[f].repeat) {
			atc_say(&m, "--%s is given more than once", flags[f].name);
			ret = worse(ret, ATC_ERR_USAGE);
			continue;
		}
		seen[f] = true;
		ret = worse(ret, apply((enum flag_id)f, v, o, &m));
	}
	if (ret) {
		enum atc_log log = o->log;

		atc_options_release(o);
		/* Kept: the caller decides by it how loud its failure is. */
		o->log = log;
	}
	return ret;
}

enum atc_err atc_options_check(const struct atc_options *o, char *msg, size_t msg_size)
{
	enum atc_err ret = ATC_OK;
	struct atc_msg m;

	atc_msg_init(&m, msg, msg_size);
	if (!o->model) {
		atc_say(&m, "--model is required (the ONNX file)");
		ret = ATC_ERR_USAGE;
	}
	if (o->framework < 0) {
		atc_say(&m, "--framework is required (5: ONNX)");
		ret = ATC_ERR_USAGE;
	}
	if (!o->output) {
		atc_say(&m, "--output is required (the .om file, \".om\" added)");
		ret = ATC_ERR_USAGE;
	}
	return ret;
}

char *atc_output_path(const char *output)
{
	size_t n;
	char *p;

	if (!output)
		return NULL;
	n = strlen(output);
	if (n >= 3 && !strcmp(output + n - 3, ".om"))
		return strdup(output);
	p = malloc(n + 4);
	if (p) {
		memcpy(p, output, n);
		memcpy(p + n, ".om", 4);
	}
	return p;
}
