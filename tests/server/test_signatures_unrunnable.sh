#!/usr/bin/env bash
# A model whose decode signature cannot run (docs/runtime.md, "Subgraphs that cannot run";
# tests/models/data/control_flow/signatures.flex_decode.tflite: decode's ADD is the Flex op
# FlexRestore, encode in subgraph 0 is code = x * 2) is served:
#  - encode and subgraph 0 answer as usual (KServe v2 and TF Serving);
#  - a request for decode is a 501 naming the cause (an unsupported operator);
#  - KServe metadata lists decode under unavailable_signatures with the cause, not under
#    signatures; TF Serving metadata lists only encode's signature_def;
#  - a new file with constants x3 under the same version is a hot weight update;
#  - signatures.bad_decode.tflite (decode's plan fails at load: a [4] constant added to a [3]
#    input): decode's requests are a 500 naming the shape error.
source "$(dirname "$0")/lib_server.bash"
CF=$SRC/tests/models/data/control_flow
mkdir -p "$TMP/repo/flex/1" "$TMP/repo/bad/1"
cp "$CF/signatures.flex_decode.tflite" "$TMP/repo/flex/1/model.tflite"
cp "$CF/signatures.bad_decode.tflite" "$TMP/repo/bad/1/model.tflite"
start_server "$TMP/log" --model-repository "$TMP/repo" --poll-ms 100 --sessions 2 --no-access-log ||
  { bad "start"; finish; }
expect_http 200 "flex ready" GET /v2/models/flex/ready
expect_http 200 "bad ready" GET /v2/models/bad/ready
json_is() { # json_is EXPR WANT DESC: the Python expression (on the answer as `j`) equals WANT
  local got
  got=$("$PYTHON" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2]), separators=(",", ":")))' \
    "$TMP/body" "$1" 2>&1)
  if [ "$got" = "$2" ]; then ok; else bad "$3: $1 = $got, wanted $2; body: $(head -c 300 "$TMP/body")"; fi
}
v2() { # v2 MODEL WANT DESC SIGNATURE|'' INPUT_NAME: KServe JSON infer of [1,-2,0.5]
  local params=""
  [ -n "$4" ] && params=",\"parameters\":{\"signature_name\":\"$4\"}"
  expect_http "$2" "$3" POST "/v2/models/$1/infer" -H 'Content-Type: application/json' --data-binary \
    "{\"inputs\":[{\"name\":\"$5\",\"datatype\":\"FP32\",\"shape\":[3],\"data\":[1,-2,0.5]}]$params}"
}
tfs() { # tfs MODEL WANT DESC BODY
  expect_http "$2" "$3" POST "/v1/models/$1:predict" -H 'Content-Type: application/json' --data-binary "$4"
}
cause="unsupported: CUSTOM:FlexRestore at subgraph 1 node 0"

# what runs, runs
v2 flex 200 "v2 default" "" x
json_is 'j["outputs"][0]["data"]' '[2,-4,1]' "v2 default"
v2 flex 200 "v2 encode" encode x
json_is 'j["outputs"][0]["data"]' '[2,-4,1]' "v2 encode"
tfs flex 200 "tfs encode" '{"signature_name":"encode","inputs":{"x":[1,-2,0.5]}}'
json_is 'j["outputs"]' '[2,-4,1]' "tfs encode"
# decode: 501 with the cause, on both APIs
v2 flex 501 "v2 decode" decode code_in
body_has "signature_name 'decode': the signature cannot run: $cause" "v2 decode"
tfs flex 501 "tfs decode" '{"signature_name":"decode","inputs":{"code_in":[1,-2,0.5]}}'
body_has "signature_name 'decode': the signature cannot run: $cause" "tfs decode"
# an unknown name is still a 400 naming every signature of the file
tfs flex 400 "tfs unknown signature" '{"signature_name":"nope","inputs":[1,-2,0.5]}'
body_has "its signatures: 'encode', 'decode'" "tfs unknown signature"
# metadata
expect_http 200 "v2 metadata" GET /v2/models/flex
json_is '[s["name"] for s in j["signatures"]]' '["encode"]' "v2 metadata signatures"
json_is 'j["unavailable_signatures"]' "[{\"name\":\"decode\",\"subgraph\":1,\"error\":\"$cause\"}]" \
  "v2 metadata unavailable_signatures"
expect_http 200 "tfs metadata" GET /v1/models/flex/metadata
json_is 'sorted(j["metadata"]["signature_def"]["signature_def"])' '["encode"]' "tfs metadata"
grep -q "SIGNATURE_UNAVAILABLE model=flex version=1 signature=decode subgraph=1: cannot run: $cause" "$TMP/log" &&
  ok || bad "no SIGNATURE_UNAVAILABLE line: $(grep SIGNATURE "$TMP/log")"

# a plan that fails at load: 500 with the cause
v2 bad 200 "bad: v2 encode" encode x
json_is 'j["outputs"][0]["data"]' '[2,-4,1]' "bad: v2 encode"
tfs bad 500 "bad: tfs decode" '{"signature_name":"decode","inputs":{"code_in":[1,-2,0.5]}}'
body_has "signature_name 'decode': the signature cannot run: " "bad: tfs decode"
body_has "ADD" "bad: tfs decode names the operator"

# new weights for the version whose decode cannot run: a hot weight update
cp "$CF/signatures.flex_decode.w3.tflite" "$TMP/repo/flex/.partial" &&
  mv "$TMP/repo/flex/.partial" "$TMP/repo/flex/1/model.tflite"
ok=0
for _ in $(seq 1 100); do
  tfs flex 200 "tfs encode after the update" '{"signature_name":"encode","inputs":{"x":[1,-2,0.5]}}' >/dev/null
  grep -qF '[6,-12,3]' "$TMP/body" && { ok=1; break; }
  sleep 0.1
done
[ $ok = 1 ] && ok || bad "encode does not serve the new file: $(head -c 200 "$TMP/body")"
grep -q "MODEL_UPDATED model=flex version=1 .*hot weight update generation=1" "$TMP/log" && ok ||
  bad "no hot weight update: $(grep -E 'HOT_UPDATE|MODEL_' "$TMP/log" | tail -3)"
tfs flex 501 "tfs decode after the update" '{"signature_name":"decode","inputs":{"code_in":[1,-2,0.5]}}'
body_has "$cause" "tfs decode after the update"
finish
