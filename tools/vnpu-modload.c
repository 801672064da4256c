// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-modload - load a freshly built module (and the modules it depends
 * on) or unload a module, with libkmod. The guest runner uses it; it works
 * the same on a dev box.
 *
 *   vnpu-modload load PATH.ko [PARAM=VALUE ...]
 *   vnpu-modload unload NAME
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libkmod.h>

static int load_dependency(struct kmod_ctx *ctx, const char *name)
{
	struct kmod_list *list = NULL, *it;
	int ret;

	ret = kmod_module_new_from_lookup(ctx, name, &list);
	if (ret < 0 || !list) {
		fprintf(stderr, "vnpu-modload: dependency %s not found\n", name);
		return -1;
	}
	kmod_list_foreach(it, list) {
		struct kmod_module *dep = kmod_module_get_module(it);

		ret = kmod_module_probe_insert_module(dep, KMOD_PROBE_IGNORE_LOADED,
						      NULL, NULL, NULL, NULL);
		kmod_module_unref(dep);
		if (ret < 0) {
			fprintf(stderr, "vnpu-modload: loading %s: %s\n", name,
				strerror(-ret));
			break;
		}
	}
	kmod_module_unref_list(list);
	return ret < 0 ? -1 : 0;
}

/* Load what the module's "depends" field names, each with its own deps. */
static int load_dependencies(struct kmod_ctx *ctx, struct kmod_module *mod)
{
	struct kmod_list *info = NULL, *it;
	int ret = 0;

	if (kmod_module_get_info(mod, &info) < 0) {
		fprintf(stderr, "vnpu-modload: cannot read module info\n");
		return -1;
	}
	kmod_list_foreach(it, info) {
		const char *key = kmod_module_info_get_key(it);
		const char *value = kmod_module_info_get_value(it);
		char *names, *name, *save = NULL;

		if (strcmp(key, "depends") || !value || !*value)
			continue;
		names = strdup(value);
		if (!names) {
			ret = -1;
			break;
		}
		for (name = strtok_r(names, ",", &save); name && !ret;
		     name = strtok_r(NULL, ",", &save))
			ret = load_dependency(ctx, name);
		free(names);
	}
	kmod_module_info_free_list(info);
	return ret;
}

static char *join_params(int argc, char **argv)
{
	size_t len = 1;
	char *out;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	out = calloc(1, len);
	if (!out)
		return NULL;
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, argv[i]);
	}
	return out;
}

static int cmd_load(struct kmod_ctx *ctx, const char *path, int argc, char **argv)
{
	struct kmod_module *mod;
	char *params;
	int ret;

	ret = kmod_module_new_from_path(ctx, path, &mod);
	if (ret < 0) {
		fprintf(stderr, "vnpu-modload: %s: %s\n", path, strerror(-ret));
		return 1;
	}
	params = join_params(argc, argv);
	if (!params || load_dependencies(ctx, mod)) {
		ret = -1;
		goto out;
	}
	ret = kmod_module_insert_module(mod, 0, params);
	if (ret < 0)
		fprintf(stderr, "vnpu-modload: inserting %s (%s): %s\n", path,
			params, strerror(-ret));
out:
	free(params);
	kmod_module_unref(mod);
	return ret < 0 ? 1 : 0;
}

static int cmd_unload(struct kmod_ctx *ctx, const char *name)
{
	struct kmod_module *mod;
	int ret;

	ret = kmod_module_new_from_name(ctx, name, &mod);
	if (ret < 0) {
		fprintf(stderr, "vnpu-modload: %s: %s\n", name, strerror(-ret));
		return 1;
	}
	ret = kmod_module_remove_module(mod, 0);
	if (ret < 0)
		fprintf(stderr, "vnpu-modload: removing %s: %s (refcount %d)\n",
			name, strerror(-ret), kmod_module_get_refcnt(mod));
	kmod_module_unref(mod);
	return ret < 0 ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: vnpu-modload load PATH.ko [PARAM=VALUE ...]\n"
			"       vnpu-modload unload NAME\n");
}

int main(int argc, char **argv)
{
	struct kmod_ctx *ctx;
	int ret;

	if (argc < 3) {
		usage();
		return 2;
	}
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		fprintf(stderr, "vnpu-modload: cannot create a libkmod context\n");
		return 1;
	}
	if (!strcmp(argv[1], "load")) {
		ret = cmd_load(ctx, argv[2], argc - 3, argv + 3);
	} else if (!strcmp(argv[1], "unload") && argc == 3) {
		ret = cmd_unload(ctx, argv[2]);
	} else {
		usage();
		ret = 2;
	}
	kmod_unref(ctx);
	return ret;
}
