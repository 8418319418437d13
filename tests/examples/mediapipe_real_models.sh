#!/usr/bin/env bash
# MediaPipe's own segmentation models through examples/mediapipe_ops (mediapipe_segment), when
# TFCC_MEDIAPIPE_MODELS names a directory holding them (they are not in this repository; see
# examples/mediapipe_ops/README.md for where they come from):
#   selfie_segmentation.tflite  (Convolution2DTransposeBias)
#   hair_segmentation.tflite    (MaxPoolingWithArgmax2D, MaxUnpooling2D, Convolution2DTransposeBias)
# on images of ../shared/models/images: the mask must be plausible (a person covers the centre of
# a portrait and little of its border; hair is a small part of the image). Skips (77) otherwise.
set -u
dir=${TFCC_MEDIAPIPE_MODELS:-}
images=${TFCC_SHARED_DIR:-}/models/images
if [[ -z "$dir" || ! -d "$dir" ]]; then
  echo "SKIP: set TFCC_MEDIAPIPE_MODELS to a directory with MediaPipe's selfie_segmentation.tflite / hair_segmentation.tflite"
  exit 77
fi
if [[ ! -d "$images" ]]; then
  echo "SKIP: ../shared/models/images absent (TFCC_SHARED_DIR)"
  exit 77
fi
fails=0 ran=0
# check MODEL IMAGE FG_MIN FG_MAX CENTRE_MIN BORDER_MAX (percent)
check() {
  local model=$dir/$1 image=$images/$2
  [[ -f "$model" ]] || { echo "SKIP: $model absent"; return; }
  local out
  if ! out=$("$MEDIAPIPE_SEGMENT" "$model" "$image" 2>&1); then
    echo "FAIL: $1 on $2: $out"; fails=$((fails + 1)); return
  fi
  ran=$((ran + 1))
  echo "$1 $2: $(echo "$out" | tail -1)"
  read -r fg centre border < <(echo "$out" | sed -n 's/^foreground \([0-9.]*\)% (centre \([0-9.]*\)%, border \([0-9.]*\)%)$/\1 \2 \3/p')
  if ! awk -v f="$fg" -v c="$centre" -v b="$border" -v f0="$3" -v f1="$4" -v c0="$5" -v b1="$6" \
      'BEGIN { exit !(f != "" && f >= f0 && f <= f1 && c >= c0 && b <= b1) }'; then
    echo "FAIL: $1 on $2: foreground $fg% (wanted $3..$4), centre $centre% (>= $5), border $border% (<= $6)"
    fails=$((fails + 1))
  fi
}
check selfie_segmentation.tflite grace_hopper.bmp 35 85 70 60
check selfie_segmentation.tflite squat.bmp 5 40 30 10
check hair_segmentation.tflite grace_hopper.bmp 0.5 15 0 1
check hair_segmentation.tflite squat.bmp 0.2 15 0 1
if (( ran == 0 )); then echo "SKIP: no MediaPipe model in $dir"; exit 77; fi
(( fails == 0 )) && echo "mediapipe real models: $ran runs ok" || exit 1
