// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu-engined, the real engine server, as the device's clients see it:
 * attached, the one server of its device, killed with work in flight on
 * several streams of several processes (clear errors, nothing left behind,
 * a restarted server runs new work) and stopped gracefully (what it holds
 * finishes). Runs in a normal boot (the server started by vnpu-modload) and
 * leaves a server running.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define MODLOAD "build/tools/vnpu-modload"
#define ENGINED "build/tools/vnpu-engined"
#define PIDFILE "/run/vnpu-engined.pid"
#define BIG (64u << 20)
#define MS (1000ull * 1000)

static uint64_t param(int fd, uint32_t p)
{
	uint64_t v = UINT64_MAX;

	vnpu_get_param(fd, p, &v);
	return v;
}

static pid_t server_pid(void)
{
	FILE *f = fopen(PIDFILE, "r");
	int pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

/* Gone, or only a zombie nobody reaped yet. */
static bool process_gone(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	if (kill(pid, 0))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	if (fscanf(f, "%*d %*s %c", &state) != 1)
		state = 0;
	fclose(f);
	return state == 'Z';
}

static void wait_gone(pid_t pid)
{
	while (!process_gone(pid))
		usleep(10000);
}

static int run(const char *cmd)
{
	int status = system(cmd);

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A server is attached, restarting one if a test left none. */
static void ensure_server(struct th_metadata *_metadata, int fd)
{
	if (param(fd, VNPU_PARAM_ENGINE_ATTACHED) != 1)
		ASSERT_EQ(0, run(MODLOAD " engine-start"));
	ASSERT_EQ(1, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
}

/* Wait until the server holds at least @n jobs. */
static int wait_running(long long n)
{
	uint64_t end = vnpu_now_ns() + 30000 * MS;

	while (vnpu_debugfs_streams_value(0, "running") < n) {
		if (vnpu_now_ns() > end)
			return -ETIME;
		usleep(2000);
	}
	return 0;
}

/* A job that keeps the engine busy a while (seconds): fills over a big buffer. */
#define LONG_TASKS 32

static int submit_long(int fd, uint32_t stream, const struct vnpu_buf *buf, uint32_t out)
{
	struct drm_vnpu_task t[LONG_TASKS];

	for (int i = 0; i < LONG_TASKS; i++)
		t[i] = vnpu_task_fill(buf->va, buf->size, 0x10 + i);
	return vnpu_submit(fd, stream, t, LONG_TASKS, NULL, 0, out, 0, NULL);
}

TEST(server_attached)
{
	int fd = vnpu_open_device(0);

	ASSERT_GE(fd, 0);
	ensure_server(_metadata, fd);
	EXPECT_NE(0, server_pid());
	EXPECT_EQ(server_pid(), vnpu_debugfs_streams_value(0, "engine"));
	close(fd);
}

/* A second server is refused and says why; the first one stays. */
TEST(second_server_refused)
{
	int fd = vnpu_open_device(0);
	FILE *p;
	char line[512];
	bool said = false;
	int status;

	ASSERT_GE(fd, 0);
	ensure_server(_metadata, fd);
	p = popen(ENGINED " -d 0 2>&1", "r");
	ASSERT_NONNULL(p);
	while (fgets(line, sizeof(line), p))
		said = said || strstr(line, "another engine server");
	status = pclose(p);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
	EXPECT_TRUE(said);
	EXPECT_EQ(1, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(server_pid(), vnpu_debugfs_streams_value(0, "engine"));
	close(fd);
}

/*
 * A client process with two streams of long jobs: it tells the parent when
 * they are queued, waits, then checks that each stream failed with
 * VNPU_STREAM_ERROR_ENGINE (new submits: -EIO) and its fence ended with
 * -EPIPE.
 * Exit status 0 on success.
 */
static int client(int ready_fd, int go_fd)
{
	struct drm_vnpu_stream_query q;
	uint32_t streams[2], syncs[2];
	struct vnpu_buf buf[2];
	int fd = vnpu_open_device(0), i;
	char c = 'r';

	if (fd < 0)
		return 10;
	for (i = 0; i < 2; i++) {
		if (vnpu_buf_create(fd, BIG, &buf[i]) || vnpu_syncobj_create(fd, &syncs[i]) ||
		    vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &streams[i]))
			return 11;
		for (int j = 0; j < 3; j++)
			if (submit_long(fd, streams[i], &buf[i], syncs[i]))
				return 12;
	}
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
		return 13;
	for (i = 0; i < 2; i++) {
		if (vnpu_syncobj_wait(fd, syncs[i], VNPU_WAIT_FOREVER_NS))
			return 14;
		if (vnpu_syncobj_fence_status(fd, syncs[i]) != -EPIPE)
			return 15;
		if (vnpu_stream_query(fd, streams[i], &q) || q.error != VNPU_STREAM_ERROR_ENGINE)
			return 16;
		if (submit_long(fd, streams[i], &buf[i], 0) != -EIO)
			return 17;
	}
	close(fd);
	return 0;
}

TEST_TIMEOUT(killed_server_fails_work_in_flight_then_restarts, 180)
{
	int ready[2], go[2], fd = vnpu_open_device(0), status;
	struct drm_vnpu_task nop = vnpu_task_nop();
	struct drm_vnpu_stream_query q;
	uint32_t stream, idle, sync;
	long long attaches;
	struct vnpu_buf buf;
	pid_t kid, server;
	char c;

	ASSERT_GE(fd, 0);
	ensure_server(_metadata, fd);
	attaches = (long long)param(fd, VNPU_PARAM_ENGINE_ATTACHES);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	kid = fork();
	ASSERT_GE(kid, 0);
	if (!kid)
		_exit(client(ready[1], go[0]));

	/* This process: one stream of long jobs, one idle stream. */
	ASSERT_EQ(0, vnpu_buf_create(fd, BIG, &buf));
	ASSERT_EQ(0, vnpu_syncobj_create(fd, &sync));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &idle));
	ASSERT_EQ(0, vnpu_submit_wait(fd, idle, &nop, 1, NULL));
	for (int j = 0; j < 3; j++)
		ASSERT_EQ(0, submit_long(fd, stream, &buf, sync));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	/* Both engines busy with jobs of the streams. */
	ASSERT_EQ(0, wait_running(2));

	server = server_pid();
	ASSERT_NE(0, server);
	ASSERT_EQ(0, kill(server, SIGKILL));
	wait_gone(server);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(kid, waitpid(kid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(0, vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(-EPIPE, vnpu_syncobj_fence_status(fd, sync));
	ASSERT_EQ(0, vnpu_stream_query(fd, stream, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_ENGINE, q.error);
	ASSERT_EQ(0, vnpu_stream_query(fd, idle, &q));
	EXPECT_EQ(VNPU_STREAM_ERROR_NONE, q.error);
	EXPECT_EQ(0, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(-ENOTCONN, vnpu_submit(fd, idle, &nop, 1, NULL, 0, 0, 0, NULL));
	EXPECT_EQ(0, vnpu_wait_no_jobs(0, 10000 * MS));
	EXPECT_EQ(0, vnpu_debugfs_streams_value(0, "buffers"));

	/* A new server: new work runs, the failed stream stays failed. */
	ASSERT_EQ(0, run(MODLOAD " engine-start"));
	EXPECT_EQ(1, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	EXPECT_EQ(attaches + 1, (long long)param(fd, VNPU_PARAM_ENGINE_ATTACHES));
	EXPECT_EQ(0, vnpu_submit_wait(fd, idle, &nop, 1, NULL));
	EXPECT_EQ(-EIO, vnpu_submit(fd, stream, &nop, 1, NULL, 0, 0, 0, NULL));
	vnpu_buf_destroy(fd, &buf);
	close(fd);
}

/* SIGTERM: the server reports what it holds before it goes. */
TEST_TIMEOUT(stopped_server_finishes_what_it_holds, 120)
{
	int fd = vnpu_open_device(0);
	struct vnpu_buf buf;
	uint32_t stream, sync;
	pid_t server;

	ASSERT_GE(fd, 0);
	ensure_server(_metadata, fd);
	ASSERT_EQ(0, vnpu_buf_create(fd, BIG, &buf));
	ASSERT_EQ(0, vnpu_syncobj_create(fd, &sync));
	ASSERT_EQ(0, vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &stream));
	ASSERT_EQ(0, submit_long(fd, stream, &buf, sync));
	ASSERT_EQ(0, wait_running(1));
	server = server_pid();
	ASSERT_EQ(0, kill(server, SIGTERM));
	ASSERT_EQ(0, vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS));
	EXPECT_EQ(1, vnpu_syncobj_fence_status(fd, sync));
	EXPECT_EQ(0x10 + LONG_TASKS - 1, ((volatile uint8_t *)buf.cpu)[BIG - 1]);
	wait_gone(server);
	EXPECT_EQ(0, param(fd, VNPU_PARAM_ENGINE_ATTACHED));
	ASSERT_EQ(0, run(MODLOAD " engine-start"));
	vnpu_buf_destroy(fd, &buf);
	close(fd);
}

TEST_HARNESS_MAIN
