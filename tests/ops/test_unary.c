/* Unary math operators against libm in double, integer ABS/NEG, quantized ABS and SQRT. */
#include "elem_test_util.h"

static double r_round(double v) { return nearbyint(v); }
static double r_rsqrt(double v) { return 1.0 / sqrt(v); }
static double r_square(double v) { return v * v; }
static double r_neg(double v) { return -v; }

static void test_float(void) {
  struct {
    int32_t builtin;
    const char *name;
    double (*f)(double);
    float lo, hi;
  } ops[] = {{TFCC_OP_ABS, "ABS", fabs, -5, 5},
             {TFCC_OP_NEG, "NEG", r_neg, -5, 5},
             {TFCC_OP_EXP, "EXP", exp, -10, 10},
             {TFCC_OP_LOG, "LOG", log, 0.01f, 100},
             {TFCC_OP_SQRT, "SQRT", sqrt, 0, 100},
             {TFCC_OP_RSQRT, "RSQRT", r_rsqrt, 0.01f, 100},
             {TFCC_OP_SQUARE, "SQUARE", r_square, -9, 9},
             {TFCC_OP_FLOOR, "FLOOR", floor, -9, 9},
             {TFCC_OP_CEIL, "CEIL", ceil, -9, 9},
             {TFCC_OP_ROUND, "ROUND", r_round, -9, 9},
             {TFCC_OP_SIN, "SIN", sin, -7, 7},
             {TFCC_OP_COS, "COS", cos, -7, 7}};
  const int32_t d[3] = {3, 5, 7};
  float x[105], o[105];
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    for (int i = 0; i < 105; i++) x[i] = oh_randf(ops[k].lo, ops[k].hi);
    if (ops[k].builtin == TFCC_OP_ROUND) {
      x[0] = 2.5f;
      x[1] = -2.5f;
      x[2] = 3.5f;
      x[3] = -0.5f;
      x[4] = 0.49999997f;
    }
    tfcc_tensor tx = oh_tensor(TFCC_FLOAT32, 3, d, x, NULL),
                to = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
    tfcc_tensor *in[1] = {&tx};
    tfcc_err err;
    CHECKF(etu_run(ops[k].builtin, in, 1, &to, NULL, &err) == TFCC_OK, "%s: %s", ops[k].name,
           err.msg);
    CHECK(to.rank == 3 && to.dims[2] == 7);
    int bad = 0;
    for (int i = 0; i < 105; i++) {
      double w = ops[k].f((double)x[i]);
      if (!(fabs(o[i] - w) <= 1e-5 * fabs(w) + 1e-6)) bad++;
    }
    CHECKF(bad == 0, "%s: %d of 105 differ", ops[k].name, bad);
    /* float ops reject int32 except ABS / NEG. */
    int32_t xi[105] = {0}, oi[105];
    tfcc_tensor ti = oh_tensor(TFCC_INT32, 3, d, xi, NULL),
                toi = oh_tensor(TFCC_INT32, 0, NULL, oi, NULL);
    tfcc_tensor *ini[1] = {&ti};
    tfcc_status st = etu_run(ops[k].builtin, ini, 1, &toi, NULL, &err);
    bool int_ok = ops[k].builtin == TFCC_OP_ABS || ops[k].builtin == TFCC_OP_NEG;
    CHECKF(int_ok ? st == TFCC_OK : st == TFCC_ERR_UNSUPPORTED, "%s int32: %s", ops[k].name,
           err.msg);
  }
}

static void test_int(void) {
  const int32_t d[1] = {4};
  int32_t a[4] = {INT32_MIN, -5, 0, 7}, o[4];
  tfcc_tensor ta = oh_tensor(TFCC_INT32, 1, d, a, NULL),
              to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
  tfcc_tensor *in[1] = {&ta};
  tfcc_err err;
  CHECK(etu_run(TFCC_OP_ABS, in, 1, &to, NULL, &err) == TFCC_OK);
  CHECK(o[0] == INT32_MIN && o[1] == 5 && o[2] == 0 && o[3] == 7);
  CHECK(etu_run(TFCC_OP_NEG, in, 1, &to, NULL, &err) == TFCC_OK);
  CHECK(o[0] == INT32_MIN && o[1] == 5 && o[2] == 0 && o[3] == -7);
  int64_t l[2] = {-3, INT64_C(1) << 40}, lo[2];
  const int32_t d2[1] = {2};
  tfcc_tensor tl = oh_tensor(TFCC_INT64, 1, d2, l, NULL),
              tlo = oh_tensor(TFCC_INT64, 0, NULL, lo, NULL);
  tfcc_tensor *inl[1] = {&tl};
  CHECK(etu_run(TFCC_OP_NEG, inl, 1, &tlo, NULL, &err) == TFCC_OK);
  CHECK(lo[0] == 3 && lo[1] == -(INT64_C(1) << 40));
  int16_t s[2] = {-32768, -9}, so[2];
  tfcc_tensor ts = oh_tensor(TFCC_INT16, 1, d2, s, NULL),
              tso = oh_tensor(TFCC_INT16, 0, NULL, so, NULL);
  tfcc_tensor *ins[1] = {&ts};
  CHECK(etu_run(TFCC_OP_ABS, ins, 1, &tso, NULL, &err) == TFCC_OK); /* unquantized int16: raw */
  CHECK(so[0] == -32768 && so[1] == 9);
  /* Output dtype must match. */
  tfcc_tensor tbad = oh_tensor(TFCC_FLOAT32, 0, NULL, so, NULL);
  CHECK(etu_run(TFCC_OP_ABS, ins, 1, &tbad, NULL, &err) == TFCC_ERR_DTYPE);
}

/* Quantized ABS / SQRT: reference from the real values; ABS is rounded, SQRT truncated. */
static void test_quantized(void) {
  int8_t x[256], o[256];
  const int32_t d[1] = {256};
  for (int i = 0; i < 256; i++) x[i] = (int8_t)(i - 128);
  struct {
    float si, so;
    int32_t zi, zo;
  } qs[] = {{0.05f, 0.05f, 3, -7}, {0.05f, 0.03f, -10, -128}, {0.1f, 0.02f, 0, -100}};
  for (size_t c = 0; c < sizeof qs / sizeof qs[0]; c++) {
    oh_qparam qi, qo;
    oh_qparam_set(&qi, qs[c].si, qs[c].zi);
    oh_qparam_set(&qo, qs[c].so, qs[c].zo);
    tfcc_tensor tx = oh_tensor(TFCC_INT8, 1, d, x, &qi.q),
                to = oh_tensor(TFCC_INT8, 0, NULL, o, &qo.q);
    tfcc_tensor *in[1] = {&tx};
    tfcc_err err;
    CHECKF(etu_run(TFCC_OP_ABS, in, 1, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
    int worse = 0, diff1 = 0;
    for (int i = 0; i < 256; i++) {
      double r = fabs(qs[c].si * (double)(x[i] - qs[c].zi)) / qs[c].so;
      double q = round(r) + qs[c].zo;
      int32_t w = q < -128 ? -128 : (q > 127 ? 127 : (int32_t)q);
      int dd = abs(o[i] - w);
      if (dd > 1) worse++;
      if (dd == 1) diff1++;
    }
    CHECKF(worse == 0 && diff1 <= 3, "ABS int8 case %zu: %d off by >1, %d by 1", c, worse, diff1);
    /* SQRT: only on non-negative values; a negative real input is an eval error. */
    CHECK(etu_run(TFCC_OP_SQRT, in, 1, &to, NULL, &err) == TFCC_ERR_RUNTIME);
    CHECKF(strstr(err.msg, "negative") != NULL, "%s", err.msg);
    int8_t xp[128], op[128];
    const int32_t dp[1] = {128 - 1 - 0};
    int np = 0;
    for (int i = 0; i < 256; i++)
      if (x[i] >= qs[c].zi && np < 127) xp[np++] = x[i];
    tfcc_tensor tp = oh_tensor(TFCC_INT8, 1, dp, xp, &qi.q),
                top = oh_tensor(TFCC_INT8, 0, NULL, op, &qo.q);
    tp.dims[0] = np;
    tfcc_tensor *inp[1] = {&tp};
    CHECKF(etu_run(TFCC_OP_SQRT, inp, 1, &top, NULL, &err) == TFCC_OK, "%s", err.msg);
    int bad = 0;
    for (int i = 0; i < np; i++) {
      float deq = qs[c].si * (float)(xp[i] - qs[c].zi);
      int32_t q = (int32_t)(sqrtf(deq) / qs[c].so) + qs[c].zo;
      int32_t w = q < -128 ? -128 : (q > 127 ? 127 : q);
      if (op[i] != w) bad++;
    }
    CHECKF(bad == 0, "SQRT int8 case %zu: %d differ", c, bad);
  }
  /* int16 quantized ABS needs zero points 0. */
  int16_t s[3] = {-300, 0, 300}, so[3];
  const int32_t d3[1] = {3};
  oh_qparam q16, q16o;
  oh_qparam_set(&q16, 0.001f, 0);
  oh_qparam_set(&q16o, 0.002f, 0);
  tfcc_tensor ts = oh_tensor(TFCC_INT16, 1, d3, s, &q16.q),
              tso = oh_tensor(TFCC_INT16, 0, NULL, so, &q16o.q);
  tfcc_tensor *ins[1] = {&ts};
  tfcc_err err;
  CHECKF(etu_run(TFCC_OP_ABS, ins, 1, &tso, NULL, &err) == TFCC_OK, "%s", err.msg);
  CHECK(so[0] == 150 && so[1] == 0 && so[2] == 150);
  oh_qparam_set(&q16, 0.001f, 5);
  CHECK(etu_run(TFCC_OP_ABS, ins, 1, &tso, NULL, &err) == TFCC_ERR_UNSUPPORTED);
}

int main(void) {
  test_float();
  test_int();
  test_quantized();
  return tfcc_test_finish("ops.unary");
}
