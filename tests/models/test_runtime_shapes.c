/* Shapes computed while the graph runs (the three capability models of ../shared/models):
 *   dilated_conv_runtime_paddings     SPACE_TO_BATCH_ND paddings from SHAPE arithmetic: computed
 *                                     while planning, re-planned by resize_input (static arena)
 *   basic_pitch_nmp                   RESHAPE shapes from SHAPE -> STRIDED_SLICE -> PACK, batch -1
 *   transpose_conv_shape_input_int16  TRANSPOSE_CONV output_shape fed as a graph input: a
 *                                     dynamic output, sized during run (int16, bit-exact)
 * and what a caller sees of a dynamic output: its shape after the run, a clear status when its
 * buffer is too small, the needed size, and the values held by the session.
 * References: ref/<name>/ where it is valid, else tests/models/data/runtime_shapes (README
 * there: made with TensorFlow Lite's classic interpreter). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static const char *g_shared, *g_src;
static tfcc_runtime *g_rt;

static int load_shared(const char *name, test_npy *a, const char *file) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/%s", g_shared, file);
  (void)name;
  int rc = test_npy_load(path, a);
  CHECKF(rc == 0, "cannot read %s", path);
  return rc;
}

static int load_data(test_npy *a, const char *file) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/models/data/runtime_shapes/%s", g_src, file);
  int rc = test_npy_load(path, a);
  CHECKF(rc == 0, "cannot read %s", path);
  return rc;
}

static tfcc_session *open_session(const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/%s.tflite", g_shared, name);
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(g_rt, path, NULL, &m);
  CHECKF(st == TFCC_OK, "%s: load: %s", name, tfcc_last_error());
  if (st != TFCC_OK) return NULL;
  tfcc_session *s = NULL;
  st = tfcc_session_create(m, NULL, &s);
  CHECKF(st == TFCC_OK, "%s: session: %s", name, tfcc_last_error());
  tfcc_model_release(m);
  return st == TFCC_OK ? s : NULL;
}

/* float32: |a - r| <= 1e-3 + 1e-3 |r| (README); others exact. stride: compare got[k*stride]. */
static void expect_close(const char *what, const void *got, size_t got_elems, const test_npy *ref,
                         size_t stride) {
  size_t n = ref->bytes / tfcc_dtype_size(ref->dtype), over = 0;
  CHECKF(n * stride <= got_elems + stride - 1, "%s: %zu elements, reference needs %zu", what,
         got_elems, n * stride);
  if (n * stride > got_elems + stride - 1) return;
  double max_diff = 0;
  for (size_t k = 0; k < n; k++) {
    double a, b, tol;
    if (ref->dtype == TFCC_FLOAT32) {
      a = ((const float *)got)[k * stride];
      b = ((const float *)ref->data)[k];
      tol = 1e-3 + 1e-3 * fabs(b);
    } else if (ref->dtype == TFCC_INT16) {
      a = ((const int16_t *)got)[k * stride];
      b = ((const int16_t *)ref->data)[k];
      tol = 0;
    } else {
      CHECKF(0, "%s: reference dtype %s not handled", what, tfcc_dtype_name(ref->dtype));
      return;
    }
    double d = fabs(a - b);
    if (!(d <= tol)) over++;
    if (d > max_diff) max_diff = d;
  }
  CHECKF(over == 0, "%s: %zu of %zu elements beyond tolerance (max diff %g)", what, over, n,
         max_diff);
  printf("  %-52s %6zu elements, max diff %g\n", what, n, max_diff);
}

static void expect_shape(const char *what, const tfcc_tensor_info *info, int32_t rank,
                         const int32_t *dims) {
  bool same = info->rank == rank;
  for (int32_t d = 0; same && d < rank; d++) same = info->dims[d] == dims[d];
  CHECKF(same, "%s: shape rank %d [%d,%d,%d,%d...] differs from the expected", what,
         (int)info->rank, (int)info->dims[0], (int)info->dims[1], (int)info->dims[2],
         (int)info->dims[3]);
}

/* ---------------------------------------------------------------- dilated conv */

static void dilated_at(tfcc_session *s, const char *in_file, const char *out_file,
                       const int32_t *out_dims) {
  test_npy in, ref;
  if (load_data(&in, in_file) != 0) return;
  if (load_data(&ref, out_file) != 0) {
    test_npy_free(&in);
    return;
  }
  tfcc_status st = tfcc_session_resize_input(s, 0, in.rank, in.dims);
  CHECKF(st == TFCC_OK, "dilated: resize: %s", tfcc_session_last_error(s));
  CHECK(tfcc_session_dynamic_tensor_count(s) == 0); /* still a static plan */
  tfcc_tensor_info info;
  tfcc_session_output_info(s, 0, &info);
  expect_shape("dilated: output shape after resize", &info, 4, out_dims);
  void *out = calloc(1, info.bytes);
  const void *ins[1] = {in.data};
  void *outs[1] = {out};
  st = tfcc_session_run(s, ins, outs);
  CHECKF(st == TFCC_OK, "dilated: run: %s", tfcc_session_last_error(s));
  if (st == TFCC_OK) expect_close(out_file, out, info.bytes / 4, &ref, 1);
  free(out);
  test_npy_free(&in);
  test_npy_free(&ref);
}

static void check_dilated(void) {
  const char *name = "dilated_conv_runtime_paddings";
  tfcc_session *s = open_session(name);
  if (!s) return;
  CHECK(tfcc_session_dynamic_tensor_count(s) == 0);
  CHECK(tfcc_session_output_is_dynamic(s, 0) == 0);
  test_npy in, ref;
  if (load_shared(name, &in, "ref/dilated_conv_runtime_paddings/input_0.npy") == 0 &&
      load_shared(name, &ref, "ref/dilated_conv_runtime_paddings/output_0.npy") == 0) {
    float out[16];
    const void *ins[1] = {in.data};
    void *outs[1] = {out};
    tfcc_status st = tfcc_session_run(s, ins, outs);
    CHECKF(st == TFCC_OK, "dilated: run: %s", tfcc_session_last_error(s));
    if (st == TFCC_OK) expect_close("dilated_conv_runtime_paddings vs ref", out, 16, &ref, 1);
    /* a static output is the caller's: the session holds no copy */
    const void *p;
    CHECK(tfcc_session_output_data(s, 0, &p, NULL) == TFCC_ERR_STATE);
    test_npy_free(&in);
    test_npy_free(&ref);
  }
  const int32_t a[4] = {1, 7, 9, 16}, b[4] = {2, 5, 6, 16};
  dilated_at(s, "dilated_1x7x9_in0.npy", "dilated_1x7x9_out0.npy", a);
  dilated_at(s, "dilated_2x5x6_in0.npy", "dilated_2x5x6_out0.npy", b);
  dilated_at(s, "dilated_1x7x9_in0.npy", "dilated_1x7x9_out0.npy", a);
  tfcc_session_destroy(s);
}

/* ---------------------------------------------------------------- basic pitch */

static void check_basic_pitch(void) {
  const char *name = "basic_pitch_nmp";
  tfcc_session *s = open_session(name);
  if (!s) return;
  CHECK(tfcc_session_dynamic_tensor_count(s) == 0);
  test_npy in;
  if (load_shared(name, &in, "ref/basic_pitch_nmp/input_0.npy") != 0) {
    tfcc_session_destroy(s);
    return;
  }
  size_t elems[3];
  void *outs[3];
  for (int i = 0; i < 3; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, i, &info);
    elems[i] = info.bytes / 4;
    outs[i] = calloc(1, info.bytes);
  }
  const void *ins[1] = {in.data};
  tfcc_status st = tfcc_session_run(s, ins, outs);
  CHECKF(st == TFCC_OK, "basic_pitch: run: %s", tfcc_session_last_error(s));
  for (int i = 0; i < 3 && st == TFCC_OK; i++) {
    test_npy ref;
    char file[64], what[64];
    snprintf(file, sizeof file, "basic_pitch_out%d_every8.npy", i);
    snprintf(what, sizeof what, "basic_pitch_nmp out%d (every 8th)", i);
    if (load_data(&ref, file) != 0) continue;
    expect_close(what, outs[i], elems[i], &ref, 8);
    test_npy_free(&ref);
  }
  /* Batch 2 (signature [-1, 43844, 1]): the RESHAPE shapes computed from SHAPE follow; each
   * batch equals the batch-1 result. */
  int32_t dims2[3] = {2, 43844, 1};
  st = tfcc_session_resize_input(s, 0, 3, dims2);
  CHECKF(st == TFCC_OK, "basic_pitch: resize to batch 2: %s", tfcc_session_last_error(s));
  CHECK(tfcc_session_dynamic_tensor_count(s) == 0);
  if (st == TFCC_OK) {
    float *in2 = malloc(in.bytes * 2);
    memcpy(in2, in.data, in.bytes);
    memcpy((uint8_t *)in2 + in.bytes, in.data, in.bytes);
    void *outs2[3];
    for (int i = 0; i < 3; i++) {
      tfcc_tensor_info info;
      tfcc_session_output_info(s, i, &info);
      CHECKF(info.dims[0] == 2 && info.bytes == elems[i] * 8,
             "basic_pitch: output %d: batch %d, %zu bytes", i, (int)info.dims[0], info.bytes);
      outs2[i] = calloc(1, elems[i] * 8);
    }
    const void *ins2[1] = {in2};
    st = tfcc_session_run(s, ins2, outs2);
    CHECKF(st == TFCC_OK, "basic_pitch batch 2: run: %s", tfcc_session_last_error(s));
    for (int i = 0; i < 3 && st == TFCC_OK; i++)
      for (int b = 0; b < 2; b++) {
        const float *x = (const float *)outs2[i] + (size_t)b * elems[i], *y = outs[i];
        size_t bad = 0;
        for (size_t k = 0; k < elems[i]; k++)
          if (!(fabsf(x[k] - y[k]) <= 1e-5f + 1e-5f * fabsf(y[k]))) bad++;
        CHECKF(bad == 0,
               "basic_pitch batch 2: output %d batch %d: %zu elements differ from batch 1", i, b,
               bad);
      }
    if (st == TFCC_OK)
      printf("  basic_pitch_nmp batch 2: both batches equal the batch-1 outputs\n");
    for (int i = 0; i < 3; i++) free(outs2[i]);
    free(in2);
  }
  for (int i = 0; i < 3; i++) free(outs[i]);
  test_npy_free(&in);
  tfcc_session_destroy(s);
}

/* ---------------------------------------------------------------- transpose conv */

static void check_transpose_conv(void) {
  const char *name = "transpose_conv_shape_input_int16";
  tfcc_session *s = open_session(name);
  if (!s) return;
  CHECK(tfcc_session_output_is_dynamic(s, 0) == 1);
  CHECK(tfcc_session_dynamic_tensor_count(s) == 1);
  tfcc_dynamic_tensor_info d;
  CHECK(tfcc_session_dynamic_tensor_info(s, 0, &d) == TFCC_OK);
  CHECK(d.node == 0 && strcmp(d.op, "TRANSPOSE_CONV") == 0 &&
        strstr(d.reason, "output_shape") != NULL);
  CHECK(tfcc_session_dynamic_tensor_info(s, 1, &d) == TFCC_ERR_INVALID_ARG);
  const void *p;
  size_t got_bytes = 0;
  CHECK(tfcc_session_output_data(s, 0, &p, &got_bytes) == TFCC_ERR_STATE); /* no run yet */

  test_npy os, x, r12, r13, r11;
  if (load_shared(name, &os, "ref/transpose_conv_shape_input_int16/input_0.npy") != 0) return;
  if (load_shared(name, &x, "ref/transpose_conv_shape_input_int16/input_1.npy") != 0) return;
  if (load_data(&r12, "transpose_conv_os12_out0.npy") ||
      load_data(&r13, "transpose_conv_os13_out0.npy") ||
      load_data(&r11, "transpose_conv_os11_out0.npy"))
    return;
  tfcc_tensor_info info;
  tfcc_session_output_info(s, 0, &info);
  const int32_t d12[4] = {1, 3, 12, 64}, d13[4] = {1, 3, 13, 64}, d11[4] = {1, 3, 11, 64};
  expect_shape("tconv: stored output shape before a run", &info, 4, d12);

  /* 1. The reference feed: output_shape [1,3,12,64], buffer sized by output_info. */
  int16_t *buf = calloc(1, info.bytes);
  const void *ins[2] = {os.data, x.data};
  void *outs[1] = {buf};
  tfcc_status st = tfcc_session_run(s, ins, outs);
  CHECKF(st == TFCC_OK, "tconv: run: %s", tfcc_session_last_error(s));
  if (st == TFCC_OK)
    expect_close("transpose_conv_shape_input_int16 [1,3,12,64]", buf, 2304, &r12, 1);

  /* 2. A larger output_shape into the same 4608-byte buffer: a clear status and the size. */
  int32_t os13[4] = {1, 3, 13, 64}, os11[4] = {1, 3, 11, 64};
  CHECK(tfcc_session_set_input(s, 0, os13, sizeof os13) == TFCC_OK);
  CHECK(tfcc_session_set_input(s, 1, x.data, x.bytes) == TFCC_OK);
  CHECK(tfcc_session_set_output(s, 0, buf, 4608) == TFCC_OK); /* dynamic: any capacity */
  st = tfcc_session_invoke(s);
  CHECKF(st == TFCC_ERR_BUFFER_TOO_SMALL, "tconv: larger output: status %s", tfcc_status_str(st));
  CHECKF(strstr(tfcc_session_last_error(s), "4992 bytes") &&
             strstr(tfcc_session_last_error(s), "holds 4608"),
         "tconv: message '%s'", tfcc_session_last_error(s));
  printf("  too small: %s\n", tfcc_session_last_error(s));
  tfcc_session_output_info(s, 0, &info);
  expect_shape("tconv: output_info after a too-small run", &info, 4, d13);
  CHECK(info.bytes == 4992);
  CHECK(tfcc_session_output_data(s, 0, &p, &got_bytes) == TFCC_OK && got_bytes == 4992);
  if (got_bytes == 4992) expect_close("tconv [1,3,13,64] via output_data", p, 2496, &r13, 1);

  /* 3. Rebound with the needed size: OK. */
  int16_t *big = calloc(1, 4992);
  CHECK(tfcc_session_set_output(s, 0, big, 4992) == TFCC_OK);
  st = tfcc_session_invoke(s);
  CHECKF(st == TFCC_OK, "tconv: rebound run: %s", tfcc_session_last_error(s));
  if (st == TFCC_OK) expect_close("tconv [1,3,13,64] into the caller's buffer", big, 2496, &r13, 1);

  /* 4. Smaller again: fits, output_info follows, memory is not re-allocated (same pointer). */
  const void *before = NULL;
  tfcc_session_output_data(s, 0, &before, NULL);
  CHECK(tfcc_session_set_input(s, 0, os11, sizeof os11) == TFCC_OK);
  st = tfcc_session_invoke(s);
  CHECKF(st == TFCC_OK, "tconv: smaller run: %s", tfcc_session_last_error(s));
  tfcc_session_output_info(s, 0, &info);
  expect_shape("tconv: output_info after a smaller run", &info, 4, d11);
  if (st == TFCC_OK) expect_close("tconv [1,3,11,64]", big, 2112, &r11, 1);
  const void *after = NULL;
  tfcc_session_output_data(s, 0, &after, NULL);
  CHECK(before == after);

  /* 5. tfcc_session_run with a NULL buffer for the dynamic output: read it from the session. */
  const void *ins13[2] = {os13, x.data};
  void *none[1] = {NULL};
  st = tfcc_session_run(s, ins13, none);
  CHECKF(st == TFCC_OK, "tconv: NULL output run: %s", tfcc_session_last_error(s));
  CHECK(tfcc_session_output_data(s, 0, &p, &got_bytes) == TFCC_OK && got_bytes == 4992);
  if (got_bytes == 4992)
    expect_close("tconv [1,3,13,64] NULL buffer, output_data", p, 2496, &r13, 1);

  /* 6. A wrong output_shape is refused while running, naming the node. */
  int32_t bad[4] = {2, 3, 12, 64};
  const void *ins_bad[2] = {bad, x.data};
  st = tfcc_session_run(s, ins_bad, none);
  CHECKF(st == TFCC_ERR_SHAPE && strstr(tfcc_session_last_error(s), "node 0 (TRANSPOSE_CONV)"),
         "tconv: bad output_shape: %s: %s", tfcc_status_str(st), tfcc_session_last_error(s));
  CHECK(tfcc_session_output_data(s, 0, &p, NULL) == TFCC_ERR_STATE); /* failed run */

  free(buf);
  free(big);
  test_npy_free(&os);
  test_npy_free(&x);
  test_npy_free(&r12);
  test_npy_free(&r13);
  test_npy_free(&r11);
  tfcc_session_destroy(s);
}

int main(void) {
  g_shared = tfcc_test_shared_dir();
  g_src = tfcc_test_source_dir();
  if (!g_shared || !g_src) return TFCC_TEST_SKIP;
  tfcc_status st = tfcc_runtime_create(NULL, &g_rt);
  CHECK(st == TFCC_OK);
  if (st != TFCC_OK) return tfcc_test_finish("runtime_shapes");
  check_dilated();
  check_transpose_conv();
  check_basic_pitch();
  tfcc_runtime_destroy(g_rt);
  return tfcc_test_finish("runtime_shapes");
}
