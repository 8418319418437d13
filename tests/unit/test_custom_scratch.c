/* A custom operator that reads a tensor no operator writes (an Ethos-U / Vela compiled file's
 * `*_scratch` tensor; tests/models/data/custom_scratch, modelgen/make_custom_scratch.py):
 * - not registered: the load fails naming the custom operator (as TensorFlow Lite's
 *   "Encountered unresolved custom op: ethos-u"), not the scratch tensor;
 * - registered (here a stand-in `ethos-u` that adds the command stream's first byte): it loads
 *   and runs; its scratch input is 16 writable bytes of the arena (written, read back), the
 *   output is right, with every graph pass on and off, over two runs.
 * tfcc's own custom operators read no scratch: Mfcc whose sample-rate input nothing writes is
 * refused naming the tensor (mfcc_unwritten_rate); builtin operators likewise
 * (test_loader_robustness). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "test_runtime.h"
#include "tfcc/tfcc.h"

static char g_model[1200];

static tfcc_status ethos_prepare(tfcc_custom_ctx *ctx) {
  if (ctx->input_count != 3 || ctx->output_count != 1)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "ethos-u stand-in: 3 inputs, 1 output");
  const tfcc_custom_tensor *scratch = ctx->inputs[1], *x = ctx->inputs[2];
  if (scratch->dtype != TFCC_UINT8 || scratch->rank != 1 || scratch->dims[0] != 16 ||
      scratch->bytes != 16 || scratch->is_const)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "scratch: not 16 uint8 of memory");
  tfcc_custom_tensor *y = ctx->outputs[0];
  y->rank = x->rank;
  memcpy(y->dims, x->dims, sizeof y->dims);
  return TFCC_OK;
}

/* y = x + cmd[0], through the scratch memory (written, then read back). */
static tfcc_status ethos_eval(tfcc_custom_ctx *ctx) {
  const uint8_t *cmd = ctx->inputs[0]->data;
  uint8_t *scratch = ctx->inputs[1]->data; /* the operator's own: it writes there */
  const int8_t *x = ctx->inputs[2]->data;
  int8_t *y = ctx->outputs[0]->data;
  if (!cmd || !scratch || !x || !y || ((uintptr_t)scratch & 15) != 0)
    return tfcc_custom_op_error(ctx, TFCC_ERR_RUNTIME, "no (aligned) scratch memory");
  for (int i = 0; i < 16; i++) scratch[i] = (uint8_t)(i < 8 ? x[i] + cmd[0] : 0xA5);
  for (int i = 0; i < 8; i++) y[i] = (int8_t)scratch[i];
  return TFCC_OK;
}

static void test_unregistered(void) {
  tfcc_runtime *rt = tfcc_test_runtime();
  tfcc_model *m = NULL;
  CHECK(tfcc_model_load_file(rt, g_model, NULL, &m) == TFCC_ERR_UNSUPPORTED && !m);
  const char *e = tfcc_last_error();
  CHECKF(strstr(e, "custom operator ethos-u is not registered") != NULL &&
             strstr(e, "tfcc_runtime_register_custom_op") != NULL &&
             strstr(e, "--custom-ops LIB.so") != NULL && !strstr(e, "main_split_1_scratch") &&
             !strstr(e, "not produced"),
         "message: %s", e);
  tfcc_runtime_destroy(rt);
}

static void test_registered(uint32_t disabled_passes) {
  tfcc_runtime *rt = tfcc_test_runtime_with_op("ethos-u", ethos_prepare, ethos_eval, NULL);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = disabled_passes;
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, g_model, &mo, &m);
  CHECKF(st == TFCC_OK, "load: %s", tfcc_last_error());
  tfcc_session *s = NULL;
  if (m) {
    st = tfcc_session_create(m, NULL, &s);
    CHECKF(st == TFCC_OK, "session: %s", tfcc_last_error());
  }
  for (int r = 0; s && r < 2; r++) {
    int8_t x[8], y[8], want[8];
    for (int i = 0; i < 8; i++) {
      x[i] = (int8_t)(i * 7 - 20 + r);
      want[i] = (int8_t)(uint8_t)(x[i] + 3); /* cmd[0] = 3 */
    }
    memset(y, 0, sizeof y);
    const void *ins[] = {x};
    void *outs[] = {y};
    st = tfcc_session_run(s, ins, outs);
    CHECKF(st == TFCC_OK, "run %d: %s", r, tfcc_session_last_error(s));
    CHECKF(memcmp(y, want, sizeof y) == 0, "run %d (passes off %#x): output differs", r,
           (unsigned)disabled_passes);
  }
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

static void test_own_custom_op(void) {
  char path[1300];
  snprintf(path, sizeof path, "%s/tests/models/data/custom_scratch/mfcc_unwritten_rate.tflite",
           tfcc_test_source_dir());
  tfcc_runtime *rt = tfcc_test_runtime();
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  tfcc_session *s = NULL;
  if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
  const char *e = tfcc_last_error();
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(e, "CUSTOM:Mfcc") &&
             strstr(e,
                    "input 1 reads tensor 1 (sample_rate_unwritten), which no earlier node "
                    "writes"),
         "%s: %s", tfcc_status_str(st), e);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

int main(void) {
  snprintf(g_model, sizeof g_model, "%s/tests/models/data/custom_scratch/ethos_u_scratch.tflite",
           tfcc_test_source_dir());
  test_unregistered();
  test_registered(0);
  test_registered(TFCC_PASS_ALL);
  test_own_custom_op();
  return tfcc_test_finish("custom_scratch");
}
