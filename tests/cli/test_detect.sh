#!/usr/bin/env bash
# tfcc detect: the SSD MobileNet v1 detections of EXPECTED.md on grace_hopper.bmp, the PNG of
# --out, threshold filtering, and clear errors for non-detection models and bad arguments.
source "$(dirname "$0")/lib.bash"
[ -d "$MODELS" ] || { echo "SKIP: shared models not found"; exit 77; }
m=ssd_mobilenet_v1_detect_quant
model_runnable $m || { echo "SKIP: $m not runnable here"; exit 77; }
IMG=$MODELS/images/grace_hopper.bmp
LABELS=$MODELS/labels/coco_labels.txt

# EXPECTED.md: count 10; the five best (class id, score, box ymin xmin ymax xmax)
expect_rc 0 "detect grace_hopper" -- "$TFCC" detect "$MODELS/$m.tflite" "$IMG" --labels "$LABELS" \
  --threshold 0.35 --out "$TMP/boxes.png"
printf '%s\n' "1 0 0.71875 0.0505 0.0077 0.9857 0.9861 person" \
  "2 31 0.644531 0.7100 0.4378 0.8982 0.5649 tie" \
  "3 0 0.488281 0.0102 0.0155 0.6771 0.2498 person" \
  "4 31 0.425781 0.7193 0.4546 0.8480 0.5560 tie" \
  "5 0 0.355469 0.2294 0.0219 0.7263 0.2595 person" >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" && ok || bad "detections: $(tr '\n' '|' <"$TMP/out")"
# the PNG: signature, IHDR with the image's 512 x 600
if [ -f "$TMP/boxes.png" ]; then
  head -c 8 "$TMP/boxes.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$' && ok || bad "--out: not a PNG"
  wh=$(od -An -tu1 -j16 -N8 "$TMP/boxes.png" | tr -s ' ' | sed 's/^ //')
  [ "$wh" = "0 0 2 0 0 0 2 88" ] && ok || bad "--out: IHDR width/height bytes '$wh', want 512 x 600"
else
  bad "--out wrote no file"
fi
# all ten with threshold 0; no labels: '-'
expect_rc 0 "detect threshold 0" -- "$TFCC" detect "$MODELS/$m.tflite" "$IMG" --threshold 0
[ "$(wc -l <"$TMP/out")" -eq 10 ] && ok || bad "threshold 0: $(wc -l <"$TMP/out") lines, want 10"
expect_in "$TMP/out" "10 76 0.3125 0.8133 0.6172 0.9201 0.9012 -" "threshold 0: last (cell phone)"
# default threshold 0.5: two detections
expect_rc 0 "detect default threshold" -- "$TFCC" detect "$MODELS/$m.tflite" "$IMG"
[ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "default threshold: $(wc -l <"$TMP/out") lines, want 2"

# errors: a classifier is no detector; bad arguments; unwritable --out
c=mobilenet_v1_025_128_quant
if model_runnable $c; then
  expect_rc 1 "detect on a classifier" -- "$TFCC" detect "$MODELS/$c.tflite" "$IMG"
  expect_error_line detect "detect on a classifier"
  expect_in "$TMP/err" "detect needs boxes, classes, scores and count" "classifier message"
fi
expect_rc 2 "detect no image" -- "$TFCC" detect "$MODELS/$m.tflite"
expect_error_line detect "detect no image"
expect_rc 2 "detect bad threshold" -- "$TFCC" detect "$MODELS/$m.tflite" "$IMG" --threshold abc
expect_error_line detect "detect bad threshold"
expect_rc 1 "detect unwritable out" -- "$TFCC" detect "$MODELS/$m.tflite" "$IMG" --out "$TMP/no/such/dir.png"
expect_error_line detect "detect unwritable out"
expect_in "$TMP/err" "cannot write PNG" "unwritable out message"
finish
