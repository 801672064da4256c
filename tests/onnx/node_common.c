// SPDX-License-Identifier: MIT
/*
 * node_common.c - the expected list, test data, comparison and TAP report
 * of the node test drivers (node_common.h).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl_base.h"
#include "node_common.h"
#include "vnpu_ops.h"

#define RTOL 1e-3
#define ATOL 1e-7

void nt_say(struct nt_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* ---- the expected list ------------------------------------------------------- */

struct listed {
	char *name;
	bool pass;
	char *reason;
	bool seen;
};

/* The drivers are single-threaded programs: the list is theirs alone. */
static struct listed *list;
static size_t nlist;
static unsigned int tap, passed, failed, unsupported, listed_failed, new_pass;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

static struct listed *find_listed(const char *name);

int nt_list_load(const char *prog, const char *path)
{
	struct listed *l;
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *name, *verdict, *reason, *save;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		name = strtok_r(line, " \t", &save);
		verdict = strtok_r(NULL, " \t", &save);
		reason = save ? save + strspn(save, " \t") : NULL;
		if (!name || !verdict || (strcmp(verdict, "pass") && strcmp(verdict, "skip")) ||
		    (!strcmp(verdict, "skip") && (!reason || !*reason))) {
			fprintf(stderr, "%s: %s: bad line \"%s\" (want: TEST pass | TEST skip REASON)\n", prog,
				path, line);
			fclose(f);
			return -1;
		}
		/* A later list says what a driver expects instead of an earlier one. */
		l = find_listed(name);
		if (l) {
			free(l->reason);
		} else {
			list = xrealloc(list, (nlist + 1) * sizeof(*list));
			l = &list[nlist++];
			l->name = strdup(name);
			l->seen = false;
		}
		l->pass = !strcmp(verdict, "pass");
		l->reason = reason && *reason ? strdup(reason) : NULL;
	}
	fclose(f);
	return 0;
}

static struct listed *find_listed(const char *name)
{
	size_t i;

	for (i = 0; i < nlist; i++)
		if (!strcmp(list[i].name, name))
			return &list[i];
	return NULL;
}

void nt_list_free(void)
{
	size_t i;

	for (i = 0; i < nlist; i++) {
		free(list[i].name);
		free(list[i].reason);
	}
	free(list);
	list = NULL;
	nlist = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int nt_test_names(const char *prog, const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		fprintf(stderr, "%s: %s: %s (install libonnx-testdata)\n", prog, dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "test_", 5)) {
			*names = xrealloc(*names, (*n + 1) * sizeof(**names));
			(*names)[(*n)++] = strdup(de->d_name);
		}
	closedir(d);
	qsort(*names, *n, sizeof(**names), cmp_str);
	return 0;
}

/* ---- test data ------------------------------------------------------------------- */

int nt_load_pb(const char *set, const char *kind, size_t k, struct onnx_tensor *t, struct nt_result *r)
{
	char path[4096];
	struct onnx_error err;
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s_%zu.pb", set, kind, k);
	if (stat(path, &sb))
		return 1;
	if (onnx_tensor_load(path, t, &err)) {
		nt_say(r, "%s_%zu.pb: %s", kind, k, err.msg);
		return -1;
	}
	return 0;
}

/* The files store bfloat16 as uint16: @declared (the graph's type) says which. */
static void fix_bf16(struct onnx_tensor *t, int32_t declared)
{
	if (declared == ONNX_BFLOAT16 && t->dtype == ONNX_UINT16) {
		t->dtype = ONNX_BFLOAT16;
		t->acl_dtype = ACL_BF16;
	}
}

int nt_load_set(const struct onnx_graph *g, const char *set, struct onnx_tensor *feeds, size_t *nfeeds,
		struct onnx_tensor *want, size_t *nwant, struct nt_result *r)
{
	size_t i;
	int ret;

	*nfeeds = *nwant = 0;
	if (g->noutputs > NT_MAX_IO) {
		nt_say(r, "more than %d outputs", NT_MAX_IO);
		return -1;
	}
	for (i = 0; i < NT_MAX_IO; i++) {
		const struct onnx_value_info *f;

		memset(&feeds[i], 0, sizeof(feeds[i]));
		ret = nt_load_pb(set, "input", i, &feeds[i], r);
		if (ret < 0)
			goto fail;
		if (ret)
			break;
		f = onnx_graph_feed(g, i);
		if (f)
			fix_bf16(&feeds[i], f->dtype);
		(*nfeeds)++;
	}
	for (i = 0; i < g->noutputs; i++) {
		memset(&want[i], 0, sizeof(want[i]));
		ret = nt_load_pb(set, "output", i, &want[i], r);
		if (ret) {
			if (ret > 0)
				nt_say(r, "output_%zu.pb is missing", i);
			goto fail;
		}
		fix_bf16(&want[i], g->outputs[i].dtype);
		(*nwant)++;
	}
	return 0;
fail:
	for (i = 0; i < *nfeeds; i++)
		onnx_tensor_release(&feeds[i]);
	for (i = 0; i < *nwant; i++)
		onnx_tensor_release(&want[i]);
	*nfeeds = *nwant = 0;
	return -1;
}

enum nt_verdict nt_run_test(const char *dir, const char *name, char *(*summary)(const struct onnx_model *m),
			    enum nt_verdict (*run_set)(const struct onnx_model *m, const char *set,
						       struct nt_result *r),
			    struct nt_result *r, char **op)
{
	char path[4096];
	struct onnx_model *m = NULL;
	struct onnx_error err;
	enum nt_verdict v = NT_PASS;
	struct dirent *de;
	DIR *d;
	int sets = 0;

	*op = NULL;
	r->why[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/model.onnx", dir, name);
	if (onnx_model_load(path, &m, &err)) {
		nt_say(r, "model: %s", err.msg);
		return NT_FAIL;
	}
	*op = summary(m);
	if (!*op) {
		onnx_model_free(m);
		return NT_UNSUPPORTED;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	d = opendir(path);
	while (d && (de = readdir(d)) && v == NT_PASS) {
		char set[4096 + 256];

		if (strncmp(de->d_name, "test_data_set_", 14))
			continue;
		snprintf(set, sizeof(set), "%s/%s", path, de->d_name);
		v = run_set(m, set, r);
		sets++;
	}
	if (d)
		closedir(d);
	if (!sets && v == NT_PASS) {
		nt_say(r, "no test data");
		v = NT_FAIL;
	}
	onnx_model_free(m);
	return v;
}

/* ---- comparing ---------------------------------------------------------------- */

static bool is_float(int32_t dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

static double get_f(const void *p, int32_t dt, uint64_t i)
{
	switch (dt) {
	case ACL_FLOAT: return ((const float *)p)[i];
	case ACL_DOUBLE: return ((const double *)p)[i];
	case ACL_FLOAT16: return vops_f16_to_f32(((const uint16_t *)p)[i]);
	case ACL_BF16: return vops_bf16_to_f32(((const uint16_t *)p)[i]);
	default: return 0;
	}
}

bool nt_compare(const struct onnx_tensor *want, int32_t dt, const void *got, int k, struct nt_result *r)
{
	size_t es = vops_dtype_size(dt);
	uint64_t i;

	if (!is_float(dt)) {
		for (i = 0; i < want->count; i++)
			if (memcmp((const char *)got + i * es, (const char *)want->data + i * es, es)) {
				nt_say(r, "output %d element %" PRIu64 " differs (exact type %s)", k, i,
				       vops_dtype_name(dt));
				return false;
			}
		return true;
	}
	for (i = 0; i < want->count; i++) {
		double g = get_f(got, dt, i), w = get_f(want->data, dt, i);

		if (isnan(w) ? isnan(g) : (isinf(w) ? g == w : fabs(g - w) <= ATOL + RTOL * fabs(w)))
			continue;
		nt_say(r, "output %d element %" PRIu64 ": %.9g, want %.9g", k, i, g, w);
		return false;
	}
	return true;
}

/* ---- the report ------------------------------------------------------------------ */

void nt_report(const char *name, const char *op, enum nt_verdict v, const struct nt_result *r, bool verbose)
{
	struct listed *l = find_listed(name);

	if (l)
		l->seen = true;
	if (!op) {
		if (v == NT_FAIL)
			printf("# %s: %s\n", name, r->why);
		unsupported++;
		return;
	}
	tap++;
	if (v == NT_PASS) {
		passed++;
		printf("ok %u - %s (%s)\n", tap, name, op);
		if (!l || !l->pass) {
			new_pass++;
			printf("# %s passes but is not listed as pass\n", name);
		}
	} else if (l && l->pass) {
		failed++;
		listed_failed++;
		printf("not ok %u - %s (%s): %s\n", tap, name, op, r->why);
	} else {
		if (v == NT_FAIL)
			failed++;
		else
			unsupported++;
		if (l)
			printf("ok %u - %s (%s) # SKIP %s%s%s\n", tap, name, op, l->reason, verbose ? " -- " : "",
			       verbose ? r->why : "");
		else
			printf("ok %u - %s (%s) # SKIP not listed, %s: %s\n", tap, name, op,
			       v == NT_FAIL ? "fails" : "unsupported", r->why);
	}
}

int nt_summary(const char *what, size_t ntests, bool all)
{
	size_t i;

	for (i = 0; i < nlist; i++)
		if (!list[i].seen && all)
			printf("# %s is listed but is not a node test here\n", list[i].name);
	printf("1..%u\n", tap);
	printf("# node tests%s: %u passed, %u failed, %u unsupported (%zu tests; %u listed as pass "
	       "failed, %u passed unlisted)\n", what, passed, failed, unsupported, ntests, listed_failed,
	       new_pass);
	return listed_failed ? 1 : 0;
}
