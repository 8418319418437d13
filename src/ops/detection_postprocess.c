/* TFLite_Detection_PostProcess (custom operator every standard TFLite build registers):
 * SSD box decoding against anchors, then fast or regular multi-class non-max suppression
 * (kernels/detect/detect_postprocess.h has the arithmetic).
 *   inputs   box encodings [1, n, >= 4], class predictions [1, n, num_classes (+1 background)],
 *            anchors [n, 4] (y, x, h, w); each float32, uint8 or int8 (per-tensor quantized;
 *            TFLite's kernel fails at eval on int8, tfcc dequantizes it as it does uint8)
 *   outputs  float32 boxes [1, rows, 4] (ymin, xmin, ymax, xmax), classes [1, rows],
 *            scores [1, rows], count [1]; rows = max_detections * max_classes_per_detection,
 *            set at prepare as TFLite does (the file usually declares no shape); rows past
 *            the count are zero
 *   options  node->opts.detect, read at load from the FlexBuffer map in custom_options
 *            (format/tflite_custom_options.c): max_detections, max_classes_per_detection,
 *            detections_per_class (default 100), use_regular_nms (default false),
 *            nms_score_threshold, nms_iou_threshold (in (0, 1]), num_classes, y_scale,
 *            x_scale, h_scale, w_scale. TFLite reads a missing key as 0; here the keys without
 *            a default are required.
 * Runs kernels/detect/detect_fast.h (`detect-fast-codes`: uint8 / int8 scores taken as codes
 * when their score table is strictly increasing; `detect-fast`: float scores);
 * tfcc_detect_decode + tfcc_detect_nms are its reference twin (byte-identical outputs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/detect/detect_fast.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

#define OP "TFLite_Detection_PostProcess"

typedef struct qparams {
  tfcc_dtype dtype;
  float scale;
  int32_t zp;
} qparams;

typedef struct detect_op {
  tfcc_detect_params p;
  qparams in[3]; /* box encodings, class predictions, anchors */
  /* quantized class predictions: the score of each code by rank (uint8: the code; int8: the
   * code + 128), TFLite's reference Dequantize (float)(scale * (q - zp)) in double */
  float score_of_rank[256];
  bool codes; /* the table is strictly increasing: the kernel works on the codes */
} detect_op;

/* Scratch layout: decoded boxes, then dequantized inputs (those not float32), then the
 * kernel's work area. */
typedef struct layout {
  size_t boxes, enc, anchors, scores, work, total;
} layout;

static size_t al64(size_t b) { return (b + 63) & ~(size_t)63; }

static layout layout_of(const detect_op *d, int32_t n, int32_t n_scores) {
  layout l;
  const size_t box_bytes = (size_t)n * 4 * sizeof(float);
  l.boxes = 0;
  size_t off = al64(box_bytes);
  l.enc = off;
  if (d->in[0].dtype != TFCC_FLOAT32) off += al64(box_bytes);
  l.anchors = off;
  if (d->in[2].dtype != TFCC_FLOAT32) off += al64(box_bytes);
  l.scores = off;
  if (d->in[1].dtype != TFCC_FLOAT32 && !d->codes)
    off += al64((size_t)n * (size_t)n_scores * sizeof(float));
  l.work = off;
  l.total = off + al64(tfcc_detect_fast_scratch_bytes(n, n_scores, &d->p));
  return l;
}

/* ---------------------------------------------------------------- init / prepare / eval */

static const char *const k_input_names[3] = {"box encodings", "class predictions", "anchors"};

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_ir_node *node = ctx->node;
  if (node->n_inputs != 3 || node->n_outputs != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "%d inputs and %d outputs, expected 3 "
                        "(box encodings, class predictions, anchors) and 4",
                        (int)node->n_inputs, (int)node->n_outputs);
  detect_op *d = calloc(1, sizeof *d);
  if (!d) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  tfcc_status st = TFCC_OK;
  if (node->opts.kind == TFCC_OPTIONS_DETECTION_POSTPROCESS)
    d->p = node->opts.detect;
  else /* the model reader fills them from the custom options (format/tflite_custom_options.c) */
    st = tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                      "no custom options (a FlexBuffer map of max_detections, num_classes, ... "
                      "is required)");
  for (int i = 0; i < 3 && st == TFCC_OK; i++) {
    const int32_t t = node->inputs[i];
    if (t < 0 || t >= ctx->sg->n_tensors) {
      st = tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "input %d (%s) is missing", i,
                        k_input_names[i]);
      break;
    }
    const tfcc_ir_tensor *x = &ctx->sg->tensors[t];
    qparams *q = &d->in[i];
    q->dtype = x->dtype;
    if (x->dtype == TFCC_FLOAT32) continue;
    if (x->dtype != TFCC_UINT8 && x->dtype != TFCC_INT8) {
      st = tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "input %d (%s) dtype %s, expected "
                        "float32, uint8 or int8",
                        i, k_input_names[i], tfcc_dtype_name(x->dtype));
      break;
    }
    if (x->quant.count != 1 || !(x->quant.scale[0] > 0.f) || !isfinite(x->quant.scale[0])) {
      st = tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "input %d (%s): %s needs one positive "
                        "per-tensor scale (has %d)",
                        i, k_input_names[i], tfcc_dtype_name(x->dtype), (int)x->quant.count);
      break;
    }
    q->scale = x->quant.scale[0];
    q->zp = x->quant.zero_point[0];
  }
  if (st) {
    free(d);
    return st;
  }
  if (d->in[1].dtype != TFCC_FLOAT32) {
    const qparams *q = &d->in[1];
    const double sc = q->scale;
    d->codes = true;
    for (int r = 0; r < 256; r++) {
      const int32_t v = q->dtype == TFCC_UINT8 ? r : r - 128;
      d->score_of_rank[r] = (float)(sc * (double)(v - q->zp));
      if (r > 0 && !(d->score_of_rank[r] > d->score_of_rank[r - 1])) d->codes = false;
    }
  }
  ctx->params = d;
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  const detect_op *d = (const detect_op *)ctx->params;
  if (!d) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "operator parameters missing");
  TFCC_OP_CHECK(ctx, ctx->n_in == 3 && ctx->n_out == 4, TFCC_ERR_INVALID_MODEL,
                "%d inputs and %d outputs, expected 3 and 4", (int)ctx->n_in, (int)ctx->n_out);
  for (int i = 0; i < 3; i++) {
    TFCC_OP_CHECK(ctx, ctx->in[i] != NULL, TFCC_ERR_INVALID_MODEL, "input %d (%s) is missing", i,
                  k_input_names[i]);
    TFCC_OP_CHECK(ctx, ctx->in[i]->dtype == d->in[i].dtype, TFCC_ERR_DTYPE,
                  "input %d (%s) dtype %s, model declared %s", i, k_input_names[i],
                  tfcc_dtype_name(ctx->in[i]->dtype), tfcc_dtype_name(d->in[i].dtype));
  }
  for (int i = 0; i < 4; i++) {
    TFCC_OP_CHECK(ctx, ctx->out[i] != NULL, TFCC_ERR_INVALID_MODEL, "output %d is missing", i);
    TFCC_OP_CHECK(ctx, ctx->out[i]->dtype == TFCC_FLOAT32, TFCC_ERR_DTYPE,
                  "output %d dtype %s, expected float32", i, tfcc_dtype_name(ctx->out[i]->dtype));
  }
  const tfcc_tensor *enc = ctx->in[0], *cls = ctx->in[1], *anc = ctx->in[2];
  TFCC_OP_CHECK(ctx, enc->rank == 3 && enc->dims[0] == 1 && enc->dims[2] >= 4, TFCC_ERR_SHAPE,
                "box encodings rank %d [%d, %d, ...], expected [1, boxes, >= 4]", (int)enc->rank,
                enc->rank > 0 ? (int)enc->dims[0] : 0, enc->rank > 1 ? (int)enc->dims[1] : 0);
  const int32_t n = enc->dims[1];
  TFCC_OP_CHECK(ctx, cls->rank == 3 && cls->dims[0] == 1 && cls->dims[1] == n, TFCC_ERR_SHAPE,
                "class predictions rank %d, expected [1, %d, classes]", (int)cls->rank, (int)n);
  const int32_t n_scores = cls->dims[2];
  TFCC_OP_CHECK(
      ctx, n_scores == d->p.num_classes || n_scores == d->p.num_classes + 1, TFCC_ERR_SHAPE,
      "class predictions have %d columns, num_classes is %d (expected "
      "%d or %d with background)",
      (int)n_scores, (int)d->p.num_classes, (int)d->p.num_classes, (int)d->p.num_classes + 1);
  TFCC_OP_CHECK(ctx, anc->rank == 2 && anc->dims[0] == n && anc->dims[1] == 4, TFCC_ERR_SHAPE,
                "anchors rank %d [%d, %d], expected [%d, 4]", (int)anc->rank,
                anc->rank > 0 ? (int)anc->dims[0] : 0, anc->rank > 1 ? (int)anc->dims[1] : 0,
                (int)n);
  const int32_t rows = d->p.max_detections * d->p.max_classes_per_detection;
  const int32_t box_dims[3] = {1, rows, 4}, row_dims[2] = {1, rows}, one[1] = {1};
  tfcc_status st;
  if ((st = tfcc_tensor_set_shape(ctx->out[0], 3, box_dims, ctx->err)) ||
      (st = tfcc_tensor_set_shape(ctx->out[1], 2, row_dims, ctx->err)) ||
      (st = tfcc_tensor_set_shape(ctx->out[2], 2, row_dims, ctx->err)) ||
      (st = tfcc_tensor_set_shape(ctx->out[3], 1, one, ctx->err)))
    return st;
  ctx->scratch_bytes = layout_of(d, n, n_scores).total;
  return TFCC_OK;
}

/* (x - zp) * scale in float, TFLite's Dequantizer of box encodings and anchors: the first
 * 4 values of each of n rows of `stride`. */
static void dequant_rows(const qparams *q, const void *src, int32_t n, int32_t stride, float *dst) {
  for (int32_t i = 0; i < n; i++)
    for (int c = 0; c < 4; c++) {
      const size_t k = (size_t)i * (size_t)stride + (size_t)c;
      const int32_t v =
          q->dtype == TFCC_UINT8 ? ((const uint8_t *)src)[k] : ((const int8_t *)src)[k];
      dst[(size_t)i * 4 + (size_t)c] = ((float)v - (float)q->zp) * q->scale;
    }
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const detect_op *d = (const detect_op *)ctx->params;
  const tfcc_tensor *enc = ctx->in[0], *cls = ctx->in[1], *anc = ctx->in[2];
  const int32_t n = enc->dims[1], n_scores = cls->dims[2];
  const layout l = layout_of(d, n, n_scores);
  if (ctx->scratch_bytes < l.total)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "scratch of %zu bytes, need %zu",
                        ctx->scratch_bytes, l.total);
  uint8_t *s = (uint8_t *)ctx->scratch;
  float *boxes = (float *)(void *)(s + l.boxes);
  const float *e = (const float *)enc->data, *a = (const float *)anc->data;
  int32_t e_stride = enc->dims[2];
  if (d->in[0].dtype != TFCC_FLOAT32) {
    float *t = (float *)(void *)(s + l.enc);
    dequant_rows(&d->in[0], enc->data, n, e_stride, t);
    e = t;
    e_stride = 4;
  }
  if (d->in[2].dtype != TFCC_FLOAT32) {
    float *t = (float *)(void *)(s + l.anchors);
    dequant_rows(&d->in[2], anc->data, n, 4, t);
    a = t;
  }
  tfcc_detect_in in = {.n = n,
                       .n_scores = n_scores,
                       .enc = e,
                       .enc_stride = e_stride,
                       .anchors = a,
                       .scores = (const float *)cls->data,
                       .codes_signed = d->in[1].dtype == TFCC_INT8,
                       .code_score = d->score_of_rank};
  if (d->in[1].dtype != TFCC_FLOAT32 && d->codes) {
    in.scores = NULL;
    in.codes = (const uint8_t *)cls->data;
  } else if (d->in[1].dtype != TFCC_FLOAT32) {
    /* a table with equal neighbours (a tiny scale): the scores dequantized, as the reference */
    float *t = (float *)(void *)(s + l.scores);
    const size_t count = (size_t)n * (size_t)n_scores;
    const uint8_t *q = (const uint8_t *)cls->data, flip = in.codes_signed ? 0x80 : 0;
    for (size_t k = 0; k < count; k++) t[k] = d->score_of_rank[q[k] ^ flip];
    in.scores = t;
  }
  const int32_t bad = tfcc_detect_fast(&in, &d->p, s + l.work, boxes, (float *)ctx->out[0]->data,
                                       (float *)ctx->out[1]->data, (float *)ctx->out[2]->data,
                                       (float *)ctx->out[3]->data);
  if (bad >= 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME,
                        "decoded box %d is inverted (ymin %g > ymax "
                        "%g or xmin %g > xmax %g): anchors with negative height or width?",
                        (int)bad, (double)boxes[bad * 4], (double)boxes[bad * 4 + 2],
                        (double)boxes[bad * 4 + 1], (double)boxes[bad * 4 + 3]);
  return TFCC_OK;
}

/* An estimate of the work (tfcc_op_info.macs; callers bounding a run, as fuzz_model_run, read
 * it): every score read and every box decoded once, then the IoUs of the non-max suppression,
 * each candidate against the boxes selected so far. Fast mode: one suppression of up to n
 * candidates keeping max_detections, then each kept box's classes ranked. Regular mode: one
 * suppression per class keeping detections_per_class, and a merge of max_detections rows per
 * class. Quadratic in the boxes: 40,000 boxes of 100 classes keeping 40,000 per class walk
 * 1.6e11 IoUs at most. */
static int64_t macs(const tfcc_op_ctx *ctx) {
  const detect_op *d = (const detect_op *)ctx->params;
  if (!d || ctx->n_in != 3 || !ctx->in[0] || !ctx->in[1]) return 0;
  const tfcc_tensor *enc = ctx->in[0], *cls = ctx->in[1];
  if (enc->rank != 3 || cls->rank != 3) return 0;
  const tfcc_detect_params *p = &d->p;
  const int64_t n = enc->dims[1], nc = p->num_classes;
  const int64_t read = tfcc_work_add(tfcc_work_mul(n, cls->dims[2]), n);
  if (p->use_regular_nms) {
    const int64_t keep = n < p->detections_per_class ? n : p->detections_per_class;
    const int64_t per_class =
        tfcc_work_add(tfcc_work_mul(n, keep), tfcc_work_add(2 * n, p->max_detections));
    return tfcc_work_add(read, tfcc_work_mul(nc, per_class));
  }
  const int64_t keep = n < p->max_detections ? n : p->max_detections;
  const int64_t k = p->max_classes_per_detection < nc ? p->max_classes_per_detection : nc;
  return tfcc_work_add(read, tfcc_work_add(tfcc_work_mul(n, keep), tfcc_work_mul3(keep, nc, k)));
}

/* The profile's kernel: scores taken as codes or as floats (kernels/detect/detect_fast.h). */
static const char *kernel(const tfcc_op_ctx *ctx) {
  const detect_op *d = (const detect_op *)ctx->params;
  return d && d->in[1].dtype != TFCC_FLOAT32 && d->codes ? "detect-fast-codes" : "detect-fast";
}

TFCC_OP_DEFINE(tfcc_op_detection_postprocess, OP, init, prepare, eval, .kernel = kernel,
               .macs = macs);
