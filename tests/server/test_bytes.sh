#!/usr/bin/env bash
# KServe v2 BYTES (string tensors): tfcc loads no model with string tensors, so string data is
# refused with a 400 naming the input and why (KServe BYTES, TF Serving strings and {"b64"}),
# and a model with a string tensor is not ready, its last_error saying it cannot be served.
source "$(dirname "$0")/lib_server.bash"
"$PYTHON" "$SRV_HERE/make_dynbatch.py" "$TMP/dyn.tflite" || { bad "make_dynbatch"; finish; }
"$PYTHON" "$SRV_HERE/make_string_model.py" "$TMP/strm.tflite" || { bad "make_string_model"; finish; }
cat >"$TMP/c.yaml" <<YAML
log: {access: false}
models:
  - {name: dyn, path: $TMP/dyn.tflite, sessions: 1}
  - {name: strm, path: $TMP/strm.tflite, sessions: 1}
YAML
start_server "$TMP/log" --config "$TMP/c.yaml" || { bad "start"; finish; }
I=/v2/models/dyn/infer
post() { expect_http "$1" "$2" POST "$3" -H 'Content-Type: application/json' --data-binary "$4"; }

post 400 "BYTES input (JSON)" $I '{"inputs":[{"name":"x","datatype":"BYTES","shape":[1],"data":["hello"]}]}'
body_has "input 'x': datatype BYTES given, the model wants FP32 (BYTES is for string tensors, which tfcc models do not have)" "BYTES input (JSON)"
# BYTES with binary data (4-byte length + bytes per element, the v2 binary layout)
json='{"inputs":[{"name":"x","datatype":"BYTES","shape":[1],"parameters":{"binary_data_size":9}}]}'
{ printf '%s' "$json"; printf '\005\000\000\000hello'; } >"$TMP/bytes.bin"
expect_http 400 "BYTES input (binary)" POST $I -H "Inference-Header-Content-Length: ${#json}" --data-binary @"$TMP/bytes.bin"
body_has "input 'x': datatype BYTES given, the model wants FP32" "BYTES input (binary)"
# FP32 declared, strings given
post 400 "strings as FP32" $I '{"inputs":[{"name":"x","datatype":"FP32","shape":[1,16],"data":["a"]}]}'
body_has "input 'x': element 0 is not a number but a string; the model wants FP32 (string data is for string tensors" "strings as FP32"
# TF Serving: strings and {"b64": ...} values
s16='"a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p"'
post 400 "TF Serving strings" /v1/models/dyn:predict "{\"instances\":[[$s16]]}"
body_has "element 0 is not a number but a string; the model wants FP32" "TF Serving strings"
b16=$(printf '{"b64":"aGVsbG8="},%.0s' $(seq 1 15))'{"b64":"aGVsbG8="}'
post 400 "TF Serving b64" /v1/models/dyn:predict "{\"inputs\":{\"x\":[[$b16]]}}"
body_has 'is not a number but a {\"b64\": ...} string; the model wants FP32' "TF Serving b64"  # JSON-escaped
# the server still answers valid requests
post 200 "valid request after the refusals" $I "{\"inputs\":[{\"name\":\"x\",\"datatype\":\"FP32\",\"shape\":[1,16],\"data\":[$(seq -s, 1 16)]}]}"

# a model with a string input: not ready, the reason says why
expect_http 400 "string model not ready" GET /v2/models/strm/ready
expect_http 200 "string model metadata" GET /v2/models/strm
body_has "dtype string is not supported (a string tensor, KServe datatype BYTES: tfcc has no string kernels, so a model with string tensors cannot be served)" "string model last_error"
post 503 "string model infer" /v2/models/strm/infer '{"inputs":[{"name":"text","datatype":"BYTES","shape":[1],"data":["hello"]}]}'
body_has "model 'strm' is not ready" "string model infer"
body_has "cannot be served" "string model infer reason"
grep -q "MODEL_LOAD_FAILED.*strm.*cannot be served" "$TMP/log" && ok || bad "MODEL_LOAD_FAILED line for the string model"
stop_server && ok || bad "exit status"
finish
