#!/usr/bin/env bash
# Model files that are not regular files, and version directory names. A FIFO, a directory or a
# symbolic link loop where model.tflite should be leaves the model UNAVAILABLE with a reason that
# names the cause (not an empty or generic one), and nothing blocks on the FIFO. Version
# directories count only with canonical decimal names, as in TF Serving and Triton: '01', '+3'
# and '007' are ignored (a model with only such directories says so).
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
R=$TMP/repo
mkdir -p "$R/fifo/1" "$R/dir/1/model.tflite" "$R/loop/1" "$R/zero/01" "$R/mixed/01" "$R/mixed/+3" "$R/mixed/2"
mkfifo "$R/fifo/1/model.tflite"
ln -s "$R/loop/1/model.tflite" "$R/loop/1/model.tflite"
cp "$TMP/nets/$net.tflite" "$R/zero/01/model.tflite"
cp "$TMP/nets/$net.tflite" "$R/mixed/01/model.tflite"
cp "$TMP/nets/$net.tflite" "$R/mixed/+3/model.tflite"
cp "$TMP/nets/$net.tflite" "$R/mixed/2/model.tflite"
start_server "$TMP/log" --model-repository "$R" || { bad "start"; finish; }
expect_http 200 "index" POST /v2/repository/index
"$PYTHON" - "$TMP/body" >"$TMP/idx" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1])):
    print('%s|%s|%s|%s' % (e['name'], e.get('version', '-'), e['state'], e['reason']))
PY
cat "$TMP/idx"
has() { if grep -qF -- "$1" "$TMP/idx"; then ok; else bad "$2: '$1' not in the index: $(cat "$TMP/idx")"; fi; }
has "fifo|-|UNAVAILABLE|version 1: $R/fifo/1/model.tflite is a FIFO, not a regular file" "FIFO"
has "dir|-|UNAVAILABLE|version 1: $R/dir/1/model.tflite is a directory, not a regular file" "directory"
has "loop|-|UNAVAILABLE|version 1: $R/loop/1/model.tflite: Too many levels of symbolic links" "symlink loop"
has "zero|-|UNAVAILABLE|version 0: no model file found at the path (directory '01' ignored: version directories are canonical decimal numbers" "only '01'"
has "mixed|2|READY|" "canonical version served"
if grep -q "^mixed|[13]|" "$TMP/idx"; then bad "non-canonical version served: $(cat "$TMP/idx")"; else ok; fi
expect_http 200 "mixed metadata" GET /v2/models/mixed
body_has '"versions":["2"]' "only version 2"
grep -q "MODEL_LOAD_FAILED model=fifo version=1: .*is a FIFO" "$TMP/log" && ok || bad "no MODEL_LOAD_FAILED line for the FIFO"
# the FIFO becomes a real file: picked up by the poller, the reason goes away
rm "$R/fifo/1/model.tflite"
cp "$TMP/nets/$net.tflite" "$R/fifo/1/model.tflite"
for _ in $(seq 1 100); do [ "$(http GET /v2/models/fifo/ready)" = 200 ] && break; sleep 0.1; done
expect_http 200 "fifo replaced by a file" GET /v2/models/fifo/ready
stop_server && ok || bad "exit status after SIGTERM"
finish
