#!/usr/bin/env bash
# On a host with AMX: run the tests that exercise the AMX kernels, then time int8 / bf16 models
# with the tiles on and with TFCC_AMX=off, alternating. Usage:
#   scripts/amx-check.sh [BUILD_DIR] [MODEL.tflite ...]
# (BUILD_DIR defaults to build; models default to the zoo pairs in ~/.cache/tfcc-zoo; the model
# tests read ../shared/models through TFCC_SHARED_DIR, and skip without it.)
set -u
B=${1:-build}; shift || true
T=$B/tools/tfcc
[ -x "$T" ] || { echo "amx-check: $T not found (build first)" >&2; exit 2; }
"$T" cpu-info | grep -E "^AMX|amx" || true
rc=0
for t in ops_test_q8_gemm ops_test_bf16_gemm ops_test_q8_amx_emulated ops_test_bf16_amx_emulated \
         models_test_shared_models models_test_bf16_models; do
  [ -x "$B/tests/$t" ] || continue
  for amx in on off; do
    out=$(TFCC_AMX=$amx "$B/tests/$t" 2>&1); r=$?
    case $r in 0) s=ok ;; 77) s=skipped ;; *) s=FAILED; rc=1 ;; esac
    echo "$t TFCC_AMX=$amx: $s: $(printf '%s\n' "$out" | tail -1)"
  done
done
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(~/.cache/tfcc-zoo/resnet50.int8.tflite ~/.cache/tfcc-zoo/mobilenet_v2.int8.tflite)
for m in "${models[@]}"; do
  [ -f "$m" ] || continue
  for th in 1 4; do
    for amx in on off on off; do
      ms=$(TFCC_AMX=$amx "$T" bench "$m" --threads $th --warmup 10 --runs 60 --profile-runs 0 --json |
           python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["cpu_ms_per_run"], d["latency_ms"]["p50"])')
      echo "$(basename "$m") threads=$th TFCC_AMX=$amx: cpu ms/run, p50 ms: $ms"
    done
  done
done
exit $rc
