/* TFLite_Detection_PostProcess (SSD box decoding + multi-class non-max suppression) in float,
 * with TensorFlow Lite's arithmetic and order (detection_postprocess.cc):
 *   decode     ycenter = (float)(y / y_scale * anchor_h + anchor_y) in double, likewise x;
 *              half_h = (float)(0.5 * exp(h / h_scale) * anchor_h) in double, likewise w;
 *              box = (ycenter - half_h, xcenter - half_w, ycenter + half_h, xcenter + half_w)
 *   single-class NMS   scores >= score_threshold kept, stable sort by decreasing score (ties:
 *              lower anchor first), greedy selection; a candidate is dropped when its IoU with
 *              a selected box is > iou_threshold (IoU 0 when either area is <= 0)
 *   fast       per anchor the top max_classes_per_detection classes (the first maximum for 1),
 *              NMS on each anchor's best score, max_detections anchors; each selected anchor
 *              fills max_classes_per_detection rows (rows past num_classes stay zero)
 *   regular    NMS per class (detections_per_class each), merged by decreasing score,
 *              stably (equal scores: the earlier class first, as LiteRT's std::inplace_merge),
 *              max_detections rows
 * Rows past the detections are zero (TFLite zeroes them in regular mode and leaves them
 * unwritten in fast mode). The top-k class choice (k > 1) is std::partial_sort, whose order
 * among equal scores is the C++ library's: reproduced with libc++'s heap algorithms (the
 * reference build's library). */
#ifndef TFCC_KERNELS_DETECT_DETECT_POSTPROCESS_H
#define TFCC_KERNELS_DETECT_DETECT_POSTPROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_detect_params {
  int32_t max_detections;
  int32_t max_classes_per_detection;
  int32_t detections_per_class;
  bool use_regular_nms;
  float score_threshold;
  float iou_threshold;
  int32_t num_classes;
  float y_scale, x_scale, h_scale, w_scale;
} tfcc_detect_params;

/* Decodes n boxes: enc rows of enc_stride floats (y, x, h, w first), anchors [n][4]
 * (y, x, h, w) -> boxes [n][4] (ymin, xmin, ymax, xmax). */
void tfcc_detect_decode(const float *enc, int32_t enc_stride, const float *anchors, int32_t n,
                        const tfcc_detect_params *p, float *boxes);

/* Scratch bytes tfcc_detect_nms needs for n anchors. */
size_t tfcc_detect_scratch_bytes(int32_t n, const tfcc_detect_params *p);
/* Cuts scratch into n parts of sizes[i] bytes, each 8-byte aligned: *slots[i] points at part i
 * of base (base NULL: sizes only). Returns the total bytes. */
size_t tfcc_detect_carve(void *base, const size_t *sizes, void **const *slots, int n);

/* NMS over decoded boxes [n][4] and scores [n][n_scores] (n_scores = num_classes or
 * num_classes + 1 with a leading background column). Outputs: out_boxes
 * [rows][4], out_classes [rows], out_scores [rows] with rows = max_detections *
 * max_classes_per_detection, *out_count = detections (anchors in fast mode).
 * Returns -1, or the index of the first box with ymin > ymax or xmin > xmax (TFLite's
 * ValidateBoxes: an error), in which case the outputs are unspecified. */
int32_t tfcc_detect_nms(const float *boxes, const float *scores, int32_t n, int32_t n_scores,
                        const tfcc_detect_params *p, void *scratch, float *out_boxes,
                        float *out_classes, float *out_scores, float *out_count);

/* Decreasing stable argsort of v[0, n) into idx, using tmp[n] (ties: lower index first). */
void tfcc_detect_argsort_desc(const float *v, int32_t n, int32_t *idx, int32_t *tmp);

/* TFLite's DecreasingPartialArgSort: idx[0, k) = the k largest of v[0, n) in decreasing
 * order (k == 1: the first maximum; k > 1: libc++'s std::partial_sort order); idx has n
 * entries. */
void tfcc_detect_partial_argsort(const float *v, int32_t n, int32_t k, int32_t *idx);

#endif
