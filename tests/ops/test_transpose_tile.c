/* TRANSPOSE (rank 6), TILE, BROADCAST_TO, DEPTH_TO_SPACE, SPACE_TO_DEPTH. */
#include "shape_test_util.h"

static uint8_t opt_buf[1024];
static char msg[1024];

static void test_transpose(void) {
  const int32_t dims[6] = {2, 1, 3, 2, 2, 3};
  int64_t n = 72;
  int16_t x[72];
  for (int i = 0; i < n; i++) x[i] = (int16_t)(i * 3 - 50);
  int32_t perm[6] = {5, 2, 0, 4, 1, 3};
  tfcc_tensor ti = st_tensor(TFCC_INT16, 6, dims, x);
  tfcc_tensor tp = st_tensor(TFCC_INT32, 1, (int32_t[]){6}, perm);
  tfcc_tensor o = st_output(TFCC_INT16);
  tfcc_tensor *in[] = {&ti, &tp}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_TRANSPOSE, none, in, 2, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  int bad = 0;
  for (int d = 0; d < 6; d++) bad += o.dims[d] != dims[perm[d]];
  int32_t i[6];
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k;
    for (int d = 5; d >= 0; d--) {
      i[d] = (int32_t)(r % o.dims[d]);
      r /= o.dims[d];
    }
    int32_t src[6];
    for (int d = 0; d < 6; d++) src[perm[d]] = i[d];
    int64_t off = 0;
    for (int d = 0; d < 6; d++) off = off * dims[d] + src[d];
    bad += ((int16_t *)o.data)[k] != x[off];
  }
  CHECK(bad == 0);
  ((int32_t *)tp.data)[1] = 5;
  CHECK(st_run(TFCC_OP_TRANSPOSE, none, in, 2, out, 1, msg, sizeof msg) == TFCC_ERR_INVALID_MODEL);
  st_free(&ti);
  st_free(&tp);
  st_free(&o);
}

static void test_tile_broadcast(void) {
  int64_t x[6] = {1, 2, 3, 4, 5, 6};
  tfcc_tensor ti = st_tensor(TFCC_INT64, 2, (int32_t[]){2, 3}, x);
  int64_t m[2] = {2, 3};
  tfcc_tensor tm = st_tensor(TFCC_INT64, 1, (int32_t[]){2}, m);
  tfcc_tensor o = st_output(TFCC_INT64);
  tfcc_tensor *in[] = {&ti, &tm}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_TILE, none, in, 2, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(o.dims[0] == 4 && o.dims[1] == 9);
  int bad = 0;
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 9; c++) bad += ((int64_t *)o.data)[r * 9 + c] != x[(r % 2) * 3 + c % 3];
  CHECK(bad == 0);
  /* BROADCAST_TO [3,1] -> [2,3,4]. */
  bool bx[3] = {true, false, true};
  tfcc_tensor tb = st_tensor(TFCC_BOOL, 2, (int32_t[]){3, 1}, bx);
  int32_t shape[3] = {2, 3, 4};
  tfcc_tensor ts = st_tensor(TFCC_INT32, 1, (int32_t[]){3}, shape);
  tfcc_tensor ob = st_output(TFCC_BOOL);
  tfcc_tensor *in2[] = {&tb, &ts}, *out2[] = {&ob};
  CHECKF(st_run(TFCC_OP_BROADCAST_TO, none, in2, 2, out2, 1, msg, sizeof msg) == TFCC_OK, "%s",
         msg);
  bad = 0;
  for (int k = 0; k < 24; k++) bad += ((bool *)ob.data)[k] != bx[(k / 4) % 3];
  CHECK(ob.rank == 3 && bad == 0);
  ((int32_t *)ts.data)[1] = 2;
  CHECK(st_run(TFCC_OP_BROADCAST_TO, none, in2, 2, out2, 1, msg, sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&ti);
  st_free(&tm);
  st_free(&o);
  st_free(&tb);
  st_free(&ts);
  st_free(&ob);
}

static void test_depth_space(void) {
  /* [1,2,3,8] block 2 -> [1,4,6,2] and back. */
  float x[48];
  for (int i = 0; i < 48; i++) x[i] = (float)i;
  tfcc_tensor ti = st_tensor(TFCC_FLOAT32, 4, (int32_t[]){1, 2, 3, 8}, x);
  tfcc_tensor o = st_output(TFCC_FLOAT32);
  tfcc_tensor *in[] = {&ti}, *out[] = {&o};
  tfb_field f[] = {{.field = 0, .kind = TFB_I32, .i = 2}};
  tfcc_fb_table t = tfb_build(opt_buf, sizeof opt_buf, f, 1);
  CHECKF(st_run(TFCC_OP_DEPTH_TO_SPACE, t, in, 1, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(o.dims[1] == 4 && o.dims[2] == 6 && o.dims[3] == 2);
  int bad = 0;
  for (int h = 0; h < 4; h++)
    for (int w = 0; w < 6; w++)
      for (int c = 0; c < 2; c++) {
        int ih = h / 2, iw = w / 2, bi = h % 2, bj = w % 2;
        bad +=
            ((float *)o.data)[(h * 6 + w) * 2 + c] != x[(ih * 3 + iw) * 8 + (bi * 2 + bj) * 2 + c];
      }
  CHECK(bad == 0);
  tfcc_tensor back = st_output(TFCC_FLOAT32);
  tfcc_tensor *in2[] = {&o}, *out2[] = {&back};
  CHECKF(st_run(TFCC_OP_SPACE_TO_DEPTH, t, in2, 1, out2, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(back.dims[1] == 2 && back.dims[2] == 3 && back.dims[3] == 8 &&
        memcmp(back.data, x, sizeof x) == 0);
  f[0].i = 3;
  CHECK(st_run(TFCC_OP_DEPTH_TO_SPACE, tfb_build(opt_buf, sizeof opt_buf, f, 1), in, 1, out, 1, msg,
               sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&ti);
  st_free(&o);
  st_free(&back);
}

/* Each copy operator's accepted dtypes (ops/copy_ops.h): every fixed-size dtype and float8 runs
 * through TILE, TRANSPOSE and BROADCAST_TO (as in TFLite; the bytes copied exactly), int4 through
 * TRANSPOSE only; any other dtype is refused at prepare, naming the operator and the dtype. */
static void test_copy_dtypes(void) {
  static const struct {
    tfcc_dtype dt;
    bool tile, transpose; /* accepted by TILE and BROADCAST_TO; by TRANSPOSE */
  } cases[] = {{TFCC_FLOAT8_E4M3FN, true, true}, {TFCC_FLOAT8_E5M2, true, true},
               {TFCC_UINT64, true, true},        {TFCC_BFLOAT16, true, true},
               {TFCC_COMPLEX64, true, true},     {TFCC_FLOAT16, true, true},
               {TFCC_INT4, false, true},         {TFCC_INT2, false, false},
               {TFCC_UINT4, false, false},       {TFCC_STRING, false, false}};
  static const int32_t ops[3] = {TFCC_OP_TILE, TFCC_OP_TRANSPOSE, TFCC_OP_BROADCAST_TO};
  static const char *const names[3] = {"TILE", "TRANSPOSE", "BROADCAST_TO"};
  static const int32_t args[3][3] = {{2, 1}, {1, 0}, {2, 2, 3}}, n_args[3] = {2, 2, 3};
  uint8_t x[6 * 8];
  for (int i = 0; i < (int)sizeof x; i++) x[i] = (uint8_t)(i % 7);
  tfcc_fb_table none = {0};
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
    for (int o = 0; o < 3; o++) {
      const tfcc_dtype dt = cases[ci].dt;
      const bool want_ok = o == 1 ? cases[ci].transpose : cases[ci].tile;
      tfcc_tensor ti = st_tensor(dt, 2, (int32_t[]){2, 3}, x);
      tfcc_tensor ta = st_tensor(TFCC_INT32, 1, &n_args[o], args[o]);
      tfcc_tensor out = st_output(dt);
      tfcc_tensor *in[] = {&ti, &ta}, *outs[] = {&out};
      msg[0] = 0;
      const tfcc_status st = st_run(ops[o], none, in, 2, outs, 1, msg, sizeof msg);
      if (!want_ok) {
        CHECKF(
            st == TFCC_ERR_UNSUPPORTED && strstr(msg, names[o]) && strstr(msg, tfcc_dtype_name(dt)),
            "%s %s: status %d, \"%s\"", names[o], tfcc_dtype_name(dt), (int)st, msg);
      } else {
        CHECKF(st == TFCC_OK, "%s %s: %s", names[o], tfcc_dtype_name(dt), msg);
        /* output element k comes from input element src(k) ([2, 3] row-major) */
        const size_t es = (size_t)tfcc_dtype_size(dt);
        int bad = 0;
        for (int k = 0; st == TFCC_OK && k < (o == 1 ? 6 : 12); k++) {
          const int src = o == 0 ? (k / 3 % 2) * 3 + k % 3 : o == 1 ? (k % 2) * 3 + k / 2 : k % 6;
          bad += memcmp((const uint8_t *)out.data + (size_t)k * es, x + (size_t)src * es, es) != 0;
        }
        CHECKF(bad == 0, "%s %s: %d elements differ", names[o], tfcc_dtype_name(dt), bad);
      }
      st_free(&ti);
      st_free(&ta);
      st_free(&out);
    }
}

int main(void) {
  test_transpose();
  test_tile_broadcast();
  test_copy_dtypes();
  test_depth_space();
  return tfcc_test_finish("ops.test_transpose_tile");
}
