#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run ONNX's node tests (build/onnx/node_tests) with every expected-results
# list of tests/onnx/expected; extra arguments (--acl, -v, test names) are
# passed on.
set -eu
cd "$(dirname "$0")/../.."
for l in tests/onnx/expected/*.txt; do
	set -- "$@" --list "$l"
done
exec build/onnx/node_tests "$@"
