/* A model whose stored input shape is a placeholder (tests/models/data/placeholder_shapes,
 * modelgen/make_placeholder_shapes.py: x [1, 1] with signature [1, -1], RESHAPE to [4, -1],
 * MUL by 2) loads, as in TensorFlow Lite, which prepares nothing before the caller resizes; its
 * session starts without a plan, refuses to run (naming the cause and the remedy) until a resize
 * gives it one, and then runs at every shape the signature allows. A model that fails at its
 * stored shapes with no -1 to resize still fails to load, naming the operator. */
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

static void path_of(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "%s/tests/models/data/placeholder_shapes/%s.tflite", tfcc_test_source_dir(),
           name);
}

/* Resizes x to [1, n] and runs: y must be x as 4 rows, times 2. */
static void run_at(tfcc_session *s, int32_t n) {
  const int32_t dims[2] = {1, n};
  CHECKF(tfcc_session_resize_input(s, 0, 2, dims) == TFCC_OK, "resize to [1, %d]: %s", (int)n,
         tfcc_session_last_error(s));
  tfcc_tensor_info in, out;
  CHECK(tfcc_session_input_info(s, 0, &in) == TFCC_OK && in.bytes == (size_t)n * 4);
  CHECK(tfcc_session_output_info(s, 0, &out) == TFCC_OK && out.rank == 2 && out.dims[0] == 4 &&
        out.dims[1] == n / 4 && out.bytes == (size_t)n * 4);
  CHECK(tfcc_session_arena_bytes(s) > 0);
  float x[64], y[64];
  for (int32_t i = 0; i < n; i++) x[i] = 0.5f * (float)i - 1.0f;
  const void *ins[1] = {x};
  void *outs[1] = {y};
  CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "run at [1, %d]: %s", (int)n,
         tfcc_session_last_error(s));
  for (int32_t i = 0; i < n; i++) CHECKF(y[i] == 2.0f * x[i], "y[%d] = %g", (int)i, (double)y[i]);
}

int main(void) {
  char path[4096];
  tfcc_runtime *rt = NULL;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  CHECK(tfcc_runtime_create(&ro, &rt) == TFCC_OK);
  if (!rt) return tfcc_test_finish("placeholder_shapes");

  /* no -1 in the signature: nothing can resize it, the load fails at the operator */
  tfcc_model *m = NULL;
  path_of(path, sizeof path, "fixed_input");
  CHECK(tfcc_model_load_file(rt, path, NULL, &m) != TFCC_OK && m == NULL);
  CHECKF(strstr(tfcc_last_error(), "RESHAPE") != NULL, "%s", tfcc_last_error());

  path_of(path, sizeof path, "reshape_placeholder");
  CHECKF(tfcc_model_load_file(rt, path, NULL, &m) == TFCC_OK, "%s", tfcc_last_error());
  if (!m) return tfcc_test_finish("placeholder_shapes");
  tfcc_session *s = NULL;
  CHECKF(tfcc_session_create(m, NULL, &s) == TFCC_OK, "%s", tfcc_last_error());
  if (!s) return tfcc_test_finish("placeholder_shapes");

  /* no plan yet: the stored shapes are reported, every call that needs a plan says why */
  tfcc_tensor_info info;
  CHECK(tfcc_session_input_info(s, 0, &info) == TFCC_OK && info.rank == 2 && info.dims[0] == 1 &&
        info.dims[1] == 1 && info.signature[1] == -1 && strcmp(info.name, "x") == 0);
  CHECK(tfcc_session_output_info(s, 0, &info) == TFCC_OK && info.dims[0] == 4);
  CHECK(tfcc_session_arena_bytes(s) == 0);
  CHECK(tfcc_session_output_is_dynamic(s, 0) == 0);
  float x[8] = {0}, y[8];
  const void *ins[1] = {x};
  void *outs[1] = {y};
  CHECK(tfcc_session_run(s, ins, outs) == TFCC_ERR_STATE);
  const char *e = tfcc_session_last_error(s);
  CHECKF(strstr(e, "RESHAPE") && strstr(e, "tfcc_session_resize_input"), "%s", e);
  CHECK(tfcc_session_invoke(s) == TFCC_ERR_STATE);
  CHECK(tfcc_session_set_input(s, 0, x, 4) == TFCC_ERR_STATE);
  CHECK(tfcc_session_set_output(s, 0, y, 32) == TFCC_ERR_STATE);
  const void *data = NULL;
  CHECK(tfcc_session_output_data(s, 0, &data, NULL) == TFCC_ERR_STATE);
  CHECK(tfcc_session_set_profiling(s, 1) == TFCC_OK);
  CHECK(tfcc_session_reset_state(s) == TFCC_OK);

  /* a shape the graph cannot take either: refused, still no plan */
  const int32_t bad[2] = {1, 6};
  CHECK(tfcc_session_resize_input(s, 0, 2, bad) != TFCC_OK);
  CHECK(tfcc_session_run(s, ins, outs) == TFCC_ERR_STATE);
  CHECK(tfcc_session_input_info(s, 0, &info) == TFCC_OK && info.dims[1] == 1);
  /* the signature's fixed dimension stays fixed */
  const int32_t fixed[2] = {2, 8};
  CHECK(tfcc_session_resize_input(s, 0, 2, fixed) == TFCC_ERR_SHAPE);

  run_at(s, 8);
  const tfcc_op_profile *prof = NULL;
  CHECK(tfcc_session_profile(s, &prof) == 2 && prof && prof[0].runs == 1);
  run_at(s, 12);
  run_at(s, 4);
  /* a failed resize of a planned session keeps its plan */
  CHECK(tfcc_session_resize_input(s, 0, 2, bad) != TFCC_OK);
  float x4[4] = {1, 2, 3, 4}, y4[4];
  const void *ins4[1] = {x4};
  void *outs4[1] = {y4};
  CHECK(tfcc_session_run(s, ins4, outs4) == TFCC_OK && y4[3] == 8.0f);
  tfcc_session_destroy(s);

  /* a signature's session and a weight update take the same path */
  CHECKF(tfcc_session_create_for_signature(m, "serving_default", NULL, &s) == TFCC_OK, "%s",
         tfcc_last_error());
  if (s) {
    CHECK(tfcc_session_invoke(s) == TFCC_ERR_STATE);
    run_at(s, 16);
    tfcc_session_destroy(s);
  }
  CHECKF(tfcc_model_update_weights(m, path) == TFCC_OK, "%s", tfcc_last_error());
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  if (s) {
    run_at(s, 8);
    tfcc_session_destroy(s);
  }
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("placeholder_shapes");
}
