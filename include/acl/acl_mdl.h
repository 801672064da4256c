/* SPDX-License-Identifier: MIT */
/*
 * vnpu — model execution part of the Ascend CANN ACL API.
 *
 * vnpu does NOT provide model APIs: no aclmdl* function (model loading,
 * execution, datasets, model descriptions) exists in its libascendcl, and
 * none is declared here. acl.h includes this header, as in CANN, and it
 * declares only the opaque model types, so that programs which include
 * acl.h and merely mention these types keep compiling. A program that calls
 * an aclmdl* function fails to compile (or, with an implicit declaration, to
 * link) against vnpu.
 */
#ifndef VNPU_ACL_ACL_MDL_H
#define VNPU_ACL_ACL_MDL_H

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlAIPP aclmdlAIPP;
typedef struct aclAippExtendInfo aclAippExtendInfo;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
typedef struct aclmdlExecConfigHandle aclmdlExecConfigHandle;
typedef struct aclmdlBundleQueryInfo aclmdlBundleQueryInfo;
typedef void *aclmdlModel;

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_MDL_H */
