/* TFLite_Detection_PostProcess compute; the contract is in detect_postprocess.h. */
#include "kernels/detect/detect_postprocess.h"

#include <math.h>
#include <string.h>

void tfcc_detect_decode(const float *enc, int32_t enc_stride, const float *anchors, int32_t n,
                        const tfcc_detect_params *p, float *boxes) {
  const double ys = p->y_scale, xs = p->x_scale, hs = p->h_scale, ws = p->w_scale;
  for (int32_t i = 0; i < n; i++) {
    const float *e = enc + (size_t)i * (size_t)enc_stride, *a = anchors + (size_t)i * 4;
    const float ycenter = (float)((double)e[0] / ys * (double)a[2] + (double)a[0]);
    const float xcenter = (float)((double)e[1] / xs * (double)a[3] + (double)a[1]);
    const float half_h = (float)(0.5 * exp((double)e[2] / hs) * (double)a[2]);
    const float half_w = (float)(0.5 * exp((double)e[3] / ws) * (double)a[3]);
    float *b = boxes + (size_t)i * 4;
    b[0] = ycenter - half_h;
    b[1] = xcenter - half_w;
    b[2] = ycenter + half_h;
    b[3] = xcenter + half_w;
  }
}

void tfcc_detect_argsort_desc(const float *v, int32_t n, int32_t *idx, int32_t *tmp) {
  for (int32_t i = 0; i < n; i++) idx[i] = i;
  /* bottom-up merge sort: stable */
  int32_t *src = idx, *dst = tmp;
  for (int32_t width = 1; width < n; width *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * width) {
      const int32_t mid = lo + width < n ? lo + width : n;
      const int32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int32_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi) dst[o++] = v[src[b]] > v[src[a]] ? src[b++] : src[a++];
      while (a < mid) dst[o++] = src[a++];
      while (b < hi) dst[o++] = src[b++];
    }
    int32_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != idx) memcpy(idx, src, sizeof(int32_t) * (size_t)n);
}

/* TFLite's DecreasingPartialArgSort for num_to_sort > 1 is std::partial_sort of the indices
 * 0..n-1 with comp(a, b) = v[a] > v[b]; equal values come out in the order libc++'s heap
 * algorithms give them, reproduced here: make_heap (sift-downs), one pass over the rest
 * (swap with the top and sift down when comp(x, top)), sort_heap (pop_heap with Floyd's
 * sift-down and a sift-up from the hole). */
static bool comp_gt(const float *v, int32_t a, int32_t b) { return v[a] > v[b]; }

static void hp_sift_down(int32_t *h, int32_t len, int32_t start, const float *v) {
  int32_t child = start;
  if (len < 2 || (len - 2) / 2 < child) return;
  child = 2 * child + 1;
  if (child + 1 < len && comp_gt(v, h[child], h[child + 1])) child++;
  if (comp_gt(v, h[child], h[start])) return;
  const int32_t top = h[start];
  do {
    h[start] = h[child];
    start = child;
    if ((len - 2) / 2 < child) break;
    child = 2 * child + 1;
    if (child + 1 < len && comp_gt(v, h[child], h[child + 1])) child++;
  } while (!comp_gt(v, h[child], top));
  h[start] = top;
}

static void hp_sift_up(int32_t *h, int32_t len, const float *v) {
  if (len < 2) return;
  int32_t last = len - 1, p = (len - 2) / 2;
  if (!comp_gt(v, h[p], h[last])) return;
  const int32_t t = h[last];
  for (;;) {
    h[last] = h[p];
    last = p;
    if (p == 0) break;
    p = (p - 1) / 2;
    if (!comp_gt(v, h[p], t)) break;
  }
  h[last] = t;
}

/* pop_heap on h[0, len): the top goes to h[len - 1]. */
static void hp_pop(int32_t *h, int32_t len, const float *v) {
  if (len < 2) return;
  const int32_t top = h[0];
  int32_t hole = 0, child = 0;
  for (;;) {
    child = 2 * child + 1;
    if (child + 1 < len && comp_gt(v, h[child], h[child + 1])) child++;
    h[hole] = h[child];
    hole = child;
    if (child > (len - 2) / 2) break;
  }
  if (hole == len - 1) {
    h[hole] = top;
  } else {
    h[hole] = h[len - 1];
    h[len - 1] = top;
    hp_sift_up(h, hole + 1, v);
  }
}

/* DecreasingPartialArgSort: idx[0, k) = the k largest of v[0, n), in decreasing order. */
void tfcc_detect_partial_argsort(const float *v, int32_t n, int32_t k, int32_t *idx) {
  if (k == 1) { /* ArgMaxVector: the first maximum */
    int32_t best = 0;
    for (int32_t i = 1; i < n; i++)
      if (v[i] > v[best]) best = i;
    idx[0] = best;
    return;
  }
  for (int32_t i = 0; i < n; i++) idx[i] = i;
  if (k <= 0) return;
  for (int32_t start = (k - 2) / 2; k > 1 && start >= 0; start--) hp_sift_down(idx, k, start, v);
  for (int32_t i = k; i < n; i++)
    if (comp_gt(v, idx[i], idx[0])) {
      const int32_t t = idx[i];
      idx[i] = idx[0];
      idx[0] = t;
      hp_sift_down(idx, k, 0, v);
    }
  for (int32_t len = k; len > 1; len--) hp_pop(idx, len, v);
}

/* std::max / std::min (NaN handling included). */
static float maxf(float a, float b) { return a < b ? b : a; }
static float minf(float a, float b) { return b < a ? b : a; }

/* TFLite's ComputeIntersectionOverUnion, in float. */
static float iou(const float *bi, const float *bj) {
  const float area_i = (bi[2] - bi[0]) * (bi[3] - bi[1]);
  const float area_j = (bj[2] - bj[0]) * (bj[3] - bj[1]);
  if (area_i <= 0 || area_j <= 0) return 0.0f;
  const float ymin = maxf(bi[0], bj[0]), xmin = maxf(bi[1], bj[1]);
  const float ymax = minf(bi[2], bj[2]), xmax = minf(bi[3], bj[3]);
  const float inter = maxf(ymax - ymin, 0.0f) * maxf(xmax - xmin, 0.0f);
  return inter / (area_i + area_j - inter);
}

/* Scratch carved into arrays. */
typedef struct work {
  float *keep_scores;  /* n */
  int32_t *keep_idx;   /* n */
  int32_t *sorted;     /* n + max_det */
  int32_t *tmp;        /* n + max_det */
  uint8_t *active;     /* n */
  int32_t *selected;   /* n */
  float *class_scores; /* n */
  int32_t *merged_idx; /* n + max_det (regular) */
  float *merged_score; /* n + max_det */
  float *sorted_score; /* n + max_det */
  int32_t *class_idx;  /* n * k (fast) */
  int32_t *cls_tmp;    /* num_classes (fast, k > 1) */
} work;

size_t tfcc_detect_carve(void *base, const size_t *sizes, void **const *slots, int n) {
  size_t off = 0;
  for (int i = 0; i < n; i++) {
    if (base) *slots[i] = (uint8_t *)base + off;
    off += (sizes[i] + 7) & ~(size_t)7;
  }
  return off;
}

static size_t carve(int32_t n, const tfcc_detect_params *p, void *base, work *w) {
  const size_t nn = (size_t)n, nm = nn + (size_t)(p->max_detections > 0 ? p->max_detections : 0);
  const int32_t kc =
      p->max_classes_per_detection < p->num_classes ? p->max_classes_per_detection : p->num_classes;
  const size_t k = kc > 0 ? (size_t)kc : 1;
  const size_t nc = (size_t)(p->num_classes > 0 ? p->num_classes : 1);
  const size_t sizes[12] = {nn * 4, nn * 4, nm * 4, nm * 4, nn,         nn * 4,
                            nn * 4, nm * 4, nm * 4, nm * 4, nn * k * 4, nc * 4};
  void **slots[12] = {(void **)&w->keep_scores,  (void **)&w->keep_idx,   (void **)&w->sorted,
                      (void **)&w->tmp,          (void **)&w->active,     (void **)&w->selected,
                      (void **)&w->class_scores, (void **)&w->merged_idx, (void **)&w->merged_score,
                      (void **)&w->sorted_score, (void **)&w->class_idx,  (void **)&w->cls_tmp};
  return tfcc_detect_carve(base, sizes, slots, 12);
}

size_t tfcc_detect_scratch_bytes(int32_t n, const tfcc_detect_params *p) {
  work w;
  return carve(n, p, NULL, &w);
}

/* NonMaxSuppressionSingleClassHelper: selected anchors (<= max_out) of scores[n]. */
static int32_t nms_single(const float *boxes, const float *scores, int32_t n, int32_t max_out,
                          const tfcc_detect_params *p, work *w) {
  int32_t kept = 0;
  for (int32_t i = 0; i < n; i++)
    if (scores[i] >= p->score_threshold) {
      w->keep_scores[kept] = scores[i];
      w->keep_idx[kept++] = i;
    }
  tfcc_detect_argsort_desc(w->keep_scores, kept, w->sorted, w->tmp);
  const int32_t out_size = kept < max_out ? kept : max_out;
  int32_t n_sel = 0, n_active = kept;
  memset(w->active, 1, (size_t)kept);
  for (int32_t i = 0; i < kept; i++) {
    if (n_active == 0 || n_sel >= out_size) break;
    if (!w->active[i]) continue;
    const int32_t bi = w->keep_idx[w->sorted[i]];
    w->selected[n_sel++] = bi;
    w->active[i] = 0;
    n_active--;
    for (int32_t j = i + 1; j < kept; j++) {
      if (!w->active[j]) continue;
      const int32_t bj = w->keep_idx[w->sorted[j]];
      if (iou(boxes + (size_t)bi * 4, boxes + (size_t)bj * 4) > p->iou_threshold) {
        w->active[j] = 0;
        n_active--;
      }
    }
  }
  return n_sel;
}

static void put_row(float *out_boxes, float *out_classes, float *out_scores, int32_t row,
                    const float *box, int32_t cls, float score) {
  memcpy(out_boxes + (size_t)row * 4, box, 4 * sizeof(float));
  out_classes[row] = (float)cls;
  out_scores[row] = score;
}

static int32_t regular(const float *boxes, const float *scores, int32_t n, int32_t n_scores,
                       const tfcc_detect_params *p, work *w, float *ob, float *oc, float *os) {
  const int32_t label_off = n_scores - p->num_classes;
  int32_t size_sorted = 0;
  for (int32_t col = 0; col < p->num_classes; col++) {
    for (int32_t row = 0; row < n; row++)
      w->class_scores[row] = scores[(size_t)row * (size_t)n_scores + (size_t)(col + label_off)];
    const int32_t n_sel = nms_single(boxes, w->class_scores, n, p->detections_per_class, p, w);
    int32_t m = size_sorted;
    for (int32_t s = 0; s < n_sel; s++) {
      const int32_t a = w->selected[s];
      w->merged_idx[m] = a * n_scores + col + label_off;
      w->merged_score[m++] = w->class_scores[a];
    }
    const int32_t k = m < p->max_detections ? m : p->max_detections;
    /* a stable merge of the kept list and this class's selections (LiteRT's inplace_merge;
     * the two runs are each in decreasing order) */
    tfcc_detect_argsort_desc(w->merged_score, m, w->sorted, w->tmp);
    for (int32_t r = 0; r < k; r++) {
      w->tmp[r] = w->merged_idx[w->sorted[r]];
      w->sorted_score[r] = w->merged_score[w->sorted[r]];
    }
    for (int32_t r = 0; r < k; r++) {
      w->merged_idx[r] = w->tmp[r];
      w->merged_score[r] = w->sorted_score[r];
    }
    size_sorted = k;
  }
  for (int32_t r = 0; r < size_sorted; r++) {
    const int32_t anchor = w->merged_idx[r] / n_scores;
    const int32_t cls = w->merged_idx[r] - anchor * n_scores - label_off;
    put_row(ob, oc, os, r, boxes + (size_t)anchor * 4, cls, w->merged_score[r]);
  }
  return size_sorted;
}

static int32_t fast(const float *boxes, const float *scores, int32_t n, int32_t n_scores,
                    const tfcc_detect_params *p, work *w, float *ob, float *oc, float *os) {
  const int32_t label_off = n_scores - p->num_classes;
  const int32_t k =
      p->max_classes_per_detection < p->num_classes ? p->max_classes_per_detection : p->num_classes;
  for (int32_t row = 0; row < n; row++) {
    const float *bs = scores + (size_t)row * (size_t)n_scores + label_off;
    int32_t *ci = w->class_idx + (size_t)row * (size_t)k;
    if (k == 1) {
      tfcc_detect_partial_argsort(bs, p->num_classes, 1, ci);
    } else {
      tfcc_detect_partial_argsort(bs, p->num_classes, k, w->cls_tmp);
      memcpy(ci, w->cls_tmp, sizeof(int32_t) * (size_t)k);
    }
    w->class_scores[row] = bs[ci[0]];
  }
  const int32_t n_sel = nms_single(boxes, w->class_scores, n, p->max_detections, p, w);
  for (int32_t s = 0; s < n_sel; s++) {
    const int32_t a = w->selected[s];
    const float *bs = scores + (size_t)a * (size_t)n_scores + label_off;
    const int32_t *ci = w->class_idx + (size_t)a * (size_t)k;
    for (int32_t c = 0; c < k; c++)
      put_row(ob, oc, os, p->max_classes_per_detection * s + c, boxes + (size_t)a * 4, ci[c],
              bs[ci[c]]);
  }
  return n_sel;
}

int32_t tfcc_detect_nms(const float *boxes, const float *scores, int32_t n, int32_t n_scores,
                        const tfcc_detect_params *p, void *scratch, float *out_boxes,
                        float *out_classes, float *out_scores, float *out_count) {
  for (int32_t i = 0; i < n; i++) {
    const float *b = boxes + (size_t)i * 4;
    if (b[0] > b[2] || b[1] > b[3]) return i;
  }
  const size_t rows = (size_t)p->max_detections * (size_t)p->max_classes_per_detection;
  memset(out_boxes, 0, rows * 4 * sizeof(float));
  memset(out_classes, 0, rows * sizeof(float));
  memset(out_scores, 0, rows * sizeof(float));
  work w;
  carve(n, p, scratch, &w);
  const int32_t count =
      p->use_regular_nms
          ? regular(boxes, scores, n, n_scores, p, &w, out_boxes, out_classes, out_scores)
          : fast(boxes, scores, n, n_scores, p, &w, out_boxes, out_classes, out_scores);
  *out_count = (float)count;
  return -1;
}
