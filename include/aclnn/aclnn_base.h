/* SPDX-License-Identifier: MIT */
/*
 * aclnn/aclnn_base.h - set-up of CANN's aclnn API (libnnopbase.so), and
 * the objects of acl_meta.h. Every aclnnop/aclnn_<op>.h includes it.
 */
#ifndef VNPU_ACLNN_ACLNN_BASE_H
#define VNPU_ACLNN_ACLNN_BASE_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional: aclnn works without it. @configPath may be NULL; a path must
 * name a readable file (its contents are not interpreted). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNN_ACLNN_BASE_H */
