# SPDX-License-Identifier: MIT
#
# lib/aclnn: CANN's two-stage operator API (docs/aclnn.md), as CANN ships
# it, two libraries over libascendcl.so:
#   libnnopbase.so.1  lib/aclnn/*.c: tensors, scalars, arrays, executors,
#                     the launch (and lib/ops, which plans the steps)
#   libopapi.so.1     lib/aclnn/ops/*.c: the aclnnXxx functions
# Programs link -lascendcl -lopapi -lnnopbase. Included by the top-level
# Makefile; paths relative to the project root.
#
#   NN_LIBS         the two libraries and their dev symlinks
#   NN_HDRS         the public headers (include/aclnn, include/aclnnop)
#   NN_LINK         what a program using aclnn links (with rpaths to the build)

NN_BASE_SRCS := $(wildcard lib/aclnn/*.c)
NN_OPS_SRCS := $(wildcard lib/aclnn/ops/*.c)
NN_HDRS := $(wildcard include/aclnn/*.h include/aclnn/opdev/*.h include/aclnnop/*.h)
NN_INT_HDRS := $(wildcard lib/aclnn/*.h lib/aclnn/ops/*.h) lib/rt/rt_private.h
NN_BASE_OBJS := $(patsubst lib/%.c,$(B)/lib/obj/%.lo,$(NN_BASE_SRCS))
NN_OPS_OBJS := $(patsubst lib/%.c,$(B)/lib/obj/%.lo,$(NN_OPS_SRCS))
NN_BASE_SONAME := libnnopbase.so.1
NN_OPS_SONAME := libopapi.so.1
NN_BASE_LIB := $(B)/lib/$(NN_BASE_SONAME)
NN_OPS_LIB := $(B)/lib/$(NN_OPS_SONAME)
NN_LIBS := $(NN_BASE_LIB) $(NN_OPS_LIB) $(B)/lib/libnnopbase.so $(B)/lib/libopapi.so \
	$(B)/lib/nnopbase.pc $(B)/lib/opapi.pc
NN_CFLAGS := -Ilib/aclnn -Ilib/rt
NN_LINK := -L$(B)/lib -Wl,-rpath,$(B)/lib -lopapi -lnnopbase -lascendcl

$(B)/lib/obj/aclnn/%.lo: lib/aclnn/%.c $(NN_HDRS) $(NN_INT_HDRS) $(OPS_HDRS) include/acl/acl_base.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(NN_CFLAGS) $(USER_CFLAGS) -fvisibility=hidden -DFUNC_VISIBILITY \
		-c -o $@ $<

# lib/ops goes in with its default visibility; the version script keeps
# everything but vops_* (for libopapi.so) local.
$(NN_BASE_LIB): $(NN_BASE_OBJS) $(OPS_OBJS) lib/aclnn/libnnopbase.map $(LIB) $(B)/lib/libascendcl.so
	$(CC) -shared -pthread -Wl,-soname,$(NN_BASE_SONAME) -Wl,--version-script=lib/aclnn/libnnopbase.map \
		-Wl,-z,defs -Wl,--as-needed -o $@ $(NN_BASE_OBJS) $(OPS_OBJS) -L$(B)/lib -lascendcl $(OPS_LIBS)

$(NN_OPS_LIB): $(NN_OPS_OBJS) lib/aclnn/libopapi.map $(NN_BASE_LIB) $(B)/lib/libnnopbase.so $(B)/lib/libascendcl.so
	$(CC) -shared -pthread -Wl,-soname,$(NN_OPS_SONAME) -Wl,--version-script=lib/aclnn/libopapi.map \
		-Wl,-z,defs -Wl,--as-needed -o $@ $(NN_OPS_OBJS) -L$(B)/lib -lnnopbase -lascendcl -lm

$(B)/lib/libnnopbase.so: $(NN_BASE_LIB)
	@ln -sf $(NN_BASE_SONAME) $@

$(B)/lib/libopapi.so: $(NN_OPS_LIB)
	@ln -sf $(NN_OPS_SONAME) $@

$(B)/lib/%.pc: lib/aclnn/%.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(LIB_VERSION)|' $< > $@

# The public headers compile alone as C11 and as C++17.
$(B)/lib/aclnn-headers.stamp: $(NN_HDRS)
	@mkdir -p $(dir $@)
	@for h in $(patsubst include/%,%,$(NN_HDRS)); do \
		printf '#include "%s"\n' $$h | $(CC) -std=c11 -Wall -Wextra -Werror -Iinclude -x c -fsyntax-only - \
			|| exit 1; \
		printf '#include "%s"\n' $$h | $(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -x c++ \
			-fsyntax-only - || exit 1; \
	done
	@touch $@

nnlibs: $(NN_LIBS) $(B)/lib/aclnn-headers.stamp

.PHONY: nnlibs

# ---- tests: the guest suites tests/aclnn/test_*.c over the built libraries
NN_TEST_SRCS := $(wildcard tests/aclnn/test_*.c)
NN_TESTS := $(patsubst tests/aclnn/%.c,$(B)/aclnn/%,$(NN_TEST_SRCS))
# acl_optest.c: its ioctl() counts the DRM ioctls (one per warm launch).
NN_TEST_COMMON := $(wildcard tests/aclnn/lib/*.c) tests/acl/lib/acl_test.c tests/acl/lib/acl_optest.c \
	tests/selftests/lib/vnpu_op_ref.c

$(B)/aclnn/%: tests/aclnn/%.c $(NN_TEST_COMMON) $(wildcard tests/aclnn/lib/*.h tests/acl/lib/*.h) $(NN_HDRS) \
		lib/aclnn/nn.h $(NN_LIBS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/aclnn/lib -Itests/acl/lib -Itests/selftests/lib -Ilib/aclnn $(OPS_CFLAGS) -std=gnu11 -O2 -g $(WARN) \
		-pthread $(CHECK_CFLAGS) -o $@ $< $(NN_TEST_COMMON) $(NN_LINK) $(CHECK_LIBS) -lm

nntests: $(NN_TESTS)

.PHONY: nntests

# CANN-style example programs (tests/aclnn/examples/), built exactly as an
# application builds them: -Iinclude and the three link flags.
NN_EXAMPLE_CXX := $(wildcard tests/aclnn/examples/*.cpp)
NN_EXAMPLES := $(patsubst tests/aclnn/examples/%.cpp,$(B)/acl/examples/%,$(NN_EXAMPLE_CXX))

$(B)/acl/examples/%: tests/aclnn/examples/%.cpp $(NN_LIBS) $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(B)/lib -Wl,-rpath,$(B)/lib \
		-lascendcl -lopapi -lnnopbase

nntests: $(NN_EXAMPLES)

# The two libraries again with ASan and UBSan (lib/ops left as it is), for
# the aclnn suites over them (tests/acl/run-sanitized.sh preloads them with
# libascendcl's sanitized build).
NN_SAN_BASE_OBJS := $(patsubst $(B)/lib/obj/%,$(B)/lib-san/obj/%,$(NN_BASE_OBJS))
NN_SAN_OPS_OBJS := $(patsubst $(B)/lib/obj/%,$(B)/lib-san/obj/%,$(NN_OPS_OBJS))
NN_SAN_LIBS := $(B)/lib-san/$(NN_BASE_SONAME) $(B)/lib-san/$(NN_OPS_SONAME)

$(B)/lib-san/obj/aclnn/%.lo: lib/aclnn/%.c $(NN_HDRS) $(NN_INT_HDRS) $(OPS_HDRS) include/acl/acl_base.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(NN_CFLAGS) $(USER_CFLAGS) -O1 $(SAN) -fvisibility=hidden \
		-DFUNC_VISIBILITY -c -o $@ $<

$(B)/lib-san/$(NN_BASE_SONAME): $(NN_SAN_BASE_OBJS) $(OPS_OBJS) lib/aclnn/libnnopbase.map $(LIB) $(B)/lib/libascendcl.so
	$(CC) -shared -pthread $(SAN) -Wl,-soname,$(NN_BASE_SONAME) -Wl,--version-script=lib/aclnn/libnnopbase.map \
		-Wl,--as-needed -o $@ $(NN_SAN_BASE_OBJS) $(OPS_OBJS) -L$(B)/lib -lascendcl $(OPS_LIBS)

$(B)/lib-san/$(NN_OPS_SONAME): $(NN_SAN_OPS_OBJS) lib/aclnn/libopapi.map $(B)/lib-san/$(NN_BASE_SONAME) \
		$(B)/lib/libnnopbase.so $(B)/lib/libascendcl.so
	$(CC) -shared -pthread $(SAN) -Wl,-soname,$(NN_OPS_SONAME) -Wl,--version-script=lib/aclnn/libopapi.map \
		-Wl,--as-needed -o $@ $(NN_SAN_OPS_OBJS) -L$(B)/lib -lnnopbase -lascendcl -lm

nntests: $(NN_SAN_LIBS)

# bench_aclnn launches operators both ways (aclnn and aclopExecuteV2).
$(B)/bench/bench_aclnn: tests/bench/bench_aclnn.c tests/bench/bench.h tests/bench/bench_acl.h $(NN_LIBS) $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/bench -std=gnu11 -O2 -g $(WARN) -pthread -o $@ $< $(NN_LINK)
