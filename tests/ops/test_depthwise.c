/* DEPTHWISE_CONV_2D: float32, uint8, int8 per-channel, int16x8 against a double-precision
 * reference on the dequantized values (quantized: at most 1 unit off, differences counted). */
#include "conv_family_test_util.h"
#include "kernels/ref/quant_util.h"
#include "ops/conv_common.h"

typedef struct conv_cfg {
  tfcc_dtype dt;
  int32_t n, h, w, c, oc, fh, fw, fic;
  int32_t sh, sw, dh, dw, padding, act;
  bool bias;
  bool per_channel;
  tfcc_dtype bias_dt; /* int16: int64 or int32 */
} conv_cfg;

/* Straightforward depthwise conv on real values; out: [n, oh, ow, oc], oc = c * mult. */
static void ref_conv(const conv_cfg *k, int32_t oh, int32_t ow, int32_t ph, int32_t pw,
                     const double *in, const double *f, const double *bias, double *out) {
  int32_t mult = k->oc / k->c;
  for (int32_t b = 0; b < k->n; b++)
    for (int32_t y = 0; y < oh; y++)
      for (int32_t x = 0; x < ow; x++)
        for (int32_t ci = 0; ci < k->c; ci++)
          for (int32_t m = 0; m < mult; m++) {
            int32_t o = ci * mult + m;
            double s = bias ? bias[o] : 0.0;
            for (int32_t i = 0; i < k->fh; i++)
              for (int32_t j = 0; j < k->fw; j++) {
                int32_t iy = y * k->sh - ph + i * k->dh, ix = x * k->sw - pw + j * k->dw;
                if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w) continue;
                s += in[((b * k->h + iy) * k->w + ix) * k->c + ci] * f[(i * k->fw + j) * k->oc + o];
              }
            out[((b * oh + y) * ow + x) * k->oc + o] = s;
          }
}

static int32_t out_size(int32_t pad, int32_t in, int32_t f, int32_t s, int32_t d) {
  int32_t eff = (f - 1) * d + 1;
  return pad == TFCC_PAD_SAME ? (in + s - 1) / s : (in - eff + s) / s;
}
static int32_t pad_of(int32_t in, int32_t f, int32_t s, int32_t d, int32_t o) {
  int32_t t = (o - 1) * s + (f - 1) * d + 1 - in;
  return t > 0 ? t / 2 : 0;
}

static void act_real(int32_t act, double *lo, double *hi) {
  *lo = -INFINITY;
  *hi = INFINITY;
  if (act == 1) *lo = 0;
  if (act == 3) {
    *lo = 0;
    *hi = 6;
  }
  if (act == 2) {
    *lo = -1;
    *hi = 1;
  }
}

static void qrange(tfcc_dtype dt, int32_t *lo, int32_t *hi) {
  *lo = dt == TFCC_UINT8 ? 0 : dt == TFCC_INT8 ? -128 : -32768;
  *hi = dt == TFCC_UINT8 ? 255 : dt == TFCC_INT8 ? 127 : 32767;
}

/* Quantized activation clamp computed like TFLite (quantize the real bounds with float
 * division and round, then clamp to the storage range). */
static void act_q(int32_t act, float scale, int32_t zp, tfcc_dtype dt, int32_t *lo, int32_t *hi) {
  qrange(dt, lo, hi);
  double rl, rh;
  act_real(act, &rl, &rh);
  if (rl > -INFINITY) {
    int32_t v = zp + (int32_t)roundf((float)rl / scale);
    if (v > *lo) *lo = v;
  }
  if (rh < INFINITY) {
    int32_t v = zp + (int32_t)roundf((float)rh / scale);
    if (v < *hi) *hi = v;
  }
}

static void run_cfg(const char *name, const conv_cfg *k) {
  int32_t oh = out_size(k->padding, k->h, k->fh, k->sh, k->dh);
  int32_t ow = out_size(k->padding, k->w, k->fw, k->sw, k->dw);
  int32_t ph = pad_of(k->h, k->fh, k->sh, k->dh, oh), pw = pad_of(k->w, k->fw, k->sw, k->dw, ow);
  int64_t n_in = (int64_t)k->n * k->h * k->w * k->c, n_f = (int64_t)k->oc * k->fh * k->fw;
  int64_t n_out = (int64_t)k->n * oh * ow * k->oc;
  size_t es = tfcc_dtype_size(k->dt);
  tfcc_dtype fdt = k->dt == TFCC_FLOAT32 ? TFCC_FLOAT32
                   : k->dt == TFCC_UINT8 ? TFCC_UINT8
                                         : TFCC_INT8;
  tfcc_dtype bdt = k->dt == TFCC_FLOAT32 ? TFCC_FLOAT32
                   : k->dt == TFCC_INT16 ? k->bias_dt
                                         : TFCC_INT32;
  void *in = malloc((size_t)n_in * es), *f = malloc((size_t)n_f * tfcc_dtype_size(fdt));
  void *bias = malloc((size_t)k->oc * 8);
  double *rin = malloc(sizeof(double) * (size_t)n_in), *rf = malloc(sizeof(double) * (size_t)n_f);
  double *rb = malloc(sizeof(double) * (size_t)k->oc),
         *rout = malloc(sizeof(double) * (size_t)n_out);
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_DEPTHWISE_CONV_2D;
  c.n_in = 3;
  int32_t di[4] = {k->n, k->h, k->w, k->c}, df[4] = {1, k->fh, k->fw, k->oc}, db[1] = {k->oc};
  int32_t dout[4] = {k->n, oh, ow, k->oc};
  tt_set(&c.in[0], k->dt, 4, di, in);
  tt_set(&c.in[1], fdt, 4, df, f);
  tt_set(&c.in[2], bdt, 1, db, bias);
  c.in[2].used = k->bias;
  tt_set(&c.out, k->dt, 4, dout, NULL);
  /* quantization */
  float in_s = 0.05f, out_s = 0.11f;
  int32_t in_zp = 0, out_zp = 0, f_zp = 0;
  if (k->dt == TFCC_UINT8) {
    in_zp = 131;
    out_zp = 121;
    f_zp = 117;
    out_s = 0.17f;
  }
  if (k->dt == TFCC_INT8) {
    in_zp = -7;
    out_zp = 5;
    out_s = 0.13f;
  }
  if (k->dt == TFCC_INT16) {
    in_s = 0.0007f;
    out_s = 0.0031f;
  }
  float fs[TT_MAXQ];
  int32_t nfs = k->per_channel ? k->oc : 1;
  for (int32_t i = 0; i < nfs; i++)
    fs[i] = k->dt == TFCC_UINT8 ? 0.0123f : 0.004f + 0.0011f * (float)i;
  if (k->dt != TFCC_FLOAT32) {
    tt_q(&c.in[0], in_s, in_zp);
    tt_q(&c.out, out_s, out_zp);
    c.in[1].nq = nfs;
    for (int32_t i = 0; i < nfs; i++) {
      c.in[1].qs[i] = fs[i];
      c.in[1].qz[i] = f_zp;
    }
    c.in[1].qaxis = 0;
  }
  for (int64_t i = 0; i < n_in; i++) {
    switch (k->dt) {
      case TFCC_FLOAT32:
        ((float *)in)[i] = oh_randf(-2, 2);
        rin[i] = ((float *)in)[i];
        break;
      case TFCC_UINT8: {
        int32_t v = oh_randi(0, 255);
        ((uint8_t *)in)[i] = (uint8_t)v;
        rin[i] = (double)in_s * (v - in_zp);
        break;
      }
      case TFCC_INT8: {
        int32_t v = oh_randi(-128, 127);
        ((int8_t *)in)[i] = (int8_t)v;
        rin[i] = (double)in_s * (v - in_zp);
        break;
      }
      default: {
        int32_t v = oh_randi(-32768, 32767);
        ((int16_t *)in)[i] = (int16_t)v;
        rin[i] = (double)in_s * v;
        break;
      }
    }
  }
  for (int64_t i = 0; i < n_f; i++) {
    int32_t o = (int32_t)(i % k->oc);
    double s = fs[k->per_channel ? o : 0];
    switch (fdt) {
      case TFCC_FLOAT32:
        ((float *)f)[i] = oh_randf(-1, 1);
        rf[i] = ((float *)f)[i];
        break;
      case TFCC_UINT8: {
        int32_t v = oh_randi(0, 255);
        ((uint8_t *)f)[i] = (uint8_t)v;
        rf[i] = s * (v - f_zp);
        break;
      }
      default: {
        int32_t v = oh_randi(-127, 127);
        ((int8_t *)f)[i] = (int8_t)v;
        rf[i] = s * v;
        break;
      }
    }
  }
  for (int32_t o = 0; o < k->oc; o++) {
    double bs = (double)in_s * fs[k->per_channel ? o : 0];
    switch (bdt) {
      case TFCC_FLOAT32:
        ((float *)bias)[o] = oh_randf(-1, 1);
        rb[o] = ((float *)bias)[o];
        break;
      case TFCC_INT32: {
        int32_t v = oh_randi(-3000, 3000);
        ((int32_t *)bias)[o] = v;
        rb[o] = bs * v;
        break;
      }
      default: {
        int64_t v = oh_randi(-300000, 300000);
        ((int64_t *)bias)[o] = v;
        rb[o] = bs * (double)v;
        break;
      }
    }
  }
  int oi = 0;
  tt_opt_i(&c, 0, TFB_U8, k->padding);
  tt_opt_i(&c, 1, TFB_I32, k->sw);
  tt_opt_i(&c, 2, TFB_I32, k->sh);
  tt_opt_i(&c, 3, TFB_I32, k->oc / k->c);
  tt_opt_i(&c, 4, TFB_U8, k->act);
  tt_opt_i(&c, 5, TFB_I32, k->dw);
  tt_opt_i(&c, 6, TFB_I32, k->dh);
  (void)oi;
  tfcc_status st = tt_run(&c, true);
  CHECKF(st == TFCC_OK, "%s: %s", name, c.err.msg);
  if (st == TFCC_OK) {
    CHECKF(c.out_rank == 4 && c.out_dims[1] == oh && c.out_dims[2] == ow && c.out_dims[3] == k->oc,
           "%s: output shape", name);
    CHECK(c.macs == (int64_t)k->n * oh * ow * k->oc * k->fh * k->fw);
    ref_conv(k, oh, ow, ph, pw, rin, rf, k->bias ? rb : NULL, rout);
    if (k->dt == TFCC_FLOAT32) {
      double lo, hi;
      act_real(k->act, &lo, &hi);
      for (int64_t i = 0; i < n_out; i++) rout[i] = rout[i] < lo ? lo : rout[i] > hi ? hi : rout[i];
      oh_cmp_f(name, c.out_data, rout, n_out, 1e-5);
    } else {
      int32_t lo, hi;
      act_q(k->act, out_s, out_zp, k->dt, &lo, &hi);
      int32_t *got = malloc(sizeof(int32_t) * (size_t)n_out),
              *want = malloc(sizeof(int32_t) * (size_t)n_out);
      for (int64_t i = 0; i < n_out; i++) {
        got[i] = oh_get_q(c.out_data, k->dt, i);
        want[i] = tt_quantize(rout[i], out_s, out_zp, lo, hi);
      }
      int64_t nd = oh_cmp_q(name, got, want, n_out, 1);
      printf("%s: %lld/%lld elements differ by 1 from the double reference\n", name, (long long)nd,
             (long long)n_out);
      /* 16x8: TFLite's int64 MultiplyByQuantizedMultiplier keeps only 16 bits of the
       * multiplier, so ties near .5 flip more often than with the 8-bit path. */
      int64_t allowed = k->dt == TFCC_INT16 ? n_out / 6 : n_out / 20;
      CHECKF(nd <= allowed, "%s: too many off-by-one elements", name);
      free(got);
      free(want);
    }
  }
  tt_done(&c);
  free(in);
  free(f);
  free(bias);
  free(rin);
  free(rf);
  free(rb);
  free(rout);
}

static void test_numerics(void) {
  const tfcc_dtype dts[4] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  for (int d = 0; d < 4; d++) {
    char name[64];
    /* n h w c oc fh fw fic sh sw dh dw */
    conv_cfg k = {dts[d],        2, 7,    5,      3,         6, 3, 2, 1, 2, 1, 1, 2,
                  TFCC_PAD_SAME, 0, true, d >= 2, TFCC_INT64};
    snprintf(name, sizeof(name), "%s mult2 same s2x1 d1x2", tfcc_dtype_name(dts[d]));
    run_cfg(name, &k);
    k.padding = TFCC_PAD_VALID;
    k.act = 1;
    k.bias = false;
    snprintf(name, sizeof(name), "%s valid relu nobias", tfcc_dtype_name(dts[d]));
    run_cfg(name, &k);
    conv_cfg g = {dts[d],        1, 9,    8,      8,         8, 3, 3, 1, 2, 2, 1, 1,
                  TFCC_PAD_SAME, 3, true, d >= 2, TFCC_INT32};
    snprintf(name, sizeof(name), "%s mult1 s2 relu6", tfcc_dtype_name(dts[d]));
    run_cfg(name, &g);
    conv_cfg p = {dts[d],        1, 5,    6,     2,         6, 5, 1, 1, 1, 3, 2, 1,
                  TFCC_PAD_SAME, 2, true, false, TFCC_INT64};
    snprintf(name, sizeof(name), "%s mult3 5x1 relu_n1_1", tfcc_dtype_name(dts[d]));
    run_cfg(name, &p);
  }
}

static void base_case(tt_case *c, tfcc_dtype dt, int32_t *in_dims, int32_t *f_dims) {
  static uint8_t buf[4096];
  memset(c, 0, sizeof(*c));
  c->builtin = TFCC_OP_DEPTHWISE_CONV_2D;
  c->n_in = 3;
  tfcc_dtype fdt = dt == TFCC_INT16 ? TFCC_INT8 : dt;
  tt_set(&c->in[0], dt, 4, in_dims, buf);
  tt_set(&c->in[1], fdt, 4, f_dims, buf);
  int32_t db[1] = {f_dims[3]};
  tt_set(&c->in[2], dt == TFCC_FLOAT32 ? TFCC_FLOAT32 : TFCC_INT32, 1, db, buf);
  int32_t dout[4] = {1, 1, 1, 1};
  tt_set(&c->out, dt, 4, dout, NULL);
  if (dt != TFCC_FLOAT32) {
    tt_q(&c->in[0], 0.1f, 0);
    tt_q(&c->in[1], 0.1f, 0);
    tt_q(&c->out, 0.1f, 0);
  }
  tt_opt_i(c, 1, TFB_I32, 1);
  tt_opt_i(c, 2, TFB_I32, 1);
}

static void test_errors(void) {
  tt_case c;
  int32_t di[4] = {1, 4, 4, 3}, df[4] = {1, 3, 3, 6};
  base_case(&c, TFCC_FLOAT32, di, df);
  c.in[1].dtype = TFCC_UINT8;
  tt_expect_fail(&c, false, "hybrid");
  base_case(&c, TFCC_INT8, di, df);
  c.in[1].dtype = TFCC_UINT8;
  tt_expect_fail(&c, false, "filter dtype uint8, expected int8");
  base_case(&c, TFCC_INT16, di, df);
  c.in[1].dtype = TFCC_INT16;
  tt_expect_fail(&c, false, "filter dtype int16, expected int8: int16 activations take int8");
  int32_t df2[4] = {1, 3, 3, 4};
  base_case(&c, TFCC_FLOAT32, di, df2);
  tt_expect_fail(&c, false, "filter channels 4 not a multiple of input channels 3");
  int32_t df3[4] = {2, 3, 3, 6};
  base_case(&c, TFCC_FLOAT32, di, df3);
  tt_expect_fail(&c, false, "filter dimension 0 is 2");
  base_case(&c, TFCC_INT8, di, df);
  c.in[1].nq = 4;
  tt_expect_fail(&c, false, "4 per-channel scales");
  base_case(&c, TFCC_FLOAT32, di, df);
  c.in[2].dims[0] = 5;
  tt_expect_fail(&c, false, "bias has 5 elements, expected 6");
  base_case(&c, TFCC_INT16, di, df);
  c.out.qz[0] = 1;
  tt_expect_fail(&c, false, "int16 output zero point");
}

int main(void) {
  test_numerics();
  test_errors();
  return tfcc_test_finish("depthwise");
}
