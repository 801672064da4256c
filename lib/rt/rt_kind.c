// SPDX-License-Identifier: MIT
/*
 * rt_kind.c - memcpy kind checking and direction inference.
 */
#include "acl/acl_rt.h"
#include "rt_kind.h"

static enum rt_dir dir_of(enum rt_loc dst, enum rt_loc src)
{
	if (src == RT_LOC_HOST)
		return dst == RT_LOC_HOST ? RT_DIR_H2H : RT_DIR_H2D;
	return dst == RT_LOC_HOST ? RT_DIR_D2H : RT_DIR_D2D;
}

int rt_memcpy_direction(int kind, enum rt_loc dst, enum rt_loc src, enum rt_dir *dir, int *staged)
{
	enum rt_dir actual = dir_of(dst, src);
	enum rt_dir wanted;

	*staged = 0;
	switch (kind) {
	case ACL_MEMCPY_HOST_TO_HOST:
		wanted = RT_DIR_H2H;
		break;
	case ACL_MEMCPY_HOST_TO_DEVICE:
		wanted = RT_DIR_H2D;
		break;
	case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
		wanted = RT_DIR_H2D;
		*staged = 1;
		break;
	case ACL_MEMCPY_DEVICE_TO_HOST:
		wanted = RT_DIR_D2H;
		break;
	case ACL_MEMCPY_DEVICE_TO_DEVICE:
	case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
	case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
		wanted = RT_DIR_D2D;
		break;
	case ACL_MEMCPY_DEFAULT:
		wanted = actual;
		break;
	default:
		return RT_KIND_UNKNOWN;
	}
	if (wanted != actual)
		return RT_KIND_MISMATCH;
	*dir = actual;
	return RT_KIND_OK;
}

const char *rt_memcpy_kind_name(int kind)
{
	switch (kind) {
	case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
	case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
	case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
	case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
	case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
	case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
	case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
	case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
	default: return "unknown";
	}
}

const char *rt_loc_name(enum rt_loc loc)
{
	return loc == RT_LOC_DEVICE ? "device" : "host";
}
