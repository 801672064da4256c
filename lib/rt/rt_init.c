// SPDX-License-Identifier: MIT
/*
 * rt_init.c - aclInit/aclFinalize reference counting and the configuration.
 *
 * As in CANN: a repeated aclInit counts a reference and returns
 * ACL_ERROR_REPEAT_INITIALIZE (the first configuration stays in effect);
 * aclFinalize tears down at once whatever the count; aclFinalizeReference
 * drops one reference and tears down at zero; finalising with no reference
 * left returns ACL_ERROR_REPEAT_FINALIZE. Initialising again after a
 * finalisation with a configuration whose text differs from the first
 * aclInit's returns ACL_ERROR_INVALID_PARAM.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rt.h"
#include "rt_config.h"

#define CONFIG_MAX_BYTES (16u << 20)

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t init_refs;
static char *first_config;	/* text of the first aclInit ("" for NULL) */
/* Set by a successful aclInit (RT_HAZARD_UNSET before). */
static atomic_int hazard_policy = RT_HAZARD_UNSET;

/*
 * VNPU_HAZARD_POLICY for programs that do not call aclInit: read once, the
 * first time a policy is needed (pthread_once publishes env_policy and
 * env_value to every thread that passes it).
 */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static int env_policy = RT_HAZARD_UNSET;
static bool env_invalid;
static char env_value[64];

static void read_env_policy(void)
{
	const char *env = getenv("VNPU_HAZARD_POLICY");

	if (!env || !*env)
		return;
	env_policy = rt_hazard_policy_from_string(env);
	if (env_policy == RT_HAZARD_UNSET) {
		env_invalid = true;
		snprintf(env_value, sizeof(env_value), "%s", env);
	}
}

aclError rt_hazard_policy(int *policy)
{
	int p = atomic_load(&hazard_policy);

	if (p == RT_HAZARD_UNSET) {
		pthread_once(&env_once, read_env_policy);
		if (env_invalid)
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "VNPU_HAZARD_POLICY=\"%s\": expected \"serialize\" or \"strict\"", env_value);
		p = env_policy == RT_HAZARD_UNSET ? RT_HAZARD_SERIALIZE : env_policy;
	}
	*policy = p;
	return ACL_SUCCESS;
}

/* Read the whole file at @path into a NUL-terminated buffer. */
static aclError read_config(const char *path, char **text, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return rt_err(ACL_ERROR_INVALID_FILE, "cannot open configuration file \"%s\": %s", path,
			      strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return rt_err(ACL_ERROR_INVALID_FILE, "\"%s\" is not a regular file", path);
	}
	if ((uint64_t)st.st_size > CONFIG_MAX_BYTES) {
		fclose(f);
		return rt_err(ACL_ERROR_INVALID_FILE_SIZE, "configuration file \"%s\" is larger than %u bytes",
			      path, CONFIG_MAX_BYTES);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(f);
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of memory reading \"%s\"", path);
	}
	while (got < (size_t)st.st_size) {
		size_t n = fread(buf + got, 1, (size_t)st.st_size - got, f);

		if (!n)
			break;
		got += n;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return rt_err(ACL_ERROR_INVALID_FILE, "cannot read configuration file \"%s\"", path);
	}
	fclose(f);
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return ACL_SUCCESS;
}

static aclError load_config(const char *path, char **text_out, int *policy)
{
	struct rt_config cfg = { .hazard_policy = RT_HAZARD_UNSET };
	const char *env;
	char err[128];
	size_t len = 0;
	char *text = NULL;
	aclError ret;
	int r;

	if (!path) {
		text = strdup("");
		if (!text)
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of memory");
	} else {
		ret = read_config(path, &text, &len);
		if (ret)
			return ret;
		r = rt_config_parse(text, len, &cfg, err, sizeof(err));
		if (r) {
			free(text);
			if (r == RT_CONFIG_BAD_VALUE)
				return rt_err(ACL_ERROR_FILE_ATTR_INVALID, "configuration file \"%s\": %s", path,
					      err);
			return rt_err(ACL_ERROR_PARSE_FILE, "configuration file \"%s\" is not valid JSON: %s",
				      path, err);
		}
	}

	*policy = cfg.hazard_policy == RT_HAZARD_UNSET ? RT_HAZARD_SERIALIZE : cfg.hazard_policy;
	env = getenv("VNPU_HAZARD_POLICY");
	if (env && *env) {
		int p = rt_hazard_policy_from_string(env);

		if (p == RT_HAZARD_UNSET) {
			free(text);
			return rt_err(ACL_ERROR_INVALID_PARAM,
				      "VNPU_HAZARD_POLICY=\"%s\": expected \"serialize\" or \"strict\"", env);
		}
		*policy = p;
	}
	*text_out = text;
	return ACL_SUCCESS;
}

aclError rt_init(const char *config_path)
{
	aclError ret = ACL_SUCCESS;
	char *text = NULL;
	int policy;

	pthread_mutex_lock(&init_lock);
	if (init_refs > 0) {
		init_refs++;
		ret = rt_err(ACL_ERROR_REPEAT_INITIALIZE,
			     "the library is already initialised; the first configuration stays in effect");
		goto out;
	}
	ret = load_config(config_path, &text, &policy);
	if (ret)
		goto out;
	if (first_config && strcmp(first_config, text)) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM,
			     "the configuration differs from the one of the first aclInit of this process");
		free(text);
		goto out;
	}
	if (!first_config)
		first_config = text;
	else
		free(text);
	atomic_store(&hazard_policy, policy);
	init_refs = 1;
out:
	pthread_mutex_unlock(&init_lock);
	return ret;
}

aclError rt_finalize(bool by_reference, uint64_t *remaining)
{
	aclError ret = ACL_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (init_refs == 0) {
		if (remaining)
			*remaining = 0;
		ret = rt_err(ACL_ERROR_REPEAT_FINALIZE, "the library is not initialised (aclInit was not called, "
			     "or aclFinalize was already called)");
		goto out;
	}
	if (by_reference && --init_refs > 0) {
		if (remaining)
			*remaining = init_refs;
		goto out;
	}
	init_refs = 0;
	rt_device_reset_all();
	if (remaining)
		*remaining = 0;
out:
	pthread_mutex_unlock(&init_lock);
	return ret;
}

bool rt_initialised(const char **config)
{
	bool on;

	pthread_mutex_lock(&init_lock);
	on = init_refs > 0;
	/* first_config never changes once set, so the pointer stays valid. */
	if (config)
		*config = first_config ? first_config : "";
	pthread_mutex_unlock(&init_lock);
	return on;
}
