#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CANN's "dynamic shape input (set shape range)" flow, in Python with
pyACL's API: a model whose batch dimension is decided at execution (the
range given at conversion, e.g. vnpu-atc --input_shape="x:1~64,64") runs
at several batch sizes, its intermediate memory served by a Python
caching allocator registered for the stream.

  acl.init, set_device, create_context, create_stream
  a caching allocator registered for the stream (allocator_register)
  load_from_file; create_desc + get_desc: dims with -1, the dims range
  for each batch: the input's real shape set on the input dataset
    (set_dataset_tensor_desc), execute_async, the output's shape read from
    the output dataset (get_dataset_tensor_desc), synchronize_stream
  unload, unregister, destroy, reset_device, finalize

usage: sample_dynamic_shape.py MODEL.om [BATCH...]
(tests/python/test_mdl.py converts tests/onnx's mlp.onnx and runs this flow
with its CPU reference.)"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "python"))
sys.path.insert(0, HERE)

import acl  # noqa: E402
import aclconst as C  # noqa: E402
from pyacl_helpers import check, make_desc, new_allocator  # noqa: E402


def describe(model_id):
    desc = acl.mdl.create_desc()
    check(acl.mdl.get_desc(desc, model_id), "acl.mdl.get_desc")
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    check(ret, "acl.mdl.get_input_dims")
    rng, ret = acl.mdl.get_input_dims_range(desc, 0)
    check(ret, "acl.mdl.get_input_dims_range")
    out_dims, ret = acl.mdl.get_output_dims(desc, 0)
    check(ret, "acl.mdl.get_output_dims")
    info = {
        "inputs": acl.mdl.get_num_inputs(desc),
        "outputs": acl.mdl.get_num_outputs(desc),
        "input_name": acl.mdl.get_input_name_by_index(desc, 0),
        "input_dims": dims,
        "input_range": rng,
        "output_dims": out_dims,
        "input_type": acl.mdl.get_input_data_type(desc, 0),
    }
    check(acl.mdl.destroy_desc(desc), "acl.mdl.destroy_desc")
    return info


def execute(model_id, stream, x, out_row):
    """Run @model_id on host array @x [batch, ...]: returns (output array,
    the output shape read right after execute_async)."""
    batch = x.shape[0]
    x = np.ascontiguousarray(x, dtype=np.float32)
    y = np.empty((batch, out_row), dtype=np.float32)
    dx, ret = acl.rt.malloc(x.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "acl.rt.malloc")
    dy, ret = acl.rt.malloc(y.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "acl.rt.malloc")
    check(acl.rt.memcpy(dx, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, C.ACL_MEMCPY_HOST_TO_DEVICE),
          "acl.rt.memcpy")
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    bx, by = acl.create_data_buffer(dx, x.nbytes), acl.create_data_buffer(dy, y.nbytes)
    check(acl.mdl.add_dataset_buffer(ins, bx), "acl.mdl.add_dataset_buffer")
    check(acl.mdl.add_dataset_buffer(outs, by), "acl.mdl.add_dataset_buffer")
    # The shape of this execution, inside the model's range.
    tdesc = acl.create_tensor_desc(C.ACL_FLOAT, list(x.shape), C.ACL_FORMAT_ND)
    check(acl.mdl.set_dataset_tensor_desc(ins, tdesc, 0), "acl.mdl.set_dataset_tensor_desc")
    ret = acl.mdl.execute_async(model_id, ins, outs, stream)
    shape = None
    if ret == C.ACL_SUCCESS:
        od = acl.mdl.get_dataset_tensor_desc(outs, 0)
        shape = [acl.get_tensor_desc_dim_v2(od, k)[0] for k in range(acl.get_tensor_desc_num_dims(od))]
        check(acl.rt.synchronize_stream(stream), "acl.rt.synchronize_stream")
        check(acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, dy, y.nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST),
              "acl.rt.memcpy")
    acl.destroy_tensor_desc(tdesc)
    for b in (bx, by):
        acl.destroy_data_buffer(b)
    acl.mdl.destroy_dataset(ins)
    acl.mdl.destroy_dataset(outs)
    acl.rt.free(dx)
    acl.rt.free(dy)
    return (y if ret == C.ACL_SUCCESS else None), shape, ret


def run(om_path, batches, make_input, out_row, context=None):
    """The flow on @om_path for each batch in @batches; make_input(batch)
    gives the input. Returns (model info, [(batch, x, y, shape, ret)],
    allocator)."""
    if context is None:
        check(acl.init(), "acl.init")
        check(acl.rt.set_device(0), "acl.rt.set_device")
        context, ret = acl.rt.create_context(0)
        check(ret, "acl.rt.create_context")
    else:
        check(acl.rt.set_context(context), "acl.rt.set_context")
    stream, ret = acl.rt.create_stream()
    check(ret, "acl.rt.create_stream")
    alloc = new_allocator("model")
    desc = make_desc(alloc)
    check(acl.rt.allocator_register(stream, desc), "acl.rt.allocator_register")
    model_id, ret = acl.mdl.load_from_file(om_path)
    check(ret, "acl.mdl.load_from_file")
    info = describe(model_id)
    results = []
    for batch in batches:
        x = make_input(batch)
        y, shape, ret = execute(model_id, stream, x, out_row)
        results.append((batch, x, y, shape, ret))
    check(acl.mdl.unload(model_id), "acl.mdl.unload")
    check(acl.rt.allocator_unregister(stream), "acl.rt.allocator_unregister")
    check(acl.rt.allocator_destroy_desc(desc), "acl.rt.allocator_destroy_desc")
    check(acl.rt.destroy_stream(stream), "acl.rt.destroy_stream")
    alloc.release()
    return info, results, alloc


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    batches = [int(b) for b in argv[2:]] or [1, 7, 64]
    info, results, alloc = run(argv[1], batches, lambda n: np.ones((n, 64), np.float32), 10)
    print("model: %s" % info)
    for batch, _, _, shape, ret in results:
        print("batch %d: ret %d, output shape %s" % (batch, ret, shape))
    print("allocator calls: %s" % alloc.calls)
    check(acl.rt.reset_device(0), "acl.rt.reset_device")
    check(acl.finalize(), "acl.finalize")
    return 0 if all(r[4] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
