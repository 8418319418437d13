/* STABLEHLO_PAD: hostile inputs and options (wrong padding-value dtype or size, option vectors
 * not matching the rank, negative interior padding give errors naming the cause), the all-empty
 * result TFLite gives when a dimension comes out <= 0 (LiteRT.js cannot hand back an empty
 * output, so this is not a conformance case), and a crop + interior example worked by hand.
 * TFLite's own results are in the conformance suite (stablehlo_pad_*). */
#include "elem_test_util.h"

static tfcc_status run_pad(tfcc_tensor **in, tfcc_tensor *out, const int64_t *lo, const int64_t *hi,
                           const int64_t *it, uint32_t n, tfcc_err *err) {
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = TFCC_OP_STABLEHLO_PAD;
  tfcc_options_default(&node.opts, tfcc_options_kind_of(TFCC_OP_STABLEHLO_PAD));
  tfcc_stablehlo_pad_options *o = &node.opts.shlo_pad;
  o->n_low = o->n_high = o->n_interior = n;
  for (uint32_t k = 0; k < n; k++) {
    o->low[k] = lo[k];
    o->high[k] = hi[k];
    o->interior[k] = it[k];
  }
  tfcc_err_clear(err);
  tfcc_tensor *outs[1] = {out};
  oh_node_run r = {.op = tfcc_op_lookup(TFCC_OP_STABLEHLO_PAD),
                   .node = &node,
                   .in = in,
                   .n_in = 2,
                   .out = outs,
                   .n_out = 1,
                   .err = err};
  return oh_run_node(&r);
}

static void expect_err(tfcc_tensor **in, const int64_t *lo, const int64_t *hi, const int64_t *it,
                       uint32_t n, tfcc_status want, const char *needle) {
  int32_t o[256];
  tfcc_tensor out = oh_tensor(in[0]->dtype, 0, NULL, o, NULL);
  tfcc_err err;
  tfcc_status st = run_pad(in, &out, lo, hi, it, n, &err);
  CHECKF(st == want, "status %d, expected %d (%s)", (int)st, (int)want, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "message '%s' lacks '%s'", err.msg, needle);
}

int main(void) {
  const int32_t d[2] = {3, 4};
  int32_t a[12], pad = -1, o[256];
  for (int i = 0; i < 12; i++) a[i] = i + 1;
  tfcc_tensor ta = oh_tensor(TFCC_INT32, 2, d, a, NULL),
              tp = oh_tensor(TFCC_INT32, 0, NULL, &pad, NULL);
  tfcc_tensor *in[2] = {&ta, &tp};
  /* crop one row low, interior 1 on columns, one high column: out [2, 3*2+1+1 = 8] */
  const int64_t lo[2] = {-1, 0}, hi[2] = {0, 1}, it[2] = {0, 1};
  tfcc_tensor to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
  tfcc_err err;
  CHECKF(run_pad(in, &to, lo, hi, it, 2, &err) == TFCC_OK, "%s", err.msg);
  CHECKF(to.rank == 2 && to.dims[0] == 2 && to.dims[1] == 8, "shape [%d, %d]", (int)to.dims[0],
         (int)to.dims[1]);
  int bad = 0;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 8; c++) {
      const int want = (c % 2 == 0 && c / 2 < 4) ? a[(r + 1) * 4 + c / 2] : -1;
      bad += o[r * 8 + c] != want;
    }
  CHECKF(bad == 0, "crop + interior: %d elements differ", bad);
  /* an output dimension <= 0 empties every dimension, as TFLite */
  const int64_t lo2[2] = {-3, 0}, hi2[2] = {-1, 2}, z[2] = {0, 0};
  CHECKF(run_pad(in, &to, lo2, hi2, z, 2, &err) == TFCC_OK, "%s", err.msg);
  CHECKF(to.rank == 2 && to.dims[0] == 0 && to.dims[1] == 0, "empty: shape [%d, %d]",
         (int)to.dims[0], (int)to.dims[1]);
  /* hostile */
  expect_err(in, lo, hi, it, 1, TFCC_ERR_INVALID_MODEL,
             "1/1/1 edge_padding_low/high/interior entries");
  const int64_t neg[2] = {0, -1};
  expect_err(in, lo, hi, neg, 2, TFCC_ERR_INVALID_MODEL, "interior_padding[1] is -1");
  const int64_t huge[2] = {(int64_t)1 << 50, 0};
  expect_err(in, huge, hi, it, 2, TFCC_ERR_INVALID_MODEL, "edge padding of dimension 0");
  float fpad = 0.f;
  tfcc_tensor tpf = oh_tensor(TFCC_FLOAT32, 0, NULL, &fpad, NULL);
  tfcc_tensor *wrong[2] = {&ta, &tpf};
  expect_err(wrong, lo, hi, it, 2, TFCC_ERR_DTYPE, "input 1 (padding_value) dtype float32");
  const int32_t d2[1] = {2};
  tfcc_tensor tp2 = oh_tensor(TFCC_INT32, 1, d2, a, NULL);
  tfcc_tensor *two[2] = {&ta, &tp2};
  expect_err(two, lo, hi, it, 2, TFCC_ERR_SHAPE, "must hold one element (it holds 2)");
  return tfcc_test_finish("ops.stablehlo_pad");
}
