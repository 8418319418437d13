/* RESIZE_BILINEAR (float32, uint8, int8, int16; align_corners / half_pixel_centers) and
 * RESIZE_NEAREST_NEIGHBOR, against straightforward double-precision references. */
#include <math.h>

#include "shape_test_util.h"

static uint8_t opt_buf[1024];
static char msg[1024];

/* Bilinear value at output (y, x), channel c, in double precision. */
static double ref_bilinear(const double *in, int H, int W, int C, int OH, int OW, int y, int x,
                           int c, bool align, bool half) {
  double hs = align && OH > 1 ? (double)(H - 1) / (OH - 1) : (double)H / OH;
  double ws = align && OW > 1 ? (double)(W - 1) / (OW - 1) : (double)W / OW;
  double fy = half ? (y + 0.5) * hs - 0.5 : y * hs;
  double fx = half ? (x + 0.5) * ws - 0.5 : x * ws;
  int y0 = (int)floor(fy), x0 = (int)floor(fx);
  int y1 = (int)ceil(fy), x1 = (int)ceil(fx);
  if (y1 > H - 1) y1 = H - 1;
  if (x1 > W - 1) x1 = W - 1;
  if (y0 < 0) y0 = 0;
  if (x0 < 0) x0 = 0;
  double dy = fy - y0, dx = fx - x0;
#define AT(yy, xx) in[((yy)*W + (xx)) * C + c]
  return AT(y0, x0) * (1 - dy) * (1 - dx) + AT(y0, x1) * (1 - dy) * dx +
         AT(y1, x0) * dy * (1 - dx) + AT(y1, x1) * dy * dx;
#undef AT
}

static void run_bilinear(tfcc_dtype dt, int H, int W, int C, int OH, int OW, bool align,
                         bool half) {
  const int n = H * W * C, on = OH * OW * C;
  double *ref_in = malloc(sizeof(double) * (size_t)n);
  uint8_t raw[4096];
  for (int i = 0; i < n; i++) {
    int32_t v = (int32_t)(oh_rand() % 256);
    switch (dt) {
      case TFCC_FLOAT32: {
        float f = (float)v / 7.0f - 10.0f;
        memcpy(raw + 4 * i, &f, 4);
        ref_in[i] = f;
        break;
      }
      case TFCC_UINT8:
        raw[i] = (uint8_t)v;
        ref_in[i] = v;
        break;
      case TFCC_INT8: {
        int8_t q = (int8_t)(v - 128);
        memcpy(raw + i, &q, 1);
        ref_in[i] = q;
        break;
      }
      default: {
        int16_t q = (int16_t)((v - 128) * 200);
        memcpy(raw + 2 * i, &q, 2);
        ref_in[i] = q;
        break;
      }
    }
  }
  tfcc_tensor ti = st_tensor(dt, 4, (int32_t[]){1, H, W, C}, raw);
  int32_t size[2] = {OH, OW};
  tfcc_tensor ts = st_tensor(TFCC_INT32, 1, (int32_t[]){2}, size);
  tfcc_tensor o = st_output(dt);
  tfcc_tensor *in[] = {&ti, &ts}, *out[] = {&o};
  tfb_field f[] = {{.field = 2, .kind = TFB_U8, .i = align},
                   {.field = 3, .kind = TFB_U8, .i = half}};
  tfcc_status st = st_run(TFCC_OP_RESIZE_BILINEAR, tfb_build(opt_buf, sizeof opt_buf, f, 2), in, 2,
                          out, 1, msg, sizeof msg);
  CHECKF(st == TFCC_OK, "%s", msg);
  if (st == TFCC_OK) {
    CHECK(o.dims[1] == OH && o.dims[2] == OW && o.dims[3] == C);
    int off1 = 0, worse = 0;
    double max_err = 0;
    for (int y = 0; y < OH; y++)
      for (int x = 0; x < OW; x++)
        for (int c = 0; c < C; c++) {
          double r = ref_bilinear(ref_in, H, W, C, OH, OW, y, x, c, align, half);
          int k = (y * OW + x) * C + c;
          if (dt == TFCC_FLOAT32) {
            double e = fabs(((float *)o.data)[k] - r);
            if (e > max_err) max_err = e;
          } else {
            double got = dt == TFCC_UINT8  ? ((uint8_t *)o.data)[k]
                         : dt == TFCC_INT8 ? ((int8_t *)o.data)[k]
                                           : ((int16_t *)o.data)[k];
            /* uint8 truncates r + 0.5; the integer kernels round 10-bit weights. */
            double d = fabs(got - floor(r + 0.5));
            /* int16 values span +-25600: the 10-bit coordinate rounding moves them by up to
             * ~1% of the local difference. */
            double tol = dt == TFCC_INT16 ? 512.0 : 1.0;
            if (d > tol)
              worse++;
            else if (d > 0 && dt != TFCC_INT16)
              off1++;
          }
        }
    CHECKF(max_err < 1e-4, "float max error %g", max_err);
    CHECKF(worse == 0 && off1 <= on / 8,
           "%s %dx%d->%dx%d align %d half %d: %d off by one, %d worse", tfcc_dtype_name(dt), H, W,
           OH, OW, align, half, off1, worse);
  }
  free(ref_in);
  st_free(&ti);
  st_free(&ts);
  st_free(&o);
}

static void test_bilinear(void) {
  const tfcc_dtype dts[4] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  for (int d = 0; d < 4; d++) {
    run_bilinear(dts[d], 3, 4, 3, 7, 5, false, false);
    run_bilinear(dts[d], 3, 4, 3, 7, 5, true, false);
    run_bilinear(dts[d], 3, 4, 3, 7, 5, false, true);
    run_bilinear(dts[d], 4, 3, 2, 8, 6, false, false); /* float 2x special case */
    run_bilinear(dts[d], 5, 6, 1, 2, 3, false, true);  /* downscale */
  }
  /* Exact uint8 values from TFLite's formula: 2 px -> 3 px align_corners: 0, 127.5+.5, 255. */
  uint8_t x[2] = {0, 255};
  tfcc_tensor ti = st_tensor(TFCC_UINT8, 4, (int32_t[]){1, 1, 2, 1}, x);
  int32_t size[2] = {1, 3};
  tfcc_tensor ts = st_tensor(TFCC_INT32, 1, (int32_t[]){2}, size);
  tfcc_tensor o = st_output(TFCC_UINT8);
  tfcc_tensor *in[] = {&ti, &ts}, *out[] = {&o};
  tfb_field f[] = {{.field = 2, .kind = TFB_U8, .i = 1}};
  CHECK(st_run(TFCC_OP_RESIZE_BILINEAR, tfb_build(opt_buf, sizeof opt_buf, f, 1), in, 2, out, 1,
               msg, sizeof msg) == TFCC_OK);
  CHECK(((uint8_t *)o.data)[0] == 0 && ((uint8_t *)o.data)[1] == 128 &&
        ((uint8_t *)o.data)[2] == 255);
  /* Errors: both flags, non-positive size, size not known. */
  tfb_field fb[] = {{.field = 2, .kind = TFB_U8, .i = 1}, {.field = 3, .kind = TFB_U8, .i = 1}};
  CHECK(st_run(TFCC_OP_RESIZE_BILINEAR, tfb_build(opt_buf, sizeof opt_buf, fb, 2), in, 2, out, 1,
               msg, sizeof msg) == TFCC_ERR_INVALID_MODEL);
  tfcc_fb_table none = {0};
  ((int32_t *)ts.data)[0] = 0;
  CHECK(st_run(TFCC_OP_RESIZE_BILINEAR, none, in, 2, out, 1, msg, sizeof msg) ==
        TFCC_ERR_INVALID_MODEL);
  ts.known = false;
  CHECK(st_run(TFCC_OP_RESIZE_BILINEAR, none, in, 2, out, 1, msg, sizeof msg) ==
        TFCC_ERR_UNSUPPORTED);
  /* An input of height 0 (fuzz_model_run, stop 51: the kernel read before the input) */
  float fx[1] = {0};
  int32_t size2[2] = {5, 5};
  tfcc_tensor te = st_tensor(TFCC_FLOAT32, 4, (int32_t[]){2, 0, 6, 8}, fx);
  tfcc_tensor ts2 = st_tensor(TFCC_INT32, 1, (int32_t[]){2}, size2);
  tfcc_tensor o2 = st_output(TFCC_FLOAT32);
  tfcc_tensor *in2[] = {&te, &ts2}, *out2[] = {&o2};
  CHECKF(
      st_run(TFCC_OP_RESIZE_BILINEAR, none, in2, 2, out2, 1, msg, sizeof msg) == TFCC_ERR_SHAPE &&
          strstr(msg, "height 0 and width 6"),
      "empty input: %s", msg);
  st_free(&te);
  st_free(&ts2);
  st_free(&o2);
  st_free(&ti);
  st_free(&ts);
  st_free(&o);
}

static void test_nearest(void) {
  const int H = 3, W = 5, C = 2;
  int32_t x[30];
  for (int i = 0; i < 30; i++) x[i] = i;
  for (int mode = 0; mode < 3; mode++)
    for (int t = 0; t < 2; t++) {
      bool align = mode == 1, half = mode == 2;
      tfcc_dtype dt = t == 0 ? TFCC_INT32 : TFCC_UINT8;
      uint8_t raw[120];
      for (int i = 0; i < 30; i++) {
        if (dt == TFCC_INT32)
          memcpy(raw + 4 * i, &x[i], 4);
        else
          raw[i] = (uint8_t)x[i];
      }
      tfcc_tensor ti = st_tensor(dt, 4, (int32_t[]){1, H, W, C}, raw);
      int32_t size[2] = {7, 4};
      tfcc_tensor ts = st_tensor(TFCC_INT32, 1, (int32_t[]){2}, size);
      tfcc_tensor o = st_output(dt);
      tfcc_tensor *in[] = {&ti, &ts}, *out[] = {&o};
      tfb_field f[] = {{.field = 0, .kind = TFB_U8, .i = align},
                       {.field = 1, .kind = TFB_U8, .i = half}};
      CHECKF(st_run(TFCC_OP_RESIZE_NEAREST_NEIGHBOR, tfb_build(opt_buf, sizeof opt_buf, f, 2), in,
                    2, out, 1, msg, sizeof msg) == TFCC_OK,
             "%s", msg);
      int bad = 0;
      for (int y = 0; y < 7; y++)
        for (int xx = 0; xx < 4; xx++) {
          double hs = align ? (double)(H - 1) / 6 : (double)H / 7,
                 ws = align ? (double)(W - 1) / 3 : (double)W / 4;
          double fy = (y + (half ? 0.5 : 0)) * hs, fx = (xx + (half ? 0.5 : 0)) * ws;
          int iy = align ? (int)floor(fy + 0.5) : (int)floor(fy),
              ix = align ? (int)floor(fx + 0.5) : (int)floor(fx);
          if (iy > H - 1) iy = H - 1;
          if (ix > W - 1) ix = W - 1;
          for (int c = 0; c < C; c++) {
            int want = x[(iy * W + ix) * C + c];
            int got = dt == TFCC_INT32 ? ((int32_t *)o.data)[(y * 4 + xx) * C + c]
                                       : ((uint8_t *)o.data)[(y * 4 + xx) * C + c];
            bad += got != want;
          }
        }
      CHECKF(bad == 0, "mode %d dtype %s: %d wrong", mode, tfcc_dtype_name(dt), bad);
      st_free(&ti);
      st_free(&ts);
      st_free(&o);
    }
}

int main(void) {
  test_bilinear();
  test_nearest();
  return tfcc_test_finish("ops.test_resize");
}
