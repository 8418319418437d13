#!/usr/bin/env bash
# Dynamic batching: a float model with a dynamic batch dimension served with max_batch 8 and
# a 20 ms queue delay. Eight clients at once, each with its own input (1 to 4 rows), get
# exactly their own `tfcc run` answers byte for byte (binary and JSON), while the metrics
# show merged runs (tfcc_batch_size histogram with runs of more than one row). A request of
# max_batch rows or more runs alone. The int8 hello_world model (dynamic batch, shared
# models) batches the same way. A model without a dynamic batch dimension logs
# BATCHING_DISABLED and serves unbatched.
# Float requests of ONE row are included: every f32 GEMM/GEMV kernel adds k in the same order,
# so a row's result does not depend on the rows it is batched with (docs/server.md).
source "$(dirname "$0")/lib_server.bash"
"$PYTHON" "$SRV_HERE/make_dynbatch.py" "$TMP/dyn.tflite" || { bad "make model"; finish; }
# all inputs in one python start (it costs ~0.5 s on a loaded machine)
"$PYTHON" - "$SRV_HERE" "$TMP" <<'PY' || bad "make inputs"
import random, sys
sys.path.insert(0, sys.argv[1])
import srv_client as c
def rand(path, dtype, shape, seed, lo, hi):
    r = random.Random(seed)
    n = 1
    for d in shape:
        n *= d
    vals = [r.uniform(lo, hi) if dtype == 'FP32' else r.randint(lo, hi) for _ in range(n)]
    c.npy_write(path, dtype, shape, c.pack(dtype, vals))
for k in range(1, 9):
    rand('%s/in%d.npy' % (sys.argv[2], k), 'FP32', [k % 4 + 1, 16], k, -1.0, 1.0)
rand(sys.argv[2] + '/big.npy', 'FP32', [9, 16], 99, -1.0, 1.0)
for k in range(1, 7):
    rand('%s/h%d.npy' % (sys.argv[2], k), 'INT8', [k % 2 + 1, 1], k, -128, 127)
rand(sys.argv[2] + '/n.npy', 'FP32', [1, 128, 128, 3], 3, -1.0, 1.0)
PY
cases=()
for k in 1 2 3 4 5 6 7 8; do
  "$TFCC" run "$TMP/dyn.tflite" -i "$TMP/in$k.npy" -o "$TMP/ref$k" >/dev/null || bad "tfcc run $k"
  cases+=(--case "$TMP/in$k.npy=$TMP/ref$k")
done
"$TFCC" run "$TMP/dyn.tflite" -i "$TMP/big.npy" -o "$TMP/refbig" >/dev/null || bad "tfcc run big"

start_server "$TMP/log" "$TMP/dyn.tflite" --name dyn --sessions 2 --max-batch 8 --max-queue-delay-us 20000 \
  --no-access-log || { bad "start"; finish; }
client batch --port "$PORT" --model dyn --rounds 15 "${cases[@]}" && ok || bad "batched answers differ from tfcc run"
client batch --port "$PORT" --model dyn --rounds 5 --json "${cases[@]}" && ok || bad "batched JSON answers differ"
client check --port "$PORT" --model dyn --ref "$TMP/refbig" "$TMP/big.npy" >/dev/null && ok ||
  bad "a request of more than max_batch rows"
expect_http 200 metrics GET /metrics
body_has 'tfcc_batch_size_bucket{model="dyn",le="1"}' "batch size histogram"
merged=$(awk '$1 == "tfcc_batch_size_sum{model=\"dyn\"}" {s=$2} $1 == "tfcc_batch_size_count{model=\"dyn\"}" {c=$2}
  END {if (c > 0 && s / c > 1.5) print "yes"; else print "no " s "/" c}' "$TMP/body")
[ "$merged" = yes ] && ok || bad "requests were not merged (rows/runs: $merged)"
le1=$(awk '$1 == "tfcc_batch_size_bucket{model=\"dyn\",le=\"1\"}" {print $2}' "$TMP/body")
inf=$(awk '$1 == "tfcc_batch_size_bucket{model=\"dyn\",le=\"+Inf\"}" {print $2}' "$TMP/body")
[ "${inf:-0}" -gt "${le1:-0}" ] && ok || bad "no run of more than one row (le=1: $le1, all: $inf)"
stop_server && ok || bad "exit status after SIGTERM"

m=hello_world_int8
if [ -f "$MODELS/$m.tflite" ]; then
  cases=()
  for k in 1 2 3 4 5 6; do
    "$TFCC" run "$MODELS/$m.tflite" -i "$TMP/h$k.npy" -o "$TMP/href$k" >/dev/null || bad "tfcc run $m $k"
    cases+=(--case "$TMP/h$k.npy=$TMP/href$k")
  done
  start_server "$TMP/log2" "$MODELS/$m.tflite" --name hw --sessions 1 --max-batch 4 --max-queue-delay-us 20000 \
    --no-access-log || { bad "start $m"; finish; }
  client batch --port "$PORT" --model hw --rounds 10 "${cases[@]}" && ok || bad "$m batched answers"
  stop_server && ok || bad "exit status after SIGTERM ($m)"
fi

# no dynamic batch dimension: batching is switched off with a log line, requests still served
net=mobilenet_v1_025_128_float
build_net $net
start_server "$TMP/log3" "$TMP/nets/$net.tflite" --name net --max-batch 4 --no-access-log || { bad "start $net"; finish; }
grep -q "BATCHING_DISABLED model=net version=1: max_batch 4 ignored: input 'input' has no dynamic batch dimension" "$TMP/log3" &&
  ok || bad "no BATCHING_DISABLED line: $(grep -v ACCESS "$TMP/log3" | tail -3)"
"$TFCC" run "$TMP/nets/$net.tflite" -i "$TMP/n.npy" -o "$TMP/nref" >/dev/null
client check --port "$PORT" --model net --ref "$TMP/nref" "$TMP/n.npy" >/dev/null && ok || bad "$net unbatched answers"
stop_server && ok || bad "exit status after SIGTERM ($net)"
finish
