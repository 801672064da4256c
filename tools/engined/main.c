// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-engined - the engine server of vnpu devices: executes the work the
 * kernel module schedules (uapi/vnpu_drm.h, "DOC: engine interface").
 *
 *   vnpu-engined [-d N]... [-p PIDFILE] [-v | -q]
 *
 * Attaches to every vnpu device (or those given with -d), runs one worker
 * thread per engine, and serves until SIGTERM or SIGINT: then the workers
 * report the jobs they hold, the engine files are closed (which detaches;
 * the kernel fails whatever is still queued) and it exits 0. It stays in
 * the foreground: vnpu-modload and systemd start it as a daemon.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "engined.h"

struct options {
	unsigned int want[ENGINED_MAX_DEVICES];
	unsigned int nwant;
	const char *pidfile;
	enum log_level level;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: vnpu-engined [-d N]... [-p PIDFILE] [-v | -q]\n"
		   "  -d N        serve vnpu device N (repeatable; default: every vnpu device)\n"
		   "  -p PIDFILE  write the pid there once every device is attached; removed on exit\n"
		   "  -v          verbose: also log each job fault and buffer problem\n"
		   "  -q          quiet: log errors only\n"
		   "  -h          this text\n");
}

static int add_device(struct options *o, const char *arg)
{
	unsigned long n;
	unsigned int i;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || n >= ENGINED_MAX_DEVICES) {
		fprintf(stderr, "vnpu-engined: -d %s: not a device index (0..%u)\n", arg,
			ENGINED_MAX_DEVICES - 1);
		return -1;
	}
	for (i = 0; i < o->nwant; i++)
		if (o->want[i] == n)
			return 0;
	o->want[o->nwant++] = (unsigned int)n;
	return 0;
}

/* 0 to run, 1 to exit 0 (-h), -1 to exit 2. */
static int parse_options(int argc, char **argv, struct options *o)
{
	int c;

	o->level = LOG_INFO;
	while ((c = getopt(argc, argv, "d:p:vqh")) != -1) {
		switch (c) {
		case 'd':
			if (add_device(o, optarg))
				return -1;
			break;
		case 'p':
			o->pidfile = optarg;
			break;
		case 'v':
			o->level = LOG_DEBUG;
			break;
		case 'q':
			o->level = LOG_ERR;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

static int pidfile_write(const char *path)
{
	char line[32];
	int fd, len, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		log_err("pidfile %s: %s", path, strerror(-ret));
		return ret;
	}
	len = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	if (write(fd, line, (size_t)len) != len) {
		ret = -EIO;
		log_err("pidfile %s: cannot write it", path);
	}
	close(fd);
	return ret;
}

void engined_fail(struct engined *srv)
{
	uint64_t one = 1;

	atomic_store(&srv->failed, true);
	atomic_store(&srv->stop, true);
	if (write(srv->exit_efd, &one, sizeof(one)) < 0)
		log_err("cannot wake the main thread: %s", strerror(errno));
}

/* Block the stop signals in every thread; they are read from a signalfd. */
static int signals_init(int *sfd)
{
	sigset_t set;
	int ret;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	ret = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (ret)
		return -ret;
	signal(SIGPIPE, SIG_IGN);
	ret = worker_signals_init();
	if (ret)
		return ret;
	*sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return *sfd < 0 ? -errno : 0;
}

/* The stop signal waiting on @sfd, or 0. */
static int read_signal(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) != sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

static void drain(int efd)
{
	uint64_t n;

	if (read(efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		log_err("eventfd: %s", strerror(errno));
}

/* Serve until a stop signal or a fatal error. */
static void serve(struct engined *srv, int sfd)
{
	struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
			       { .fd = srv->exit_efd, .events = POLLIN } };

	while (!atomic_load(&srv->stop)) {
		int sig;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			log_err("poll: %s", strerror(errno));
			engined_fail(srv);
			break;
		}
		if (p[1].revents & POLLIN)
			drain(srv->exit_efd);
		sig = (p[0].revents & POLLIN) ? read_signal(sfd) : 0;
		if (sig) {
			log_info("%s: stopping", strsignal(sig));
			atomic_store(&srv->stop, true);
		}
	}
}

static bool all_exited(struct engined *srv)
{
	unsigned int i;

	for (i = 0; i < srv->ndevs; i++)
		if (!workers_exited(&srv->devs[i]))
			return false;
	return true;
}

/*
 * Make every worker stop: kick them until each has reported what it held
 * and ended. Returns false when a second stop signal asks to give up.
 */
static bool stop_workers(struct engined *srv, int sfd)
{
	struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
			       { .fd = srv->exit_efd, .events = POLLIN } };
	unsigned int i;

	atomic_store(&srv->stop, true);
	for (i = 0; i < srv->ndevs; i++)
		device_wake(&srv->devs[i]);
	while (!all_exited(srv)) {
		/* A kick can land just before a worker enters RUN: kick again. */
		for (i = 0; i < srv->ndevs; i++)
			workers_kick(&srv->devs[i]);
		if (poll(p, 2, 20) < 0 && errno != EINTR) {
			log_err("poll: %s", strerror(errno));
			return false;
		}
		if (p[1].revents & POLLIN)
			drain(srv->exit_efd);
		if ((p[0].revents & POLLIN) && read_signal(sfd)) {
			log_err("second stop signal: exiting without waiting for the workers");
			return false;
		}
	}
	return true;
}

static int start(struct engined *srv, const struct options *o)
{
	unsigned int i, workers = 0;
	int ret;

	ret = devices_find(srv, o->want, o->nwant);
	for (i = 0; i < srv->ndevs && !ret; i++)
		ret = device_attach(&srv->devs[i]);
	for (i = 0; i < srv->ndevs && !ret; i++) {
		ret = workers_start(&srv->devs[i]);
		workers += srv->devs[i].num_engines;
	}
	if (!ret && o->pidfile)
		ret = pidfile_write(o->pidfile);
	if (!ret)
		log_info("serving %u vnpu device%s with %u workers", srv->ndevs,
			 srv->ndevs == 1 ? "" : "s", workers);
	return ret;
}

int main(int argc, char **argv)
{
	struct engined srv = { 0 };
	struct options o = { 0 };
	int sfd = -1, ret;
	unsigned int i;
	bool clean;

	ret = parse_options(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	log_set_level(o.level);
	atomic_init(&srv.stop, false);
	atomic_init(&srv.failed, false);
	srv.exit_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = srv.exit_efd < 0 ? -errno : signals_init(&sfd);
	if (ret) {
		log_err("setting up: %s", strerror(-ret));
		return 1;
	}
	ret = start(&srv, &o);
	if (ret)
		atomic_store(&srv.failed, true);
	else
		serve(&srv, sfd);
	clean = stop_workers(&srv, sfd);
	if (!clean) {
		if (o.pidfile && !ret)
			unlink(o.pidfile);
		_exit(1);	/* the kernel detaches us as the files close */
	}
	for (i = 0; i < srv.ndevs; i++) {
		workers_join(&srv.devs[i]);
		device_detach(&srv.devs[i]);
	}
	free(srv.devs);
	/* Gone only once every device is detached. */
	if (o.pidfile && !ret)
		unlink(o.pidfile);
	if (atomic_load(&srv.failed))
		return 1;
	log_info("stopped");
	return 0;
}
