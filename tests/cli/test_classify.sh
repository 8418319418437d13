#!/usr/bin/env bash
# tfcc classify on the shared images: BMP (uint8, int8 and float models), PNG, JPEG.
source "$(dirname "$0")/lib.bash"
[ -d "$MODELS" ] || { echo "SKIP: shared models not found"; exit 77; }
IMG=$MODELS/images
LABELS=$MODELS/labels/imagenet_labels.txt
tested=0

m=mobilenet_v2_224_quant
if model_runnable $m; then
  tested=1
  expect_rc 0 "classify cat.bmp" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp" --labels "$LABELS"
  first=$(head -1 "$TMP/out")
  [ "$first" = "1 286 0.8125 Egyptian cat" ] && ok || bad "top-1: '$first'"
  [ "$(wc -l <"$TMP/out")" -eq 5 ] && ok || bad "default top 5"
  # the oracle's top 5 (ref meta.json): ties at 0 go to the lower index
  printf '%s\n' "1 286 0.8125 Egyptian cat" "2 282 0.101562 tabby, tabby cat" "3 283 0.0507812 tiger cat" \
    "4 0 0 background" "5 1 0 tench, Tinca tinca" >"$TMP/want"
  cmp -s "$TMP/out" "$TMP/want" && ok || bad "top 5: $(tr '\n' '|' <"$TMP/out")"
  expect_rc 0 "classify --top 2, no labels" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp" -k 2
  [ "$(head -1 "$TMP/out")" = "1 286 0.8125 -" ] && ok || bad "no labels: $(head -1 "$TMP/out")"
  [ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "--top 2"
  # JPEG and PNG through libjpeg/libpng (made by ImageMagick when available)
  if command -v convert >/dev/null 2>&1; then
    convert "$IMG/cat.bmp" -quality 98 "$TMP/cat.jpg" 2>/dev/null && convert "$IMG/cat.bmp" "$TMP/cat.png" 2>/dev/null
    if [ -s "$TMP/cat.jpg" ]; then
      expect_rc 0 "classify cat.jpg" -- "$TFCC" classify "$MODELS/$m.tflite" "$TMP/cat.jpg" --labels "$LABELS"
      expect_in "$TMP/out" "1 286 " "jpeg top-1"
    fi
    if [ -s "$TMP/cat.png" ]; then
      expect_rc 0 "classify cat.png" -- "$TFCC" classify "$MODELS/$m.tflite" "$TMP/cat.png" --labels "$LABELS"
      [ "$(head -1 "$TMP/out")" = "1 286 0.8125 Egyptian cat" ] && ok || bad "png top-1 (lossless: same as bmp)"
    fi
  fi
  printf 'GIF89a' >"$TMP/x.gif"
  expect_rc 1 "classify gif" -- "$TFCC" classify "$MODELS/$m.tflite" "$TMP/x.gif"
  expect_error_line classify "classify gif"
  expect_in "$TMP/err" "unknown image format" "classify gif"
  expect_rc 1 "missing labels" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp" --labels "$TMP/none.txt"
  expect_error_line classify "missing labels"
fi

# float model with a gray [1,28,28] input, PNG: pixels / 255 as the reference did -> digit 3
m=mnist_lstm_float
if model_runnable $m && [ -f "$IMG/mnist_sample3.png" ]; then
  tested=1
  expect_rc 0 "classify png float" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/mnist_sample3.png" --mean 0 --std 255 -k 3
  expect_in "$TMP/out" "1 3 0.88" "mnist top-1"
fi

# int8 gray input (pixel - 128)
m=person_detect_int8
if model_runnable $m; then
  tested=1
  expect_rc 0 "classify int8" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/person.bmp" --top 2
  [ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "int8 model: two classes"
fi

# RGB -> gray conversion path, and an input that is not an image
m=keras_lstm_mnist_ptq
if model_runnable $m; then
  tested=1
  expect_rc 0 "classify uint8 gray" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/mnist_nine.bmp" -k 1
  expect_in "$TMP/out" "1 9 " "keras mnist nine"
fi
m=split_concat_quant
if model_runnable $m; then
  expect_rc 1 "classify 3-input model" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp"
  expect_in "$TMP/err" "the model has 3 inputs" "3-input model"
fi
[ $tested -eq 1 ] || { echo "SKIP: no classification model runnable yet"; exit 77; }
finish
