# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the guest suites under a debug kernel (KASAN, lockdep,
# debug objects, kmemleak, fault injection), built once and cached under
# build/debug-kernel/. See tools/debug-kernel/README.md.
#   make debug-kernel   only build (or find cached) the debug kernel
#   make check-debug    build it, build vnpu.ko against it (build/debug/),
#                       run the guest runner's checks and every guest suite

.PHONY: check-debug debug-kernel

debug-kernel: ensure-deps
	@tools/debug-kernel/build

check-debug: ensure-deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@tools/debug-kernel/check-debug
