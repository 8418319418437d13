/* q16gemm55: the 16x8 FULLY_CONNECTED of one batch (q16-dot's GEMV) and, after a resize to more
 * batches, of several (q16-gemm, packed at that prepare: fully_connected.c's fc_q16_pack), on a
 * conformance model whose stored input has one batch: the stored shape gives TFLite's output
 * (its .out0.npy), kernel q16-dot; at 2, 7 and 13 batches the kernel is q16-gemm (the profile
 * says so), every batch's output equals that row's one-batch output, bit for bit, and back at
 * one batch q16-dot again with the same bits. A second session of the model takes the packing
 * made by the first (packed once per model). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static uint32_t rng = 777u;
static int16_t rand16(void) {
  rng = rng * 1664525u + 1013904223u;
  return (int16_t)(rng >> 16);
}

/* The kernel of the session's FULLY_CONNECTED node in its profile, or "". */
static const char *fc_kernel(tfcc_session *s) {
  const tfcc_op_profile *e = NULL;
  const int n = tfcc_session_profile(s, &e);
  for (int i = 0; i < n; i++)
    if (strcmp(e[i].name, "FULLY_CONNECTED") == 0) return e[i].kernel;
  return "";
}

static bool run_rows(tfcc_session *s, int rows, int32_t accum, const int16_t *in, int16_t *out,
                     const char *want_kernel) {
  int32_t dims[2] = {rows, accum};
  tfcc_status st = tfcc_session_resize_input(s, 0, 2, dims);
  CHECKF(st == TFCC_OK, "resize to %d: %s", rows, tfcc_session_last_error(s));
  if (st != TFCC_OK) return false;
  tfcc_session_profile_reset(s);
  const void *ins[1] = {in};
  void *outs[1] = {out};
  st = tfcc_session_run(s, ins, outs);
  CHECKF(st == TFCC_OK, "run at %d: %s", rows, tfcc_session_last_error(s));
  const char *k = fc_kernel(s);
  CHECKF(strncmp(k, want_kernel, strlen(want_kernel)) == 0, "%d batches: kernel %s, want %s*", rows,
         k, want_kernel);
  return st == TFCC_OK;
}

int main(void) {
  const char *src = tfcc_test_source_dir();
  if (!src) return TFCC_TEST_SKIP;
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/fully_connected_i16_no_bias", src);
  char mpath[4200], ipath[4200], opath[4200];
  snprintf(mpath, sizeof mpath, "%s.tflite", path);
  snprintf(ipath, sizeof ipath, "%s.in0.npy", path);
  snprintf(opath, sizeof opath, "%s.out0.npy", path);
  test_npy in0, out0;
  if (test_npy_load(ipath, &in0) != 0 || test_npy_load(opath, &out0) != 0) {
    CHECKF(false, "cannot read %s / %s", ipath, opath);
    return tfcc_test_finish("q16_fc_batches");
  }
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, mpath, NULL, &m);
  CHECKF(st == TFCC_OK, "load: %s", tfcc_last_error());
  tfcc_session *s[2] = {NULL, NULL};
  for (int i = 0; st == TFCC_OK && i < 2; i++) {
    st = tfcc_session_create(m, NULL, &s[i]);
    CHECKF(st == TFCC_OK, "session: %s", tfcc_last_error());
    if (st == TFCC_OK) CHECK(tfcc_session_set_profiling(s[i], 1) == TFCC_OK);
  }
  tfcc_tensor_info ii, oi;
  if (st == TFCC_OK) {
    tfcc_session_input_info(s[0], 0, &ii);
    tfcc_session_output_info(s[0], 0, &oi);
    CHECK(ii.rank == 2 && ii.dims[0] == 1 && oi.rank == 2 && in0.dtype == TFCC_INT16);
  }
  if (st == TFCC_OK && ii.rank == 2 && ii.dims[0] == 1 && oi.rank == 2) {
    const int32_t accum = ii.dims[1], units = oi.dims[1];
    enum { MAXB = 13 };
    int16_t *x = malloc((size_t)MAXB * accum * sizeof(int16_t));
    int16_t *y = malloc((size_t)MAXB * units * sizeof(int16_t));
    int16_t *y1 = malloc((size_t)MAXB * units * sizeof(int16_t));
    CHECK(x && y && y1);
    for (int i = 0; x && i < MAXB * accum; i++)
      x[i] = i % 11 == 3 ? (int16_t)-32768 : i % 13 == 5 ? (int16_t)32767 : rand16();
    if (x) memcpy(x, in0.data, (size_t)accum * sizeof(int16_t)); /* row 0: the stored input */
    /* one batch: TFLite's output for row 0, then every row alone (q16-dot) */
    for (int r = 0; x && y && y1 && r < MAXB; r++) {
      if (!run_rows(s[0], 1, accum, x + (size_t)r * accum, y1 + (size_t)r * units, "q16-dot"))
        break;
      if (r == 0)
        CHECKF(memcmp(y1, out0.data, (size_t)units * sizeof(int16_t)) == 0,
               "one batch differs from TFLite's output");
    }
    static const int batches[] = {2, 7, 13};
    for (int si = 0; si < 2; si++)
      for (size_t bi = 0; x && y && y1 && bi < sizeof batches / sizeof batches[0]; bi++) {
        const int b = batches[bi];
        memset(y, 0x5a, (size_t)b * units * sizeof(int16_t));
        if (!run_rows(s[si], b, accum, x, y, "q16-gemm")) break;
        CHECKF(memcmp(y, y1, (size_t)b * units * sizeof(int16_t)) == 0,
               "session %d, %d batches: differs from the rows run alone", si, b);
      }
    if (x && y && y1 && run_rows(s[0], 1, accum, x + accum, y, "q16-dot"))
      CHECKF(memcmp(y, y1 + units, (size_t)units * sizeof(int16_t)) == 0,
             "back at one batch: differs");
    free(x), free(y), free(y1);
  }
  for (int i = 0; i < 2; i++) tfcc_session_destroy(s[i]);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  test_npy_free(&in0);
  test_npy_free(&out0);
  return tfcc_test_finish("q16_fc_batches");
}
