/* Binary arithmetic operators against straightforward double-precision references:
 * ADD SUB MUL DIV SQUARED_DIFFERENCE MAXIMUM MINIMUM POW FLOOR_DIV FLOOR_MOD ADD_N. */
#include "elem_test_util.h"

#include "kernels/ref/arith_quant.h"
#include "kernels/ref/quant_util.h"

typedef double (*ref2)(double, double);
static double r_add(double a, double b) { return a + b; }
static double r_sub(double a, double b) { return a - b; }
static double r_mul(double a, double b) { return a * b; }
static double r_div(double a, double b) { return a / b; }
static double r_sqd(double a, double b) { return (a - b) * (a - b); }
static double r_max(double a, double b) { return a > b ? a : b; }
static double r_min(double a, double b) { return a < b ? a : b; }
static double r_pow(double a, double b) { return pow(a, b); }
static double r_fdiv(double a, double b) { return floor(a / b); }
static double r_fmod(double a, double b) {
  double m = fmod(a, b);
  return (m != 0 && ((b < 0) != (m < 0))) ? m + b : m;
}

typedef struct {
  int32_t builtin;
  const char *name;
  ref2 f;
  uint8_t opts_type;
} binop_case;

static const binop_case kFloatOps[] = {
    {TFCC_OP_ADD, "ADD", r_add, 11},
    {TFCC_OP_SUB, "SUB", r_sub, 28},
    {TFCC_OP_MUL, "MUL", r_mul, 21},
    {TFCC_OP_DIV, "DIV", r_div, 29},
    {TFCC_OP_SQUARED_DIFFERENCE, "SQD", r_sqd, 0},
    {TFCC_OP_MAXIMUM, "MAX", r_max, 0},
    {TFCC_OP_MINIMUM, "MIN", r_min, 0},
    {TFCC_OP_POW, "POW", r_pow, 0},
    {TFCC_OP_FLOOR_DIV, "FLOOR_DIV", r_fdiv, 0},
    {TFCC_OP_FLOOR_MOD, "FLOOR_MOD", r_fmod, 0},
};

static double act_clamp(double v, int act) {
  if (act == 1) return v < 0 ? 0 : v;
  if (act == 2) return v < -1 ? -1 : (v > 1 ? 1 : v);
  if (act == 3) return v < 0 ? 0 : (v > 6 ? 6 : v);
  return v;
}

/* Float: broadcasting shapes of several ranks, every op, activations where the op has them. */
static void test_float(void) {
  struct {
    int32_t ra, rb;
    int32_t da[6], db[6];
  } shapes[] = {
      {4, 3, {2, 3, 1, 4}, {3, 5, 1}}, {2, 2, {7, 5}, {7, 5}},
      {0, 3, {0}, {2, 1, 3}},          {6, 6, {2, 1, 3, 1, 2, 2}, {1, 2, 1, 3, 2, 1}},
      {1, 4, {1}, {1, 1, 1, 9}},
  };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    for (size_t k = 0; k < sizeof kFloatOps / sizeof kFloatOps[0]; k++) {
      const binop_case *c = &kFloatOps[k];
      for (int act = 0; act <= (c->opts_type ? 3 : 0); act++) {
        int64_t na = tfcc_shape_elements(shapes[s].ra, shapes[s].da);
        int64_t nb = tfcc_shape_elements(shapes[s].rb, shapes[s].db);
        float *a = malloc(sizeof(float) * (size_t)na), *b = malloc(sizeof(float) * (size_t)nb);
        float *o = malloc(sizeof(float) * 1024);
        bool positive = c->builtin == TFCC_OP_POW;
        for (int64_t i = 0; i < na; i++)
          a[i] = positive ? oh_randf(0.1f, 3.f) : oh_randf(-8.f, 8.f);
        for (int64_t i = 0; i < nb; i++) {
          float v = positive ? oh_randf(-2.f, 2.f) : oh_randf(-4.f, 4.f);
          if (fabsf(v) < 0.25f) v = 0.5f;
          b[i] = v;
        }
        tfcc_tensor ta = oh_tensor(TFCC_FLOAT32, shapes[s].ra, shapes[s].da, a, NULL);
        tfcc_tensor tb = oh_tensor(TFCC_FLOAT32, shapes[s].rb, shapes[s].db, b, NULL);
        tfcc_tensor to = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
        tfcc_tensor *in[2] = {&ta, &tb};
        etu_opts opts = {c->opts_type, act, -1};
        tfcc_err err;
        tfcc_status st = etu_run(c->builtin, in, 2, &to, &opts, &err);
        CHECKF(st == TFCC_OK, "%s shape case %zu: %s", c->name, s, err.msg);
        if (st != TFCC_OK) goto next;
        int64_t no = tfcc_shape_elements(to.rank, to.dims);
        int bad = 0;
        for (int64_t i = 0; i < no; i++) {
          double x = a[etu_bidx(i, to.rank, to.dims, ta.rank, ta.dims)];
          double y = b[etu_bidx(i, to.rank, to.dims, tb.rank, tb.dims)];
          double want = act_clamp(c->f(x, y), act);
          if (c->builtin == TFCC_OP_FLOOR_MOD)
            want = act_clamp(fmodf((float)x, (float)y), 0), want = r_fmod(x, y);
          double tol = 1e-5 * fabs(want) + 1e-6;
          if (c->builtin == TFCC_OP_FLOOR_MOD) tol = 1e-5 * fabs(y) + 1e-6;
          if (!(fabs(o[i] - want) <= tol)) bad++;
        }
        CHECKF(bad == 0, "%s act %d shape case %zu: %d of %lld differ", c->name, act, s, bad,
               (long long)no);
      next:
        free(a);
        free(b);
        free(o);
      }
    }
  }
}

/* int32 / int64 / int8 / int16 raw ops, exact. */
static void test_int(void) {
  const int32_t da[3] = {3, 1, 5}, db[2] = {4, 5};
  int32_t a[15], b[20], o[60];
  for (int i = 0; i < 15; i++) a[i] = (int32_t)(oh_rand() % 2001) - 1000;
  for (int i = 0; i < 20; i++) {
    b[i] = (int32_t)(oh_rand() % 41) - 20;
    if (b[i] == 0) b[i] = 7;
  }
  struct {
    int32_t builtin;
    const char *name;
    uint8_t opts_type;
  } ops[] = {{TFCC_OP_ADD, "ADD", 11},
             {TFCC_OP_SUB, "SUB", 28},
             {TFCC_OP_MUL, "MUL", 21},
             {TFCC_OP_DIV, "DIV", 29},
             {TFCC_OP_SQUARED_DIFFERENCE, "SQD", 0},
             {TFCC_OP_MAXIMUM, "MAX", 0},
             {TFCC_OP_MINIMUM, "MIN", 0},
             {TFCC_OP_FLOOR_DIV, "FLOOR_DIV", 0},
             {TFCC_OP_FLOOR_MOD, "FLOOR_MOD", 0}};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    for (int act = 0; act <= (ops[k].opts_type ? 3 : 0); act += 1) {
      tfcc_tensor ta = oh_tensor(TFCC_INT32, 3, da, a, NULL),
                  tb = oh_tensor(TFCC_INT32, 2, db, b, NULL);
      tfcc_tensor to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
      tfcc_tensor *in[2] = {&ta, &tb};
      etu_opts opts = {ops[k].opts_type, act, -1};
      tfcc_err err;
      tfcc_status st = etu_run(ops[k].builtin, in, 2, &to, &opts, &err);
      CHECKF(st == TFCC_OK, "int32 %s: %s", ops[k].name, err.msg);
      CHECK(to.rank == 3 && to.dims[0] == 3 && to.dims[1] == 4 && to.dims[2] == 5);
      int bad = 0;
      for (int64_t i = 0; i < 60; i++) {
        int64_t x = a[etu_bidx(i, 3, to.dims, 3, da)], y = b[etu_bidx(i, 3, to.dims, 2, db)];
        int64_t w = 0;
        switch (ops[k].builtin) {
          case TFCC_OP_ADD: w = x + y; break;
          case TFCC_OP_SUB: w = x - y; break;
          case TFCC_OP_MUL: w = x * y; break;
          case TFCC_OP_DIV: w = x / y; break; /* C truncation, as TFLite's int32 DIV */
          case TFCC_OP_SQUARED_DIFFERENCE: w = (x - y) * (x - y); break;
          case TFCC_OP_MAXIMUM: w = x > y ? x : y; break;
          case TFCC_OP_MINIMUM: w = x < y ? x : y; break;
          case TFCC_OP_FLOOR_DIV: w = (int64_t)floor((double)x / (double)y); break;
          default: w = (int64_t)r_fmod((double)x, (double)y); break;
        }
        w = (int64_t)act_clamp((double)w, act);
        if (o[i] != w) bad++;
      }
      CHECKF(bad == 0, "int32 %s act %d: %d differ", ops[k].name, act, bad);
    }
  }
  /* int32 POW with non-negative exponents; negative exponent is an eval error. */
  {
    int32_t pa[4] = {2, -3, 5, 0}, pb[4] = {10, 3, 0, 2}, po[4];
    const int32_t d4[1] = {4};
    tfcc_tensor ta = oh_tensor(TFCC_INT32, 1, d4, pa, NULL),
                tb = oh_tensor(TFCC_INT32, 1, d4, pb, NULL);
    tfcc_tensor to = oh_tensor(TFCC_INT32, 0, NULL, po, NULL);
    tfcc_tensor *in[2] = {&ta, &tb};
    tfcc_err err;
    CHECK(etu_run(TFCC_OP_POW, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(po[0] == 1024 && po[1] == -27 && po[2] == 1 && po[3] == 0);
    pb[1] = -1;
    CHECK(etu_run(TFCC_OP_POW, in, 2, &to, NULL, &err) == TFCC_ERR_RUNTIME);
    CHECKF(strstr(err.msg, "negative") != NULL, "%s", err.msg);
  }
  /* Division by zero is an eval error for integer DIV / FLOOR_DIV / FLOOR_MOD. */
  {
    b[3] = 0;
    int32_t ops0[3] = {TFCC_OP_DIV, TFCC_OP_FLOOR_DIV, TFCC_OP_FLOOR_MOD};
    for (int k = 0; k < 3; k++) {
      tfcc_tensor ta = oh_tensor(TFCC_INT32, 3, da, a, NULL),
                  tb = oh_tensor(TFCC_INT32, 2, db, b, NULL);
      tfcc_tensor to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
      tfcc_tensor *in[2] = {&ta, &tb};
      tfcc_err err;
      CHECK(etu_run(ops0[k], in, 2, &to, NULL, &err) == TFCC_ERR_RUNTIME);
      CHECKF(strstr(err.msg, "division by zero") != NULL, "%s", err.msg);
    }
    b[3] = 3;
  }
  /* int32 wraps instead of trapping; INT_MIN / -1 does not trap. */
  {
    int32_t wa[2] = {INT32_MAX, INT32_MIN}, wb[2] = {1, -1}, wo[2];
    const int32_t d2[1] = {2};
    tfcc_tensor ta = oh_tensor(TFCC_INT32, 1, d2, wa, NULL),
                tb = oh_tensor(TFCC_INT32, 1, d2, wb, NULL);
    tfcc_tensor to = oh_tensor(TFCC_INT32, 0, NULL, wo, NULL);
    tfcc_tensor *in[2] = {&ta, &tb};
    tfcc_err err;
    CHECK(etu_run(TFCC_OP_ADD, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(wo[0] == INT32_MIN && wo[1] == INT32_MAX);
    CHECK(etu_run(TFCC_OP_DIV, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(wo[0] == INT32_MAX && wo[1] == INT32_MIN);
  }
  /* int64 ADD / MUL / FLOOR_MOD / MAXIMUM, int8 and int16 FLOOR_DIV / MINIMUM. */
  {
    int64_t la[3] = {INT64_C(5000000000), -7, 9}, lb[1] = {-4}, lo[3];
    const int32_t d3[1] = {3}, d1[1] = {1};
    tfcc_tensor ta = oh_tensor(TFCC_INT64, 1, d3, la, NULL),
                tb = oh_tensor(TFCC_INT64, 1, d1, lb, NULL);
    tfcc_tensor to = oh_tensor(TFCC_INT64, 0, NULL, lo, NULL);
    tfcc_tensor *in[2] = {&ta, &tb};
    tfcc_err err;
    CHECK(etu_run(TFCC_OP_ADD, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(lo[0] == INT64_C(4999999996) && lo[1] == -11 && lo[2] == 5);
    CHECK(etu_run(TFCC_OP_MUL, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(lo[0] == INT64_C(-20000000000) && lo[1] == 28 && lo[2] == -36);
    CHECK(etu_run(TFCC_OP_FLOOR_MOD, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(lo[0] == 0 && lo[1] == -3 && lo[2] == -3);
    CHECK(etu_run(TFCC_OP_MAXIMUM, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(lo[0] == INT64_C(5000000000) && lo[1] == -4 && lo[2] == 9);
    CHECK(etu_run(TFCC_OP_DIV, in, 2, &to, NULL, &err) == TFCC_ERR_UNSUPPORTED);
  }
  {
    int8_t ca[4] = {-128, 7, -7, 127}, cb[4] = {3, -2, 2, -1}, co[4];
    const int32_t d4[1] = {4};
    tfcc_tensor ta = oh_tensor(TFCC_INT8, 1, d4, ca, NULL),
                tb = oh_tensor(TFCC_INT8, 1, d4, cb, NULL);
    tfcc_tensor to = oh_tensor(TFCC_INT8, 0, NULL, co, NULL);
    tfcc_tensor *in[2] = {&ta, &tb};
    tfcc_err err;
    CHECK(etu_run(TFCC_OP_FLOOR_DIV, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(co[0] == -43 && co[1] == -4 && co[2] == -4 && co[3] == -127);
    CHECK(etu_run(TFCC_OP_MINIMUM, in, 2, &to, NULL, &err) == TFCC_OK);
    CHECK(co[0] == -128 && co[1] == -2 && co[2] == -7 && co[3] == -1);
    int16_t sa[2] = {-300, 301}, sb[2] = {7, 7}, so[2];
    const int32_t d2[1] = {2};
    tfcc_tensor ua = oh_tensor(TFCC_INT16, 1, d2, sa, NULL),
                ub = oh_tensor(TFCC_INT16, 1, d2, sb, NULL);
    tfcc_tensor uo = oh_tensor(TFCC_INT16, 0, NULL, so, NULL);
    tfcc_tensor *in2[2] = {&ua, &ub};
    CHECK(etu_run(TFCC_OP_FLOOR_DIV, in2, 2, &uo, NULL, &err) == TFCC_OK);
    CHECK(so[0] == -43 && so[1] == 43);
  }
}

/* Quantized: straightforward reference = dequantize, compute in double, requantize with
 * round-half-away and clamp. TFLite's fixed point may differ by one unit: count those. */
typedef struct {
  int32_t builtin;
  const char *name;
  uint8_t opts_type;
  tfcc_dtype dt;
  float s1, s2, so;
  int32_t z1, z2, zo;
  int act;
  int max_diff_pct; /* allowed percentage of off-by-one elements */
} qcase;

/* TFLite's quantized DIV rescales the quotient by 2^total_shift with total_shift =
 * output_shift - reciprocal_shift - headroom(numerator). Below -31 (small numerators over large
 * divisors) its RoundingDivideByPOT shifts past the word size and yields what x86 and
 * WebAssembly compute, not the quotient: those pairs are checked against LiteRT's own outputs
 * in test_div_shift_overflow, not against real arithmetic. */
static bool div_shift_overflows(const qcase *c, int32_t v1, int32_t v2) {
  if (v2 < 0) {
    v1 = -v1;
    v2 = -v2;
  }
  const uint32_t u = v1 >= 0 ? (uint32_t)v1 : ~(uint32_t)v1;
  const int headroom = u == 0 ? 31 : __builtin_clz(u) - 1;
  const int recip_shift = 31 - __builtin_clz((uint32_t)v2);
  int out_shift = 0;
  const float m = c->s1 / (c->s2 * c->so);
  (void)frexp((double)m, &out_shift);
  return out_shift - recip_shift - headroom < -31;
}

static void run_qcase(const qcase *c) {
  int32_t lo, hi;
  switch (c->dt) {
    case TFCC_UINT8:
      lo = 0;
      hi = 255;
      break;
    case TFCC_INT8:
      lo = -128;
      hi = 127;
      break;
    default:
      lo = -32768;
      hi = 32767;
      break;
  }
  /* Every pair of values for 8 bits (a: 256 x 1 broadcast against b: 1 x 256), sampled for 16. */
  const int32_t n = c->dt == TFCC_INT16 ? 181 : 256;
  const int32_t da[2] = {n, 1}, db[2] = {1, n};
  const size_t es = tfcc_dtype_size(c->dt);
  uint8_t *a = malloc(es * (size_t)n), *b = malloc(es * (size_t)n),
          *o = malloc(es * (size_t)n * (size_t)n);
  int32_t va[256], vb[256];
  for (int32_t i = 0; i < n; i++) {
    int32_t x = c->dt == TFCC_INT16 ? lo + (int32_t)((int64_t)i * 65535 / (n - 1)) : lo + i;
    va[i] = x;
    vb[i] = c->dt == TFCC_INT16
                ? lo + (int32_t)((int64_t)(n - 1 - i) * 65535 / (n - 1)) + (i % 3) - 1
                : lo + (n - 1 - i);
    if (vb[i] < lo) vb[i] = lo;
    if (vb[i] > hi) vb[i] = hi;
    if (c->builtin == TFCC_OP_DIV && vb[i] == c->z2) vb[i] = c->z2 + 1; /* tested in test_errors */
    if (c->dt == TFCC_UINT8) {
      a[i] = (uint8_t)va[i];
      b[i] = (uint8_t)vb[i];
    } else if (c->dt == TFCC_INT8) {
      ((int8_t *)a)[i] = (int8_t)va[i];
      ((int8_t *)b)[i] = (int8_t)vb[i];
    } else {
      ((int16_t *)a)[i] = (int16_t)va[i];
      ((int16_t *)b)[i] = (int16_t)vb[i];
    }
  }
  oh_qparam q1, q2, qo;
  oh_qparam_set(&q1, c->s1, c->z1);
  oh_qparam_set(&q2, c->s2, c->z2);
  oh_qparam_set(&qo, c->so, c->zo);
  tfcc_tensor ta = oh_tensor(c->dt, 2, da, a, &q1.q), tb = oh_tensor(c->dt, 2, db, b, &q2.q);
  tfcc_tensor to = oh_tensor(c->dt, 0, NULL, o, &qo.q);
  tfcc_tensor *in[2] = {&ta, &tb};
  etu_opts opts = {c->opts_type, c->act, -1};
  tfcc_err err;
  tfcc_status st = etu_run(c->builtin, in, 2, &to, &opts, &err);
  CHECKF(st == TFCC_OK, "%s %s: %s", c->name, tfcc_dtype_name(c->dt), err.msg);
  if (st == TFCC_OK) {
    int32_t alo, ahi;
    tfcc_act_range_q(c->act, c->so, c->zo, lo, hi, &alo, &ahi);
    int64_t diff1 = 0, worse = 0, total = 0;
    for (int32_t i = 0; i < n; i++) {
      for (int32_t j = 0; j < n; j++) {
        double x = c->s1 * (double)(va[i] - c->z1), y = c->s2 * (double)(vb[j] - c->z2), r;
        switch (c->builtin) {
          case TFCC_OP_ADD: r = x + y; break;
          case TFCC_OP_SUB: r = x - y; break;
          case TFCC_OP_MUL: r = x * y; break;
          case TFCC_OP_DIV:
            if (vb[j] == c->z2) continue;
            if (div_shift_overflows(c, va[i] - c->z1, vb[j] - c->z2)) continue; /* exact test */
            r = x / y;
            break;
          default: r = (x - y) * (x - y); break;
        }
        double qv = round(r / c->so) + c->zo;
        int32_t want = qv < alo ? alo : (qv > ahi ? ahi : (int32_t)qv);
        int64_t at = (int64_t)i * n + j;
        int32_t got = c->dt == TFCC_UINT8  ? o[at]
                      : c->dt == TFCC_INT8 ? ((int8_t *)o)[at]
                                           : ((int16_t *)o)[at];
        int32_t d = abs(got - want);
        total++;
        if (d == 1) diff1++;
        if (d > 1) {
          if (worse < 3)
            fprintf(stderr, "  %s %s: a=%d b=%d got %d want %d (%.4f)\n", c->name,
                    tfcc_dtype_name(c->dt), va[i], vb[j], got, want, r / c->so + c->zo);
          worse++;
        }
      }
    }
    CHECKF(worse == 0, "%s %s: %lld of %lld elements off by more than 1", c->name,
           tfcc_dtype_name(c->dt), (long long)worse, (long long)total);
    CHECKF(diff1 * 100 <= total * c->max_diff_pct, "%s %s: %lld of %lld elements off by 1", c->name,
           tfcc_dtype_name(c->dt), (long long)diff1, (long long)total);
    printf("%-4s %-5s act %d: %lld/%lld off by one\n", c->name, tfcc_dtype_name(c->dt), c->act,
           (long long)diff1, (long long)total);
  }
  free(a);
  free(b);
  free(o);
}

static void test_quantized(void) {
  const qcase cases[] = {
      {TFCC_OP_ADD, "ADD", 11, TFCC_UINT8, 0.0078125f, 0.0078125f, 0.015625f, 128, 128, 128, 0, 2},
      {TFCC_OP_ADD, "ADD", 11, TFCC_UINT8, 0.0235f, 0.0112f, 0.0301f, 120, 131, 117, 3, 2},
      {TFCC_OP_ADD, "ADD", 11, TFCC_INT8, 0.05f, 0.031f, 0.07f, -3, 10, -20, 1, 2},
      {TFCC_OP_ADD, "ADD", 11, TFCC_INT16, 0.0011f, 0.0007f, 0.0015f, 0, 0, 0, 0, 2},
      {TFCC_OP_SUB, "SUB", 28, TFCC_UINT8, 0.021f, 0.017f, 0.03f, 128, 100, 128, 0, 2},
      {TFCC_OP_SUB, "SUB", 28, TFCC_INT8, 0.05f, 0.031f, 0.07f, -3, 10, -20, 2, 2},
      {TFCC_OP_SUB, "SUB", 28, TFCC_INT16, 0.0011f, 0.0007f, 0.0015f, 0, 0, 0, 0, 2},
      {TFCC_OP_MUL, "MUL", 21, TFCC_UINT8, 0.02f, 0.015f, 0.2f, 128, 120, 110, 0, 2},
      {TFCC_OP_MUL, "MUL", 21, TFCC_INT8, 0.02f, 0.015f, 0.2f, 5, -3, 0, 1, 2},
      {TFCC_OP_MUL, "MUL", 21, TFCC_INT16, 0.001f, 0.0013f, 0.04f, 0, 0, 0, 0, 2},
      {TFCC_OP_DIV, "DIV", 29, TFCC_UINT8, 0.05f, 0.04f, 0.3f, 128, 130, 100, 0, 2},
      {TFCC_OP_DIV, "DIV", 29, TFCC_INT8, 0.05f, 0.04f, 0.3f, 0, 3, -10, 0, 2},
      {TFCC_OP_SQUARED_DIFFERENCE, "SQD", 0, TFCC_INT8, 0.05f, 0.04f, 0.5f, 0, 3, -128, 0, 2},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) run_qcase(&cases[k]);
}

/* int16 power-of-two ADD / SUB (pot_scale_int16): exact by construction. */
/* Quantized DIV where TFLite's rescale shift passes the word size (see div_shift_overflows):
 * expected values are LiteRT's own outputs for these tensors. */
static void test_div_shift_overflow(void) {
  const int32_t d4[1] = {4};
  tfcc_err err;
  {
    uint8_t a[4] = {121, 121, 128, 128}, b[4] = {2, 1, 2, 250}, o[4];
    oh_qparam q1, q2, qo;
    oh_qparam_set(&q1, 0.05f, 128);
    oh_qparam_set(&q2, 0.04f, 130);
    oh_qparam_set(&qo, 0.3f, 100);
    tfcc_tensor ta = oh_tensor(TFCC_UINT8, 1, d4, a, &q1.q),
                tb = oh_tensor(TFCC_UINT8, 1, d4, b, &q2.q);
    tfcc_tensor to = oh_tensor(TFCC_UINT8, 0, NULL, o, &qo.q);
    tfcc_tensor *in[2] = {&ta, &tb};
    etu_opts opts = {29, 0, -1};
    CHECKF(etu_run(TFCC_OP_DIV, in, 2, &to, &opts, &err) == TFCC_OK, "%s", err.msg);
    CHECKF(o[0] == 255 && o[1] == 255 && o[2] == 101 && o[3] == 101, "DIV uint8 %d %d %d %d", o[0],
           o[1], o[2], o[3]);
  }
  {
    int8_t a[4] = {-7, -7, 0, 0}, b[4] = {-125, -126, -125, 100}, o[4];
    oh_qparam q1, q2, qo;
    oh_qparam_set(&q1, 0.05f, 0);
    oh_qparam_set(&q2, 0.04f, 3);
    oh_qparam_set(&qo, 0.3f, -10);
    tfcc_tensor ta = oh_tensor(TFCC_INT8, 1, d4, a, &q1.q),
                tb = oh_tensor(TFCC_INT8, 1, d4, b, &q2.q);
    tfcc_tensor to = oh_tensor(TFCC_INT8, 0, NULL, o, &qo.q);
    tfcc_tensor *in[2] = {&ta, &tb};
    etu_opts opts = {29, 0, -1};
    CHECKF(etu_run(TFCC_OP_DIV, in, 2, &to, &opts, &err) == TFCC_OK, "%s", err.msg);
    CHECKF(o[0] == 127 && o[1] == 127 && o[2] == -9 && o[3] == -9, "DIV int8 %d %d %d %d", o[0],
           o[1], o[2], o[3]);
  }
}

static void test_int16_pot(void) {
  const int32_t d[1] = {9};
  int16_t a[9] = {0, 1, -1, 32767, -32768, 1000, -1000, 20000, -20000};
  int16_t b[9] = {2, 6, -6, 32767, -32768, 3, -3, 20000, -20000};
  int16_t o[9];
  oh_qparam q1, q2, qo;
  oh_qparam_set(&q1, 1.0f / 1024, 0);
  oh_qparam_set(&q2, 1.0f / 4096, 0);
  oh_qparam_set(&qo, 1.0f / 1024, 0);
  for (int sub = 0; sub < 2; sub++) {
    tfcc_tensor ta = oh_tensor(TFCC_INT16, 1, d, a, &q1.q),
                tb = oh_tensor(TFCC_INT16, 1, d, b, &q2.q);
    tfcc_tensor to = oh_tensor(TFCC_INT16, 0, NULL, o, &qo.q);
    tfcc_tensor *in[2] = {&ta, &tb};
    etu_opts opts = {sub ? 28 : 11, 0, 1};
    tfcc_err err;
    CHECKF(etu_run(sub ? TFCC_OP_SUB : TFCC_OP_ADD, in, 2, &to, &opts, &err) == TFCC_OK, "%s",
           err.msg);
    int bad = 0;
    for (int i = 0; i < 9; i++) {
      /* b / 4 rounded half away from zero, then saturating add/sub. */
      int32_t q = b[i] >= 0 ? (b[i] + 2) / 4 : -((-b[i] + 2) / 4);
      int32_t w = sub ? a[i] - q : a[i] + q;
      w = w < -32768 ? -32768 : (w > 32767 ? 32767 : w);
      if (o[i] != w) bad++;
    }
    CHECKF(bad == 0, "int16 pot %s: %d differ", sub ? "SUB" : "ADD", bad);
  }
  /* Without the options table TFLite takes the general path: zero points 0 still work. */
  tfcc_tensor ta = oh_tensor(TFCC_INT16, 1, d, a, &q1.q),
              tb = oh_tensor(TFCC_INT16, 1, d, b, &q2.q);
  tfcc_tensor to = oh_tensor(TFCC_INT16, 0, NULL, o, &qo.q);
  tfcc_tensor *in[2] = {&ta, &tb};
  tfcc_err err;
  CHECK(etu_run(TFCC_OP_ADD, in, 2, &to, NULL, &err) == TFCC_OK);
  CHECK(o[0] == 1 && o[5] == 1001);
}

/* Multipliers computed as TFLite does (float vs double). */
static void test_params(void) {
  tfcc_arith_q q;
  tfcc_arith_q_prepare_add(&q, 0.0078125f, 128, 0.0078125f, 128, 0.015625f, 128, 20, false);
  CHECK(q.in1_mult == 1073741824 && q.in1_shift == 0);   /* 0.5 */
  CHECK(q.out_mult == 1073741824 && q.out_shift == -19); /* 2^-20 ... as 0.5 * 2^-19 */
  tfcc_arith_q_prepare_add(&q, 0.5f, 0, 0.25f, 0, 1.0f, 0, 20, true);
  CHECK(q.in2_mult == -1073741824 && q.in2_shift == -1);
  /* MUL multiplier is s1 * s2 / so rounded to float first. */
  const float s1 = 0.0123456f, s2 = 0.0654321f, so = 0.00987654f;
  tfcc_arith_q_prepare_mul(&q, s1, 0, s2, 0, so, 0);
  int32_t m;
  int sh;
  tfcc_quantize_multiplier((double)((s1 * s2) / so), &m, &sh);
  CHECK(q.out_mult == m && q.out_shift == sh);
  int32_t l2 = 0;
  CHECK(tfcc_checked_log2(0.125f, &l2) && l2 == -3);
  CHECK(!tfcc_checked_log2(0.1f, &l2));
  /* GetReciprocal: 1/x in Q0.31 with the exponent split off. */
  int recip_shift = 0;
  int32_t r = tfcc_q_reciprocal(3, 31, &recip_shift);
  double approx = (double)r / 2147483648.0 * pow(2.0, -recip_shift);
  CHECKF(fabs(approx - 1.0 / 3.0) < 1e-6, "reciprocal %g", approx);
  CHECK(tfcc_q_clrsb32(0) == 31 && tfcc_q_clrsb32(-1) == 31 && tfcc_q_clrsb32(1) == 30 &&
        tfcc_q_clrsb32(INT32_MIN) == 0);
}

static void test_errors(void) {
  float fa[4] = {0}, fo[16];
  int32_t ia[4] = {0};
  const int32_t d4[1] = {4}, d3[1] = {3}, d22[2] = {2, 2};
  tfcc_err err;
  tfcc_tensor ta = oh_tensor(TFCC_FLOAT32, 1, d4, fa, NULL),
              tb = oh_tensor(TFCC_INT32, 1, d4, ia, NULL);
  tfcc_tensor to = oh_tensor(TFCC_FLOAT32, 0, NULL, fo, NULL);
  tfcc_tensor *in[2] = {&ta, &tb};
  CHECK(etu_run(TFCC_OP_ADD, in, 2, &to, NULL, &err) == TFCC_ERR_DTYPE);
  CHECKF(strstr(err.msg, "input 1 dtype int32, expected float32") != NULL, "%s", err.msg);
  tfcc_tensor tc = oh_tensor(TFCC_FLOAT32, 1, d3, fa, NULL);
  in[1] = &tc;
  CHECK(etu_run(TFCC_OP_MUL, in, 2, &to, NULL, &err) == TFCC_ERR_SHAPE);
  CHECKF(strstr(err.msg, "[4] and [3] do not broadcast") != NULL, "%s", err.msg);
  tfcc_tensor td = oh_tensor(TFCC_FLOAT32, 2, d22, fa, NULL);
  in[1] = &td; /* [4] vs [2,2] */
  CHECK(etu_run(TFCC_OP_SUB, in, 2, &to, NULL, &err) == TFCC_ERR_SHAPE);
  in[1] = &ta;
  etu_opts tanh_opts = {11, 4, -1};
  CHECK(etu_run(TFCC_OP_ADD, in, 2, &to, &tanh_opts, &err) == TFCC_ERR_UNSUPPORTED);
  tfcc_tensor tbool = oh_tensor(TFCC_BOOL, 1, d4, fa, NULL),
              tbo = oh_tensor(TFCC_BOOL, 0, NULL, fo, NULL);
  tfcc_tensor *inb[2] = {&tbool, &tbool};
  CHECK(etu_run(TFCC_OP_ADD, inb, 2, &tbo, NULL, &err) == TFCC_ERR_UNSUPPORTED);
  /* Quantized input without quantization parameters. */
  uint8_t ua[4] = {0}, uo[4];
  tfcc_tensor qa = oh_tensor(TFCC_UINT8, 1, d4, ua, NULL),
              qo = oh_tensor(TFCC_UINT8, 0, NULL, uo, NULL);
  tfcc_tensor *inq[2] = {&qa, &qa};
  CHECK(etu_run(TFCC_OP_ADD, inq, 2, &qo, NULL, &err) == TFCC_ERR_INVALID_MODEL);
  /* Quantized DIV by a value equal to the zero point. */
  oh_qparam qq;
  oh_qparam_set(&qq, 0.5f, 3);
  ua[2] = 3;
  qa = oh_tensor(TFCC_UINT8, 1, d4, ua, &qq.q);
  qo = oh_tensor(TFCC_UINT8, 0, NULL, uo, &qq.q);
  CHECK(etu_run(TFCC_OP_DIV, inq, 2, &qo, NULL, &err) == TFCC_ERR_RUNTIME);
  CHECKF(strstr(err.msg, "division by zero at input 1 element 2") != NULL, "%s", err.msg);
  /* Missing input. */
  tfcc_tensor *inm[2] = {&ta, NULL};
  CHECK(etu_run(TFCC_OP_ADD, inm, 2, &to, NULL, &err) == TFCC_ERR_INVALID_MODEL);
}

static void test_add_n(void) {
  const int32_t d[2] = {2, 3};
  float x0[6], x1[6], x2[6], o[6];
  for (int i = 0; i < 6; i++) {
    x0[i] = oh_randf(-1, 1);
    x1[i] = oh_randf(-1, 1);
    x2[i] = oh_randf(-1, 1);
  }
  tfcc_tensor t0 = oh_tensor(TFCC_FLOAT32, 2, d, x0, NULL),
              t1 = oh_tensor(TFCC_FLOAT32, 2, d, x1, NULL),
              t2 = oh_tensor(TFCC_FLOAT32, 2, d, x2, NULL),
              to = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
  tfcc_tensor *in[3] = {&t0, &t1, &t2};
  tfcc_err err;
  CHECK(etu_run(TFCC_OP_ADD_N, in, 3, &to, NULL, &err) == TFCC_OK);
  for (int i = 0; i < 6; i++) CHECK(o[i] == (x0[i] + x1[i]) + x2[i]);
  const int32_t d2[2] = {3, 2};
  tfcc_tensor bad = oh_tensor(TFCC_FLOAT32, 2, d2, x2, NULL);
  in[2] = &bad;
  CHECK(etu_run(TFCC_OP_ADD_N, in, 3, &to, NULL, &err) == TFCC_ERR_SHAPE);
}

int main(void) {
  test_float();
  test_int();
  test_quantized();
  test_int16_pot();
  test_div_shift_overflow();
  test_params();
  test_errors();
  test_add_n();
  return tfcc_test_finish("ops.binary");
}
