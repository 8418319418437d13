/* CAST, FILL, ZEROS_LIKE, RANGE. */
#include "elem_test_util.h"

#include "kernels/ref/unary.h"

static void test_cast(void) {
  const int32_t d[1] = {8};
  float f[8] = {1.9f, -1.9f, 0.f, 255.5f, -129.7f, 3e9f, 65504.f, 1e-8f};
  int32_t i32[8];
  uint8_t u8[8], b[8];
  int8_t i8[8];
  int64_t i64[8];
  uint16_t h[8];
  tfcc_err err;
  tfcc_tensor tf = oh_tensor(TFCC_FLOAT32, 1, d, f, NULL);
  tfcc_tensor *in[1] = {&tf};
  tfcc_tensor t32 = oh_tensor(TFCC_INT32, 0, NULL, i32, NULL);
  CHECK(etu_run(TFCC_OP_CAST, in, 1, &t32, NULL, &err) == TFCC_OK);
  CHECK(t32.rank == 1 && t32.dims[0] == 8);
  CHECK(i32[0] == 1 && i32[1] == -1 && i32[2] == 0 && i32[3] == 255 && i32[4] == -129 &&
        i32[5] == INT32_MIN && i32[6] == 65504 && i32[7] == 0);
  tfcc_tensor t64 = oh_tensor(TFCC_INT64, 0, NULL, i64, NULL);
  CHECK(etu_run(TFCC_OP_CAST, in, 1, &t64, NULL, &err) == TFCC_OK);
  CHECK(i64[5] == 3000000000LL && i64[4] == -129);
  tfcc_tensor tu8 = oh_tensor(TFCC_UINT8, 0, NULL, u8, NULL);
  CHECK(etu_run(TFCC_OP_CAST, in, 1, &tu8, NULL, &err) == TFCC_OK);
  CHECK(u8[0] == 1 && u8[1] == 255 && u8[3] == 255 && u8[4] == (uint8_t)-129);
  tfcc_tensor ti8 = oh_tensor(TFCC_INT8, 0, NULL, i8, NULL);
  CHECK(etu_run(TFCC_OP_CAST, in, 1, &ti8, NULL, &err) == TFCC_OK);
  CHECK(i8[0] == 1 && i8[1] == -1 && i8[3] == -1 && i8[4] == 127);
  tfcc_tensor tb = oh_tensor(TFCC_BOOL, 0, NULL, b, NULL);
  CHECK(etu_run(TFCC_OP_CAST, in, 1, &tb, NULL, &err) == TFCC_OK);
  CHECK(b[0] == 1 && b[2] == 0 && b[7] == 1);
  tfcc_tensor th = oh_tensor(TFCC_FLOAT16, 0, NULL, h, NULL);
  CHECK(etu_run(TFCC_OP_CAST, in, 1, &th, NULL, &err) == TFCC_OK);
  CHECK(h[2] == 0 && h[6] == 0x7BFF && h[5] == 0x7C00);
  /* int32 -> float32, int64 -> float32 (one rounding), bool -> int32, uint8 -> int8 (wrap). */
  int32_t src[3] = {16777217, -7, 0};
  float fo[3];
  const int32_t d3[1] = {3};
  tfcc_tensor ts = oh_tensor(TFCC_INT32, 1, d3, src, NULL),
              tfo = oh_tensor(TFCC_FLOAT32, 0, NULL, fo, NULL);
  tfcc_tensor *ins[1] = {&ts};
  CHECK(etu_run(TFCC_OP_CAST, ins, 1, &tfo, NULL, &err) == TFCC_OK);
  CHECK(fo[0] == 16777216.f && fo[1] == -7.f);
  int64_t big[1] = {(INT64_C(1) << 53) + 1 + (INT64_C(1) << 29)};
  const int32_t d1[1] = {1};
  tfcc_tensor tbig = oh_tensor(TFCC_INT64, 1, d1, big, NULL),
              tbo = oh_tensor(TFCC_FLOAT32, 0, NULL, fo, NULL);
  tfcc_tensor *inbig[1] = {&tbig};
  CHECK(etu_run(TFCC_OP_CAST, inbig, 1, &tbo, NULL, &err) == TFCC_OK);
  CHECK(fo[0] == (float)big[0]);
  uint8_t bools[3] = {0, 1, 7};
  tfcc_tensor tbool = oh_tensor(TFCC_BOOL, 1, d3, bools, NULL),
              ti = oh_tensor(TFCC_INT32, 0, NULL, src, NULL);
  tfcc_tensor *inb[1] = {&tbool};
  CHECK(etu_run(TFCC_OP_CAST, inb, 1, &ti, NULL, &err) == TFCC_OK);
  CHECK(src[0] == 0 && src[1] == 1 && src[2] == 1);
  uint8_t us[3] = {0, 200, 255};
  int8_t so[3];
  tfcc_tensor tus = oh_tensor(TFCC_UINT8, 1, d3, us, NULL),
              tso = oh_tensor(TFCC_INT8, 0, NULL, so, NULL);
  tfcc_tensor *inu[1] = {&tus};
  CHECK(etu_run(TFCC_OP_CAST, inu, 1, &tso, NULL, &err) == TFCC_OK);
  CHECK(so[0] == 0 && so[1] == -56 && so[2] == -1);
  /* String is not castable. */
  tfcc_tensor tstr = oh_tensor(TFCC_STRING, 0, NULL, so, NULL);
  CHECK(etu_run(TFCC_OP_CAST, inu, 1, &tstr, NULL, &err) == TFCC_ERR_UNSUPPORTED);
}

/* Every float16 value survives f16 -> f32 -> f16; f32 -> f16 rounds to nearest even. */
static void test_f16(void) {
  int bad = 0;
  for (uint32_t v = 0; v < 65536; v++) {
    uint16_t h = (uint16_t)v;
    bool nan = ((h >> 10) & 0x1F) == 0x1F && (h & 0x3FF);
    float f = tfcc_f16_to_f32(h);
    if (nan ? !isnan(f) : tfcc_f32_to_f16(f) != h) bad++;
  }
  CHECKF(bad == 0, "float16 round trip: %d values differ", bad);
  CHECK(tfcc_f16_to_f32(0x3C00) == 1.0f && tfcc_f16_to_f32(0x0001) == ldexpf(1.f, -24));
  CHECK(tfcc_f32_to_f16(1.0f + ldexpf(1.f, -11)) == 0x3C00);     /* tie -> even */
  CHECK(tfcc_f32_to_f16(1.0f + 3 * ldexpf(1.f, -11)) == 0x3C02); /* tie -> even (up) */
  CHECK(tfcc_f32_to_f16(ldexpf(1.f, -25)) == 0x0000);            /* tie -> 0 */
  CHECK(tfcc_f32_to_f16(ldexpf(1.5f, -25)) == 0x0001);
  CHECK(tfcc_f32_to_f16(65520.f) == 0x7C00 && tfcc_f32_to_f16(65519.f) == 0x7BFF);
}

static void test_fill_zeros(void) {
  int32_t dims[3] = {2, 3, 4};
  float value = 2.5f, out[24];
  const int32_t d3[1] = {3};
  tfcc_tensor td = oh_tensor(TFCC_INT32, 1, d3, dims, NULL),
              tv = oh_tensor(TFCC_FLOAT32, 0, NULL, &value, NULL);
  tfcc_tensor to = oh_tensor(TFCC_FLOAT32, 0, NULL, out, NULL);
  tfcc_tensor *in[2] = {&td, &tv};
  tfcc_err err;
  CHECK(etu_run(TFCC_OP_FILL, in, 2, &to, NULL, &err) == TFCC_ERR_UNSUPPORTED); /* dims unknown */
  CHECKF(strstr(err.msg, "known only while running") != NULL, "%s", err.msg);
  td.known = true;
  CHECKF(etu_run(TFCC_OP_FILL, in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
  CHECK(to.rank == 3 && to.dims[0] == 2 && to.dims[1] == 3 && to.dims[2] == 4);
  int bad = 0;
  for (int i = 0; i < 24; i++) bad += out[i] != 2.5f;
  CHECK(bad == 0);
  int64_t dims64[2] = {3, 0};
  const int32_t d2[1] = {2};
  int8_t v8 = -3, o8[1];
  tfcc_tensor td64 = oh_tensor(TFCC_INT64, 1, d2, dims64, NULL),
              tv8 = oh_tensor(TFCC_INT8, 0, NULL, &v8, NULL);
  tfcc_tensor to8 = oh_tensor(TFCC_INT8, 0, NULL, o8, NULL);
  td64.known = true;
  tfcc_tensor *in8[2] = {&td64, &tv8};
  CHECK(etu_run(TFCC_OP_FILL, in8, 2, &to8, NULL, &err) == TFCC_OK);
  CHECK(to8.rank == 2 && to8.dims[0] == 3 && to8.dims[1] == 0);
  dims64[1] = -1;
  CHECK(etu_run(TFCC_OP_FILL, in8, 2, &to8, NULL, &err) == TFCC_ERR_SHAPE);
  tfcc_tensor tbad = oh_tensor(TFCC_INT32, 0, NULL, o8, NULL);
  dims64[1] = 1;
  CHECK(etu_run(TFCC_OP_FILL, in8, 2, &tbad, NULL, &err) == TFCC_ERR_DTYPE);

  tfcc_tensor tz = oh_tensor(TFCC_FLOAT32, 3, dims, out, NULL);
  tfcc_tensor *inz[1] = {&tv};
  tv = oh_tensor(TFCC_FLOAT32, 3, dims, out, NULL);
  tfcc_tensor tzo = oh_tensor(TFCC_FLOAT32, 0, NULL, out, NULL);
  (void)tz;
  CHECK(etu_run(TFCC_OP_ZEROS_LIKE, inz, 1, &tzo, NULL, &err) == TFCC_OK);
  bad = 0;
  for (int i = 0; i < 24; i++) bad += out[i] != 0.f;
  CHECK(bad == 0 && tzo.rank == 3 && tzo.dims[2] == 4);
}

static void test_range(void) {
  tfcc_err err;
  {
    int32_t s = 3, l = 18, dl = 4, o[8];
    tfcc_tensor ts = oh_tensor(TFCC_INT32, 0, NULL, &s, NULL),
                tl = oh_tensor(TFCC_INT32, 0, NULL, &l, NULL),
                td = oh_tensor(TFCC_INT32, 0, NULL, &dl, NULL),
                to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
    tfcc_tensor *in[3] = {&ts, &tl, &td};
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_ERR_UNSUPPORTED);
    ts.known = tl.known = td.known = true;
    CHECKF(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
    CHECK(to.rank == 1 && to.dims[0] == 4 && o[0] == 3 && o[3] == 15);
    s = 10, l = -1, dl = -3;
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_OK);
    CHECK(to.dims[0] == 4 && o[0] == 10 && o[3] == 1);
    dl = 3;
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_ERR_INVALID_ARG);
    dl = 0;
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_ERR_INVALID_ARG);
  }
  {
    float s = 0.1f, l = 1.0f, dl = 0.3f, o[8];
    tfcc_tensor ts = oh_tensor(TFCC_FLOAT32, 0, NULL, &s, NULL),
                tl = oh_tensor(TFCC_FLOAT32, 0, NULL, &l, NULL),
                td = oh_tensor(TFCC_FLOAT32, 0, NULL, &dl, NULL),
                to = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
    ts.known = tl.known = td.known = true;
    tfcc_tensor *in[3] = {&ts, &tl, &td};
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_OK);
    int32_t n = (int32_t)ceilf(fabsf((l - s) / dl));
    CHECK(to.dims[0] == n);
    float v = s;
    int bad = 0;
    for (int i = 0; i < n; i++, v += dl) bad += o[i] != v;
    CHECK(bad == 0);
  }
  {
    int64_t s = -5, l = 5, dl = 5, o[2];
    tfcc_tensor ts = oh_tensor(TFCC_INT64, 0, NULL, &s, NULL),
                tl = oh_tensor(TFCC_INT64, 0, NULL, &l, NULL),
                td = oh_tensor(TFCC_INT64, 0, NULL, &dl, NULL),
                to = oh_tensor(TFCC_INT64, 0, NULL, o, NULL);
    ts.known = tl.known = td.known = true;
    tfcc_tensor *in[3] = {&ts, &tl, &td};
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_OK);
    CHECK(to.dims[0] == 2 && o[0] == -5 && o[1] == 0);
    tfcc_tensor tmix = oh_tensor(TFCC_INT32, 0, NULL, &dl, NULL);
    tmix.known = true;
    in[2] = &tmix;
    CHECK(etu_run(TFCC_OP_RANGE, in, 3, &to, NULL, &err) == TFCC_ERR_DTYPE);
  }
}

int main(void) {
  test_cast();
  test_f16();
  test_fill_zeros();
  test_range();
  return tfcc_test_finish("ops.cast_fill_range");
}
