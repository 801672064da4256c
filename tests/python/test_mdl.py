# SPDX-License-Identifier: MIT
"""acl.mdl: tests/onnx's mlp converted with vnpu-atc with a batch range
(x:1~64,64), run through sample_dynamic_shape.py's flow (CANN's "dynamic
shape input (set shape range)") with the Python allocator, checked against
the CPU with the model's weights (tests/onnx/models.h)."""
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

import acl
import aclconst as C
import sample_dynamic_shape as sample
from pyacl_helpers import ensure_init

M = C.parse(os.path.join(C.TOP, "tests", "onnx", "models.h"))
ATC = os.path.join(C.TOP, "build", "tools", "vnpu-atc")
MLP = os.path.join(C.TOP, "build", "models", "mlp.onnx")


def fill(n, seed, scale):
    """models.h's mdl_fill, bit for bit (float32 arithmetic)."""
    out = np.empty(n, dtype=np.float32)
    x = (seed * 2654435761 + 1) & 0xFFFFFFFF
    for i in range(n):
        x = (x * 1664525 + 1013904223) & 0xFFFFFFFF
        out[i] = np.float32((x >> 8) - (1 << 23)) / np.float32(1 << 23) * np.float32(scale)
    return out


def mlp_ref(x):
    i, h, o = M["MDL_MLP_IN"], M["MDL_MLP_HID"], M["MDL_MLP_OUT"]
    # The scales of mdl_mlp_init.
    w1 = fill(i * h, M["MDL_SEED_MLP_W1"], 0.125).reshape(i, h).astype(np.float64)
    b1 = fill(h, M["MDL_SEED_MLP_B1"], 0.5).astype(np.float64)
    w2 = fill(h * o, M["MDL_SEED_MLP_W2"], 0.25).reshape(h, o).astype(np.float64)
    b2 = fill(o, M["MDL_SEED_MLP_B2"], 0.5).astype(np.float64)
    h1 = np.maximum(matmul(x.astype(np.float64), w1) + b1, 0)
    return matmul(h1, w2) + b2


def matmul(a, b):
    # Not a @ b: numpy's BLAS dies of an illegal instruction on the guest's
    # emulated CPU; elementwise products and sums do not use it.
    return (a[:, :, None] * b[None, :, :]).sum(axis=1)


class DynamicShape(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ctx = ensure_init()
        cls.tmp = tempfile.mkdtemp()
        cls.om = os.path.join(cls.tmp, "mlp_dyn")
        r = subprocess.run([ATC, "--framework=5", "--soc_version=Ascend310P3", "--model=" + MLP,
                            "--output=" + cls.om, "--input_shape=x:1~64,64"], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError("vnpu-atc failed: " + r.stdout + r.stderr)
        cls.om += ".om"

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_set_shape_range_flow(self):
        rng = np.random.default_rng(3)

        def make_input(n):
            return rng.uniform(-1, 1, (n, M["MDL_MLP_IN"])).astype(np.float32)

        info, results, alloc = sample.run(self.om, [1, 7, 64, 7, 65], make_input, M["MDL_MLP_OUT"],
                                          context=self.ctx)
        self.assertEqual((info["inputs"], info["outputs"]), (1, 1))
        self.assertEqual(info["input_dims"]["dims"], [-1, 64])
        self.assertEqual(info["input_dims"]["dimCount"], 2)
        self.assertIsInstance(info["input_dims"]["name"], str)
        self.assertEqual(info["input_range"], {"rangeCount": 2, "range": [[1, 64], [64, 64]]})
        self.assertEqual(info["output_dims"]["dims"][0], -1)
        self.assertEqual(info["input_type"], C.ACL_FLOAT)
        for batch, x, y, shape, ret in results[:4]:
            self.assertEqual(ret, C.ACL_SUCCESS, "batch %d" % batch)
            self.assertEqual(shape, [batch, M["MDL_MLP_OUT"]])
            np.testing.assert_allclose(y, mlp_ref(x), rtol=1e-4, atol=1e-5)
        # Outside the range: refused, nothing taken from the allocator.
        self.assertEqual(results[4][4], C.ACL_ERROR_INVALID_PARAM)
        # The Python allocator served the executions and got every block back.
        self.assertGreater(alloc.calls["alloc"], 0)
        self.assertEqual(alloc.calls["alloc"], alloc.calls["free"])
        self.assertEqual(alloc.outstanding(), 0)
        self.assertEqual(acl.rt._allocator_bindings(), (0, 0))

    def test_sample_as_a_program(self):
        env = dict(os.environ)
        r = subprocess.run(["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "sample_dynamic_shape.py"),
                            self.om, "1", "33"], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("batch 33: ret 0, output shape [33, 10]", r.stdout)

    def test_load_with_config(self):
        h = acl.mdl.create_config_handle()
        self.assertEqual(acl.mdl.set_config_opt(h, C.ACL_MDL_LOAD_TYPE_SIZET, C.ACL_MDL_LOAD_FROM_FILE), 0)
        self.assertEqual(acl.mdl.set_config_opt(h, C.ACL_MDL_PATH_PTR, self.om), 0)
        self.assertEqual(acl.mdl.set_config_opt(h, C.ACL_MDL_PRIORITY_INT32, 9), C.ACL_ERROR_INVALID_PARAM)
        with self.assertRaises(TypeError):
            acl.mdl.set_config_opt(h, C.ACL_MDL_PATH_PTR, 1.5)
        mid, ret = acl.mdl.load_with_config(h)
        self.assertEqual(ret, C.ACL_SUCCESS, acl.get_recent_err_msg())
        desc = acl.mdl.create_desc()
        self.assertEqual(acl.mdl.get_desc(desc, mid), 0)
        self.assertEqual(acl.mdl.get_input_dims(desc, 0)[0]["dims"], [-1, 64])
        e = acl.mdl.create_exec_config_handle()
        self.assertEqual(acl.mdl.set_exec_config_opt(e, C.ACL_MDL_STREAM_SYNC_TIMEOUT, 5000), 0)
        self.assertEqual(acl.mdl.set_exec_config_opt(e, C.ACL_MDL_STREAM_SYNC_TIMEOUT, -5),
                         C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.mdl.destroy_exec_config_handle(e), 0)
        self.assertEqual(acl.mdl.destroy_desc(desc), 0)
        self.assertEqual(acl.mdl.unload(mid), 0)
        self.assertEqual(acl.mdl.destroy_config_handle(h), 0)

    def test_load_errors(self):
        mid, ret = acl.mdl.load_from_file(os.path.join(self.tmp, "missing.om"))
        self.assertNotEqual(ret, C.ACL_SUCCESS)
        self.assertEqual(acl.mdl.get_input_dims(0, 0)[1], C.ACL_ERROR_INVALID_PARAM)


if __name__ == "__main__":
    unittest.main()
