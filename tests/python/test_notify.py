# SPDX-License-Identifier: MIT
"""acl.rt, issue 17 streams group: stream and event identity, operator
timeouts, a notify recorded on one stream releasing a wait on another,
and a stream's failure mode, abort and stop."""
import unittest

import acl
import aclconst as C
from pyacl_helpers import ensure_init

# include/acl/error_codes/rt_error_codes.h (aclconst reads include/acl/*.h).
ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046
ACL_ERROR_RT_STREAM_ABORT = 107023


def check(r):
    """The value of a (value, ret) pair whose ret is ACL_SUCCESS."""
    value, ret = r
    if ret != C.ACL_SUCCESS:
        raise AssertionError("failed: %d (%s)" % (ret, acl.get_recent_err_msg()))
    return value


def setUpModule():
    ensure_init()


class StreamsAndNotifies(unittest.TestCase):
    def test_stream_and_event_identity(self):
        s = check(acl.rt.create_stream_with_config(2, 0))
        self.assertGreaterEqual(check(acl.rt.stream_get_id(s)), 0)
        self.assertEqual(check(acl.rt.stream_get_priority(s)), 2)
        self.assertEqual(check(acl.rt.stream_get_flags(s)), 0)
        e = check(acl.rt.create_event())
        self.assertIsInstance(check(acl.rt.get_event_id(e)), int)
        self.assertEqual(acl.rt.destroy_event(e), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_stream(s), C.ACL_SUCCESS)

    def test_streams_available_and_record_with_flag(self):
        before = check(acl.rt.get_stream_available_num())
        s = check(acl.rt.create_stream())
        self.assertEqual(check(acl.rt.get_stream_available_num()), before - 1)
        e = check(acl.rt.create_event())
        self.assertEqual(acl.rt.record_event_with_flag(e, s, C.ACL_EVENT_RECORD_DEFAULT), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_event(e), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.record_event_with_flag(e, s, 2), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.destroy_event(e), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_stream(s), C.ACL_SUCCESS)
        self.assertEqual(check(acl.rt.get_stream_available_num()), before)

    def test_op_execute_timeouts(self):
        self.assertEqual(acl.rt.get_op_timeout_interval(), (1000, C.ACL_SUCCESS))
        self.assertEqual(acl.rt.set_op_execute_timeout_v2(1500), (2000, C.ACL_SUCCESS))
        self.assertEqual(acl.rt.get_op_execute_timeout(), (2, C.ACL_SUCCESS))
        self.assertEqual(acl.rt.set_op_execute_timeout(4), C.ACL_SUCCESS)
        self.assertEqual(check(acl.rt.get_op_execute_timeout()), 4000)
        self.assertEqual(acl.rt.set_op_execute_timeout_with_ms(10000), C.ACL_SUCCESS)
        self.assertEqual(check(acl.rt.get_op_execute_timeout()), 10000)

    def test_stream_v2(self):
        h = acl.rt.create_stream_config_handle()
        self.assertNotEqual(h, 0)
        s = check(acl.rt.create_stream_v2(h))
        self.assertEqual(check(acl.rt.stream_get_priority(s)), 0)
        self.assertEqual(acl.rt.destroy_stream(s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_stream_config_handle(h), C.ACL_SUCCESS)

    def test_notify_between_streams(self):
        a = check(acl.rt.create_stream())
        b = check(acl.rt.create_stream())
        n = check(acl.rt.create_notify(0))
        self.assertIsInstance(check(acl.rt.get_notify_id(n)), int)
        self.assertEqual(acl.rt.wait_and_reset_notify(n, a, 0), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream_with_timeout(a, 200),
                         ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        self.assertEqual(acl.rt.record_notify(n, b), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(a), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(b), C.ACL_SUCCESS)
        _, ret = acl.rt.create_notify(1)
        self.assertEqual(ret, C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.destroy_notify(n), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_notify(n), C.ACL_ERROR_INVALID_PARAM)
        for s in (a, b):
            self.assertEqual(acl.rt.destroy_stream(s), C.ACL_SUCCESS)

    def test_failure_mode_abort_and_stop(self):
        s = check(acl.rt.create_stream())
        self.assertEqual(acl.rt.set_stream_failure_mode(s, C.ACL_STOP_ON_FAILURE), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.set_stream_failure_mode(s, 2), C.ACL_ERROR_INVALID_PARAM)
        gate = check(acl.rt.malloc(8, C.ACL_MEM_MALLOC_NORMAL_ONLY))
        self.assertEqual(acl.rt.memset(gate, 8, 0, 8), C.ACL_SUCCESS)
        # A wait that never holds, discarded by the abort.
        self.assertEqual(acl.rt.value_wait(gate, 1, C.ACL_VALUE_WAIT_EQ, s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.stream_abort(s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(s), ACL_ERROR_RT_STREAM_ABORT)
        self.assertEqual(acl.rt.value_write(gate, 0, 0, s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(s), C.ACL_SUCCESS)
        # Stopped until the next abort.
        self.assertEqual(acl.rt.stream_stop(s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.value_write(gate, 0, 0, s), ACL_ERROR_RT_STREAM_ABORT)
        self.assertEqual(acl.rt.stream_abort(s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.value_write(gate, 0, 0, s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(s), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.stream_stop(0), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.free(gate), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.destroy_stream(s), C.ACL_SUCCESS)

    def test_notify_batch_reset(self):
        a = check(acl.rt.create_stream())
        b = check(acl.rt.create_stream())
        ns = [check(acl.rt.create_notify(0)) for _ in range(2)]
        for n in ns:
            self.assertEqual(acl.rt.record_notify(n, b), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(b), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.notify_batch_reset(ns), C.ACL_SUCCESS)
        # The records are gone: a wait holds until a new record.
        self.assertEqual(acl.rt.wait_and_reset_notify(ns[1], a, 0), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream_with_timeout(a, 200),
                         ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        self.assertEqual(acl.rt.record_notify(ns[1], b), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(a), C.ACL_SUCCESS)
        self.assertEqual(acl.rt.notify_batch_reset([]), C.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.notify_batch_reset([ns[0], 12345]), C.ACL_ERROR_INVALID_PARAM)
        with self.assertRaises(TypeError):
            acl.rt.notify_batch_reset(ns[0])
        for n in ns:
            self.assertEqual(acl.rt.destroy_notify(n), C.ACL_SUCCESS)
        for s in (a, b):
            self.assertEqual(acl.rt.destroy_stream(s), C.ACL_SUCCESS)


if __name__ == "__main__":
    unittest.main()
