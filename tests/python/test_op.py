# SPDX-License-Identifier: MIT
"""acl.op: attributes, the four execute entry points and operator handles,
on a stream with a Python allocator."""
import unittest

import numpy as np

import acl
import aclconst as C
from pyacl_helpers import DevTensor, check, ensure_init, make_desc, new_allocator, softmax_ref

SHAPE = (6, 40)


class Operators(unittest.TestCase):
    def setUp(self):
        ensure_init()
        self.stream, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        self.alloc = new_allocator("op")
        self.desc = make_desc(self.alloc)
        check(acl.rt.allocator_register(self.stream, self.desc), "allocator_register")
        self.host = np.random.default_rng(11).standard_normal(SHAPE).astype(np.float32)
        self.x = DevTensor(SHAPE, self.host)

    def tearDown(self):
        acl.rt.allocator_unregister(self.stream)
        acl.rt.allocator_destroy_desc(self.desc)
        acl.rt.destroy_stream(self.stream)
        self.x.destroy()
        self.alloc.release()

    def test_reduce_sum_with_attrs(self):
        attr = acl.op.create_attr()
        self.assertNotEqual(attr, 0)
        self.assertEqual(acl.op.set_attr_list_int(attr, "axes", [1]), C.ACL_SUCCESS)
        self.assertEqual(acl.op.set_attr_bool(attr, "keep_dims", 1), C.ACL_SUCCESS)
        # The other setters, on an attribute set of their own (the runtime
        # refuses attributes an operator does not take).
        other = acl.op.create_attr()
        self.assertEqual(acl.op.set_attr_int(other, "i", -(1 << 40)), C.ACL_SUCCESS)
        self.assertEqual(acl.op.set_attr_float(other, "f", 0.5), C.ACL_SUCCESS)
        self.assertEqual(acl.op.set_attr_string(other, "s", "x"), C.ACL_SUCCESS)
        self.assertEqual(acl.op.set_attr_list_float(other, "lf", [1.0, 2]), C.ACL_SUCCESS)
        self.assertEqual(acl.op.set_attr_data_type(other, "t", C.ACL_FLOAT), C.ACL_SUCCESS)
        with self.assertRaises(TypeError):
            acl.op.set_attr_list_int(other, "axes", [1.5])
        acl.op.destroy_attr(other)
        y = DevTensor((SHAPE[0], 1))
        ret = acl.op.execute_v2("ReduceSumD", [self.x.desc], [self.x.buf], [y.desc], [y.buf], attr, self.stream)
        self.assertEqual(ret, C.ACL_SUCCESS, acl.get_recent_err_msg())
        self.assertEqual(acl.rt.synchronize_stream(self.stream), C.ACL_SUCCESS)
        np.testing.assert_allclose(y.download(), self.host.astype(np.float64).sum(axis=1, keepdims=True),
                                   rtol=1e-5, atol=1e-5)
        self.assertIsNone(acl.op.destroy_attr(attr))
        y.destroy()

    def test_entry_points_and_handle(self):
        y = DevTensor(SHAPE)
        ref = softmax_ref(self.host)
        calls = [
            lambda: acl.op.execute("SoftmaxV2", [self.x.desc], [self.x.buf], [y.desc], [y.buf], 0, self.stream),
            lambda: acl.op.compile_and_execute_v2("SoftmaxV2", [self.x.desc], [self.x.buf], [y.desc], [y.buf], 0,
                                                  C.ACL_ENGINE_SYS, C.ACL_COMPILE_SYS, None, self.stream),
            lambda: acl.op.compile_and_execute("SoftmaxV2", [self.x.desc], [self.x.buf], [y.desc], [y.buf], 0,
                                               C.ACL_ENGINE_SYS, C.ACL_COMPILE_SYS, None, self.stream),
        ]
        handle, ret = acl.op.create_handle("SoftmaxV2", [self.x.desc], [y.desc], 0)
        self.assertEqual(ret, C.ACL_SUCCESS, acl.get_recent_err_msg())
        calls.append(lambda: acl.op.execute_with_handle(handle, [self.x.buf], [y.buf], self.stream))
        for k, call in enumerate(calls):
            acl.rt.memset(y.ptr, y.nbytes, 0, y.nbytes)
            self.assertEqual(call(), C.ACL_SUCCESS, "entry %d: %s" % (k, acl.get_recent_err_msg()))
            self.assertEqual(acl.rt.synchronize_stream(self.stream), C.ACL_SUCCESS)
            np.testing.assert_allclose(y.download(), ref, rtol=1e-5, atol=1e-6, err_msg="entry %d" % k)
        self.assertEqual(self.alloc.calls["alloc"], len(calls))
        self.assertEqual(self.alloc.calls["free"], len(calls))
        self.assertIsNone(acl.op.destroy_handle(handle))
        # Lists of different lengths: a ValueError before any C call.
        with self.assertRaises(ValueError):
            acl.op.execute_v2("SoftmaxV2", [self.x.desc], [], [y.desc], [y.buf], 0, self.stream)
        with self.assertRaises(TypeError):
            acl.op.execute_v2("SoftmaxV2", self.x.desc, [self.x.buf], [y.desc], [y.buf], 0, self.stream)
        # An unknown operator: the runtime's code.
        self.assertNotEqual(acl.op.execute_v2("NoSuchOp", [self.x.desc], [self.x.buf], [y.desc], [y.buf], 0,
                                              self.stream), C.ACL_SUCCESS)
        y.destroy()


if __name__ == "__main__":
    unittest.main()
