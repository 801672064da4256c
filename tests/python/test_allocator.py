# SPDX-License-Identifier: MIT
"""acl.rt.allocator_*: Python allocators registered for streams, serving
the workspace of operators run with acl.op.execute_v2."""
import contextlib
import gc
import io
import os
import subprocess
import sys
import unittest

import numpy as np

import acl
import aclconst as C
from pyacl_helpers import (CachingAllocator, DevTensor, check, ensure_init, make_desc, new_allocator,
                           run_softmax, softmax_ref)

SHAPE = (8, 48)


def setUpModule():
    ensure_init()


class AllocatorTest(unittest.TestCase):
    def setUp(self):
        ensure_init()
        self.stream, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        rng = np.random.default_rng(5)
        self.host = rng.standard_normal(SHAPE).astype(np.float32)
        self.x = DevTensor(SHAPE, self.host)
        self.y = DevTensor(SHAPE)

    def tearDown(self):
        acl.rt.destroy_stream(self.stream)
        self.x.destroy()
        self.y.destroy()

    def softmax_ok(self, stream=None):
        s = stream or self.stream
        self.assertEqual(run_softmax(self.x, self.y, s), C.ACL_SUCCESS, acl.get_recent_err_msg())
        self.assertEqual(acl.rt.synchronize_stream(s), C.ACL_SUCCESS)
        np.testing.assert_allclose(self.y.download(), softmax_ref(self.host), rtol=1e-5, atol=1e-6)

    def test_caching_allocator_serves_operators(self):
        a = new_allocator("cache")
        desc = make_desc(a)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), C.ACL_SUCCESS)
        for _ in range(4):
            self.softmax_ok()
        # One block per operator, taken and given back in host order right
        # after each submit; the cache made one device allocation.
        self.assertEqual(a.calls["alloc"], 4)
        self.assertEqual(a.calls["get_addr"], 4)
        self.assertEqual(a.calls["free"], 4)
        self.assertEqual(a.calls["malloc"], 1)
        self.assertEqual([k for k, _ in a.log], ["alloc", "free"] * 4)
        self.assertEqual([b for _, b in a.log][0::2], [b for _, b in a.log][1::2])
        self.assertEqual(a.outstanding(), 0)
        self.assertTrue(all(isinstance(s, int) and s > 0 for s in a.sizes))
        # get_by_stream gives back the Python objects.
        got = acl.rt.allocator_get_by_stream(self.stream)
        self.assertEqual(len(got), 7)
        self.assertEqual(got[0], desc)
        self.assertIs(got[1], a)
        self.assertIs(got[2], CachingAllocator.alloc)
        self.assertIs(got[3], CachingAllocator.free)
        self.assertIsNone(got[4])
        self.assertIs(got[5], CachingAllocator.get_addr)
        self.assertEqual(got[6], C.ACL_SUCCESS)
        self.assertEqual(acl.rt.allocator_unregister(self.stream), C.ACL_SUCCESS)
        self.assertNotEqual(acl.rt.allocator_get_by_stream(self.stream)[-1], C.ACL_SUCCESS)
        # Unregistered: the runtime's own memory, the allocator untouched.
        self.softmax_ok()
        self.assertEqual(a.calls["alloc"], 4)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), C.ACL_SUCCESS)
        a.release()

    def test_raising_callback(self):
        a = new_allocator("raises")

        def bad_alloc(allocator, size):
            raise ValueError("no memory for %d bytes today" % size)

        desc = make_desc(a, funcs={"alloc": bad_alloc})
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), C.ACL_SUCCESS)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            ret = run_softmax(self.x, self.y, self.stream)
        self.assertEqual(ret, C.ACL_ERROR_BAD_ALLOC)
        self.assertIn("allocator", acl.get_recent_err_msg())
        text = err.getvalue()
        self.assertIn("Traceback", text)
        self.assertIn("ValueError: no memory for", text)
        self.assertIn("bad_alloc", text)
        # A get_addr that raises fails the operator too; nothing leaks.
        def bad_addr(block):
            raise KeyError(block)

        desc2 = make_desc(a, funcs={"get_addr": bad_addr})
        self.assertEqual(acl.rt.allocator_register(self.stream, desc2), C.ACL_SUCCESS)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            ret = run_softmax(self.x, self.y, self.stream)
        self.assertNotEqual(ret, C.ACL_SUCCESS)
        self.assertIn("KeyError", err.getvalue())
        self.assertEqual(a.outstanding(), 0)
        self.assertEqual(a.calls["free"], 1)
        # The process goes on: a good registration works on the same stream.
        good = new_allocator("good")
        desc3 = make_desc(good)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc3), C.ACL_SUCCESS)
        self.softmax_ok()
        self.assertEqual(good.calls["alloc"], 1)
        for d in (desc, desc2, desc3):
            acl.rt.allocator_destroy_desc(d)
        self.assertEqual(acl.rt.allocator_unregister(self.stream), C.ACL_SUCCESS)
        a.release()
        good.release()

    def test_two_descriptors_two_streams(self):
        s2, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        a, b = new_allocator("a"), new_allocator("b")
        da, db = make_desc(a), make_desc(b, advise=True)
        self.assertEqual(acl.rt.allocator_register(self.stream, da), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.allocator_register(s2, db), C.ACL_SUCCESS)
        for _ in range(3):
            self.softmax_ok(self.stream)
        for _ in range(2):
            self.softmax_ok(s2)
        self.assertEqual((a.calls["alloc"], a.calls["free"]), (3, 3))
        self.assertEqual((b.calls["alloc"], b.calls["free"]), (2, 2))
        self.assertEqual(acl.rt.allocator_get_by_stream(s2)[4], CachingAllocator.advise)
        # The last registration of a stream wins.
        self.assertEqual(acl.rt.allocator_register(self.stream, db), C.ACL_SUCCESS)
        self.softmax_ok(self.stream)
        self.assertEqual((a.calls["alloc"], b.calls["alloc"]), (3, 3))
        # Destroying a stream drops its registration.
        self.assertEqual(acl.rt.destroy_stream(s2), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.allocator_unregister(self.stream), C.ACL_SUCCESS)
        self.assertEqual(acl.rt._allocator_bindings(), (0, 0))
        for d in (da, db):
            acl.rt.allocator_destroy_desc(d)
        a.release()
        b.release()

    def test_reference_counts(self):
        a = new_allocator("counted")

        def alloc(obj, size):
            return CachingAllocator.alloc(obj, size)

        def free(obj, block):
            return CachingAllocator.free(obj, block)

        def get_addr(block):
            return CachingAllocator.get_addr(block)

        objs = (a, alloc, free, get_addr)
        gc.collect()
        before = [sys.getrefcount(o) for o in objs]
        desc = make_desc(a, funcs={"alloc": alloc, "free": free, "get_addr": get_addr})
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), C.ACL_SUCCESS)
        self.assertEqual(acl.rt._allocator_bindings(), (1, 0))
        # While registered the objects are held (descriptor + registration).
        self.assertTrue(all(sys.getrefcount(o) > n for o, n in zip(objs, before)))
        self.softmax_ok()
        self.softmax_ok()
        self.assertEqual(acl.rt.allocator_unregister(self.stream), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), C.ACL_SUCCESS)
        gc.collect()
        self.assertEqual([sys.getrefcount(o) for o in objs], before)
        # The same through stream destruction.
        s2, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        desc = make_desc(a, funcs={"alloc": alloc, "free": free, "get_addr": get_addr})
        self.assertEqual(acl.rt.allocator_register(s2, desc), C.ACL_SUCCESS)
        self.softmax_ok(s2)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_stream(s2), C.ACL_SUCCESS)
        gc.collect()
        self.assertEqual([sys.getrefcount(o) for o in objs], before)
        self.assertEqual(a.calls["alloc"], 3)
        a.release()

    def test_context_destruction_drops_registrations(self):
        main = ensure_init()
        a = new_allocator("ctx")
        gc.collect()
        before = sys.getrefcount(a)
        ctx, ret = acl.rt.create_context(0)
        check(ret, "create_context")
        s, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        desc = make_desc(a)
        self.assertEqual(acl.rt.allocator_register(s, desc), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), C.ACL_SUCCESS)
        x, y = DevTensor(SHAPE, self.host), DevTensor(SHAPE)
        self.assertEqual(run_softmax(x, y, s), C.ACL_SUCCESS, acl.get_recent_err_msg())
        self.assertEqual(acl.rt.synchronize_stream(s), C.ACL_SUCCESS)
        # The context takes its stream with it, and the stream its registration.
        self.assertEqual(acl.rt.destroy_context(ctx), C.ACL_SUCCESS)
        check(acl.rt.set_context(main), "set_context")
        self.assertEqual(acl.rt._allocator_bindings(), (0, 0))
        gc.collect()
        self.assertEqual(sys.getrefcount(a), before)
        x.destroy()
        y.destroy()
        a.release()

    def test_registration_is_a_copy(self):
        a, b = new_allocator("first"), new_allocator("second")
        desc = make_desc(a)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), C.ACL_SUCCESS)
        # Changing the descriptor afterwards changes no registration.
        check(acl.rt.allocator_set_obj_to_desc(desc, b), "allocator_set_obj_to_desc")
        check(acl.rt.allocator_set_alloc_func_to_desc(desc, lambda obj, size: 0), "set_alloc")
        self.softmax_ok()
        self.assertEqual((a.calls["alloc"], b.calls["alloc"]), (1, 0))
        # Destroying it neither: the registration stays until unregistered.
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), C.ACL_SUCCESS)
        self.softmax_ok()
        self.assertEqual(a.calls["alloc"], 2)
        self.assertIs(acl.rt.allocator_get_by_stream(self.stream)[1], a)
        self.assertEqual(acl.rt.allocator_unregister(self.stream), C.ACL_SUCCESS)
        a.release()

    def test_descriptor_errors(self):
        desc = acl.rt.allocator_create_desc()
        # Mandatory callbacks missing: the runtime's error, nothing held.
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt._allocator_bindings(), (0, 0))
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), C.ACL_SUCCESS)
        # A destroyed descriptor is refused, never dereferenced.
        self.assertEqual(acl.rt.allocator_set_obj_to_desc(desc, object()), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.allocator_unregister(self.stream), C.ACL_SUCCESS)


class Finalize(unittest.TestCase):
    def test_finalize_drops_registrations(self):
        # In a process of its own: acl.finalize ends the runtime.
        here = os.path.dirname(os.path.abspath(__file__))
        code = r"""
import gc, sys
import acl, aclconst as C
from pyacl_helpers import ensure_init, make_desc, new_allocator, DevTensor, run_softmax
ensure_init()
a = new_allocator()
before = sys.getrefcount(a)
s, ret = acl.rt.create_stream()
desc = make_desc(a)
assert acl.rt.allocator_register(s, desc) == 0
x, y = DevTensor([4, 40], [[1.0] * 40] * 4), DevTensor([4, 40])
assert run_softmax(x, y, s) == 0, acl.get_recent_err_msg()
assert acl.rt.synchronize_stream(s) == 0
assert sys.getrefcount(a) > before
assert acl.finalize() == 0
gc.collect()
assert acl.rt._allocator_bindings() == (0, 0)
assert sys.getrefcount(a) == before, (sys.getrefcount(a), before)
print("finalize ok", a.calls["alloc"])
"""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        r = subprocess.run([sys.executable, "-c", code], cwd=here, env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("finalize ok 1", r.stdout)


if __name__ == "__main__":
    unittest.main()
