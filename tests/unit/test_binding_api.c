/* The C API the Python binding needs: TFLite tensor indices of inputs and outputs, the file's
 * SignatureDefs, and resizing several inputs at once (one re-plan, nothing changes on failure). */
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

int main(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/add_f32_same.tflite",
           tfcc_test_source_dir());
  tfcc_runtime *rt = NULL;
  tfcc_model *m = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  CHECKF(tfcc_model_load_file(rt, path, NULL, &m) == TFCC_OK, "%s", tfcc_last_error());
  if (!m) return tfcc_test_finish("binding_api");

  /* tensor indices: in0 = 0, in1 = 1, out0 = 2 (modelgen's order) */
  int32_t t = -1;
  CHECK(tfcc_model_input_tensor(m, 0, &t) == TFCC_OK && t == 0);
  CHECK(tfcc_model_input_tensor(m, 1, &t) == TFCC_OK && t == 1);
  CHECK(tfcc_model_output_tensor(m, 0, &t) == TFCC_OK && t == 2);
  CHECK(tfcc_model_input_tensor(m, 2, &t) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_output_tensor(m, -1, &t) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_input_tensor(NULL, 0, &t) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_input_tensor(m, 0, NULL) == TFCC_ERR_INVALID_ARG);

  /* signatures: serving_default {in0: 0, in1: 1} -> {out0: 2} */
  CHECK(tfcc_model_signature_count(m) == 1);
  CHECK(tfcc_model_signature_count(NULL) == 0);
  tfcc_signature_info si;
  CHECK(tfcc_model_signature_info(m, 1, &si) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_signature_info(m, 0, NULL) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_signature_info(m, 0, &si) == TFCC_OK);
  CHECK(strcmp(si.key, "serving_default") == 0 && si.subgraph == 0);
  CHECK(si.input_count == 2 && si.output_count == 1);
  if (si.input_count == 2 && si.output_count == 1) {
    CHECK(strcmp(si.input_names[0], "in0") == 0 && si.input_tensors[0] == 0);
    CHECK(strcmp(si.input_names[1], "in1") == 0 && si.input_tensors[1] == 1);
    CHECK(strcmp(si.output_names[0], "out0") == 0 && si.output_tensors[0] == 2);
  }

  /* resize both operands of the ADD together; one alone cannot broadcast */
  tfcc_session *s = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  tfcc_model_release(m);
  if (!s) return tfcc_test_finish("binding_api");
  const int32_t big[3] = {4, 3, 5};
  CHECK(tfcc_session_resize_input(s, 0, 3, big) == TFCC_ERR_SHAPE);
  CHECK(strstr(tfcc_session_last_error(s), "broadcast") != NULL);
  tfcc_tensor_info info;
  CHECK(tfcc_session_input_info(s, 0, &info) == TFCC_OK && info.dims[0] == 2); /* unchanged */
  const int both[2] = {0, 1};
  const int32_t ranks[2] = {3, 3};
  const int32_t *dims[2] = {big, big};
  const int twice[2] = {0, 0};
  CHECK(tfcc_session_resize_inputs(s, 2, twice, ranks, dims) == TFCC_ERR_INVALID_ARG);
  CHECK(strstr(tfcc_session_last_error(s), "twice") != NULL);
  const int bad[2] = {0, 5};
  CHECK(tfcc_session_resize_inputs(s, 2, bad, ranks, dims) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_session_resize_inputs(s, 3, both, ranks, dims) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_session_resize_inputs(NULL, 2, both, ranks, dims) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_session_resize_inputs(s, 0, NULL, NULL, NULL) == TFCC_OK);
  CHECKF(tfcc_session_resize_inputs(s, 2, both, ranks, dims) == TFCC_OK, "%s",
         tfcc_session_last_error(s));
  CHECK(tfcc_session_input_info(s, 1, &info) == TFCC_OK && info.dims[0] == 4);
  CHECK(tfcc_session_output_info(s, 0, &info) == TFCC_OK && info.dims[0] == 4 &&
        info.bytes == 60 * 4);
  float a[60], b[60], c[60];
  for (int i = 0; i < 60; i++) {
    a[i] = (float)i;
    b[i] = 1.0f;
  }
  const void *ins[2] = {a, b};
  void *outs[1] = {c};
  CHECK(tfcc_session_run(s, ins, outs) == TFCC_OK);
  int ok = 1;
  for (int i = 0; i < 60; i++) ok &= c[i] == (float)i + 1.0f;
  CHECK(ok);
  tfcc_session_destroy(s);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("binding_api");
}
