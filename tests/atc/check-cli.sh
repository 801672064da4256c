#!/bin/sh
# SPDX-License-Identifier: MIT
#
# vnpu-atc's command line (docs/atc.md): the success and failure lines and
# exit statuses, ".om" added to --output, the file's "IMOD" magic, the flag
# forms, the refused frameworks, unsupported operators named, --log levels,
# --vnpu_const_input. TAP output; exit 1 when a check fails.
#
#   tests/atc/check-cli.sh [BUILD_DIR]   (default: build)
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
ATC=$B/tools/vnpu-atc
DATA=/usr/share/libonnx-testdata/data
OK_LINE="ATC run success, welcome to the next use."
FAIL_LINE="ATC run failed, Please check the detail log, Try 'atc --help' for more information"

if [ ! -x "$ATC" ]; then
	echo "check-cli: $ATC is not built (make $PWD/$ATC)" >&2
	exit 2
fi
if [ ! -d "$DATA/node" ]; then
	echo "check-cli: $DATA is missing (install libonnx-testdata)" >&2
	exit 2
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -s "$T/out" ] && sed 's/^/#   stdout: /' "$T/out"
	[ -s "$T/err" ] && sed 's/^/#   stderr: /' "$T/err"
	return 0
}

# run WANT_STATUS NAME ARGS...: run vnpu-atc in $T, check the status and ATC's last line.
run() {
	want=$1
	name=$2
	shift 2
	(cd "$T" && "$OLDPWD/$ATC" "$@") >"$T/out" 2>"$T/err"
	st=$?
	last=$(tail -n 1 "$T/out")
	if [ "$want" = 0 ]; then
		line=$OK_LINE
	else
		line=$FAIL_LINE
	fi
	if [ "$st" = "$want" ] && [ "$last" = "$line" ]; then
		ok "$name"
	else
		not_ok "$name (status $st, want $want; last line \"$last\")"
	fi
}

# has FILE TEXT NAME: FILE holds TEXT.
has() {
	if grep -qF -- "$2" "$1"; then ok "$3"; else not_ok "$3 (no \"$2\")"; fi
}

magic() {
	if [ -f "$1" ] && [ "$(head -c 4 "$1")" = "IMOD" ]; then ok "$1 starts with IMOD"; else not_ok "$1 starts with IMOD"; fi
}

CONV=$DATA/pytorch-converted/test_Conv2d/model.onnx

run 0 "a conversion succeeds" --model="$CONV" --framework=5 --output=conv
magic "$T/conv.om"
if [ -e "$T/conv.om.om" ]; then not_ok "no .om.om"; else ok "no .om.om"; fi
run 0 "\"--flag value\" forms, --output ending in .om" --model "$CONV" --framework 5 --output sub.om \
	--soc_version Ascend310P3 --input_format NCHW
magic "$T/sub.om"
if [ ! -e "$T/sub.om.om" ]; then ok ".om not added twice"; else not_ok ".om not added twice"; fi
if [ -s "$T/err" ]; then not_ok "--log=error (default) is quiet on success"; else ok "--log=error (default) is quiet on success"; fi

run 0 "--log=info" --model="$CONV" --framework=5 --output=info --log=info
has "$T/err" "[INFO] info.om:" "--log=info says what was converted"
run 0 "--log=debug" --model="$CONV" --framework=5 --output=debug --log=debug
has "$T/err" "[DEBUG] node 0" "--log=debug lists the nodes"

for h in --help -h; do
	(cd "$T" && "$OLDPWD/$ATC" $h) >"$T/out" 2>"$T/err"
	st=$?
	if [ "$st" = 0 ] && grep -qF -- "--vnpu_const_input" "$T/out"; then
		ok "$h lists the flags, status 0"
	else
		not_ok "$h lists the flags, status 0 (status $st)"
	fi
done

run 2 "an unknown flag" --model="$CONV" --framework=5 --output=x --bogus=1
has "$T/err" "unknown flag --bogus" "the unknown flag is named"
run 2 "--model missing" --framework=5 --output=x
has "$T/err" "--model is required" "the missing flag is named"
run 2 "--framework=0 (Caffe)" --model="$CONV" --framework=0 --output=x
has "$T/err" "Caffe" "Caffe named"
run 2 "--framework=1 (MindSpore)" --model="$CONV" --framework=1 --output=x
has "$T/err" "MindSpore" "MindSpore named"
run 2 "--framework=3 (TensorFlow)" --model="$CONV" --framework=3 --output=x
has "$T/err" "TensorFlow" "TensorFlow named"
run 2 "a bad --input_shape" --model="$CONV" --framework=5 --output=x --input_shape="0:1,,3"
has "$T/err" "--input_shape" "the bad --input_shape is named"
run 2 "--log=null is silent" --model="$CONV" --framework=5 --output=x --bogus --log=null
if [ -s "$T/err" ]; then not_ok "nothing on stderr with --log=null"; else ok "nothing on stderr with --log=null"; fi
run 1 "a model file that is not there" --model="$T/none.onnx" --framework=5 --output=x
if [ ! -e "$T/x.om" ]; then ok "no output on failure"; else not_ok "no output on failure"; fi

run 1 "unsupported operators" --model="$DATA/simple/test_sequence_model1/model.onnx" --framework=5 --output=seq
has "$T/err" "node 'SequenceEmpty_0' (SequenceEmpty): no CANN operator for ONNX SequenceEmpty" "each unsupported node is named"
has "$T/err" "node 'SequenceAt_4' (SequenceAt)" "... the last one too"

R=$DATA/node/test_reshape_reordered_all_dims
run 1 "Reshape's shape as a graph input" --model="$R/model.onnx" --framework=5 --output=r
has "$T/err" "must be a constant" "the need for a constant is said"
run 0 "--vnpu_const_input binds it" --model="$R/model.onnx" --framework=5 --output=r \
	--vnpu_const_input="shape:$R/test_data_set_0/input_1.pb"
magic "$T/r.om"

run 0 "dynamic batch gears" --model="$DATA/node/test_relu/model.onnx" --framework=5 --output=gears \
	--input_shape="x:-1,4,5" --dynamic_batch_size="1,2,4"
magic "$T/gears.om"
run 0 "a shape range" --model="$DATA/node/test_relu/model.onnx" --framework=5 --output=range \
	--input_shape="x:1~8,4,5" --output_type=FP16
magic "$T/range.om"
run 1 "a range a node cannot run at" --model="$DATA/node/test_add/model.onnx" --framework=5 --output=bad \
	--input_shape="x:1~4,4,5"
has "$T/err" "(at x [2, 4, 5])" "the shape it cannot run at is named"

echo "1..$n"
[ "$failed" = 0 ]
