# SPDX-License-Identifier: MIT
"""Shared by the Python tests: one acl.init and device per process, a
pure-Python caching allocator, and SoftmaxV2 (an operator that needs
workspace, so it calls the stream's allocator) run through acl.op."""
import threading

import numpy as np

import acl
import aclconst as C

DEVICE = 0
_lock = threading.Lock()
_context = None


def check(ret, what):
    if ret != C.ACL_SUCCESS:
        raise AssertionError("%s failed: %d (%s)" % (what, ret, acl.get_recent_err_msg()))


def ensure_init():
    """acl.init, set_device and one context, once per process; returns the
    context (threads set it as theirs)."""
    global _context
    with _lock:
        if _context is None:
            check(acl.init(), "acl.init")
            check(acl.rt.set_device(DEVICE), "acl.rt.set_device")
            ctx, ret = acl.rt.create_context(DEVICE)
            check(ret, "acl.rt.create_context")
            _context = ctx
    check(acl.rt.set_context(_context), "acl.rt.set_context")
    return _context


class CachingAllocator:
    """A caching allocator in pure Python: device memory from
    acl.rt.malloc, kept per size after free and reused. Blocks are ints
    (ids); every callback is counted and logged in host order."""

    def __init__(self, name="alloc"):
        self.name = name
        self.lock = threading.Lock()
        self.cache = {}       # size -> [device ptr]
        self.blocks = {}      # block id -> (ptr, size)
        self.next_id = 1
        self.calls = {"alloc": 0, "free": 0, "get_addr": 0, "advise": 0, "malloc": 0}
        self.log = []
        self.sizes = []

    # The four callbacks, as acl.rt.allocator_set_*_func_to_desc take them.
    @staticmethod
    def alloc(self, size):
        with self.lock:
            self.calls["alloc"] += 1
            self.sizes.append(size)
            pool = self.cache.get(size)
            if pool:
                ptr = pool.pop()
            else:
                ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
                if ret != C.ACL_SUCCESS:
                    return 0
                self.calls["malloc"] += 1
            block = self.next_id
            self.next_id += 1
            self.blocks[block] = (ptr, size)
            self.log.append(("alloc", block))
            return block

    @staticmethod
    def free(self, block):
        with self.lock:
            self.calls["free"] += 1
            ptr, size = self.blocks.pop(block)
            self.cache.setdefault(size, []).append(ptr)
            self.log.append(("free", block))

    @staticmethod
    def get_addr(block):
        # Only the block comes back: the block id says which allocator.
        owner = _owners[block_owner_key(block)]
        with owner.lock:
            owner.calls["get_addr"] += 1
            return owner.blocks[block][0]

    @staticmethod
    def advise(self, size, addr):
        with self.lock:
            self.calls["advise"] += 1
        return CachingAllocator.alloc(self, size)

    def release(self):
        with self.lock:
            for pool in self.cache.values():
                for ptr in pool:
                    acl.rt.free(ptr)
            self.cache.clear()

    def outstanding(self):
        with self.lock:
            return len(self.blocks)


# Block ids are unique across allocators: each allocator takes its ids from
# its own range, so get_addr(block) finds the owner.
_owners = {}
_next_range = [1]


def block_owner_key(block):
    return block >> 32


def new_allocator(name="alloc"):
    a = CachingAllocator(name)
    with _lock:
        key = _next_range[0]
        _next_range[0] += 1
    a.next_id = key << 32
    _owners[key] = a
    return a


def make_desc(a, advise=False, funcs=None):
    """A descriptor for allocator @a with its callbacks (or @funcs:
    alloc, free, get_addr overrides)."""
    f = dict(alloc=CachingAllocator.alloc, free=CachingAllocator.free, get_addr=CachingAllocator.get_addr)
    f.update(funcs or {})
    desc = acl.rt.allocator_create_desc()
    assert desc, "allocator_create_desc returned NULL"
    check(acl.rt.allocator_set_obj_to_desc(desc, a), "allocator_set_obj_to_desc")
    check(acl.rt.allocator_set_alloc_func_to_desc(desc, f["alloc"]), "allocator_set_alloc_func_to_desc")
    check(acl.rt.allocator_set_free_func_to_desc(desc, f["free"]), "allocator_set_free_func_to_desc")
    check(acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, f["get_addr"]),
          "allocator_set_get_addr_from_block_func_to_desc")
    if advise:
        check(acl.rt.allocator_set_alloc_advise_func_to_desc(desc, CachingAllocator.advise),
              "allocator_set_alloc_advise_func_to_desc")
    return desc


class DevTensor:
    """A float32 tensor on the device: descriptor, device buffer, data buffer."""

    def __init__(self, shape, host=None):
        self.shape = list(shape)
        self.nbytes = int(np.prod(shape)) * 4
        self.desc = acl.create_tensor_desc(C.ACL_FLOAT, self.shape, C.ACL_FORMAT_ND)
        assert self.desc
        self.ptr, ret = acl.rt.malloc(self.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "acl.rt.malloc")
        self.buf = acl.create_data_buffer(self.ptr, self.nbytes)
        assert self.buf
        if host is not None:
            self.upload(host)

    def upload(self, host):
        host = np.ascontiguousarray(host, dtype=np.float32)
        check(acl.rt.memcpy(self.ptr, self.nbytes, acl.util.numpy_to_ptr(host), host.nbytes,
                            C.ACL_MEMCPY_HOST_TO_DEVICE), "memcpy H2D")

    def download(self):
        out = np.empty(self.shape, dtype=np.float32)
        check(acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, self.ptr, self.nbytes,
                            C.ACL_MEMCPY_DEVICE_TO_HOST), "memcpy D2H")
        return out

    def destroy(self):
        acl.destroy_data_buffer(self.buf)
        acl.destroy_tensor_desc(self.desc)
        acl.rt.free(self.ptr)


def softmax_ref(x):
    e = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def run_softmax(x, y, stream):
    """SoftmaxV2 over the last axis (it takes workspace from the stream's
    allocator); returns the error code of execute_v2."""
    return acl.op.execute_v2("SoftmaxV2", [x.desc], [x.buf], [y.desc], [y.buf], 0, stream)
