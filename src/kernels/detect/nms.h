/* NON_MAX_SUPPRESSION_V4 / V5 (single-class, optionally Soft-NMS with Gaussian weighting) in
 * float, as TFLite's reference_ops::NonMaxSuppression:
 *   candidates   boxes whose score > score_threshold (strict)
 *   order        highest score first; equal scores in the order TFLite's
 *                std::priority_queue (libc++'s heap algorithms) gives them
 *   suppression  a candidate is compared with the boxes selected since it was last examined,
 *                newest first: IoU >= iou_threshold drops it; otherwise with sigma > 0 its score
 *                is multiplied by expf(scale * iou * iou), scale = -0.5f / sigma (float), and
 *                the comparisons stop once the score is <= score_threshold. An unchanged score
 *                is selected; a decayed score still > score_threshold goes back to the queue.
 *   IoU          corners in any order (min/max per axis), 0 when either area is <= 0
 * A selected candidate goes back to the queue too (TFLite does; it is dropped when it meets
 * itself, IoU 1). Boxes are [n][4] (y1, x1, y2, x2). */
#ifndef TFCC_KERNELS_DETECT_NMS_H
#define TFCC_KERNELS_DETECT_NMS_H

#include <stddef.h>
#include <stdint.h>

/* Scratch bytes for n boxes. */
size_t tfcc_nms_scratch_bytes(int32_t n);

/* Writes up to max_output selected indices (and their possibly decayed scores when
 * selected_scores is not NULL); returns how many. sigma <= 0: hard NMS. */
int32_t tfcc_nms(const float *boxes, const float *scores, int32_t n, int32_t max_output,
                 float iou_threshold, float score_threshold, float sigma, void *scratch,
                 int32_t *selected, float *selected_scores);

/* The same results as tfcc_nms (its reference twin), faster: each box's ordered corners and
 * area computed once (when it leaves the queue; kept for the selected boxes, one array per
 * field), and with sigma == 0 (hard NMS: a candidate's score never changes, so the walk over
 * the selected boxes only asks whether one has IoU >= iou_threshold) the IoUs taken in
 * branch-free blocks of 64 selected boxes, newest first, that the compiler vectorises; the
 * queue is the same libc++-order heap. */
size_t tfcc_nms_fast_scratch_bytes(int32_t n);
int32_t tfcc_nms_fast(const float *boxes, const float *scores, int32_t n, int32_t max_output,
                      float iou_threshold, float score_threshold, float sigma, void *scratch,
                      int32_t *selected, float *selected_scores);

#endif
