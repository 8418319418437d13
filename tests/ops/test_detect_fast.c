/* The fast TFLite_Detection_PostProcess kernel (kernels/detect/detect_fast.h) against its
 * reference twin (tfcc_detect_decode + tfcc_detect_nms), byte for byte, on random cases:
 * float scores (with ties, -0 / +0, NaN), uint8 and int8 codes (few distinct codes: ties
 * everywhere), with and without a background column, fast and regular NMS, one or several
 * classes per detection (more than num_classes too), detections_per_class 0..n, thresholds
 * that keep everything / nothing, box scales, clustered boxes (many overlaps), duplicated
 * boxes (IoU exactly 1), zero-size and inverted anchors (the ValidateBoxes error must name the
 * same box). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/detect/detect_fast.h"
#include "kernels/detect/detect_postprocess.h"
#include "kernels/detect/nms.h"
#include "test_harness.h"

static uint32_t rng = 20261204u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t randi(int32_t lo, int32_t hi) {
  return lo + (int32_t)(urand() % (uint32_t)(hi - lo + 1));
}
static float randf(float lo, float hi) {
  return lo + (hi - lo) * (float)(urand() & 0xFFFF) / 65535.f;
}

typedef struct det_case {
  int32_t n, n_scores, enc_stride;
  tfcc_detect_params p;
  int kind; /* 0 float, 1 uint8, 2 int8 */
  float *enc, *anchors, *scores;
  uint8_t *codes;
  float code_score[256];
} det_case;

static void make_case(det_case *c, int iter) {
  c->n = randi(1, iter % 7 == 0 ? 600 : 120);
  tfcc_detect_params *p = &c->p;
  memset(p, 0, sizeof *p);
  p->num_classes = randi(1, iter % 5 == 0 ? 40 : 6);
  c->n_scores = p->num_classes + (urand() % 2 ? 1 : 0);
  c->enc_stride = 4 + randi(0, 2);
  p->max_detections = randi(1, 25);
  p->max_classes_per_detection = urand() % 2 ? 1 : randi(1, p->num_classes + 2);
  p->detections_per_class = randi(0, 30);
  p->use_regular_nms = urand() % 2;
  const int thr = randi(0, 5);
  p->score_threshold = thr == 0 ? -INFINITY : thr == 1 ? 1e-8f : thr == 2 ? 2.0f : randf(0.f, 0.9f);
  const int it = randi(0, 15); /* <= 0: refused by the options reader, the kernels agree */
  p->iou_threshold = it < 12 ? randf(0.05f, 1.0f) : it < 14 ? 1.0f : it == 14 ? 0.0f : -0.5f;
  const float sc[4] = {10.f, 5.f, 1.f, 2.5f};
  p->y_scale = sc[urand() % 4];
  p->x_scale = sc[urand() % 4];
  p->h_scale = sc[urand() % 4];
  p->w_scale = sc[urand() % 4];
  c->kind = randi(0, 2);
  const size_t n = (size_t)c->n, ns = (size_t)c->n_scores;
  c->enc = malloc(n * (size_t)c->enc_stride * sizeof(float));
  c->anchors = malloc(n * 4 * sizeof(float));
  c->scores = malloc(n * ns * sizeof(float));
  c->codes = malloc(n * ns);
  const bool cluster = urand() % 2;
  const int anchor_kind = randi(0, 9); /* 0: one inverted anchor, 1: zero-size ones */
  for (size_t i = 0; i < n; i++) {
    float *a = c->anchors + i * 4;
    a[0] = cluster ? randf(0.4f, 0.6f) : randf(0.f, 1.f);
    a[1] = cluster ? randf(0.4f, 0.6f) : randf(0.f, 1.f);
    a[2] = randf(0.02f, cluster ? 0.5f : 0.3f);
    a[3] = randf(0.02f, cluster ? 0.5f : 0.3f);
    if (anchor_kind == 1 && urand() % 8 == 0) a[2 + urand() % 2] = 0.0f;
    for (int k = 0; k < c->enc_stride; k++)
      c->enc[i * (size_t)c->enc_stride + (size_t)k] = urand() % 8 ? randf(-1.f, 1.f) : 0.0f;
  }
  if (urand() % 2) /* duplicated boxes: IoU exactly 1 (iou_threshold 1 decides on equality) */
    for (size_t i = 1; i < n; i++)
      if (urand() % 4 == 0) {
        const size_t j = (size_t)randi(0, (int32_t)i - 1);
        memcpy(c->anchors + i * 4, c->anchors + j * 4, 4 * sizeof(float));
        memcpy(c->enc + i * (size_t)c->enc_stride, c->enc + j * (size_t)c->enc_stride,
               (size_t)c->enc_stride * sizeof(float));
      }
  if (anchor_kind == 0) c->anchors[(size_t)randi(0, c->n - 1) * 4 + 2 + urand() % 2] = -0.1f;
  /* scores */
  const int levels = urand() % 3 == 0 ? 3 : urand() % 2 ? 12 : 255;
  if (c->kind == 0) {
    for (size_t i = 0; i < n * ns; i++) {
      float v = (float)randi(0, levels) / (float)levels;
      const uint32_t s = urand() % 200;
      if (s == 0) v = -0.0f;
      if (s < 3 && iter % 3 == 0) v = NAN;
      c->scores[i] = v;
    }
  } else {
    const double scale = 1.0 / randf(100.f, 300.f);
    const int32_t zp = c->kind == 1 ? randi(0, 20) : randi(-128, -100);
    for (int r = 0; r < 256; r++) {
      const int32_t v = c->kind == 1 ? r : r - 128;
      c->code_score[r] = (float)(scale * (double)(v - zp));
    }
    for (size_t i = 0; i < n * ns; i++) {
      const int32_t rank = levels == 255 ? randi(0, 255) : randi(0, levels) * (255 / levels);
      c->codes[i] = (uint8_t)(c->kind == 1 ? rank : rank ^ 0x80);
      c->scores[i] = c->code_score[rank]; /* the reference's dequantized scores */
    }
  }
}

static void free_case(det_case *c) {
  free(c->enc);
  free(c->anchors);
  free(c->scores);
  free(c->codes);
}

static void test_detect_fast_vs_reference(void) {
  int64_t detections = 0;
  int errors = 0;
  for (int iter = 0; iter < 1500; iter++) {
    det_case c;
    make_case(&c, iter);
    const tfcc_detect_params *p = &c.p;
    const size_t n = (size_t)c.n;
    const size_t rows = (size_t)p->max_detections * (size_t)p->max_classes_per_detection;
    float *ref_boxes = malloc(n * 4 * sizeof(float)), *fast_boxes = malloc(n * 4 * sizeof(float));
    float *ro = calloc(rows * 6 + 1, sizeof(float)), *fo = calloc(rows * 6 + 1, sizeof(float));
    void *ref_scratch = malloc(tfcc_detect_scratch_bytes(c.n, p) + 8);
    void *fast_scratch = malloc(tfcc_detect_fast_scratch_bytes(c.n, c.n_scores, p) + 8);
    /* reference: the encodings' first 4 columns, all boxes decoded */
    tfcc_detect_decode(c.enc, c.enc_stride, c.anchors, c.n, p, ref_boxes);
    const int32_t rr = tfcc_detect_nms(ref_boxes, c.scores, c.n, c.n_scores, p, ref_scratch, ro,
                                       ro + rows * 4, ro + rows * 5, ro + rows * 6);
    tfcc_detect_in in = {.n = c.n,
                         .n_scores = c.n_scores,
                         .enc = c.enc,
                         .enc_stride = c.enc_stride,
                         .anchors = c.anchors,
                         .scores = c.kind == 0 ? c.scores : NULL,
                         .codes = c.kind == 0 ? NULL : c.codes,
                         .codes_signed = c.kind == 2,
                         .code_score = c.code_score};
    const int32_t fr = tfcc_detect_fast(&in, p, fast_scratch, fast_boxes, fo, fo + rows * 4,
                                        fo + rows * 5, fo + rows * 6);
    CHECKF(rr == fr, "case %d: reference returns %d, fast %d", iter, (int)rr, (int)fr);
    if (rr >= 0) {
      errors++;
      CHECKF(memcmp(ref_boxes, fast_boxes, n * 4 * sizeof(float)) == 0,
             "case %d: decoded boxes differ", iter);
    } else {
      detections += (int64_t)ro[rows * 6];
      CHECKF(memcmp(ro, fo, (rows * 6 + 1) * sizeof(float)) == 0,
             "case %d (n %d, classes %d/%d, kind %d, regular %d, max_det %d, per det %d, per class "
             "%d, thr %g, iou %g): outputs differ (count %g vs %g)",
             iter, c.n, p->num_classes, c.n_scores, c.kind, (int)p->use_regular_nms,
             p->max_detections, p->max_classes_per_detection, p->detections_per_class,
             (double)p->score_threshold, (double)p->iou_threshold, (double)ro[rows * 6],
             (double)fo[rows * 6]);
    }
    free(ref_boxes);
    free(fast_boxes);
    free(ro);
    free(fo);
    free(ref_scratch);
    free(fast_scratch);
    free_case(&c);
  }
  printf("detect fast vs reference: %lld detections, %d inverted-box errors\n",
         (long long)detections, errors);
  CHECK(detections > 10000 && errors > 50);
}

/* NON_MAX_SUPPRESSION_V4 / V5: tfcc_nms_fast against tfcc_nms on random boxes (corners in
 * either order, clusters, duplicates, zero-size, the odd NaN), scores with ties, thresholds
 * of every sign (IoU <= 0, 1 and > 1, NaN; score -FLT_MAX), hard and soft (sigma > 0),
 * max_output from 0 to past n; more than 64 selected boxes (several blocks). */
static void test_nms_fast_vs_reference(void) {
  int64_t selected = 0;
  for (int iter = 0; iter < 1500; iter++) {
    const int32_t n = randi(1, iter % 10 == 0 ? 1500 : 200);
    float *boxes = malloc((size_t)n * 4 * sizeof(float)), *scores = malloc((size_t)n * 4);
    const bool cluster = urand() % 2, dups = urand() % 2;
    const bool hostile = iter % 11 == 0; /* zero-size and NaN boxes, IoU threshold <= 0 */
    const int levels = urand() % 2 ? 5 : 1000;
    for (int32_t i = 0; i < n; i++) {
      float *b = boxes + (size_t)i * 4;
      const float cy = cluster ? randf(0.3f, 0.7f) : randf(0.f, 1.f);
      const float cx = cluster ? randf(0.3f, 0.7f) : randf(0.f, 1.f);
      const float h = urand() % (hostile ? 4 : 50) ? randf(0.f, 0.3f) : 0.0f, w = randf(0.f, 0.3f);
      b[0] = cy - h;
      b[1] = cx - w;
      b[2] = cy + h;
      b[3] = cx + w;
      if (urand() % 3 == 0) { /* corners swapped */
        const float t = b[0];
        b[0] = b[2];
        b[2] = t;
      }
      if ((iter % 7 == 0 && urand() % 100 == 0) || (hostile && urand() % 8 == 0))
        b[urand() % 4] = NAN;
      if (dups && i > 0 && urand() % 4 == 0)
        memcpy(b, boxes + (size_t)randi(0, i - 1) * 4, 4 * sizeof(float));
      scores[i] = (float)randi(0, levels) / (float)levels;
      if (iter % 5 == 0 && urand() % 100 == 0) scores[i] = NAN;
    }
    const int t = hostile ? randi(0, 1) : randi(0, 9);
    const float iou = t == 0                    ? 0.0f
                      : t == 1                  ? -0.5f
                      : t == 2                  ? 1.0f
                      : t == 3                  ? 1.5f
                      : t == 4 && iter % 4 == 0 ? NAN
                                                : randf(0.1f, 0.9f);
    const int u = randi(0, 3);
    const float score = u == 0 ? -3.40282347e+38f : u == 1 ? 0.0f : randf(0.f, 0.8f);
    const float sigma = urand() % 2 ? 0.0f : randf(0.05f, 1.0f);
    const int32_t max_out = urand() % 3 == 0 ? n + randi(0, 5) : randi(0, n);
    const size_t mo = (size_t)(max_out > 0 ? max_out : 1);
    void *w1 = malloc(tfcc_nms_scratch_bytes(n)), *w2 = malloc(tfcc_nms_fast_scratch_bytes(n));
    int32_t *s1 = calloc(mo, 4), *s2 = calloc(mo, 4);
    float *f1 = calloc(mo, 4), *f2 = calloc(mo, 4);
    const int32_t c1 = tfcc_nms(boxes, scores, n, max_out, iou, score, sigma, w1, s1, f1);
    const int32_t c2 = tfcc_nms_fast(boxes, scores, n, max_out, iou, score, sigma, w2, s2, f2);
    selected += c1;
    CHECKF(c1 == c2 && memcmp(s1, s2, mo * 4) == 0 && memcmp(f1, f2, mo * 4) == 0,
           "case %d (n %d, max_out %d, iou %g, score %g, sigma %g): %d vs %d selected, or "
           "other indices / scores",
           iter, n, max_out, (double)iou, (double)score, (double)sigma, c1, c2);
    free(boxes);
    free(scores);
    free(w1);
    free(w2);
    free(s1);
    free(s2);
    free(f1);
    free(f2);
  }
  /* a zero-size box selected first suppresses a NaN box at IoU threshold <= 0 (its IoU is 0,
   * the NaN box's with any other box NaN) */
  const float zb[12] = {0.5f, 0.1f, 0.5f, 0.3f, NAN, 0.1f, 0.6f, 0.3f, 0.2f, 0.2f, 0.4f, 0.4f};
  const float zs[3] = {0.9f, 0.8f, 0.7f};
  uint8_t w1[256], w2[256];
  int32_t s1[4] = {0}, s2[4] = {0};
  for (int k = 0; k < 2; k++) {
    const float thr = k ? -0.5f : 0.0f;
    const int32_t c1 = tfcc_nms(zb, zs, 3, 4, thr, -1.0f, 0.0f, w1, s1, NULL);
    const int32_t c2 = tfcc_nms_fast(zb, zs, 3, 4, thr, -1.0f, 0.0f, w2, s2, NULL);
    CHECKF(c1 == 1 && c2 == 1 && s2[0] == 0, "zero-size box first: %d / %d selected", c1, c2);
  }
  printf("nms fast vs reference: %lld selected\n", (long long)selected);
  CHECK(selected > 50000);
}

int main(void) {
  test_detect_fast_vs_reference();
  test_nms_fast_vs_reference();
  return tfcc_test_finish("detect_fast");
}
