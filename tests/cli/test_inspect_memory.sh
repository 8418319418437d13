#!/usr/bin/env bash
# tfcc inspect --memory: arena, naive sum, lower bound, persistent and constant bytes (text, JSON).
source "$(dirname "$0")/lib.bash"
CONF=${TFCC_SOURCE_DIR:-$HERE/../..}/tests/ops/conformance

m=$CONF/conv_2d_f32_3x3_same.tflite
expect_rc 0 "inspect --memory" -- "$TFCC" inspect --memory "$m"
for s in "memory (one session at the stored shapes):" "  arena bytes:" "  naive sum of intermediates:" \
         "  lower bound (live set):" "  persistent per session:" "  constants (shared):"; do
  expect_in "$TMP/out" "$s" "memory text"
done
expect_in "$TMP/out" "operators (1, 1 types):" "memory keeps the normal report"
expect_rc 0 "inspect without --memory" -- "$TFCC" inspect "$m"
if grep -q "arena bytes" "$TMP/out"; then bad "memory shown without --memory"; else ok; fi

[ -d "$MODELS" ] || { skip_part "shared models not found (the part without them passed)"; finish; }
have_python || { skip_part "python3 needed for the shared-model part"; finish; }
for name in mobilenet_v2_224_quant person_detect_int8 deeplabv3_257_float face_detection_short_range; do
  f=$MODELS/$name.tflite
  [ -f "$f" ] || continue
  expect_rc 0 "inspect --memory --json $name" -- "$TFCC" inspect --memory --json "$f"
  if python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
if d["unsupported"]:
    assert "error" in m, m
else:
    assert 0 < m["lower_bound_bytes"] <= m["arena_bytes"] <= m["naive_bytes"], m
    assert m["constant_bytes"] == d["constant_bytes"], (m, d["constant_bytes"])
    assert m["persistent_bytes"] >= 0
PY
  then ok; else bad "memory JSON of $name"; fi
done
finish
