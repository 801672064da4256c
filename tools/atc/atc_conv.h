/* SPDX-License-Identifier: MIT */
/*
 * atc_conv.h - the converter's working state, shared by the graph pass
 * (atc_convert.c) and the model it emits (atc_emit.c).
 */
#ifndef VNPU_TOOLS_ATC_CONV_H
#define VNPU_TOOLS_ATC_CONV_H

#include "atc_int.h"
#include "onnx_map.h"
#include "vnpu_ops.h"

/*
 * One value of the graph being converted. Its dimensions are kept at every
 * probe (@pd: nprobe rows of @ndim); a dimension the probes disagree on is
 * -1 in the model.
 */
struct atc_val {
	char *name;
	enum om_value_kind kind;
	int32_t dtype;			/* aclDataType */
	int32_t format;			/* aclFormat */
	int32_t ndim;
	int64_t *pd;			/* nprobe * ndim */
	/* OM_VALUE_INPUT: the declared dims (-1 dynamic), {lo, hi} ranges, its order. */
	int64_t *dims, *range;
	int input;
	/* Each dimension's symbol in the model ("N"), or NULL: one symbol, one size. */
	const char **sym;
	/* OM_VALUE_CONST: the value (owned when t_owned). */
	const struct onnx_tensor *t;
	bool t_owned;
	/* OM_VALUE_NODE: producing node (index in atc_conv.n) and its port. */
	int node, port;
	/*
	 * OM_VALUE_NODE decided by shapes alone (a Shape of a dynamic tensor
	 * and what computes on it): its value at each probe (owned), else NULL.
	 */
	struct onnx_tensor **pv;
	bool live;			/* a graph output needs it */
	uint32_t om;			/* its index in the emitted model */
};

/* One CANN call of the graph being converted. */
struct atc_node {
	char *name;
	const char *type;		/* a string constant of lib/onnx/map */
	int nin, nout;
	int in[VOPS_MAX_INPUTS];	/* value indices */
	int out[VOPS_MAX_OUTPUTS];
	unsigned int nattrs;
	struct vops_attr *attrs;	/* owned deep copies */
	bool live;
};

struct atc_conv {
	const struct onnx_model *onnx;
	const struct atc_options *o;
	struct atc_msg *m;
	int nprobe;
	struct atc_val *v;
	size_t nv, capv;
	size_t ninputs;
	struct atc_node *n;
	size_t nn, capn;
	char **names;			/* ONNX node i's name in the model */
	size_t *order;			/* the ONNX nodes in execution order */
	struct onnx_call *call[2];	/* probe 0's call, and a later probe's */
	struct vops_plan *plan;
};

int atc_find(const struct atc_conv *c, const char *name);
char *atc_unique_name(const struct atc_conv *c, const char *base);
int64_t atc_dim(const struct atc_conv *c, const struct atc_val *v, int d);
void atc_free_attrs(struct vops_attr *a, unsigned int n);
enum atc_err atc_node(struct atc_conv *c, const struct onnx_node *node, const char *nname);
/* The live graph as a new struct om_model. */
enum atc_err atc_emit(struct atc_conv *c, struct om_model **out);

#endif /* VNPU_TOOLS_ATC_CONV_H */
