#!/usr/bin/env bash
# `precision: fp32 | bf16` per model (tfcc_model_options.precision): a bad value stops the
# start naming FILE:LINE and the key; a bf16 model answers exactly like `tfcc run --precision
# bf16`, an fp32 one like `tfcc run` (at ISA caps without bf16 kernels both are float32);
# the repository section and --precision set it too; SIGHUP with a changed precision reloads.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
m=$TMP/nets/$net.tflite
c=$TMP/c.yaml
check_reject "bad precision" "c.yaml:3: models[0].precision: 'fp8' is not fp32, bf16 or fp16" \
  "models:" "  - name: a" "    precision: fp8" "    path: $m"
check_reject "precision not a scalar" "c.yaml:1: models[0].precision: expected fp32, bf16 or fp16" \
  "models: [{name: a, path: $m, precision: [bf16]}]"
check_reject "bad repository precision" "c.yaml:1: repository.precision: 'half' is not fp32, bf16 or fp16" \
  "repository: {path: $TMP, precision: half}"
check_reject "bad device" "c.yaml:1: runtime.device: 'tpu' is not cpu, cuda or cuda:N" \
  "runtime: {device: tpu}" "models: [{name: a, path: $m}]"
expect_rc 2 "bad --device" -- "$TFCC" serve "$m" --device cuda:x
expect_in "$TMP/err" "--device: 'cuda:x' is not cpu, cuda or cuda:N" "bad --device"
expect_rc 2 "bad --precision" -- "$TFCC" serve "$m" --precision int4
expect_in "$TMP/err" "--precision: unknown precision 'int4'" "bad --precision"

client rand "$TMP/in.npy" FP32 1,128,128,3 --seed 11
"$TFCC" run "$m" -i "$TMP/in.npy" -o "$TMP/ref32" >/dev/null || bad "tfcc run"
"$TFCC" run "$m" -i "$TMP/in.npy" -o "$TMP/ref16" --precision bf16 >/dev/null || bad "tfcc run --precision bf16"
cat >"$c" <<YAML
log: {access: false}
models:
  - {name: f, path: $m, sessions: 1}
  - {name: x, path: $m, sessions: 1, precision: fp32}
  - {name: b, path: $m, sessions: 1, precision: bf16}
YAML
start_server "$TMP/log" --config "$c" || { bad "start"; finish; }
grep -q "MODEL_LOADED model=b version=1 .* precision=bf16 " "$TMP/log" && ok || bad "MODEL_LOADED names precision=bf16"
grep -q "MODEL_LOADED model=f version=1 .* precision=fp32 " "$TMP/log" && ok || bad "MODEL_LOADED names precision=fp32"
client check --port "$PORT" --model f --ref "$TMP/ref32" "$TMP/in.npy" && ok || bad "default: responses differ from tfcc run"
client check --port "$PORT" --model x --ref "$TMP/ref32" "$TMP/in.npy" && ok || bad "fp32: responses differ from tfcc run"
client check --port "$PORT" --model b --ref "$TMP/ref16" "$TMP/in.npy" && ok ||
  bad "bf16: responses differ from tfcc run --precision bf16"
# SIGHUP: precision is a model setting, changing it reloads the model
sed -i 's/name: f, path: \(.*\), sessions: 1}/name: f, path: \1, sessions: 1, precision: bf16}/' "$c"
grep -q "name: f, .*precision: bf16" "$c" && ok || bad "config edit"
reload_config "$TMP/log"
grep -q "CONFIG_RELOAD model=f changed: reloading" "$TMP/log" && ok || bad "precision change not a reload"
grep -q "MODEL_LOADED model=f version=1 .* precision=bf16 " "$TMP/log" && ok || bad "f reloaded with bf16"
client check --port "$PORT" --model f --ref "$TMP/ref16" "$TMP/in.npy" && ok ||
  bad "f after SIGHUP: responses differ from tfcc run --precision bf16"
stop_server && ok || bad "exit status"

# repository models and --precision
check_repo_setting "repository precision bf16" "precision: bf16" "$m" "$TMP/ref16" "$TMP/in.npy"
start_server "$TMP/log3" "$m" --name p --precision bf16 --no-access-log || { bad "start --precision"; finish; }
client check --port "$PORT" --model p --ref "$TMP/ref16" "$TMP/in.npy" && ok || bad "--precision bf16"
stop_server && ok || bad "exit status"
finish
