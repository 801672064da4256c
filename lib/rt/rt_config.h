/* SPDX-License-Identifier: MIT */
/*
 * rt_config.h - aclInit() configuration: a JSON object. The whole text is
 * validated (RFC 8259 syntax, nesting up to 64 levels, top level an object);
 * keys vnpu does not know (CANN's dump, profiling, ... sections) are
 * accepted and ignored. vnpu reads one option:
 *
 *     { "vnpu": { "hazard_policy": "serialize" | "strict" } }
 *
 * the policy applied to every stream the runtime creates when an operator's
 * workspace is still in use by another stream's running work (see
 * VNPU_STREAM_PARAM_HAZARD_POLICY). The environment variable
 * VNPU_HAZARD_POLICY (same values) overrides the file.
 */
#ifndef VNPU_LIB_RT_CONFIG_H
#define VNPU_LIB_RT_CONFIG_H

#include <stddef.h>

enum rt_hazard_policy {
	RT_HAZARD_UNSET = -1,
	RT_HAZARD_SERIALIZE = 0,
	RT_HAZARD_STRICT = 1,
};

struct rt_config {
	int hazard_policy; /* enum rt_hazard_policy */
};

enum {
	RT_CONFIG_OK = 0,
	RT_CONFIG_SYNTAX = -1, /* not valid JSON, or not an object */
	RT_CONFIG_BAD_VALUE = -2, /* valid JSON, but a vnpu option is wrong */
};

/*
 * Parse @len bytes of @text into @cfg (fields not present stay unset).
 * On failure returns RT_CONFIG_SYNTAX or RT_CONFIG_BAD_VALUE and describes
 * the problem, with its byte offset, in @err.
 */
int rt_config_parse(const char *text, size_t len, struct rt_config *cfg, char *err, size_t errlen);

/* "serialize" or "strict" -> the policy; anything else RT_HAZARD_UNSET. */
int rt_hazard_policy_from_string(const char *s);

#endif /* VNPU_LIB_RT_CONFIG_H */
