// SPDX-License-Identifier: GPL-2.0
/*
 * bench_model: what one inference of an offline model costs through
 * aclmdlExecuteAsync, against the same CANN operators launched one by one
 * with aclopExecuteV2 on the same shapes and buffers (a benchmark, not a
 * test: it never fails on a time figure, but a wrong result is fatal).
 *
 * The models are tests/onnx/models.h's MLP (MatMul, Add, Relu, MatMul,
 * Add) and CNN (Conv2D, Relu, MaxPoolV3, Flatten, GEMM), converted here at
 * start-up with build/tools/vnpu-atc from the ONNX files of build/models into static
 * models of batch 1 and 16 (--input_shape="x:1,64" ...), in a temporary
 * directory. Figures:
 *
 *  - model_{mlp,cnn}_b{1,16}: ns per inference, a burst of executes on one
 *    stream, the stream synchronised once at the end of the burst;
 *  - ops_{mlp,cnn}_b{1,16}: the same for the model's operators launched one
 *    by one (intermediates in buffers of their own, workspace from the
 *    runtime's pool, as the model's memory is here: no allocator);
 *  - model_ioctls_{mlp,cnn}, model_submits_{mlp,cnn}, ops_ioctls_{mlp,cnn}
 *    (counts, batch 16): DRM ioctls and SUBMITs per warm inference, counted
 *    by interposing ioctl() as bench_allocator does; the model should be
 *    one SUBMIT and nothing else, the operators one each;
 *  - model_peak_bytes_{mlp,cnn}, model_sum_bytes_{mlp,cnn} (counts, batch
 *    16): with a counting allocator registered for a second stream, the
 *    most bytes of intermediates and workspaces held at once during one
 *    execution, and the bytes of all of them: memory by liveness keeps the
 *    first well below the second.
 *
 * tests/bench/ratios.conf relates them.
 * usage: bench_model [-q]; -q or VNPU_BENCH_MODE=smoke: few iterations.
 */
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "acl/acl_rt_allocator.h"
#include "bench_acl.h"
#include "bench.h"
#include "models.h"
#include "vnpu_drm.h"

extern char **environ;

static bool quick;

static unsigned int scaled(unsigned int full, unsigned int smoke)
{
	return quick ? smoke : full;
}




/* ---- an allocator that measures ----------------------------------------------------- */

/*
 * Blocks of power-of-two sizes from one arena, reused per size; it counts
 * the bytes asked for: held now, the most held at once, all of them.
 */
#define ARENA_BYTES (8u << 20)
#define MIN_CLASS 8
#define CLASSES 16

struct mblock {
	struct mblock *next;
	void *addr;
	size_t size;
	unsigned int cls;
};

struct measuring {
	char *arena;
	size_t used;
	struct mblock *free_list[CLASSES];
	uint64_t held, peak, total;
	unsigned long allocs, frees;
};

static void *m_alloc(aclrtAllocator obj, size_t size)
{
	struct measuring *m = obj;
	unsigned int c = MIN_CLASS;
	struct mblock *b;

	while (c < MIN_CLASS + CLASSES - 1 && ((size_t)1 << c) < size)
		c++;
	if (((size_t)1 << c) < size)
		return NULL;
	b = m->free_list[c - MIN_CLASS];
	if (b) {
		m->free_list[c - MIN_CLASS] = b->next;
	} else {
		if (m->used + ((size_t)1 << c) > ARENA_BYTES)
			return NULL;
		b = malloc(sizeof(*b));
		if (!b)
			return NULL;
		b->addr = m->arena + m->used;
		b->cls = c;
		m->used += (size_t)1 << c;
	}
	b->size = size;
	m->allocs++;
	m->held += size;
	m->total += size;
	if (m->held > m->peak)
		m->peak = m->held;
	return b;
}

static void m_free(aclrtAllocator obj, aclrtAllocatorBlock block)
{
	struct measuring *m = obj;
	struct mblock *b = block;

	m->frees++;
	m->held -= b->size;
	b->next = m->free_list[b->cls - MIN_CLASS];
	m->free_list[b->cls - MIN_CLASS] = b;
}

static void *m_get_addr(aclrtAllocatorBlock block)
{
	return ((struct mblock *)block)->addr;
}

/* ---- tensors on the device ------------------------------------------------------------ */

struct tensor {
	int ndim;
	int64_t dims[4];
	size_t bytes;
	void *dev;
	aclTensorDesc *desc;
	aclDataBuffer *buf;
};

/* A FLOAT tensor of @ndim @dims on the device, holding @data if not NULL. */
static void tensor_init(struct tensor *t, int ndim, const int64_t *dims, const float *data)
{
	size_t count = 1;
	int k;

	memset(t, 0, sizeof(*t));
	t->ndim = ndim;
	for (k = 0; k < ndim; k++) {
		t->dims[k] = dims[k];
		count *= (size_t)dims[k];
	}
	t->bytes = count * sizeof(float);
	CHECK(aclrtMalloc(&t->dev, t->bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
	if (data)
		CHECK(aclrtMemcpy(t->dev, t->bytes, data, t->bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	t->desc = aclCreateTensorDesc(ACL_FLOAT, ndim, ndim ? t->dims : NULL, ACL_FORMAT_ND);
	t->buf = aclCreateDataBuffer(t->dev, t->bytes);
	if (!t->desc || !t->buf)
		bench_fail("creating a tensor", ENOMEM);
}

static void tensor_fini(struct tensor *t)
{
	aclDestroyTensorDesc(t->desc);
	CHECK(aclDestroyDataBuffer(t->buf));
	CHECK(aclrtFree(t->dev));
}

/* One operator call: CANN type, inputs, one output, attributes. */
struct op {
	const char *type;
	int nin;
	struct tensor *in[5], *out;
	aclopAttr *attr;
};

static void op_launch(const struct op *op, aclrtStream s)
{
	aclTensorDesc *in_desc[5], *out_desc[1] = { op->out->desc };
	aclDataBuffer *in[5], *out[1] = { op->out->buf };
	int k;

	for (k = 0; k < op->nin; k++) {
		in_desc[k] = op->in[k]->desc;
		in[k] = op->in[k]->buf;
	}
	CHECK(aclopExecuteV2(op->type, op->nin, in_desc, in, 1, out_desc, out, op->attr, s));
}

/* ---- one benchmarked network ------------------------------------------------------------- */

#define MAX_TENSORS 16
#define MAX_OPS 5

/*
 * A network at one batch: its model (static, converted for the batch) and
 * the same computation as operator calls; x and y are shared by both.
 */
struct net {
	const char *name;
	int64_t batch;
	uint32_t model;
	aclmdlDataset *in, *out;
	struct tensor t[MAX_TENSORS];
	int nt;
	struct op ops[MAX_OPS];
	int nops;
	aclopAttr *attrs[MAX_OPS];
	int nattrs;
	struct tensor *x, *y;
	float *host_x;
	size_t x_count, y_count;
	double *want;
};

static struct tensor *net_tensor(struct net *n, int ndim, const int64_t *dims, const float *data)
{
	if (n->nt == MAX_TENSORS)
		bench_fail("too many tensors", 0);
	tensor_init(&n->t[n->nt], ndim, dims, data);
	return &n->t[n->nt++];
}

static aclopAttr *net_attr(struct net *n)
{
	aclopAttr *a = aclopCreateAttr();

	if (!a || n->nattrs == MAX_OPS)
		bench_fail("aclopCreateAttr", ENOMEM);
	n->attrs[n->nattrs++] = a;
	return a;
}

static struct op *net_op(struct net *n, const char *type, int nin, struct tensor **in, struct tensor *out,
			 aclopAttr *attr)
{
	struct op *op = &n->ops[n->nops++];
	int k;

	op->type = type;
	op->nin = nin;
	for (k = 0; k < nin; k++)
		op->in[k] = in[k];
	op->out = out;
	op->attr = attr;
	return op;
}

/* The MLP's calls, as lib/onnx/map makes them (MatMul, Add, Relu). */
static void build_mlp(struct net *n, const struct mdl_mlp *w)
{
	const int64_t b = n->batch;
	const int64_t xd[] = { b, MDL_MLP_IN }, hd[] = { b, MDL_MLP_HID }, yd[] = { b, MDL_MLP_OUT };
	const int64_t w1d[] = { MDL_MLP_IN, MDL_MLP_HID }, b1d[] = { MDL_MLP_HID };
	const int64_t w2d[] = { MDL_MLP_HID, MDL_MLP_OUT }, b2d[] = { MDL_MLP_OUT };
	struct tensor *w1, *b1, *w2, *b2, *h1, *h2, *h3, *h4;
	aclopAttr *mm = net_attr(n);

	CHECK(aclopSetAttrBool(mm, "transpose_x1", 0));
	CHECK(aclopSetAttrBool(mm, "transpose_x2", 0));
	n->x = net_tensor(n, 2, xd, n->host_x);
	n->y = net_tensor(n, 2, yd, NULL);
	w1 = net_tensor(n, 2, w1d, w->w1);
	b1 = net_tensor(n, 1, b1d, w->b1);
	w2 = net_tensor(n, 2, w2d, w->w2);
	b2 = net_tensor(n, 1, b2d, w->b2);
	h1 = net_tensor(n, 2, hd, NULL);
	h2 = net_tensor(n, 2, hd, NULL);
	h3 = net_tensor(n, 2, hd, NULL);
	h4 = net_tensor(n, 2, yd, NULL);
	net_op(n, "MatMul", 2, (struct tensor *[]){ n->x, w1 }, h1, mm);
	net_op(n, "Add", 2, (struct tensor *[]){ h1, b1 }, h2, NULL);
	net_op(n, "Relu", 1, (struct tensor *[]){ h2 }, h3, NULL);
	net_op(n, "MatMul", 2, (struct tensor *[]){ h3, w2 }, h4, mm);
	net_op(n, "Add", 2, (struct tensor *[]){ h4, b2 }, n->y, NULL);
}

/* The CNN's calls, as lib/onnx/map makes them (Conv2D, Relu, MaxPoolV3, Flatten, GEMM). */
static void build_cnn(struct net *n, const struct mdl_cnn *w)
{
	const int64_t b = n->batch, P = MDL_CNN_POOLED;
	const int64_t xd[] = { b, 1, MDL_CNN_HW, MDL_CNN_HW }, cd[] = { b, MDL_CNN_C, MDL_CNN_HW, MDL_CNN_HW };
	const int64_t pd[] = { b, MDL_CNN_C, P, P }, fd[] = { b, MDL_CNN_FLAT }, yd[] = { b, MDL_CNN_OUT };
	const int64_t cwd[] = { MDL_CNN_C, 1, MDL_K, MDL_K }, cbd[] = { MDL_CNN_C };
	const int64_t fwd[] = { MDL_CNN_FLAT, MDL_CNN_OUT }, fbd[] = { MDL_CNN_OUT };
	const int64_t ones[] = { 1, 1, 1, 1 }, pads1[] = { 1, 1, 1, 1 }, pads0[] = { 0, 0, 0, 0 };
	const int64_t pool[] = { 1, 1, 2, 2 };
	const float one = 1.0f;
	struct tensor *cw, *cb, *fw, *fb, *c1, *r1, *p1, *f1, *alpha, *beta;
	aclopAttr *conv = net_attr(n), *mp = net_attr(n), *flat = net_attr(n), *gemm = net_attr(n);

	CHECK(aclopSetAttrListInt(conv, "strides", 4, ones));
	CHECK(aclopSetAttrListInt(conv, "pads", 4, pads1));
	CHECK(aclopSetAttrListInt(conv, "dilations", 4, ones));
	CHECK(aclopSetAttrInt(conv, "groups", 1));
	CHECK(aclopSetAttrString(conv, "data_format", "NCHW"));
	CHECK(aclopSetAttrListInt(mp, "ksize", 4, pool));
	CHECK(aclopSetAttrListInt(mp, "strides", 4, pool));
	CHECK(aclopSetAttrListInt(mp, "pads", 4, pads0));
	CHECK(aclopSetAttrString(mp, "data_format", "NCHW"));
	CHECK(aclopSetAttrBool(mp, "ceil_mode", 0));
	CHECK(aclopSetAttrString(mp, "padding_mode", "CALCULATED"));
	CHECK(aclopSetAttrInt(flat, "axis", 1));
	CHECK(aclopSetAttrBool(gemm, "transpose_a", 0));
	CHECK(aclopSetAttrBool(gemm, "transpose_b", 0));
	n->x = net_tensor(n, 4, xd, n->host_x);
	n->y = net_tensor(n, 2, yd, NULL);
	cw = net_tensor(n, 4, cwd, w->cw);
	cb = net_tensor(n, 1, cbd, w->cb);
	fw = net_tensor(n, 2, fwd, w->fw);
	fb = net_tensor(n, 1, fbd, w->fb);
	alpha = net_tensor(n, 0, NULL, &one);
	beta = net_tensor(n, 0, NULL, &one);
	c1 = net_tensor(n, 4, cd, NULL);
	r1 = net_tensor(n, 4, cd, NULL);
	p1 = net_tensor(n, 4, pd, NULL);
	f1 = net_tensor(n, 2, fd, NULL);
	net_op(n, "Conv2D", 3, (struct tensor *[]){ n->x, cw, cb }, c1, conv);
	net_op(n, "Relu", 1, (struct tensor *[]){ c1 }, r1, NULL);
	net_op(n, "MaxPoolV3", 1, (struct tensor *[]){ r1 }, p1, mp);
	net_op(n, "Flatten", 1, (struct tensor *[]){ p1 }, f1, flat);
	net_op(n, "GEMM", 5, (struct tensor *[]){ f1, fw, fb, alpha, beta }, n->y, gemm);
}

/* Where the build is: this program is $(B)/bench/bench_model. */
static void build_dir(char *dir, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", dir, size - 1);
	int up;

	if (len <= 0)
		bench_fail("readlink /proc/self/exe", errno);
	dir[len] = '\0';
	for (up = 0; up < 2; up++) {
		char *slash = strrchr(dir, '/');

		if (!slash)
			bench_fail("finding the build directory", 0);
		*slash = '\0';
	}
}

/* vnpu-atc @onnx into @om (without ".om") for input shape @shape; fatal on failure. */
static void convert(const char *build, const char *onnx, const char *om, const char *shape)
{
	char atc[PATH_MAX + 32], model[PATH_MAX + 64], output[PATH_MAX + 64], input_shape[128];
	char *argv[] = { atc, model, "--framework=5", output, input_shape, "--soc_version=Ascend310P3",
			 "--log=error", NULL };
	pid_t pid;
	int status, err;

	snprintf(atc, sizeof(atc), "%s/tools/vnpu-atc", build);
	snprintf(model, sizeof(model), "--model=%s/models/%s.onnx", build, onnx);
	snprintf(output, sizeof(output), "--output=%s", om);
	snprintf(input_shape, sizeof(input_shape), "--input_shape=%s", shape);
	err = posix_spawn(&pid, atc, NULL, NULL, argv, environ);
	if (err)
		bench_fail(atc, err);
	if (waitpid(pid, &status, 0) != pid)
		bench_fail("waitpid", errno);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_model: %s %s %s %s failed\n", atc, model, output, input_shape);
		exit(1);
	}
}

static void net_init(struct net *n, const char *name, int64_t batch, const char *build, const char *tmp)
{
	static struct mdl_mlp mlp;
	static struct mdl_cnn cnn;
	bool is_mlp = !strcmp(name, "mlp");
	char om[PATH_MAX], shape[64];

	memset(n, 0, sizeof(*n));
	n->name = name;
	n->batch = batch;
	n->x_count = (size_t)batch * (is_mlp ? MDL_MLP_IN : MDL_CNN_HW * MDL_CNN_HW);
	n->y_count = (size_t)batch * (is_mlp ? MDL_MLP_OUT : MDL_CNN_OUT);
	n->host_x = malloc(n->x_count * sizeof(float));
	n->want = calloc(n->y_count, sizeof(double));
	if (!n->host_x || !n->want)
		bench_fail("allocating", ENOMEM);
	mdl_input(n->host_x, n->x_count, (uint32_t)batch);
	if (is_mlp) {
		mdl_mlp_init(&mlp);
		mdl_mlp_ref(&mlp, n->host_x, (size_t)batch, n->want);
		build_mlp(n, &mlp);
		snprintf(shape, sizeof(shape), "x:%lld,%d", (long long)batch, MDL_MLP_IN);
	} else {
		mdl_cnn_init(&cnn);
		mdl_cnn_ref(&cnn, n->host_x, (size_t)batch, n->want);
		build_cnn(n, &cnn);
		snprintf(shape, sizeof(shape), "x:%lld,1,%d,%d", (long long)batch, MDL_CNN_HW, MDL_CNN_HW);
	}
	snprintf(om, sizeof(om), "%s/%s_b%lld", tmp, name, (long long)batch);
	convert(build, name, om, shape);
	strncat(om, ".om", sizeof(om) - strlen(om) - 1);
	CHECK(aclmdlLoadFromFile(om, &n->model));
	n->in = aclmdlCreateDataset();
	n->out = aclmdlCreateDataset();
	if (!n->in || !n->out)
		bench_fail("aclmdlCreateDataset", ENOMEM);
	CHECK(aclmdlAddDatasetBuffer(n->in, n->x->buf));
	CHECK(aclmdlAddDatasetBuffer(n->out, n->y->buf));
}

static void net_fini(struct net *n)
{
	int k;

	CHECK(aclmdlDestroyDataset(n->in));
	CHECK(aclmdlDestroyDataset(n->out));
	CHECK(aclmdlUnload(n->model));
	for (k = 0; k < n->nattrs; k++)
		aclopDestroyAttr(n->attrs[k]);
	for (k = 0; k < n->nt; k++)
		tensor_fini(&n->t[k]);
	free(n->host_x);
	free(n->want);
}

static void run_model(struct net *n, aclrtStream s)
{
	CHECK(aclmdlExecuteAsync(n->model, n->in, n->out, s));
}

static void run_ops(struct net *n, aclrtStream s)
{
	int k;

	for (k = 0; k < n->nops; k++)
		op_launch(&n->ops[k], s);
}

/* y against the CPU (from a zeroed y): a benchmark of wrong answers measures nothing. */
static void net_verify(struct net *n, aclrtStream s, void (*run)(struct net *, aclrtStream), const char *how)
{
	float *y = malloc(n->y_count * sizeof(float));
	double e;

	if (!y)
		bench_fail("allocating", ENOMEM);
	CHECK(aclrtMemset(n->y->dev, n->y->bytes, 0, n->y->bytes));
	run(n, s);
	CHECK(aclrtSynchronizeStream(s));
	CHECK(aclrtMemcpy(y, n->y->bytes, n->y->dev, n->y->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
	e = mdl_max_error(y, n->want, n->y_count);
	free(y);
	if (e > MDL_TOLERANCE) {
		fprintf(stderr, "bench_model: %s b%lld through %s: max relative error %.3g\n", n->name,
			(long long)n->batch, how, e);
		exit(1);
	}
}

/* A burst of @k inferences, the stream synchronised at the end: ns per inference. */
static double burst(struct net *n, aclrtStream s, void (*run)(struct net *, aclrtStream), unsigned int k)
{
	uint64_t t0 = bench_now_ns();
	unsigned int i;

	for (i = 0; i < k; i++)
		run(n, s);
	CHECK(aclrtSynchronizeStream(s));
	return (double)(bench_now_ns() - t0) / k;
}

static void bench_net(struct net *n, aclrtStream s)
{
	unsigned int rounds = scaled(30, 3), k = scaled(32, 4), r;
	struct bench_samples sm, so;
	char name[64];

	bench_samples_init(&sm, rounds);
	bench_samples_init(&so, rounds);
	/* In turn, round by round, so that both see the same conditions. */
	for (r = 0; r < rounds; r++) {
		bench_add(&sm, burst(n, s, run_model, k));
		bench_add(&so, burst(n, s, run_ops, k));
	}
	snprintf(name, sizeof(name), "model_%s_b%lld", n->name, (long long)n->batch);
	bench_report(&sm, name, "ns");
	snprintf(name, sizeof(name), "ops_%s_b%lld", n->name, (long long)n->batch);
	bench_report(&so, name, "ns");
}

/* ioctls and SUBMITs per warm inference, both ways. */
static void count_net(struct net *n, aclrtStream s)
{
	unsigned int k = scaled(200, 20), i;
	char name[64];

	bench_ioctls.drm = bench_ioctls.submits = 0;
	bench_ioctls.counting = true;
	for (i = 0; i < k; i++)
		run_model(n, s);
	bench_ioctls.counting = false;
	CHECK(aclrtSynchronizeStream(s));
	snprintf(name, sizeof(name), "model_ioctls_%s", n->name);
	bench_count(name, (double)bench_ioctls.drm / k);
	snprintf(name, sizeof(name), "model_submits_%s", n->name);
	bench_count(name, (double)bench_ioctls.submits / k);

	bench_ioctls.drm = bench_ioctls.submits = 0;
	bench_ioctls.counting = true;
	for (i = 0; i < k; i++)
		run_ops(n, s);
	bench_ioctls.counting = false;
	CHECK(aclrtSynchronizeStream(s));
	snprintf(name, sizeof(name), "ops_ioctls_%s", n->name);
	bench_count(name, (double)bench_ioctls.drm / k);
}

/* Peak and sum of the bytes one execution takes from a registered allocator. */
static void measure_memory(struct net *n, aclrtStream s, struct measuring *m)
{
	char name[64];

	run_model(n, s); /* warm: the plan, the arena's pool binding */
	CHECK(aclrtSynchronizeStream(s));
	if (m->held)
		bench_fail("the allocator's blocks were not all given back", 0);
	m->peak = m->total = 0;
	run_model(n, s);
	CHECK(aclrtSynchronizeStream(s));
	if (m->held || m->allocs != m->frees || !m->total)
		bench_fail("measuring the allocator's blocks", 0);
	snprintf(name, sizeof(name), "model_peak_bytes_%s", n->name);
	bench_count(name, (double)m->peak);
	snprintf(name, sizeof(name), "model_sum_bytes_%s", n->name);
	bench_count(name, (double)m->total);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "mlp", "cnn" };
	static const int64_t batches[] = { 1, 16 };
	const char *mode = getenv("VNPU_BENCH_MODE");
	char build[PATH_MAX], tmp[] = "/tmp/bench_model.XXXXXX";
	struct net nets[4];
	struct measuring meas = { 0 };
	aclrtAllocatorDesc desc;
	aclrtStream s, sa;
	unsigned int i, j;

	quick = (argc > 1 && !strcmp(argv[1], "-q")) || (mode && strstr(mode, "smoke"));
	build_dir(build, sizeof(build));
	if (!mkdtemp(tmp))
		bench_fail("mkdtemp", errno);
	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
		fprintf(stderr, "bench_model: no vnpu device\n");
		return 1;
	}
	CHECK(aclrtCreateStream(&s));
	CHECK(aclrtCreateStream(&sa));
	CHECK(aclrtMalloc((void **)&meas.arena, ARENA_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
	desc = aclrtAllocatorCreateDesc();
	if (!desc)
		bench_fail("aclrtAllocatorCreateDesc", ENOMEM);
	CHECK(aclrtAllocatorSetObjToDesc(desc, &meas));
	CHECK(aclrtAllocatorSetAllocFuncToDesc(desc, m_alloc));
	CHECK(aclrtAllocatorSetFreeFuncToDesc(desc, m_free));
	CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, m_get_addr));
	CHECK(aclrtAllocatorRegister(sa, desc));
	CHECK(aclrtAllocatorDestroyDesc(desc));

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			net_init(&nets[i * 2 + j], names[i], batches[j], build, tmp);
	/* Warm and right, both ways. */
	for (i = 0; i < 4; i++) {
		net_verify(&nets[i], s, run_model, "aclmdlExecuteAsync");
		net_verify(&nets[i], s, run_ops, "aclopExecuteV2");
		for (j = 0; j < scaled(20, 2); j++) {
			run_model(&nets[i], s);
			run_ops(&nets[i], s);
		}
		CHECK(aclrtSynchronizeStream(s));
	}

	for (i = 0; i < 4; i++)
		bench_net(&nets[i], s);
	for (i = 0; i < 2; i++)
		count_net(&nets[i * 2 + 1], s);
	for (i = 0; i < 2; i++)
		measure_memory(&nets[i * 2 + 1], sa, &meas);

	for (i = 0; i < 4; i++)
		net_fini(&nets[i]);
	CHECK(aclrtAllocatorUnregister(sa));
	CHECK(aclrtDestroyStream(sa));
	CHECK(aclrtDestroyStream(s));
	for (i = 0; i < CLASSES; i++)
		while (meas.free_list[i]) {
			struct mblock *b = meas.free_list[i];

			meas.free_list[i] = b->next;
			free(b);
		}
	CHECK(aclrtFree(meas.arena));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	for (i = 0; i < 4; i++) {
		char om[PATH_MAX];

		snprintf(om, sizeof(om), "%s/%s_b%lld.om", tmp, nets[i].name, (long long)nets[i].batch);
		unlink(om);
	}
	rmdir(tmp);
	return 0;
}
