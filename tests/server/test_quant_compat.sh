#!/usr/bin/env bash
# `quant_compat: tflite | reference` per model (tfcc_model_options.quant_compat): a bad value
# stops the start naming FILE:LINE and the key; a `reference` model answers exactly like `tfcc
# run --quant-compat reference`, a default or `tflite` one like `tfcc run`, on a hybrid
# conformance case where TensorFlow Lite's two builds differ; the repository section and
# --quant-compat set it too; SIGHUP with a changed quant_compat reloads the model.
source "$(dirname "$0")/lib_server.bash"
C=$SRC/tests/ops/conformance
m=$TMP/hyb.tflite
cp "$C/conv_2d_hybrid_pt_3x3_same.tflite" "$m"
in=$C/conv_2d_hybrid_pt_3x3_same.in0.npy
c=$TMP/c.yaml
check_reject "bad quant_compat" "c.yaml:3: models[0].quant_compat: 'xnnpack' is not tflite or reference" \
  "models:" "  - name: a" "    quant_compat: xnnpack" "    path: $m"
check_reject "quant_compat not a scalar" "c.yaml:1: models[0].quant_compat: expected tflite or reference" \
  "models: [{name: a, path: $m, quant_compat: [reference]}]"
check_reject "bad repository quant_compat" "c.yaml:1: repository.quant_compat: 'builtin' is not tflite or reference" \
  "repository: {path: $TMP, quant_compat: builtin}"
expect_rc 2 "bad --quant-compat" -- "$TFCC" serve "$m" --quant-compat exact
expect_in "$TMP/err" "--quant-compat: unknown arithmetic 'exact'" "bad --quant-compat"

"$TFCC" run "$m" -i "$in" -o "$TMP/reft" >/dev/null || bad "tfcc run"
"$TFCC" run "$m" -i "$in" -o "$TMP/refr" --quant-compat reference >/dev/null || bad "tfcc run --quant-compat reference"
cmp -s "$TMP/reft/"0_*.npy "$TMP/refr/"0_*.npy && bad "the two modes agree on this case" || ok
cat >"$c" <<YAML
log: {access: false}
models:
  - {name: d, path: $m, sessions: 1}
  - {name: t, path: $m, sessions: 1, quant_compat: tflite}
  - {name: r, path: $m, sessions: 1, quant_compat: reference}
YAML
start_server "$TMP/log" --config "$c" || { bad "start"; finish; }
client check --port "$PORT" --model d --ref "$TMP/reft" "$in" && ok || bad "default: responses differ from tfcc run"
client check --port "$PORT" --model t --ref "$TMP/reft" "$in" && ok || bad "tflite: responses differ from tfcc run"
client check --port "$PORT" --model r --ref "$TMP/refr" "$in" && ok ||
  bad "reference: responses differ from tfcc run --quant-compat reference"
# SIGHUP: quant_compat is a model setting, changing it reloads the model
sed -i 's/name: d, path: \(.*\), sessions: 1}/name: d, path: \1, sessions: 1, quant_compat: reference}/' "$c"
grep -q "name: d, .*quant_compat: reference" "$c" && ok || bad "config edit"
reload_config "$TMP/log"
grep -q "CONFIG_RELOAD model=d changed: reloading" "$TMP/log" && ok || bad "quant_compat change not a reload"
client check --port "$PORT" --model d --ref "$TMP/refr" "$in" && ok ||
  bad "d after SIGHUP: responses differ from tfcc run --quant-compat reference"
stop_server && ok || bad "exit status"

# repository models and --quant-compat
check_repo_setting "repository quant_compat reference" "quant_compat: reference" "$m" "$TMP/refr" "$in"
start_server "$TMP/log3" "$m" --name p --quant-compat reference --no-access-log || { bad "start --quant-compat"; finish; }
client check --port "$PORT" --model p --ref "$TMP/refr" "$in" && ok || bad "--quant-compat reference"
stop_server && ok || bad "exit status"
finish
