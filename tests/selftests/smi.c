// SPDX-License-Identifier: GPL-2.0
/*
 * tools/vnpu-smi against known state: a child process creates buffers and
 * streams and holds them while vnpu-smi reports on it.
 */
#include <signal.h>
#include <sys/wait.h>

#include "harness/harness.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define SMI "build/tools/vnpu-smi"

/* A child that holds 1 MiB + 4 MiB of device memory, 256 KiB of host
 * memory and three streams on @device until killed; with @wait, the first
 * stream has a job waiting for a word that never changes. */
static pid_t spawn_holder_waiting(unsigned int device, bool wait)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd = vnpu_open_device(device);
		uint32_t h, s;

		if (fd < 0 || vnpu_bo_create(fd, 1 << 20, 0, &h, NULL) ||
		    vnpu_bo_create(fd, 4 << 20, 0, &h, NULL) ||
		    vnpu_bo_create(fd, 256 << 10, VNPU_BO_HOST, &h, NULL))
			_exit(1);
		for (int i = 0; i < 3; i++) {
			struct drm_vnpu_task t;
			uint64_t va;

			if (vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &s))
				_exit(1);
			if (i || !wait)
				continue;
			if (vnpu_bo_create(fd, 4096, 0, &h, &va))
				_exit(1);
			t = vnpu_task_wait32(va, VNPU_WAIT_EQ, 1);
			if (vnpu_submit(fd, s, &t, 1, NULL, 0, 0, 0, NULL))
				_exit(1);
			/* Ready once the job has reached the engine and parked. */
			for (int tries = 0; tries < 1000; tries++) {
				if (vnpu_debugfs_streams_value(device, "parked") > 0)
					break;
				usleep(10000);
			}
		}
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

static pid_t spawn_holder(unsigned int device)
{
	return spawn_holder_waiting(device, false);
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Run vnpu-smi with @args, output into @buf. */
static int run_smi(const char *args, char *buf, size_t size)
{
	char cmd[256];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s", SMI, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (n + 1 < size && !feof(p))
		n += fread(buf + n, 1, size - n - 1, p);
	buf[n] = '\0';
	return pclose(p);
}

TEST(json_reports_the_holder)
{
	static char out[65536];
	char want[256];
	pid_t pid = spawn_holder(0);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, run_smi("--json", out, sizeof(out)));
	snprintf(want, sizeof(want), "{\"pid\":%d,\"name\":\"smi\",", pid);
	EXPECT_NONNULL(strstr(out, want)) TH_LOG("%s", out);
	/* Device memory of the client: exactly what it created. */
	snprintf(want, sizeof(want), "\"memory_vram\":%d,\"memory_system\":%d,",
		 5 << 20, 256 << 10);
	EXPECT_NONNULL(strstr(out, want)) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"streams\":3}")) TH_LOG("%s", out);
	/* The device line adds up the same. */
	EXPECT_NONNULL(strstr(out, "\"memory_used\":5242880,")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"streams\":3,\"processes\":[")) TH_LOG("%s", out);
	reap(pid);
}

TEST(table_lists_the_process)
{
	static char out[65536];
	char want[64];
	pid_t pid = spawn_holder(0);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, run_smi("", out, sizeof(out)));
	snprintf(want, sizeof(want), "%7d  smi", pid);
	EXPECT_NONNULL(strstr(out, want)) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "5 /     1024 MiB")) TH_LOG("%s", out);
	reap(pid);
	/* Once the holder is gone, so is its memory and its line. */
	ASSERT_EQ(0, run_smi("", out, sizeof(out)));
	EXPECT_NULL(strstr(out, want)) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "0 /     1024 MiB")) TH_LOG("%s", out);
}

TEST(streams_flag_lists_each_stream)
{
	static char out[65536];
	pid_t pid = spawn_holder(0);
	int lines = 0;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, run_smi("--streams", out, sizeof(out)));
	for (char *p = out; (p = strstr(p, " stream ")); p++)
		lines++;
	EXPECT_EQ(3, lines) TH_LOG("%s", out);
	ASSERT_EQ(0, run_smi("--json --streams", out, sizeof(out)));
	EXPECT_NONNULL(strstr(out, "\"stream_detail\":[{\"id\":")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"prio\":1,\"submitted\":0,\"completed\":0,\"queued\":0,"
				  "\"state\":\"ok\",")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"pool_ranges\":0,\"pool_bytes\":0,")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"running\":0,\"parked\":0}")) TH_LOG("%s", out);
	reap(pid);
}

TEST(streams_show_a_waiting_job)
{
	static char out[65536];
	pid_t pid = spawn_holder_waiting(0, true);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, run_smi("--json --streams", out, sizeof(out)));
	EXPECT_NONNULL(strstr(out, "\"submitted\":1,\"completed\":0,\"queued\":1,"
				  "\"state\":\"ok\",")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"running\":1,\"parked\":1}")) TH_LOG("%s", out);
	reap(pid);
}

TEST(bad_option_is_usage_error)
{
	static char out[4096];

	EXPECT_EQ(2, WEXITSTATUS(run_smi("--bogus 2>/dev/null", out, sizeof(out))));
	EXPECT_EQ(2, WEXITSTATUS(run_smi("extra 2>/dev/null", out, sizeof(out))));
}

TEST_HARNESS_MAIN
