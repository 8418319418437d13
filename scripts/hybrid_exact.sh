#!/usr/bin/env bash
# Byte comparison of the hybrid models' outputs between two builds of tfcc (a change that must
# not move any bit, such as a faster hybrid kernel, against the build before it):
#
#   scripts/hybrid_exact.sh BASE_BUILD [NEW_BUILD]      (build directories; NEW default ./build)
#
# Runs yolov8n_dynamic_range and yamnet_hybrid_rfft (../shared/models, their reference inputs)
# and the hybrid twins in ~/.cache/tfcc-zoo (mobilenet_v2, resnet18, resnet50, on the zoo's
# input; those missing are skipped) once each through the public API, in both quant_compat
# modes (TFLITE, REFERENCE), on 1 and 2 threads, at the best ISA and at TFCC_ISA=avx2 and
# generic (x86-64), and compares every output byte. Exit status 1 when any differ.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=$(cd "${1:?usage: hybrid_exact.sh BASE_BUILD [NEW_BUILD]}" && pwd)
NEW=$(cd "${2:-$ROOT/build}" && pwd)
SHARED=${TFCC_SHARED_DIR:-$ROOT/../shared}
ZOO=${TFCC_ZOO_DIR:-$HOME/.cache/tfcc-zoo}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/runq.c" <<'C'
/* runq MODEL IN.npy COMPAT THREADS OUT.bin: one run, every output's bytes into OUT.bin */
#include <stdio.h>
#include <stdlib.h>
#include "tfcc/tfcc.h"
static void *load_npy(const char *p, size_t *n) {
  FILE *f = fopen(p, "rb");
  unsigned char h[12];
  if (!f || fread(h, 1, 10, f) != 10) return NULL;
  size_t off = 10 + (size_t)(h[8] | h[9] << 8);
  if (h[6] != 1) {
    if (fread(h + 10, 1, 2, f) != 2) return NULL;
    off = 12 + (size_t)(h[8] | h[9] << 8 | h[10] << 16 | (size_t)h[11] << 24);
  }
  fseek(f, 0, SEEK_END);
  const long sz = ftell(f);
  fseek(f, (long)off, SEEK_SET);
  *n = (size_t)sz - off;
  void *d = malloc(*n);
  if (!d || fread(d, 1, *n, f) != *n) return NULL;
  fclose(f);
  return d;
}
int main(int argc, char **argv) {
  if (argc != 6) return 2;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = atoi(argv[4]);
  tfcc_runtime *rt;
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.quant_compat = (tfcc_quant_compat)atoi(argv[3]);
  tfcc_model *m;
  tfcc_session *s;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK || tfcc_model_load_file(rt, argv[1], &mo, &m) != TFCC_OK ||
      tfcc_session_create(m, NULL, &s) != TFCC_OK) {
    fprintf(stderr, "%s: %s\n", argv[1], tfcc_last_error());
    return 1;
  }
  size_t n;
  void *in = load_npy(argv[2], &n);
  tfcc_tensor_info ii;
  tfcc_session_input_info(s, 0, &ii);
  if (!in || n != ii.bytes) {
    fprintf(stderr, "%s: input %zu bytes, expected %zu\n", argv[2], n, ii.bytes);
    return 1;
  }
  const int no = tfcc_session_output_count(s);
  void *outs[64];
  tfcc_tensor_info oi[64];
  for (int i = 0; i < no && i < 64; i++) {
    tfcc_session_output_info(s, i, &oi[i]);
    outs[i] = malloc(oi[i].bytes + 1);
  }
  const void *ins[1] = {in};
  if (no > 64 || tfcc_session_run(s, ins, outs) != TFCC_OK) {
    fprintf(stderr, "run: %s\n", tfcc_last_error());
    return 1;
  }
  FILE *f = fopen(argv[5], "wb");
  for (int i = 0; i < no; i++) fwrite(outs[i], 1, oi[i].bytes, f);
  return fclose(f) != 0;
}
C
for b in BASE NEW; do
  dir=${!b}
  cc -O1 -I"$ROOT/include" "$TMP/runq.c" -o "$TMP/runq_$b" -L"$dir" -ltfcc -Wl,-rpath,"$dir"
done
cases=("$SHARED/models/yolov8n_dynamic_range.tflite:$SHARED/models/ref/yolov8n_dynamic_range/input_0.npy"
       "$SHARED/models/yamnet_hybrid_rfft.tflite:$SHARED/models/ref/yamnet_hybrid_rfft/input_0.npy")
for a in mobilenet_v2 resnet18 resnet50; do
  [ -f "$ZOO/$a.hybrid.tflite" ] && cases+=("$ZOO/$a.hybrid.tflite:$ZOO/$a.input_nhwc.npy")
done
isas=(best)
case $(uname -m) in x86_64) isas+=(avx2 generic) ;; esac
same=0 differ=0
for c in "${cases[@]}"; do
  m=${c%%:*} i=${c#*:}
  [ -f "$m" ] || { echo "skip (missing): $m"; continue; }
  for isa in "${isas[@]}"; do for compat in 0 1; do for t in 1 2; do
    env_isa=()
    [ "$isa" = best ] || env_isa=(TFCC_ISA=$isa)
    env "${env_isa[@]}" "$TMP/runq_BASE" "$m" "$i" $compat $t "$TMP/base.bin"
    env "${env_isa[@]}" "$TMP/runq_NEW" "$m" "$i" $compat $t "$TMP/new.bin"
    if cmp -s "$TMP/base.bin" "$TMP/new.bin"; then
      same=$((same + 1))
    else
      differ=$((differ + 1))
      echo "DIFFER: $(basename "$m") isa $isa compat $compat threads $t"
    fi
  done; done; done
done
echo "hybrid_exact: $same identical, $differ differ"
[ $differ -eq 0 ]
