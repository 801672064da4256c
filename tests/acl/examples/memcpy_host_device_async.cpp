// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample: asynchronous host <-> device copies, in the shape of
 * Ascend's "memcpy_host_device_async" memory-management sample. It takes
 * its parameters from the command line, prints the device's memory before
 * and after allocating, moves a buffer host -> device -> host a number of
 * times with aclrtMemcpyAsync and checks every byte.
 *
 *   memcpy_host_device_async --device_id 0 --memory_size 10485760 \
 *       --number_of_cycles 2 --release_cycle 2 [--memory_reuse 1]
 *
 * Built exactly like an application: -Iinclude -lascendcl, nothing else.
 */
#include <getopt.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stdout, "[ERROR] " fmt "\n", ##__VA_ARGS__)

namespace {

struct Options {
    int32_t deviceId = 0;
    size_t memorySize = 1024 * 1024;
    int32_t numberOfCycles = 1;
    int32_t releaseCycle = 1;
    bool memoryReuse = false;
};

bool ParseOptions(int argc, char **argv, Options &opt)
{
    static const struct option longOptions[] = {
        {"device_id", required_argument, nullptr, 'd'},
        {"memory_size", required_argument, nullptr, 'm'},
        {"number_of_cycles", required_argument, nullptr, 'n'},
        {"release_cycle", required_argument, nullptr, 'r'},
        {"memory_reuse", required_argument, nullptr, 'u'},
        {nullptr, 0, nullptr, 0},
    };
    int c;

    while ((c = getopt_long(argc, argv, "d:m:n:r:u:", longOptions, nullptr)) != -1) {
        switch (c) {
        case 'd': opt.deviceId = atoi(optarg); break;
        case 'm': opt.memorySize = strtoull(optarg, nullptr, 0); break;
        case 'n': opt.numberOfCycles = atoi(optarg); break;
        case 'r': opt.releaseCycle = atoi(optarg); break;
        case 'u': opt.memoryReuse = atoi(optarg) != 0; break;
        default: return false;
        }
    }
    return opt.memorySize > 0 && opt.numberOfCycles > 0 && opt.releaseCycle > 0;
}

class Sample {
public:
    explicit Sample(const Options &opt) : opt_(opt) {}
    ~Sample() { Release(); }

    bool Init()
    {
        aclError ret = aclInit(nullptr);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclInit failed, errorCode = %d", ret);
            return false;
        }
        inited_ = true;
        ret = aclrtSetDevice(opt_.deviceId);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclrtSetDevice(%d) failed, errorCode = %d", opt_.deviceId, ret);
            return false;
        }
        deviceSet_ = true;
        INFO_LOG("open device %d success", opt_.deviceId);
        if (aclrtCreateContext(&context_, opt_.deviceId) != ACL_SUCCESS) {
            ERROR_LOG("aclrtCreateContext failed");
            return false;
        }
        aclrtContext current = nullptr;
        if (aclrtGetCurrentContext(&current) != ACL_SUCCESS || current != context_) {
            ERROR_LOG("the new context is not current");
            return false;
        }
        if (aclrtCreateStream(&stream_) != ACL_SUCCESS) {
            ERROR_LOG("aclrtCreateStream failed");
            return false;
        }
        aclrtRunMode runMode;
        if (aclrtGetRunMode(&runMode) != ACL_SUCCESS) {
            ERROR_LOG("aclrtGetRunMode failed");
            return false;
        }
        INFO_LOG("run mode: %s", runMode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE");
        return PrintMemInfo("before allocation");
    }

    bool PrintMemInfo(const char *when)
    {
        size_t freeBytes = 0, total = 0;
        aclError ret = aclrtGetMemInfo(ACL_HBM_MEM, &freeBytes, &total);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclrtGetMemInfo failed, errorCode = %d", ret);
            return false;
        }
        INFO_LOG("device memory %s: free %zu of %zu bytes", when, freeBytes, total);
        lastFree_ = freeBytes;
        return true;
    }

    bool Allocate()
    {
        if (aclrtMalloc(&deviceBuffer_, opt_.memorySize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            ERROR_LOG("aclrtMalloc of %zu bytes failed", opt_.memorySize);
            return false;
        }
        if (aclrtMallocHost(&hostBuffer_, opt_.memorySize) != ACL_SUCCESS) {
            ERROR_LOG("aclrtMallocHost of %zu bytes failed", opt_.memorySize);
            return false;
        }
        return true;
    }

    void FreeBuffers()
    {
        if (deviceBuffer_ != nullptr) {
            (void)aclrtFree(deviceBuffer_);
            deviceBuffer_ = nullptr;
        }
        if (hostBuffer_ != nullptr) {
            (void)aclrtFreeHost(hostBuffer_);
            hostBuffer_ = nullptr;
        }
    }

    bool Cycle(int32_t cycle)
    {
        auto *host = static_cast<unsigned char *>(hostBuffer_);
        std::vector<unsigned char> expect(opt_.memorySize);

        for (size_t i = 0; i < opt_.memorySize; i++) {
            expect[i] = static_cast<unsigned char>((i * 131 + static_cast<size_t>(cycle) * 7) & 0xff);
        }
        memcpy(host, expect.data(), opt_.memorySize);
        aclError ret = aclrtMemcpyAsync(deviceBuffer_, opt_.memorySize, hostBuffer_, opt_.memorySize,
                                        ACL_MEMCPY_HOST_TO_DEVICE, stream_);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclrtMemcpyAsync host to device failed, errorCode = %d", ret);
            return false;
        }
        ret = aclrtSynchronizeStream(stream_);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclrtSynchronizeStream failed, errorCode = %d", ret);
            return false;
        }
        memset(host, 0, opt_.memorySize);
        ret = aclrtMemcpyAsync(hostBuffer_, opt_.memorySize, deviceBuffer_, opt_.memorySize,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream_);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclrtMemcpyAsync device to host failed, errorCode = %d", ret);
            return false;
        }
        ret = aclrtSynchronizeStream(stream_);
        if (ret != ACL_SUCCESS) {
            ERROR_LOG("aclrtSynchronizeStream failed, errorCode = %d", ret);
            return false;
        }
        if (memcmp(host, expect.data(), opt_.memorySize) != 0) {
            ERROR_LOG("cycle %d: the data read back differs", cycle);
            return false;
        }
        INFO_LOG("cycle %d: %zu bytes host -> device -> host, all equal", cycle, opt_.memorySize);
        return true;
    }

    bool Run()
    {
        for (int32_t cycle = 0; cycle < opt_.numberOfCycles; cycle++) {
            if (deviceBuffer_ == nullptr) {
                if (!Allocate()) {
                    return false;
                }
                size_t before = lastFree_;
                if (!PrintMemInfo("after allocation")) {
                    return false;
                }
                INFO_LOG("the allocation took %zu bytes of device memory", before - lastFree_);
            }
            if (!Cycle(cycle)) {
                return false;
            }
            if (!opt_.memoryReuse && (cycle + 1) % opt_.releaseCycle == 0) {
                FreeBuffers();
                if (!PrintMemInfo("after release")) {
                    return false;
                }
            }
        }
        return true;
    }

    void Release()
    {
        FreeBuffers();
        if (stream_ != nullptr) {
            (void)aclrtDestroyStream(stream_);
            stream_ = nullptr;
        }
        if (context_ != nullptr) {
            (void)aclrtDestroyContext(context_);
            context_ = nullptr;
        }
        if (deviceSet_) {
            (void)aclrtResetDevice(opt_.deviceId);
            deviceSet_ = false;
        }
        if (inited_) {
            (void)aclFinalize();
            inited_ = false;
            INFO_LOG("end to finalize acl");
        }
    }

private:
    Options opt_;
    bool inited_ = false;
    bool deviceSet_ = false;
    aclrtContext context_ = nullptr;
    aclrtStream stream_ = nullptr;
    void *deviceBuffer_ = nullptr;
    void *hostBuffer_ = nullptr;
    size_t lastFree_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
    Options opt;
    if (!ParseOptions(argc, argv, opt)) {
        ERROR_LOG("usage: %s --device_id N --memory_size BYTES --number_of_cycles N --release_cycle N "
                  "[--memory_reuse 0|1]", argv[0]);
        return 1;
    }
    Sample sample(opt);
    if (!sample.Init() || !sample.Run()) {
        const char *msg = aclGetRecentErrMsg();
        ERROR_LOG("sample failed: %s", msg != nullptr ? msg : "(no message)");
        return 1;
    }
    sample.Release();
    INFO_LOG("sample finished successfully");
    return 0;
}
