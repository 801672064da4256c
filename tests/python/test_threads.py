# SPDX-License-Identifier: MIT
"""Callbacks and threads: launch_callback with subscribe_report /
process_report on a thread from acl.util.start_thread, launch_host_func,
and eight Python threads running operators on their own streams, each with
its own Python allocator."""
import contextlib
import io
import threading
import unittest

import numpy as np

import acl
import aclconst as C
from pyacl_helpers import DevTensor, check, ensure_init, make_desc, new_allocator, run_softmax, softmax_ref


def setUpModule():
    ensure_init()


class Callbacks(unittest.TestCase):
    def setUp(self):
        self.ctx = ensure_init()
        self.stream, ret = acl.rt.create_stream()
        check(ret, "create_stream")

    def tearDown(self):
        acl.rt.destroy_stream(self.stream)

    def test_launch_callback_process_report(self):
        stop = threading.Event()
        seen = []

        def reporter(args):
            acl.rt.set_context(self.ctx)
            while not stop.is_set():
                acl.rt.process_report(50)

        def cb(data):
            seen.append((data, threading.get_ident()))

        tid, ret = acl.util.start_thread(reporter, [1])
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.subscribe_report(tid, self.stream), C.ACL_SUCCESS)
        for i in range(3):
            self.assertEqual(acl.rt.launch_callback(cb, {"i": i}, C.ACL_CALLBACK_BLOCK, self.stream),
                             C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), C.ACL_SUCCESS)
        self.assertEqual([d for d, _ in seen], [{"i": 0}, {"i": 1}, {"i": 2}])
        # Run on the subscribed thread, not this one.
        self.assertTrue(all(t == tid for _, t in seen), (seen, tid))
        self.assertEqual(acl.rt.unsubscribe_report(tid, self.stream), C.ACL_SUCCESS)
        stop.set()
        self.assertEqual(acl.util.stop_thread(tid), 0)

    def test_callback_that_raises(self):
        stop = threading.Event()

        def reporter():     # start_thread(fn, None) calls fn()
            acl.rt.set_context(self.ctx)
            while not stop.is_set():
                acl.rt.process_report(50)

        def cb(data):
            raise RuntimeError("callback failed on purpose")

        after = []
        tid, ret = acl.util.start_thread(reporter, None)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.subscribe_report(tid, self.stream), C.ACL_SUCCESS)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(acl.rt.launch_callback(cb, None, C.ACL_CALLBACK_BLOCK, self.stream), 0)
            self.assertEqual(acl.rt.launch_callback(after.append, 7, C.ACL_CALLBACK_BLOCK, self.stream), 0)
            self.assertEqual(acl.rt.synchronize_stream(self.stream), C.ACL_SUCCESS)
        self.assertIn("callback failed on purpose", err.getvalue())
        self.assertEqual(after, [7])
        self.assertEqual(acl.rt.unsubscribe_report(tid, self.stream), C.ACL_SUCCESS)
        stop.set()
        self.assertEqual(acl.util.stop_thread(tid), 0)

    def test_launch_host_func(self):
        got = []
        self.assertEqual(acl.rt.launch_host_func(self.stream, got.append, "hello"), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), C.ACL_SUCCESS)
        self.assertEqual(got, ["hello"])

    def test_start_thread_exception(self):
        def boom(args):
            raise ValueError("thread %s" % args)

        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            tid, ret = acl.util.start_thread(boom, "x")
            self.assertEqual(ret, 0)
            with self.assertRaises(RuntimeError) as cm:
                acl.util.stop_thread(tid)
        self.assertIn("ValueError", str(cm.exception))
        self.assertIn("thread x", err.getvalue())


class EightThreads(unittest.TestCase):
    def test_eight_threads_own_streams(self):
        ctx = ensure_init()
        n, rounds = 8, 3
        errors, allocs = [], [new_allocator("t%d" % i) for i in range(n)]
        barrier = threading.Barrier(n)

        def work(i):
            try:
                check(acl.rt.set_context(ctx), "set_context")
                stream, ret = acl.rt.create_stream()
                check(ret, "create_stream")
                desc = make_desc(allocs[i])
                check(acl.rt.allocator_register(stream, desc), "allocator_register")
                host = np.random.default_rng(i).standard_normal((4, 32 + i)).astype(np.float32)
                x, y = DevTensor(host.shape, host), DevTensor(host.shape)
                barrier.wait()
                for _ in range(rounds):
                    check(run_softmax(x, y, stream), "execute_v2")
                    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
                    np.testing.assert_allclose(y.download(), softmax_ref(host), rtol=1e-5, atol=1e-6)
                check(acl.rt.allocator_unregister(stream), "allocator_unregister")
                check(acl.rt.allocator_destroy_desc(desc), "allocator_destroy_desc")
                x.destroy()
                y.destroy()
                check(acl.rt.destroy_stream(stream), "destroy_stream")
            except BaseException as e:  # noqa: B902 - reported below
                errors.append((i, repr(e)))
                barrier.abort()

        threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        self.assertEqual(errors, [])
        for a in allocs:
            self.assertEqual((a.calls["alloc"], a.calls["free"], a.outstanding()), (rounds, rounds, 0))
            a.release()
        self.assertEqual(acl.rt._allocator_bindings(), (0, 0))


if __name__ == "__main__":
    unittest.main()
