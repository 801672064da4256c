#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run ONNX's node tests as models (build/onnx/model_tests: vnpu-atc's
# converter, the .om, then lib/ops on the host or, with --acl, aclmdlExecute)
# with every expected-results list of tests/onnx/expected and the graphs
# that only pass as models (tests/onnx/expected-models.txt); extra arguments
# (--acl, -v, test names) are passed on.
set -eu
cd "$(dirname "$0")/../.."
for l in tests/onnx/expected/*.txt tests/onnx/expected-models.txt; do
	set -- "$@" --list "$l"
done
exec build/onnx/model_tests "$@"
