// SPDX-License-Identifier: MIT
/*
 * onnx_dump - print ONNX models and backend-test data through lib/onnx.
 *
 *   onnx_dump [-q] [-n N] PATH...
 *
 * PATH is a backend test directory (model.onnx and test_data_set_*), a
 * model (.onnx) or a tensor (.pb). A test directory's model is printed
 * (opsets, inputs, outputs, initializers, nodes and their attributes),
 * then each data set's tensors with type, shape and first N values (8),
 * checked against the graph input or output they feed: input_K.pb is the
 * K-th graph input no initializer provides, output_K.pb the K-th output.
 * A .pb that belongs to a sequence or optional input is not read (lib/onnx
 * reads tensors only).
 *
 * -q prints only what fails and the summary: how many models and tensors
 * load, and why the others do not. Exit status 1 when anything failed
 * other than as ONNX_ERR_UNSUPPORTED.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vnpu_onnx.h"

#define MAX_REASONS 64

struct dump {
	bool quiet;
	int nvalues;
	unsigned int tests, models_ok, models_bad, tensors_ok, tensors_bad, mismatches;
	unsigned int hard;		/* failures other than unsupported */
	struct {
		char what[160];
		unsigned int n;
		char first[96];
	} reasons[MAX_REASONS];
	int nreasons;
};

/* Count a failure under a reason: the message past the last "path: "
 * part, which names the file. */
static void tally(struct dump *d, const char *test, const char *why)
{
	int i;

	for (i = 0; i < d->nreasons; i++)
		if (!strcmp(d->reasons[i].what, why))
			break;
	if (i == d->nreasons) {
		if (d->nreasons == MAX_REASONS)
			return;
		d->nreasons++;
		snprintf(d->reasons[i].what, sizeof(d->reasons[i].what), "%s", why);
		snprintf(d->reasons[i].first, sizeof(d->reasons[i].first), "%s", test);
	}
	d->reasons[i].n++;
}

/* The reason of a lib/onnx message: its last part. */
static const char *reason(const char *msg)
{
	const char *r = strrchr(msg, ':');

	return r && r[1] == ' ' ? r + 2 : msg;
}

static float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	uint32_t bits;
	float f;

	if (exp == 0x1f) {
		bits = sign | 0x7f800000u | (man << 13);
	} else if (exp) {
		bits = sign | ((exp + 112) << 23) | (man << 13);
	} else if (man) {
		/* subnormal: normalise */
		exp = 113;
		while (!(man & 0x400)) {
			man <<= 1;
			exp--;
		}
		bits = sign | (exp << 23) | ((man & 0x3ff) << 13);
	} else {
		bits = sign;
	}
	memcpy(&f, &bits, sizeof(f));
	return f;
}

static void print_value(const struct onnx_tensor *t, uint64_t i)
{
	const uint8_t *p = (const uint8_t *)t->data + i * onnx_dtype_size(t->dtype);
	union {
		float f;
		double d;
		int64_t i64;
		uint64_t u64;
		int32_t i32;
		uint32_t u32;
		int16_t i16;
		uint16_t u16;
	} v;
	uint32_t bits;

	memcpy(&v, p, onnx_dtype_size(t->dtype) < sizeof(v) ? onnx_dtype_size(t->dtype) :
	       sizeof(v));
	switch (t->dtype) {
	case ONNX_FLOAT: printf("%g", v.f); break;
	case ONNX_COMPLEX64: printf("%g%+gi", v.f, ((const float *)p)[1]); break;
	case ONNX_DOUBLE: printf("%g", v.d); break;
	case ONNX_COMPLEX128: printf("%g%+gi", v.d, ((const double *)p)[1]); break;
	case ONNX_FLOAT16: printf("%g", half_to_float(v.u16)); break;
	case ONNX_BFLOAT16:
		bits = (uint32_t)v.u16 << 16;
		memcpy(&v.f, &bits, sizeof(float));
		printf("%g", v.f);
		break;
	case ONNX_INT8: printf("%d", (int8_t)p[0]); break;
	case ONNX_UINT8: printf("%u", p[0]); break;
	case ONNX_BOOL: printf("%s", p[0] ? "true" : "false"); break;
	case ONNX_INT16: printf("%d", v.i16); break;
	case ONNX_UINT16: printf("%u", v.u16); break;
	case ONNX_INT32: printf("%" PRId32, v.i32); break;
	case ONNX_UINT32: printf("%" PRIu32, v.u32); break;
	case ONNX_INT64: printf("%" PRId64, v.i64); break;
	case ONNX_UINT64: printf("%" PRIu64, v.u64); break;
	default: printf("?"); break;
	}
}

static void print_dims(int32_t ndim, const int64_t *dims)
{
	printf("[");
	for (int32_t i = 0; i < ndim; i++)
		printf("%s%" PRId64, i ? ", " : "", dims[i]);
	printf("]");
}

static void print_tensor(const struct dump *d, const char *indent, const struct onnx_tensor *t)
{
	uint64_t n = t->count < (uint64_t)d->nvalues ? t->count : (uint64_t)d->nvalues;

	printf("%s\"%s\" %s ", indent, t->name, onnx_dtype_name(t->dtype));
	print_dims(t->ndim, t->dims);
	printf(" =");
	for (uint64_t i = 0; i < n; i++) {
		printf(i ? ", " : " ");
		print_value(t, i);
	}
	printf("%s\n", n < t->count ? ", ..." : "");
}

static const char *kind_name(enum onnx_value_kind k)
{
	static const char *const names[] = {
		[ONNX_VALUE_NONE] = "untyped", [ONNX_VALUE_TENSOR] = "tensor",
		[ONNX_VALUE_SEQUENCE] = "sequence", [ONNX_VALUE_MAP] = "map",
		[ONNX_VALUE_OPTIONAL] = "optional", [ONNX_VALUE_SPARSE_TENSOR] = "sparse tensor",
	};

	return k <= ONNX_VALUE_SPARSE_TENSOR ? names[k] : "?";
}

static void print_type(const struct onnx_value_info *v)
{
	if (v->kind == ONNX_VALUE_TENSOR || v->kind == ONNX_VALUE_SPARSE_TENSOR) {
		printf("%s%s", v->kind == ONNX_VALUE_SPARSE_TENSOR ? "sparse " : "",
		       onnx_dtype_name(v->dtype));
		if (!v->has_shape) {
			printf(" [?]");
			return;
		}
		printf(" [");
		for (int32_t i = 0; i < v->ndim; i++) {
			printf("%s", i ? ", " : "");
			if (v->dims[i].value >= 0)
				printf("%" PRId64, v->dims[i].value);
			else
				printf("%s", *v->dims[i].param ? v->dims[i].param : "?");
		}
		printf("]");
		return;
	}
	printf("%s", kind_name(v->kind));
	if (v->elem) {
		printf(" of ");
		print_type(v->elem);
	}
}

static void print_value_infos(const char *what, const struct onnx_value_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		printf("  %s %zu \"%s\": ", what, i, v[i].name);
		print_type(&v[i]);
		printf("\n");
	}
}

static const char *const attr_types[] = {
	[ONNX_ATTR_UNDEFINED] = "UNDEFINED", [ONNX_ATTR_FLOAT] = "FLOAT", [ONNX_ATTR_INT] = "INT",
	[ONNX_ATTR_STRING] = "STRING", [ONNX_ATTR_TENSOR] = "TENSOR", [ONNX_ATTR_GRAPH] = "GRAPH",
	[ONNX_ATTR_FLOATS] = "FLOATS", [ONNX_ATTR_INTS] = "INTS", [ONNX_ATTR_STRINGS] = "STRINGS",
	[ONNX_ATTR_TENSORS] = "TENSORS", [ONNX_ATTR_GRAPHS] = "GRAPHS",
	[ONNX_ATTR_SPARSE_TENSOR] = "SPARSE_TENSOR", [ONNX_ATTR_SPARSE_TENSORS] = "SPARSE_TENSORS",
	[ONNX_ATTR_TYPE_PROTO] = "TYPE_PROTO", [ONNX_ATTR_TYPE_PROTOS] = "TYPE_PROTOS",
};

static void print_graph(const struct dump *d, const struct onnx_graph *g, int depth);

static void print_attr(const struct dump *d, const struct onnx_attr *a, int depth)
{
	const char *type = (unsigned int)a->type <= ONNX_ATTR_TYPE_PROTOS ? attr_types[a->type] : "?";

	printf("%*s    %s (%s):", depth * 4, "", a->name, type);
	switch (a->type) {
	case ONNX_ATTR_FLOAT: printf(" %g\n", a->f); return;
	case ONNX_ATTR_INT: printf(" %" PRId64 "\n", a->i); return;
	case ONNX_ATTR_STRING: printf(" \"%s\"\n", a->s); return;
	case ONNX_ATTR_FLOATS:
		for (size_t i = 0; i < a->n; i++)
			printf("%s%g", i ? ", " : " ", a->floats[i]);
		printf("\n");
		return;
	case ONNX_ATTR_INTS:
		for (size_t i = 0; i < a->n; i++)
			printf("%s%" PRId64, i ? ", " : " ", a->ints[i]);
		printf("\n");
		return;
	case ONNX_ATTR_STRINGS:
		for (size_t i = 0; i < a->n; i++)
			printf("%s\"%s\"", i ? ", " : " ", a->strings[i]);
		printf("\n");
		return;
	case ONNX_ATTR_TENSOR:
		print_tensor(d, " ", a->t);
		return;
	case ONNX_ATTR_TENSORS:
		printf("\n");
		for (size_t i = 0; i < a->n; i++)
			print_tensor(d, "        ", &a->tensors[i]);
		return;
	case ONNX_ATTR_GRAPH:
		printf("\n");
		print_graph(d, a->g, depth + 1);
		return;
	case ONNX_ATTR_GRAPHS:
		printf("\n");
		for (size_t i = 0; i < a->n; i++)
			print_graph(d, &a->graphs[i], depth + 1);
		return;
	default:
		printf(" (%zu, not read)\n", a->n);
		return;
	}
}

static void print_graph(const struct dump *d, const struct onnx_graph *g, int depth)
{
	printf("%*s  graph \"%s\": %zu inputs, %zu outputs, %zu initializers, %zu nodes\n",
	       depth * 4, "", g->name, g->ninputs, g->noutputs, g->ninits, g->nnodes);
	if (!depth) {
		print_value_infos("input", g->inputs, g->ninputs);
		print_value_infos("output", g->outputs, g->noutputs);
	}
	for (size_t i = 0; i < g->ninits; i++)
		print_tensor(d, "  init ", &g->inits[i]);
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct onnx_node *n = &g->nodes[i];

		printf("%*s  node %zu: %s%s%s \"%s\" (", depth * 4, "", i, n->domain,
		       *n->domain ? "." : "", n->op_type, n->name);
		for (size_t j = 0; j < n->ninputs; j++)
			printf("%s%s", j ? ", " : "", *n->inputs[j] ? n->inputs[j] : "<none>");
		printf(") -> (");
		for (size_t j = 0; j < n->noutputs; j++)
			printf("%s%s", j ? ", " : "", *n->outputs[j] ? n->outputs[j] : "<none>");
		printf(")\n");
		for (size_t j = 0; j < n->nattrs; j++)
			print_attr(d, &n->attrs[j], depth);
	}
}

static void print_model(const struct dump *d, const char *path, const struct onnx_model *m)
{
	printf("%s: IR %" PRId64 ", opset %" PRId64, path, m->ir_version, m->opset);
	for (size_t i = 0; i < m->nopsets; i++)
		if (*m->opsets[i].domain && strcmp(m->opsets[i].domain, "ai.onnx"))
			printf(", %s %" PRId64, m->opsets[i].domain, m->opsets[i].version);
	printf(", producer \"%s\"%s\n", m->producer_name, m->nfunctions ? ", has functions" : "");
	print_graph(d, &m->graph, 0);
}

/* A tensor against the graph input or output it belongs to: type and every
 * known dimension. */
static bool matches(const struct onnx_tensor *t, const struct onnx_value_info *v, char *why,
		    size_t n)
{
	if (v->dtype != t->dtype) {
		snprintf(why, n, "%s, the graph says %s", onnx_dtype_name(t->dtype),
			 onnx_dtype_name(v->dtype));
		return false;
	}
	if (!v->has_shape)
		return true;
	if (v->ndim != t->ndim) {
		snprintf(why, n, "rank %d, the graph says %d", (int)t->ndim, (int)v->ndim);
		return false;
	}
	for (int32_t i = 0; i < v->ndim; i++)
		if (v->dims[i].value >= 0 && v->dims[i].value != t->dims[i]) {
			snprintf(why, n, "dimension %d is %" PRId64 ", the graph says %" PRId64,
				 (int)i, t->dims[i], v->dims[i].value);
			return false;
		}
	return true;
}

/* One .pb: 0 read, 1 not there. */
static int dump_pb(struct dump *d, const char *test, const char *path,
		   const struct onnx_value_info *v)
{
	struct onnx_error err;
	struct onnx_tensor t;
	struct stat st;
	char why[160];
	enum onnx_err e;

	if (stat(path, &st))
		return 1;
	if (v && v->kind != ONNX_VALUE_TENSOR) {
		snprintf(why, sizeof(why), "%s value, not a tensor", kind_name(v->kind));
		printf("  %s: not read: %s\n", path, why);
		d->tensors_bad++;
		tally(d, test, why);
		return 0;
	}
	e = onnx_tensor_load(path, &t, &err);
	if (e) {
		printf("  %s\n", err.msg);
		d->tensors_bad++;
		if (e != ONNX_ERR_UNSUPPORTED)
			d->hard++;
		tally(d, test, reason(err.msg));
		return 0;
	}
	d->tensors_ok++;
	if (!v) {
		printf("  %s: no graph input or output for it\n", path);
		d->mismatches++;
	} else if (!matches(&t, v, why, sizeof(why))) {
		printf("  %s: %s\n", path, why);
		d->mismatches++;
		tally(d, test, "tensor does not match its graph input or output");
	}
	if (!d->quiet) {
		printf("  %s:", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		print_tensor(d, " ", &t);
	}
	onnx_tensor_release(&t);
	return 0;
}

/* A path in buf; false when it does not fit. */
static bool path_fmt(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r >= 0 && (size_t)r < n;
}

static int is_data_set(const struct dirent *e)
{
	return !strncmp(e->d_name, "test_data_set_", 14);
}

static void dump_test(struct dump *d, const char *path_arg)
{
	struct onnx_model *m;
	struct onnx_error err;
	struct dirent **sets;
	char path[4096], dir[4096];
	const char *test;
	size_t n;
	int nsets;

	if (!path_fmt(dir, sizeof(dir), "%s", path_arg))
		return;
	for (n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	test = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;

	d->tests++;
	if (!path_fmt(path, sizeof(path), "%s/model.onnx", dir))
		return;
	if (onnx_model_load(path, &m, &err)) {
		printf("FAIL %s\n", err.msg);
		d->models_bad++;
		if (err.code != ONNX_ERR_UNSUPPORTED)
			d->hard++;
		tally(d, test, reason(err.msg));
		return;
	}
	d->models_ok++;
	if (!d->quiet)
		print_model(d, path, m);
	nsets = scandir(dir, &sets, is_data_set, alphasort);
	for (int s = 0; s < nsets; s++) {
		const char *set = sets[s]->d_name;

		for (size_t k = 0;; k++) {
			if (!path_fmt(path, sizeof(path), "%s/%s/input_%zu.pb", dir, set, k) ||
			    dump_pb(d, test, path, onnx_graph_feed(&m->graph, k)))
				break;
		}
		for (size_t k = 0;; k++) {
			if (!path_fmt(path, sizeof(path), "%s/%s/output_%zu.pb", dir, set, k) ||
			    dump_pb(d, test, path,
				    k < m->graph.noutputs ? &m->graph.outputs[k] : NULL))
				break;
		}
		free(sets[s]);
	}
	if (nsets > 0)
		free(sets);
	onnx_model_free(m);
}

static void dump_path(struct dump *d, const char *path)
{
	size_t n = strlen(path);
	struct onnx_model *m;
	struct onnx_error err;
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		dump_test(d, path);
	} else if (n > 3 && !strcmp(path + n - 3, ".pb")) {
		dump_pb(d, path, path, NULL);
	} else if (onnx_model_load(path, &m, &err)) {
		printf("FAIL %s\n", err.msg);
		d->models_bad++;
		d->hard++;
	} else {
		d->models_ok++;
		print_model(d, path, m);
		onnx_model_free(m);
	}
}

int main(int argc, char **argv)
{
	static struct dump d = { .nvalues = 8 };
	int opt;

	while ((opt = getopt(argc, argv, "qn:")) != -1) {
		switch (opt) {
		case 'q':
			d.quiet = true;
			break;
		case 'n':
			d.nvalues = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-q] [-n values] test-dir|model.onnx|tensor.pb...\n",
				argv[0]);
			return 2;
		}
	}
	for (int i = optind; i < argc; i++)
		dump_path(&d, argv[i]);
	printf("%u tests: %u models loaded, %u not; %u tensors loaded, %u not, "
	       "%u loaded but not matching the graph\n", d.tests, d.models_ok, d.models_bad,
	       d.tensors_ok, d.tensors_bad, d.mismatches);
	for (int i = 0; i < d.nreasons; i++)
		printf("  %4u x %s (first: %s)\n", d.reasons[i].n, d.reasons[i].what,
		       d.reasons[i].first);
	return d.hard ? 1 : 0;
}
