// SPDX-License-Identifier: MIT
/*
 * nn_net_resize.c - resizing NCHW images: aclnnUpsampleNearest2d and
 * aclnnUpsampleBilinear2d.
 *
 * lib/ops' ResizeD (ONNX's Resize) computes, with the coordinate
 * transformation that is PyTorch's: nearest takes floor(o / scale)
 * ("asymmetric", nearest_mode "floor"); bilinear with alignCorners is
 * "align_corners", without it "half_pixel", whose taps before the first
 * pixel read the edge as PyTorch's clamp of the source index does.
 * ResizeD resizes every axis: N and C keep their lengths.
 */
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "nn_net.h"

/*
 * self [N, C, H, W] resized to outputSize (2 lengths >= 1) with ResizeD's
 * @mode and @coord; @sh, @sw (> 0) are the scales the source coordinate
 * uses instead of the size ratio.
 */
static void upsample(struct nn_exec *x, nn_val s, const aclIntArray *output_size, const aclDataType *dts,
		     int ndts, const char *mode, const char *coord, double sh, double sw, nn_val o)
{
	const struct nn_view *w;
	int64_t sizes[4];
	float scales[4];
	const int64_t *v;
	uint64_t n = 0;

	if (!nn_check_dtype(x, s, "self", dts, ndts) || !nn_check_rank(x, s, "self", 4, 4))
		return;
	if (nn_null(x, output_size, "outputSize"))
		return;
	v = nn_ints(x, output_size, "outputSize", &n);
	if (!nn_ok(x))
		return;
	if (n != 2 || v[0] < 1 || v[1] < 1) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "outputSize must be 2 lengths of at least 1 (H, W)");
		return;
	}
	w = nn_view(x, s);
	sizes[0] = w->dims[0];
	sizes[1] = w->dims[1];
	sizes[2] = v[0];
	sizes[3] = v[1];
	scales[0] = scales[1] = 1;
	scales[2] = sh > 0 ? (float)sh : (float)((double)v[0] / (double)(w->dims[2] ? w->dims[2] : 1));
	scales[3] = sw > 0 ? (float)sw : (float)((double)v[1] / (double)(w->dims[3] ? w->dims[3] : 1));
	{
		struct vops_attr at[] = { NN_ATTR_INTS("sizes", 4, sizes), NN_ATTR_STRING("mode", mode),
					  NN_ATTR_STRING("coordinate_transformation_mode", coord),
					  NN_ATTR_STRING("nearest_mode", "floor"), NN_ATTR_FLOATS("scales", 4, scales) };
		/* the scales only when given: the size ratio is ResizeD's own default */
		unsigned int nat = sh > 0 || sw > 0 ? NN_COUNT(at) : NN_COUNT(at) - 1;

		nn_store(x, nn_op1(x, "ResizeD", 1, &s, at, nat), o);
	}
}

aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
						   aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_UINT8 };
	struct nn_exec *x = nn_begin("aclnnUpsampleNearest2d");
	nn_val s = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	upsample(x, s, outputSize, dts, (int)NN_COUNT(dts), "nearest", "asymmetric", 0, 0, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnUpsampleNearest2d)

aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
						    const bool alignCorners, const double scalesH,
						    const double scalesW, aclTensor *out, uint64_t *workspaceSize,
						    aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnUpsampleBilinear2d");
	nn_val s = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	/* align_corners ignores the scales, as PyTorch does */
	upsample(x, s, outputSize, nnn_float_dts, NNN_NFLOAT, "linear", alignCorners ? "align_corners" : "half_pixel",
		 alignCorners ? 0 : scalesH, alignCorners ? 0 : scalesW, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnUpsampleBilinear2d)
