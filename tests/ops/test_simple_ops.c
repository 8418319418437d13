/* SIGN, ATAN2, BITWISE_XOR, RIGHT_SHIFT, REVERSE_V2, RANK: hostile inputs (wrong dtypes and
 * shapes give errors naming the operand) and REVERSE_V2 over several axes against a
 * straightforward reference (TFLite's own cases are in the conformance suite). */
#include "elem_test_util.h"

static void expect_err(int32_t op, tfcc_tensor **in, int32_t n, tfcc_tensor *out, tfcc_status want,
                       const char *needle) {
  tfcc_err err;
  tfcc_status st = etu_run(op, in, n, out, NULL, &err);
  CHECKF(st == want, "op %d: status %d, expected %d (%s)", (int)op, (int)st, (int)want, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "op %d: message '%s' lacks '%s'", (int)op, err.msg,
         needle);
}

static void test_hostile(void) {
  const int32_t d3[1] = {3}, d4[1] = {4};
  int32_t ia[4] = {1, 2, 3, 4}, o[16];
  int16_t sa[4] = {1, 2, 3, 4};
  float fa[4] = {1, 2, 3, 4};
  tfcc_tensor i32 = oh_tensor(TFCC_INT32, 1, d4, ia, NULL),
              i16 = oh_tensor(TFCC_INT16, 1, d4, sa, NULL);
  tfcc_tensor f32 = oh_tensor(TFCC_FLOAT32, 1, d4, fa, NULL),
              f32b = oh_tensor(TFCC_FLOAT32, 1, d3, fa, NULL);
  tfcc_tensor oi = oh_tensor(TFCC_INT32, 0, NULL, o, NULL),
              of = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
  tfcc_tensor i32b = oh_tensor(TFCC_INT32, 1, d3, ia, NULL);
  tfcc_tensor *mix[2] = {&i32, &i16}, *flt[2] = {&f32, &f32}, *shp[2] = {&f32, &f32b};
  tfcc_tensor *nob[2] = {&i32, &i32b};
  expect_err(TFCC_OP_BITWISE_XOR, mix, 2, &oi, TFCC_ERR_DTYPE, "input 1 dtype int16");
  expect_err(TFCC_OP_RIGHT_SHIFT, flt, 2, &of, TFCC_ERR_UNSUPPORTED, "input 0 dtype float32");
  expect_err(TFCC_OP_RIGHT_SHIFT, nob, 2, &oi, TFCC_ERR_SHAPE, "do not broadcast");
  expect_err(TFCC_OP_ATAN2, shp, 2, &of, TFCC_ERR_SHAPE, "input 1 (x) shape [3]");
  tfcc_tensor *ai[2] = {&i32, &i32};
  expect_err(TFCC_OP_ATAN2, ai, 2, &oi, TFCC_ERR_UNSUPPORTED, "input 0 (y) dtype int32");
  tfcc_tensor *si[1] = {&i16};
  expect_err(TFCC_OP_SIGN, si, 1, &oi, TFCC_ERR_UNSUPPORTED, "input dtype int16");
  tfcc_tensor *sf[1] = {&f32};
  expect_err(TFCC_OP_SIGN, sf, 1, &oi, TFCC_ERR_DTYPE, "output dtype int32");
  tfcc_tensor *rv[2] = {&f32, &f32};
  expect_err(TFCC_OP_REVERSE_V2, rv, 2, &of, TFCC_ERR_DTYPE, "input 1 (axis) dtype float32");
  int32_t bad_axis[1] = {5};
  const int32_t d1[1] = {1};
  tfcc_tensor ax = oh_tensor(TFCC_INT32, 1, d1, bad_axis, NULL);
  tfcc_tensor *rv2[2] = {&f32, &ax};
  expect_err(TFCC_OP_REVERSE_V2, rv2, 2, &of, TFCC_ERR_SHAPE, "axis) value 5 out of range");
  tfcc_tensor *rk[1] = {&f32};
  expect_err(TFCC_OP_RANK, rk, 1, &of, TFCC_ERR_DTYPE, "float32");
}

static void test_reverse_multi_axis(void) {
  const int32_t dims[3] = {2, 3, 4}, da[1] = {2};
  int32_t x[24], o[24], axes[2] = {0, -1};
  for (int i = 0; i < 24; i++) x[i] = i * 7 - 30;
  tfcc_tensor tx = oh_tensor(TFCC_INT32, 3, dims, x, NULL),
              ta = oh_tensor(TFCC_INT32, 1, da, axes, NULL);
  tfcc_tensor to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
  tfcc_tensor *in[2] = {&tx, &ta};
  tfcc_err err;
  CHECKF(etu_run(TFCC_OP_REVERSE_V2, in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
  int bad = 0;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 4; c++)
        if (o[(a * 3 + b) * 4 + c] != x[((1 - a) * 3 + b) * 4 + (3 - c)]) bad++;
  CHECKF(bad == 0, "REVERSE_V2 axes {0,-1}: %d elements differ", bad);
}

int main(void) {
  test_hostile();
  test_reverse_multi_axis();
  return tfcc_test_finish("ops.simple_ops");
}
