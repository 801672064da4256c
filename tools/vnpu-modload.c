// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-modload - load a freshly built module (and the modules it depends
 * on) or unload a module, with libkmod, and start or stop the engine
 * server that executes the devices' work. The guest runner uses it; it
 * works the same on a dev box.
 *
 *   vnpu-modload load [--no-engine] PATH.ko [PARAM=VALUE ...]
 *   vnpu-modload unload NAME
 *   vnpu-modload engine-start
 *   vnpu-modload engine-stop
 *
 * load starts vnpu-engined (unless --no-engine) as a daemon once the module
 * is in, and waits until it is attached to every vnpu device; unload stops
 * it first (the server holds the device open, so the module could not go).
 * The server is the vnpu-engined next to this program, or $VNPU_ENGINED;
 * its pidfile is /run/vnpu-engined.pid ($VNPU_ENGINED_PIDFILE), its log
 * /run/vnpu-engined.log ($VNPU_ENGINED_LOG).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libkmod.h>

#include "drv.h"
#include "vnpu_drm.h"

/* TCG guests are slow: attaching may take a while there. */
#define ENGINE_START_TIMEOUT_MS 20000
#define ENGINE_STOP_TIMEOUT_MS 10000
#define ENGINE_KILL_TIMEOUT_MS 5000
#define POLL_MS 50

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

/* ---- the engine server ---------------------------------------------------------- */

struct engine_paths {
	char bin[PATH_MAX];
	const char *pidfile;
	const char *log;
};

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

/* vnpu-engined: $VNPU_ENGINED, else next to this program. */
static int engine_paths(struct engine_paths *p)
{
	const char *bin = getenv("VNPU_ENGINED");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	p->pidfile = env_or("VNPU_ENGINED_PIDFILE", "/run/vnpu-engined.pid");
	p->log = env_or("VNPU_ENGINED_LOG", "/run/vnpu-engined.log");
	if (bin && *bin) {
		snprintf(p->bin, sizeof(p->bin), "%s", bin);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		fprintf(stderr, "vnpu-modload: /proc/self/exe: %s\n", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	if (snprintf(p->bin, sizeof(p->bin), "%s/vnpu-engined", slash ? self : ".") >=
	    (int)sizeof(p->bin)) {
		fprintf(stderr, "vnpu-modload: path of vnpu-engined too long\n");
		return -1;
	}
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The pid in @path, or 0 when there is none. */
static pid_t read_pidfile(const char *path)
{
	FILE *f = fopen(path, "r");
	long pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1 || pid <= 0 || pid > INT_MAX)
		pid = 0;
	fclose(f);
	return (pid_t)pid;
}

/* @pid runs and is a vnpu-engined (a zombie has closed its files: not running). */
static bool engine_running(pid_t pid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok || !strstr(buf, "(vnpu-engined)"))
		return false;
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

struct attach_count {
	uint64_t seen;			/* device indexes counted */
	unsigned int attached, total;
};

static int count_node(const char *path, int fd, void *arg)
{
	struct attach_count *c = arg;
	uint64_t index, n, on;

	(void)path;
	if (drv_get_param(fd, VNPU_PARAM_DEVICE_INDEX, &index) || index >= 64 ||
	    (c->seen & (1ull << index)))
		return DRV_NODE_NEXT;
	c->seen |= 1ull << index;
	if (!drv_get_param(fd, VNPU_PARAM_NUM_DEVICES, &n))
		c->total = (unsigned int)n;
	if (!drv_get_param(fd, VNPU_PARAM_ENGINE_ATTACHED, &on) && on == 1)
		c->attached++;
	return DRV_NODE_NEXT;
}

/* Count the vnpu devices and those with an engine server attached. */
static void count_attached(unsigned int *attached, unsigned int *total)
{
	struct attach_count c = { 0 };

	drv_nodes(count_node, &c);
	*attached = c.attached;
	*total = c.total;
}

/* Print the end of the server's log, where it says why it failed. */
static void show_log(const char *log)
{
	char lines[10][256];
	unsigned int n = 0, i;
	FILE *f = fopen(log, "r");

	if (!f)
		return;
	while (fgets(lines[n % 10], sizeof(lines[0]), f))
		n++;
	fclose(f);
	for (i = n > 10 ? n - 10 : 0; i < n; i++)
		fprintf(stderr, "  %s%s", lines[i % 10],
			strchr(lines[i % 10], '\n') ? "" : "\n");
}

/* Wait until @pid exits (or is a zombie); false after @ms. */
static bool wait_gone(pid_t pid, unsigned int ms)
{
	unsigned int waited;

	for (waited = 0; waited < ms; waited += POLL_MS) {
		waitpid(pid, NULL, WNOHANG);	/* our child: reap it */
		if (!engine_running(pid))
			return true;
		sleep_ms(POLL_MS);
	}
	return !engine_running(pid);
}

/* SIGTERM, then SIGKILL: 0 once @pid is gone. */
static int stop_pid(pid_t pid)
{
	kill(pid, SIGTERM);
	if (wait_gone(pid, ENGINE_STOP_TIMEOUT_MS))
		return 0;
	fprintf(stderr, "vnpu-modload: vnpu-engined (pid %d) did not stop within %d s; killing it\n",
		(int)pid, ENGINE_STOP_TIMEOUT_MS / 1000);
	kill(pid, SIGKILL);
	if (wait_gone(pid, ENGINE_KILL_TIMEOUT_MS))
		return 0;
	fprintf(stderr, "vnpu-modload: vnpu-engined (pid %d) survived SIGKILL\n", (int)pid);
	return -1;
}

static int engine_stop(void)
{
	struct engine_paths p;
	pid_t pid;
	int ret = 0;

	if (engine_paths(&p))
		return -1;
	pid = read_pidfile(p.pidfile);
	if (!pid)
		return 0;
	if (engine_running(pid))
		ret = stop_pid(pid);
	/* The server removes it when it exits cleanly; a killed one cannot. */
	if (!ret)
		unlink(p.pidfile);
	return ret;
}

/*
 * Wait until the server (our child @pid) is attached to every vnpu device
 * and has written its pidfile: 0, or -1 if it exited or ran out of time.
 */
static int engine_wait(const struct engine_paths *p, pid_t pid)
{
	unsigned int waited, attached = 0, total = 0;
	int status;

	for (waited = 0; waited <= ENGINE_START_TIMEOUT_MS; waited += POLL_MS) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			if (WIFEXITED(status))
				fprintf(stderr, "vnpu-modload: vnpu-engined exited with status %d; "
					"its log (%s):\n", WEXITSTATUS(status), p->log);
			else
				fprintf(stderr, "vnpu-modload: vnpu-engined died of signal %d; "
					"its log (%s):\n", WTERMSIG(status), p->log);
			show_log(p->log);
			return -1;
		}
		count_attached(&attached, &total);
		if (total && attached == total && read_pidfile(p->pidfile) == pid)
			return 0;
		sleep_ms(POLL_MS);
	}
	if (total)
		fprintf(stderr, "vnpu-modload: vnpu-engined did not attach to every vnpu device "
			"within %d s (%u of %u attached); its log (%s):\n",
			ENGINE_START_TIMEOUT_MS / 1000, attached, total, p->log);
	else
		fprintf(stderr, "vnpu-modload: no vnpu device appeared within %d s for "
			"vnpu-engined to attach to; its log (%s):\n",
			ENGINE_START_TIMEOUT_MS / 1000, p->log);
	show_log(p->log);
	stop_pid(pid);
	unlink(p->pidfile);
	return -1;
}

/* Start vnpu-engined as a daemon, logging to p->log. */
static pid_t engine_spawn(const struct engine_paths *p)
{
	int null_fd, log_fd;
	pid_t pid;

	if (access(p->bin, X_OK)) {
		fprintf(stderr, "vnpu-modload: no vnpu-engined at %s: %s (run make, or set "
			"VNPU_ENGINED)\n", p->bin, strerror(errno));
		return -1;
	}
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	log_fd = open(p->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (null_fd < 0 || log_fd < 0) {
		fprintf(stderr, "vnpu-modload: %s: %s\n", null_fd < 0 ? "/dev/null" : p->log,
			strerror(errno));
		pid = -1;
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "vnpu-modload: fork: %s\n", strerror(errno));
	} else if (!pid) {
		setsid();
		if (dup2(null_fd, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0)
			_exit(126);
		execl(p->bin, "vnpu-engined", "-p", p->pidfile, (char *)NULL);
		fprintf(stderr, "vnpu-modload: exec %s: %s\n", p->bin, strerror(errno));
		_exit(127);
	}
out:
	if (null_fd >= 0)
		close(null_fd);
	if (log_fd >= 0)
		close(log_fd);
	return pid;
}

static int engine_start(void)
{
	struct engine_paths p;
	pid_t pid;

	if (engine_paths(&p))
		return -1;
	pid = read_pidfile(p.pidfile);
	if (pid && engine_running(pid)) {
		fprintf(stderr, "vnpu-modload: vnpu-engined is already running (pid %d)\n",
			(int)pid);
		return 0;
	}
	pid = engine_spawn(&p);
	if (pid < 0)
		return -1;
	return engine_wait(&p, pid);
}

/* ---- the module ---------------------------------------------------------------- */

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

	/* The server holds the device open: stop it first. */
	engine_stop();
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
	fprintf(stderr, "usage: vnpu-modload load [--no-engine] PATH.ko [PARAM=VALUE ...]\n"
			"       vnpu-modload unload NAME\n"
			"       vnpu-modload engine-start\n"
			"       vnpu-modload engine-stop\n");
}

/* load: the module, then (unless --no-engine) the engine server. */
static int load(int argc, char **argv)
{
	bool engine = true;
	struct kmod_ctx *ctx;
	int ret;

	if (argc > 0 && !strcmp(argv[0], "--no-engine")) {
		engine = false;
		argc--;
		argv++;
	}
	if (argc < 1) {
		usage();
		return 2;
	}
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		fprintf(stderr, "vnpu-modload: cannot create a libkmod context\n");
		return 1;
	}
	ret = cmd_load(ctx, argv[0], argc - 1, argv + 1);
	kmod_unref(ctx);
	if (!ret && engine && engine_start())
		ret = 1;
	return ret;
}

static int unload(const char *name)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	int ret;

	if (!ctx) {
		fprintf(stderr, "vnpu-modload: cannot create a libkmod context\n");
		return 1;
	}
	ret = cmd_unload(ctx, name);
	kmod_unref(ctx);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "engine-start"))
		return engine_start() ? 1 : 0;
	if (argc == 2 && !strcmp(argv[1], "engine-stop"))
		return engine_stop() ? 1 : 0;
	if (argc >= 3 && !strcmp(argv[1], "load"))
		return load(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "unload"))
		return unload(argv[2]);
	usage();
	return 2;
}
