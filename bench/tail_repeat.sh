#!/usr/bin/env bash
# Is tfcc's latency tail at or under ONNX Runtime's, run after run? (issue 18 point 7)
#
#   bench/tail_repeat.sh [--passes N] [--out DIR] [compare_ort.sh's --runs R, --models "...",
#                        --warmup W, --tfcc PATH, --zoo DIR, --ort-dir DIR]
#
# Runs bench/compare_ort.sh at 1 thread with --rounds N (default 3): N passes over the models, in
# each pass every model's two engines back to back, which one goes first alternating from pass
# to pass. Then, per model, over the N passes: each engine's p99/p50 of wall time (median, lowest
# and highest), the median p99 - p50 in ms, and in how many passes tfcc's p99/p50 was at or
# under ONNX Runtime's of the same pass (each ratio rounded to 2 decimals, as printed). Default
# models: the six zoo models; default --runs 200 (a pass of the six took 77 s on the 2-core
# machine at load 6: the default 3 passes fit in about 4 minutes). The load average is printed
# at the start and the end: above about 1 the figures measure the machine.
# Raw JSON (compare_ort.sh's) goes to --out (default: a fresh directory under $TMPDIR).
# Benchmarks are not tests: nothing is asserted.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PASSES=3
OUT=
ARGS=()
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
die() { echo "tail_repeat.sh: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
    --passes) PASSES=${2:-}; shift 2 || die "--passes wants a value" ;;
    --out) OUT=${2:-}; shift 2 || die "--out wants a value" ;;
    --threads | --rounds) die "$1 is fixed here (1 thread; --passes N)" ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) ARGS+=("$1"); shift ;; # compare_ort.sh's own options (checked there)
  esac
done
case $PASSES in '' | *[!0-9]* | 0) die "--passes wants a positive integer, got '$PASSES'" ;; esac
[ -n "$OUT" ] || OUT=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_tail_repeat.XXXXXX")
mkdir -p "$OUT"
rm -f "$OUT"/*.t1.r*.tfcc.json "$OUT"/*.t1.r*.ort.json

load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
# defaults first: compare_ort.sh keeps the last value of an option given twice
bash "$HERE/compare_ort.sh" --runs 200 \
  --models "mobilenet_v2 mobilenet_v2.int8 resnet18 resnet18.int8 resnet50 resnet50.int8" \
  ${ARGS[@]+"${ARGS[@]}"} --threads 1 --rounds "$PASSES" --out "$OUT" >"$OUT/compare_ort.txt" ||
  die "compare_ort.sh failed (see $OUT)"
echo "# tail_repeat: $PASSES passes, 1 thread, $(($(date +%s) - t0)) s; load average at start" \
  "$load0, at end $(cut -d' ' -f1-3 /proc/loadavg); raw JSON in $OUT"
"$PY" - "$OUT" "$PASSES" <<'PY'
import glob, json, os, statistics, sys
out, passes = sys.argv[1], int(sys.argv[2])
models = sorted(os.path.basename(f)[:-len(".t1.r1.tfcc.json")] for f in glob.glob(out + "/*.t1.r1.tfcc.json"))
med = statistics.median
rows, wins_all = [], 0
print("model: tfcc p99/p50 median [lowest-highest] | ONNX Runtime's | median p99 - p50 ms tfcc / ORT | passes tfcc <= ORT")
for m in models:
    ta, tb, da, db, wins = [], [], [], [], 0
    for r in range(1, passes + 1):
        a = json.load(open("%s/%s.t1.r%d.tfcc.json" % (out, m, r)))["latency_ms"]
        b = json.load(open("%s/%s.t1.r%d.ort.json" % (out, m, r)))["latency_ms"]
        ta.append(a["p99"] / a["p50"]); tb.append(b["p99"] / b["p50"])
        da.append(a["p99"] - a["p50"]); db.append(b["p99"] - b["p50"])
        wins += round(ta[-1], 2) <= round(tb[-1], 2)  # as the tables print them
    wins_all += wins == passes
    print("%-18s %.2f [%.2f-%.2f] | %.2f [%.2f-%.2f] | %6.2f / %6.2f | %d of %d" %
          (m + ":", med(ta), min(ta), max(ta), med(tb), min(tb), max(tb), med(da), med(db), wins,
           passes))
print("# models where tfcc's p99/p50 was <= ONNX Runtime's in every pass: %d of %d" % (wins_all, len(models)))
PY
