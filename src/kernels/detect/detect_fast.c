/* TFLite_Detection_PostProcess, fast; the contract is in detect_fast.h. */
#include "kernels/detect/detect_fast.h"

#include <string.h>

/* std::max / std::min (NaN handling included), as the reference's. */
static float maxf(float a, float b) { return a < b ? b : a; }
static float minf(float a, float b) { return b < a ? b : a; }

typedef struct fwork {
  float *area;      /* n: box areas, once decoded */
  uint8_t *decoded; /* n */
  float *best;      /* n: float scores: each box's maximum (fast mode) */
  uint8_t *rank;    /* n: codes: each box's maximum rank (fast mode) */
  /* n: float scores: the first maximum's class (fast mode); codes: order_by_rank's passing
   * boxes */
  int32_t *best_cls;
  int32_t *cand;                                /* n: candidates in order, or the heap */
  int32_t *sel;                                 /* n: selected boxes */
  int32_t *hist;                                /* 257 */
  int32_t *m_anchor, *m_cls, *t_anchor, *t_cls; /* max_det + n (regular) */
  float *m_score, *t_score;                     /* max_det + n */
  float *row;                                   /* num_classes */
  int32_t *row_idx;                             /* num_classes */
  float *sy0, *sx0, *sy1, *sx1, *sarea;         /* n: the selected boxes, one array per field */
} fwork;

static size_t carve(int32_t n, const tfcc_detect_params *p, void *base, fwork *w) {
  const size_t nn = (size_t)(n > 0 ? n : 1);
  const size_t nm = nn + (size_t)(p->max_detections > 0 ? p->max_detections : 0);
  const size_t nc = (size_t)(p->num_classes > 0 ? p->num_classes : 1);
  const size_t sizes[21] = {nn * 4,  nn,     nn * 4, nn,     nn * 4, nn * 4, nn * 4,
                            257 * 4, nm * 4, nm * 4, nm * 4, nm * 4, nm * 4, nm * 4,
                            nc * 4,  nc * 4, nn * 4, nn * 4, nn * 4, nn * 4, nn * 4};
  void **slots[21] = {(void **)&w->area,    (void **)&w->decoded,  (void **)&w->best,
                      (void **)&w->rank,    (void **)&w->best_cls, (void **)&w->cand,
                      (void **)&w->sel,     (void **)&w->hist,     (void **)&w->m_anchor,
                      (void **)&w->m_cls,   (void **)&w->t_anchor, (void **)&w->t_cls,
                      (void **)&w->m_score, (void **)&w->t_score,  (void **)&w->row,
                      (void **)&w->row_idx, (void **)&w->sy0,      (void **)&w->sx0,
                      (void **)&w->sy1,     (void **)&w->sx1,      (void **)&w->sarea};
  return tfcc_detect_carve(base, sizes, slots, 21);
}

size_t tfcc_detect_fast_scratch_bytes(int32_t n, int32_t n_scores, const tfcc_detect_params *p) {
  (void)n_scores;
  fwork w;
  const size_t fast = carve(n, p, NULL, &w), ref = tfcc_detect_scratch_bytes(n, p);
  return fast > ref ? fast : ref;
}

typedef struct fctx {
  const tfcc_detect_in *in;
  const tfcc_detect_params *p;
  float *boxes;
  fwork w;
  int32_t label_off;
} fctx;

static float box_area(const float *b) { return (b[2] - b[0]) * (b[3] - b[1]); }

static void ensure_box(fctx *c, int32_t i) {
  if (c->w.decoded[i]) return;
  const tfcc_detect_in *in = c->in;
  float *b = c->boxes + (size_t)i * 4;
  tfcc_detect_decode(in->enc + (size_t)i * (size_t)in->enc_stride, in->enc_stride,
                     in->anchors + (size_t)i * 4, 1, c->p, b);
  c->w.area[i] = box_area(b);
  c->w.decoded[i] = 1;
}

/* Whether candidate a survives the n_sel boxes selected so far: the reference's
 * iou(selected, candidate) > iou_threshold for none of them (the same float expressions, the
 * areas computed once), in branch-free blocks of 64 selected boxes, newest first, that the
 * compiler vectorises. */
enum { SEL_BLOCK = 64 };

static bool survives(fctx *c, int32_t a, int32_t n_sel) {
  ensure_box(c, a);
  const float *bj = c->boxes + (size_t)a * 4;
  const float aj = c->w.area[a], thr = c->p->iou_threshold;
  const fwork *w = &c->w;
  const int zero_hits = 0.0f > thr, aj_zero = aj <= 0;
  int32_t hi = n_sel;
  while (hi > 0) {
    const int32_t b = hi > SEL_BLOCK ? hi - SEL_BLOCK : 0;
    int hit = 0;
    for (int32_t i = b; i < hi; i++) {
      const float ymin = maxf(w->sy0[i], bj[0]), xmin = maxf(w->sx0[i], bj[1]);
      const float ymax = minf(w->sy1[i], bj[2]), xmax = minf(w->sx1[i], bj[3]);
      const float inter = maxf(ymax - ymin, 0.0f) * maxf(xmax - xmin, 0.0f);
      const float q = inter / (w->sarea[i] + aj - inter);
      const int zero = (w->sarea[i] <= 0) | aj_zero;
      hit |= (zero & zero_hits) | ((zero ^ 1) & (q > thr));
    }
    if (hit) return false;
    hi = b;
  }
  return true;
}

/* Records box a as selection number s. */
static void keep(fctx *c, int32_t a, int32_t s) {
  fwork *w = &c->w;
  const float *b = c->boxes + (size_t)a * 4;
  w->sel[s] = a;
  w->sy0[s] = b[0];
  w->sx0[s] = b[1];
  w->sy1[s] = b[2];
  w->sx1[s] = b[3];
  w->sarea[s] = w->area[a];
}

/* Greedy selection over cand[0, kept) (already in order): up to max_out into w.sel. */
static int32_t select_ordered(fctx *c, int32_t kept, int32_t max_out) {
  int32_t n_sel = 0;
  for (int32_t i = 0; i < kept && n_sel < max_out; i++) {
    const int32_t a = c->w.cand[i];
    if (survives(c, a, n_sel)) keep(c, a, n_sel++);
  }
  return n_sel;
}

/* Float scores: a binary heap of box indices, the best on top (score descending, index
 * ascending: the stable sort's order). */
static bool before(const float *s, int32_t a, int32_t b) {
  return s[a] > s[b] || (s[a] == s[b] && a < b);
}

static void heap_down(int32_t *h, int32_t len, int32_t i, const float *s) {
  const int32_t x = h[i];
  for (;;) {
    int32_t child = 2 * i + 1;
    if (child >= len) break;
    if (child + 1 < len && before(s, h[child + 1], h[child])) child++;
    if (!before(s, h[child], x)) break;
    h[i] = h[child];
    i = child;
  }
  h[i] = x;
}

/* Greedy selection over the heap cand[0, kept) on scores s[box]. */
static int32_t select_heap(fctx *c, int32_t kept, int32_t max_out, const float *s) {
  int32_t *h = c->w.cand;
  for (int32_t i = kept / 2 - 1; i >= 0; i--) heap_down(h, kept, i, s);
  int32_t n_sel = 0, len = kept;
  while (len > 0 && n_sel < max_out) {
    const int32_t a = h[0];
    h[0] = h[--len];
    if (len > 1) heap_down(h, len, 0, s);
    if (survives(c, a, n_sel)) keep(c, a, n_sel++);
  }
  return n_sel;
}

/* Codes: the smallest rank whose score passes the threshold (256: none). */
static int32_t threshold_rank(const float *code_score, float thr) {
  int32_t r = 0;
  while (r < 256 && !(code_score[r] >= thr)) r++;
  return r;
}

/* Counting sort of the boxes whose rank (rank[box * stride], its top bit flipped for int8)
 * is >= lo into cand, by rank descending, ties by index; returns how many. One pass over the
 * ranks gathers the passing boxes (in index order, into w.best_cls) and counts them. */
static int32_t order_by_rank(fctx *c, const uint8_t *rank, size_t stride, int32_t lo, bool flip) {
  int32_t *hist = c->w.hist, *pass = c->w.best_cls;
  const int32_t n = c->in->n;
  const uint8_t x = flip ? 0x80 : 0;
  memset(hist + lo, 0, (size_t)(256 - lo) * sizeof(int32_t));
  int32_t kept = 0;
  for (int32_t i = 0; i < n; i++) {
    const int32_t r = rank[(size_t)i * stride] ^ x;
    if (r >= lo) {
      hist[r]++;
      pass[kept++] = i;
    }
  }
  if (kept == 0) return 0;
  for (int32_t r = 255, at = 0; r >= lo; r--) { /* hist[r] becomes rank r's first slot */
    const int32_t cnt = hist[r];
    hist[r] = at;
    at += cnt;
  }
  for (int32_t k = 0; k < kept; k++) {
    const int32_t i = pass[k];
    c->w.cand[hist[rank[(size_t)i * stride] ^ x]++] = i;
  }
  return kept;
}

static void put_row(float *ob, float *oc, float *os, int32_t row, const float *box, int32_t cls,
                    float score) {
  memcpy(ob + (size_t)row * 4, box, 4 * sizeof(float));
  oc[row] = (float)cls;
  os[row] = score;
}

/* The maximum rank of each box's class codes. */
static void row_max_ranks(fctx *c) {
  const tfcc_detect_in *in = c->in;
  const int32_t nc = c->p->num_classes;
  for (int32_t i = 0; i < in->n; i++) {
    const size_t at = (size_t)i * (size_t)in->n_scores + (size_t)c->label_off;
    if (in->codes_signed) {
      const int8_t *r = (const int8_t *)(const void *)(in->codes + at);
      int8_t m = -128;
      for (int32_t k = 0; k < nc; k++) m = r[k] > m ? r[k] : m;
      c->w.rank[i] = (uint8_t)(m + 128);
    } else {
      const uint8_t *r = in->codes + at;
      uint8_t m = 0;
      for (int32_t k = 0; k < nc; k++) m = r[k] > m ? r[k] : m;
      c->w.rank[i] = m;
    }
  }
}

/* Box a's class scores as floats into w.row (codes through the table). */
static const float *class_scores(fctx *c, int32_t a) {
  const tfcc_detect_in *in = c->in;
  const size_t at = (size_t)a * (size_t)in->n_scores + (size_t)c->label_off;
  if (in->scores) return in->scores + at;
  const uint8_t flip = in->codes_signed ? 0x80 : 0;
  for (int32_t k = 0; k < c->p->num_classes; k++)
    c->w.row[k] = in->code_score[in->codes[at + (size_t)k] ^ flip];
  return c->w.row;
}

/* Fast mode; returns the detections, or -1 to run the reference (float NaN with top-k). */
static int32_t fast_mode(fctx *c, float *ob, float *oc, float *os) {
  const tfcc_detect_in *in = c->in;
  const tfcc_detect_params *p = c->p;
  const int32_t n = in->n, nc = p->num_classes;
  const int32_t k = p->max_classes_per_detection < nc ? p->max_classes_per_detection : nc;
  int32_t n_sel;
  if (!in->scores) {
    row_max_ranks(c);
    const int32_t lo = threshold_rank(in->code_score, p->score_threshold);
    const int32_t kept = lo > 255 ? 0 : order_by_rank(c, c->w.rank, 1, lo, false);
    n_sel = select_ordered(c, kept, p->max_detections);
  } else {
    int32_t kept = 0;
    for (int32_t i = 0; i < n; i++) {
      const float *v = in->scores + (size_t)i * (size_t)in->n_scores + (size_t)c->label_off;
      int32_t b = 0;
      bool nan = v[0] != v[0];
      for (int32_t j = 1; j < nc; j++) {
        if (v[j] > v[b]) b = j;
        nan |= v[j] != v[j];
      }
      if (nan && k > 1) return -1;
      c->w.best_cls[i] = b;
      c->w.best[i] = v[b];
      if (v[b] >= p->score_threshold) c->w.cand[kept++] = i;
    }
    n_sel = select_heap(c, kept, p->max_detections, c->w.best);
  }
  for (int32_t s = 0; s < n_sel; s++) {
    const int32_t a = c->w.sel[s];
    const float *box = c->boxes + (size_t)a * 4;
    const float *v = class_scores(c, a);
    if (k == 1) {
      int32_t b = 0;
      if (in->scores) {
        b = c->w.best_cls[a];
      } else { /* the first class of the maximum code */
        const float top = in->code_score[c->w.rank[a]];
        while (v[b] != top) b++;
      }
      put_row(ob, oc, os, p->max_classes_per_detection * s, box, b, v[b]);
    } else {
      tfcc_detect_partial_argsort(v, nc, k, c->w.row_idx);
      for (int32_t j = 0; j < k; j++)
        put_row(ob, oc, os, p->max_classes_per_detection * s + j, box, c->w.row_idx[j],
                v[c->w.row_idx[j]]);
    }
  }
  return n_sel;
}

static int32_t regular_mode(fctx *c, float *ob, float *oc, float *os) {
  const tfcc_detect_in *in = c->in;
  const tfcc_detect_params *p = c->p;
  const int32_t n = in->n;
  const int32_t lo = in->scores ? 0 : threshold_rank(in->code_score, p->score_threshold);
  fwork *w = &c->w;
  int32_t size_sorted = 0;
  for (int32_t col = 0; col < p->num_classes; col++) {
    const size_t at = (size_t)(col + c->label_off), stride = (size_t)in->n_scores;
    int32_t n_sel;
    if (in->scores) {
      /* the column's scores, by box, in w.best */
      int32_t kept = 0;
      for (int32_t i = 0; i < n; i++) {
        const float v = in->scores[(size_t)i * stride + at];
        w->best[i] = v;
        if (v >= p->score_threshold) w->cand[kept++] = i;
      }
      n_sel = select_heap(c, kept, p->detections_per_class, w->best);
    } else {
      const int32_t kept =
          lo > 255 ? 0 : order_by_rank(c, in->codes + at, stride, lo, in->codes_signed);
      n_sel = select_ordered(c, kept, p->detections_per_class);
    }
    if (n_sel == 0) continue;
    /* stable merge of the running list and this class's selections (both descending; equal
     * scores: the running list first), the first max_detections kept */
    const uint8_t flip = in->codes_signed ? 0x80 : 0;
    int32_t a = 0, b = 0, o = 0;
    float sb = 0.0f;
    bool have_b = false;
    while (o < p->max_detections && (a < size_sorted || b < n_sel)) {
      if (b < n_sel && !have_b) {
        const int32_t box = w->sel[b];
        sb =
            in->scores ? w->best[box] : in->code_score[in->codes[(size_t)box * stride + at] ^ flip];
        have_b = true;
      }
      if (b < n_sel && (a >= size_sorted || sb > w->m_score[a])) {
        w->t_anchor[o] = w->sel[b];
        w->t_cls[o] = col;
        w->t_score[o++] = sb;
        b++;
        have_b = false;
      } else {
        w->t_anchor[o] = w->m_anchor[a];
        w->t_cls[o] = w->m_cls[a];
        w->t_score[o++] = w->m_score[a++];
      }
    }
    memcpy(w->m_anchor, w->t_anchor, sizeof(int32_t) * (size_t)o);
    memcpy(w->m_cls, w->t_cls, sizeof(int32_t) * (size_t)o);
    memcpy(w->m_score, w->t_score, sizeof(float) * (size_t)o);
    size_sorted = o;
  }
  for (int32_t r = 0; r < size_sorted; r++)
    put_row(ob, oc, os, r, c->boxes + (size_t)w->m_anchor[r] * 4, w->m_cls[r], w->m_score[r]);
  return size_sorted;
}

int32_t tfcc_detect_fast(const tfcc_detect_in *in, const tfcc_detect_params *p, void *scratch,
                         float *boxes, float *out_boxes, float *out_classes, float *out_scores,
                         float *out_count) {
  const int32_t n = in->n;
  fctx c = {.in = in, .p = p, .boxes = boxes, .label_off = in->n_scores - p->num_classes};
  carve(n, p, scratch, &c.w);
  bool lazy = true;
  for (int32_t i = 0; i < n && lazy; i++)
    lazy = in->anchors[(size_t)i * 4 + 2] > 0.0f && in->anchors[(size_t)i * 4 + 3] > 0.0f;
  if (lazy) {
    memset(c.w.decoded, 0, (size_t)n);
  } else { /* decode and validate all, as the reference */
    tfcc_detect_decode(in->enc, in->enc_stride, in->anchors, n, p, boxes);
    for (int32_t i = 0; i < n; i++) {
      const float *b = boxes + (size_t)i * 4;
      if (b[0] > b[2] || b[1] > b[3]) return i;
      c.w.area[i] = box_area(b);
    }
    memset(c.w.decoded, 1, (size_t)n);
  }
  const size_t rows = (size_t)p->max_detections * (size_t)p->max_classes_per_detection;
  memset(out_boxes, 0, rows * 4 * sizeof(float));
  memset(out_classes, 0, rows * sizeof(float));
  memset(out_scores, 0, rows * sizeof(float));
  int32_t count = p->use_regular_nms ? regular_mode(&c, out_boxes, out_classes, out_scores)
                                     : fast_mode(&c, out_boxes, out_classes, out_scores);
  if (count < 0) { /* the reference (float scores with a NaN, top-k classes) */
    if (lazy) tfcc_detect_decode(in->enc, in->enc_stride, in->anchors, n, p, boxes);
    return tfcc_detect_nms(boxes, in->scores, n, in->n_scores, p, scratch, out_boxes, out_classes,
                           out_scores, out_count);
  }
  *out_count = (float)count;
  return -1;
}
