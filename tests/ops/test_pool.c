/* AVERAGE_POOL_2D, MAX_POOL_2D (float32, uint8, int8, int16) and L2_POOL_2D (float32) against
 * a straightforward reference; quantized results compared exactly (the average rounds half
 * away from zero, which the double reference reproduces exactly). */
#include "conv_family_test_util.h"
#include "ops/conv_common.h"

typedef struct pcfg {
  int32_t builtin;
  tfcc_dtype dt;
  int32_t n, h, w, c, fh, fw, sh, sw, padding, act;
} pcfg;

static void run_pool(const char *name, const pcfg *k) {
  int32_t oh =
      k->padding == TFCC_PAD_SAME ? (k->h + k->sh - 1) / k->sh : (k->h - k->fh + k->sh) / k->sh;
  int32_t ow =
      k->padding == TFCC_PAD_SAME ? (k->w + k->sw - 1) / k->sw : (k->w - k->fw + k->sw) / k->sw;
  int32_t th = (oh - 1) * k->sh + k->fh - k->h, tw = (ow - 1) * k->sw + k->fw - k->w;
  int32_t ph = th > 0 ? th / 2 : 0, pw = tw > 0 ? tw / 2 : 0;
  int64_t n_in = (int64_t)k->n * k->h * k->w * k->c, n_out = (int64_t)k->n * oh * ow * k->c;
  void *in = malloc((size_t)n_in * 4);
  double *rin = malloc(sizeof(double) * (size_t)n_in);
  int32_t lo = 0, hi = 0;
  float scale = 0.05f;
  int32_t zp = k->dt == TFCC_UINT8 ? 100 : k->dt == TFCC_INT8 ? -20 : 0;
  if (k->dt == TFCC_UINT8) {
    lo = 0;
    hi = 255;
  }
  if (k->dt == TFCC_INT8) {
    lo = -128;
    hi = 127;
  }
  if (k->dt == TFCC_INT16) {
    lo = -32768;
    hi = 32767;
    scale = 0.0005f;
  }
  for (int64_t i = 0; i < n_in; i++) {
    switch (k->dt) {
      case TFCC_FLOAT32:
        ((float *)in)[i] = oh_randf(-8, 8);
        rin[i] = ((float *)in)[i];
        break;
      case TFCC_UINT8:
        ((uint8_t *)in)[i] = (uint8_t)oh_randi(0, 255);
        rin[i] = ((uint8_t *)in)[i];
        break;
      case TFCC_INT8:
        ((int8_t *)in)[i] = (int8_t)oh_randi(-128, 127);
        rin[i] = ((int8_t *)in)[i];
        break;
      default:
        ((int16_t *)in)[i] = (int16_t)oh_randi(-32768, 32767);
        rin[i] = ((int16_t *)in)[i];
        break;
    }
  }
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = k->builtin;
  c.n_in = 1;
  int32_t di[4] = {k->n, k->h, k->w, k->c}, dout[4] = {k->n, oh, ow, k->c};
  tt_set(&c.in[0], k->dt, 4, di, in);
  tt_set(&c.out, k->dt, 4, dout, NULL);
  if (k->dt != TFCC_FLOAT32) {
    tt_q(&c.in[0], scale, zp);
    tt_q(&c.out, scale, zp);
    /* activation range as TFLite: quantize the real bounds */
    if (k->act == 1 || k->act == 3) lo = lo > zp ? lo : zp;
    if (k->act == 3) {
      int32_t s = zp + (int32_t)roundf(6.f / scale);
      hi = hi < s ? hi : s;
    }
  }
  tt_opt_i(&c, 0, TFB_U8, k->padding);
  tt_opt_i(&c, 1, TFB_I32, k->sw);
  tt_opt_i(&c, 2, TFB_I32, k->sh);
  tt_opt_i(&c, 3, TFB_I32, k->fw);
  tt_opt_i(&c, 4, TFB_I32, k->fh);
  tt_opt_i(&c, 5, TFB_U8, k->act);
  tfcc_status st = tt_run(&c, true);
  CHECKF(st == TFCC_OK, "%s: %s", name, c.err.msg);
  if (st == TFCC_OK) {
    CHECK(c.out_dims[1] == oh && c.out_dims[2] == ow);
    double *want = malloc(sizeof(double) * (size_t)n_out);
    for (int32_t b = 0; b < k->n; b++)
      for (int32_t y = 0; y < oh; y++)
        for (int32_t x = 0; x < ow; x++)
          for (int32_t ch = 0; ch < k->c; ch++) {
            double s = 0, m = -INFINITY;
            int cnt = 0;
            for (int32_t i = 0; i < k->fh; i++)
              for (int32_t j = 0; j < k->fw; j++) {
                int32_t iy = y * k->sh - ph + i, ix = x * k->sw - pw + j;
                if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w) continue;
                double v = rin[((b * k->h + iy) * k->w + ix) * k->c + ch];
                s += k->builtin == TFCC_OP_L2_POOL_2D ? v * v : v;
                m = v > m ? v : m;
                cnt++;
              }
            double r = k->builtin == TFCC_OP_MAX_POOL_2D  ? m
                       : k->builtin == TFCC_OP_L2_POOL_2D ? sqrt(s / cnt)
                                                          : s / cnt;
            want[((b * oh + y) * ow + x) * k->c + ch] = r;
          }
    if (k->dt == TFCC_FLOAT32) {
      for (int64_t i = 0; i < n_out; i++) {
        if ((k->act == 1 || k->act == 3) && want[i] < 0) want[i] = 0;
        if (k->act == 3 && want[i] > 6) want[i] = 6;
      }
      oh_cmp_f(name, c.out_data, want, n_out, 1e-5);
    } else {
      int64_t bad = 0;
      for (int64_t i = 0; i < n_out; i++) {
        double r = round(want[i]); /* half away from zero */
        int32_t e = (int32_t)(r < lo ? lo : r > hi ? hi : r);
        if (oh_get_q(c.out_data, k->dt, i) != e) bad++;
      }
      CHECKF(bad == 0, "%s: %lld elements differ", name, (long long)bad);
    }
    free(want);
  }
  tt_done(&c);
  free(in);
  free(rin);
}

static void test_numerics(void) {
  const tfcc_dtype dts[4] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  const int32_t ops[3] = {TFCC_OP_AVERAGE_POOL_2D, TFCC_OP_MAX_POOL_2D, TFCC_OP_L2_POOL_2D};
  for (int o = 0; o < 3; o++)
    for (int d = 0; d < 4; d++) {
      if (ops[o] == TFCC_OP_L2_POOL_2D && d > 0) continue;
      char name[80];
      pcfg k = {ops[o], dts[d], 2, 7, 6, 3, 3, 2, 2, 2, TFCC_PAD_SAME, 0};
      snprintf(name, sizeof(name), "op%d %s same 3x2 s2", (int)ops[o], tfcc_dtype_name(dts[d]));
      run_pool(name, &k);
      pcfg v = {ops[o], dts[d], 1, 9, 5, 4, 2, 3, 3, 1, TFCC_PAD_VALID, 1};
      snprintf(name, sizeof(name), "op%d %s valid relu", (int)ops[o], tfcc_dtype_name(dts[d]));
      run_pool(name, &v);
      pcfg g = {ops[o], dts[d], 1, 8, 8, 2, 8, 8, 1, 1, TFCC_PAD_VALID, 3};
      snprintf(name, sizeof(name), "op%d %s global relu6", (int)ops[o], tfcc_dtype_name(dts[d]));
      run_pool(name, &g);
      pcfg s = {ops[o], dts[d], 1, 5, 5, 1, 4, 4, 1, 1, TFCC_PAD_SAME, 0};
      snprintf(name, sizeof(name), "op%d %s same 4x4 s1", (int)ops[o], tfcc_dtype_name(dts[d]));
      run_pool(name, &s);
    }
}

/* int8 average rounding: -5/2 -> -3 and 5/2 -> 3 (half away from zero). */
static void test_avg_rounding(void) {
  int8_t in[4] = {-2, -3, 2, 3};
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_AVERAGE_POOL_2D;
  c.n_in = 1;
  int32_t di[4] = {1, 1, 4, 1}, dout[4] = {1, 1, 2, 1};
  tt_set(&c.in[0], TFCC_INT8, 4, di, in);
  tt_set(&c.out, TFCC_INT8, 4, dout, NULL);
  tt_q(&c.in[0], 1.f, 0);
  tt_q(&c.out, 1.f, 0);
  tt_opt_i(&c, 0, TFB_U8, TFCC_PAD_VALID);
  tt_opt_i(&c, 1, TFB_I32, 2);
  tt_opt_i(&c, 2, TFB_I32, 1);
  tt_opt_i(&c, 3, TFB_I32, 2);
  tt_opt_i(&c, 4, TFB_I32, 1);
  CHECK(tt_run(&c, true) == TFCC_OK);
  if (c.out_data) {
    CHECK(((int8_t *)c.out_data)[0] == -3);
    CHECK(((int8_t *)c.out_data)[1] == 3);
  }
  tt_done(&c);
}

/* A quantized average over a window whose sum passes int32 (fuzz53: TFLite's int32 sum
 * overflows there; tfcc's reference sums in int64): 257 x 257 int16 taps of 32767 (2.16e9) and
 * of -32768, 2903 x 2903 uint8 taps of 255 (2.15e9; over 65,535 taps: the reference kernel).
 * The mean is the value itself (UBSan reported the int32 sum before). */
static void avg_one(tfcc_dtype dt, int32_t side, int32_t v) {
  const size_t es = tfcc_dtype_size(dt), n = (size_t)side * (size_t)side;
  void *in = malloc(n * es);
  for (size_t i = 0; i < n; i++) {
    if (dt == TFCC_INT16)
      ((int16_t *)in)[i] = (int16_t)v;
    else
      ((uint8_t *)in)[i] = (uint8_t)v;
  }
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_AVERAGE_POOL_2D;
  c.n_in = 1;
  int32_t di[4] = {1, side, side, 1}, dout[4] = {1, 1, 1, 1};
  tt_set(&c.in[0], dt, 4, di, in);
  tt_set(&c.out, dt, 4, dout, NULL);
  tt_q(&c.in[0], 1.f, 0);
  tt_q(&c.out, 1.f, 0);
  tt_opt_i(&c, 0, TFB_U8, TFCC_PAD_VALID);
  tt_opt_i(&c, 1, TFB_I32, 1);
  tt_opt_i(&c, 2, TFB_I32, 1);
  tt_opt_i(&c, 3, TFB_I32, side);
  tt_opt_i(&c, 4, TFB_I32, side);
  tfcc_status st = tt_run(&c, true);
  CHECKF(st == TFCC_OK, "avg %s %dx%d: %s", tfcc_dtype_name(dt), (int)side, (int)side, c.err.msg);
  if (st == TFCC_OK && c.out_data)
    CHECKF(oh_get_q(c.out_data, dt, 0) == v, "avg %s %dx%d of %d: %d", tfcc_dtype_name(dt),
           (int)side, (int)side, (int)v, (int)oh_get_q(c.out_data, dt, 0));
  tt_done(&c);
  free(in);
}

static void test_avg_sum_past_int32(void) {
  avg_one(TFCC_INT16, 257, 32767);
  avg_one(TFCC_INT16, 257, -32768);
  avg_one(TFCC_UINT8, 2903, 255);
}

static void test_errors(void) {
  static uint8_t buf[256];
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_L2_POOL_2D;
  c.n_in = 1;
  int32_t di[4] = {1, 4, 4, 1};
  tt_set(&c.in[0], TFCC_INT8, 4, di, buf);
  tt_set(&c.out, TFCC_INT8, 4, di, NULL);
  tt_q(&c.in[0], 1.f, 0);
  tt_q(&c.out, 1.f, 0);
  tt_opt_i(&c, 1, TFB_I32, 1);
  tt_opt_i(&c, 2, TFB_I32, 1);
  tt_opt_i(&c, 3, TFB_I32, 2);
  tt_opt_i(&c, 4, TFB_I32, 2);
  tt_expect_fail(&c, false, "L2_POOL_2D: input dtype int8 unsupported");
  c.builtin = TFCC_OP_MAX_POOL_2D;
  c.out.dtype = TFCC_UINT8;
  tt_expect_fail(&c, false, "output dtype uint8, expected int8");
  c.out.dtype = TFCC_INT8;
  c.opts[2].i = 0; /* filter width 0 */
  tt_expect_fail(&c, false, "filter 2x0 must be positive");
  c.opts[2].i = 2;
  c.in[0].rank = 3;
  tt_expect_fail(&c, false, "input rank 3");
  c.in[0].rank = 4;
  c.in[0].dtype = c.out.dtype = TFCC_INT32;
  tt_expect_fail(&c, false, "input dtype int32 unsupported");
}

int main(void) {
  test_numerics();
  test_avg_rounding();
  test_avg_sum_past_int32();
  test_errors();
  return tfcc_test_finish("pool");
}
