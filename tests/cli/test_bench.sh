#!/usr/bin/env bash
# tfcc bench: report keys and their consistency, inputs from .npy, trace, options, errors.
# Uses the conformance models in the repository (always present); shared models when found.
source "$(dirname "$0")/lib.bash"
have_python || { echo "SKIP: python3 not found"; exit 77; }
CONF=${TFCC_SOURCE_DIR:-$HERE/../..}/tests/ops/conformance
m=$CONF/conv_2d_f32_3x3_same.tflite
[ -f "$m" ] || { echo "FAIL: $m missing"; exit 1; }

expect_rc 0 "bench --help" -- "$TFCC" bench --help
expect_in "$TMP/out" "usage: tfcc bench MODEL" "bench --help"
expect_in "$TMP/out" "--trace FILE.json" "bench --help lists --trace"

# text report
expect_rc 0 "bench text" -- "$TFCC" bench "$m" --runs 3
expect_in "$TMP/out" "latency over 3 runs (1 warm-up) in ms: min " "latency line"
expect_in "$TMP/out" "load: " "load line"
expect_in "$TMP/out" "first inference: " "first inference"
expect_in "$TMP/out" "inferences/s" "throughput line"
expect_in "$TMP/out" "peak RSS" "memory line"
expect_in "$TMP/out" "by operator type:" "profile table"
if grep -Eq '^  CONV_2D +1 ' "$TMP/out"; then ok; else bad "CONV_2D type row: $(cat "$TMP/out")"; fi

# JSON report: keys, orderings, MACs equal to inspect's, 3 timed runs, profile of 3 runs
"$TFCC" inspect --json "$m" >"$TMP/inspect.json"
expect_rc 0 "bench json" -- "$TFCC" bench "$m" --runs 3 --json -i "$CONF/conv_2d_f32_3x3_same.in0.npy"
cp "$TMP/out" "$TMP/bench.json"
if python3 - "$TMP/bench.json" "$TMP/inspect.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); i = json.load(open(sys.argv[2]))
for k in ("load_ms", "first_ms", "latency_ms", "qps", "peak_rss_bytes", "arena_bytes", "ops", "memory", "cpu_ms_per_run"):
    assert k in d, k
L = d["latency_ms"]
assert set(L) >= {"min", "avg", "p50", "p90", "p99", "max"}, L
assert 0 < L["min"] <= L["p50"] <= L["p90"] <= L["p99"] <= L["max"], L
assert L["min"] <= L["avg"] <= L["max"], L
# each timed run's process CPU time: ordered the same way, summing to about the loop's
C = d["cpu_latency_ms"]
assert set(C) >= {"min", "avg", "p50", "p90", "p99", "max"}, C
assert 0 <= C["min"] <= C["p50"] <= C["p90"] <= C["p99"] <= C["max"], C
assert abs(C["avg"] - d["cpu_ms_per_run"]) <= 0.1 * d["cpu_ms_per_run"] + 0.05, (C, d["cpu_ms_per_run"])
assert d["runs"] == 3 and d["warmup_runs"] == 1 and d["profile_runs"] == 3, d
assert d["qps"] > 0 and d["peak_rss_bytes"] > 0 and d["load_ms"] > 0 and d["first_ms"] > 0
# page faults: the load maps and touches memory (the model file, the arena); none is negative
assert d["load_faults"] > 0 and d["first_faults"] >= 0 and d["faults_per_run"] >= 0, d
# one operator: input and output are caller buffers, so the arena holds only the node's
# scratch (the fast float conv's im2col tile; 0 for the reference kernel)
assert d["arena_bytes"] == d["memory"]["arena_bytes"] == d["memory"]["lower_bound_bytes"], d["memory"]
m = d["memory"]
assert m["lower_bound_bytes"] <= m["arena_bytes"] <= m["naive_bytes"], m
assert len(d["ops"]) == 1, d["ops"]
op = d["ops"][0]
assert op["name"] == "CONV_2D" and isinstance(op["kernel"], str) and op["kernel"], op
assert op["macs"] == i["total_macs"] > 0, (op, i["total_macs"])
assert abs(op["share"] - 1.0) < 1e-9 and op["ms"] > 0 and op["gops"] > 0, op
assert d["isa"] in ("generic", "sse4", "avx2", "avx512", "neon", "wasmsimd")
PY
then ok; else bad "bench JSON"; fi

# peak RSS is tfcc's own: started by a process with 96 MiB resident (getrusage's ru_maxrss
# is kept across execve and reported the parent's peak; bench/README.md, "load8")
if python3 - "$TFCC" "$m" <<'PY'
import json, subprocess, sys
big = bytearray(96 << 20)
big[::4096] = b"x" * len(range(0, len(big), 4096))
out = subprocess.run([sys.argv[1], "bench", sys.argv[2], "--runs", "2", "--json"],
                     capture_output=True, text=True, check=True).stdout
peak = json.loads(out)["peak_rss_bytes"]
assert 0 < peak < (64 << 20), peak
PY
then ok; else bad "bench peak_rss_bytes counts the parent's memory"; fi

# trace: one event per operator per run (first + warm-up + timed + profiled) and per run
expect_rc 0 "bench trace" -- "$TFCC" bench "$m" --runs 3 --warmup 2 --profile-runs 2 --trace "$TMP/t.json"
expect_in "$TMP/out" "trace: $TMP/t.json" "trace line"
if python3 - "$TMP/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
ops = [e for e in ev if e.get("cat") == "op"]
runs = [e for e in ev if e.get("cat") == "run"]
assert len(runs) == 1 + 2 + 3 + 2, len(runs)
assert len(ops) == 8, len(ops)
assert [r["args"]["phase"] for r in runs] == ["first", "warmup", "warmup", "timed", "timed", "timed", "profiled", "profiled"]
assert all(e["ph"] == "X" and e["dur"] >= 0 and e["ts"] >= 0 and e["name"] == "CONV_2D" for e in ops)
assert sorted(e["args"]["run"] for e in ops) == list(range(8))
for o in ops:  # each op event lies inside its run
    r = runs[o["args"]["run"]]
    assert r["ts"] - 1e-3 <= o["ts"] and o["ts"] + o["dur"] <= r["ts"] + r["dur"] + 1e-3, (o, r)
assert d["otherData"]["dropped_op_events"] == 0
PY
then ok; else bad "trace JSON"; fi

# options
expect_rc 0 "bench --isa generic" -- "$TFCC" bench "$m" --runs 3 --isa generic --json --profile-runs 0
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["isa"]=="generic" and d["isa_cap"]=="generic" and d["ops"]==[] and d["profile_runs"]==0' "$TMP/out"; then ok; else bad "--isa generic / --profile-runs 0"; fi
expect_rc 0 "bench --affinity" -- "$TFCC" bench "$m" --runs 3 --affinity 0 --json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["affinity"]==[0] and d["threads"]==1' "$TMP/out"; then ok; else bad "--affinity 0"; fi
expect_rc 0 "bench --duration" -- "$TFCC" bench "$m" --duration 0.05 --json --threads 2
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["runs"]>=1 and d["timed_s"]>=0.05 and d["threads"]==2' "$TMP/out"; then ok; else bad "--duration"; fi
# the session's creation touches its pages by default; --no-prefault and --prefault are taken
for pf in --no-prefault --prefault --prefault-background; do
  expect_rc 0 "bench $pf" -- "$TFCC" bench "$m" --runs 2 --json $pf
done
expect_in "$TMP/out" '"first_ms"' "bench --prefault-background JSON"
expect_rc 0 "bench --seed same bytes" -- "$TFCC" bench "$m" --runs 3 --seed 7 --json

# usage errors: exit 2, one error line
for bad_args in "--runs 0" "--runs x" "--warmup -1" "--duration -1" "--affinity 3-1" "--affinity a" "--isa avx9" "--threads -2" "--frob"; do
  # shellcheck disable=SC2086
  expect_rc 2 "bench $bad_args" -- "$TFCC" bench "$m" $bad_args
  expect_error_line bench "bench $bad_args"
done
# an ISA of the other CPU family is refused, naming what this CPU runs
case $(uname -m) in
  x86_64) other=neon; mine="generic, sse4, avx2, avx512" ;;
  aarch64) other=avx2; mine="generic, neon" ;;
  *) other= ;;
esac
if [ -n "$other" ]; then
  expect_rc 2 "bench --isa $other" -- "$TFCC" bench "$m" --runs 1 --isa "$other"
  expect_error_line bench "bench --isa $other"
  expect_in "$TMP/err" "--isa: '$other' is an" "other-family ISA named"
  expect_in "$TMP/err" "runs only $mine" "this CPU's ISAs listed"
fi
expect_rc 2 "bench without model" -- "$TFCC" bench
expect_error_line bench "bench without model"

# failures: exit 1, one error line naming the cause
expect_rc 1 "bench missing model" -- "$TFCC" bench "$TMP/nope.tflite"
expect_error_line bench "bench missing model"
expect_in "$TMP/err" "nope.tflite" "missing model named"
npy_tool make "$TMP/wrong.npy" "<i4" 2 1
expect_rc 1 "bench wrong input" -- "$TFCC" bench "$m" --runs 3 -i "$TMP/wrong.npy"
expect_error_line bench "bench wrong input"
expect_in "$TMP/err" "model wants float32" "wrong input named"
expect_rc 1 "bench bad trace path" -- "$TFCC" bench "$m" --runs 3 --trace "$TMP/no/such/dir/t.json"
expect_error_line bench "bench bad trace path"

# a shared model with a dynamic batch dimension and int8 input
# any number of -i (bench stopped at 256): 300 inputs summed by a chain of ADDs, one file each
many_inputs_model "$TMP/many" 300 && ok || bad "writing the 300-input model"
args=()
for k in $(seq 0 299); do args+=(-i "$TMP/many/x$k.npy"); done
expect_rc 0 "bench 300 -i" -- "$TFCC" bench "$TMP/many/many.tflite" "${args[@]}" --runs 2
expect_in "$TMP/out" "inputs: files (seed" "bench 300 -i"

if [ -f "$MODELS/hello_world_int8.tflite" ]; then
  expect_rc 0 "bench hello_world" -- "$TFCC" bench "$MODELS/hello_world_int8.tflite" --runs 3 --json
  if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["runs"]==3 and [o["name"] for o in d["ops"]]==["FULLY_CONNECTED"]*3, d["ops"]' "$TMP/out"; then ok; else bad "hello_world bench"; fi
fi
finish
