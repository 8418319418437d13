#!/usr/bin/env bash
# GFLOP/s of GEMM-shaped work through the library, against the measured per-core FMA peak.
#
#   bench/gemm_bench.sh [--runs R] [--threads N] [--isa CAP] [--models-dir DIR] [--build DIR]
#
# Makes 1x1 CONV_2D (GEMM: M = H*W, K = Cin, N = Cout) and FULLY_CONNECTED models with
# bench/make_gemm_models.py (cached in --models-dir, default ~/.cache/tfcc-gemm), measures the
# core's peak with fma_peak (the best f32 loop the CPU has), runs `tfcc bench --json` on each
# model and prints GFLOP/s (2 x MACs / median latency) and its share of threads x per-core peak,
# both from wall time and from process CPU time (which a loaded machine does not inflate).
# Benchmarks are not tests: nothing is asserted.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=$ROOT/build
MODELS=${TFCC_GEMM_MODELS:-$HOME/.cache/tfcc-gemm}
RUNS=10
THREADS=1
ISA=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --isa) ISA=(--isa "$2"); shift 2 ;;
    --models-dir) MODELS=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gemm_bench.sh: error: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
TFCC=${TFCC:-$BUILD/tools/tfcc}
PEAK=${FMA_PEAK:-$BUILD/bench/fma_peak}
[ -x "$TFCC" ] && [ -x "$PEAK" ] || { echo "gemm_bench.sh: error: build first ($TFCC, $PEAK)" >&2; exit 1; }
python3 "$HERE/make_gemm_models.py" "$MODELS" >&2
OUT=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_gemm.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
"$PEAK" --json >"$OUT/peak.json"
for f in "$MODELS"/*.tflite; do
  "$TFCC" bench "$f" --threads "$THREADS" --runs "$RUNS" --profile-runs 1 "${ISA[@]}" --json >"$OUT/$(basename "$f" .tflite).json"
done
python3 - "$OUT" "$THREADS" <<'PY'
import glob, json, os, sys
out, threads = sys.argv[1], int(sys.argv[2])
peaks = {p["kernel"]: p["per_thread"] for p in json.load(open(os.path.join(out, "peak.json")))["peaks"]}
name, peak = next(((k, peaks[k]) for k in ("f32-fma-avx512", "f32-fma-avx2", "f32-fma-neon", "f32-muladd-sse") if k in peaks), ("none", 0))
print("# peak: %s %.1f GFLOP/s per core (fma_peak); %d thread(s)" % (name, peak, threads))
hdr = ("model", "MACs", "kernel", "p50 ms", "GFLOP/s", "% peak", "CPU ms/run", "GFLOP/s (CPU)", "% peak (CPU)")
rows = []
for f in sorted(glob.glob(os.path.join(out, "*.json"))):
    if f.endswith("peak.json"):
        continue
    d = json.load(open(f))
    op = max(d["ops"], key=lambda o: o["macs"])
    macs, p50, cpu = op["macs"], d["latency_ms"]["p50"], d["cpu_ms_per_run"]
    g = 2 * macs / (p50 * 1e6)
    gc = 2 * macs / (cpu * 1e6) if cpu > 0 else 0
    pk = peak * threads
    rows.append((os.path.basename(f)[:-5], macs, op["kernel"], "%.3f" % p50, "%.1f" % g, "%.1f" % (100 * g / pk if pk else 0),
                 "%.3f" % cpu, "%.1f" % gc, "%.1f" % (100 * gc / pk if pk else 0)))
w = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(len(hdr))]
line = lambda r: "| " + " | ".join(str(v).rjust(w[i]) if i else str(v).ljust(w[i]) for i, v in enumerate(r)) + " |"
print(line(hdr))
print("|" + "|".join("-" * (x + 2) for x in w) + "|")
for r in rows:
    print(line(r))
PY
