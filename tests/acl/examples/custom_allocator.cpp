// SPDX-License-Identifier: MIT
/*
 * A CANN-style sample of the allocator registry, in the shape of CANN's
 * runtime sample "custom allocator" (memory_advanced/allocator): a user
 * allocator whose block is an {address, size} pair is described, registered
 * for a stream, and fetched back with aclrtAllocatorGetByStream; the program
 * then calls the callbacks it got back itself (alloc, getAddrFromBlock,
 * allocAdvise, free twice) and prints what they did. The registry alone is
 * exercised, so, as in CANN's sample, plain host memory stands in for the
 * allocator's device memory (nothing here reaches the device).
 */
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stdout, "[ERROR] " fmt "\n", ##__VA_ARGS__)

#define CHECK_ERROR(call)                                                       \
    do {                                                                        \
        aclError checkRet = (call);                                             \
        if (checkRet != ACL_SUCCESS) {                                          \
            ERROR_LOG("%s failed: ret=%d", #call, static_cast<int>(checkRet)); \
            return 1;                                                           \
        }                                                                       \
    } while (0)

namespace {

struct UserBlock {
    void *addr;
    size_t size;
};

struct UserAllocator {
    unsigned int allocCount;
    unsigned int freeCount;
};

void *UserAlloc(aclrtAllocator allocator, size_t size)
{
    UserAllocator *self = static_cast<UserAllocator *>(allocator);
    UserBlock *block = static_cast<UserBlock *>(std::malloc(sizeof(UserBlock)));

    INFO_LOG("CustomAlloc size=%zu", size);
    if (block == nullptr) {
        return nullptr;
    }
    block->addr = std::malloc(size);
    if (block->addr == nullptr) {
        std::free(block);
        return nullptr;
    }
    block->size = size;
    self->allocCount++;
    return block;
}

void UserFree(aclrtAllocator allocator, aclrtAllocatorBlock block)
{
    UserAllocator *self = static_cast<UserAllocator *>(allocator);
    UserBlock *b = static_cast<UserBlock *>(block);

    INFO_LOG("CustomFree invoked");
    if (b == nullptr) {
        return;
    }
    std::free(b->addr);
    std::free(b);
    self->freeCount++;
}

// The hint is not used: a new block is allocated whatever the address.
void *UserAllocAdvise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)
{
    (void)addr;
    INFO_LOG("CustomAllocAdvise size=%zu", size);
    return UserAlloc(allocator, size);
}

void *UserGetAddrFromBlock(aclrtAllocatorBlock block)
{
    return block != nullptr ? static_cast<UserBlock *>(block)->addr : nullptr;
}

} // namespace

int main()
{
    const int32_t deviceId = 0;
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    UserAllocator user = {0, 0};

    CHECK_ERROR(aclInit(nullptr));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclrtCreateStream(&stream));
    INFO_LOG("device %d, context and stream ready", deviceId);

    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    if (desc == nullptr) {
        ERROR_LOG("aclrtAllocatorCreateDesc failed");
        return 1;
    }
    CHECK_ERROR(aclrtAllocatorSetObjToDesc(desc, &user));
    CHECK_ERROR(aclrtAllocatorSetAllocFuncToDesc(desc, UserAlloc));
    CHECK_ERROR(aclrtAllocatorSetFreeFuncToDesc(desc, UserFree));
    CHECK_ERROR(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, UserAllocAdvise));
    CHECK_ERROR(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, UserGetAddrFromBlock));
    CHECK_ERROR(aclrtAllocatorRegister(stream, desc));
    INFO_LOG("allocator registered for the stream");

    aclrtAllocatorDesc descOut = nullptr;
    aclrtAllocator allocatorOut = nullptr;
    aclrtAllocatorAllocFunc allocFunc = nullptr;
    aclrtAllocatorFreeFunc freeFunc = nullptr;
    aclrtAllocatorAllocAdviseFunc allocAdviseFunc = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc getAddrFunc = nullptr;
    CHECK_ERROR(aclrtAllocatorGetByStream(stream, &descOut, &allocatorOut, &allocFunc, &freeFunc,
                                          &allocAdviseFunc, &getAddrFunc));
    if (descOut != desc || allocatorOut != &user || allocFunc != UserAlloc || freeFunc != UserFree ||
        allocAdviseFunc != UserAllocAdvise || getAddrFunc != UserGetAddrFromBlock) {
        ERROR_LOG("aclrtAllocatorGetByStream did not return what was registered");
        return 1;
    }
    INFO_LOG("aclrtAllocatorGetByStream returned the registered descriptor, object and callbacks");

    // Use the allocator through the callbacks fetched from the stream.
    aclrtAllocatorBlock block = allocFunc(allocatorOut, 256);
    void *addr = getAddrFunc(block);
    if (block == nullptr || addr == nullptr) {
        ERROR_LOG("the allocator gave no block of 256 bytes");
        return 1;
    }
    aclrtAllocatorBlock advised = allocAdviseFunc(allocatorOut, 128, addr);
    if (advised == nullptr || getAddrFunc(advised) == nullptr) {
        ERROR_LOG("the allocator gave no block of 128 bytes");
        return 1;
    }
    freeFunc(allocatorOut, advised);
    freeFunc(allocatorOut, block);
    INFO_LOG("allocCount=%u, freeCount=%u", user.allocCount, user.freeCount);

    CHECK_ERROR(aclrtAllocatorUnregister(stream));
    CHECK_ERROR(aclrtAllocatorDestroyDesc(desc));
    aclError ret = aclrtAllocatorGetByStream(stream, &descOut, nullptr, nullptr, nullptr, nullptr, nullptr);
    INFO_LOG("after aclrtAllocatorUnregister, aclrtAllocatorGetByStream: ret=%d", static_cast<int>(ret));
    if (ret == ACL_SUCCESS) {
        return 1;
    }

    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    INFO_LOG("sample finished");
    return 0;
}
