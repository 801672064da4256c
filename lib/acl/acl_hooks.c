// SPDX-License-Identifier: MIT
/*
 * acl_hooks.c - application callbacks at the library's own life-cycle
 * points: device state (aclrtRegDeviceStateCallback) around
 * aclrtSetDevice/aclrtResetDevice, and init/finalize callbacks around
 * aclInit/aclFinalize.
 *
 * Each registry is a small array under its own lock. Callbacks are run
 * from a copy taken under the lock and called with no lock held, so a
 * callback may register, unregister or call any ACL function; the
 * calling thread's error state is saved around each call, so what a
 * callback's own calls leave behind does not become the API call's.
 */
#include <string.h>

#include "acl_internal.h"

#define HOOKS_MAX 32
#define HOOK_NAME_MAX 128

/* ---- device state callbacks ---------------------------------------------- */

struct devstate_hook {
	char name[HOOK_NAME_MAX];
	aclrtDeviceStateCallback fn;
	void *args;
};

static pthread_mutex_t devstate_lock = PTHREAD_MUTEX_INITIALIZER;
static struct devstate_hook devstate[HOOKS_MAX];
static unsigned int ndevstate;

aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback, void *args)
{
	aclError ret = ACL_SUCCESS;
	unsigned int i;

	ACL_ENTER();
	ACL_REQUIRE(regName);
	if (!*regName || strlen(regName) >= HOOK_NAME_MAX)
		return rt_err(ACL_ERROR_INVALID_PARAM, "regName must have 1 to %d characters", HOOK_NAME_MAX - 1);
	pthread_mutex_lock(&devstate_lock);
	for (i = 0; i < ndevstate && strcmp(devstate[i].name, regName); i++)
		;
	if (!callback) {
		if (i == ndevstate) {
			ret = rt_err(ACL_ERROR_INVALID_PARAM, "no device state callback is registered as \"%s\"",
				     regName);
		} else {
			/* Keep registration order: later ones move up. */
			memmove(&devstate[i], &devstate[i + 1], (ndevstate - i - 1) * sizeof(devstate[0]));
			ndevstate--;
		}
	} else if (i < ndevstate) {
		ret = rt_err(ACL_ERROR_INVALID_PARAM, "a device state callback is already registered as \"%s\"",
			     regName);
	} else if (ndevstate == HOOKS_MAX) {
		ret = rt_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "%d device state callbacks are registered already",
			     HOOKS_MAX);
	} else {
		strcpy(devstate[ndevstate].name, regName);
		devstate[ndevstate].fn = callback;
		devstate[ndevstate].args = args;
		ndevstate++;
	}
	pthread_mutex_unlock(&devstate_lock);
	return ret;
}

void acl_devstate_notify(int32_t device, aclrtDeviceState state)
{
	struct devstate_hook copy[HOOKS_MAX];
	struct rt_errsave save;
	unsigned int n, i;

	pthread_mutex_lock(&devstate_lock);
	n = ndevstate;
	memcpy(copy, devstate, n * sizeof(copy[0]));
	pthread_mutex_unlock(&devstate_lock);
	for (i = 0; i < n; i++) {
		rt_err_save(&save);
		copy[i].fn(device, state, copy[i].args);
		rt_err_restore(&save);
	}
}

/* ---- init and finalize callbacks ----------------------------------------- */

/* One registry of (type, function, user data); @fn is an aclInitCallbackFunc
 * or an aclFinalizeCallbackFunc, stored as a generic pointer pair. */
struct life_hook {
	aclRegisterCallbackType type;
	void (*fn)(void);
	void *data;
};

struct life_hooks {
	pthread_mutex_t lock;
	struct life_hook h[HOOKS_MAX];
	unsigned int n;
	const char *what;
};

static struct life_hooks init_hooks = { PTHREAD_MUTEX_INITIALIZER, { { 0 } }, 0, "init" };
static struct life_hooks fini_hooks = { PTHREAD_MUTEX_INITIALIZER, { { 0 } }, 0, "finalize" };

static bool known_type(aclRegisterCallbackType type)
{
	return (type >= ACL_REG_TYPE_ACL_MODEL && type <= ACL_REG_TYPE_ACL_RETR) || type == ACL_REG_TYPE_OTHER;
}

static aclError hook_add(struct life_hooks *l, aclRegisterCallbackType type, void (*fn)(void), void *data)
{
	aclError ret = ACL_SUCCESS;
	unsigned int i;

	if (!known_type(type))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclRegisterCallbackType", (int)type);
	pthread_mutex_lock(&l->lock);
	for (i = 0; i < l->n && (l->h[i].type != type || l->h[i].fn != fn); i++)
		;
	if (i < l->n)
		l->h[i].data = data;
	else if (l->n == HOOKS_MAX)
		ret = rt_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "%d %s callbacks are registered already", HOOKS_MAX,
			     l->what);
	else
		l->h[l->n++] = (struct life_hook){ type, fn, data };
	pthread_mutex_unlock(&l->lock);
	return ret;
}

static aclError hook_remove(struct life_hooks *l, aclRegisterCallbackType type, void (*fn)(void))
{
	unsigned int i;

	if (!known_type(type))
		return rt_err(ACL_ERROR_INVALID_PARAM, "%d is not an aclRegisterCallbackType", (int)type);
	pthread_mutex_lock(&l->lock);
	for (i = 0; i < l->n && (l->h[i].type != type || l->h[i].fn != fn); i++)
		;
	if (i < l->n) {
		memmove(&l->h[i], &l->h[i + 1], (l->n - i - 1) * sizeof(l->h[0]));
		l->n--;
	}
	pthread_mutex_unlock(&l->lock);
	return ACL_SUCCESS;
}

static unsigned int hook_copy(struct life_hooks *l, struct life_hook *copy)
{
	unsigned int n;

	pthread_mutex_lock(&l->lock);
	n = l->n;
	memcpy(copy, l->h, n * sizeof(copy[0]));
	pthread_mutex_unlock(&l->lock);
	return n;
}

static aclError call_init(aclInitCallbackFunc fn, const char *config, void *data)
{
	struct rt_errsave save;
	aclError ret;

	rt_err_save(&save);
	ret = fn(config, strlen(config), data);
	rt_err_restore(&save);
	return ret;
}

aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData)
{
	const char *config;
	aclError ret;

	ACL_ENTER();
	ACL_REQUIRE(cbFunc);
	ret = hook_add(&init_hooks, type, (void (*)(void))cbFunc, userData);
	if (ret || !rt_initialised(&config))
		return ret;
	/* Registered after aclInit: it runs now. */
	ret = call_init(cbFunc, config, userData);
	if (ret)
		return rt_err(ret, "the init callback returned %d", ret);
	return ACL_SUCCESS;
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc)
{
	ACL_ENTER();
	ACL_REQUIRE(cbFunc);
	return hook_remove(&init_hooks, type, (void (*)(void))cbFunc);
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void *userData)
{
	ACL_ENTER();
	ACL_REQUIRE(cbFunc);
	return hook_add(&fini_hooks, type, (void (*)(void))cbFunc, userData);
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc)
{
	ACL_ENTER();
	ACL_REQUIRE(cbFunc);
	return hook_remove(&fini_hooks, type, (void (*)(void))cbFunc);
}

aclError acl_init_hooks_run(void)
{
	struct life_hook copy[HOOKS_MAX];
	const char *config = "";
	aclError first = ACL_SUCCESS, ret;
	unsigned int n, i;

	(void)rt_initialised(&config);
	n = hook_copy(&init_hooks, copy);
	for (i = 0; i < n; i++) {
		ret = call_init((aclInitCallbackFunc)copy[i].fn, config, copy[i].data);
		if (ret && !first)
			first = rt_err(ret, "init callback %u of %u returned %d", i + 1, n, ret);
	}
	return first;
}

aclError acl_finalize_hooks_run(void)
{
	struct life_hook copy[HOOKS_MAX];
	aclError first = ACL_SUCCESS, ret;
	struct rt_errsave save;
	unsigned int n, i;

	n = hook_copy(&fini_hooks, copy);
	for (i = 0; i < n; i++) {
		rt_err_save(&save);
		ret = ((aclFinalizeCallbackFunc)copy[i].fn)(copy[i].data);
		rt_err_restore(&save);
		if (ret && !first)
			first = rt_err(ret, "finalize callback %u of %u returned %d", i + 1, n, ret);
	}
	return first;
}
