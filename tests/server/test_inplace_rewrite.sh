#!/usr/bin/env bash
# A served model file rewritten or truncated *in place* (`cp new.tflite model.tflite`, which
# truncates then writes; `: > model.tflite`) while the repository poller hot-updates it and
# clients send requests. The server used to die with SIGBUS (exit 135): in the update
# (tfcc_model_update_weights reading a truncated mapping), or in the next request of an LSTM
# model whose file was truncated (options read from the mapping at run time). Now the library
# reads model files into private memory: every answer equals one published file's `tfcc run`
# output, a half-written file is refused cleanly, and the loaded model keeps serving.
source "$(dirname "$0")/lib_server.bash"
mk() { python3 "$SRV_HERE/make_dynbatch.py" "$@" || bad "make model $*"; }
mk "$TMP/w1.tflite" --seed 1
mk "$TMP/w2.tflite" --seed 2
python3 - "$SRV_HERE" "$TMP/in.npy" <<'PY' || bad "make input"
import random, sys
sys.path.insert(0, sys.argv[1])
import srv_client as c
r = random.Random(7)
c.npy_write(sys.argv[2], 'FP32', [2, 16], c.pack('FP32', [r.uniform(-1, 1) for _ in range(32)]))
PY
for m in w1 w2; do "$TFCC" run "$TMP/$m.tflite" -i "$TMP/in.npy" -o "$TMP/ref_$m" >/dev/null || bad "tfcc run $m"; done

served="$TMP/repo/dyn/1/model.tflite"
mkdir -p "$TMP/repo/dyn/1"
cp "$TMP/w1.tflite" "$served"
lstm=""
if [ -f "$MODELS/mnist_lstm_float.tflite" ]; then
  lstm="$TMP/repo/lstm/1/model.tflite"
  mkdir -p "$TMP/repo/lstm/1"
  cp "$MODELS/mnist_lstm_float.tflite" "$lstm"
else
  echo "SKIP (part): $MODELS/mnist_lstm_float.tflite not found; LSTM truncation not checked"
fi
start_server "$TMP/log" --model-repository "$TMP/repo" --poll-ms 50 --sessions 2 --no-access-log ||
  { bad "start"; finish; }
expect_http 200 "ready" GET /v2/models/dyn/ready
alive() { if kill -0 "$PID" 2>/dev/null; then ok; else wait "$PID"; bad "$1: the server died (exit status $?)"; fi; }

# 1. cp over the served file, many times, while the poller updates and 4 clients send requests
client load --port "$PORT" --model dyn --threads 4 --until-file "$TMP/stop" --expect "$TMP/ref_w1" \
  --expect "$TMP/ref_w2" "$TMP/in.npy" >"$TMP/load.txt" 2>&1 &
load_pid=$!
sleep 0.3
for i in $(seq 1 21); do
  if [ $((i % 2)) -eq 1 ]; then cp "$TMP/w2.tflite" "$served"; else cp "$TMP/w1.tflite" "$served"; fi
  sleep 0.0$((i % 5))
done
alive "in-place rewrites during hot updates"
# the last file written (w2, i = 21) is served once the poller sees it complete
serves dyn "$TMP/ref_w2" && ok || bad "the last file written in place does not serve"
grep -q "MODEL_UPDATED model=dyn" "$TMP/log" && ok || bad "no hot update happened: $(grep -v ACCESS "$TMP/log" | tail -3)"

# 2. truncated in place: the update is refused, the loaded weights keep serving
: >"$served"
sleep 0.3
alive "truncation"
serves dyn "$TMP/ref_w2" && ok || bad "the loaded model stopped serving after its file was truncated"
touch "$TMP/stop"
wait $load_pid && ok || bad "requests failed or answered a torn model: $(cat "$TMP/load.txt")"
cat "$TMP/load.txt"

# 3. an LSTM model (UNIDIRECTIONAL_SEQUENCE_LSTM) whose file is truncated: the next request
if [ -n "$lstm" ]; then
  expect_http 200 "lstm ready" GET /v2/models/lstm/ready
  client infer --port "$PORT" --model lstm --out "$TMP/lstm1" "$MODELS/ref/mnist_lstm_float/input_0.npy" >/dev/null &&
    ok || bad "lstm request before truncation"
  : >"$lstm"
  sleep 0.2 # the poller has seen it (and refused it)
  client infer --port "$PORT" --model lstm --out "$TMP/lstm2" "$MODELS/ref/mnist_lstm_float/input_0.npy" >/dev/null &&
    ok || bad "lstm request after truncation"
  alive "LSTM file truncated"
fi
stop_server && ok || bad "exit status after SIGTERM"
finish
