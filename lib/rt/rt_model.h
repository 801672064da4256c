/* SPDX-License-Identifier: MIT */
/*
 * rt_model.h - model execution (acl_mdl.h), the pure half: planning a
 * loaded graph (lib/om/vnpu_om.h) for one set of input shapes, laying its
 * memory out by liveness, and a small cache of such plans.
 *
 * A plan is what one execution needs from the host, computed once per set
 * of input shapes: every value's shape and bytes and where it lives (a
 * graph input's buffer, the weights, an output's buffer, or the work
 * arena at an offset), every node's lib/ops descriptor (planned through
 * rt_op_plan(), so the codes and messages are those of aclopExecuteV2) and
 * workspace, the copies that give outputs which are inputs or constants,
 * and the arena's peak. Liveness: a value lives from its producer to its
 * last consumer, a workspace for its node only; offsets are given first
 * fit, walking the nodes in order and releasing after each node what it
 * was the last to use -- the same walk an execution with a registered
 * allocator makes with alloc() and free() (rt_model_exec.c).
 *
 * Nothing here issues a system call; rt_model_plan.c, rt_model_mem.c and
 * rt_model_cache.c are linked into the host unit tests. Failures record
 * their ACL code and message with rt_err().
 */
#ifndef VNPU_LIB_RT_MODEL_H
#define VNPU_LIB_RT_MODEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_mdl.h"
#include "vnpu_om.h"
#include "vnpu_ops.h"

/* Least alignment of every block of the arena (and of allocator blocks). */
#define RT_MODEL_ALIGN 64u
/* Plans a model with dynamic dimensions keeps (least recently used goes). */
#define RT_MODEL_PLAN_CACHE 4

/* Where a value lives during one execution. */
enum rt_mloc {
	RT_MLOC_INPUT = 1,		/* the caller's input buffer @index */
	RT_MLOC_CONST,			/* the weights, at @offset */
	RT_MLOC_OUTPUT,			/* the caller's output buffer @index */
	RT_MLOC_ARENA,			/* the work arena at @offset (or an allocator block) */
};

struct rt_mvalue {
	int32_t dtype;
	int32_t ndim;			/* the model's rank */
	int64_t *dims;			/* ndim entries, in the plan's dims pool */
	uint64_t bytes;			/* of the tensor (0 for an empty one) */
	uint64_t size;			/* bytes of memory it takes: bytes, at least 1 */
	uint32_t align;			/* in the arena (at least RT_MODEL_ALIGN) */
	uint32_t need_align;		/* what the operators need of its address */
	enum rt_mloc loc;
	uint32_t index;			/* INPUT, OUTPUT: which */
	uint64_t offset;		/* CONST, ARENA */
	uint32_t last_use;		/* the last node that reads it (its producer if none) */
	bool used;			/* a node or an output needs it */
};

/* One node under a plan: what its VNPU_TASK_OP needs. */
struct rt_mnode {
	const char *type;		/* the model's string */
	const uint32_t *in, *out;	/* the model's value indices (nin, nout) */
	bool empty;			/* nothing to compute: no task */
	int nin, nout;
	uint64_t in_bytes[VOPS_MAX_INPUTS];	/* the operand sizes lib/ops wants */
	uint64_t ws_bytes;
	uint32_t ws_align;
	uint64_t ws_offset;		/* in the arena */
	uint32_t desc_size;
	unsigned char *desc;		/* desc_size bytes */
	/* Values whose last use this node is (released after it). */
	uint32_t nfree;
	uint32_t *frees;
};

/* A graph output that is not written by a node in place: copied at the
 * end of the job from a graph input, a constant or an earlier output. */
struct rt_mcopy {
	uint32_t output;		/* graph output ordinal */
	uint32_t value;			/* the value copied (its loc says from where) */
	uint32_t from_output;		/* loc OUTPUT: the earlier output holding it */
};

struct rt_mplan {
	atomic_uint refs;		/* the cache's, and each execution's using it */
	uint32_t nvalues, nnodes, ninputs, noutputs;
	struct rt_mvalue *values;	/* as the model's */
	struct rt_mnode *nodes;
	uint32_t ncopies;
	struct rt_mcopy *copies;
	uint64_t arena_bytes;		/* the peak of the liveness layout */
	uint64_t sum_bytes;		/* every arena block at once (for comparison) */
	uint32_t ntasks;		/* non-empty nodes + copies */
	uint64_t operands;		/* operands of all the tasks */
	uint64_t data_bytes;		/* data area of all the tasks, back to back */
	/* The key: for each input, its dims (ninputs * ndim, the model's ranks). */
	uint32_t key_len;
	int64_t *key;
	int64_t *dims_pool;
};

/*
 * The shapes of a model's inputs for one execution: from @desc[i] (the
 * dataset's tensor descriptor of input i, may be NULL, @ndesc of them),
 * else from the gear @gear (a row of m->gears, NULL: none chosen, the
 * largest then), else the model's. Every -1 must be given and inside the
 * input's range: ACL_ERROR_INVALID_PARAM naming the input, the dimension,
 * the value and the range. A descriptor must have the input's rank and
 * agree with its known dimensions. *@key (m->ninputs ranks' worth of
 * dims, free() it) and *@key_len get the shapes, input after input.
 */
aclError rt_model_input_dims(const struct om_model *m, aclTensorDesc *const *desc, uint32_t ndesc,
			     const int64_t *gear, int64_t **key, uint32_t *key_len);

/* The gear row of @m that is the largest (by the product of its values). */
const int64_t *rt_model_largest_gear(const struct om_model *m);

/*
 * Dims gear @gear (a row of m->gears) as CANN's aclmdlIODims spells it:
 * every dimension of every data input (the gears' own input excluded), in
 * order, each -1 taken from the gear. Returns the count written to @out,
 * 0 when more than @max.
 */
uint32_t rt_model_gear_dims(const struct om_model *m, const int64_t *gear, int64_t *out, uint32_t max);

/*
 * Plan @m for the input shapes @key (rt_model_input_dims()): every node
 * through rt_op_plan() in order, then the memory layout. On failure the
 * code and message of the node's planning, prefixed with the node's name.
 */
aclError rt_mplan_build(const struct om_model *m, const int64_t *key, uint32_t key_len, struct rt_mplan **out);
/* References: a new plan has one; the last put frees it. */
void rt_mplan_get(struct rt_mplan *p);
void rt_mplan_put(struct rt_mplan *p);

/*
 * The liveness layout of @p (rt_model_mem.c): arena offsets of every
 * RT_MLOC_ARENA value and every workspace, first fit at their alignment,
 * releasing after each node what it used last; p->arena_bytes the peak,
 * p->sum_bytes the sum. Called by rt_mplan_build().
 */
void rt_mplan_layout(struct rt_mplan *p);

/* Bytes of a tensor of @dtype and shape, 0 when empty; false if the type
 * has no whole-byte size or the count overflows. */
bool rt_model_tensor_bytes(int32_t dtype, int32_t ndim, const int64_t *dims, uint64_t *bytes);

/* ---- the plan cache (rt_model_cache.c) ----------------------------------- */

struct rt_mplan_cache {
	struct rt_mplan *plans[RT_MODEL_PLAN_CACHE];	/* most recently used first */
	unsigned int count;
	unsigned long hits, misses;	/* for the tests and docs */
};

/* The cached plan for @key, moved to the front; NULL if none. */
struct rt_mplan *rt_mplan_cache_find(struct rt_mplan_cache *c, const int64_t *key, uint32_t key_len);
/* Add @p (the cache takes the caller's reference) at the front, dropping
 * the least recently used plan when full. */
void rt_mplan_cache_add(struct rt_mplan_cache *c, struct rt_mplan *p);
/* Drop every plan. */
void rt_mplan_cache_clear(struct rt_mplan_cache *c);

/* ---- datasets (acl_mdl.c; read by the executor) ------------------------------ */

#define RT_DATASET_MAGIC 0x564e4453u	/* "VNDS" */

struct aclmdlDataset {
	uint32_t magic;
	uint32_t n, cap;
	aclDataBuffer **bufs;
	aclTensorDesc **descs;		/* owned, per index, may be NULL */
	int32_t gear;			/* the gear row chosen (aclmdlSetDynamic*), -1: none */
};

/* ---- loaded models (rt_model_load.c, rt_model_exec.c) ----------------------------- */

struct rt_dev;
struct rt_stream;
struct rt_outblk;

struct rt_model {
	atomic_uint refs;
	uint32_t id;			/* 0 until registered */
	struct om_model *om;		/* owned */
	pthread_mutex_t lock;		/* everything below */
	bool loaded;			/* device state (not for a desc from a file) */
	bool unloaded;
	struct rt_dev *dev;		/* referenced */
	void *weights;			/* device copy of om->weights */
	bool own_weights;
	void *work;			/* the caller's work memory (static models), or NULL */
	uint64_t work_size;
	uint32_t priority;
	struct rt_mplan *static_plan;	/* static models: planned at load */
	struct rt_mplan_cache cache;	/* the others */
	/* The last execution's job: another stream waits for it. */
	struct rt_stream *last_stream;	/* referenced */
	uint64_t last_point;
	/* The output shapes of the last execution (om->noutputs ranks). */
	int64_t *cur_dims;
	bool has_cur;
	struct rt_outblk *blocks;	/* allocator blocks given to output buffers */
};

/* A model object for @om (taken), not loaded: what a description holds. */
aclError rt_model_new(struct om_model *om, struct rt_model **out);
void rt_model_get(struct rt_model *m);
void rt_model_put(struct rt_model *m);

/* Parse a .om (om_read()); ACL_ERROR_PARSE_MODEL with om's message. */
aclError rt_model_parse(const void *buf, size_t len, struct om_model **out);
/* Read a .om file; ACL_ERROR_READ_MODEL_FAILURE if it cannot be read. */
aclError rt_model_read_file(const char *path, void **buf, size_t *len);

/*
 * Load @om (taken, even on failure) on the current context's device:
 * weights into @weight (NULL: the runtime's, else at least weights_size
 * bytes of device memory), static models planned, their arena @work
 * (NULL: the runtime's, else at least the plan's peak). *@id from 1.
 */
aclError rt_model_load(struct om_model *om, void *work, size_t work_size, void *weight, size_t weight_size,
		       uint32_t priority, uint32_t *id);
/* The loaded model @id, referenced; ACL_ERROR_INVALID_MODEL_ID if none. */
aclError rt_model_lookup(uint32_t id, struct rt_model **out);
/* Unregister @id, wait for its work, free its memory. */
aclError rt_model_unload(uint32_t id);

struct rt_allocfns;
/* Give output buffer @buf the allocator block @block (freed with @fns when
 * the buffer is updated or destroyed, or when the model goes). */
aclError rt_model_own_block(struct rt_model *m, aclDataBuffer *buf, const struct rt_allocfns *fns, void *block);

/* Device memory a model needs: its static plan's peak and its weights;
 * ACL_ERROR_FEATURE_UNSUPPORTED for dimensions decided at execution. */
aclError rt_model_query_size(const struct om_model *om, size_t *work, size_t *weight);

/* The plan of one execution with @input (referenced: rt_mplan_put()). */
aclError rt_model_plan_for(struct rt_model *m, const aclmdlDataset *input, struct rt_mplan **out);

/*
 * Execute on @stream (NULL: the context's default). @sync: wait (with
 * @timeout_ms, -1 forever) and never call a registered allocator (the
 * synchronous calls); else use the stream's allocator when registered.
 */
aclError rt_model_execute(struct rt_model *m, const aclmdlDataset *input, aclmdlDataset *output, const void *stream,
			  bool sync, int32_t timeout_ms);

#endif /* VNPU_LIB_RT_MODEL_H */
