/* LSH_PROJECTION and EMBEDDING_LOOKUP_SPARSE: hostile inputs (wrong operand dtypes and ranks,
 * mismatched shapes, bad options, out-of-range ids and indices give errors naming the operand
 * and the cause) and the MEAN example of TFLite's embedding_lookup_sparse.cc worked by hand
 * (TFLite's own results are in the conformance suite: lsh_projection_*,
 * embedding_lookup_sparse_*). */
#include "elem_test_util.h"

enum { OPT_LSH = 4, OPT_ELS = 20 }; /* BuiltinOptions union types */

static tfcc_status run_opt(int32_t op, tfcc_tensor **in, int32_t n, tfcc_tensor *out, uint8_t type,
                           int value, tfcc_err *err) {
  etu_opts o = {.opts_type = type, .activation = value, .pot = -1};
  return etu_run(op, in, n, out, &o, err);
}

static void expect_err(int32_t op, tfcc_tensor **in, int32_t n, tfcc_tensor *out, uint8_t type,
                       int value, tfcc_status want, const char *needle) {
  tfcc_err err;
  tfcc_status st = run_opt(op, in, n, out, type, value, &err);
  CHECKF(st == want, "op %d: status %d, expected %d (%s)", (int)op, (int)st, (int)want, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "op %d: message '%s' lacks '%s'", (int)op, err.msg,
         needle);
}

static void test_lsh_hostile(void) {
  const int32_t dh[2] = {2, 3}, dh33[2] = {1, 33}, din[1] = {4}, dw[1] = {3};
  float seeds[33] = {0}, w[3] = {1, 2, 3};
  int32_t x[4] = {1, 2, 3, 4}, o[64];
  tfcc_tensor h = oh_tensor(TFCC_FLOAT32, 2, dh, seeds, NULL),
              h33 = oh_tensor(TFCC_FLOAT32, 2, dh33, seeds, NULL);
  tfcc_tensor hi = oh_tensor(TFCC_INT32, 2, dh, x, NULL),
              in = oh_tensor(TFCC_INT32, 1, din, x, NULL);
  tfcc_tensor wt = oh_tensor(TFCC_FLOAT32, 1, dw, w, NULL),
              out = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
  tfcc_tensor outf = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
  tfcc_tensor *ok[2] = {&h, &in}, *bad_h[2] = {&hi, &in}, *bits[2] = {&h33, &in},
              *bad_w[3] = {&h, &in, &wt};
  expect_err(TFCC_OP_LSH_PROJECTION, ok, 2, &out, OPT_LSH, 0, TFCC_ERR_INVALID_MODEL, "type 0");
  expect_err(TFCC_OP_LSH_PROJECTION, ok, 2, &out, 0, 0, TFCC_ERR_INVALID_MODEL, "type 0");
  expect_err(TFCC_OP_LSH_PROJECTION, bad_h, 2, &out, OPT_LSH, 1, TFCC_ERR_DTYPE,
             "input 0 (hash) dtype int32");
  expect_err(TFCC_OP_LSH_PROJECTION, bits, 2, &out, OPT_LSH, 2, TFCC_ERR_SHAPE, "num_bits <= 32");
  expect_err(TFCC_OP_LSH_PROJECTION, bad_w, 3, &out, OPT_LSH, 1, TFCC_ERR_SHAPE,
             "input 2 (weight) must be [4]");
  expect_err(TFCC_OP_LSH_PROJECTION, ok, 2, &outf, OPT_LSH, 1, TFCC_ERR_DTYPE, "float32");
  tfcc_err err;
  CHECKF(run_opt(TFCC_OP_LSH_PROJECTION, ok, 2, &out, OPT_LSH, 2, &err) == TFCC_OK, "%s", err.msg);
  CHECKF(out.rank == 1 && out.dims[0] == 6, "dense output [%d]", (int)out.dims[0]);
}

typedef struct els_io {
  int32_t ids[4], ix[8], ds[2];
  float w[4], params[5 * 2];
  tfcc_tensor t[5];
} els_io;

static void els_setup(els_io *s) {
  static const int32_t dids[1] = {4}, dix[2] = {4, 2}, dds[1] = {2}, dp[2] = {5, 2};
  const int32_t ids[4] = {1, 3, 0, 1}, ix[8] = {0, 0, 0, 1, 1, 0, 2, 3}, ds[2] = {3, 4};
  const float w[4] = {2.f, 0.5f, 1.f, 3.f};
  memcpy(s->ids, ids, sizeof ids);
  memcpy(s->ix, ix, sizeof ix);
  memcpy(s->ds, ds, sizeof ds);
  memcpy(s->w, w, sizeof w);
  for (int i = 0; i < 10; i++) s->params[i] = (float)(i + 1);
  s->t[0] = oh_tensor(TFCC_INT32, 1, dids, s->ids, NULL);
  s->t[1] = oh_tensor(TFCC_INT32, 2, dix, s->ix, NULL);
  s->t[2] = oh_tensor(TFCC_INT32, 1, dds, s->ds, NULL);
  s->t[3] = oh_tensor(TFCC_FLOAT32, 1, dids, s->w, NULL);
  s->t[4] = oh_tensor(TFCC_FLOAT32, 2, dp, s->params, NULL);
  for (int i = 0; i < 5; i++) s->t[i].known = s->t[i].is_const = true;
}

static void test_els(void) {
  els_io s;
  els_setup(&s);
  float o[16];
  tfcc_tensor out = oh_tensor(TFCC_FLOAT32, 0, NULL, o, NULL);
  tfcc_tensor *in[5] = {&s.t[0], &s.t[1], &s.t[2], &s.t[3], &s.t[4]};
  tfcc_err err;
  CHECKF(run_opt(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, in, 5, &out, OPT_ELS, 1, &err) == TFCC_OK, "%s",
         err.msg);
  CHECKF(out.rank == 2 && out.dims[0] == 3 && out.dims[1] == 2, "output shape");
  /* rows are params[i] = (2i + 1, 2i + 2); MEAN: (p1 * 2 + p3 * 0.5) / 2.5, p0, p1 */
  const float want[6] = {
      (3.f * 2 + 7.f * 0.5f) / 2.5f, (4.f * 2 + 8.f * 0.5f) / 2.5f, 1.f, 2.f, 3.f, 4.f};
  for (int i = 0; i < 6; i++)
    CHECKF(fabsf(o[i] - want[i]) <= 1e-6f * fabsf(want[i]), "MEAN [%d] = %g, want %g", i, o[i],
           want[i]);
  /* hostile */
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, in, 5, &out, OPT_ELS, 7, TFCC_ERR_INVALID_MODEL,
             "combiner 7 out of range");
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, in, 4, &out, OPT_ELS, 0, TFCC_ERR_INVALID_MODEL,
             "4 inputs");
  tfcc_tensor *swap[5] = {&s.t[3], &s.t[1], &s.t[2], &s.t[3], &s.t[4]};
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, swap, 5, &out, OPT_ELS, 0, TFCC_ERR_DTYPE,
             "input 0 (ids) dtype float32");
  tfcc_tensor *nop[5] = {&s.t[0], &s.t[1], &s.t[2], &s.t[3], &s.t[3]};
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, nop, 5, &out, OPT_ELS, 0, TFCC_ERR_SHAPE,
             "input 4 (params) has rank 1");
  const int32_t d3[1] = {3};
  tfcc_tensor w3 = oh_tensor(TFCC_FLOAT32, 1, d3, s.w, NULL);
  tfcc_tensor *short_w[5] = {&s.t[0], &s.t[1], &s.t[2], &w3, &s.t[4]};
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, short_w, 5, &out, OPT_ELS, 0, TFCC_ERR_SHAPE,
             "weights [3] must have one entry per id");
  s.ds[0] = -3;
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, in, 5, &out, OPT_ELS, 0, TFCC_ERR_SHAPE,
             "dense_shape[0] is -3");
  s.ds[0] = 3;
  s.ids[2] = 5;
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, in, 5, &out, OPT_ELS, 0, TFCC_ERR_RUNTIME,
             "id 5 (entry 2) outside params' 5 rows");
  s.ids[2] = 0;
  s.ix[6] = 3;
  expect_err(TFCC_OP_EMBEDDING_LOOKUP_SPARSE, in, 5, &out, OPT_ELS, 0, TFCC_ERR_RUNTIME,
             "entry 3 index 0 is 3, outside [0, 3)");
}

int main(void) {
  test_lsh_hostile();
  test_els();
  return tfcc_test_finish("ops.lsh_sparse_lookup");
}
