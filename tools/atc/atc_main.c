// SPDX-License-Identifier: MIT
/*
 * atc_main.c - vnpu-atc, CANN's ATC for vnpu: an ONNX model into an .om
 * that libascendcl's aclmdl* loads (docs/atc.md).
 *
 *   vnpu-atc --model=net.onnx --framework=5 --output=net [--input_shape=...]
 *
 * Exit status 0 with ATC's success line; 1 when the conversion fails, 2
 * for a usage error, each after the errors (stderr) and ATC's failure line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atc.h"

#define MSG_SIZE 65536

static const char usage[] =
	"usage: vnpu-atc --model=FILE --framework=5 --output=NAME [options]\n"
	"\n"
	"Converts an ONNX model into an offline model (.om) for vnpu's libascendcl.\n"
	"Every flag takes \"--flag=value\" or \"--flag value\".\n"
	"\n"
	"  --model=FILE             the ONNX model\n"
	"  --framework=5            ONNX (0 Caffe, 1 MindSpore, 3 TensorFlow: not supported)\n"
	"  --output=NAME            the .om to write (\".om\" added unless present)\n"
	"  --input_shape=SHAPES     \"x:1,3,224,224;y:-1,4\": -1 a dynamic dimension, lo~hi its range\n"
	"                           (\"1~64\"; \"1~-1\" unbounded)\n"
	"  --dynamic_batch_size=B   gears of the -1 batch: \"1,2,4\"\n"
	"  --dynamic_image_size=HW  gears of the -1 height and width: \"224,224;448,448\"\n"
	"  --dynamic_dims=DIMS      gears of every -1 dimension in order: \"1,224;2,448\"\n"
	"  --input_format=FORMAT    NCHW, NHWC, ND, NCDHW or NDHWC (recorded in the model)\n"
	"  --output_type=TYPE       FP32, FP16, INT8, ... for every output, or\n"
	"                           \"node:index:FP16;...\" for some\n"
	"  --soc_version=NAME       stored in the model\n"
	"  --log=LEVEL              error (default), warning, info, debug or null: what goes to stderr\n"
	"  --help, -h               this text\n"
	"\n"
	"vnpu's extension:\n"
	"  --vnpu_const_input=NAME:FILE.pb\n"
	"                           bind graph input NAME to the TensorProto in FILE.pb, making it\n"
	"                           a constant (repeatable)\n";

static const char success[] = "ATC run success, welcome to the next use.\n";
static const char failure[] = "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n";

static int fail(enum atc_log log, const char *msg, int status)
{
	if (log != ATC_LOG_NULL && msg && *msg)
		fprintf(stderr, "%s\n", msg);
	fputs(failure, stdout);
	return status;
}

static void info(const struct atc_options *o, const struct onnx_model *onnx, const struct om_model *m,
		 const char *path)
{
	uint32_t i;

	if (o->log >= ATC_LOG_WARNING && o->input_format >= 0)
		fprintf(stderr, "[WARNING] --input_format is recorded in the model; vnpu's operators read "
				"every layout as plain row-major data\n");
	if (o->log < ATC_LOG_INFO)
		return;
	fprintf(stderr, "[INFO] %s: %zu ONNX nodes into %u CANN operator calls (the rest folded or unused), "
			"%u inputs, %u outputs, %llu bytes of weights%s\n",
		path, onnx->graph.nnodes, m->nnodes, m->ninputs, m->noutputs, (unsigned long long)m->weights_size,
		m->dynamic_shape ? ", dynamic shapes" : "");
	if (o->log < ATC_LOG_DEBUG)
		return;
	for (i = 0; i < m->nnodes; i++)
		fprintf(stderr, "[DEBUG] node %u %s: %s, %u inputs, %u outputs, %u attributes\n", i,
			m->nodes[i].name, m->nodes[i].type, m->nodes[i].nin, m->nodes[i].nout, m->nodes[i].nattrs);
}

int main(int argc, char **argv)
{
	char *msg = calloc(1, MSG_SIZE), *path = NULL;
	struct onnx_model *onnx = NULL;
	struct om_model *m = NULL;
	struct atc_options o;
	struct onnx_error oerr;
	struct om_error merr;
	enum atc_err ret;
	int status;

	if (!msg) {
		fputs("vnpu-atc: out of memory\n", stderr);
		return fail(ATC_LOG_NULL, NULL, 1);
	}
	ret = atc_options_parse(argc, argv, &o, msg, MSG_SIZE);
	if (ret) {
		status = fail(o.log, msg, ret == ATC_ERR_USAGE ? 2 : 1);
		free(msg);
		return status;
	}
	if (o.help) {
		fputs(usage, stdout);
		atc_options_release(&o);
		free(msg);
		return 0;
	}
	if (atc_options_check(&o, msg, MSG_SIZE)) {
		status = fail(o.log, msg, 2);
		goto out;
	}
	if (onnx_model_load(o.model, &onnx, &oerr)) {
		status = fail(o.log, oerr.msg, 1);
		goto out;
	}
	ret = atc_convert(onnx, &o, &m, msg, MSG_SIZE);
	if (ret) {
		status = fail(o.log, msg, ret == ATC_ERR_USAGE ? 2 : 1);
		goto out;
	}
	path = atc_output_path(o.output);
	if (!path) {
		status = fail(o.log, "out of memory", 1);
		goto out;
	}
	if (om_write_file(m, path, &merr)) {
		snprintf(msg, MSG_SIZE, "%s: %s", path, merr.msg);
		status = fail(o.log, msg, 1);
		goto out;
	}
	info(&o, onnx, m, path);
	fputs(success, stdout);
	status = 0;
out:
	free(path);
	om_model_free(m);
	onnx_model_free(onnx);
	atc_options_release(&o);
	free(msg);
	return status;
}
