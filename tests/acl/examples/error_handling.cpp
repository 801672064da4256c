// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample of runtime error handling, in the shape of CANN's
 * quick-start "error handling" example: check every return value, provoke
 * a parameter error on purpose, read the thread's diagnostics
 * (aclrtPeekAtLastError, aclrtGetLastError, aclGetRecentErrMsg), then read
 * them again to show that reading consumed them.
 */
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stdout, "[ERROR] " fmt "\n", ##__VA_ARGS__)

#define CHECK_ACL(call)                                                         \
    do {                                                                        \
        aclError checkRet = (call);                                             \
        if (checkRet != ACL_SUCCESS) {                                          \
            ERROR_LOG("%s failed: ret=%d", #call, static_cast<int>(checkRet)); \
            return 1;                                                           \
        }                                                                       \
    } while (0)

static const char *OrNull(const char *s)
{
    return s != nullptr ? s : "<null>";
}

int main()
{
    const int32_t deviceId = 0;

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(deviceId));
    INFO_LOG("acl initialised, device %d set", deviceId);

    aclrtRunMode mode = ACL_DEVICE;
    CHECK_ACL(aclrtGetRunMode(&mode));
    INFO_LOG("run mode: %s", mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE");

    INFO_LOG("calling aclrtGetRunMode(nullptr) on purpose");
    aclError ret = aclrtGetRunMode(nullptr);
    if (ret == ACL_SUCCESS) {
        ERROR_LOG("aclrtGetRunMode(nullptr) unexpectedly succeeded");
        return 1;
    }
    aclError peeked = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    aclError last = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    const char *msg = aclGetRecentErrMsg();
    ERROR_LOG("diagnostics: ret=%d, peekErr=%d, lastErr=%d, recentErrMsg=%s", static_cast<int>(ret),
              static_cast<int>(peeked), static_cast<int>(last), OrNull(msg));

    peeked = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    last = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    msg = aclGetRecentErrMsg();
    INFO_LOG("after reading them once: peekErr=%d, lastErr=%d, recentErrMsg=%s", static_cast<int>(peeked),
             static_cast<int>(last), OrNull(msg));

    /* An invalid device is reported with the runtime's code. */
    ret = aclrtSetDevice(1000);
    INFO_LOG("aclrtSetDevice(1000): ret=%d, recentErrMsg=%s", static_cast<int>(ret), OrNull(aclGetRecentErrMsg()));

    CHECK_ACL(aclrtResetDeviceForce(deviceId));
    CHECK_ACL(aclFinalize());
    INFO_LOG("acl finalized");
    return 0;
}
