// SPDX-License-Identifier: MIT
/*
 * acl_mdl_unsup.c - the parts of acl_mdl.h vnpu does not do: AIPP (its
 * models take tensors, not images), bundle models, external weights,
 * loading from a graph object, device task descriptions, HCCL. Each
 * returns ACL_ERROR_FEATURE_UNSUPPORTED with a message saying so; the
 * AIPP queries answer for models without AIPP.
 */
#include "acl/acl_mdl.h"
#include "acl_internal.h"

static aclError unsupported(const char *what)
{
	return rt_err(ACL_ERROR_FEATURE_UNSUPPORTED, "%s", what);
}

aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize)
{
	ACL_ENTER();
	(void)batchSize;
	unsupported("vnpu does not support AIPP");
	return NULL;
}

aclmdlBundleQueryInfo *aclmdlBundleCreateQueryInfo(void)
{
	ACL_ENTER();
	unsupported("vnpu does not support bundle models");
	return NULL;
}

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type, size_t *dynamicAttachedDataIndex)
{
	aclmdlDesc *d;
	aclError err;
	size_t n;

	ACL_ENTER();
	ACL_REQUIRE(type);
	ACL_REQUIRE(dynamicAttachedDataIndex);
	d = aclmdlCreateDesc();
	if (!d)
		return ACL_ERROR_BAD_ALLOC;
	err = aclmdlGetDesc(d, modelId);
	n = err ? 0 : aclmdlGetNumInputs(d);
	(void)aclmdlDestroyDesc(d);
	rt_api_enter(__func__);
	if (err)
		return err;
	if (index >= n)
		return rt_err(ACL_ERROR_INVALID_PARAM, "index %zu: model %u has %zu inputs", index, modelId, n);
	*type = ACL_DATA_WITHOUT_AIPP;
	*dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
	return ACL_SUCCESS;
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo *aippInfo)
{
	aclmdlInputAippType type;
	size_t attached;
	aclError err;

	ACL_ENTER();
	ACL_REQUIRE(aippInfo);
	err = aclmdlGetAippType(modelId, index, &type, &attached);
	rt_api_enter(__func__);
	if (err)
		return err;
	return rt_err((aclError)ACL_ERROR_GE_AIPP_NOT_EXIST, "input %zu of model %u has no AIPP (vnpu models never do)",
		      index, modelId);
}

aclError aclmdlBundleLoadFromFile(const char *modelPath, uint32_t *bundleId)
{
	ACL_ENTER();
	(void)modelPath;
	(void)bundleId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleLoadFromMem(const void *model, size_t modelSize, uint32_t *bundleId)
{
	ACL_ENTER();
	(void)model;
	(void)modelSize;
	(void)bundleId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleUnload(uint32_t bundleId)
{
	ACL_ENTER();
	(void)bundleId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleGetModelNum(uint32_t bundleId, size_t *modelNum)
{
	ACL_ENTER();
	(void)bundleId;
	(void)modelNum;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleGetModelId(uint32_t bundleId, size_t index, uint32_t *modelId)
{
	ACL_ENTER();
	(void)bundleId;
	(void)index;
	(void)modelId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleDestroyQueryInfo(aclmdlBundleQueryInfo *queryInfo)
{
	ACL_ENTER();
	(void)queryInfo;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleQueryInfoFromFile(const char *fileName, aclmdlBundleQueryInfo *queryInfo)
{
	ACL_ENTER();
	(void)fileName;
	(void)queryInfo;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleQueryInfoFromMem(const void *model, size_t modelSize, aclmdlBundleQueryInfo *queryInfo)
{
	ACL_ENTER();
	(void)model;
	(void)modelSize;
	(void)queryInfo;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleGetQueryModelNum(const aclmdlBundleQueryInfo *queryInfo, size_t *modelNum)
{
	ACL_ENTER();
	(void)queryInfo;
	(void)modelNum;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleGetVarWeightSize(const aclmdlBundleQueryInfo *queryInfo, size_t *variableWeightSize)
{
	ACL_ENTER();
	(void)queryInfo;
	(void)variableWeightSize;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleGetSize(const aclmdlBundleQueryInfo *queryInfo, size_t index, size_t *workSize,
	size_t *constWeightSize)
{
	ACL_ENTER();
	(void)queryInfo;
	(void)index;
	(void)workSize;
	(void)constWeightSize;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleInitFromFile(const char *modelPath, void *varWeightPtr, size_t varWeightSize,
	uint32_t *bundleId)
{
	ACL_ENTER();
	(void)modelPath;
	(void)varWeightPtr;
	(void)varWeightSize;
	(void)bundleId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleInitFromMem(const void *model, size_t modelSize, void *varWeightPtr, size_t varWeightSize,
	uint32_t *bundleId)
{
	ACL_ENTER();
	(void)model;
	(void)modelSize;
	(void)varWeightPtr;
	(void)varWeightSize;
	(void)bundleId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleLoadModel(uint32_t bundleId, size_t index, uint32_t *modelId)
{
	ACL_ENTER();
	(void)bundleId;
	(void)index;
	(void)modelId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleLoadModelWithMem(uint32_t bundleId, size_t index, void *workPtr, size_t workSize,
	void *weightPtr, size_t weightSize, uint32_t *modelId)
{
	ACL_ENTER();
	(void)bundleId;
	(void)index;
	(void)workPtr;
	(void)workSize;
	(void)weightPtr;
	(void)weightSize;
	(void)modelId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleLoadModelWithConfig(uint32_t bundleId, size_t index, aclmdlConfigHandle *handle,
	uint32_t *modelId)
{
	ACL_ENTER();
	(void)bundleId;
	(void)index;
	(void)handle;
	(void)modelId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlBundleUnloadModel(uint32_t bundleId, uint32_t modelId)
{
	ACL_ENTER();
	(void)bundleId;
	(void)modelId;
	return unsupported("vnpu does not support bundle models");
}

aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet)
{
	ACL_ENTER();
	(void)aippParmsSet;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size)
{
	ACL_ENTER();
	(void)batchSize;
	(void)size;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)inputFormat;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0,
	int16_t cscMatrixR0C1, int16_t cscMatrixR0C2, int16_t cscMatrixR1C0, int16_t cscMatrixR1C1,
	int16_t cscMatrixR1C2, int16_t cscMatrixR2C0, int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
	uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1, uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
	uint8_t cscInputBiasR1, uint8_t cscInputBiasR2)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)cscSwitch;
	(void)cscMatrixR0C0;
	(void)cscMatrixR0C1;
	(void)cscMatrixR0C2;
	(void)cscMatrixR1C0;
	(void)cscMatrixR1C1;
	(void)cscMatrixR1C2;
	(void)cscMatrixR2C0;
	(void)cscMatrixR2C1;
	(void)cscMatrixR2C2;
	(void)cscOutputBiasR0;
	(void)cscOutputBiasR1;
	(void)cscOutputBiasR2;
	(void)cscInputBiasR0;
	(void)cscInputBiasR1;
	(void)cscInputBiasR2;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)rbuvSwapSwitch;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)axSwapSwitch;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t srcImageSizeW, int32_t srcImageSizeH)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)srcImageSizeW;
	(void)srcImageSizeH;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
	int32_t scfInputSizeH, int32_t scfOutputSizeW, int32_t scfOutputSizeH, uint64_t batchIndex)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)scfSwitch;
	(void)scfInputSizeW;
	(void)scfInputSizeH;
	(void)scfOutputSizeW;
	(void)scfOutputSizeH;
	(void)batchIndex;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
	int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH, uint64_t batchIndex)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)cropSwitch;
	(void)cropStartPosW;
	(void)cropStartPosH;
	(void)cropSizeW;
	(void)cropSizeH;
	(void)batchIndex;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch, int32_t paddingSizeTop,
	int32_t paddingSizeBottom, int32_t paddingSizeLeft, int32_t paddingSizeRight, uint64_t batchIndex)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)paddingSwitch;
	(void)paddingSizeTop;
	(void)paddingSizeBottom;
	(void)paddingSizeLeft;
	(void)paddingSizeRight;
	(void)batchIndex;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t dtcPixelMeanChn0, int16_t dtcPixelMeanChn1,
	int16_t dtcPixelMeanChn2, int16_t dtcPixelMeanChn3, uint64_t batchIndex)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)dtcPixelMeanChn0;
	(void)dtcPixelMeanChn1;
	(void)dtcPixelMeanChn2;
	(void)dtcPixelMeanChn3;
	(void)batchIndex;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float dtcPixelMinChn0, float dtcPixelMinChn1,
	float dtcPixelMinChn2, float dtcPixelMinChn3, uint64_t batchIndex)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)dtcPixelMinChn0;
	(void)dtcPixelMinChn1;
	(void)dtcPixelMinChn2;
	(void)dtcPixelMinChn3;
	(void)batchIndex;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float dtcPixelVarReciChn0, float dtcPixelVarReciChn1,
	float dtcPixelVarReciChn2, float dtcPixelVarReciChn3, uint64_t batchIndex)
{
	ACL_ENTER();
	(void)aippParmsSet;
	(void)dtcPixelVarReciChn0;
	(void)dtcPixelVarReciChn1;
	(void)dtcPixelVarReciChn2;
	(void)dtcPixelVarReciChn3;
	(void)batchIndex;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index, const aclmdlAIPP *aippParmsSet)
{
	ACL_ENTER();
	(void)modelId;
	(void)dataset;
	(void)index;
	(void)aippParmsSet;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset *dataset, size_t index,
	const aclmdlAIPP *aippParmsSet)
{
	ACL_ENTER();
	(void)modelId;
	(void)dataset;
	(void)index;
	(void)aippParmsSet;
	return unsupported("vnpu does not support AIPP");
}

aclError aclmdlCreateAndGetOpDesc(uint32_t deviceId, uint32_t streamId, uint32_t taskId, char *opName,
	size_t opNameLen, aclTensorDesc **inputDesc, size_t *numInputs, aclTensorDesc **outputDesc,
	size_t *numOutputs)
{
	ACL_ENTER();
	(void)deviceId;
	(void)streamId;
	(void)taskId;
	(void)opName;
	(void)opNameLen;
	(void)inputDesc;
	(void)numInputs;
	(void)outputDesc;
	(void)numOutputs;
	return unsupported("vnpu has no device tasks to describe");
}

aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *handle, const char *weightFileName, void *devPtr,
	size_t size)
{
	ACL_ENTER();
	(void)handle;
	(void)weightFileName;
	(void)devPtr;
	(void)size;
	return unsupported("vnpu models carry their weights: no external weight files");
}

aclError aclRecoverAllHcclTasks(int32_t deviceId)
{
	ACL_ENTER();
	(void)deviceId;
	return unsupported("vnpu has no HCCL");
}

aclError aclmdlLoadFromModel(const aclmdlModel *model, const aclmdlConfigHandle *handle, uint32_t *modelId)
{
	ACL_ENTER();
	(void)model;
	(void)handle;
	(void)modelId;
	return unsupported("vnpu loads .om files and memory only (aclmdlLoadFromMem)");
}
