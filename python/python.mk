# SPDX-License-Identifier: MIT
#
# python/: the Python `acl` module (pyACL's API over libascendcl), a C11
# extension against the system Python 3 (python3-dev), calling libascendcl
# through libffi (the table bindings) and numpy's C API (acl.util's arrays,
# imported at first use). Included by the top-level Makefile; paths
# relative to the project root.
#
#   PY_ACL          build/python/acl$(EXT_SUFFIX), rpath to build/lib:
#                   PYTHONPATH=build/python python3 -c 'import acl'
#   PYTHON          the interpreter it is built for (/usr/bin/python3: the
#                   one python3-dev and python3-numpy belong to)
#   PYTHON_PLATLIB  where make install puts it (under $(DESTDIR)), Debian's
#                   layout: /usr/lib/python3/dist-packages for PREFIX=/usr,
#                   else $(PREFIX)/lib/python3.X/dist-packages

PYTHON ?= /usr/bin/python3
PY_CONFIG := $(shell $(PYTHON) -c 'import sysconfig as s; print(s.get_config_var("EXT_SUFFIX"), s.get_paths()["include"], s.get_config_var("py_version_short"))' 2>/dev/null)
PY_EXT_SUFFIX := $(word 1,$(PY_CONFIG))
PY_INCLUDE := $(word 2,$(PY_CONFIG))
PYTHON_PLATLIB ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(word 3,$(PY_CONFIG))/dist-packages)
PY_NUMPY_INCLUDE := $(shell $(PYTHON) -c 'import numpy; print(numpy.get_include())' 2>/dev/null)

PY_SRCS := $(wildcard python/*.c)
PY_HDRS := $(wildcard python/*.h)
PY_OBJS := $(patsubst python/%.c,$(B)/python/obj/%.o,$(PY_SRCS))
PY_ACL := $(B)/python/acl$(PY_EXT_SUFFIX)
PY_CFLAGS := $(USER_CPPFLAGS) -std=c11 -O2 -g $(WARN) -fPIC -fvisibility=hidden -pthread \
	-isystem $(PY_INCLUDE) $(if $(PY_NUMPY_INCLUDE),-isystem $(PY_NUMPY_INCLUDE)) $(shell $(PKG_CONFIG) --cflags libffi 2>/dev/null)

$(B)/python/obj/%.o: python/%.c $(PY_HDRS) $(wildcard include/acl/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(PY_CFLAGS) -c -o $@ $<

# PyInit_acl is the only symbol exported (-fvisibility=hidden, PyMODINIT_FUNC).
$(PY_ACL): $(PY_OBJS) $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread -Wl,--as-needed -o $@ $(PY_OBJS) -L$(B)/lib -Wl,-rpath,$(B)/lib -lascendcl \
		$(shell $(PKG_CONFIG) --libs libffi 2>/dev/null || echo -lffi)

pyacl: $(PY_ACL)

# Installed next to the library, linked straight into $(DESTDIR) (the tree
# may be read-only) without the build tree's rpath: LIBDIR is the loader's.
install-python: $(PY_OBJS) $(LIB)
	install -d $(DESTDIR)$(PYTHON_PLATLIB)
	$(CC) -shared -pthread -Wl,--as-needed -o $(DESTDIR)$(PYTHON_PLATLIB)/acl$(PY_EXT_SUFFIX) $(PY_OBJS) \
		-L$(B)/lib -lascendcl $(shell $(PKG_CONFIG) --libs libffi 2>/dev/null || echo -lffi)
	chmod 644 $(DESTDIR)$(PYTHON_PLATLIB)/acl$(PY_EXT_SUFFIX)

.PHONY: pyacl install-python
