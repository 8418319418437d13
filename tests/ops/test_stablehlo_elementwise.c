/* STABLEHLO_ADD / MULTIPLY / MAXIMUM / MINIMUM / AND / SHIFT_LEFT: hostile inputs (wrong
 * dtypes, mismatched shapes, quantized tensors give errors naming the operand and the cause)
 * and the wrapping / promotion rules against a straightforward reference (TFLite's own
 * results are in the conformance suite: stablehlo_*). */
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
  tfcc_tensor *mix[2] = {&i32, &i16}, *flt[2] = {&f32, &f32}, *shp[2] = {&f32, &f32b};
  expect_err(TFCC_OP_STABLEHLO_ADD, mix, 2, &oi, TFCC_ERR_DTYPE, "input 1 dtype int16");
  expect_err(TFCC_OP_STABLEHLO_MULTIPLY, shp, 2, &of, TFCC_ERR_SHAPE, "input 1 shape [3] differ");
  expect_err(TFCC_OP_STABLEHLO_MAXIMUM, flt, 2, &oi, TFCC_ERR_DTYPE, "output dtype int32");
  expect_err(TFCC_OP_STABLEHLO_AND, flt, 2, &of, TFCC_ERR_UNSUPPORTED, "input 0 dtype float32");
  expect_err(TFCC_OP_STABLEHLO_SHIFT_LEFT, flt, 2, &of, TFCC_ERR_UNSUPPORTED,
             "input 0 dtype float32");
  tfcc_tensor *one[1] = {&f32};
  expect_err(TFCC_OP_STABLEHLO_MINIMUM, one, 1, &of, TFCC_ERR_INVALID_MODEL, "STABLEHLO_MINIMUM");
  /* quantized operands: TFLite's StableHLO kernels read raw values; tfcc refuses them */
  float sc[1] = {0.5f};
  int32_t zp[1] = {0};
  tfcc_quant q = {.count = 1, .scale = sc, .zero_point = zp};
  int8_t qa[4] = {1, 2, 3, 4}, qo[4];
  tfcc_tensor q8 = oh_tensor(TFCC_INT8, 1, d4, qa, &q), q8o = oh_tensor(TFCC_INT8, 0, NULL, qo, &q);
  tfcc_tensor *qq[2] = {&q8, &q8};
  expect_err(TFCC_OP_STABLEHLO_ADD, qq, 2, &q8o, TFCC_ERR_UNSUPPORTED, "quantized");
}

static void test_wrap_and_shift(void) {
  const int32_t d4[1] = {4};
  int8_t a[4] = {100, -128, 3, -1}, b[4] = {100, -1, 9, 31}, o[4];
  tfcc_tensor ta = oh_tensor(TFCC_INT8, 1, d4, a, NULL), tb = oh_tensor(TFCC_INT8, 1, d4, b, NULL);
  tfcc_tensor to = oh_tensor(TFCC_INT8, 0, NULL, o, NULL);
  tfcc_tensor *in[2] = {&ta, &tb};
  tfcc_err err;
  CHECKF(etu_run(TFCC_OP_STABLEHLO_ADD, in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
  CHECKF(o[0] == -56 && o[1] == 127 && o[2] == 12 && o[3] == 30, "ADD int8 wraps: %d %d %d %d",
         o[0], o[1], o[2], o[3]);
  CHECKF(etu_run(TFCC_OP_STABLEHLO_SHIFT_LEFT, in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
  /* 100 << 100 -> shift 4 (mod 32) -> 1600 -> int8 64; -128 << -1 -> shift 31 -> 0;
   * 3 << 9 = 1536 -> 0; -1 << 31 -> int8 0 */
  CHECKF(o[0] == 64 && o[1] == 0 && o[2] == 0 && o[3] == 0, "SHIFT_LEFT int8: %d %d %d %d", o[0],
         o[1], o[2], o[3]);
}

/* bool operands from a file or a caller may hold any byte: nonzero is true, the result is 0 or 1
 * (read as C bool, byte 28 was undefined behaviour: the fuzzer's find of stop 50) */
static void test_bool_bytes(void) {
  const int32_t d4[1] = {4};
  uint8_t a[4] = {28, 0, 255, 1}, b[4] = {1, 7, 2, 0}, o[4] = {9, 9, 9, 9};
  tfcc_tensor ta = oh_tensor(TFCC_BOOL, 1, d4, a, NULL), tb = oh_tensor(TFCC_BOOL, 1, d4, b, NULL);
  tfcc_tensor to = oh_tensor(TFCC_BOOL, 0, NULL, o, NULL);
  tfcc_tensor *in[2] = {&ta, &tb};
  tfcc_err err;
  CHECKF(etu_run(TFCC_OP_STABLEHLO_AND, in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
  CHECKF(o[0] == 1 && o[1] == 0 && o[2] == 1 && o[3] == 0, "AND bool bytes: %d %d %d %d", o[0],
         o[1], o[2], o[3]);
}

int main(void) {
  test_hostile();
  test_wrap_and_shift();
  test_bool_bytes();
  return tfcc_test_finish("ops.stablehlo_elementwise");
}
