/* Custom-operator plugins (docs/custom_ops.md, "Plugins"): examples/mediapipe_ops built as
 * libtfcc_mediapipe_ops.so, loaded by the hosts' loader (tools/plugin/plugin_load.c) into a
 * program that links tfcc statically (as the Python extension does: the plugin reaches this
 * copy of tfcc through the tfcc_custom_api table). The MediaPipe model must give the NumPy
 * references of tests/models/data/mediapipe_ops; a missing library, a library without the
 * entry point and a failing registration give errors naming the library and the cause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/plugin/plugin_load.c"
#include "npy_load.h"
#include "test_harness.h"
#include "test_runtime.h"

#define N_OUT 7

static char g_dir[1024], g_plugin[1200];

/* mediapipe_ops.tflite on rt against the references: 0 when all match. */
static int run_reference(tfcc_runtime *rt) {
  char p[1200];
  snprintf(p, sizeof p, "%s/mediapipe_ops.tflite", g_dir);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  if (tfcc_model_load_file(rt, p, NULL, &m) != TFCC_OK ||
      tfcc_session_create(m, NULL, &s) != TFCC_OK) {
    fprintf(stderr, "load: %s\n", tfcc_last_error());
    tfcc_model_release(m);
    return 1;
  }
  int bad = 0;
  test_npy in, ref[N_OUT];
  void *outs[N_OUT];
  snprintf(p, sizeof p, "%s/in0.npy", g_dir);
  CHECK(test_npy_load(p, &in) == 0);
  for (int k = 0; k < N_OUT; k++) {
    snprintf(p, sizeof p, "%s/out%d.npy", g_dir, k);
    CHECK(test_npy_load(p, &ref[k]) == 0);
    outs[k] = calloc(1, ref[k].bytes);
  }
  const void *ins[] = {in.data};
  if (tfcc_session_run(s, ins, outs) != TFCC_OK) {
    fprintf(stderr, "run: %s\n", tfcc_session_last_error(s));
    bad++;
  }
  for (int k = 0; k < N_OUT && !bad; k++) {
    const float *y = outs[k], *r = ref[k].data;
    const int exact = k != 3 && k != 6; /* pools, indices, unpooling: exact; convolutions: float */
    for (size_t i = 0; i < ref[k].bytes / 4; i++) {
      float d = y[i] - r[i], tol = exact ? 0.f : 1e-5f + 1e-5f * (r[i] < 0 ? -r[i] : r[i]);
      if (!((d < 0 ? -d : d) <= tol)) {
        fprintf(stderr, "output %d [%zu]: %.9g, reference %.9g\n", k, i, y[i], r[i]);
        bad++;
        break;
      }
    }
  }
  for (int k = 0; k < N_OUT; k++) {
    free(outs[k]);
    test_npy_free(&ref[k]);
  }
  test_npy_free(&in);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  return bad;
}

int main(void) {
  const char *bin = getenv("TFCC_BINARY_DIR");
  if (!bin || !bin[0]) {
    printf("mediapipe_plugin: skipped: TFCC_BINARY_DIR is not set (run through ctest)\n");
    return 77;
  }
  snprintf(g_dir, sizeof g_dir, "%s/tests/models/data/mediapipe_ops", tfcc_test_source_dir());
  snprintf(g_plugin, sizeof g_plugin, "%s/examples/mediapipe_ops/libtfcc_mediapipe_ops.so", bin);
  char err[1024];

  /* the plugin's three operators on two runtimes, each its own registration */
  for (int i = 0; i < 2; i++) {
    tfcc_runtime *rt = tfcc_test_runtime();
    CHECKF(tfcc_plugin_load(rt, g_plugin, err, sizeof err) == TFCC_OK, "%s", err);
    CHECK(tfcc_runtime_custom_op_count(rt) == 3);
    CHECK(run_reference(rt) == 0);
    /* a second registration on the same runtime fails, naming the library and the operator */
    CHECK(tfcc_plugin_load(rt, g_plugin, err, sizeof err) == TFCC_ERR_STATE);
    CHECKF(strstr(err, g_plugin) && strstr(err, "tfcc_custom_ops_register failed (") &&
               strstr(err, "custom operator MaxPoolingWithArgmax2D is already registered"),
           "%s", err);
    CHECK(run_reference(rt) == 0); /* the first registration still serves */
    /* the plugin's messages reach this tfcc through the table (init, after the load returned) */
    char p[1200];
    snprintf(p, sizeof p, "%s/mediapipe_bad_short.tflite", g_dir);
    tfcc_model *m = NULL;
    CHECK(tfcc_model_load_file(rt, p, NULL, &m) == TFCC_ERR_INVALID_MODEL && !m);
    CHECKF(strstr(tfcc_last_error(), "node 0 (CUSTOM:MaxPoolingWithArgmax2D): init: ") &&
               strstr(tfcc_last_error(),
                      "custom_options: 8 bytes, MaxPoolingWithArgmax2D needs at least 24"),
           "%s", tfcc_last_error());
    tfcc_runtime_destroy(rt);
  }

  tfcc_runtime *rt = tfcc_test_runtime();
  /* no such library: dlerror() names it */
  CHECK(tfcc_plugin_load(rt, "/nonexistent/libnope.so", err, sizeof err) == TFCC_ERR_NOT_FOUND);
  CHECKF(
      strstr(err, "plugin /nonexistent/libnope.so: cannot load: ") && strstr(err, "No such file"),
      "%s", err);
  /* a library that is not a plugin */
  CHECK(tfcc_plugin_load(rt, "libm.so.6", err, sizeof err) == TFCC_ERR_UNSUPPORTED);
  CHECKF(strstr(err, "plugin libm.so.6: no function tfcc_custom_ops_register") &&
             strstr(err, "not a tfcc custom-operator plugin"),
         "%s", err);
  CHECK(tfcc_plugin_load(rt, "", err, sizeof err) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_runtime_custom_op_count(rt) == 0);
  tfcc_runtime_destroy(rt);

  /* the table a host hands over */
  tfcc_custom_api api;
  tfcc_custom_api_get(&api);
  CHECK(
      api.struct_size == sizeof api && api.register_custom_op == tfcc_runtime_register_custom_op &&
      api.custom_output_resize == tfcc_custom_output_resize && api.custom_op_verror && api.version);
  return tfcc_test_finish("mediapipe_plugin");
}
