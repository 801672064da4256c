# SPDX-License-Identifier: MIT
"""acl, acl.rt, acl.util and acl.media: return shapes, error codes, type
checks, and memory copies in every direction through numpy arrays."""
import unittest

import numpy as np

import acl
import aclconst as C
from pyacl_helpers import DEVICE, check, ensure_init


def setUpModule():
    ensure_init()


class ReturnShapes(unittest.TestCase):
    def setUp(self):
        ensure_init()

    def test_version_and_names(self):
        r = acl.get_version()
        self.assertEqual(len(r), 4)
        self.assertEqual(r[3], C.ACL_SUCCESS)
        self.assertTrue(all(isinstance(v, int) for v in r))
        self.assertIsInstance(acl.get_soc_name(), str)

    def test_device_queries(self):
        dev, ret = acl.rt.get_device()
        self.assertEqual((dev, ret), (DEVICE, C.ACL_SUCCESS))
        n, ret = acl.rt.get_device_count()
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertGreaterEqual(n, 1)
        mode, ret = acl.rt.get_run_mode()
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertIn(mode, (C.ACL_DEVICE, C.ACL_HOST))
        free, total, ret = acl.rt.get_mem_info(C.ACL_HBM_MEM)
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertGreater(total, 0)
        self.assertLessEqual(free, total)
        ctx, ret = acl.rt.get_context()
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertNotEqual(ctx, 0)
        # Issue 17's queries: the device's memory matches get_mem_info's total,
        # priorities run from 7 (least) to 0, half floats convert both ways.
        mem, ret = acl.rt.get_device_info(DEVICE, 301)      # ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE
        self.assertEqual((mem, ret), (total, C.ACL_SUCCESS))
        least, greatest, ret = acl.rt.device_get_stream_priority_range()
        self.assertEqual((least, greatest, ret), (7, 0, C.ACL_SUCCESS))
        self.assertEqual(acl.float16_to_float(0x3c00), 1.0)
        self.assertEqual(acl.float_to_float16(-2.0), 0xc000)

    def test_stream_and_events(self):
        stream, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        self.assertIsInstance(stream, int)
        start, ret = acl.rt.create_event()
        check(ret, "create_event")
        end, ret = acl.rt.create_event()
        check(ret, "create_event")
        self.assertEqual(acl.rt.record_event(start, stream), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.record_event(end, stream), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_event(end), C.ACL_SUCCESS)
        status, ret = acl.rt.query_event_status(end)
        self.assertEqual((status, ret), (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, C.ACL_SUCCESS))
        ms, ret = acl.rt.event_elapsed_time(start, end)
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertIsInstance(ms, float)
        self.assertGreaterEqual(ms, 0.0)
        ts, ret = acl.rt.event_get_timestamp(end)
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertIsInstance(ts, int)
        status, ret = acl.rt.stream_query(stream)
        self.assertEqual((status, ret), (C.ACL_STREAM_STATUS_COMPLETE, C.ACL_SUCCESS))
        self.assertEqual(acl.rt.synchronize_stream(stream), C.ACL_SUCCESS)
        for e in (start, end):
            self.assertEqual(acl.rt.destroy_event(e), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_stream(stream), C.ACL_SUCCESS)

    def test_error_codes(self):
        # A destroyed or made-up handle: the runtime's code, not an exception.
        self.assertEqual(acl.rt.destroy_stream(0x1234), C.ACL_ERROR_INVALID_PARAM)
        self.assertNotEqual(acl.rt.free(0), C.ACL_SUCCESS)
        ptr, ret = acl.rt.malloc(0, C.ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(ptr, 0)
        self.assertIsInstance(acl.get_recent_err_msg(), str)
        self.assertEqual(acl.rt.allocator_register(0, 0), C.ACL_ERROR_INVALID_PARAM)

    def test_type_errors(self):
        with self.assertRaises(TypeError):
            acl.rt.malloc("16", C.ACL_MEM_MALLOC_HUGE_FIRST)
        with self.assertRaises(TypeError):
            acl.rt.malloc(16)
        with self.assertRaises(TypeError):
            acl.rt.synchronize_stream(1.5)
        with self.assertRaises(TypeError):
            acl.rt.memcpy(0, 4, "x", 4, C.ACL_MEMCPY_HOST_TO_HOST)
        with self.assertRaises(TypeError):
            acl.mdl.load_from_file(7)
        with self.assertRaises(TypeError):
            acl.create_tensor_desc(C.ACL_FLOAT, "2,2", C.ACL_FORMAT_ND)
        with self.assertRaises(TypeError):
            acl.rt.allocator_set_alloc_func_to_desc(acl.rt.allocator_create_desc(), 5)
        with self.assertRaises(TypeError):
            acl.rt.launch_callback(None, None, 0, 0)
        with self.assertRaises(OverflowError):
            acl.rt.set_device(1 << 40)

    def test_tensor_desc_and_buffer(self):
        desc = acl.create_tensor_desc(C.ACL_FLOAT, [2, 3, 4], C.ACL_FORMAT_ND)
        self.assertNotEqual(desc, 0)
        self.assertEqual(acl.get_tensor_desc_num_dims(desc), 3)
        self.assertEqual(acl.get_tensor_desc_dim_v2(desc, 1), (3, C.ACL_SUCCESS))
        self.assertEqual(acl.get_tensor_desc_element_count(desc), 24)
        self.assertEqual(acl.get_tensor_desc_size(desc), 96)
        self.assertEqual(acl.get_tensor_desc_type(desc), C.ACL_FLOAT)
        self.assertEqual(acl.get_tensor_desc_format(desc), C.ACL_FORMAT_ND)
        self.assertEqual(acl.set_tensor_shape(desc, [4, 6]), C.ACL_SUCCESS)
        self.assertEqual(acl.get_tensor_desc_num_dims(desc), 2)
        self.assertIsNone(acl.destroy_tensor_desc(desc))
        self.assertEqual(acl.data_type_size(C.ACL_FLOAT), 4)
        buf = acl.create_data_buffer(0x1000, 1 << 33)
        self.assertEqual(acl.get_data_buffer_addr(buf), 0x1000)
        self.assertEqual(acl.get_data_buffer_size_v2(buf), 1 << 33)   # full width
        self.assertEqual(acl.destroy_data_buffer(buf), C.ACL_SUCCESS)


class Memory(unittest.TestCase):
    def setUp(self):
        ensure_init()
        self.stream, ret = acl.rt.create_stream()
        check(ret, "create_stream")

    def tearDown(self):
        acl.rt.destroy_stream(self.stream)

    def test_every_direction(self):
        n = 1024
        src = np.arange(n, dtype=np.float32) * 0.5
        dst = np.zeros(n, dtype=np.float32)
        host2 = np.zeros(n, dtype=np.float32)
        d1, ret = acl.rt.malloc(src.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "malloc")
        d2, ret = acl.rt.malloc(src.nbytes, C.ACL_MEM_MALLOC_NORMAL_ONLY)
        check(ret, "malloc")
        sp, dp, hp = (acl.util.numpy_to_ptr(a) for a in (src, dst, host2))
        self.assertEqual(acl.rt.memcpy(d1, src.nbytes, sp, src.nbytes, C.ACL_MEMCPY_HOST_TO_DEVICE), 0)
        self.assertEqual(acl.rt.memcpy(d2, src.nbytes, d1, src.nbytes, C.ACL_MEMCPY_DEVICE_TO_DEVICE), 0)
        self.assertEqual(acl.rt.memcpy(dp, dst.nbytes, d2, src.nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST), 0)
        np.testing.assert_array_equal(dst, src)
        self.assertEqual(acl.rt.memcpy(hp, host2.nbytes, dp, dst.nbytes, C.ACL_MEMCPY_HOST_TO_HOST), 0)
        np.testing.assert_array_equal(host2, src)
        # Asynchronous copies and a fill, then one synchronize.
        out = np.zeros(n, dtype=np.float32)
        self.assertEqual(acl.rt.memset_async(d2, src.nbytes, 0, src.nbytes, self.stream), 0)
        self.assertEqual(acl.rt.memcpy_async(d2, src.nbytes, d1, src.nbytes // 2,
                                             C.ACL_MEMCPY_DEVICE_TO_DEVICE, self.stream), 0)
        self.assertEqual(acl.rt.memcpy_async(acl.util.numpy_to_ptr(out), out.nbytes, d2, src.nbytes,
                                             C.ACL_MEMCPY_DEVICE_TO_HOST, self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        np.testing.assert_array_equal(out[:n // 2], src[:n // 2])
        np.testing.assert_array_equal(out[n // 2:], 0)
        # A copy larger than the destination is refused.
        self.assertEqual(acl.rt.memcpy(dp, 4, d1, 8, C.ACL_MEMCPY_DEVICE_TO_HOST), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.free(d1), 0)
        self.assertEqual(acl.rt.free(d2), 0)

    def test_host_memory_as_numpy_zero_copy(self):
        hptr, ret = acl.rt.malloc_host(64)
        check(ret, "malloc_host")
        a = acl.util.ptr_to_numpy(hptr, (4, 4), np.dtype(np.float32).num)
        self.assertEqual(a.shape, (4, 4))
        self.assertTrue(a.flags.writeable)
        a[:] = np.arange(16, dtype=np.float32).reshape(4, 4)
        # The same memory, seen as bytes and as a second array.
        self.assertEqual(acl.util.ptr_to_bytes(hptr, 64), a.tobytes())
        b = acl.util.ptr_to_numpy(hptr, [16], np.dtype(np.float32).num)
        b[0] = 42.0
        self.assertEqual(a[0, 0], 42.0)
        del a, b
        self.assertEqual(acl.rt.free_host(hptr), 0)

    def test_bytes_and_contiguous(self):
        data = bytes(range(256))
        ptr = acl.util.bytes_to_ptr(data)
        self.assertEqual(acl.util.ptr_to_bytes(ptr, 256), data)
        ba = bytearray(16)
        acl.rt.memcpy(acl.util.bytes_to_ptr(ba), 16, ptr, 16, C.ACL_MEMCPY_HOST_TO_HOST)
        self.assertEqual(bytes(ba), data[:16])
        m = np.arange(36, dtype=np.int32).reshape(6, 6)[:, ::2]   # not contiguous
        ptr, arr = acl.util.numpy_contiguous_to_ptr(m)
        self.assertTrue(arr.flags.c_contiguous)
        self.assertEqual(acl.util.ptr_to_bytes(ptr, m.nbytes), np.ascontiguousarray(m).tobytes())
        with self.assertRaises(TypeError):
            acl.util.numpy_to_ptr([1, 2, 3])

    def test_memcpy2d_and_a_captured_graph(self):
        # A 4 x 6 matrix into a device matrix of pitch 16, back with pitch 8.
        src = np.arange(24, dtype=np.uint8).reshape(4, 6)
        out = np.zeros((4, 8), dtype=np.uint8)
        d, ret = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "malloc")
        self.assertEqual(acl.rt.memcpy2d(d, 16, acl.util.numpy_to_ptr(src), 6, 6, 4,
                                         C.ACL_MEMCPY_HOST_TO_DEVICE), 0)
        self.assertEqual(acl.rt.memcpy2d_async(acl.util.numpy_to_ptr(out), 8, d, 16, 6, 4,
                                               C.ACL_MEMCPY_DEVICE_TO_HOST, self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        np.testing.assert_array_equal(out[:, :6], src)
        np.testing.assert_array_equal(out[:, 6:], 0)
        # Capture a fill of the device matrix, then replay it.
        self.assertEqual(acl.mdl.ri_capture_begin(self.stream, 2), 0)   # RELAXED
        status, ri, ret = acl.mdl.ri_capture_get_info(self.stream)
        self.assertEqual((status, ret), (1, 0))                         # ACTIVE
        self.assertEqual(acl.rt.memset_async(d, 64, 7, 64, self.stream), 0)
        ri, ret = acl.mdl.ri_capture_end(self.stream)
        self.assertEqual(ret, 0)
        self.assertNotEqual(ri, 0)
        rid, ret = acl.mdl.ri_get_id(ri)
        self.assertEqual(ret, 0)
        self.assertGreater(rid, 0)
        self.assertEqual(acl.mdl.ri_get_name(ri), ("", 0))
        self.assertEqual(acl.mdl.ri_set_name(ri, "fill"), 0)
        self.assertEqual(acl.mdl.ri_get_name(ri), ("fill", 0))
        self.assertEqual(acl.mdl.ri_execute_async(ri, self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        back = np.zeros(64, dtype=np.uint8)
        self.assertEqual(acl.rt.memcpy(acl.util.numpy_to_ptr(back), 64, d, 64, C.ACL_MEMCPY_DEVICE_TO_HOST), 0)
        np.testing.assert_array_equal(back, 7)
        self.assertEqual(acl.mdl.ri_destroy(ri), 0)
        self.assertEqual(acl.rt.free(d), 0)

    def test_ri_build(self):
        # Issue 19's build mode: a persistent stream bound to an instance
        # records a fill, the built instance replays it.
        d, ret = acl.rt.malloc(64, 0)
        self.assertEqual(ret, 0)
        p, ret = acl.rt.create_stream_with_config(0, 4)             # PERSISTENT
        self.assertEqual(ret, 0)
        ri, ret = acl.mdl.ri_build_begin(0)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.mdl.ri_bind_stream(ri, p, 0), 0)       # HEAD
        self.assertEqual(acl.rt.memset_async(d, 64, 9, 64, p), 0)
        self.assertEqual(acl.mdl.ri_end_task(ri, p), 0)
        self.assertEqual(acl.mdl.ri_build_end(ri, 0), 0)
        self.assertEqual(acl.mdl.ri_execute_async(ri, self.stream), 0)
        self.assertEqual(acl.mdl.ri_abort(ri), 0)
        back = np.zeros(64, dtype=np.uint8)
        self.assertEqual(acl.rt.memcpy(acl.util.numpy_to_ptr(back), 64, d, 64, C.ACL_MEMCPY_DEVICE_TO_HOST), 0)
        np.testing.assert_array_equal(back, 9)
        self.assertEqual(acl.mdl.ri_bind_stream(ri, p, 5), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.mdl.ri_unbind_stream(ri, p), 0)
        self.assertEqual(acl.mdl.ri_destroy(ri), 0)
        self.assertEqual(acl.rt.destroy_stream(p), 0)
        self.assertEqual(acl.rt.free(d), 0)

    def test_dvpp(self):
        ptr, ret = acl.media.dvpp_malloc(4096)
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertNotEqual(ptr, 0)
        self.assertEqual(acl.media.dvpp_free(ptr), C.ACL_SUCCESS)


class CallerBuffers(unittest.TestCase):
    """pyacl2: caller buffers returned as str, aclAppLog with a preformatted
    message."""

    def setUp(self):
        ensure_init()

    def test_pci_bus_id(self):
        bus, ret = acl.rt.device_get_pci_bus_id(DEVICE)
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertEqual(bus, "0000:%02x:00.0" % (DEVICE + 1))
        bus, ret = acl.rt.device_get_pci_bus_id(9999)
        self.assertEqual((bus, ret), ("", 107001))    # ACL_ERROR_RT_INVALID_DEVICEID
        with self.assertRaises(TypeError):
            acl.rt.device_get_pci_bus_id("0")

    def test_version_str(self):
        ver, ret = acl.sys_get_version_str("runtime")
        self.assertEqual(ret, C.ACL_SUCCESS)
        self.assertIsInstance(ver, str)
        self.assertNotEqual(ver, "")
        with self.assertRaises(TypeError):
            acl.sys_get_version_str(1)

    def test_capture_thread_exchange_mode(self):
        # Threads start in GLOBAL (0); the old mode comes back, the new one stays.
        self.assertEqual(acl.mdl.ri_capture_thread_exchange_mode(2), (0, 0))
        self.assertEqual(acl.mdl.ri_capture_thread_exchange_mode(0), (2, 0))
        with self.assertRaises(TypeError):
            acl.mdl.ri_capture_thread_exchange_mode("0")

    def test_app_log(self):
        # '%' in the message must not be taken as a format.
        self.assertIsNone(acl.app_log(1, "test_app_log", __file__, 1, "100%s %d done"))
        with self.assertRaises(TypeError):
            acl.app_log(1, "f", "x", 1, 2)


if __name__ == "__main__":
    unittest.main()
