/* SPDX-License-Identifier: MIT */
/*
 * vnpu — umbrella header of the Ascend CANN ACL API, as in CANN:
 * the runtime (acl_rt.h, which also brings acl_base.h and
 * acl_rt_allocator.h), single-operator execution (acl_op.h) and the model
 * types (acl_mdl.h; vnpu provides no model functions).
 * Online compile-and-execute is declared separately in acl_op_compiler.h.
 */
#ifndef VNPU_ACL_ACL_H
#define VNPU_ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* VNPU_ACL_ACL_H */
