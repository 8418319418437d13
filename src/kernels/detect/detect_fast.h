/* TFLite_Detection_PostProcess, fast: the same outputs, byte for byte, as tfcc_detect_decode +
 * tfcc_detect_nms (detect_postprocess.h, its reference twin), with less work:
 *   scores     quantized class scores stay codes: the per-box maximum, the threshold and the
 *              order are taken on the codes (the caller guarantees that its code -> score
 *              table is strictly increasing, so codes and scores order alike and equal codes
 *              are equal scores); only the scores written out are looked up
 *   order      codes: one counting sort (descending, ties by box index, as the stable sort;
 *              one pass over the scores gathers the passing boxes);
 *              float: a binary heap on (score descending, box index ascending), popped only
 *              as far as the selection goes
 *   selection  a candidate is compared with the boxes selected so far (it is suppressed iff
 *              one of them has IoU > iou_threshold with it, the reference's greedy rule seen
 *              from the candidate), and the walk stops at the last box selected, instead of
 *              each selected box sweeping every later candidate
 *   decoding   boxes are decoded when first met as candidates, when every anchor has height
 *              and width > 0 (then no decoded box can be inverted: ymin <= ycenter <= ymax);
 *              otherwise all are decoded and validated first, as the reference does
 *   IoU        box areas computed once per box (the same expression); a candidate is checked
 *              against the selected boxes (kept one array per field) in branch-free blocks of
 *              64, newest first, that the compiler vectorises (the same float expressions)
 *   top-k      (max_classes_per_detection > 1) the boxes are ordered by their maximum score;
 *              libc++'s partial sort of the class scores runs for the selected boxes only
 *   regular    each class's selections are merged into the running list (a stable two-run
 *              merge, not a sort of the concatenation)
 * Float scores with a NaN when max_classes_per_detection > 1 run the reference (the heap's
 * top is then not a plain maximum). */
#ifndef TFCC_KERNELS_DETECT_DETECT_FAST_H
#define TFCC_KERNELS_DETECT_DETECT_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/detect/detect_postprocess.h"

typedef struct tfcc_detect_in {
  int32_t n;        /* boxes (anchors) */
  int32_t n_scores; /* score columns: num_classes, or num_classes + 1 (background) */
  const float *enc; /* box encodings, rows of enc_stride floats (y, x, h, w first) */
  int32_t enc_stride;
  const float *anchors; /* [n][4] (y, x, h, w) */
  const float *scores;  /* float scores [n][n_scores], or NULL when codes are given */
  const uint8_t *codes; /* uint8 (or int8, codes_signed) score codes [n][n_scores] */
  bool codes_signed;
  const float *code_score; /* [256] the score of each code by rank (rank = the uint8 code,
                                or the int8 code + 128), strictly increasing */
} tfcc_detect_in;

/* Scratch bytes of tfcc_detect_fast (the reference's included, for its fallback). */
size_t tfcc_detect_fast_scratch_bytes(int32_t n, int32_t n_scores, const tfcc_detect_params *p);

/* As tfcc_detect_decode + tfcc_detect_nms; boxes [n][4] receives decoded boxes (all of them
 * when the result is >= 0, an inverted box's index; otherwise those that were needed). */
int32_t tfcc_detect_fast(const tfcc_detect_in *in, const tfcc_detect_params *p, void *scratch,
                         float *boxes, float *out_boxes, float *out_classes, float *out_scores,
                         float *out_count);

#endif
