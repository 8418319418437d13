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

/* A queued candidate. */
typedef struct cand {
  float score;
  int32_t index;
  int32_t begin; /* suppress_begin_index */
} cand;

/* The candidate queue is a binary max-heap on score operated exactly as libc++'s
 * std::priority_queue (push_heap's sift-up; pop_heap's Floyd sift-down to a leaf, the last
 * element moved into the hole and sifted up), so that equal scores leave the queue in the
 * order TensorFlow Lite's build gives them. */
static bool less_score(const cand *a, const cand *b) { return a->score < b->score; }

/* libc++ __sift_up: the element at h[len - 1] moves up while its parent is smaller. */
static void sift_up(cand *h, int32_t len) {
  if (len < 2) return;
  int32_t last = len - 1, p = (len - 2) / 2;
  if (!less_score(&h[p], &h[last])) return;
  const cand t = h[last];
  for (;;) {
    h[last] = h[p];
    last = p;
    if (p == 0) break;
    p = (p - 1) / 2;
    if (!less_score(&h[p], &t)) break;
  }
  h[last] = t;
}

static void heap_push(cand *h, int32_t *len, cand c) {
  h[(*len)++] = c;
  sift_up(h, *len);
}

/* libc++ __pop_heap with __floyd_sift_down; returns the top. */
static cand heap_pop(cand *h, int32_t *len) {
  const cand top = h[0];
  const int32_t n = *len;
  if (n > 1) {
    int32_t hole = 0, child = 0;
    for (;;) {
      child = 2 * child + 1;
      if (child + 1 < n && less_score(&h[child], &h[child + 1])) child++;
      h[hole] = h[child];
      hole = child;
      if (child > (n - 2) / 2) break;
    }
    if (hole != n - 1) {
      h[hole] = h[n - 1];
      sift_up(h, hole + 1);
    }
  }
  *len = n - 1;
  return top;
}

size_t tfcc_nms_scratch_bytes(int32_t n) { return (size_t)(n > 0 ? n : 1) * sizeof(cand); }

int32_t tfcc_nms(const float *boxes, const float *scores, int32_t n, int32_t max_output,
                 float iou_threshold, float score_threshold, float sigma, void *scratch,
                 int32_t *selected, float *selected_scores) {
  cand *heap = (cand *)scratch;
  int32_t queued = 0;
  for (int32_t i = 0; i < n; i++)
    if (scores[i] > score_threshold) heap_push(heap, &queued, (cand){scores[i], i, 0});
  const int32_t n_out = queued < max_output ? queued : max_output;
  const float scale = sigma > 0.0f ? -0.5f / sigma : 0.0f;
  int32_t n_sel = 0;
  while (n_sel < n_out && queued > 0) {
    cand x = heap_pop(heap, &queued);
    const float original = x.score;
    bool hard = false;
    const float *bx = boxes + (size_t)x.index * 4;
    for (int32_t j = n_sel - 1; j >= x.begin; j--) {
      const float v = iou(bx, boxes + (size_t)selected[j] * 4);
      if (v >= iou_threshold) {
        hard = true;
        break;
      }
      if (sigma > 0.0f) x.score = x.score * expf(scale * v * v);
      if (x.score <= score_threshold) break;
    }
    x.begin = n_sel;
    if (hard) continue;
    if (x.score == original) {
      selected[n_sel] = x.index;
      if (selected_scores) selected_scores[n_sel] = x.score;
      n_sel++;
    }
    /* the queue never holds more than n: every push follows a pop */
    if (x.score > score_threshold) heap_push(heap, &queued, x);
  }
  return n_sel;
}

/* ---------------------------------------------------------------- fast (nms.h) */

/* A box with its corners ordered (min, max per axis) and its area: the reference's iou
 * computes these from the box each time; the same expressions, once per box. */
typedef struct canon {
  float y0, x0, y1, x1, area;
} canon;

static canon canon_of(const float *b) {
  canon c;
  c.y0 = minf(b[0], b[2]);
  c.y1 = maxf(b[0], b[2]);
  c.x0 = minf(b[1], b[3]);
  c.x1 = maxf(b[1], b[3]);
  c.area = (c.y1 - c.y0) * (c.x1 - c.x0);
  return c;
}

/* The selected boxes' canonical forms, one array per field (the hard check's loop is
 * vectorised across selected boxes). */
typedef struct sel_soa {
  float *y0, *x0, *y1, *x1, *area;
} sel_soa;

/* Whether some selected box j in [lo, hi) has iou(c, j) >= thr: branch-free blocks, newest
 * first (overlapping boxes tend to be selected close together), stopping at the first block
 * with a hit. With thr > 0 a hit needs an overlap (ymax - ymin > 0 and xmax - xmin > 0; a NaN
 * anywhere makes the IoU NaN, never >= thr) and a candidate area > 0, so a block is first
 * scanned for overlaps without the division, and only blocks with one take the exact IoUs. */
enum { HARD_BLOCK = 64 };

static bool any_hard(const canon *c, const sel_soa *s, int32_t lo, int32_t hi, float thr) {
  if (!(thr == thr)) return false;                 /* v >= NaN never holds */
  if (c->area <= 0) return lo < hi && 0.0f >= thr; /* every IoU is 0 */
  const bool overlap_first = thr > 0.0f;
  if (overlap_first && !(c->area > 0)) return false; /* a NaN area: every IoU is NaN */
  const int zero_hits = 0.0f >= thr;                 /* where the selected box's area is <= 0 */
  while (hi > lo) {
    const int32_t b = hi - lo > HARD_BLOCK ? hi - HARD_BLOCK : lo;
    if (overlap_first) {
      int ov = 0;
      for (int32_t j = b; j < hi; j++) {
        const float ymax = minf(c->y1, s->y1[j]), xmax = minf(c->x1, s->x1[j]);
        const float ymin = maxf(c->y0, s->y0[j]), xmin = maxf(c->x0, s->x0[j]);
        ov |= (ymax - ymin > 0.0f) & (xmax - xmin > 0.0f);
      }
      if (!ov) {
        hi = b;
        continue;
      }
    }
    int hit = 0;
    for (int32_t j = b; j < hi; j++) {
      const float ymax = minf(c->y1, s->y1[j]), xmax = minf(c->x1, s->x1[j]);
      const float ymin = maxf(c->y0, s->y0[j]), xmin = maxf(c->x0, s->x0[j]);
      const float inter = maxf(ymax - ymin, 0.0f) * maxf(xmax - xmin, 0.0f);
      const float q = inter / (c->area + s->area[j] - inter);
      const int zero = s->area[j] <= 0;
      hit |= (zero & zero_hits) | ((zero ^ 1) & (q >= thr));
    }
    if (hit) return true;
    hi = b;
  }
  return false;
}

/* The reference's Soft-NMS walk over selected boxes [lo, hi), newest first: IoU >= thr is
 * a hard suppression (returns true); otherwise the score decays by expf(scale * v * v) and the
 * walk stops once it is <= score_thr. The IoUs of a block of 64 are computed first
 * (vectorised); an IoU of exactly 0 changes nothing (expf(+-0) is 1, and the score, > score_thr
 * so far, stays) unless 0 >= thr, so those boxes are passed over. */
static bool soft_walk(const canon *c, const sel_soa *s, int32_t lo, int32_t hi, float thr,
                      float score_thr, float scale, float *score) {
  float v[HARD_BLOCK];
  const bool skip_zero = !(0.0f >= thr);
  while (hi > lo) {
    const int32_t b = hi - lo > HARD_BLOCK ? hi - HARD_BLOCK : lo;
    for (int32_t j = b; j < hi; j++) {
      const float ymax = minf(c->y1, s->y1[j]), xmax = minf(c->x1, s->x1[j]);
      const float ymin = maxf(c->y0, s->y0[j]), xmin = maxf(c->x0, s->x0[j]);
      const float inter = maxf(ymax - ymin, 0.0f) * maxf(xmax - xmin, 0.0f);
      const float q = inter / (c->area + s->area[j] - inter);
      const int zero = (c->area <= 0) | (s->area[j] <= 0);
      v[j - b] = zero ? 0.0f : q;
    }
    for (int32_t j = hi - 1; j >= b; j--) {
      const float u = v[j - b];
      if (u == 0.0f && skip_zero) continue;
      if (u >= thr) return true;
      *score = *score * expf(scale * u * u);
      if (*score <= score_thr) return false;
    }
    hi = b;
  }
  return false;
}

size_t tfcc_nms_fast_scratch_bytes(int32_t n) {
  const size_t nn = (size_t)(n > 0 ? n : 1);
  return nn * sizeof(cand) + 5 * nn * sizeof(float);
}

int32_t tfcc_nms_fast(const float *boxes, const float *scores, int32_t n, int32_t max_output,
                      float iou_threshold, float score_threshold, float sigma, void *scratch,
                      int32_t *selected, float *selected_scores) {
  const size_t nn = (size_t)(n > 0 ? n : 1);
  cand *heap = (cand *)scratch;
  float *f = (float *)(void *)(heap + nn);
  const sel_soa s = {f, f + nn, f + 2 * nn, f + 3 * nn, f + 4 * nn};
  int32_t queued = 0;
  for (int32_t i = 0; i < n; i++)
    if (scores[i] > score_threshold) heap_push(heap, &queued, (cand){scores[i], i, 0});
  const int32_t n_out = queued < max_output ? queued : max_output;
  const bool soft = sigma > 0.0f;
  const float scale = soft ? -0.5f / sigma : 0.0f;
  int32_t n_sel = 0;
  while (n_sel < n_out && queued > 0) {
    cand x = heap_pop(heap, &queued);
    const float original = x.score;
    const canon c = canon_of(boxes + (size_t)x.index * 4);
    bool hard = false;
    if (!soft) {
      /* the score never changes and stays > score_threshold: the reference's walk only looks
       * for one IoU >= iou_threshold, in whatever order */
      hard = any_hard(&c, &s, x.begin, n_sel, iou_threshold);
    } else {
      hard = soft_walk(&c, &s, x.begin, n_sel, iou_threshold, score_threshold, scale, &x.score);
    }
    x.begin = n_sel;
    if (hard) continue;
    if (x.score == original) {
      selected[n_sel] = x.index;
      if (selected_scores) selected_scores[n_sel] = x.score;
      s.y0[n_sel] = c.y0;
      s.x0[n_sel] = c.x0;
      s.y1[n_sel] = c.y1;
      s.x1[n_sel] = c.x1;
      s.area[n_sel] = c.area;
      n_sel++;
    }
    if (x.score > score_threshold) heap_push(heap, &queued, x);
  }
  return n_sel;
}
