#!/usr/bin/env bash
# Malformed and hostile requests get a 4xx naming the cause, and the server stays up:
# bad JSON, wrong dtype/shape/name, missing data, truncated binary body, bad header length,
# huge Content-Length, bodies over max_body_mb, slow clients (read timeout), TF Serving errors.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
cat >"$TMP/config.yaml" <<YAML
server: {max_body_mb: 1, timeouts: {read_s: 1}}
log: {access: false}
models:
  - {name: net, path: $TMP/nets/$net.tflite, sessions: 1}
YAML
start_server "$TMP/log" --config "$TMP/config.yaml" || { bad "start"; finish; }
I=/v2/models/net/infer
post() { # post WANT DESC BODY [curl args]: JSON body
  local want=$1 desc=$2 body=$3; shift 3
  expect_http "$want" "$desc" POST $I -H 'Content-Type: application/json' --data-binary "$body" "$@"
}
hdr='"name":"input","datatype":"FP32","shape":[1,128,128,3]'
post 400 "bad JSON" '{"inputs": ['
body_has "invalid JSON" "bad JSON"
post 400 "not an object" '[1,2]'
body_has "must be a JSON object" "not an object"
post 400 "no inputs" '{"outputs": []}'
body_has "'inputs' is missing" "no inputs"
post 400 "unknown input" '{"inputs":[{"name":"foo","datatype":"FP32","shape":[1],"data":[1]}]}'
body_has "unknown input 'foo' (the model's inputs: 'input')" "unknown input"
post 400 "wrong dtype" '{"inputs":[{"name":"input","datatype":"INT8","shape":[1,128,128,3],"data":[1]}]}'
body_has "input 'input': datatype INT8 given, the model wants FP32" "wrong dtype"
post 400 "unknown dtype" '{"inputs":[{"name":"input","datatype":"FLOAT","shape":[1,128,128,3],"data":[1]}]}'
body_has "unknown or unsupported datatype 'FLOAT'" "unknown dtype"
post 400 "wrong shape" '{"inputs":[{"name":"input","datatype":"FP32","shape":[1,2],"data":[1,2]}]}'
body_has "input 'input': shape [1,2] does not match the model's [1,128,128,3]" "wrong shape"
post 400 "negative dim" '{"inputs":[{"name":"input","datatype":"FP32","shape":[1,-128,128,3],"data":[1]}]}'
body_has "shape[1] is not a non-negative integer" "negative dim"
post 400 "too few elements" "{\"inputs\":[{$hdr,\"data\":[1,2,3]}]}"
body_has "3 elements given, the shape needs 49152" "too few elements"
post 400 "not a number" "{\"inputs\":[{$hdr,\"data\":[\"x\"]}]}"
body_has "element 0 is not a number" "not a number"
post 400 "no data" "{\"inputs\":[{$hdr}]}"
body_has "no 'data'" "no data"
post 400 "given twice" "{\"inputs\":[{$hdr,\"data\":[1]},{$hdr,\"data\":[1]}]}"
json3="{\"inputs\":[{$hdr,\"parameters\":{\"binary_data_size\":196608}}],\"outputs\":[{\"name\":\"nope\"}]}"
printf '%s' "$json3" >"$TMP/out.bin"; head -c 196608 /dev/zero >>"$TMP/out.bin"
expect_http 400 "unknown output" POST $I -H "Inference-Header-Content-Length: ${#json3}" --data-binary @"$TMP/out.bin"
body_has "unknown output 'nope' (the model's outputs: 'softmax_31')" "unknown output"

# binary extension: truncated body, wrong sizes, bad header length
json="{\"inputs\":[{$hdr,\"parameters\":{\"binary_data_size\":196608}}]}"
printf '%s' "$json" >"$TMP/trunc.bin"; head -c 100 /dev/zero >>"$TMP/trunc.bin"
expect_http 400 "truncated binary" POST $I -H "Inference-Header-Content-Length: ${#json}" --data-binary @"$TMP/trunc.bin"
body_has "binary data truncated (100 bytes left, 196608 needed)" "truncated binary"
json2="{\"inputs\":[{$hdr,\"parameters\":{\"binary_data_size\":100}}]}"
printf '%s' "$json2" >"$TMP/size.bin"; head -c 100 /dev/zero >>"$TMP/size.bin"
expect_http 400 "binary size mismatch" POST $I -H "Inference-Header-Content-Length: ${#json2}" --data-binary @"$TMP/size.bin"
body_has "binary_data_size 100, shape and datatype need 196608 bytes" "binary size mismatch"
expect_http 400 "header length > body" POST $I -H "Inference-Header-Content-Length: 999999" --data-binary @"$TMP/size.bin"
body_has "Inference-Header-Content-Length 999999 is larger than the body (" "header length > body"
expect_http 400 "header length overflows" POST $I -H "Inference-Header-Content-Length: 99999999999999999999999" --data-binary @"$TMP/size.bin"
body_has "Inference-Header-Content-Length '99999999999999999999999' is not a byte count" "header length overflows"
expect_http 400 "header length not a number" POST $I -H "Inference-Header-Content-Length: abc" --data-binary @"$TMP/size.bin"
printf '%s' "$json" >"$TMP/extra.bin"; head -c 196700 /dev/zero >>"$TMP/extra.bin"
expect_http 400 "extra binary bytes" POST $I -H "Inference-Header-Content-Length: ${#json}" --data-binary @"$TMP/extra.bin"
body_has "196700 bytes of binary data after the header, the inputs use 196608" "extra binary bytes"

# body limits: declared (answered before reading) and chunked (cut off while reading)
exec 3<>/dev/tcp/127.0.0.1/$PORT
printf 'POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n' "$I" >&3
status=$(timeout 5 head -1 <&3 | tr -d '\r')
exec 3<&- 3>&-
case "$status" in *" 413 "*) ok ;; *) bad "huge Content-Length: got '$status', wanted 413" ;; esac
head -c 2000000 /dev/zero >"$TMP/big.bin"
expect_http 413 "chunked body over max_body_mb" POST $I -H "Transfer-Encoding: chunked" --data-binary @"$TMP/big.bin"
body_has "larger than server.max_body_mb (1 MiB)" "chunked too large"

# slow client: half a request line, then silence; the read timeout (1 s) closes it while
# other clients are served
exec 4<>/dev/tcp/127.0.0.1/$PORT
printf 'POST %s HTTP/1.1\r\nHost: x\r\nContent-Le' "$I" >&4
expect_http 200 "served while a slow client stalls" GET /v2/health/live
if timeout 5 cat <&4 >/dev/null; then ok; else bad "slow client not disconnected within 5 s"; fi
exec 4<&- 4>&-

# TF Serving errors
T=/v1/models/net:predict
expect_http 400 "tfs both forms" POST $T --data-binary '{"instances":[1],"inputs":[1]}'
body_has "exactly one of 'instances' or 'inputs'" "tfs both forms"
expect_http 400 "tfs wrong shape" POST $T --data-binary '{"instances":[[1,2],[3,4]]}'
body_has "does not match the model's [1,128,128,3]" "tfs wrong shape"
expect_http 400 "tfs empty" POST $T --data-binary '{"instances":[]}'
expect_http 400 "tfs named unknown" POST $T --data-binary '{"inputs":{"foo":[1]}}'
body_has "unknown input 'foo'" "tfs named unknown"
expect_http 404 "tfs verb" POST /v1/models/net:classify --data-binary '{}'
expect_http 400 "tfs unknown signature_name" POST $T --data-binary '{"signature_name":"decode","instances":[1]}'
body_has "signature_name 'decode': the model has no such signature (its signatures: 'serving_default')" "tfs unknown signature_name"
expect_http 400 "tfs signature_name not a string" POST $T --data-binary '{"signature_name":3,"instances":[1]}'

# still up and serving correctly
expect_http 200 "live after abuse" GET /v2/health/live
client rand "$TMP/in.npy" FP32 1,128,128,3 --seed 7
"$TFCC" run "$TMP/nets/$net.tflite" -i "$TMP/in.npy" -o "$TMP/ref" >/dev/null
client check --port "$PORT" --model net --ref "$TMP/ref" "$TMP/in.npy" >/dev/null && ok || bad "valid request after abuse"
expect_http 200 metrics GET /metrics
body_has 'tfcc_http_responses_total{code="413"} 2' "413 counted"
stop_server && ok || bad "exit status after SIGTERM"
finish
