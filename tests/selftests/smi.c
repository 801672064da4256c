// SPDX-License-Identifier: GPL-2.0
/*
 * tools/vnpu-smi against known state: a child process creates buffers and
 * streams (and failed streams, bound pools, hazards, workspace use, more
 * than 256 streams, an odd name) and holds them while vnpu-smi reports on
 * it. The --json output is read by a real JSON parser (python3's json).
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "harness/harness.h"
#include "lib/vnpu_pool_util.h"
#include "lib/vnpu_stream_util.h"
#include "lib/vnpu_test.h"

#define SMI "build/tools/vnpu-smi"
#define KiB 1024ull

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

/* Run shell command @cmd, output into @buf. */
static int run_smi_cmd(const char *cmd, char *buf, size_t size)
{
	size_t n = 0;
	FILE *p;

	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (n + 1 < size && !feof(p))
		n += fread(buf + n, 1, size - n - 1, p);
	buf[n] = '\0';
	return pclose(p);
}

/* Run vnpu-smi with @args, output into @buf. */
static int run_smi(const char *args, char *buf, size_t size)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "%s %s", SMI, args);
	return run_smi_cmd(cmd, buf, size);
}

/*
 * Run "vnpu-smi @args" into python3, which parses stdout as JSON (a parse
 * error fails), defines P = {pid: (device index, process object)} and
 * runs @script; its output into @buf. Returns the pipeline's status.
 * @script must not contain single quotes.
 */
static int smi_py(const char *args, const char *script, char *buf, size_t size)
{
	static char cmd[8192];

	snprintf(cmd, sizeof(cmd),
		 "%s %s | python3 -c 'import json, sys\n"
		 "d = json.load(sys.stdin)\n"
		 "P = {p[\"pid\"]: (dev[\"index\"], p) for dev in d[\"devices\"] "
		 "for p in dev[\"processes\"]}\n"
		 "%s' 2>&1", SMI, args, script);
	return run_smi_cmd(cmd, buf, size);
}

/* "vnpu-smi @args" parses as JSON. */
static bool json_valid(const char *args)
{
	char out[4096];

	return smi_py(args, "", out, sizeof(out)) == 0;
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
	EXPECT_NONNULL(strstr(out, "\"jobs\":0,\"streams\":3}")) TH_LOG("%s", out);
	/* The device line adds up the same. */
	EXPECT_NONNULL(strstr(out, "\"memory_used\":5242880,")) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(out, "\"streams\":3,\"processes\":[")) TH_LOG("%s", out);
	/* The guest's vnpu-engined is attached. */
	EXPECT_NONNULL(strstr(out, "\"engines\":2,\"engine_server\":true,")) TH_LOG("%s", out);
	EXPECT_TRUE(json_valid("--json"));
	EXPECT_TRUE(json_valid("--json --streams"));
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
	EXPECT_NONNULL(strstr(out, "\"running\":0,\"parked\":0,\"failure_mode\":\"stop\",\"failed_jobs\":0}")) TH_LOG("%s", out);
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
	EXPECT_NONNULL(strstr(out, "\"running\":1,\"parked\":1,\"failure_mode\":\"stop\",\"failed_jobs\":0}")) TH_LOG("%s", out);
	/* The client's unfinished jobs: the parked one. */
	EXPECT_NONNULL(strstr(out, "\"jobs\":1,\"streams\":")) TH_LOG("%s", out);
	reap(pid);
}

/*
 * Fork a child that runs @setup(@arg, @out) and, if it returns 0, sends
 * @out (@size bytes) to the parent and holds its state until killed. The
 * child's pid, or -1 if its setup failed.
 */
static pid_t spawn(int (*setup)(void *arg, void *out), void *arg, void *out, size_t size)
{
	int ready[2];
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (setup(arg, out) || write(ready[1], out, size) != (ssize_t)size)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (pid > 0 && read(ready[0], out, size) != (ssize_t)size) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

/* The table line of stream @id ("stream <id> prio=..."), copied to @line. */
static bool table_stream_line(const char *out, unsigned int id, char *line, size_t size)
{
	char want[32];
	const char *p, *end;

	snprintf(want, sizeof(want), " stream %-4u ", id);
	p = strstr(out, want);
	if (!p)
		return false;
	end = strchr(p, '\n');
	snprintf(line, size, "%.*s", (int)(end ? end - p : (ptrdiff_t)strlen(p)), p);
	return true;
}

/* A holder on the last device: listed under that device, no other. */
TEST(process_listed_under_its_device)
{
	static char out[16384];
	char script[512], want[512];
	unsigned int n = vnpu_count_devices();
	size_t len = 0;
	pid_t pid;

	ASSERT_GE(n, 1);
	pid = spawn_holder(n - 1);
	ASSERT_GT(pid, 0);
	snprintf(script, sizeof(script),
		 "print(P[%d][0], P[%d][1][\"streams\"], "
		 "[x[\"index\"] for x in d[\"devices\"]], "
		 "[len(x[\"processes\"]) for x in d[\"devices\"]], "
		 "[x[\"memory_used\"] for x in d[\"devices\"]])", pid, pid);
	EXPECT_EQ(0, smi_py("--json", script, out, sizeof(out))) TH_LOG("%s", out);
	/* e.g. with 3 devices: "2 3 [0, 1, 2] [0, 0, 1] [0, 0, 5242880]" */
	len += snprintf(want + len, sizeof(want) - len, "%u 3 [", n - 1);
	for (unsigned int i = 0; i < n; i++)
		len += snprintf(want + len, sizeof(want) - len, "%s%u", i ? ", " : "", i);
	len += snprintf(want + len, sizeof(want) - len, "] [");
	for (unsigned int i = 0; i < n; i++)
		len += snprintf(want + len, sizeof(want) - len, "%s%d", i ? ", " : "", i == n - 1);
	len += snprintf(want + len, sizeof(want) - len, "] [");
	for (unsigned int i = 0; i < n; i++)
		len += snprintf(want + len, sizeof(want) - len, "%s%d", i ? ", " : "",
				i == n - 1 ? 5 << 20 : 0);
	snprintf(want + len, sizeof(want) - len, "]\n");
	EXPECT_STREQ(want, out);
	reap(pid);
}

#define GATE (16 * KiB)
#define DIV (20 * KiB)
#define OUT (24 * KiB)

enum { SA, SB, SC, SF, NSTATE };

/*
 * On device 0: streams SA, SB and SC share a 64 KiB pool buffer bound to
 * each. SA runs a ReduceSumD (lib/ops) with 256 bytes of workspace in it,
 * held back by a gate while SB submits the same (serialized:
 * hazards_serialized=1) and strict SC tries (rejected: hazards_rejected=1);
 * then the gate opens (a host store and SIGNAL). SF fails on an int32
 * division by zero (state=failed, error=ARITH).
 */
static int setup_states(void *arg, void *out)
{
	uint32_t *ids = out, sync;
	struct vnpu_buf pool, data;
	struct drm_vnpu_task wait;
	struct vnpu_op reduce, div;
	struct vnpu_job held;
	volatile uint32_t *gate;
	int32_t *x;
	float *in;
	int fd = vnpu_open_device(0);

	(void)arg;
	if (fd < 0 || vnpu_buf_create(fd, 64 * KiB, &pool) ||
	    vnpu_buf_create(fd, 64 * KiB, &data) || vnpu_syncobj_create(fd, &sync))
		return -1;
	for (int i = 0; i < NSTATE; i++)
		if (vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &ids[i]))
			return -1;
	for (int i = SA; i <= SC; i++)
		if (vnpu_pool_bind(fd, ids[i], pool.va, 64 * KiB))
			return -1;
	if (vnpu_stream_set_param(fd, ids[SC], VNPU_STREAM_PARAM_HAZARD_POLICY,
				  VNPU_HAZARD_STRICT))
		return -1;
	in = data.cpu;
	for (int i = 0; i < 4 * 64; i++)
		in[i] = 1.0f;
	gate = (volatile uint32_t *)((char *)data.cpu + GATE);
	*gate = 0;
	wait = vnpu_task_wait32(data.va + GATE, VNPU_WAIT_EQ, 1);
	if (vnpu_op_rows(&reduce, "ReduceSumD", ACL_FLOAT, 4, 64, 0) ||
	    reduce.plan.ws_bytes != 256)
		return -1;
	vnpu_op_set_va(&reduce, data.va, 0, data.va + OUT, pool.va);
	vnpu_job_init(&held);
	vnpu_job_add(&held, wait);
	vnpu_job_add_op(&held, &reduce);
	if (vnpu_job_submit(fd, ids[SA], &held, NULL, 0, 0, 0, NULL) ||
	    vnpu_op_submit(fd, ids[SB], &reduce, sync, NULL) ||
	    vnpu_op_submit(fd, ids[SC], &reduce, 0, NULL) != -EBUSY)
		return -1;
	if (vnpu_buf_write32(fd, &data, GATE, 1))
		return -1;
	if (vnpu_syncobj_wait(fd, sync, VNPU_WAIT_FOREVER_NS) ||
	    vnpu_stream_wait_seqno(fd, ids[SA], 1, VNPU_WAIT_FOREVER_NS))
		return -1;
	x = (int32_t *)((char *)data.cpu + DIV);
	x[0] = 1;
	x[1] = 0;
	if (vnpu_op_eltwise(&div, "RealDiv", ACL_INT32, 1, 1))
		return -1;
	vnpu_op_set_va(&div, data.va + DIV, data.va + DIV + 4, data.va + DIV + 8, 0);
	/* The division by zero fails the job (and its stream) with -EDOM. */
	return vnpu_op_submit_wait(fd, ids[SF], &div, NULL) == -EDOM ? 0 : -1;
}

TEST(streams_show_failure_pools_hazards_workspace)
{
	static char out[65536];
	static const char *const want[NSTATE] = {
		"ok 0 1 65536 0 0 256 1 serialize",
		"ok 0 1 65536 1 0 256 1 serialize",
		"ok 0 1 65536 0 1 0 0 strict",
		"failed 3 0 0 0 0 0 0 serialize",
	};
	uint32_t ids[NSTATE];
	char script[1024], line[1024], expect[512];
	size_t len = 0;
	pid_t pid = spawn(setup_states, NULL, ids, sizeof(ids));

	ASSERT_GT(pid, 0);
	ASSERT_EQ(VNPU_STREAM_ERROR_ARITH, 3);
	snprintf(script, sizeof(script),
		 "S = {s[\"id\"]: s for s in P[%d][1][\"stream_detail\"]}\n"
		 "for i in (%u, %u, %u, %u):\n"
		 " print(*(S[i][k] for k in (\"state\", \"error\", \"pool_ranges\", "
		 "\"pool_bytes\", \"hazards_serialized\", \"hazards_rejected\", "
		 "\"ws_bytes\", \"ws_tasks\", \"hazard_policy\")))",
		 pid, ids[SA], ids[SB], ids[SC], ids[SF]);
	EXPECT_EQ(0, smi_py("--json --streams", script, out, sizeof(out))) TH_LOG("%s", out);
	for (int i = 0; i < NSTATE; i++)
		len += snprintf(expect + len, sizeof(expect) - len, "%s\n", want[i]);
	EXPECT_STREQ(expect, out);

	/* The table says the same. */
	ASSERT_EQ(0, run_smi("--streams", out, sizeof(out)));
	ASSERT_TRUE(table_stream_line(out, ids[SB], line, sizeof(line))) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(line, " pool_ranges=1 pool_bytes=65536 hazards_serialized=1 "
				    "hazards_rejected=0 ws_bytes=256 ws_tasks=1 ")) TH_LOG("%s", line);
	ASSERT_TRUE(table_stream_line(out, ids[SC], line, sizeof(line))) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(line, " hazards_serialized=0 hazards_rejected=1 ")) TH_LOG("%s", line);
	ASSERT_TRUE(table_stream_line(out, ids[SF], line, sizeof(line))) TH_LOG("%s", out);
	EXPECT_NONNULL(strstr(line, " state=failed error=3 ")) TH_LOG("%s", line);
	reap(pid);
}

#define MANY_STREAMS 300

static int setup_many_streams(void *arg, void *out)
{
	int fd = vnpu_open_device(0);
	uint32_t id;

	(void)arg;
	(void)out;
	if (fd < 0)
		return -1;
	for (int i = 0; i < MANY_STREAMS; i++)
		if (vnpu_stream_create(fd, VNPU_PRIORITY_NORMAL, &id))
			return -1;
	return 0;
}

/* More than 256 streams in one client: every one is counted and listed. */
TEST(more_than_256_streams)
{
	static char out[1 << 20];
	char script[512], want[64], proc_line[64];
	int dummy, lines = 0;
	pid_t pid = spawn(setup_many_streams, NULL, &dummy, sizeof(dummy));

	ASSERT_GT(pid, 0);
	snprintf(script, sizeof(script),
		 "p = P[%d][1]\n"
		 "print(p[\"streams\"], len(p[\"stream_detail\"]), "
		 "len({s[\"id\"] for s in p[\"stream_detail\"]}), d[\"devices\"][0][\"streams\"])",
		 pid);
	EXPECT_EQ(0, smi_py("--json --streams", script, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "%d %d %d %d\n", MANY_STREAMS, MANY_STREAMS,
		 MANY_STREAMS, MANY_STREAMS);
	EXPECT_STREQ(want, out);

	ASSERT_EQ(0, run_smi("--streams", out, sizeof(out)));
	for (char *p = out; (p = strstr(p, " stream ")); p++)
		lines++;
	EXPECT_EQ(MANY_STREAMS, lines);
	snprintf(proc_line, sizeof(proc_line), "  %7d  ", MANY_STREAMS);
	EXPECT_NONNULL(strstr(out, proc_line)) TH_LOG("%s", out);
	reap(pid);
}

/* A name that is not UTF-8: the JSON stays valid, each bad byte U+FFFD. */
static int setup_odd_name(void *arg, void *out)
{
	int fd = vnpu_open_device(0);

	(void)out;
	if (fd < 0)
		return -1;
	/* '"', a valid 2-byte sequence (U+00E9), two bad bytes, a control. */
	return prctl(PR_SET_NAME, (unsigned long)arg, 0, 0, 0);
}

TEST(json_name_not_utf8)
{
	static char out[16384];
	char script[256];
	int dummy;
	pid_t pid = spawn(setup_odd_name, "s\"\xc3\xa9\xff\xc3\x01x", &dummy, sizeof(dummy));

	ASSERT_GT(pid, 0);
	snprintf(script, sizeof(script), "print(ascii(P[%d][1][\"name\"]))", pid);
	EXPECT_EQ(0, smi_py("--json", script, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("'s\"\\xe9\\ufffd\\ufffd\\x01x'\n", out);
	/* The table shows the control byte as '?', never raw. */
	ASSERT_EQ(0, run_smi("", out, sizeof(out)));
	EXPECT_NONNULL(strstr(out, "s\"\xc3\xa9\xff\xc3?x")) TH_LOG("%s", out);
	EXPECT_NULL(strchr(out, '\x01')) TH_LOG("%s", out);
	reap(pid);
}

/* Processes vnpu-smi may not look into are counted, not skipped silently. */
TEST(unreadable_processes_are_counted)
{
	static char out[65536];
	pid_t pid = spawn_holder(0);

	ASSERT_GT(pid, 0);
	/* As root, every process is readable. */
	EXPECT_EQ(0, smi_py("--json", "print(d[\"unreadable_processes\"])", out, sizeof(out)));
	EXPECT_STREQ("0\n", out);
	/* As nobody, at least the holder (and init) are not. */
	EXPECT_EQ(0, run_smi_cmd("setpriv --reuid=65534 --regid=65534 --clear-groups " SMI
				 " --json | python3 -c 'import json, sys; "
				 "print(json.load(sys.stdin)[\"unreadable_processes\"] >= 2)'",
				 out, sizeof(out)));
	EXPECT_STREQ("True\n", out);
	EXPECT_EQ(0, run_smi_cmd("setpriv --reuid=65534 --regid=65534 --clear-groups " SMI,
				 out, sizeof(out)));
	EXPECT_NONNULL(strstr(out, " whose descriptors could not be read (")) TH_LOG("%s", out);
	reap(pid);
}

TEST(bad_option_is_usage_error)
{
	static char out[4096];

	EXPECT_EQ(2, WEXITSTATUS(run_smi("--bogus 2>/dev/null", out, sizeof(out))));
	EXPECT_EQ(2, WEXITSTATUS(run_smi("extra 2>/dev/null", out, sizeof(out))));
}

TEST_HARNESS_MAIN
