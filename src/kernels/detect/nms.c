/* Single-class (Soft-)NMS; the contract is in nms.h. */
#include "kernels/detect/nms.h"

#include <math.h>
#include <stdbool.h>

static float maxf(float a, float b) { return a < b ? b : a; }
static float minf(float a, float b) { return b < a ? b : a; }

/* reference_ops::ComputeIntersectionOverUnion (corners in any order). */
static float iou(const float *bi, const float *bj) {
  const float iy0 = minf(bi[0], bi[2]), iy1 = maxf(bi[0], bi[2]);
  const float ix0 = minf(bi[1], bi[3]), ix1 = maxf(bi[1], bi[3]);
  const float jy0 = minf(bj[0], bj[2]), jy1 = maxf(bj[0], bj[2]);
  const float jx0 = minf(bj[1], bj[3]), jx1 = maxf(bj[1], bj[3]);
  const float area_i = (iy1 - iy0) * (ix1 - ix0);
  const float area_j = (jy1 - jy0) * (jx1 - jx0);
  if (area_i <= 0 || area_j <= 0) return 0.0f;
  const float ymax = minf(iy1, jy1), xmax = minf(ix1, jx1);
  const float ymin = maxf(iy0, jy0), xmin = maxf(ix0, jx0);
  const float inter = maxf(ymax - ymin, 0.0f) * maxf(xmax - xmin, 0.0f);
  return inter / (area_i + area_j - inter);
}

typedef struct cand {
  float score;
  int32_t begin; /* suppress_begin_index */
  bool alive;    /* in the queue */
} cand;

size_t tfcc_nms_scratch_bytes(int32_t n) { return (size_t)(n > 0 ? n : 1) * sizeof(cand); }

int32_t tfcc_nms(const float *boxes, const float *scores, int32_t n, int32_t max_output,
                 float iou_threshold, float score_threshold, float sigma, void *scratch,
                 int32_t *selected, float *selected_scores) {
  cand *c = (cand *)scratch;
  int32_t queued = 0;
  for (int32_t i = 0; i < n; i++) {
    c[i].score = scores[i];
    c[i].begin = 0;
    c[i].alive = scores[i] > score_threshold;
    queued += c[i].alive;
  }
  const int32_t n_out = queued < max_output ? queued : max_output;
  const float scale = sigma > 0.0f ? -0.5f / sigma : 0.0f;
  int32_t n_sel = 0;
  while (n_sel < n_out && queued > 0) {
    int32_t best = -1;
    for (int32_t i = 0; i < n; i++)
      if (c[i].alive && (best < 0 || c[i].score > c[best].score)) best = i;
    cand *x = &c[best];
    x->alive = false;
    queued--;
    const float original = x->score;
    bool hard = false;
    const float *bx = boxes + (size_t)best * 4;
    for (int32_t j = n_sel - 1; j >= x->begin; j--) {
      const float v = iou(bx, boxes + (size_t)selected[j] * 4);
      if (v >= iou_threshold) {
        hard = true;
        break;
      }
      if (sigma > 0.0f) x->score = x->score * expf(scale * v * v);
      if (x->score <= score_threshold) break;
    }
    x->begin = n_sel;
    if (hard) continue;
    if (x->score == original) {
      selected[n_sel] = best;
      if (selected_scores) selected_scores[n_sel] = x->score;
      n_sel++;
    }
    if (x->score > score_threshold) {
      x->alive = true;
      queued++;
    }
  }
  return n_sel;
}
