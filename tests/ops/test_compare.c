/* Comparisons, logical ops, SELECT / SELECT_V2 against straightforward references. */
#include "elem_test_util.h"

static const int32_t kCmp[6] = {TFCC_OP_EQUAL,         TFCC_OP_NOT_EQUAL, TFCC_OP_GREATER,
                                TFCC_OP_GREATER_EQUAL, TFCC_OP_LESS,      TFCC_OP_LESS_EQUAL};
static bool cmp_ref(int k, double x, double y) {
  switch (k) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    default: return x <= y;
  }
}

static void test_float_int(void) {
  const int32_t da[3] = {2, 1, 4}, db[2] = {3, 1};
  float fa[8], fb[3];
  int32_t ia[8], ib[3];
  int64_t la[8], lb[3];
  for (int i = 0; i < 8; i++)
    ia[i] = (int32_t)(oh_rand() % 5) - 2, fa[i] = (float)ia[i] * 0.5f,
    la[i] = ia[i] * INT64_C(1000000000000);
  for (int i = 0; i < 3; i++)
    ib[i] = (int32_t)(oh_rand() % 5) - 2, fb[i] = (float)ib[i] * 0.5f,
    lb[i] = ib[i] * INT64_C(1000000000000);
  uint8_t o[24];
  for (int k = 0; k < 6; k++) {
    for (int t = 0; t < 3; t++) {
      tfcc_dtype dt = t == 0 ? TFCC_FLOAT32 : t == 1 ? TFCC_INT32 : TFCC_INT64;
      void *pa = t == 0 ? (void *)fa : t == 1 ? (void *)ia : (void *)la;
      void *pb = t == 0 ? (void *)fb : t == 1 ? (void *)ib : (void *)lb;
      tfcc_tensor ta = oh_tensor(dt, 3, da, pa, NULL), tb = oh_tensor(dt, 2, db, pb, NULL);
      tfcc_tensor to = oh_tensor(TFCC_BOOL, 0, NULL, o, NULL);
      tfcc_tensor *in[2] = {&ta, &tb};
      tfcc_err err;
      CHECKF(etu_run(kCmp[k], in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
      CHECK(to.rank == 3 && to.dims[0] == 2 && to.dims[1] == 3 && to.dims[2] == 4);
      int bad = 0;
      for (int64_t i = 0; i < 24; i++) {
        double x = ia[etu_bidx(i, 3, to.dims, 3, da)], y = ib[etu_bidx(i, 3, to.dims, 2, db)];
        if (o[i] != (uint8_t)cmp_ref(k, x, y)) bad++;
      }
      CHECKF(bad == 0, "cmp %d dtype %s: %d differ", k, tfcc_dtype_name(dt), bad);
    }
  }
  /* bool EQUAL / NOT_EQUAL; GREATER on bool is unsupported. */
  uint8_t ba[4] = {0, 1, 0, 2}, bb[4] = {0, 0, 1, 1};
  const int32_t d4[1] = {4};
  tfcc_tensor ta = oh_tensor(TFCC_BOOL, 1, d4, ba, NULL),
              tb = oh_tensor(TFCC_BOOL, 1, d4, bb, NULL);
  tfcc_tensor to = oh_tensor(TFCC_BOOL, 0, NULL, o, NULL);
  tfcc_tensor *in[2] = {&ta, &tb};
  tfcc_err err;
  CHECK(etu_run(TFCC_OP_EQUAL, in, 2, &to, NULL, &err) == TFCC_OK);
  CHECK(o[0] == 1 && o[1] == 0 && o[2] == 0 && o[3] == 1);
  CHECK(etu_run(TFCC_OP_GREATER, in, 2, &to, NULL, &err) == TFCC_ERR_UNSUPPORTED);
  /* Output must be bool. */
  tfcc_tensor tf = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
  CHECK(etu_run(TFCC_OP_LESS, in, 2, &tf, NULL, &err) == TFCC_ERR_DTYPE);
}

/* Quantized uint8 / int8: with power-of-two scales the rescaled comparison is exact, so the
 * reference compares the real values. */
static void test_quantized(void) {
  for (int t = 0; t < 2; t++) {
    const tfcc_dtype dt = t ? TFCC_INT8 : TFCC_UINT8;
    const int32_t lo = t ? -128 : 0;
    const int32_t da[2] = {256, 1}, db[2] = {1, 256};
    uint8_t a[256], b[256];
    uint8_t *o = malloc(65536);
    for (int i = 0; i < 256; i++) a[i] = b[i] = (uint8_t)(lo + i);
    oh_qparam q1, q2;
    oh_qparam_set(&q1, 0.5f, t ? 3 : 128);
    oh_qparam_set(&q2, 0.25f, t ? -10 : 100);
    for (int k = 0; k < 6; k++) {
      tfcc_tensor ta = oh_tensor(dt, 2, da, a, &q1.q), tb = oh_tensor(dt, 2, db, b, &q2.q);
      tfcc_tensor to = oh_tensor(TFCC_BOOL, 0, NULL, o, NULL);
      tfcc_tensor *in[2] = {&ta, &tb};
      tfcc_err err;
      CHECKF(etu_run(kCmp[k], in, 2, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
      int bad = 0;
      for (int i = 0; i < 256; i++)
        for (int j = 0; j < 256; j++) {
          double x = 0.5 * ((lo + i) - q1.zp), y = 0.25 * ((lo + j) - q2.zp);
          if (o[i * 256 + j] != (uint8_t)cmp_ref(k, x, y)) bad++;
        }
      CHECKF(bad == 0, "quantized cmp %d %s: %d differ", k, tfcc_dtype_name(dt), bad);
    }
    free(o);
  }
}

static void test_logical_select(void) {
  const int32_t da[2] = {2, 3}, db[1] = {3};
  uint8_t a[6] = {0, 1, 1, 0, 5, 0}, b[3] = {1, 0, 1}, o[6];
  tfcc_tensor ta = oh_tensor(TFCC_BOOL, 2, da, a, NULL), tb = oh_tensor(TFCC_BOOL, 1, db, b, NULL);
  tfcc_tensor to = oh_tensor(TFCC_BOOL, 0, NULL, o, NULL);
  tfcc_tensor *in[2] = {&ta, &tb};
  tfcc_err err;
  CHECK(etu_run(TFCC_OP_LOGICAL_AND, in, 2, &to, NULL, &err) == TFCC_OK);
  const uint8_t want_and[6] = {0, 0, 1, 0, 0, 0}, want_or[6] = {1, 1, 1, 1, 1, 1};
  CHECK(memcmp(o, want_and, 6) == 0);
  CHECK(etu_run(TFCC_OP_LOGICAL_OR, in, 2, &to, NULL, &err) == TFCC_OK);
  CHECK(memcmp(o, want_or, 6) == 0);
  tfcc_tensor *in1[1] = {&ta};
  CHECK(etu_run(TFCC_OP_LOGICAL_NOT, in1, 1, &to, NULL, &err) == TFCC_OK);
  const uint8_t want_not[6] = {1, 0, 0, 1, 0, 1};
  CHECK(memcmp(o, want_not, 6) == 0);
  float f[6] = {0};
  tfcc_tensor tfl = oh_tensor(TFCC_FLOAT32, 2, da, f, NULL);
  in[1] = &tfl;
  CHECK(etu_run(TFCC_OP_LOGICAL_AND, in, 2, &to, NULL, &err) == TFCC_ERR_DTYPE);

  /* SELECT_V2: condition [2,1,3], x [1,4,1], y scalar -> [2,4,3]. */
  const int32_t dc[3] = {2, 1, 3}, dx[3] = {1, 4, 1};
  uint8_t c[6] = {1, 0, 1, 0, 0, 1};
  float x[4] = {1, 2, 3, 4}, y[1] = {-9}, so[24];
  tfcc_tensor tc = oh_tensor(TFCC_BOOL, 3, dc, c, NULL),
              tx = oh_tensor(TFCC_FLOAT32, 3, dx, x, NULL),
              ty = oh_tensor(TFCC_FLOAT32, 0, NULL, y, NULL),
              tso = oh_tensor(TFCC_FLOAT32, 0, NULL, so, NULL);
  tfcc_tensor *in3[3] = {&tc, &tx, &ty};
  CHECKF(etu_run(TFCC_OP_SELECT_V2, in3, 3, &tso, NULL, &err) == TFCC_OK, "%s", err.msg);
  CHECK(tso.rank == 3 && tso.dims[0] == 2 && tso.dims[1] == 4 && tso.dims[2] == 3);
  int bad = 0;
  for (int64_t i = 0; i < 24; i++) {
    float w = c[etu_bidx(i, 3, tso.dims, 3, dc)] ? x[etu_bidx(i, 3, tso.dims, 3, dx)] : y[0];
    if (so[i] != w) bad++;
  }
  CHECKF(bad == 0, "SELECT_V2: %d differ", bad);
  /* SELECT v1 with a rank-1 condition over the first dimension; and the same shapes. */
  const int32_t d2x3[2] = {2, 3}, d2[1] = {2};
  int32_t xi[6] = {1, 2, 3, 4, 5, 6}, yi[6] = {-1, -2, -3, -4, -5, -6}, oi[6];
  uint8_t c2[2] = {0, 1};
  tfcc_tensor tc2 = oh_tensor(TFCC_BOOL, 1, d2, c2, NULL),
              txi = oh_tensor(TFCC_INT32, 2, d2x3, xi, NULL),
              tyi = oh_tensor(TFCC_INT32, 2, d2x3, yi, NULL),
              toi = oh_tensor(TFCC_INT32, 0, NULL, oi, NULL);
  tfcc_tensor *in4[3] = {&tc2, &txi, &tyi};
  CHECKF(etu_run(TFCC_OP_SELECT, in4, 3, &toi, NULL, &err) == TFCC_OK, "%s", err.msg);
  const int32_t want_sel[6] = {-1, -2, -3, 4, 5, 6};
  CHECK(memcmp(oi, want_sel, sizeof want_sel) == 0);
  tfcc_tensor tc6 = oh_tensor(TFCC_BOOL, 2, d2x3, a, NULL);
  in4[0] = &tc6;
  CHECK(etu_run(TFCC_OP_SELECT, in4, 3, &toi, NULL, &err) == TFCC_OK);
  const int32_t want_sel2[6] = {-1, 2, 3, -4, 5, -6};
  CHECK(memcmp(oi, want_sel2, sizeof want_sel2) == 0);
  /* v1 does not broadcast a [3] condition against [2,3]. */
  tfcc_tensor tc3 = oh_tensor(TFCC_BOOL, 1, db, b, NULL);
  in4[0] = &tc3;
  CHECK(etu_run(TFCC_OP_SELECT, in4, 3, &toi, NULL, &err) == TFCC_ERR_SHAPE);
  /* ... but v2 does. */
  CHECK(etu_run(TFCC_OP_SELECT_V2, in4, 3, &toi, NULL, &err) == TFCC_OK);
  const int32_t want_sel3[6] = {1, -2, 3, 4, -5, 6};
  CHECK(memcmp(oi, want_sel3, sizeof want_sel3) == 0);
}

int main(void) {
  test_float_int();
  test_quantized();
  test_logical_select();
  return tfcc_test_finish("ops.compare");
}
