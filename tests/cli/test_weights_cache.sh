#!/usr/bin/env bash
# --weights-cache of tfcc run and tfcc bench: the first run writes the cache, the next maps it,
# the outputs are the same bytes as without a cache; a damaged cache is ignored with one log
# line, rewritten, and the output is still the same. Conformance models (always present).
source "$(dirname "$0")/lib.bash"
CONF=${TFCC_SOURCE_DIR:-$HERE/../..}/tests/ops/conformance
for name in conv_2d_f32_3x3_same fully_connected_f32_2d conv_2d_i8_3x3_same conv_2d_u8_3x3_dil2_same; do
  m=$CONF/$name.tflite
  [ -f "$m" ] || { echo "FAIL: $m missing"; exit 1; }
  in=$CONF/$name.in0.npy
  wc=$TMP/$name.wc
  expect_rc 0 "$name: run without a cache" -- "$TFCC" run "$m" -i "$in" -o "$TMP/$name.none"
  expect_rc 0 "$name: run, cold cache" -- "$TFCC" run "$m" -i "$in" -o "$TMP/$name.cold" --weights-cache "$wc"
  [ -s "$wc" ] && ok || bad "$name: no cache written"
  expect_rc 0 "$name: run, warm cache" -- env TFCC_LOG=1 "$TFCC" run "$m" -i "$in" -o "$TMP/$name.warm" --weights-cache "$wc"
  if grep -Eq "weights cache .*(ignored|wrote)" "$TMP/err"; then bad "$name: warm cache: $(cat "$TMP/err")"; else ok; fi
  for d in cold warm; do
    if diff -r "$TMP/$name.none" "$TMP/$name.$d" >/dev/null; then ok; else bad "$name: $d cache output differs"; fi
  done
  # truncated: ignored with one line, rewritten to the same bytes, same output
  cp "$wc" "$TMP/good.wc"
  head -c 100 "$TMP/good.wc" >"$wc"
  expect_rc 0 "$name: run, truncated cache" -- env TFCC_LOG=1 "$TFCC" run "$m" -i "$in" -o "$TMP/$name.trunc" --weights-cache "$wc"
  n=$(grep -c "weights cache .* ignored" "$TMP/err" || true)
  [ "$n" = 1 ] && ok || bad "$name: truncated cache: $n log lines: $(cat "$TMP/err")"
  if diff -r "$TMP/$name.none" "$TMP/$name.trunc" >/dev/null; then ok; else bad "$name: output after a truncated cache differs"; fi
  if cmp -s "$wc" "$TMP/good.wc"; then ok; else bad "$name: rewritten cache differs from the first"; fi
done
# a cache that cannot be written (its folder does not exist): the run succeeds with the same
# output and says why on stderr, without TFCC_LOG (one warning line, no error line)
m=$CONF/conv_2d_f32_3x3_same.tflite
in=$CONF/conv_2d_f32_3x3_same.in0.npy
expect_rc 0 "run, cache in a missing folder" -- "$TFCC" run "$m" -i "$in" -o "$TMP/nodir.out" --weights-cache "$TMP/no/such/dir/x.wc"
n=$(grep -c "^tfcc warning \[MODEL_LOAD\] weights cache .*/no/such/dir/x.wc not written: No such file or directory" "$TMP/err" || true)
[ "$n" = 1 ] && ok || bad "cache in a missing folder: $n warning lines: $(cat "$TMP/err")"
if grep -q "error" "$TMP/err"; then bad "cache in a missing folder: error line: $(cat "$TMP/err")"; else ok; fi
if diff -r "$TMP/conv_2d_f32_3x3_same.none" "$TMP/nodir.out" >/dev/null; then ok; else bad "cache in a missing folder: output differs"; fi
# bench: same report keys with a cache
m=$CONF/conv_2d_f32_3x3_same.tflite
expect_rc 0 "bench with a cache" -- "$TFCC" bench "$m" --runs 2 --json --weights-cache "$TMP/bench.wc"
expect_in "$TMP/out" '"load_ms"' "bench json with a cache"
[ -s "$TMP/bench.wc" ] && ok || bad "bench wrote no cache"
finish
