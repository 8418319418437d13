/* PAD, PADV2, MIRROR_PAD, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND. */
#include "shape_test_util.h"

static uint8_t opt_buf[1024];
static char msg[1024];

static void test_pad(void) {
  uint8_t x[6] = {1, 2, 3, 4, 5, 6};
  tfcc_tensor ti = st_tensor(TFCC_UINT8, 2, (int32_t[]){2, 3}, x);
  int32_t pads[4] = {1, 0, 2, 1};
  tfcc_tensor tp = st_tensor(TFCC_INT32, 2, (int32_t[]){2, 2}, pads);
  tfcc_tensor o = st_output(TFCC_UINT8);
  oh_qparam qi, qo;
  st_quant(&ti, &qi, 0.5f, 7);
  st_quant(&o, &qo, 0.5f, 7);
  tfcc_tensor *in[] = {&ti, &tp}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_PAD, none, in, 2, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(o.rank == 2 && o.dims[0] == 3 && o.dims[1] == 6);
  int bad = 0;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 6; c++) {
      int ir = r - 1, ic = c - 2;
      uint8_t want = (ir >= 0 && ic >= 0 && ic < 3) ? x[ir * 3 + ic] : 7;
      bad += ((uint8_t *)o.data)[r * 6 + c] != want;
    }
  CHECK(bad == 0);
  /* PADV2 with constant value 200. */
  uint8_t cv = 200;
  tfcc_tensor tc = st_tensor(TFCC_UINT8, 0, NULL, &cv);
  oh_qparam qc;
  st_quant(&tc, &qc, 0.5f, 7);
  tfcc_tensor *in2[] = {&ti, &tp, &tc};
  CHECKF(st_run(TFCC_OP_PADV2, none, in2, 3, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(((uint8_t *)o.data)[0] == 200 && ((uint8_t *)o.data)[8] == 1);
  qc.zp = 8;
  CHECK(st_run(TFCC_OP_PADV2, none, in2, 3, out, 1, msg, sizeof msg) == TFCC_ERR_UNSUPPORTED);
  ((int32_t *)tp.data)[1] = -1;
  CHECK(st_run(TFCC_OP_PAD, none, in, 2, out, 1, msg, sizeof msg) == TFCC_ERR_INVALID_MODEL);
  st_free(&ti);
  st_free(&tp);
  st_free(&o);
  st_free(&tc);
}

static void test_mirror_pad(void) {
  float x[3] = {1, 2, 3};
  tfcc_tensor ti = st_tensor(TFCC_FLOAT32, 1, (int32_t[]){3}, x);
  int64_t pads[2] = {2, 2};
  tfcc_tensor tp = st_tensor(TFCC_INT64, 2, (int32_t[]){1, 2}, pads);
  tfcc_tensor o = st_output(TFCC_FLOAT32);
  tfcc_tensor *in[] = {&ti, &tp}, *out[] = {&o};
  tfb_field f[] = {{.field = 0, .kind = TFB_U8, .i = 0}};
  CHECKF(st_run(TFCC_OP_MIRROR_PAD, tfb_build(opt_buf, sizeof opt_buf, f, 1), in, 2, out, 1, msg,
                sizeof msg) == TFCC_OK,
         "%s", msg);
  float reflect[7] = {3, 2, 1, 2, 3, 2, 1};
  CHECK(o.dims[0] == 7 && memcmp(o.data, reflect, sizeof reflect) == 0);
  f[0].i = 1;
  CHECKF(st_run(TFCC_OP_MIRROR_PAD, tfb_build(opt_buf, sizeof opt_buf, f, 1), in, 2, out, 1, msg,
                sizeof msg) == TFCC_OK,
         "%s", msg);
  float symmetric[7] = {2, 1, 1, 2, 3, 3, 2};
  CHECK(memcmp(o.data, symmetric, sizeof symmetric) == 0);
  ((int64_t *)tp.data)[0] = 4;
  CHECK(st_run(TFCC_OP_MIRROR_PAD, tfb_build(opt_buf, sizeof opt_buf, f, 1), in, 2, out, 1, msg,
               sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&ti);
  st_free(&tp);
  st_free(&o);
}

static void test_space_batch(void) {
  /* [1,4,4,1] -> block 2x2, pad (0,0),(1,1) -> [4,2,3,1] -> back with crops (0,0),(1,1). */
  int8_t x[16];
  for (int i = 0; i < 16; i++) x[i] = (int8_t)(i + 1);
  tfcc_tensor ti = st_tensor(TFCC_INT8, 4, (int32_t[]){1, 4, 4, 1}, x);
  int32_t block[2] = {2, 2}, pads[4] = {0, 0, 1, 1};
  tfcc_tensor tb = st_tensor(TFCC_INT32, 1, (int32_t[]){2}, block);
  tfcc_tensor tp = st_tensor(TFCC_INT32, 2, (int32_t[]){2, 2}, pads);
  tfcc_tensor o = st_output(TFCC_INT8);
  oh_qparam qo, qi;
  st_quant(&o, &qo, 1.0f, -5);
  st_quant(&ti, &qi, 1.0f, -5);
  tfcc_tensor *in[] = {&ti, &tb, &tp}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_SPACE_TO_BATCH_ND, none, in, 3, out, 1, msg, sizeof msg) == TFCC_OK, "%s",
         msg);
  CHECK(o.rank == 4 && o.dims[0] == 4 && o.dims[1] == 2 && o.dims[2] == 3 && o.dims[3] == 1);
  int bad = 0;
  for (int b = 0; b < 4; b++)
    for (int h = 0; h < 2; h++)
      for (int w = 0; w < 3; w++) {
        int sh = b / 2, sw = b % 2;
        int y = h * 2 + sh, xx = w * 2 + sw - 1;
        int8_t want = (xx < 0 || xx >= 4) ? -5 : x[y * 4 + xx];
        bad += ((int8_t *)o.data)[(b * 2 + h) * 3 + w] != want;
      }
  CHECK(bad == 0);
  tfcc_tensor back = st_output(TFCC_INT8);
  tfcc_tensor *in2[] = {&o, &tb, &tp}, *out2[] = {&back};
  CHECKF(st_run(TFCC_OP_BATCH_TO_SPACE_ND, none, in2, 3, out2, 1, msg, sizeof msg) == TFCC_OK, "%s",
         msg);
  CHECK(back.rank == 4 && back.dims[0] == 1 && back.dims[1] == 4 && back.dims[2] == 4);
  CHECK(memcmp(back.data, x, 16) == 0);
  ((int32_t *)tp.data)[2] = 0; /* 4 + 0 + 1 not divisible by 2 */
  CHECK(st_run(TFCC_OP_SPACE_TO_BATCH_ND, none, in, 3, out, 1, msg, sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&ti);
  st_free(&tb);
  st_free(&tp);
  st_free(&o);
  st_free(&back);
}

int main(void) {
  test_pad();
  test_mirror_pad();
  test_space_batch();
  return tfcc_test_finish("ops.test_pad");
}
