#!/usr/bin/env bash
# Zero-downtime reload: a model repository (<repo>/<model>/<version>/model.tflite) polled every
# 100 ms. Under concurrent load a new version is published (write elsewhere, then rename):
# no request fails, every answer equals exactly one version's `tfcc run` output, and both
# versions answer. Then a corrupt version 3 is published: version 2 keeps serving and the
# failure shows in the log, the model metadata and the metrics. SIGTERM then exits 0.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
"$PYTHON" "$SRV_HERE/make_variant.py" $net "$TMP/v2.tflite" v2 || { bad "make variant"; finish; }
client rand "$TMP/in.npy" FP32 1,128,128,3 --seed 7
"$TFCC" run "$TMP/nets/$net.tflite" -i "$TMP/in.npy" -o "$TMP/ref1" >/dev/null
"$TFCC" run "$TMP/v2.tflite" -i "$TMP/in.npy" -o "$TMP/ref2" >/dev/null
client same "$TMP/ref1/0_softmax_31.npy" "$TMP/ref2/0_softmax_31.npy" >/dev/null && bad "variant has the same outputs"

mkdir -p "$TMP/repo/net/1"
cp "$TMP/nets/$net.tflite" "$TMP/repo/net/1/model.tflite"
start_server "$TMP/log" --model-repository "$TMP/repo" --poll-ms 100 --sessions 2 --no-access-log ||
  { bad "start"; finish; }
expect_http 200 "v1 ready" GET /v2/models/net/versions/1/ready

count() { curl -s "$URL/metrics" | awk -v k="tfcc_inference_requests_total{model=\"net\",version=\"$1\",code=\"200\"}" '$1 == k {print $2}'; }
wait_count() { for _ in $(seq 1 300); do [ "$(count "$1")" -ge "$2" ] 2>/dev/null && return 0; sleep 0.1; done; return 1; }
client load --port "$PORT" --model net --threads 4 --until-file "$TMP/stop" --expect "$TMP/ref1" --expect "$TMP/ref2" \
  "$TMP/in.npy" >"$TMP/load.txt" 2>&1 &
load_pid=$!
wait_count 1 8 || bad "version 1 did not answer under load"
# safe publish: write next to the repository, then rename into place
mkdir -p "$TMP/repo/net/2"
cp "$TMP/v2.tflite" "$TMP/repo/net/.v2.partial"
mv "$TMP/repo/net/.v2.partial" "$TMP/repo/net/2/model.tflite"
for _ in $(seq 1 50); do
  [ "$(http GET /v2/models/net/versions/2/ready)" = 200 ] && break
  sleep 0.1
done
expect_http 200 "v2 ready" GET /v2/models/net/versions/2/ready
wait_count 2 8 || bad "version 2 did not answer under load"
touch "$TMP/stop"
wait $load_pid && ok || bad "requests failed during the reload: $(cat "$TMP/load.txt")"
cat "$TMP/load.txt"
grep -q "'1':" "$TMP/load.txt" && grep -q "'2':" "$TMP/load.txt" && ok ||
  bad "both versions should have answered during the load: $(cat "$TMP/load.txt")"
grep -q "MODEL_LOADED model=net version=2 .*swap_us=" "$TMP/log" && ok || bad "no MODEL_LOADED line with the swap time"
grep -q "MODEL_RELEASED model=net version=1" "$TMP/log" && ok || bad "version 1 not released"
expect_http 404 "v1 gone after the swap" GET /v2/models/net/versions/1

# a corrupt version 3 keeps version 2 serving
mkdir -p "$TMP/repo/net/3"
head -c 5000 /dev/urandom >"$TMP/repo/net/.v3.partial"
mv "$TMP/repo/net/.v3.partial" "$TMP/repo/net/3/model.tflite"
for _ in $(seq 1 50); do grep -q "MODEL_LOAD_FAILED model=net version=3" "$TMP/log" && break; sleep 0.1; done
grep -q "MODEL_LOAD_FAILED model=net version=3.*previous version keeps serving" "$TMP/log" && ok ||
  bad "no MODEL_LOAD_FAILED line for version 3: $(tail -3 "$TMP/log")"
expect_http 200 "metadata after corrupt v3" GET /v2/models/net
body_has '"versions":["2"]' "still version 2"
body_has '"last_error":"version 3: ' "metadata names the failure"
client load --port "$PORT" --model net --threads 2 --requests 10 --expect "$TMP/ref2" "$TMP/in.npy" >"$TMP/load2.txt" &&
  ok || bad "version 2 does not serve after the corrupt v3: $(cat "$TMP/load2.txt")"
expect_http 200 metrics GET /metrics
body_has 'tfcc_model_load_failures_total{model="net"} 1' "failure metric"
body_has 'tfcc_model_ready_version{model="net"} 2' "ready version metric"
body_has 'tfcc_model_reload_seconds_count{model="net"} 3' "reload histogram"

# an explicit reload through the repository API retries; the file is still corrupt -> 400
expect_http 400 "explicit load of a corrupt model" POST /v2/repository/models/net/load
body_has "version 3" "explicit load names the failure"
# the fixed version 3 is picked up
cp "$TMP/nets/$net.tflite" "$TMP/repo/net/.v3.partial"
mv "$TMP/repo/net/.v3.partial" "$TMP/repo/net/3/model.tflite"
for _ in $(seq 1 50); do [ "$(http GET /v2/models/net/versions/3/ready)" = 200 ] && break; sleep 0.1; done
expect_http 200 "fixed v3 ready" GET /v2/models/net/versions/3/ready
stop_server && ok || bad "exit status after SIGTERM"
finish
