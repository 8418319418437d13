#!/usr/bin/env bash
# tfcc classify on the shared images: BMP (uint8, int8 and float models), PNG, JPEG.
source "$(dirname "$0")/lib.bash"
[ -d "$MODELS" ] || { echo "SKIP: shared models not found"; exit 77; }
IMG=$MODELS/images
LABELS=$MODELS/labels/imagenet_labels.txt
tested=0

# the acceptance check (MobileNet v2, 300M MACs: skipped in sanitizer builds for time)
m=mobilenet_v2_224_quant
if sanitized_build; then
  echo "skip $m top-5 (sanitizer build)"
elif model_runnable $m; then
  tested=1
  expect_rc 0 "classify cat.bmp" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp" --labels "$LABELS"
  first=$(head -1 "$TMP/out")
  [ "$first" = "1 286 0.8125 Egyptian cat" ] && ok || bad "top-1: '$first'"
  [ "$(wc -l <"$TMP/out")" -eq 5 ] && ok || bad "default top 5"
  # the oracle's top 5 (ref meta.json): ties at 0 go to the lower index
  printf '%s\n' "1 286 0.8125 Egyptian cat" "2 282 0.101562 tabby, tabby cat" "3 283 0.0507812 tiger cat" \
    "4 0 0 background" "5 1 0 tench, Tinca tinca" >"$TMP/want"
  cmp -s "$TMP/out" "$TMP/want" && ok || bad "top 5: $(tr '\n' '|' <"$TMP/out")"
  printf 'GIF89a' >"$TMP/x.gif"
  expect_rc 1 "classify gif" -- "$TFCC" classify "$MODELS/$m.tflite" "$TMP/x.gif"
  expect_error_line classify "classify gif"
  expect_in "$TMP/err" "unknown image format" "classify gif"
  expect_rc 1 "missing labels" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp" --labels "$TMP/none.txt"
  expect_error_line classify "missing labels"
fi

m=mobilenet_v1_025_128_quant
if model_runnable $m; then
  tested=1
  expect_rc 0 "classify --top 2, no labels" -- "$TFCC" classify "$MODELS/$m.tflite" "$IMG/cat.bmp" -k 2
  [ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "--top 2"
  [ "$(head -1 "$TMP/out" | cut -d' ' -f1,4)" = "1 -" ] && ok || bad "no labels: $(head -1 "$TMP/out")"
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
# Decoders: the prepared input (--save-input) must not depend on the container. PNGs are
# made from the BMP by npy_tool.py (stdlib zlib); the JPEGs in data/ were encoded from the
# same pixels with libjpeg at quality 95 (so they differ slightly).
D=$HERE/data
m=mobilenet_v1_025_128_quant
if model_runnable $m && have_python; then
  tested=1
  npy_tool png "$D/cat96x64.bmp" "$TMP/c.png" rgb "$TMP/ca.png" rgba "$TMP/g.png" gray >/dev/null
  for f in "$D/cat96x64.bmp" "$TMP/c.png" "$TMP/ca.png" "$D/cat96x64.jpg"; do
    b=$(basename "$f")
    expect_rc 0 "classify $b" -- "$TFCC" classify "$MODELS/$m.tflite" "$f" --save-input "$TMP/in_$b.npy" -k 1
  done
  [ "$(npy_tool shape "$TMP/in_cat96x64.bmp.npy")" = "|u1 [1,128,128,3]" ] && ok || bad "saved input shape"
  cmp -s "$TMP/in_cat96x64.bmp.npy" "$TMP/in_c.png.npy" && ok || bad "png rgb != bmp"
  cmp -s "$TMP/in_cat96x64.bmp.npy" "$TMP/in_ca.png.npy" && ok || bad "png rgba != bmp"
  s=$(npy_tool diff "$TMP/in_cat96x64.bmp.npy" "$TMP/in_cat96x64.jpg.npy" 48 3) && ok || bad "jpeg vs bmp: $s"
fi
m=person_detect_int8
if model_runnable $m && have_python; then
  tested=1
  [ -f "$TMP/g.png" ] || npy_tool png "$D/cat96x64.bmp" "$TMP/g.png" gray >/dev/null
  for f in "$D/cat96x64.bmp" "$TMP/g.png" "$D/cat96x64_gray.jpg" "$D/cat96x64.jpg"; do
    b=$(basename "$f")
    expect_rc 0 "classify gray $b" -- "$TFCC" classify "$MODELS/$m.tflite" "$f" --save-input "$TMP/g_$b.npy" -k 1
  done
  cmp -s "$TMP/g_cat96x64.bmp.npy" "$TMP/g_g.png.npy" && ok || bad "gray png != bmp converted to gray"
  s=$(npy_tool diff "$TMP/g_cat96x64.bmp.npy" "$TMP/g_cat96x64_gray.jpg.npy" 40 3 \
    "$TMP/g_cat96x64.bmp.npy" "$TMP/g_cat96x64.jpg.npy" 40 3) && ok || bad "gray jpeg / rgb jpeg to gray vs bmp: $s"
fi
printf '\xff\xd8\xff\xe0 truncated jpeg' >"$TMP/t.jpg"
printf '\x89PNG\r\n\x1a\n truncated png' >"$TMP/t.png"
head -c 2500 "$D/cat96x64.jpg" >"$TMP/t2.jpg"
for m in mobilenet_v1_025_128_quant person_detect_int8; do
  model_runnable $m || continue
  for f in "$TMP/t.jpg" "$TMP/t.png" "$TMP/t2.jpg"; do
    expect_rc 1 "corrupt $(basename "$f")" -- "$TFCC" classify "$MODELS/$m.tflite" "$f"
    expect_error_line classify "corrupt $(basename "$f")"
  done
  expect_rc 1 "truncated jpeg" -- "$TFCC" classify "$MODELS/$m.tflite" "$TMP/t2.jpg"
  expect_in "$TMP/err" "JPEG: file truncated" "truncated jpeg message"
done

# a segmentation model's output is a map, not a class vector: refused, not flat indices
if model_runnable deeplabv3_mnv2_dm05_quant; then
  expect_rc 1 "segmentation model" -- "$TFCC" classify "$MODELS/deeplabv3_mnv2_dm05_quant.tflite" "$IMG/bird_segmentation.bmp"
  expect_error_line classify "segmentation model"
  expect_in "$TMP/err" "not a class vector ([1,N], one score per class)" "segmentation model message"
  if [ -s "$TMP/out" ]; then bad "segmentation model: printed $(head -c 200 "$TMP/out")"; else ok; fi
fi

[ $tested -eq 1 ] || { echo "SKIP: no classification model runnable yet"; exit 77; }
finish
