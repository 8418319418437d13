#!/usr/bin/env bash
# The GPU checks of the CUDA backend (issue 19, docs/cuda.md), run on a machine with an NVIDIA GPU
# from a payload that scripts/gpu_pack.sh made on the build machine (binaries, the shared models,
# the zoo's tools). Under 10 minutes on one H200. Writes OUT/summary.json and the logs beside it.
#
#   bash scripts/gpu_check.sh PAYLOAD OUT
#
# 1. tfcc gpu-info; 2. the device kernels against CPU references (gpu_kernels_test, every dtype);
# 3. the device error paths; 4. every shared model and the zoo's float networks on the GPU against
# the CPU (cuda.test_cuda_models: fp32 within 1e-3 relative, fp16 within 5e-2 and top-1 equal);
# 5. compute-sanitizer memcheck on a small model; 6. tfcc serve --device cuda: answers equal
# tfcc run's, 16 clients with and without dynamic batching; 7. speed, side by side with PyTorch on the same
# GPU: MobileNetV2 and ResNet-50 at batch 1 and 32, fp16 (and fp32 for tfcc): tfcc bench
# --device cuda against bench/cuda/torch_baseline.py (eager, cudnn.benchmark, channels-last; and
# CUDA graphs).
set -u
P=$(cd "${1:-.gpu}" && pwd)
FINAL=${2:-/tmp/gpu_check}
OUT=$(mktemp -d /tmp/gpu_check.XXXXXX) # every file; FINAL gets the log as it goes and, at the
mkdir -p "$FINAL"                      # end, the summary and the main logs (at most 8 files)
exec > >(tee "$FINAL/log.txt") 2>&1
T0=$(date +%s)
step() { echo; echo "=== $* (t=$(( $(date +%s) - T0 )) s)"; }
PY=python3
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || true

# the zoo's float networks, made from torchvision in the background while the checks run
ZOO=$P/zoo
mkdir -p "$ZOO"
( $PY "$P/bench/make_zoo_float.py" --zoo-tools "$P/zoo_tools" --outdir "$ZOO" \
    --arch resnet50,resnet18,mobilenet_v2 > "$OUT/zoo_gen.txt" 2>&1
  # batch 32 (the zoo's files have a static batch of 1)
  $PY "$P/bench/make_zoo_float.py" --zoo-tools "$P/zoo_tools" --outdir "$ZOO" \
    --arch resnet50,mobilenet_v2 --batch 32 >> "$OUT/zoo_gen.txt" 2>&1; echo "rc=$?" >> "$OUT/zoo_gen.txt" ) &
ZOO_PID=$!

# CUDA libraries the backend links (cuBLAS): the toolkit's, else PyTorch's wheels
libdir_of() { local f; f=$(find / -xdev \( -path /proc -o -path /sys \) -prune -o -name "$1" -print 2>/dev/null | head -1); [ -n "$f" ] && dirname "$f"; }
CB=$(libdir_of 'libcublas.so.13*')
CBLT=$(libdir_of 'libcublasLt.so.13*')
ORIG_LD=${LD_LIBRARY_PATH:-}
DNN=$(libdir_of 'libcudnn.so.9')
echo "cuBLAS: $CB $CBLT; cuDNN: ${DNN:-none}"
export LD_LIBRARY_PATH="$P/lib:${CB:-}:${CBLT:-}:${DNN:-}:${LD_LIBRARY_PATH:-}"
export TFCC_CUDA_LIBRARY="$P/lib/libtfcc_cuda.so.0"
TFCC=$P/bin/tfcc

step "1. gpu-info"
"$TFCC" gpu-info | tee "$OUT/gpu_info.json"; echo "rc=${PIPESTATUS[0]}"

if [ "${GPU_CHECK_SPEED_ONLY:-0}" = 1 ]; then # speed only (a re-run after a speed change)
  wait $ZOO_PID
else
step "2. device kernels"
timeout 120 "$P/bin/gpu_kernels_test" > "$OUT/kernels.txt" 2>&1; echo "rc=$?" | tee -a "$OUT/kernels.txt"
grep -E "FAIL|summary|passed|failed" "$OUT/kernels.txt" | tail -40

step "3. device error paths"
timeout 60 "$P/bin/cuda_test_device_errors"; echo "rc=$?"

step "4. models: GPU against CPU"
wait $ZOO_PID; cat "$OUT/zoo_gen.txt"
[ -f "$ZOO/mobilenet_v2.tflite" ] || cp "$P/zoo_carried/"* "$ZOO/" 2>/dev/null || true
ls -la "$ZOO"
TFCC_SHARED_DIR=$P/shared TFCC_ZOO_DIR=$ZOO timeout 300 "$P/bin/cuda_test_cuda_models" > "$OUT/models.txt" 2>&1
echo "rc=$?" | tee -a "$OUT/models.txt"
grep -E "CHECK failed|relative|top-1|checks|SKIP|compared|failed" "$OUT/models.txt" | head -120
# again with cuDNN's convolutions and cuBLASLt's fused epilogues (opt-in until they pass here)
TFCC_CUDNN=1 TFCC_CUDA_LT=1 TFCC_LOG=1 TFCC_SHARED_DIR=$P/shared TFCC_ZOO_DIR=$ZOO timeout 300 \
  "$P/bin/cuda_test_cuda_models" > "$OUT/models_fused.txt" 2>&1
echo "rc=$? (TFCC_CUDNN=1 TFCC_CUDA_LT=1)" | tee -a "$OUT/models_fused.txt"
grep -E "CHECK failed|checks|cuBLASLt|cuDNN" "$OUT/models_fused.txt" | sort | uniq -c | sort -rn | head -40

step "5. compute-sanitizer memcheck (face_detection_short_range, graphs off, cuDNN and cuBLASLt on)"
if command -v compute-sanitizer > /dev/null; then
  # cuDNN and cuBLASLt on (their code paths are the newest), device / managed buffers included
  TFCC_CUDNN=1 TFCC_CUDA_LT=1 \
  TFCC_CUDA_GRAPHS=0 TFCC_SHARED_DIR=$P/shared TFCC_CUDA_TEST_ONLY=face_detection_short_range \
    timeout 180 compute-sanitizer --tool memcheck --leak-check full "$P/bin/cuda_test_cuda_models" \
    > "$OUT/sanitizer.txt" 2>&1
  echo "rc=$?" | tee -a "$OUT/sanitizer.txt"
  grep -E "ERROR SUMMARY|LEAK SUMMARY|Invalid|checks" "$OUT/sanitizer.txt" | head -20
else
  echo "no compute-sanitizer" | tee "$OUT/sanitizer.txt"
fi

step "6. tfcc serve --device cuda (MobileNetV2 fp32, cuDNN off so that every process picks the same GEMMs)"
M=$ZOO/mobilenet_v2.tflite
SV=$OUT/serve
mkdir -p "$SV"
if [ -f "$M" ]; then
  export TFCC_CUDNN=0
  $PY "$P/bench/srv_client.py" rand "$SV/in.npy" FP32 1,224,224,3 --seed 7
  timeout 60 "$TFCC" run "$M" -i "$SV/in.npy" -o "$SV/ref" --device cuda > "$SV/run.txt" 2>&1
  echo "tfcc run --device cuda rc=$?"
  for mode in plain batching; do
    extra=""; [ $mode = batching ] && extra="--max-batch 8 --max-queue-delay-us 2000"
    rm -f "$SV/port"
    "$TFCC" serve "$M" --name mnv2 --device cuda --port 0 --port-file "$SV/port" --sessions 2 \
      --threads 4 --no-access-log $extra > "$SV/server_$mode.log" 2>&1 &
    SPID=$!
    for i in $(seq 150); do [ -s "$SV/port" ] && break; sleep 0.2; done
    PORT=$(head -1 "$SV/port" 2>/dev/null)
    if [ -n "$PORT" ]; then
      # answers equal `tfcc run --device cuda` byte for byte (JSON, binary, binary output); with
      # batching, rows merged into one run go through other GEMM shapes (rounding may differ:
      # the load line's mismatch count says how many)
      [ $mode = plain ] && { timeout 60 $PY "$P/bench/srv_client.py" check --port "$PORT" --model mnv2 \
        --ref "$SV/ref" "$SV/in.npy"; echo "serve $mode check rc=$?"; }
      timeout 60 $PY "$P/bench/srv_client.py" load --port "$PORT" --model mnv2 --threads 16 --seconds 10 \
        --expect "$SV/ref" "$SV/in.npy"
      echo "serve $mode load rc=$?"
    else
      echo "serve $mode: the server did not start"
    fi
    kill -TERM $SPID 2> /dev/null; wait $SPID; echo "serve $mode exit rc=$?"
    grep -E 'device|KERNEL_FALLBACK|rror' "$SV/server_$mode.log" | head -8
  done
  unset TFCC_CUDNN
else
  echo "no $M"
fi
fi # GPU_CHECK_SPEED_ONLY

step "7. speed: tfcc and PyTorch"
$PY - "$ZOO" <<'PYEOF'
import numpy as np, sys, os
z = sys.argv[1]
rng = np.random.default_rng(1)
for b in (1, 32):
    np.save(os.path.join(z, "in_b%d.npy" % b), rng.standard_normal((b, 224, 224, 3), dtype=np.float32))
PYEOF
: > "$OUT/bench.jsonl"
for net in mobilenet_v2 resnet50; do
  for b in 1 32; do
    f=$ZOO/$net.tflite; [ $b = 32 ] && f=$ZOO/${net}_b32.tflite
    [ -f "$f" ] || { echo "no $f"; continue; }
    for prec in fp16 f32; do
      runs=200; [ $b = 32 ] && runs=50
      j=$(timeout 120 "$TFCC" bench "$f" -i "$ZOO/in_b$b.npy" --device cuda --precision $prec \
            --threads 4 --warmup 20 --runs $runs --profile-runs 0 --json 2> "$OUT/bench_err.txt" |
          $PY -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
      rc=$?
      if [ $rc = 0 ]; then
        echo "{\"net\": \"$net\", \"batch\": $b, \"precision\": \"$prec\", \"tfcc\": $j}" >> "$OUT/bench.jsonl"
        echo "$net b$b $prec: $(echo "$j" | $PY -c 'import json,sys; d=json.load(sys.stdin); l=d["latency_ms"]; print("p50 %.3f ms p99 %.3f ms load %.1f ms first %.2f ms" % (l["p50"], l["p99"], d["load_ms"], d["first_ms"]))')"
      else
        echo "$net b$b $prec: tfcc bench failed rc=$rc: $(tail -2 "$OUT/bench_err.txt")"
      fi
    done
  done
done
# fp16 with inputs and outputs already in GPU memory (--device-io, as PyTorch's baseline has
# them), with cuDNN's convolutions (TFCC_CUDNN=1), cuBLASLt's fused epilogues (TFCC_CUDA_LT=1),
# both, and both with the data in device memory
for net in resnet50 mobilenet_v2; do
  for b in 1 32; do
    f=$ZOO/$net.tflite; [ $b = 32 ] && f=$ZOO/${net}_b32.tflite
    [ -f "$f" ] || continue
    runs=200; [ $b = 32 ] && runs=50
    for v in device-io cudnn lt cudnn-lt cudnn-lt-device-io; do
      envs="TFCC_CUDNN=0 TFCC_CUDA_LT=0"; io=""
      case $v in cudnn*) envs="TFCC_CUDNN=1 TFCC_CUDA_LT=0" ;; esac
      case $v in *lt*) envs="${envs% *} TFCC_CUDA_LT=1" ;; esac
      case $v in *device-io) io="--device-io" ;; esac
      j=$(env $envs timeout 120 "$TFCC" bench "$f" -i "$ZOO/in_b$b.npy" --device cuda --precision fp16 $io \
            --threads 4 --warmup 20 --runs $runs --profile-runs 0 --json 2>> "$OUT/bench_err.txt" |
          $PY -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))') &&
        echo "{\"net\": \"$net\", \"batch\": $b, \"precision\": \"fp16-$v\", \"tfcc\": $j}" >> "$OUT/bench.jsonl" &&
        echo "$net b$b fp16-$v ($envs $io): $(echo "$j" | $PY -c 'import json,sys; d=json.load(sys.stdin); print("p50 %.3f ms" % d["latency_ms"]["p50"])')" ||
        echo "$net b$b fp16-$v: tfcc bench failed: $(tail -2 "$OUT/bench_err.txt")"
    done
  done
done
# where the time goes: CUDA events around the GPU steps and the whole run (TFCC_CUDA_TIMING),
# and copies up straight from pageable memory (TFCC_CUDA_PAGEABLE) against pinned staging
for net in mobilenet_v2 resnet50; do
  for b in 1 32; do
    f=$ZOO/$net.tflite; [ $b = 32 ] && f=$ZOO/${net}_b32.tflite
    [ -f "$f" ] || continue
    for pg in 0 1; do
      env_pg=""; [ $pg = 1 ] && env_pg="TFCC_CUDA_PAGEABLE=1"
      line=$(env $env_pg TFCC_LOG=1 TFCC_CUDA_TIMING=1 timeout 120 "$TFCC" bench "$f" -i "$ZOO/in_b$b.npy" \
        --device cuda --precision fp16 --threads 4 --warmup 20 --runs 100 --profile-runs 0 --json 2>&1 |
        grep -E '"p50"|device cuda timing' | tr -d '\n')
      echo "timing $net b$b fp16 pageable=$pg: $line"
    done
  done
done
for net in mobilenet_v2 resnet50; do # per step kind, steps launched one by one (no graphs)
  for b in 1 32; do
    f=$ZOO/$net.tflite; [ $b = 32 ] && f=$ZOO/${net}_b32.tflite
    [ -f "$f" ] || continue
    TFCC_LOG=1 TFCC_CUDA_TIMING=2 timeout 120 "$TFCC" bench "$f" -i "$ZOO/in_b$b.npy" --device cuda \
      --precision fp16 --threads 4 --warmup 5 --runs 30 --profile-runs 0 --json 2>&1 |
      grep -E 'device cuda' | sed "s/^/steps $net b$b fp16: /"
  done
done
LD_LIBRARY_PATH=$ORIG_LD timeout 240 $PY "$P/bench/torch_baseline.py" --arch mobilenet_v2,resnet50 --batch 1,32 --runs 100 \
  > "$OUT/torch.json" 2> "$OUT/torch_err.txt"; echo "torch rc=$?"; tail -3 "$OUT/torch_err.txt"

step "summary"
$PY - "$OUT" <<'PYEOF'
import json, os, re, sys
out = sys.argv[1]
def read(n):
    try: return open(os.path.join(out, n)).read()
    except OSError: return ""
s = {"date": __import__("time").strftime("%Y-%m-%d %H:%M:%S UTC", __import__("time").gmtime())}
try: s["gpu"] = json.loads(read("gpu_info.json"))
except Exception: s["gpu"] = read("gpu_info.json")[:400]
k = read("kernels.txt")
s["kernels"] = {"ok": len(re.findall(r"^ok ", k, re.M)), "fail": len(re.findall(r"^FAIL", k, re.M)),
                "rc": (re.findall(r"rc=(\d+)", k) or ["?"])[-1]}
m = read("models.txt")
s["models"] = {"rc": (re.findall(r"rc=(\d+)", m) or ["?"])[-1],
               "summary": (re.findall(r"cuda.test_cuda_models: .*", m) or [""])[-1],
               "compared": re.findall(r"^(.*): compared$", m, re.M),
               "failures": re.findall(r"CHECK failed: .*", m)[:40],
               "relative": re.findall(r"^  (.* output \d+: .*relative [^\n]*)", m, re.M),
               "top1": re.findall(r"^  (.*top-1.*)", m, re.M)}
san = read("sanitizer.txt")
mf = read("models_fused.txt")
s["models_fused"] = {"rc": (re.findall(r"rc=(\d+)", mf) or ["?"])[-1],
                     "summary": (re.findall(r"cuda.test_cuda_models: .*", mf) or [""])[-1],
                     "failures": re.findall(r"CHECK failed: .*", mf)[:40],
                     "engines": sorted(set(re.findall(r"device cuda: \d+ of the CONV_2D steps run by cuDNN, \d+ GEMM steps by cuBLASLt", mf)))[:20]}
s["sanitizer"] = {"rc": (re.findall(r"rc=(\d+)", san) or ["?"])[-1],
                  "summary": re.findall(r"(ERROR SUMMARY.*|LEAK SUMMARY.*)", san)}
bench = [json.loads(l) for l in read("bench.jsonl").splitlines() if l.strip()]
try: torch = json.loads(read("torch.json"))
except Exception: torch = {"error": read("torch_err.txt")[-800:]}
s["torch_env"] = {k: torch.get(k) for k in ("torch", "cudnn", "gpu")}
rows = []
for b in bench:
    t = b["tfcc"]; l = t["latency_ms"]
    row = {"net": b["net"], "batch": b["batch"], "precision": b["precision"],
           "tfcc_p50_ms": l["p50"], "tfcc_p99_ms": l["p99"], "tfcc_load_ms": t["load_ms"],
           "tfcc_first_ms": t["first_ms"], "tfcc_images_per_s": b["batch"] * 1000.0 / l["p50"]}
    for r in torch.get("results", []):
        if r.get("arch") == b["net"] and r.get("batch") == b["batch"] and \
           r.get("precision") == ("fp16" if b["precision"].startswith("fp16") else "fp32") and "graph_p50_ms" in r:
            row.update({"torch_eager_p50_ms": r["eager_p50_ms"], "torch_graph_p50_ms": r["graph_p50_ms"],
                        "torch_graph_images_per_s": r["graph_images_per_s"],
                        "ratio_vs_torch_graph": l["p50"] / r["graph_p50_ms"],
                        "ratio_vs_torch_eager": l["p50"] / r["eager_p50_ms"]})
    rows.append(row)
s["speed"] = rows
s["torch"] = torch.get("results", torch)
open(os.path.join(out, "summary.json"), "w").write(json.dumps(s, indent=1))
print(json.dumps(s, indent=1)[:6000])
PYEOF
for f in summary.json models.txt models_fused.txt kernels.txt sanitizer.txt bench.jsonl; do
  [ -f "$OUT/$f" ] && cp "$OUT/$f" "$FINAL/"
done
echo "total $(( $(date +%s) - T0 )) s"
