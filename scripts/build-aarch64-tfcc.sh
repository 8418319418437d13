#!/bin/sh
# Cross-builds the tfcc command for aarch64 (static, NEON / dot-product / i8mm kernels, as
# scripts/check-aarch64.sh builds the library) into $OUT/tfcc, to run real models under
# qemu-user (scripts/sweep_isa.py --config "a64=qemu-aarch64 $OUT/tfcc"; QEMU_CPU picks the
# emulated CPU: max has dot product and i8mm, cortex-a72 plain NEON). Without aarch64 libjpeg /
# libpng: `tfcc classify` / `detect` refuse JPEG and PNG images and `detect` is left out
# (run, inspect, bench are whole).
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-aarch64-linux-gnu-gcc}
OUT=${OUT:-/tmp/tfcc-aarch64}
command -v "$CC" >/dev/null || { echo "SKIP: $CC not installed"; exit 77; }
[ -f "$OUT/libtfcc.a" ] || OUT="$OUT" CC="$CC" TFCC_A64_LIB_ONLY=1 sh scripts/check-aarch64.sh >/dev/null
[ -f "$OUT/libtfcc.a" ] || { echo "no $OUT/libtfcc.a (scripts/check-aarch64.sh failed)"; exit 1; }
FLAGS="-std=c11 -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation -D_GNU_SOURCE -Iinclude -Isrc -Itools"
stub="$OUT/tool_stubs.c"
cat >"$stub" <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/image.h"
int cmd_detect(int argc, char **argv);
int cmd_detect(int argc, char **argv) {
  (void)argc; (void)argv;
  fprintf(stderr, "tfcc detect: not in this aarch64 build (no libjpeg / libpng)\n");
  return 2;
}
int image_decode_png(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  (void)buf; (void)size; (void)out;
  snprintf(err, n, "PNG: this aarch64 build has no libpng");
  return -1;
}
int image_decode_jpeg(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  (void)buf; (void)size; (void)out;
  snprintf(err, n, "JPEG: this aarch64 build has no libjpeg");
  return -1;
}
EOF
srcs=$(ls tools/*.c tools/common/*.c tools/plugin/plugin_load.c tools/crypto/crypto_load.c |
  grep -v -e 'tools/cmd_detect.c' -e 'image_jpeg.c' -e 'image_png.c')
# shellcheck disable=SC2086
$CC $FLAGS -Itools/plugin -Itools/crypto -static $srcs "$stub" -Wl,--whole-archive "$OUT/libtfcc.a" \
  -Wl,--no-whole-archive -ldl -lpthread -lm -o "$OUT/tfcc" 2>&1 | grep -v 'dlopen\|statically linked' || true
[ -x "$OUT/tfcc" ] || { echo "link failed"; exit 1; }
echo "aarch64 tfcc: $OUT/tfcc"
