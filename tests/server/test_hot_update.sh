#!/usr/bin/env bash
# Reload paths under concurrent load (a repository polled every 100 ms, 4 clients):
#  1. a new file with the same graph under the same version number -> hot weight update
#     (tfcc_model_update_weights: MODEL_UPDATED, tfcc_model_hot_updates_total, sessions kept);
#  2. a file with a different graph -> the update is refused naming the difference
#     (HOT_UPDATE_REFUSED) and the whole model is swapped (MODEL_LOADED);
#  3. a corrupt file -> refused, the load fails, the current weights keep serving.
# No request fails and every answer equals exactly one published file's `tfcc run` output.
source "$(dirname "$0")/lib_server.bash"
mk() { "$PYTHON" "$SRV_HERE/make_dynbatch.py" "$@" || bad "make model $*"; }
mk "$TMP/w1.tflite" --seed 1
mk "$TMP/w2.tflite" --seed 2
mk "$TMP/g3.tflite" --seed 3 --hidden 24
"$PYTHON" - "$SRV_HERE" "$TMP/in.npy" <<'PY' || bad "make input"
import random, sys
sys.path.insert(0, sys.argv[1])
import srv_client as c
r = random.Random(5)
c.npy_write(sys.argv[2], 'FP32', [2, 16], c.pack('FP32', [r.uniform(-1, 1) for _ in range(32)]))
PY
for m in w1 w2 g3; do "$TFCC" run "$TMP/$m.tflite" -i "$TMP/in.npy" -o "$TMP/ref_$m" >/dev/null || bad "tfcc run $m"; done

mkdir -p "$TMP/repo/dyn/1"
cp "$TMP/w1.tflite" "$TMP/repo/dyn/1/model.tflite"
start_server "$TMP/log" --model-repository "$TMP/repo" --poll-ms 100 --sessions 2 --no-access-log ||
  { bad "start"; finish; }
expect_http 200 "ready" GET /v2/models/dyn/ready
client load --port "$PORT" --model dyn --threads 4 --until-file "$TMP/stop" --expect "$TMP/ref_w1" \
  --expect "$TMP/ref_w2" --expect "$TMP/ref_g3" "$TMP/in.npy" >"$TMP/load.txt" 2>&1 &
load_pid=$!
sleep 0.5
# 1. same graph, new weights: hot weight update
publish_dyn "$TMP/w2.tflite"
serves dyn "$TMP/ref_w2" && ok || bad "the new weights do not serve"
grep -q "MODEL_UPDATED model=dyn version=1 path=.* hot weight update generation=1 .*swap_us=" "$TMP/log" && ok ||
  bad "no MODEL_UPDATED line: $(grep -v ACCESS "$TMP/log" | tail -3)"
grep -q "MODEL_RELEASED" "$TMP/log" && bad "the hot update released the version (sessions should be kept)" || ok
expect_http 200 metrics GET /metrics
body_has 'tfcc_model_hot_updates_total{model="dyn"} 1' "hot update metric"
body_has 'tfcc_model_loads_total{model="dyn"} 2' "loads metric"
# 2. a different graph under the same version: refused, whole-model swap
publish_dyn "$TMP/g3.tflite"
serves dyn "$TMP/ref_g3" && ok || bad "the new graph does not serve"
grep -qF "HOT_UPDATE_REFUSED model=dyn version=1: $TMP/repo/dyn/1/model.tflite: tensor 1 (fc1/w): shape [24,16], model has [32,16]; swapping the whole model" "$TMP/log" && ok ||
  bad "no HOT_UPDATE_REFUSED line naming the difference: $(grep -v ACCESS "$TMP/log" | tail -3)"
grep -q "MODEL_LOADED model=dyn version=1 .*swap_us=" "$TMP/log" && ok || bad "no whole-model MODEL_LOADED line"
for _ in $(seq 1 50); do grep -q "MODEL_RELEASED model=dyn version=1" "$TMP/log" && break; sleep 0.1; done
grep -q "MODEL_RELEASED model=dyn version=1" "$TMP/log" && ok || bad "the replaced model was not released"
# 3. corrupt: refused and fails to load; the current model keeps serving
head -c 3000 /dev/urandom >"$TMP/bad.tflite"
publish_dyn "$TMP/bad.tflite"
for _ in $(seq 1 50); do grep -q "MODEL_LOAD_FAILED model=dyn version=1" "$TMP/log" && break; sleep 0.1; done
grep -q "MODEL_LOAD_FAILED model=dyn version=1.*previous version keeps serving" "$TMP/log" && ok ||
  bad "no MODEL_LOAD_FAILED line: $(grep -v ACCESS "$TMP/log" | tail -3)"
serves dyn "$TMP/ref_g3" && ok || bad "the current model stopped serving after a corrupt file"
touch "$TMP/stop"
wait $load_pid && ok || bad "requests failed during the reloads: $(cat "$TMP/load.txt")"
cat "$TMP/load.txt"
expect_http 200 metrics GET /metrics
body_has 'tfcc_model_hot_updates_total{model="dyn"} 1' "hot update metric after the swap"
stop_server && ok || bad "exit status after SIGTERM"
finish
