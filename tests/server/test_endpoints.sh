#!/usr/bin/env bash
# Every endpoint of tfcc serve with a modelgen network and the small shared models: responses
# (JSON, binary, binary out, TF Serving row/columnar) must equal `tfcc run` byte for byte.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
m=$TMP/nets/$net.tflite
client rand "$TMP/in.npy" FP32 1,128,128,3 --seed 7
"$TFCC" run "$m" -i "$TMP/in.npy" -o "$TMP/ref" >/dev/null || bad "tfcc run"

# shared models with reference inputs (multi-input/output, int8, LSTM) when present
cfg=$TMP/config.yaml
cat >"$cfg" <<YAML
runtime: {num_threads: 2}
server: {max_body_mb: 8, timeouts: {read_s: 5}}
log: {level: info, format: json}
models:
  - {name: net, path: $m, sessions: 2, max_queue: 64}
YAML
shared=()
for s in hello_world_int8 split_concat_quant keras_lstm_mnist_ptq mnist_lstm_float; do
  if model_runnable $s; then
    shared+=("$s")
    echo "  - {name: $s, path: $MODELS/$s.tflite, sessions: 1}" >>"$cfg"
  fi
done
[ ${#shared[@]} -gt 0 ] || echo "note: shared models not found: only the modelgen network is served"
start_server "$TMP/log" --config "$cfg" || { bad "start"; finish; }

expect_http 200 "live" GET /v2/health/live
expect_http 200 "ready" GET /v2/health/ready
expect_http 200 "server metadata" GET /v2
body_has '"extensions":["binary_tensor_data","model_repository"]' "server metadata"
expect_http 200 "model metadata" GET /v2/models/net
body_has '"inputs":[{"name":"input","datatype":"FP32","shape":[1,128,128,3]}]' "model metadata"
body_has '"versions":["1"]' "model metadata"
expect_http 200 "version metadata" GET /v2/models/net/versions/1
expect_http 404 "missing version" GET /v2/models/net/versions/7
expect_http 200 "model ready" GET /v2/models/net/ready
expect_http 200 "version ready" GET /v2/models/net/versions/1/ready
expect_http 404 "unknown model" GET /v2/models/nope
body_has "unknown model 'nope'" "unknown model"
expect_http 404 "unknown model ready" GET /v2/models/nope/ready

client check --port "$PORT" --model net --ref "$TMP/ref" --tfs "$TMP/in.npy" && ok || bad "net: responses differ from tfcc run"
rm -rf "$TMP/o"
client infer --port "$PORT" --model net --version 1 --output softmax_31 --out "$TMP/o" "$TMP/in.npy" >/dev/null &&
  client same "$TMP/o/0_softmax_31.npy" "$TMP/ref/0_softmax_31.npy" && ok || bad "infer /versions/1 with outputs"
expect_http 200 "tfs status" GET /v1/models/net
body_has '"state":"AVAILABLE"' "tfs status"
expect_http 200 "tfs version status" GET /v1/models/net/versions/1
expect_http 404 "tfs unknown" GET /v1/models/nope

for s in "${shared[@]}"; do
  r=$MODELS/ref/$s
  ins=("$r"/input_*.npy)
  rm -rf "$TMP/run_$s" "$TMP/srv_$s" "$TMP/bin_$s"
  "$TFCC" run "$MODELS/$s.tflite" $(for f in "${ins[@]}"; do printf -- '-i %s ' "$f"; done) -o "$TMP/run_$s" >/dev/null
  client check --port "$PORT" --model "$s" --ref "$TMP/run_$s" --tfs "${ins[@]}" && ok || bad "$s: responses differ from tfcc run"
done

# repository extension
expect_http 200 "index" POST /v2/repository/index
body_has '{"name":"net","version":"1","state":"READY","reason":""}' index
expect_http 200 "unload" POST /v2/repository/models/net/unload
expect_http 400 "ready after unload" GET /v2/models/net/ready
expect_http 503 "infer after unload" POST /v2/models/net/infer -d '{"inputs":[]}'
body_has "not ready" "infer after unload"
expect_http 200 "server stays ready after an explicit unload" GET /v2/health/ready
expect_http 200 "load" POST /v2/repository/models/net/load
expect_http 200 "ready after load" GET /v2/models/net/ready
expect_http 404 "load unknown" POST /v2/repository/models/nope/load

# methods and unknown paths
expect_http 405 "GET infer" GET /v2/models/net/infer
expect_http 405 "POST live" POST /v2/health/live
expect_http 404 "unknown path" GET /v3/foo
expect_http 400 "bad version" GET /v2/models/net/versions/abc

# metrics
expect_http 200 "metrics" GET /metrics
for series in 'tfcc_inference_requests_total{model="net",version="1",code="200"}' \
    'tfcc_request_total_seconds_bucket{model="net",version="1",le="+Inf"}' \
    'tfcc_request_queue_seconds_count{model="net",version="1"}' \
    'tfcc_request_compute_seconds_sum{model="net",version="1"}' \
    'tfcc_inflight_requests{model="net"} 0' 'tfcc_queue_depth{model="net"} 0' \
    'tfcc_model_loads_total{model="net"} 2' 'tfcc_model_load_failures_total{model="net"} 0' \
    'process_resident_memory_bytes' 'tfcc_http_responses_total{code="404"}' \
    'tfcc_model_reload_seconds_count{model="net"} 2'; do
  body_has "$series" "metrics"
done
grep -q '"tag":"ACCESS"' "$TMP/log" && ok || bad "no JSON access log lines"
stop_server && ok || bad "exit status after SIGTERM"
grep -q "stopped (exit 0)" "$TMP/log" && ok || bad "no clean stop in the log"
finish
