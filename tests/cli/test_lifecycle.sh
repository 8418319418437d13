#!/usr/bin/env bash
# tfcc watermark / encrypt / decrypt, inspect's watermark line, and TensorFlow Lite itself running
# the watermarked file (skipped visibly when node or /tmp/tflite-ref is absent).
source "$(dirname "$0")/lib.bash"
SRC=${TFCC_SOURCE_DIR:-.}
m=$SRC/tests/ops/conformance/conv_2d_i8_3x3_same.tflite
[ -f "$m" ] || { echo "SKIP: conformance models not found"; exit 77; }

# ---- watermark
expect_rc 0 "embed" -- "$TFCC" watermark embed "$m" --id "acme/build-42" -o "$TMP/wm.tflite"
expect_in "$TMP/out" "watermark id 'acme/build-42'" "embed prints the id"
expect_rc 0 "verify" -- "$TFCC" watermark verify "$TMP/wm.tflite"
expect_in "$TMP/out" "status: valid" "verify says valid"
sha=$(sha256sum "$m" | cut -c1-64)
expect_in "$TMP/out" "sha256: $sha" "digest is SHA-256 of the original file"
expect_rc 0 "inspect watermarked" -- "$TFCC" inspect "$TMP/wm.tflite"
expect_in "$TMP/out" "watermark: id 'acme/build-42', sha256 $sha, valid" "inspect line"
expect_rc 0 "inspect json" -- "$TFCC" inspect --json "$TMP/wm.tflite"
expect_in "$TMP/out" '"watermark"' "inspect json key"
expect_rc 0 "inspect plain" -- "$TFCC" inspect "$m"
expect_in "$TMP/out" "watermark: (none)" "inspect without watermark"
expect_rc 1 "verify unwatermarked" -- "$TFCC" watermark verify "$m"
cp "$TMP/wm.tflite" "$TMP/bad.tflite"
size=$(stat -c %s "$TMP/bad.tflite")
printf '\x7f' | dd of="$TMP/bad.tflite" bs=1 seek=$((size - 40)) conv=notrunc 2>/dev/null
expect_rc 1 "verify tampered" -- "$TFCC" watermark verify "$TMP/bad.tflite"
expect_in "$TMP/out" "status: INVALID" "tampered is invalid"
expect_rc 2 "embed without id" -- "$TFCC" watermark embed "$m" -o "$TMP/x.tflite"
expect_error_line watermark "embed without id"

# the watermarked model computes what the original computes
if have_python; then
  python3 - "$TMP/in.npy" <<'PY'
import struct, sys
hdr = "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 5, 7, 3), }"
hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
body = bytes((i * 37 + 5) % 256 for i in range(105))
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + body)
PY
  expect_rc 0 "run original" -- "$TFCC" run "$m" -i "$TMP/in.npy" -o "$TMP/o1"
  expect_rc 0 "run watermarked" -- "$TFCC" run "$TMP/wm.tflite" -i "$TMP/in.npy" -o "$TMP/o2"
  if cmp -s "$TMP"/o1/*.npy "$TMP"/o2/*.npy; then ok; else bad "watermarked output differs"; fi
  # TensorFlow Lite itself loads and runs the watermarked file, with the same result
  if command -v node >/dev/null 2>&1 && [ -f /tmp/tflite-ref/run_ref.mjs ]; then
    if timeout 120 node /tmp/tflite-ref/run_ref.mjs "$TMP/wm.tflite" "$TMP/ref" "$TMP/in.npy" --quiet >/dev/null 2>"$TMP/referr"; then
      ok
      if cmp -s <(tail -c 105 "$TMP"/ref/output_0.npy) <(tail -c 105 "$TMP"/o1/*.npy); then ok; else bad "TFLite output of the watermarked model differs from tfcc's"; fi
    else
      bad "TFLite failed on the watermarked model: $(head -c 400 "$TMP/referr")"
    fi
  else
    skip_part "node or /tmp/tflite-ref absent: TFLite check of the watermarked file not run"
  fi
fi

# ---- encryption
if "$TFCC" encrypt --help >/dev/null 2>&1; then
  head -c 32 /dev/urandom >"$TMP/k.bin"
  export TFCC_CLI_KEY=$(od -An -tx1 -v "$TMP/k.bin" | tr -d ' \n')
  expect_rc 0 "encrypt" -- "$TFCC" encrypt "$m" -o "$TMP/m.tfcce" --key-file "$TMP/k.bin" --key-id prod-1
  expect_rc 0 "decrypt (env key)" -- "$TFCC" decrypt "$TMP/m.tfcce" -o "$TMP/m.dec" --key-env TFCC_CLI_KEY
  if cmp -s "$TMP/m.dec" "$m"; then ok; else bad "decrypt round trip differs"; fi
  head -c 32 /dev/urandom >"$TMP/k2.bin"
  expect_rc 1 "wrong key" -- "$TFCC" decrypt "$TMP/m.tfcce" -o "$TMP/w.dec" --key-file "$TMP/k2.bin"
  expect_error_line decrypt "wrong key"
  expect_in "$TMP/err" "wrong key" "wrong key named"
  [ ! -e "$TMP/w.dec" ] && [ ! -e "$TMP/w.dec.tmp" ] && ok || bad "output written despite wrong key"
  cp "$TMP/m.tfcce" "$TMP/t.tfcce"
  flip_byte "$TMP/t.tfcce" 200
  expect_rc 1 "tampered" -- "$TFCC" decrypt "$TMP/t.tfcce" -o "$TMP/t.dec" --key-file "$TMP/k.bin"
  expect_in "$TMP/err" "modified or corrupted" "tamper named"
  [ ! -e "$TMP/t.dec" ] && ok || bad "output written for a tampered file"
  head -c 300 "$TMP/m.tfcce" >"$TMP/tr.tfcce"
  expect_rc 1 "truncated" -- "$TFCC" decrypt "$TMP/tr.tfcce" -o "$TMP/tr.dec" --key-file "$TMP/k.bin"
  expect_in "$TMP/err" "truncated" "truncation named"
  expect_rc 2 "no key" -- "$TFCC" encrypt "$m" -o "$TMP/x.tfcce"
else
  skip_part "tfcc built without encryption"
fi
finish
