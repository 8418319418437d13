#!/usr/bin/env bash
# Side by side: tfcc and ONNX Runtime on the same networks (same weights), in one run.
#
#   bench/compare_ort.sh [--runs R] [--warmup W] [--rounds N] [--threads "1 2"]
#                        [--models "mobilenet_v2 ..."] [--zoo DIR] [--ort-dir DIR] [--tfcc PATH] [--out DIR]
#
# Models are the zoo pairs (../shared/tools/zoo): <arch>.tflite for tfcc, <arch>.onnx for ONNX
# Runtime, float32 and int8 ("<arch>.int8"). Missing pairs are made with make_pairs.py, and a
# missing onnxruntime-node is installed from the zoo's lock file, both outside the repository
# (defaults: ~/.cache/tfcc-zoo and ~/.cache/zoo-ort). For each model and thread count, tfcc bench
# and bench/ort_bench.js run one after the other on the same input; the table shows the median
# latencies (wall clock), the ratio tfcc/ORT (< 1: tfcc is faster), and the process CPU time per
# run (all threads), which a loaded machine does not inflate. Raw JSON goes to --out.
# --rounds N (default 1) repeats every pair N times, alternating which engine goes first, and
# reports the medians over rounds and the median of the per-round ratios (each round's two
# runs are back to back, so a drift in machine speed cancels in the ratio); "ratio range" is
# the lowest and highest per-round ratio. Use N >= 3 on a shared or virtual machine.
# The tail: each engine's p99/p50 of wall time, and of each run's process CPU time ("CPU
# p99/p50": the engine's own spread, without the time other processes held the CPU).
# Benchmarks are not tests: nothing is asserted.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SHARED=${TFCC_SHARED_DIR:-$ROOT/../shared}
ZOO_TOOLS=$SHARED/tools/zoo
ZOO=${ZOO_DIR:-$HOME/.cache/tfcc-zoo}
ORT=${ORT_DIR:-${ZOO_ORT_DIR:-$HOME/.cache/zoo-ort}}
TFCC=${TFCC:-$ROOT/build/tools/tfcc}
OUT=${TMPDIR:-/tmp}/tfcc_compare_ort
RUNS=10
WARMUP=1
ROUNDS=1
THREADS="1 2"
MODELS="mobilenet_v2 mobilenet_v2.int8 resnet50 resnet50.int8"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --zoo) ZOO=$2; shift 2 ;;
    --ort-dir) ORT=$2; shift 2 ;;
    --tfcc) TFCC=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "compare_ort.sh: error: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

die() { echo "compare_ort.sh: error: $*" >&2; exit 1; }
[ -x "$TFCC" ] || die "tfcc not found at $TFCC (build it, or pass --tfcc PATH)"
command -v node >/dev/null || die "node (Node.js >= 20) not found"

# ONNX Runtime (npm onnxruntime-node, pinned by the zoo's lock file), outside the repository.
if [ ! -d "$ORT/node_modules/onnxruntime-node" ]; then
  [ -f "$ZOO_TOOLS/ort/package-lock.json" ] || die "no $ZOO_TOOLS/ort/package-lock.json to install onnxruntime-node from"
  echo "installing onnxruntime-node into $ORT ..." >&2
  mkdir -p "$ORT"
  cp "$ZOO_TOOLS/ort/package.json" "$ZOO_TOOLS/ort/package-lock.json" "$ORT/"
  (cd "$ORT" && npm ci --ignore-scripts >/dev/null) || die "npm ci in $ORT failed"
fi

# Model pairs, outside the repository.
need_pairs=0
for m in $MODELS; do
  arch=${m%.int8}
  [ -f "$ZOO/$m.tflite" ] && [ -f "$ZOO/$m.onnx" ] && [ -f "$ZOO/$arch.input_nhwc.npy" ] || need_pairs=1
done
if [ $need_pairs = 1 ]; then
  archs=$(for m in $MODELS; do echo "${m%.int8}"; done | sort -u | tr '\n' ',' | sed 's/,$//')
  echo "making model pairs ($archs) in $ZOO (needs python3-torch, python3-torchvision, python3-onnx) ..." >&2
  mkdir -p "$ZOO"
  ZOO_ORT_DIR=$ORT "$PY" "$ZOO_TOOLS/make_pairs.py" --outdir "$ZOO" --arch "$archs" >&2 || die "make_pairs.py failed"
fi

mkdir -p "$OUT"
echo "# tfcc vs ONNX Runtime: $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
echo "# runs $RUNS (+$WARMUP warm-up) per engine and setting; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
run_tfcc() {
  "$TFCC" bench "$ZOO/$1.tflite" -i "$ZOO/$2.input_nhwc.npy" --threads "$3" --runs "$RUNS" \
    --warmup "$WARMUP" --profile-runs 0 --json >"$4" || die "tfcc bench failed on $1"
}
run_ort() {
  ORT_DIR=$ORT node "$HERE/ort_bench.js" "$ZOO/$1.onnx" "$ZOO/$2.input_nchw.npy" --threads "$3" \
    --runs "$RUNS" --warmup "$WARMUP" >"$4" || die "ort_bench.js failed on $1"
}
case $ROUNDS in '' | *[!0-9]* | 0) die "--rounds wants a positive integer, got '$ROUNDS'" ;; esac
for r in $(seq 1 "$ROUNDS"); do
  for m in $MODELS; do
    arch=${m%.int8}
    for t in $THREADS; do
      if [ $((r % 2)) = 1 ]; then
        run_tfcc "$m" "$arch" "$t" "$OUT/$m.t$t.r$r.tfcc.json"
        run_ort "$m" "$arch" "$t" "$OUT/$m.t$t.r$r.ort.json"
      else
        run_ort "$m" "$arch" "$t" "$OUT/$m.t$t.r$r.ort.json"
        run_tfcc "$m" "$arch" "$t" "$OUT/$m.t$t.r$r.tfcc.json"
      fi
      echo "  done: round $r, $m, $t thread(s)" >&2
    done
  done
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg); raw JSON in $OUT"
"$PY" - "$OUT" "$MODELS" "$THREADS" "$ROUNDS" <<'PY'
import json, statistics, sys
out, models, threads, rounds = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), int(sys.argv[4])
med = statistics.median
hdr = ("model", "thr", "tfcc p50 ms", "ORT p50 ms", "tfcc/ORT", "tfcc CPU ms/run", "ORT CPU ms/run", "CPU ratio",
       "tfcc p99/p50", "ORT p99/p50", "tfcc CPU p99/p50", "ORT CPU p99/p50")
if rounds > 1:
    hdr += ("ratio range",)
rows = []
for m in models:
    for t in threads:
        pa, pb, ca, cb, ta, tb, ua, ub = [], [], [], [], [], [], [], []
        for r in range(1, rounds + 1):
            a = json.load(open("%s/%s.t%s.r%d.tfcc.json" % (out, m, t, r)))
            b = json.load(open("%s/%s.t%s.r%d.ort.json" % (out, m, t, r)))
            pa.append(a["latency_ms"]["p50"]); pb.append(b["latency_ms"]["p50"])
            ca.append(a["cpu_ms_per_run"]); cb.append(b["cpu_ms_per_run"])
            # tail: each engine's p99 over its own p50, in the same round
            ta.append(a["latency_ms"]["p99"] / a["latency_ms"]["p50"])
            tb.append(b["latency_ms"]["p99"] / b["latency_ms"]["p50"])
            # the same over each run's process CPU time: the engine's own tail, without the
            # time other processes held the CPU (results without the key: "-")
            for j, u in ((a, ua), (b, ub)):
                cl = j.get("cpu_latency_ms")
                if cl and cl["p50"] > 0:
                    u.append(cl["p99"] / cl["p50"])
        ratios = [x / y for x, y in zip(pa, pb)]
        cratios = [x / y for x, y in zip(ca, cb)]
        row = (m, t, "%.2f" % med(pa), "%.2f" % med(pb), "%.2f" % med(ratios), "%.2f" % med(ca),
               "%.2f" % med(cb), "%.2f" % med(cratios), "%.2f" % med(ta), "%.2f" % med(tb),
               "%.2f" % med(ua) if ua else "-", "%.2f" % med(ub) if ub else "-")
        if rounds > 1:
            row += ("%.2f-%.2f" % (min(ratios), max(ratios)),)
        rows.append(row)
w = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(len(hdr))]
line = lambda r: "| " + " | ".join(str(v).rjust(w[i]) if i else str(v).ljust(w[i]) for i, v in enumerate(r)) + " |"
print(line(hdr))
print("|" + "|".join("-" * (x + 2) for x in w) + "|")
for r in rows:
    print(line(r))
PY
