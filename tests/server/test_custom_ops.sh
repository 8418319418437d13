#!/usr/bin/env bash
# runtime.custom_ops (config) and --custom-ops (flag): tfcc serve registers the MediaPipe plugin
# (examples/mediapipe_ops, libtfcc_mediapipe_ops.so) before loading the models, and serves the
# model of examples.test_mediapipe_ops with the outputs of its NumPy references; a library that
# does not load stops the start with a line naming it; a bad value fails the config check.
source "$(dirname "$0")/lib_server.bash"
D="$SRC/tests/models/data/mediapipe_ops"
PLUGIN="${TFCC_BINARY_DIR:?}/examples/mediapipe_ops/libtfcc_mediapipe_ops.so"
if [ ! -f "$PLUGIN" ]; then
  skip_part "no $PLUGIN (TFCC_BUILD_EXAMPLES=OFF?)"
  finish
fi
c=$TMP/c.yaml

# the request (input x from in0.npy) and the check of the answer (pool1, pool1_idx, unpool1:
# exact; y: 1e-4)
"$PYTHON" - "$D" "$TMP/req.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/../../../cli")
import npy_tool
_, shape, v = npy_tool.read(sys.argv[1] + "/in0.npy")
json.dump({"inputs": [{"name": "x", "shape": list(shape), "datatype": "FP32", "data": list(v)}]},
          open(sys.argv[2], "w"))
PY
check_answer() { # check_answer DESC
  if "$PYTHON" - "$D" "$TMP/body" >"$TMP/cmp" 2>&1 <<'PY'
import json, struct, sys
sys.path.insert(0, sys.argv[1] + "/../../../cli")
import npy_tool
outs = {o["name"]: o for o in json.load(open(sys.argv[2]))["outputs"]}
bad = 0
for k, name, tol in [(0, "pool1", 0), (1, "pool1_idx", 0), (2, "unpool1", 0), (3, "y", 1e-4)]:
    _, shape, ref = npy_tool.read("%s/out%d.npy" % (sys.argv[1], k))
    got = outs[name]["data"]  # JSON text: back to float32 before comparing
    d = max(abs(struct.unpack("f", struct.pack("f", a))[0] - b) for a, b in zip(got, ref))
    if list(outs[name]["shape"]) != list(shape) or len(got) != len(ref) or d > tol:
        print("%s: shape %s (want %s), max |diff| %g" % (name, outs[name]["shape"], list(shape), d))
        bad += 1
sys.exit(bad)
PY
  then ok; else bad "$1: $(head -c 300 "$TMP/cmp")"; fi
}

printf '%s\n' "runtime: {custom_ops: [$PLUGIN]}" "models: [{name: mp, path: $D/mediapipe_ops.tflite, sessions: 1}]" >"$c"
if start_server "$TMP/log1" --config "$c"; then
  ok
  expect_http 200 "config: ready" GET /v2/models/mp/ready
  expect_http 200 "config: infer" POST /v2/models/mp/infer -H 'Content-Type: application/json' --data-binary "@$TMP/req.json"
  check_answer "config: outputs"
  expect_in "$TMP/log1" "runtime.custom_ops: $PLUGIN registered (3 custom operators on the runtime)" "config: log line"
  stop_server && ok || bad "config: exit status"
else
  bad "server with runtime.custom_ops did not start: $(tail -3 "$TMP/log1")"
fi

if start_server "$TMP/log2" "$D/mediapipe_ops.tflite" --name mp --sessions 1 --custom-ops "$PLUGIN"; then
  ok
  expect_http 200 "flag: infer" POST /v2/models/mp/infer -H 'Content-Type: application/json' --data-binary "@$TMP/req.json"
  check_answer "flag: outputs"
  stop_server && ok || bad "flag: exit status"
else
  bad "server with --custom-ops did not start: $(tail -3 "$TMP/log2")"
fi

# a library that does not load: the start fails, naming it and dlerror()
printf '%s\n' "runtime: {custom_ops: $TMP/libnope.so}" "models: [{name: mp, path: $D/mediapipe_ops.tflite}]" >"$c"
expect_rc 1 "missing library" -- timeout 20 "$TFCC" serve --config "$c" --port 0
expect_in "$TMP/err" "runtime.custom_ops: plugin $TMP/libnope.so: cannot load: $TMP/libnope.so: cannot open shared object file" "missing library"
# without the plugin the model does not load (not ready), naming the operator
printf '%s\n' "models: [{name: mp, path: $D/mediapipe_ops.tflite, sessions: 1}]" >"$c"
if start_server "$TMP/log3" --config "$c"; then
  expect_http 400 "no plugin: not ready" GET /v2/models/mp/ready
  expect_in "$TMP/log3" "custom operator MaxPoolingWithArgmax2D is not registered" "no plugin: load error"
  stop_server
fi
# bad values
printf '%s\n' "runtime: {custom_ops: {a: b}}" "models: [{name: mp, path: $D/mediapipe_ops.tflite}]" >"$c"
expect_rc 2 "custom_ops not a list" -- "$TFCC" serve --config "$c"
expect_in "$TMP/err" "c.yaml:1: runtime.custom_ops: expected a list of custom-operator libraries" "custom_ops not a list"
printf '%s\n' "runtime: {custom_ops: ['']}" "models: [{name: mp, path: $D/mediapipe_ops.tflite}]" >"$c"
expect_rc 2 "custom_ops empty" -- "$TFCC" serve --config "$c"
expect_in "$TMP/err" "runtime.custom_ops: empty" "custom_ops empty"
finish
