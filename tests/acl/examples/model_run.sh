#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Convert the test models with vnpu-atc, as CANN's samples convert with atc
# before running, then run one model example through run-example.sh (TAP).
# usage: tests/acl/examples/model_run.sh dynamic_shape|gears
# The ONNX models are build/models/*.onnx (make models, tests/onnx/models.mk);
# the .om files go to a temporary directory removed at the end.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
atc=$top/build/tools/vnpu-atc
models=$top/build/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# convert NAME ATC-FLAGS...: $tmp/NAME.om, or a failed TAP test and exit 1.
convert() {
	name=$1
	shift
	if ! "$atc" --framework=5 --soc_version=Ascend310P3 --output="$tmp/$name" "$@" \
		> "$tmp/$name.log" 2>&1; then
		echo "# vnpu-atc --output=$tmp/$name $*:"
		sed 's/^/#   /' "$tmp/$name.log"
		echo "not ok 1 - vnpu-atc converts $name"
		echo "1..1"
		exit 1
	fi
	echo "# converted $name: vnpu-atc $*"
}

case "${1:-}" in
dynamic_shape)
	convert mlp_dyn --model="$models/mlp.onnx" --input_shape="x:1~64,64"
	convert cnn_dyn --model="$models/cnn.onnx" --input_shape="x:-1,1,8,8"
	"$top/tests/acl/run-example.sh" model_dynamic_shape "$tmp/mlp_dyn.om" "$tmp/cnn_dyn.om"
	;;
gears)
	convert cnn_batch --model="$models/cnn.onnx" --input_shape="x:-1,1,8,8" \
		--dynamic_batch_size="1,2,4"
	convert cnn_hw --model="$models/cnn_hw.onnx" --input_shape="x:1,1,-1,-1" \
		--dynamic_image_size="8,8;16,16"
	convert cnn_dims --model="$models/cnn_hw.onnx" --input_shape="x:1,1,-1,-1" \
		--dynamic_dims="8,8;16,16;8,16" --input_format=ND
	"$top/tests/acl/run-example.sh" model_gears "$tmp/cnn_batch.om" "$tmp/cnn_hw.om" "$tmp/cnn_dims.om"
	;;
*)
	echo "usage: tests/acl/examples/model_run.sh dynamic_shape|gears" >&2
	exit 2
	;;
esac
