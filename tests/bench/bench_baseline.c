// SPDX-License-Identifier: GPL-2.0
/*
 * Baselines measured in the same guest boot as every other benchmark: a
 * cheap syscall, a no-op ioctl on the device, userspace memcpy, a pipe
 * ping-pong between two processes, and malloc/free. Any failed operation
 * is fatal (bench_fail()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "lib/vnpu_test.h"

static void bench_getppid(void)
{
	struct bench_samples s;

	bench_samples_init(&s, 200);
	BENCH_LOOP(&s, 200, 1000, (void)getppid());
	bench_report(&s, "getppid", "ns");
}

static void bench_noop_ioctl(void)
{
	struct bench_samples s;
	uint64_t v;
	int fd = vnpu_open_device(0);

	if (fd < 0)
		bench_fail("opening vnpu device 0", ENODEV);
	bench_samples_init(&s, 200);
	BENCH_LOOP(&s, 200, 500,
		   BENCH_CHECK(vnpu_get_param(fd, VNPU_PARAM_ABI_VERSION, &v)));
	bench_report(&s, "noop_ioctl", "ns");
	close(fd);
}

/*
 * ns per memcpy of @size bytes, @per_round copies per sample so that the
 * clock reads are a small part of each sample (a 4 KiB copy costs about as
 * much as reading the clock).
 */
static void bench_memcpy(size_t size, const char *name, unsigned int rounds,
			 unsigned int per_round)
{
	struct bench_samples s;
	char *a = malloc(size), *b = malloc(size);

	if (!a || !b)
		bench_fail("allocating memcpy buffers", ENOMEM);
	memset(a, 1, size);
	memset(b, 2, size);
	bench_samples_init(&s, rounds);
	BENCH_LOOP(&s, rounds, per_round, memcpy(b, a, size); __asm__ volatile("" ::: "memory"));
	bench_report(&s, name, "ns");
	free(a);
	free(b);
}

static void bench_pipe_pingpong(void)
{
	struct bench_samples s;
	int to_child[2], to_parent[2];
	int status;
	char c = 0;
	pid_t pid;

	BENCH_SYS(pipe(to_child));
	BENCH_SYS(pipe(to_parent));
	pid = fork();
	if (pid < 0)
		bench_fail("fork", errno);
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	bench_samples_init(&s, 200);
	BENCH_LOOP(&s, 200, 50, {
		ssize_t n = write(to_child[1], &c, 1);

		if (n == 1)
			n = read(to_parent[0], &c, 1);
		/* 0 bytes read: the child has gone. */
		if (n != 1)
			bench_fail("pipe ping-pong", n < 0 ? errno : EPIPE);
	});
	bench_report(&s, "pipe_pingpong", "ns");
	close(to_child[1]);	/* the child sees EOF and exits */
	BENCH_SYS(waitpid(pid, &status, 0) != pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		bench_fail("the ping-pong child", ECHILD);
	close(to_child[0]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static void bench_malloc_free(void)
{
	struct bench_samples s;

	bench_samples_init(&s, 200);
	BENCH_LOOP(&s, 200, 1000, {
		void *volatile p = malloc(256);
		free(p);
	});
	bench_report(&s, "malloc_free", "ns");
}

int main(void)
{
	bench_getppid();
	bench_noop_ioctl();
	bench_memcpy(4096, "memcpy_4k", 200, 100);
	bench_memcpy(1 << 20, "memcpy_1m", 200, 1);
	bench_memcpy(64 << 20, "memcpy_64m", 10, 1);
	bench_pipe_pingpong();
	bench_malloc_free();
	return 0;
}
