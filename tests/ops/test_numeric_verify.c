/* NumericVerify (ops; docs/operators.md): the difference kernel against a straightforward loop,
 * and the tolerance check through the public API on the conformance model
 * numeric_verify_u8_checked (uint8, scale 0.02, zero point 128; tolerance 200, log_if_failed:
 * a run fails when |dequantized - reference| > 200 x 0.02 = 4, and the next good run works).
 * TensorFlow Lite fails the same way (the failing inputs make its invoke fail). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/ref/numeric_verify.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static void test_kernel(void) {
  const float deq[6] = {1.0f, -2.5f, 0.25f, 3.0f, NAN, -1.0f};
  const float ref[6] = {0.5f, -2.0f, 0.25f, -1.5f, 0.0f, 9.0f};
  float d[6];
  memcpy(d, deq, sizeof d);
  CHECK(tfcc_numeric_verify_diff(d, ref, 6, false, 0.f) == 6);
  for (int i = 0; i < 6; i++)
    CHECKF(memcmp(&d[i], &(float){deq[i] - ref[i]}, sizeof(float)) == 0 || (isnan(d[i]) && i == 4),
           "element %d: %g", i, (double)d[i]);
  /* checked: element 3 (|4.5| > 4) stops it; a NaN difference would pass */
  memcpy(d, deq, sizeof d);
  CHECK(tfcc_numeric_verify_diff(d, ref, 6, true, 4.0f) == 3);
  CHECK(d[0] == 0.5f && d[1] == -0.5f && d[2] == 0.f && d[3] == 3.0f);
  memcpy(d, deq, sizeof d);
  CHECK(tfcc_numeric_verify_diff(d, ref, 5, true, 4.5f) == 5); /* |4.5| is not > 4.5; NaN passes */
}

static void test_model_check(void) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  tfcc_runtime *rt = NULL;
  CHECKF(tfcc_runtime_create(&ro, &rt) == TFCC_OK, "%s", tfcc_last_error());
  if (!rt) return;
  char path[1200];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/numeric_verify_u8_checked.tflite",
           tfcc_test_source_dir());
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  CHECKF(tfcc_model_load_file(rt, path, NULL, &m) == TFCC_OK, "%s", tfcc_last_error());
  if (m) CHECKF(tfcc_session_create(m, NULL, &s) == TFCC_OK, "%s", tfcc_last_error());
  if (s) {
    uint8_t q[20];
    float ref[20], y[20];
    for (int i = 0; i < 20; i++) {
      q[i] = (uint8_t)(i * 13);
      ref[i] = 0.02f * (float)(i * 13 - 128) + 0.125f * (float)(i % 5) - 0.25f;
    }
    const void *ins[] = {q, ref};
    void *outs[] = {y};
    CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
    for (int i = 0; i < 20; i++) {
      const float want = (float)(0.019999999552965164 * (double)(q[i] - 128)) - ref[i];
      CHECKF(y[i] == want, "element %d: %g, expected %g", i, (double)y[i], (double)want);
    }
    q[7] = 255; /* dequantized 2.54 */
    ref[7] = -2.0f;
    CHECK(tfcc_session_run(s, ins, outs) != TFCC_OK);
    const char *msg = tfcc_session_last_error(s);
    CHECKF(strstr(msg,
                  "NumericVerify: element 7: dequantized 2.54 - reference -2 = 4.54, beyond "
                  "the tolerance 4 (200 x scale 0.02)") != NULL,
           "message: %s", msg);
    ref[7] = -1.46f; /* |2.54 + 1.46| = 4: within */
    CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
    tfcc_session_destroy(s);
  }
  if (m) tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

int main(void) {
  test_kernel();
  test_model_check();
  return tfcc_test_finish("ops.numeric_verify");
}
