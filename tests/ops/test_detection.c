/* The FlexBuffer reader of custom options, TFLite_Detection_PostProcess and
 * NON_MAX_SUPPRESSION_V4/V5 beyond their conformance cases (tests/ops/conformance, checked
 * against TensorFlow Lite): every slot width, hostile options (missing, truncated at every
 * length, wrong types, out of range), int8 inputs equal to their float dequantization, zeroed
 * rows past the count, inverted boxes, wrong dtypes / shapes, run-time max_output_size. */
#include "format/flexbuf.h"
#include "format/tflite_custom_options.h"
#include "kernels/detect/detect_postprocess.h"
#include "kernels/detect/nms.h"
#include "op_run.h"

/* ------------------------------------------------------------------ a FlexBuffer map writer */

typedef struct fx_val {
  const char *key;
  int kind; /* 0 int, 1 float, 2 bool, 3 null, 4 string */
  double v;
} fx_val;

static size_t fx_put(uint8_t *b, size_t at, uint64_t v, size_t w) {
  for (size_t i = 0; i < w; i++) b[at + i] = (uint8_t)(v >> (8 * i));
  return at + w;
}

/* Writes a map of vals (keys must be given sorted) with slot width w; returns its length. */
static size_t fx_map(uint8_t *b, const fx_val *vals, int n, size_t w) {
  size_t at = 0, key_at[16];
  for (int i = 0; i < n; i++) {
    key_at[i] = at;
    const size_t l = strlen(vals[i].key) + 1;
    memcpy(b + at, vals[i].key, l);
    at += l;
  }
  size_t str_at = 0;
  for (int i = 0; i < n; i++)
    if (vals[i].kind == 4) { /* one string value "ssd": length, bytes, NUL */
      while (at % w) b[at++] = 0;
      at = fx_put(b, at, 3, w);
      str_at = at;
      memcpy(b + at, "ssd", 4);
      at += 4;
    }
  while (at % w) b[at++] = 0;
  at = fx_put(b, at, (uint64_t)n, w);
  const size_t keys = at;
  for (int i = 0; i < n; i++) at = fx_put(b, at, keys + (size_t)i * w - key_at[i], w);
  const size_t hdr = at;
  at = fx_put(b, at, hdr - keys, w);
  at = fx_put(b, at, w, w);
  at = fx_put(b, at, (uint64_t)n, w);
  const size_t map = at;
  const uint8_t code = w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
  for (int i = 0; i < n; i++) {
    uint64_t bits = 0;
    if (vals[i].kind == 0 || vals[i].kind == 2) {
      bits = (uint64_t)(int64_t)vals[i].v;
    } else if (vals[i].kind == 1 && w == 4) {
      const float f = (float)vals[i].v;
      uint32_t u;
      memcpy(&u, &f, 4);
      bits = u;
    } else if (vals[i].kind == 1) {
      memcpy(&bits, &vals[i].v, 8);
    } else if (vals[i].kind == 4) {
      bits = at - str_at;
    }
    at = fx_put(b, at, bits, w);
  }
  static const uint8_t types[5] = {1, 3, 26, 0, 5};
  for (int i = 0; i < n; i++)
    b[at++] = (uint8_t)(types[vals[i].kind] << 2 | (vals[i].kind == 3 ? 0 : code));
  while (at % w) b[at++] = 0;
  const size_t root = at;
  at = fx_put(b, at, root - map, w);
  b[at++] = (uint8_t)(9 << 2 | code);
  b[at++] = (uint8_t)w;
  return at;
}

static void test_flexbuf(void) {
  const fx_val vals[] = {
      {"alpha", 0, -7}, {"beta", 1, 0.5}, {"flag", 2, 1}, {"nothing", 3, 0}, {"zeta", 0, 100}};
  static const size_t widths[4] = {1, 2, 4, 8};
  uint8_t buf[512];
  for (int k = 0; k < 4; k++) {
    const size_t w = widths[k];
    /* floats need 4 or 8 bytes: narrower maps carry only integers */
    const int n = 5;
    fx_val v[5];
    memcpy(v, vals, sizeof v);
    if (w < 4) v[1].kind = 0, v[1].v = 3;
    const size_t len = fx_map(buf, v, n, w);
    tfcc_err err = {0};
    tfcc_flex_ref root, r;
    CHECKF(tfcc_flex_root(buf, len, &root, &err) == TFCC_OK, "width %zu: %s", w, err.msg);
    CHECK(root.type == TFCC_FLEX_MAP);
    bool found = false;
    int64_t i64 = 0;
    double d = 0;
    CHECK(tfcc_flex_map_get(&root, "alpha", &r, &found, &err) == TFCC_OK && found);
    CHECK(tfcc_flex_as_int64(&r, "alpha", &i64, &err) == TFCC_OK && i64 == -7);
    CHECK(tfcc_flex_map_get(&root, "beta", &r, &found, &err) == TFCC_OK && found);
    CHECK(tfcc_flex_as_double(&r, "beta", &d, &err) == TFCC_OK && d == (w < 4 ? 3.0 : 0.5));
    CHECK(tfcc_flex_map_get(&root, "flag", &r, &found, &err) == TFCC_OK && found);
    CHECK(tfcc_flex_as_int64(&r, "flag", &i64, &err) == TFCC_OK && i64 == 1);
    CHECK(tfcc_flex_map_get(&root, "zeta", &r, &found, &err) == TFCC_OK && found);
    CHECK(tfcc_flex_as_double(&r, "zeta", &d, &err) == TFCC_OK && d == 100.0);
    CHECK(tfcc_flex_map_get(&root, "nothing", &r, &found, &err) == TFCC_OK && found &&
          r.type == TFCC_FLEX_NULL);
    CHECK(tfcc_flex_as_double(&r, "nothing", &d, &err) == TFCC_ERR_INVALID_MODEL);
    CHECK(tfcc_flex_map_get(&root, "gamma", &r, &found, &err) == TFCC_OK && !found);
    CHECK(tfcc_flex_map_get(&root, "alph", &r, &found, &err) == TFCC_OK && !found);
    /* a scalar is not a map */
    CHECK(tfcc_flex_map_get(&r, "x", &r, &found, &err) == TFCC_ERR_INVALID_MODEL);
    /* every prefix and every one-byte corruption: an error or a value, never a fault
     * (ASan / UBSan runs check the "never a fault") */
    for (size_t cut = 0; cut < len; cut++) {
      if (tfcc_flex_root(buf, cut, &root, &err) != TFCC_OK) continue;
      if (tfcc_flex_map_get(&root, "zeta", &r, &found, &err) == TFCC_OK && found)
        (void)tfcc_flex_as_double(&r, "zeta", &d, &err);
    }
    for (size_t at = 0; at < len; at++) {
      uint8_t copy[512];
      memcpy(copy, buf, len);
      copy[at] ^= 0xFF;
      if (tfcc_flex_root(copy, len, &root, &err) != TFCC_OK) continue;
      for (int i = 0; i < n; i++)
        if (tfcc_flex_map_get(&root, v[i].key, &r, &found, &err) == TFCC_OK && found)
          (void)tfcc_flex_as_double(&r, v[i].key, &d, &err);
    }
  }
  /* a string value is no number; an empty buffer and a bad root width are errors */
  const fx_val sv[] = {{"name", 4, 0}};
  size_t len = fx_map(buf, sv, 1, 4);
  tfcc_err err = {0};
  tfcc_flex_ref root, r;
  bool found;
  double d;
  CHECK(tfcc_flex_root(buf, len, &root, &err) == TFCC_OK);
  CHECK(tfcc_flex_map_get(&root, "name", &r, &found, &err) == TFCC_OK && found);
  CHECK(tfcc_flex_as_double(&r, "name", &d, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "string") != NULL, "%s", err.msg);
  /* sweep7: the string reads back ("ssd", 3 bytes); a number is no string; every one-byte
   * corruption of the map is an error or a string inside the buffer, never a fault */
  const char *str = NULL;
  size_t n = 0;
  CHECK(tfcc_flex_as_string(&r, "name", &str, &n, &err) == TFCC_OK && n == 3 &&
        memcmp(str, "ssd", 3) == 0);
  for (size_t at = 0; at < len; at++) {
    uint8_t copy[512];
    memcpy(copy, buf, len);
    copy[at] ^= 0xFF;
    if (tfcc_flex_root(copy, len, &root, &err) != TFCC_OK) continue;
    if (tfcc_flex_map_get(&root, "name", &r, &found, &err) != TFCC_OK || !found) continue;
    if (tfcc_flex_as_string(&r, "name", &str, &n, &err) == TFCC_OK)
      CHECK((const uint8_t *)str >= copy && (const uint8_t *)str + n < copy + len && str[n] == 0);
  }
  const fx_val nv[] = {{"num", 0, 5}};
  len = fx_map(buf, nv, 1, 2);
  CHECK(tfcc_flex_root(buf, len, &root, &err) == TFCC_OK);
  CHECK(tfcc_flex_map_get(&root, "num", &r, &found, &err) == TFCC_OK && found);
  CHECK(tfcc_flex_as_string(&r, "num", &str, &n, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "num is a int, expected a string") != NULL, "%s", err.msg);
  CHECK(tfcc_flex_root(buf, 0, &root, &err) == TFCC_ERR_INVALID_MODEL);
  buf[len - 1] = 3;
  CHECK(tfcc_flex_root(buf, len, &root, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "width 3") != NULL, "%s", err.msg);
}

/* ------------------------------------------------------------------ detection post-process */

enum { NB = 12, NCLS = 3, NSC = NCLS + 1 };

typedef struct det_inputs {
  float enc[NB * 4], scores[NB * NSC], anchors[NB * 4];
} det_inputs;

static void det_fill(det_inputs *d) {
  for (int i = 0; i < NB; i++) {
    d->anchors[i * 4 + 0] = (float)(i / 4) / 3.0f + 0.15f;
    d->anchors[i * 4 + 1] = (float)(i % 4) / 4.0f + 0.12f;
    d->anchors[i * 4 + 2] = 0.2f;
    d->anchors[i * 4 + 3] = 0.18f;
    for (int c = 0; c < 4; c++) d->enc[i * 4 + c] = oh_randf(-1.f, 1.f);
    for (int c = 0; c < NSC; c++) d->scores[i * NSC + c] = oh_randf(0.f, 1.f);
  }
}

/* Default options (fast NMS, 5 detections). Sorted keys. */
static size_t det_options(uint8_t *buf, int max_det, int max_cpd, bool regular, double iou,
                          double score) {
  const fx_val v[] = {{"h_scale", 1, 5},
                      {"max_classes_per_detection", 0, max_cpd},
                      {"max_detections", 0, max_det},
                      {"nms_iou_threshold", 1, iou},
                      {"nms_score_threshold", 1, score},
                      {"num_classes", 0, NCLS},
                      {"use_regular_nms", 2, regular},
                      {"w_scale", 1, 5},
                      {"x_scale", 1, 10},
                      {"y_scale", 1, 10}};
  return fx_map(buf, v, 10, 4);
}

typedef struct det_run {
  tfcc_tensor in[3], out[4];
  tfcc_tensor *ip[3], *op[4];
  tfcc_ir_node node;
  tfcc_err err;
  oh_node_run r;
} det_run;

/* Builds the node as the model reader does (its options read from the FlexBuffer bytes);
 * returns the status of that read (the node's options stay unread on an error). */
static tfcc_status det_setup(det_run *x, det_inputs *d, const uint8_t *opts, size_t opts_len) {
  memset(x, 0, sizeof *x);
  const int32_t de[3] = {1, NB, 4}, ds[3] = {1, NB, NSC}, da[2] = {NB, 4}, d1[1] = {1};
  x->in[0] = oh_tensor(TFCC_FLOAT32, 3, de, d->enc, NULL);
  x->in[1] = oh_tensor(TFCC_FLOAT32, 3, ds, d->scores, NULL);
  x->in[2] = oh_tensor(TFCC_FLOAT32, 2, da, d->anchors, NULL);
  x->in[2].is_const = x->in[2].known = true;
  for (int i = 0; i < 4; i++) x->out[i] = oh_tensor(TFCC_FLOAT32, 1, d1, NULL, NULL);
  for (int i = 0; i < 3; i++) x->ip[i] = &x->in[i];
  for (int i = 0; i < 4; i++) x->op[i] = &x->out[i];
  x->node.builtin = TFCC_OP_CUSTOM;
  x->node.custom_code = "TFLite_Detection_PostProcess";
  x->node.n_inputs = 3;
  x->node.n_outputs = 4;
  x->node.custom_options = opts;
  x->node.custom_options_len = opts_len;
  x->r.op = tfcc_op_custom("TFLite_Detection_PostProcess");
  x->r.node = &x->node;
  x->r.in = x->ip;
  x->r.n_in = 3;
  x->r.out = x->op;
  x->r.n_out = 4;
  x->r.err = &x->err;
  x->r.alloc_outputs = true;
  return tfl_read_custom_options(x->node.custom_code, opts, opts_len, &x->node.opts, &x->err);
}

static void det_free(det_run *x) {
  for (int i = 0; i < 4; i++) free(x->out[i].data);
}

static tfcc_status det_run_once(det_inputs *d, const uint8_t *opts, size_t len, det_run *x) {
  const tfcc_status st = det_setup(x, d, opts, len);
  return st ? st : oh_run_node(&x->r);
}

static void expect_det_error(det_inputs *d, const uint8_t *opts, size_t len, tfcc_status want,
                             const char *needle) {
  det_run x;
  const tfcc_status st = det_run_once(d, opts, len, &x);
  CHECKF(st == want && strstr(x.err.msg, needle) != NULL, "status %d (want %d): '%s' lacks '%s'",
         (int)st, (int)want, x.err.msg, needle);
  det_free(&x);
}

static void test_detection_options(void) {
  det_inputs d;
  det_fill(&d);
  uint8_t opts[512];
  size_t len = det_options(opts, 5, 1, false, 0.5, 0.1);
  det_run x;
  CHECKF(det_run_once(&d, opts, len, &x) == TFCC_OK, "%s", x.err.msg);
  CHECK(x.out[0].rank == 3 && x.out[0].dims[1] == 5 && x.out[0].dims[2] == 4);
  CHECK(x.out[3].rank == 1 && *(float *)x.out[3].data == 5.0f);
  det_free(&x);
  /* missing / malformed options */
  expect_det_error(&d, NULL, 0, TFCC_ERR_INVALID_MODEL, "no custom options");
  for (size_t cut = 1; cut < len; cut++) {
    CHECKF(det_setup(&x, &d, opts, cut) != TFCC_OK, "options cut to %zu bytes accepted", cut);
    /* an operator whose options were not read refuses to run */
    CHECK(oh_run_node(&x.r) == TFCC_ERR_INVALID_MODEL && strstr(x.err.msg, "no custom options"));
    det_free(&x);
  }
  const fx_val partial[] = {{"max_detections", 0, 5}, {"num_classes", 0, 3}};
  len = fx_map(opts, partial, 2, 4);
  expect_det_error(&d, opts, len, TFCC_ERR_INVALID_MODEL, "no 'max_classes_per_detection'");
  const fx_val str[] = {{"max_detections", 4, 0}};
  len = fx_map(opts, str, 1, 4);
  expect_det_error(&d, opts, len, TFCC_ERR_INVALID_MODEL, "max_detections is a string");
  len = det_options(opts, 5, 1, false, 0.0, 0.1);
  expect_det_error(&d, opts, len, TFCC_ERR_INVALID_MODEL, "nms_iou_threshold 0 outside (0, 1]");
  len = det_options(opts, 0, 1, false, 0.5, 0.1);
  expect_det_error(&d, opts, len, TFCC_ERR_INVALID_MODEL, "max_detections = 0");
  len = det_options(opts, 5, -1, false, 0.5, 0.1);
  expect_det_error(&d, opts, len, TFCC_ERR_INVALID_MODEL, "max_classes_per_detection = -1");
  /* a root that is not a map */
  const uint8_t scalar_root[3] = {5, 1 << 2, 1};
  expect_det_error(&d, scalar_root, 3, TFCC_ERR_INVALID_MODEL, "root is a int");
}

static void test_detection_inputs(void) {
  det_inputs d;
  det_fill(&d);
  uint8_t opts[512];
  const size_t len = det_options(opts, 4, 1, false, 0.5, 0.1);
  det_run x;
  /* wrong dtype */
  det_setup(&x, &d, opts, len);
  x.in[1].dtype = TFCC_INT16;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_UNSUPPORTED && strstr(x.err.msg, "class predictions"));
  det_free(&x);
  det_setup(&x, &d, opts, len);
  x.in[0].dtype = TFCC_UINT8; /* uint8 without quantization */
  CHECK(oh_run_node(&x.r) == TFCC_ERR_INVALID_MODEL && strstr(x.err.msg, "per-tensor scale"));
  det_free(&x);
  /* class columns vs num_classes */
  det_setup(&x, &d, opts, len);
  x.in[1].dims[2] = NSC + 1;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_SHAPE && strstr(x.err.msg, "num_classes is 3"));
  det_free(&x);
  /* anchors of another count */
  det_setup(&x, &d, opts, len);
  x.in[2].dims[0] = NB - 1;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_SHAPE && strstr(x.err.msg, "anchors"));
  det_free(&x);
  /* batch 2 */
  det_setup(&x, &d, opts, len);
  x.in[0].dims[0] = 2;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_SHAPE && strstr(x.err.msg, "box encodings"));
  det_free(&x);
  /* integer outputs */
  det_setup(&x, &d, opts, len);
  x.out[1].dtype = TFCC_INT32;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_DTYPE && strstr(x.err.msg, "output 1"));
  det_free(&x);
  /* a negative anchor height inverts its box: TFLite's ValidateBoxes error */
  det_inputs bad = d;
  bad.anchors[7 * 4 + 2] = -0.2f;
  det_setup(&x, &bad, opts, len);
  CHECK(oh_run_node(&x.r) == TFCC_ERR_RUNTIME && strstr(x.err.msg, "box 7 is inverted"));
  det_free(&x);
}

/* int8 inputs give what their float dequantization gives; rows past the count are zero. */
static void test_detection_int8(void) {
  det_inputs d;
  det_fill(&d);
  int8_t qe[NB * 4], qs[NB * NSC], qa[NB * 4];
  const float se = 1.f / 64, ss = 1.f / 255, sa = 1.f / 200;
  const int32_t ze = 3, zs = -128, za = -100;
  det_inputs f; /* the float equivalent */
  for (int i = 0; i < NB * 4; i++) {
    qe[i] = (int8_t)oh_randi(-128, 127);
    f.enc[i] = ((float)qe[i] - (float)ze) * se;
    qa[i] = (int8_t)(i % 4 < 2 ? oh_randi(-60, 100) : oh_randi(-80, -40));
    f.anchors[i] = ((float)qa[i] - (float)za) * sa;
  }
  for (int i = 0; i < NB * NSC; i++) {
    qs[i] = (int8_t)oh_randi(-128, 127);
    f.scores[i] = (float)((double)ss * (qs[i] - zs));
  }
  uint8_t opts[512];
  for (int regular = 0; regular < 2; regular++) {
    /* a high threshold: fewer than max_detections detections */
    const size_t len = det_options(opts, 8, 2, regular != 0, 0.45, 0.88);
    det_run xf, xq;
    CHECKF(det_run_once(&f, opts, len, &xf) == TFCC_OK, "%s", xf.err.msg);
    oh_qparam pe, ps, pa;
    det_setup(&xq, &d, opts, len);
    xq.in[0] = oh_tensor(TFCC_INT8, 3, xf.in[0].dims, qe, oh_qparam_set(&pe, se, ze));
    xq.in[1] = oh_tensor(TFCC_INT8, 3, xf.in[1].dims, qs, oh_qparam_set(&ps, ss, zs));
    xq.in[2] = oh_tensor(TFCC_INT8, 2, xf.in[2].dims, qa, oh_qparam_set(&pa, sa, za));
    CHECKF(oh_run_node(&xq.r) == TFCC_OK, "%s", xq.err.msg);
    const float count = *(float *)xq.out[3].data;
    const int rows = xq.out[1].dims[1];
    CHECKF(count > 0 && count < 8, "regular %d: count %g", regular, (double)count);
    for (int o = 0; o < 4; o++)
      CHECKF(memcmp(xq.out[o].data, xf.out[o].data, xq.out[o].bytes) == 0,
             "regular %d: output %d of int8 inputs differs from float", regular, o);
    /* fast mode fills max_classes_per_detection rows per detection */
    const int used = regular ? (int)count : (int)count * 2;
    for (int r = used; r < rows; r++)
      CHECKF(((float *)xq.out[2].data)[r] == 0.0f && ((float *)xq.out[0].data)[r * 4] == 0.0f,
             "regular %d: row %d past the count is not zero", regular, r);
    det_free(&xf);
    det_free(&xq);
  }
}

/* ------------------------------------------------------------------ NMS V4 / V5 */

typedef struct nms_run {
  tfcc_tensor in[6], out[3];
  tfcc_tensor *ip[6], *op[3];
  tfcc_ir_node node;
  tfcc_err err;
  oh_node_run r;
  int32_t max_out;
  float iou, score, sigma;
} nms_run;

static void nms_setup(nms_run *x, bool v5, const float *boxes, const float *scores, int32_t n,
                      int32_t max_out, float iou, float score, float sigma) {
  memset(x, 0, sizeof *x);
  x->max_out = max_out;
  x->iou = iou;
  x->score = score;
  x->sigma = sigma;
  const int32_t db[2] = {n, 4}, ds[1] = {n}, d1[1] = {1};
  x->in[0] = oh_tensor(TFCC_FLOAT32, 2, db, (void *)boxes, NULL);
  x->in[1] = oh_tensor(TFCC_FLOAT32, 1, ds, (void *)scores, NULL);
  x->in[2] = oh_tensor(TFCC_INT32, 0, NULL, &x->max_out, NULL);
  x->in[3] = oh_tensor(TFCC_FLOAT32, 0, NULL, &x->iou, NULL);
  x->in[4] = oh_tensor(TFCC_FLOAT32, 0, NULL, &x->score, NULL);
  x->in[5] = oh_tensor(TFCC_FLOAT32, 0, NULL, &x->sigma, NULL);
  x->in[2].is_const = x->in[2].known = true;
  const int n_in = v5 ? 6 : 5, n_out = v5 ? 3 : 2;
  for (int i = 0; i < n_out; i++)
    x->out[i] = oh_tensor(v5 && i == 1 ? TFCC_FLOAT32 : TFCC_INT32, 1, d1, NULL, NULL);
  for (int i = 0; i < 6; i++) x->ip[i] = &x->in[i];
  for (int i = 0; i < 3; i++) x->op[i] = &x->out[i];
  x->node.builtin = v5 ? TFCC_OP_NON_MAX_SUPPRESSION_V5 : TFCC_OP_NON_MAX_SUPPRESSION_V4;
  x->node.n_inputs = n_in;
  x->node.n_outputs = n_out;
  x->r.op = tfcc_op_lookup(x->node.builtin);
  x->r.node = &x->node;
  x->r.in = x->ip;
  x->r.n_in = n_in;
  x->r.out = x->op;
  x->r.n_out = n_out;
  x->r.err = &x->err;
  x->r.alloc_outputs = true;
}

static void nms_free(nms_run *x) {
  for (int i = 0; i < 3; i++) free(x->out[i].data);
}

static void test_nms(void) {
  /* box 1 overlaps box 0 (IoU 0.81), box 2 is apart, box 3 is below the score threshold;
   * corners of box 2 are given swapped */
  const float boxes[4 * 4] = {0, 0, 1, 1, 0.05f, 0.05f, 0.95f, 0.95f, 3, 3, 2, 2, 5, 5, 6, 6};
  const float scores[4] = {0.9f, 0.95f, 0.5f, 0.05f};
  nms_run x;
  nms_setup(&x, false, boxes, scores, 4, 5, 0.5f, 0.1f, 0);
  CHECKF(oh_run_node(&x.r) == TFCC_OK, "%s", x.err.msg);
  const int32_t *sel = (const int32_t *)x.out[0].data;
  CHECK(x.out[0].rank == 1 && x.out[0].dims[0] == 5 && x.out[1].rank == 0);
  CHECKF(*(int32_t *)x.out[1].data == 2 && sel[0] == 1 && sel[1] == 2 && sel[2] == 0 &&
             sel[3] == 0 && sel[4] == 0,
         "V4 selected %d: %d %d %d %d %d", *(int32_t *)x.out[1].data, sel[0], sel[1], sel[2],
         sel[3], sel[4]);
  nms_free(&x);
  /* V5 soft: box 0 survives with score 0.9 * exp(-0.5 / 0.5 * iou^2) */
  nms_setup(&x, true, boxes, scores, 4, 4, 1.0f, 0.1f, 0.5f);
  CHECKF(oh_run_node(&x.r) == TFCC_OK, "%s", x.err.msg);
  sel = (const int32_t *)x.out[0].data;
  const float *ss = (const float *)x.out[1].data;
  const float iou01 = (0.95f - 0.05f) * (0.95f - 0.05f); /* box 1 lies inside box 0 */
  CHECKF(*(int32_t *)x.out[2].data == 3 && sel[0] == 1 && sel[1] == 2 && sel[2] == 0,
         "V5 selected %d: %d %d %d", *(int32_t *)x.out[2].data, sel[0], sel[1], sel[2]);
  CHECKF(fabsf(ss[2] - 0.9f * expf(-1.0f * iou01 * iou01)) < 1e-6f && ss[3] == 0.0f,
         "V5 decayed score %.7g", (double)ss[2]);
  nms_free(&x);
  /* hostile inputs */
  nms_setup(&x, false, boxes, scores, 4, 5, 0.5f, 0.1f, 0);
  x.in[2].known = x.in[2].is_const = false;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_UNSUPPORTED && strstr(x.err.msg, "max_output_size"));
  nms_free(&x);
  nms_setup(&x, false, boxes, scores, 4, -1, 0.5f, 0.1f, 0);
  CHECK(oh_run_node(&x.r) == TFCC_ERR_INVALID_MODEL && strstr(x.err.msg, "max_output_size -1"));
  nms_free(&x);
  nms_setup(&x, false, boxes, scores, 4, 5, 0.5f, 0.1f, 0);
  x.in[0].dtype = TFCC_INT8;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_UNSUPPORTED && strstr(x.err.msg, "only float32"));
  nms_free(&x);
  nms_setup(&x, false, boxes, scores, 4, 5, 0.5f, 0.1f, 0);
  x.in[1].dims[0] = 3;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_SHAPE && strstr(x.err.msg, "scores must be [4]"));
  nms_free(&x);
  nms_setup(&x, true, boxes, scores, 4, 5, 0.5f, 0.1f, -1.0f);
  CHECK(oh_run_node(&x.r) == TFCC_ERR_RUNTIME && strstr(x.err.msg, "negative"));
  nms_free(&x);
  nms_setup(&x, true, boxes, scores, 4, 5, 0.5f, 0.1f, 0.5f);
  x.out[1].dtype = TFCC_INT8;
  CHECK(oh_run_node(&x.r) == TFCC_ERR_DTYPE && strstr(x.err.msg, "output 1"));
  nms_free(&x);
}

int main(void) {
  test_flexbuf();
  test_detection_options();
  test_detection_inputs();
  test_detection_int8();
  test_nms();
  return tfcc_test_finish("detection");
}
