/* SPDX-License-Identifier: MIT */
/*
 * rt_kind.h - what an aclrtMemcpyKind means for two given addresses.
 */
#ifndef VNPU_LIB_RT_KIND_H
#define VNPU_LIB_RT_KIND_H

/* Where an address lies: host memory (pageable or aclrtMallocHost) or
 * device memory (aclrtMalloc). */
enum rt_loc {
	RT_LOC_HOST,
	RT_LOC_DEVICE,
};

enum rt_dir {
	RT_DIR_H2H,
	RT_DIR_H2D,
	RT_DIR_D2H,
	RT_DIR_D2D,
};

enum {
	RT_KIND_OK = 0,
	RT_KIND_UNKNOWN = -1,	  /* not an aclrtMemcpyKind value */
	RT_KIND_MISMATCH = -2,	  /* the kind contradicts the addresses */
};

/*
 * Check copy kind @kind against the locations of @dst and @src. On success
 * *@dir is the direction of the copy: the one the kind names, or for
 * ACL_MEMCPY_DEFAULT the one the locations give. *@staged is set for
 * ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (the host source must have been consumed
 * when the call returns).
 */
int rt_memcpy_direction(int kind, enum rt_loc dst, enum rt_loc src, enum rt_dir *dir, int *staged);

/* "ACL_MEMCPY_HOST_TO_DEVICE" etc., or "unknown". */
const char *rt_memcpy_kind_name(int kind);
const char *rt_loc_name(enum rt_loc loc);

#endif /* VNPU_LIB_RT_KIND_H */
