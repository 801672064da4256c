// SPDX-License-Identifier: MIT
/*
 * aclnn_add.cpp - the first aclnn program: out = self + alpha * other on
 * device 0, the way CANN's quick start does it (written here): set up
 * ACL, create the device tensors, ask aclnnAddGetWorkspaceSize for the
 * workspace, launch aclnnAdd on a stream, copy the result back and check
 * it.
 *
 * Built as an application builds it:
 *   c++ -std=c++17 -Iinclude aclnn_add.cpp -lascendcl -lopapi -lnnopbase
 * Exit status 0 when every element is right.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK_RET(cond, ...)                  \
	do {                                  \
		if (!(cond)) {                \
			std::printf(__VA_ARGS__); \
			return 1;             \
		}                             \
	} while (0)

static int64_t element_count(const std::vector<int64_t> &shape)
{
	int64_t n = 1;

	for (int64_t d : shape)
		n *= d;
	return n;
}

/* A contiguous device tensor holding @host. */
template <typename T>
static int create_tensor(const std::vector<T> &host, const std::vector<int64_t> &shape, void **dev, aclDataType dt,
			 aclTensor **tensor)
{
	size_t bytes = static_cast<size_t>(element_count(shape)) * sizeof(T);
	std::vector<int64_t> strides(shape.size(), 1);

	CHECK_RET(aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc failed\n");
	CHECK_RET(aclrtMemcpy(*dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
		  "aclrtMemcpy failed\n");
	for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--)
		strides[i] = shape[i + 1] * strides[i + 1];
	*tensor = aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
				  shape.size(), *dev);
	CHECK_RET(*tensor != nullptr, "aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
	return 0;
}

int main()
{
	int32_t device = 0;
	aclrtStream stream = nullptr;
	std::vector<int64_t> shape = { 4, 2 };
	std::vector<float> self_host = { 0, 1, 2, 3, 4, 5, 6, 7 };
	std::vector<float> other_host = { 1, 1, 1, 2, 2, 2, 3, 3 };
	std::vector<float> out_host(8, 0);
	void *self_dev = nullptr, *other_dev = nullptr, *out_dev = nullptr, *workspace = nullptr;
	aclTensor *self = nullptr, *other = nullptr, *out = nullptr;
	float alpha_value = 1.2f;
	aclScalar *alpha;
	uint64_t workspace_size = 0;
	aclOpExecutor *executor = nullptr;
	int ret;

	CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit failed\n");
	CHECK_RET(aclrtSetDevice(device) == ACL_SUCCESS, "aclrtSetDevice failed\n");
	CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed\n");

	if (create_tensor(self_host, shape, &self_dev, ACL_FLOAT, &self) ||
	    create_tensor(other_host, shape, &other_dev, ACL_FLOAT, &other) ||
	    create_tensor(out_host, shape, &out_dev, ACL_FLOAT, &out))
		return 1;
	alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
	CHECK_RET(alpha != nullptr, "aclCreateScalar failed\n");

	/* The first stage: plan, and say how much workspace it needs. */
	ret = aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspace_size, &executor);
	CHECK_RET(ret == ACL_SUCCESS, "aclnnAddGetWorkspaceSize failed: %d %s\n", ret, aclGetRecentErrMsg());
	if (workspace_size > 0)
		CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
			  "workspace allocation failed\n");
	/* The second: run on the stream. */
	ret = aclnnAdd(workspace, workspace_size, executor, stream);
	CHECK_RET(ret == ACL_SUCCESS, "aclnnAdd failed: %d %s\n", ret, aclGetRecentErrMsg());
	CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream failed\n");

	CHECK_RET(aclrtMemcpy(out_host.data(), out_host.size() * sizeof(float), out_dev,
			      out_host.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
		  "copy back failed\n");
	for (size_t i = 0; i < out_host.size(); i++) {
		float want = self_host[i] + alpha_value * other_host[i];

		std::printf("result[%zu] is: %f\n", i, out_host[i]);
		CHECK_RET(std::fabs(out_host[i] - want) <= 1e-5f, "result[%zu] should be %f\n", i, want);
	}

	aclDestroyTensor(self);
	aclDestroyTensor(other);
	aclDestroyTensor(out);
	aclDestroyScalar(alpha);
	aclrtFree(self_dev);
	aclrtFree(other_dev);
	aclrtFree(out_dev);
	if (workspace)
		aclrtFree(workspace);
	aclrtDestroyStream(stream);
	aclrtResetDevice(device);
	aclFinalize();
	return 0;
}
