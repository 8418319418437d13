#!/usr/bin/env bash
# Is tfcc's latency tail at or under ONNX Runtime's, run after run? (issue 18 point 7)
#
#   bench/tail_repeat.sh [--passes N] [--runs R] [--models "mobilenet_v2 ..."] [--tfcc PATH]
#                        [--out DIR] [--zoo DIR] [--ort-dir DIR]
#
# Runs bench/compare_ort.sh at 1 thread with --rounds N (default 5): N passes over the models, in
# each pass every model's two engines back to back, which one goes first alternating from pass
# to pass. Then, per model, over the N passes: each engine's p99/p50 of wall time (median, lowest
# and highest), the median p99 - p50 in ms, and in how many passes tfcc's p99/p50 was at or
# under ONNX Runtime's of the same pass. Default models: the six zoo models; default --runs 200
# (one pass of the six takes about 1 minute on an idle 2-core machine). The load average is
# printed at the start and the end: above about 1 the figures measure the machine.
# Raw JSON (compare_ort.sh's) goes to --out (default: a fresh directory under $TMPDIR).
# Benchmarks are not tests: nothing is asserted.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PASSES=5
RUNS=200
MODELS="mobilenet_v2 mobilenet_v2.int8 resnet18 resnet18.int8 resnet50 resnet50.int8"
OUT=
PASS_ON=()
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --passes) PASSES=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --tfcc | --zoo | --ort-dir) PASS_ON+=("$1" "$2"); shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "tail_repeat.sh: error: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
die() { echo "tail_repeat.sh: error: $*" >&2; exit 1; }
case $PASSES in '' | *[!0-9]* | 0) die "--passes wants a positive integer, got '$PASSES'" ;; esac
case $RUNS in '' | *[!0-9]* | 0 | 1) die "--runs wants an integer >= 2, got '$RUNS'" ;; esac
[ -n "$OUT" ] || OUT=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_tail_repeat.XXXXXX")
mkdir -p "$OUT"
rm -f "$OUT"/*.t1.r*.tfcc.json "$OUT"/*.t1.r*.ort.json

load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
bash "$HERE/compare_ort.sh" --threads 1 --rounds "$PASSES" --runs "$RUNS" --models "$MODELS" \
  --out "$OUT" ${PASS_ON[@]+"${PASS_ON[@]}"} >"$OUT/compare_ort.txt" || die "compare_ort.sh failed (see $OUT)"
echo "# tail_repeat: $PASSES passes x $RUNS runs, 1 thread, $(($(date +%s) - t0)) s; load average" \
  "at start $load0, at end $(cut -d' ' -f1-3 /proc/loadavg); raw JSON in $OUT"
"$PY" - "$OUT" "$MODELS" "$PASSES" <<'PY'
import json, statistics, sys
out, models, passes = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
med = statistics.median
hdr = ("model", "tfcc p99/p50 med [min-max]", "ORT p99/p50 med [min-max]", "tfcc p99-p50 ms",
       "ORT p99-p50 ms", "tfcc <= ORT")
rows, wins_all = [], 0
for m in models:
    ta, tb, da, db, wins = [], [], [], [], 0
    for r in range(1, passes + 1):
        a = json.load(open("%s/%s.t1.r%d.tfcc.json" % (out, m, r)))["latency_ms"]
        b = json.load(open("%s/%s.t1.r%d.ort.json" % (out, m, r)))["latency_ms"]
        ta.append(a["p99"] / a["p50"]); tb.append(b["p99"] / b["p50"])
        da.append(a["p99"] - a["p50"]); db.append(b["p99"] - b["p50"])
        wins += round(ta[-1], 2) <= round(tb[-1], 2)  # as the tables print them
    wins_all += wins == passes
    rows.append((m, "%.2f [%.2f-%.2f]" % (med(ta), min(ta), max(ta)),
                 "%.2f [%.2f-%.2f]" % (med(tb), min(tb), max(tb)), "%.2f" % med(da),
                 "%.2f" % med(db), "%d of %d" % (wins, passes)))
w = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(len(hdr))]
line = lambda r: "| " + " | ".join(str(v).rjust(w[i]) if i else str(v).ljust(w[i]) for i, v in enumerate(r)) + " |"
print(line(hdr))
print("|" + "|".join("-" * (x + 2) for x in w) + "|")
for r in rows:
    print(line(r))
print("# models where tfcc's p99/p50 was <= ONNX Runtime's in every pass: %d of %d" % (wins_all, len(models)))
PY
