#!/usr/bin/env bash
# Builds the modelgen networks into $TFCC_BINARY_DIR/models and checks that every
# file exists and is a non-empty TFLite FlatBuffer. Skips (77) without python3.
set -u
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
src="${TFCC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
out="${TFCC_BINARY_DIR:-${TMPDIR:-/tmp}}/models"
mkdir -p "$out" || exit 1

python3 "$src/modelgen/build.py" --out "$out" --all --quiet || { echo "FAIL: build.py --all"; exit 1; }
fail=0
for name in $(python3 "$src/modelgen/build.py" --list); do
  f="$out/$name.tflite"
  if [ ! -s "$f" ]; then
    echo "FAIL: $f missing or empty"; fail=1; continue
  fi
  # bytes 4..7 hold the file identifier "TFL3"
  if [ "$(dd if="$f" bs=1 skip=4 count=4 2>/dev/null)" != "TFL3" ]; then
    echo "FAIL: $f lacks the TFL3 identifier"; fail=1; continue
  fi
  echo "ok: $name ($(wc -c < "$f") bytes)"
done
# The default (demo) network builds on its own (timing is a benchmark matter, not checked here).
python3 "$src/modelgen/build.py" --out "$out" --quiet || { echo "FAIL: default build"; fail=1; }
[ -s "$out/mobilenet_v1_025_128_int8.tflite" ] || { echo "FAIL: default network missing"; fail=1; }
exit $fail
