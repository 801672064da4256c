/* SPDX-License-Identifier: MIT */
/*
 * aclnnop/aclnn_util.h - what every operator header shares: ACLNN_API,
 * the export mark of libopapi.so's functions.
 */
#ifndef VNPU_ACLNNOP_ACLNN_UTIL_H
#define VNPU_ACLNNOP_ACLNN_UTIL_H

#include "aclnn/aclnn_base.h"

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UTIL_H */
