#!/usr/bin/env bash
# Every signature of a model is served, on any subgraph: modelgen's `signatures` model
# (encode: code = x * 2 in subgraph 0, decode: out = code + 1 in subgraph 1; the expected
# values are TensorFlow Lite's, tests/models/data/control_flow/signatures.*.npy).
#  - KServe v2: metadata lists the signatures; parameters.signature_name picks one.
#  - TF Serving: signature_name picks one (inputs and outputs named as the signature names
#    them); GET .../metadata lists every signature_def.
#  - an unknown signature name is a 400 naming the model's signatures.
#  - a new file (constants x3: encode x * 6, decode code + 3) under the same version is a hot
#    weight update of both subgraphs: every signature's sessions serve the new constants.
source "$(dirname "$0")/lib_server.bash"
mk() { "$PYTHON" "$SRV_HERE/make_signatures.py" "$@" || bad "make model $*"; }
mk "$TMP/s1.tflite" 1
mk "$TMP/s3.tflite" 3
mkdir -p "$TMP/repo/sig/1"
cp "$TMP/s1.tflite" "$TMP/repo/sig/1/model.tflite"
start_server "$TMP/log" --model-repository "$TMP/repo" --poll-ms 100 --sessions 2 --no-access-log ||
  { bad "start"; finish; }
expect_http 200 "ready" GET /v2/models/sig/ready
# json_is EXPR WANT DESC: the Python expression (on the answer as `j`) equals WANT
json_is() {
  local got
  got=$("$PYTHON" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2]), separators=(",", ":")))' \
    "$TMP/body" "$1" 2>&1)
  if [ "$got" = "$2" ]; then ok; else bad "$3: $1 = $got, wanted $2; body: $(head -c 300 "$TMP/body")"; fi
}
v2() { # v2 WANT DESC SIGNATURE|'' INPUT_NAME: KServe JSON infer of [1,-2,0.5]
  local params=""
  [ -n "$3" ] && params=",\"parameters\":{\"signature_name\":\"$3\"}"
  expect_http "$1" "$2" POST /v2/models/sig/infer -H 'Content-Type: application/json' --data-binary \
    "{\"inputs\":[{\"name\":\"$4\",\"datatype\":\"FP32\",\"shape\":[3],\"data\":[1,-2,0.5]}]$params}"
}
tfs() { # tfs WANT DESC BODY
  expect_http "$1" "$2" POST /v1/models/sig:predict -H 'Content-Type: application/json' --data-binary "$3"
}

# first requests of both signatures at once (decode's sessions are created by the first)
pids=()
for i in 1 2 3 4 5 6; do
  sig=decode; [ $((i % 2)) = 0 ] && sig=encode
  inp=code_in; [ $sig = encode ] && inp=x
  curl -s -o "$TMP/par$i" -w '%{http_code}' "$URL/v1/models/sig:predict" --max-time 30 \
    --data-binary "{\"signature_name\":\"$sig\",\"inputs\":{\"$inp\":[1,-2,0.5]}}" >"$TMP/par$i.code" &
  pids+=($!)
done
wait "${pids[@]}"
for i in 1 3 5; do grep -qF '{"outputs":[2,-1,1.5]}' "$TMP/par$i" && ok || bad "parallel decode $i: $(cat "$TMP/par$i.code") $(cat "$TMP/par$i")"; done
for i in 2 4 6; do grep -qF '{"outputs":[2,-4,1]}' "$TMP/par$i" && ok || bad "parallel encode $i: $(cat "$TMP/par$i.code") $(cat "$TMP/par$i")"; done

# KServe metadata: subgraph 0 as before, plus the signatures
expect_http 200 "v2 metadata" GET /v2/models/sig
json_is 'j["inputs"]' '[{"name":"x","datatype":"FP32","shape":[3]}]' "v2 metadata inputs"
json_is '[(s["name"], s["subgraph"], s["inputs"][0]["name"], s["outputs"][0]["name"]) for s in j["signatures"]]' \
  '[["encode",0,"x","code"],["decode",1,"code_in","out"]]' "v2 metadata signatures"
# KServe infer: default (subgraph 0), encode, decode
v2 200 "v2 default" "" x
json_is 'j["outputs"][0]["name"], j["outputs"][0]["data"]' '["code",[2,-4,1]]' "v2 default"
v2 200 "v2 encode" encode x
json_is 'j["outputs"][0]["data"]' '[2,-4,1]' "v2 encode"
v2 200 "v2 decode" decode code_in
json_is 'j["outputs"][0]["name"], j["outputs"][0]["data"]' '["out",[2,-1,1.5]]' "v2 decode"
v2 400 "v2 decode with encode's input" decode x
body_has "unknown input 'x' (the model's inputs: 'code_in')" "v2 decode with encode's input"
v2 400 "v2 unknown signature" nope x
body_has "signature_name 'nope': the model has no such signature (its signatures: 'encode', 'decode')" "v2 unknown signature"
expect_http 400 "v2 signature_name not a string" POST /v2/models/sig/infer --data-binary \
  '{"parameters":{"signature_name":7},"inputs":[{"name":"x","datatype":"FP32","shape":[3],"data":[1,-2,0.5]}]}'
body_has "parameters.signature_name must be a string" "v2 signature_name not a string"

# TF Serving predict
tfs 200 "tfs default" '{"inputs":[1,-2,0.5]}'
json_is 'j["outputs"]' '[2,-4,1]' "tfs default"
tfs 200 "tfs encode named" '{"signature_name":"encode","inputs":{"x":[1,-2,0.5]}}'
json_is 'j["outputs"]' '[2,-4,1]' "tfs encode named"
tfs 200 "tfs decode" '{"signature_name":"decode","inputs":{"code_in":[1,-2,0.5]}}'
json_is 'j["outputs"]' '[2,-1,1.5]' "tfs decode"
tfs 200 "tfs decode instances" '{"signature_name":"decode","instances":[1,-2,0.5]}'
json_is 'j["predictions"]' '[2,-1,1.5]' "tfs decode instances"
tfs 400 "tfs unknown signature" '{"signature_name":"serving_default","inputs":[1,-2,0.5]}'
body_has "signature_name 'serving_default': the model has no such signature (its signatures: 'encode', 'decode')" \
  "tfs unknown signature"
tfs 400 "tfs decode with encode's input" '{"signature_name":"decode","inputs":{"x":[1,-2,0.5]}}'
body_has "unknown input 'x'" "tfs decode with encode's input"
# TF Serving metadata: every signature_def
expect_http 200 "tfs metadata" GET /v1/models/sig/metadata
json_is 'sorted((k, list(d["inputs"]), list(d["outputs"]), d["inputs"][list(d["inputs"])[0]]["dtype"]) for k, d in j["metadata"]["signature_def"]["signature_def"].items())' \
  '[["decode",["code_in"],["out"],"DT_FLOAT"],["encode",["x"],["code"],"DT_FLOAT"]]' "tfs metadata"
expect_http 200 "tfs version metadata" GET /v1/models/sig/versions/1/metadata
json_is 'j["model_spec"]["version"]' '"1"' "tfs version metadata"
expect_http 404 "tfs metadata of a missing version" GET /v1/models/sig/versions/9/metadata
[ "$(grep -c 'SIGNATURE_READY model=sig version=1 signature=decode subgraph=1 sessions=2' "$TMP/log")" = 1 ] && ok ||
  bad "decode's sessions should be created once, on its first request: $(grep SIGNATURE_READY "$TMP/log")"

# a new file under the same version: every signature serves the new constants (hot update)
cp "$TMP/s3.tflite" "$TMP/repo/sig/.partial" && mv "$TMP/repo/sig/.partial" "$TMP/repo/sig/1/model.tflite"
ok=0
for _ in $(seq 1 100); do
  tfs 200 "tfs decode after the update" '{"signature_name":"decode","inputs":{"code_in":[1,-2,0.5]}}' >/dev/null
  grep -qF '[4,1,3.5]' "$TMP/body" && { ok=1; break; }
  sleep 0.1
done
[ $ok = 1 ] && ok || bad "decode does not serve the new file: $(head -c 200 "$TMP/body")"
tfs 200 "tfs encode after the update" '{"signature_name":"encode","inputs":{"x":[1,-2,0.5]}}'
json_is 'j["outputs"]' '[6,-12,3]' "tfs encode after the update"
v2 200 "v2 decode after the update" decode code_in
json_is 'j["outputs"][0]["data"]' '[4,1,3.5]' "v2 decode after the update"
# the same graph: a hot weight update of every subgraph (sessions kept), not a reload
grep -q "MODEL_UPDATED model=sig version=1 .*hot weight update generation=1" "$TMP/log" && ok ||
  bad "no hot weight update: $(grep -E 'HOT_UPDATE|MODEL_' "$TMP/log" | tail -3)"
grep -q "MODEL_RELEASED" "$TMP/log" && bad "the update released the version (sessions should be kept)" || ok
finish
