/* QUANTIZE (float -> uint8/int8/int16, per-tensor and per-axis; requantize between 8/16-bit
 * types) and DEQUANTIZE (uint8/int8/int16 per-tensor and per-axis, float16). */
#include "act_test_util.h"

#include "kernels/ref/quantize.h"

static tfcc_status run1(int32_t op, att_tensor *in, att_tensor *out, tfcc_err *err) {
  att_tensor *ins[1] = {in};
  return att_run(op, ins, 1, out, att_no_options(), err);
}

/* Straightforward quantize: x / scale in float, round half away from zero, add zp, clamp. */
static int32_t ref_quantize(float x, float scale, int32_t zp, tfcc_dtype t) {
  float q = roundf(x / scale);
  double v = (double)q + zp;
  if (v < att_qmin(t)) v = att_qmin(t);
  if (v > att_qmax(t)) v = att_qmax(t);
  return (int32_t)v;
}

static void test_quantize_float(void) {
  const tfcc_dtype types[3] = {TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  const int32_t zps[3] = {128, -5, 0};
  enum { N = 3 * 41 };
  float x[N];
  int16_t q[N];
  for (int i = 0; i < N; i++) x[i] = att_uniform(-300, 300);
  /* exact halves round away from zero; +-inf and huge values saturate */
  x[0] = 0.25f;
  x[1] = -0.25f;
  x[2] = 0.75f;
  x[3] = -0.75f;
  x[4] = INFINITY;
  x[5] = -INFINITY;
  x[6] = 1e30f;
  x[7] = -1e30f;
  x[8] = 0.f;
  int32_t dims[2] = {3, 41};
  for (int k = 0; k < 3; k++) {
    const float scale = k == 2 ? 0.5f / 64 : 0.5f;
    att_tensor in, out;
    att_make(&in, TFCC_FLOAT32, 2, dims, x, 0, 0);
    att_make(&out, types[k], 2, dims, q, scale, zps[k]);
    tfcc_err err = {0};
    CHECKF(run1(TFCC_OP_QUANTIZE, &in, &out, &err) == TFCC_OK, "%s", err.msg);
    for (int i = 0; i < N; i++) {
      const int32_t want = ref_quantize(x[i], scale, zps[k], types[k]);
      CHECKF(att_get(types[k], q, (size_t)i) == want, "quantize %s x=%g: %d vs %d",
             tfcc_dtype_name(types[k]), (double)x[i], (int)att_get(types[k], q, (size_t)i),
             (int)want);
    }
  }
  /* half-way cases explicitly: 0.25 / 0.5 = 0.5 -> 1, -0.5 -> -1 */
  int8_t q8[4];
  float h[4] = {0.25f, -0.25f, 0.75f, -0.75f};
  int32_t d4[1] = {4};
  att_tensor in, out;
  tfcc_err err = {0};
  att_make(&in, TFCC_FLOAT32, 1, d4, h, 0, 0);
  att_make(&out, TFCC_INT8, 1, d4, q8, 0.5f, 0);
  CHECK(run1(TFCC_OP_QUANTIZE, &in, &out, &err) == TFCC_OK);
  CHECKF(q8[0] == 1 && q8[1] == -1 && q8[2] == 2 && q8[3] == -2, "%d %d %d %d", q8[0], q8[1], q8[2],
         q8[3]);
}

static void test_quantize_per_axis(void) {
  enum { A = 2, C = 3, B = 4, N = A * C * B };
  float x[N], back[N];
  int8_t q[N];
  for (int i = 0; i < N; i++) x[i] = att_uniform(-1, 1); /* inside every channel's range */
  float scales[C] = {0.01f, 0.02f, 0.05f};
  int32_t zps[C] = {0, 3, -7};
  att_tensor in, out;
  int32_t dims[3] = {A, C, B};
  att_make(&in, TFCC_FLOAT32, 3, dims, x, 0, 0);
  att_make(&out, TFCC_INT8, 3, dims, q, 1, 0);
  out.q.count = C;
  out.q.axis = 1;
  out.q.scale = scales;
  out.q.zero_point = zps;
  tfcc_err err = {0};
  CHECKF(run1(TFCC_OP_QUANTIZE, &in, &out, &err) == TFCC_OK, "%s", err.msg);
  for (int a = 0, i = 0; a < A; a++)
    for (int c = 0; c < C; c++)
      for (int b = 0; b < B; b++, i++)
        CHECKF(q[i] == ref_quantize(x[i], scales[c], zps[c], TFCC_INT8), "per-axis %d", i);
  /* and back through DEQUANTIZE per-axis: scale[c] * (q - zp[c]) in float */
  att_tensor qin, fout;
  att_make(&qin, TFCC_INT8, 3, dims, q, 1, 0);
  qin.q = out.q;
  qin.t.quant = &qin.q;
  att_make(&fout, TFCC_FLOAT32, 3, dims, back, 0, 0);
  CHECKF(run1(TFCC_OP_DEQUANTIZE, &qin, &fout, &err) == TFCC_OK, "%s", err.msg);
  for (int a = 0, i = 0; a < A; a++)
    for (int c = 0; c < C; c++)
      for (int b = 0; b < B; b++, i++) {
        CHECK(back[i] == scales[c] * (float)(q[i] - zps[c]));
        CHECK(fabsf(back[i] - x[i]) <= scales[c] * 0.5f + 1e-6f);
      }
  /* axis that does not match the shape */
  qin.q.axis = 2;
  CHECK(run1(TFCC_OP_DEQUANTIZE, &qin, &fout, &err) == TFCC_ERR_SHAPE);
}

static void test_requantize(void) {
  static int16_t in[65536], out[65536];
  const struct {
    tfcc_dtype it, ot;
    float si;
    int32_t zi;
    float so;
    int32_t zo;
    bool exact;
  } cases[] = {
      {TFCC_UINT8, TFCC_INT8, 0.0078125f, 128, 0.0078125f, 0, true}, /* the x ^ 0x80 case */
      {TFCC_INT8, TFCC_UINT8, 0.02f, -3, 0.02f, 125, true},          /* same scale: shift */
      {TFCC_UINT8, TFCC_UINT8, 0.0517f, 100, 0.0301f, 7, false},
      {TFCC_INT8, TFCC_INT8, 0.0517f, 10, 0.1301f, -20, false},
      {TFCC_UINT8, TFCC_INT8, 0.00784313772f, 127, 0.0123f, -1, false},
      {TFCC_INT16, TFCC_INT8, 1.f / 2000, 0, 0.0311f, 4, false},
      {TFCC_INT16, TFCC_INT16, 1.f / 2000, 0, 1.f / 3001, 0, false},
      {TFCC_INT8, TFCC_INT16, 0.0517f, 10, 1.f / 3001, 0, false},
      {TFCC_UINT8, TFCC_INT16, 0.0517f, 131, 1.f / 3001, 0, false}, /* types: QUANTIZE v6 */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    size_t n = 0;
    const int32_t step = cases[k].it == TFCC_INT16 ? 13 : 1;
    for (int32_t v = att_qmin(cases[k].it); v <= att_qmax(cases[k].it); v += step)
      att_set(cases[k].it, in, n++, v);
    int32_t dims[1] = {(int32_t)n};
    att_tensor ti, to;
    att_make(&ti, cases[k].it, 1, dims, in, cases[k].si, cases[k].zi);
    att_make(&to, cases[k].ot, 1, dims, out, cases[k].so, cases[k].zo);
    tfcc_err err = {0};
    CHECKF(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_OK, "%s", err.msg);
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
      const int32_t x = att_get(cases[k].it, in, i);
      const int32_t want = att_quantize((double)cases[k].si * (x - cases[k].zi), cases[k].so,
                                        cases[k].zo, cases[k].ot);
      const int32_t got = att_get(cases[k].ot, out, i);
      if (cases[k].exact)
        CHECKF(got == want, "requantize case %zu: %d -> %d, expected %d", k, (int)x, (int)got,
               (int)want);
      else
        CHECKF(abs(got - want) <= 1, "requantize case %zu: %d -> %d, expected %d", k, (int)x,
               (int)got, (int)want);
      off += got != want;
    }
    /* TFLite rounds twice (SRDHM, then the rounding shift): with a right shift of 1 up to
     * ~1/4 of the values land one unit from single rounding. */
    CHECKF(off <= n * 3 / 10, "requantize case %zu: %zu of %zu off", k, off, n);
    printf("  requantize %s->%s: %zu/%zu off by 1\n", tfcc_dtype_name(cases[k].it),
           tfcc_dtype_name(cases[k].ot), off, n);
  }
  /* unsupported pairs */
  int32_t d1[1] = {1};
  att_tensor ti, to;
  tfcc_err err = {0};
  att_make(&ti, TFCC_UINT8, 1, d1, in, 0.1f, 0);
  att_make(&to, TFCC_INT32, 1, d1, out, 0.1f, 0); /* uint8 -> int16 is QUANTIZE v6 (types) */
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "uint8") != NULL);
  /* int16 zero points must be 0 for int16 -> int16 only (quantize.cc Prepare): float32 ->
   * int16 and int16 -> int8 take any (conformance quantize_f32_to_i16_zp, _i16_zp_to_i8) */
  att_make(&ti, TFCC_INT16, 1, d1, in, 0.1f, 0);
  att_make(&to, TFCC_INT16, 1, d1, out, 0.1f, 5);
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "int16 -> int16: output zero point 5, must be 0") != NULL);
  att_make(&ti, TFCC_INT16, 1, d1, in, 0.1f, -7);
  att_make(&to, TFCC_INT16, 1, d1, out, 0.1f, 0);
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "int16 -> int16: input zero point -7, must be 0") != NULL);
  att_make(&ti, TFCC_FLOAT32, 1, d1, in, 0, 0);
  att_make(&to, TFCC_INT16, 1, d1, out, 0.1f, 5);
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_OK);
  att_make(&to, TFCC_INT8, 1, d1, out, 0.f, 0);
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_ERR_INVALID_MODEL);
}

/* int16 <-> int32 requantization (quantize.cc's int32 cases): within one unit of the exact
 * double result (TFLite rounds twice), int32 inputs saturate to int16, int32 zero points are
 * free, and a pair TFLite lacks (int32 -> int32, uint8 -> int32) is refused. */
static void test_requantize_int32(void) {
  enum { N = 4096 };
  static int16_t i16[N];
  static int32_t i32[N];
  int32_t dims[1] = {N};
  att_tensor ti, to;
  tfcc_err err = {0};
  /* int16 -> int32, scale ratio ~3317 (the seanet model) */
  for (int i = 0; i < N; i++) i16[i] = (int16_t)(-32768 + i * 16);
  i16[N - 1] = 32767;
  att_make(&ti, TFCC_INT16, 1, dims, i16, 0.0004943124367855489f, 0);
  att_make(&to, TFCC_INT32, 1, dims, i32, 1.4901161193847656e-07f, 0);
  CHECKF(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_OK, "%s", err.msg);
  for (int i = 0; i < N; i++) {
    const double want = (double)0.0004943124367855489f / (double)1.4901161193847656e-07f * i16[i];
    CHECKF(fabs((double)i32[i] - want) <= 1.0, "int16 %d -> int32 %d, expected %.1f", i16[i],
           (int)i32[i], want);
  }
  /* int32 -> int16 with an int32 zero point; large inputs saturate */
  for (int i = 0; i < N; i++) i32[i] = (int32_t)((i - N / 2) * 524287);
  att_make(&ti, TFCC_INT32, 1, dims, i32, 1.f / 65536, 1000000);
  att_make(&to, TFCC_INT16, 1, dims, i16, 1.f / 2048, 0);
  CHECKF(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_OK, "%s", err.msg);
  for (int i = 0; i < N; i++) {
    double want = ((double)i32[i] - 1000000.0) / 32.0;
    want = want < -32768 ? -32768 : (want > 32767 ? 32767 : want);
    CHECKF(fabs((double)i16[i] - want) <= 1.0, "int32 %d -> int16 %d, expected %.1f", (int)i32[i],
           i16[i], want);
  }
  /* int32 -> int8 */
  static int8_t i8[N];
  att_make(&to, TFCC_INT8, 1, dims, i8, 1.f / 16, -3);
  CHECKF(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_OK, "%s", err.msg);
  for (int i = 0; i < N; i++) {
    double want = ((double)i32[i] - 1000000.0) / 4096.0 - 3;
    want = want < -128 ? -128 : (want > 127 ? 127 : want);
    CHECKF(fabs((double)i8[i] - want) <= 1.0, "int32 %d -> int8 %d", (int)i32[i], i8[i]);
  }
  att_make(&to, TFCC_INT32, 1, dims, i32, 1.f, 0);
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "int32->int8|int16") != NULL);
  att_make(&ti, TFCC_UINT8, 1, dims, i8, 1.f, 0);
  CHECK(run1(TFCC_OP_QUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
}

static void test_dequantize(void) {
  static int16_t in[65536];
  static float out[65536];
  const struct {
    tfcc_dtype t;
    float s;
    int32_t z;
  } cases[] = {{TFCC_UINT8, 0.0235f, 131}, {TFCC_INT8, 0.0117f, -9}, {TFCC_INT16, 1.f / 3000, 0}};
  for (int k = 0; k < 3; k++) {
    size_t n = 0;
    for (int32_t v = att_qmin(cases[k].t); v <= att_qmax(cases[k].t); v++)
      att_set(cases[k].t, in, n++, v);
    int32_t dims[1] = {(int32_t)n};
    att_tensor ti, to;
    att_make(&ti, cases[k].t, 1, dims, in, cases[k].s, cases[k].z);
    att_make(&to, TFCC_FLOAT32, 1, dims, out, 0, 0);
    tfcc_err err = {0};
    CHECKF(run1(TFCC_OP_DEQUANTIZE, &ti, &to, &err) == TFCC_OK, "%s", err.msg);
    for (size_t i = 0; i < n; i++) {
      const float want = (float)((double)cases[k].s * (att_get(cases[k].t, in, i) - cases[k].z));
      CHECKF(out[i] == want, "dequantize %s %d: %g vs %g", tfcc_dtype_name(cases[k].t),
             (int)att_get(cases[k].t, in, i), (double)out[i], (double)want);
    }
  }
  /* float16: every bit pattern, against ldexp arithmetic */
  uint16_t *h = (uint16_t *)in;
  for (uint32_t i = 0; i < 65536; i++) h[i] = (uint16_t)i;
  int32_t dims[1] = {65536};
  att_tensor ti, to;
  att_make(&ti, TFCC_FLOAT16, 1, dims, h, 0, 0);
  att_make(&to, TFCC_FLOAT32, 1, dims, out, 0, 0);
  tfcc_err err = {0};
  CHECKF(run1(TFCC_OP_DEQUANTIZE, &ti, &to, &err) == TFCC_OK, "%s", err.msg);
  int bad = 0;
  for (uint32_t i = 0; i < 65536; i++) {
    const int sign = (i >> 15) & 1, e = (int)((i >> 10) & 31), m = (int)(i & 1023);
    float want;
    if (e == 31)
      want = m ? NAN : INFINITY;
    else if (e == 0)
      want = (float)ldexp((double)m, -24);
    else
      want = (float)ldexp(1024.0 + m, e - 25);
    if (sign) want = -want;
    const bool ok = m && e == 31 ? (isnan(out[i]) && !!signbit(out[i]) == sign)
                                 : out[i] == want && !!signbit(out[i]) == !!signbit(want);
    bad += !ok;
  }
  CHECKF(bad == 0, "float16 decode: %d wrong", bad);
  CHECK(tfcc_half_to_float(0x0001) == 5.9604644775390625e-8f);
  CHECK(tfcc_half_to_float(0x3c00) == 1.0f && tfcc_half_to_float(0xc000) == -2.0f);
  CHECK(tfcc_half_to_float(0x7bff) == 65504.0f);
  /* unsupported input / output */
  att_make(&ti, TFCC_INT32, 1, dims, in, 0.1f, 0);
  CHECK(run1(TFCC_OP_DEQUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
  att_make(&ti, TFCC_INT8, 1, dims, in, 0.1f, 0);
  att_make(&to, TFCC_INT8, 1, dims, out, 0.1f, 0);
  CHECK(run1(TFCC_OP_DEQUANTIZE, &ti, &to, &err) == TFCC_ERR_DTYPE);
  att_make(&ti, TFCC_INT16, 1, dims, in, 0.1f, 4);
  att_make(&to, TFCC_FLOAT32, 1, dims, out, 0, 0);
  CHECK(run1(TFCC_OP_DEQUANTIZE, &ti, &to, &err) == TFCC_ERR_UNSUPPORTED);
}

int main(void) {
  test_quantize_float();
  test_quantize_per_axis();
  test_requantize();
  test_requantize_int32();
  test_dequantize();
  return tfcc_test_finish("ops.quantize");
}
