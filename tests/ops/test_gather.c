/* GATHER (axis, batch_dims, index dtypes, out-of-range) and GATHER_ND. */
#include "shape_test_util.h"

static uint8_t opt_buf[1024];
static char msg[1024];

static void test_gather(void) {
  /* params [2,3,4] int8, gather axis 2 with batch_dims 1, indices [2,2] int64. */
  int8_t p[24];
  for (int i = 0; i < 24; i++) p[i] = (int8_t)(i - 12);
  int64_t idx[4] = {3, 0, 1, 1};
  tfcc_tensor tp = st_tensor(TFCC_INT8, 3, (int32_t[]){2, 3, 4}, p);
  tfcc_tensor ti = st_tensor(TFCC_INT64, 2, (int32_t[]){2, 2}, idx);
  tfcc_tensor o = st_output(TFCC_INT8);
  tfcc_tensor *in[] = {&tp, &ti}, *out[] = {&o};
  tfb_field f[] = {{.field = 0, .kind = TFB_I32, .i = -1}, {.field = 1, .kind = TFB_I32, .i = 1}};
  CHECKF(st_run(TFCC_OP_GATHER, tfb_build(opt_buf, sizeof opt_buf, f, 2), in, 2, out, 1, msg,
                sizeof msg) == TFCC_OK,
         "%s", msg);
  CHECK(o.rank == 3 && o.dims[0] == 2 && o.dims[1] == 3 && o.dims[2] == 2);
  int bad = 0;
  for (int b = 0; b < 2; b++)
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 2; c++)
        bad += ((int8_t *)o.data)[(b * 3 + r) * 2 + c] != p[(b * 3 + r) * 4 + idx[b * 2 + c]];
  CHECK(bad == 0);
  /* Axis 0, int32 indices [3] on float params [4,2]. */
  float fp[8] = {0, 1, 10, 11, 20, 21, 30, 31};
  int32_t i32[3] = {3, 3, 0};
  tfcc_tensor tf = st_tensor(TFCC_FLOAT32, 2, (int32_t[]){4, 2}, fp);
  tfcc_tensor t32 = st_tensor(TFCC_INT32, 1, (int32_t[]){3}, i32);
  tfcc_tensor of = st_output(TFCC_FLOAT32);
  tfcc_tensor *in2[] = {&tf, &t32}, *out2[] = {&of};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_GATHER, none, in2, 2, out2, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  float want[6] = {30, 31, 30, 31, 0, 1};
  CHECK(of.rank == 2 && of.dims[0] == 3 && memcmp(of.data, want, sizeof want) == 0);
  ((int32_t *)t32.data)[1] = 4;
  CHECK(st_run(TFCC_OP_GATHER, none, in2, 2, out2, 1, msg, sizeof msg) == TFCC_ERR_RUNTIME);
  CHECKF(strstr(msg, "index 4") != NULL, "%s", msg);
  ((int32_t *)t32.data)[1] = -1;
  CHECK(st_run(TFCC_OP_GATHER, none, in2, 2, out2, 1, msg, sizeof msg) == TFCC_ERR_RUNTIME);
  /* Scalar index: output drops the axis. */
  int16_t i16 = 2;
  tfcc_tensor t16 = st_tensor(TFCC_INT16, 0, NULL, &i16);
  tfcc_tensor *in3[] = {&tf, &t16};
  CHECKF(st_run(TFCC_OP_GATHER, none, in3, 2, out2, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(of.rank == 1 && of.dims[0] == 2 && ((float *)of.data)[0] == 20 &&
        ((float *)of.data)[1] == 21);
  st_free(&tp);
  st_free(&ti);
  st_free(&o);
  st_free(&tf);
  st_free(&t32);
  st_free(&of);
  st_free(&t16);
}

static void test_gather_nd(void) {
  int32_t p[24];
  for (int i = 0; i < 24; i++) p[i] = i * 10;
  tfcc_tensor tp = st_tensor(TFCC_INT32, 3, (int32_t[]){2, 3, 4}, p);
  int32_t idx[6] = {1, 2, 0, 1, 1, 0};
  tfcc_tensor ti = st_tensor(TFCC_INT32, 2, (int32_t[]){3, 2}, idx);
  tfcc_tensor o = st_output(TFCC_INT32);
  tfcc_tensor *in[] = {&tp, &ti}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_GATHER_ND, none, in, 2, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(o.rank == 2 && o.dims[0] == 3 && o.dims[1] == 4);
  int bad = 0;
  for (int s = 0; s < 3; s++)
    for (int c = 0; c < 4; c++)
      bad += ((int32_t *)o.data)[s * 4 + c] != p[(idx[2 * s] * 3 + idx[2 * s + 1]) * 4 + c];
  CHECK(bad == 0);
  ((int32_t *)ti.data)[0] = 2; /* flat position beyond params */
  CHECK(st_run(TFCC_OP_GATHER_ND, none, in, 2, out, 1, msg, sizeof msg) == TFCC_ERR_RUNTIME);
  int32_t deep[4] = {0, 0, 0, 0};
  tfcc_tensor td = st_tensor(TFCC_INT32, 2, (int32_t[]){1, 4}, deep);
  tfcc_tensor *in2[] = {&tp, &td};
  CHECK(st_run(TFCC_OP_GATHER_ND, none, in2, 2, out, 1, msg, sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&tp);
  st_free(&ti);
  st_free(&o);
  st_free(&td);
}

int main(void) {
  test_gather();
  test_gather_nd();
  return tfcc_test_finish("ops.test_gather");
}
