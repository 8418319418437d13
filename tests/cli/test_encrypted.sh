#!/usr/bin/env bash
# Encrypted models (.tfcce, tfcc encrypt) from the command line: run, bench and inspect with
# --key-file / --key-env give the plain model's output bytes; --weights-cache is then an
# encrypted cache (written by the first run, never in the clear, taken by the next); clear
# one-line errors for a wrong key, a modified container, a container without a key, a key with
# a plain model, two keys. Skipped (77) only when this tfcc has no encryption support.
source "$(dirname "$0")/lib.bash"
CONF=${TFCC_SOURCE_DIR:-$HERE/../..}/tests/ops/conformance
if ! "$TFCC" encrypt --help >/dev/null 2>&1; then
  # without the crypto library a container fails with a message saying so
  { printf 'TFCCENC\0'; head -c 200 /dev/zero; } >"$TMP/x.tfcce"
  expect_rc 1 "container without crypto" -- "$TFCC" run "$TMP/x.tfcce" -i "$CONF/conv_2d_f32_3x3_same.in0.npy" -o "$TMP/o" --key-env NOPE
  expect_error_line run "container without crypto"
  expect_in "$TMP/err" "no encryption support" "missing crypto named"
  skip_part "tfcc built without encryption support"
  finish
fi
head -c 32 /dev/urandom >"$TMP/k.bin"
head -c 32 /dev/urandom >"$TMP/k2.bin"
export TFCC_TEST_KEY=$(od -An -tx1 -v "$TMP/k.bin" | tr -d ' \n')
for name in conv_2d_i8_3x3_same conv_2d_f32_3x3_same; do
  m=$CONF/$name.tflite
  in=$CONF/$name.in0.npy
  [ -f "$m" ] || { echo "FAIL: $m missing"; exit 1; }
  e=$TMP/$name.tfcce
  expect_rc 0 "$name: encrypt" -- "$TFCC" encrypt "$m" -o "$e" --key-file "$TMP/k.bin" --key-id test-1
  expect_rc 0 "$name: run plain" -- "$TFCC" run "$m" -i "$in" -o "$TMP/$name.plain"
  expect_rc 0 "$name: run encrypted, key file" -- "$TFCC" run "$e" -i "$in" -o "$TMP/$name.kf" --key-file "$TMP/k.bin"
  expect_rc 0 "$name: run encrypted, key env" -- "$TFCC" run "$e" -i "$in" -o "$TMP/$name.ke" --key-env TFCC_TEST_KEY
  for d in kf ke; do
    if diff -r "$TMP/$name.plain" "$TMP/$name.$d" >/dev/null; then ok; else bad "$name: encrypted ($d) output differs"; fi
  done
  # the encrypted weights cache: written by the first run, encrypted, taken by the second
  wc=$TMP/$name.wce
  expect_rc 0 "$name: run, cold encrypted cache" -- env TFCC_ENC_CACHE_FLOAT=1 "$TFCC" run "$e" -i "$in" -o "$TMP/$name.cold" --key-file "$TMP/k.bin" --weights-cache "$wc"
  [ -s "$wc" ] && ok || bad "$name: no encrypted cache written"
  [ "$(head -c 7 "$wc")" = TFCCENC ] && ok || bad "$name: the cache is not a container: $(head -c 16 "$wc" | od -c | head -1)"
  expect_rc 0 "$name: run, warm encrypted cache" -- env TFCC_LOG=1 TFCC_ENC_CACHE_FLOAT=1 "$TFCC" run "$e" -i "$in" -o "$TMP/$name.warm" --key-file "$TMP/k.bin" --weights-cache "$wc"
  if grep -Eq "weights cache .*(ignored|wrote)" "$TMP/err"; then bad "$name: warm encrypted cache: $(head -c 600 "$TMP/err")"; else ok; fi
  for d in cold warm; do
    if diff -r "$TMP/$name.plain" "$TMP/$name.$d" >/dev/null; then ok; else bad "$name: $d encrypted cache output differs"; fi
  done
done
m=$CONF/conv_2d_i8_3x3_same.tflite
in=$CONF/conv_2d_i8_3x3_same.in0.npy
e=$TMP/conv_2d_i8_3x3_same.tfcce
# errors: one line naming the file and the cause, no output written
expect_rc 1 "wrong key" -- "$TFCC" run "$e" -i "$in" -o "$TMP/w" --key-file "$TMP/k2.bin"
expect_error_line run "wrong key"
expect_in "$TMP/err" "$e: wrong key" "wrong key named with the file"
[ ! -e "$TMP/w" ] && ok || bad "output written despite the wrong key"
expect_rc 1 "no key" -- "$TFCC" run "$e" -i "$in" -o "$TMP/w"
expect_error_line run "no key"
expect_in "$TMP/err" "an encrypted model (tfcc encrypt container, key id 'test-1'): give its key with --key-file FILE or --key-env VAR" "missing key named"
expect_rc 1 "key with a plain model" -- "$TFCC" run "$m" -i "$in" -o "$TMP/w" --key-file "$TMP/k.bin"
expect_error_line run "key with a plain model"
expect_in "$TMP/err" "a key was given, but this is not an encrypted model" "plain model with a key named"
cp "$e" "$TMP/t.tfcce"
flip_byte "$TMP/t.tfcce" 200
expect_rc 1 "modified container" -- "$TFCC" run "$TMP/t.tfcce" -i "$in" -o "$TMP/w" --key-file "$TMP/k.bin"
expect_error_line run "modified container"
expect_in "$TMP/err" "modified or corrupted" "tampering named"
expect_rc 1 "unset key variable" -- env -u TFCC_TEST_KEY "$TFCC" run "$e" -i "$in" -o "$TMP/w" --key-env TFCC_TEST_KEY
expect_error_line run "unset key variable"
expect_in "$TMP/err" "TFCC_TEST_KEY" "the variable named"
expect_rc 1 "missing key file" -- "$TFCC" run "$e" -i "$in" -o "$TMP/w" --key-file "$TMP/none.bin"
expect_in "$TMP/err" "none.bin" "the key file named"
expect_rc 2 "two keys" -- "$TFCC" run "$e" -i "$in" -o "$TMP/w" --key-file "$TMP/k.bin" --key-env TFCC_TEST_KEY
expect_error_line run "two keys"
[ ! -e "$TMP/w" ] && ok || bad "output written by a failed run"
# bench and inspect take the same options
expect_rc 0 "bench encrypted" -- "$TFCC" bench "$e" --runs 2 --json --key-file "$TMP/k.bin" --weights-cache "$TMP/bench.wce"
expect_in "$TMP/out" '"load_ms"' "bench json of an encrypted model"
[ "$(head -c 7 "$TMP/bench.wce")" = TFCCENC ] && ok || bad "bench wrote no encrypted cache"
expect_rc 1 "bench without a key" -- "$TFCC" bench "$e" --runs 2
expect_error_line bench "bench without a key"
expect_in "$TMP/err" "give its key" "bench: missing key named"
expect_rc 0 "inspect encrypted" -- "$TFCC" inspect "$e" --key-env TFCC_TEST_KEY
"$TFCC" inspect "$m" >"$TMP/inspect.plain" 2>&1
# the same description but for the file name
if diff <(sed "s|$e|MODEL|g" "$TMP/out") <(sed "s|$m|MODEL|g" "$TMP/inspect.plain") >/dev/null; then ok; else bad "inspect of the encrypted model differs: $(diff <(sed "s|$e|MODEL|g" "$TMP/out") <(sed "s|$m|MODEL|g" "$TMP/inspect.plain") | head -5)"; fi
expect_rc 1 "inspect without a key" -- "$TFCC" inspect "$e"
expect_error_line inspect "inspect without a key"
finish
