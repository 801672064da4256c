# SPDX-License-Identifier: GPL-2.0
#
# The ioctl fuzzer (tests/fuzz/), included by the top Makefile.
#
#   make fuzz [FUZZ_OPS=N] [FUZZ_SEEDS="1 2 3"] [FUZZ_PROCS=N] [FUZZ_THREADS=N]
#             [FUZZ_VM_OPTS="-p devices=2"] [FUZZ_ARGS=...]
#
# builds $(B)/fuzz/vnpu-fuzz and runs it once per seed in a QEMU guest
# (tools/vnpu-vm, whose kernel log scan fails the run on WARNING, BUG, ...).

FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_HDRS := $(wildcard tests/fuzz/*.h) $(SELFTEST_HDRS)
# The selftests' helpers it links: device nodes and the test engine server.
FUZZ_OBJS := $(B)/selftests/lib/vnpu_test.o $(B)/selftests/lib/vnpu_engine_util.o
FUZZ := $(B)/fuzz/vnpu-fuzz
FUZZ_CFLAGS = $(USER_CPPFLAGS) -Itests/fuzz -Itests/selftests/lib -std=c11 -O2 -g $(WARN) -pthread
FUZZ_OPS ?= 5000
FUZZ_SEEDS ?= 1
FUZZ_PROCS ?= 2
FUZZ_THREADS ?= 2
FUZZ_VM_OPTS ?=
FUZZ_ARGS ?=

.PHONY: fuzz fuzz-build

all: fuzz-build

fuzz-build: $(FUZZ)

$(FUZZ): $(FUZZ_SRCS) $(FUZZ_HDRS) $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRCS) $(FUZZ_OBJS) $(DRM_LIBS)

# Every seed runs; the target fails if any did (the seeds are listed).
fuzz: $(FUZZ) module tools
	@failed=; for s in $(FUZZ_SEEDS); do \
		echo "== vnpu-fuzz seed $$s"; \
		tools/vnpu-vm $(FUZZ_VM_OPTS) -- $(FUZZ) --seed $$s --ops $(FUZZ_OPS) \
			--procs $(FUZZ_PROCS) --threads $(FUZZ_THREADS) $(FUZZ_ARGS) || \
			failed="$$failed $$s"; \
	done; \
	if [ -n "$$failed" ]; then echo "vnpu-fuzz: failed seeds:$$failed"; exit 1; fi
