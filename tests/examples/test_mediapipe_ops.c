/* The custom-operator API (tfcc_runtime_register_custom_op) through the MediaPipe example
 * library (examples/mediapipe_ops) and small operators of its own: outputs against NumPy
 * references written from MediaPipe's semantics (modelgen/make_mediapipe_ops.py), the load error
 * of an unregistered operator, registration after a failed load, misuse of the API, callbacks
 * that fail (init, prepare, eval), views, options, scratch and node data, and registrations
 * racing loads on other runtimes. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mediapipe_ops.h"
#include "npy_load.h"
#include "test_harness.h"
#include "test_runtime.h"

static char g_dir[1024];

static void path_of(char *buf, size_t n, const char *file) {
  snprintf(buf, n, "%s/%s", g_dir, file);
}

static tfcc_status load(tfcc_runtime *rt, const char *file, tfcc_model **m,
                        uint32_t disabled_passes) {
  char p[1200];
  path_of(p, sizeof p, file);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = disabled_passes;
  return tfcc_model_load_file(rt, p, &mo, m);
}

/* ---------------------------------------------------------------- MediaPipe model vs NumPy */

#define N_OUT 7

/* Runs mediapipe_ops.tflite on rt; returns failures against the references (0 = all match). */
static int run_reference(tfcc_runtime *rt, uint32_t disabled_passes, int verbose) {
  int bad = 0;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  if (load(rt, "mediapipe_ops.tflite", &m, disabled_passes) != TFCC_OK) {
    fprintf(stderr, "load: %s\n", tfcc_last_error());
    return 1;
  }
  if (tfcc_session_create(m, NULL, &s) != TFCC_OK) {
    fprintf(stderr, "session: %s\n", tfcc_last_error());
    tfcc_model_release(m);
    return 1;
  }
  char p[1200];
  test_npy in, ref[N_OUT];
  path_of(p, sizeof p, "in0.npy");
  if (test_npy_load(p, &in) != 0) bad++;
  for (int k = 0; k < N_OUT; k++) {
    char f[32];
    snprintf(f, sizeof f, "out%d.npy", k);
    path_of(p, sizeof p, f);
    if (test_npy_load(p, &ref[k]) != 0) bad++;
  }
  if (bad || tfcc_session_output_count(s) != N_OUT) {
    tfcc_session_destroy(s);
    tfcc_model_release(m);
    return bad + 1;
  }
  void *outs[N_OUT];
  for (int k = 0; k < N_OUT; k++) {
    tfcc_tensor_info oi;
    tfcc_session_output_info(s, k, &oi);
    if (oi.bytes != ref[k].bytes || oi.rank != ref[k].rank) {
      fprintf(stderr, "output %d: %zu bytes rank %d, reference %zu bytes rank %d\n", k, oi.bytes,
              (int)oi.rank, ref[k].bytes, (int)ref[k].rank);
      bad++;
    }
    outs[k] = calloc(1, ref[k].bytes);
  }
  for (int run = 0; run < 2 && !bad; run++) { /* twice: nothing carried between runs */
    const void *ins[] = {in.data};
    tfcc_status st = tfcc_session_run(s, ins, outs);
    if (st != TFCC_OK) {
      fprintf(stderr, "run: %s\n", tfcc_session_last_error(s));
      bad++;
      break;
    }
    for (int k = 0; k < N_OUT; k++) {
      const float *y = outs[k], *r = ref[k].data;
      const int exact =
          k != 3 && k != 6; /* pools, indices, unpooling: exact; convolutions: float */
      size_t n = ref[k].bytes / 4, n_bad = 0;
      for (size_t i = 0; i < n; i++) {
        float tol = exact ? 0.f : 1e-5f + 1e-5f * (r[i] < 0 ? -r[i] : r[i]);
        float d = y[i] - r[i];
        if (d < 0) d = -d;
        if (!(d <= tol)) {
          if (n_bad++ < 3)
            fprintf(stderr, "output %d [%zu]: %.9g, reference %.9g\n", k, i, y[i], r[i]);
        }
      }
      if (n_bad) bad++;
      if (verbose && run == 0) printf("output %d: %zu values, %zu differ\n", k, n, n_bad);
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

static void test_reference(void) {
  tfcc_runtime *rt = tfcc_test_runtime();
  CHECK(tfcc_runtime_custom_op_count(rt) == 0);
  CHECK(mediapipe_ops_register(rt) == TFCC_OK);
  CHECK(tfcc_runtime_custom_op_count(rt) == 3);
  CHECK(run_reference(rt, 0, 1) == 0);
  CHECK(run_reference(rt, TFCC_PASS_ALL, 0) == 0); /* no graph pass touches custom nodes */
  tfcc_model *m = NULL;
  CHECK(load(rt, "mediapipe_ops.tflite", &m, 0) == TFCC_OK);
  if (m) {
    tfcc_op_info oi;
    CHECK(tfcc_model_op_info(m, 0, &oi) == TFCC_OK &&
          strcmp(oi.name, "CUSTOM:MaxPoolingWithArgmax2D") == 0 && oi.supported == 1);
    CHECK(strcmp(tfcc_model_unsupported(m), "") == 0);
    tfcc_model_release(m);
  }
  /* the example library registers once per runtime */
  CHECK(mediapipe_ops_register(rt) == TFCC_ERR_STATE);
  CHECK(strstr(tfcc_last_error(), "MaxPoolingWithArgmax2D") != NULL);
  tfcc_runtime_destroy(rt);
}

/* hostile options: the load fails naming the operator and the fault */
static void test_bad_options(void) {
  static const struct {
    const char *file, *words;
  } cases[] = {
      {"mediapipe_bad_short.tflite",
       "custom_options: 8 bytes, MaxPoolingWithArgmax2D needs at least 24"},
      {"mediapipe_bad_padding0.tflite", "padding 0 is neither SAME (1) nor VALID (2)"},
      {"mediapipe_bad_stride0.tflite", "stride 0x2, filter 2x2: each must be in 1..65536"},
  };
  tfcc_runtime *rt = tfcc_test_runtime();
  CHECK(mediapipe_ops_register(rt) == TFCC_OK);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tfcc_model *m = NULL;
    CHECK(load(rt, cases[i].file, &m, 0) == TFCC_ERR_INVALID_MODEL && !m);
    CHECKF(strstr(tfcc_last_error(), "node 0 (CUSTOM:MaxPoolingWithArgmax2D): init: ") &&
               strstr(tfcc_last_error(), cases[i].words),
           "%s: %s", cases[i].file, tfcc_last_error());
  }
  tfcc_runtime_destroy(rt);
}

/* ---------------------------------------------------------------- unregistered operators */

static void test_unregistered(void) {
  tfcc_runtime *rt = tfcc_test_runtime();
  tfcc_model *m = NULL;
  CHECK(load(rt, "mediapipe_ops.tflite", &m, 0) == TFCC_ERR_UNSUPPORTED && m == NULL);
  const char *e = tfcc_last_error();
  CHECKF(strstr(e, "CUSTOM:MaxPoolingWithArgmax2D at node 0") &&
             strstr(e, "CUSTOM:MaxUnpooling2D at node 1") &&
             strstr(e, "custom operator MaxPoolingWithArgmax2D is not registered") &&
             strstr(e, "tfcc_runtime_register_custom_op"),
         "%s", e);
  CHECK(load(rt, "mediapipe_unknown_op.tflite", &m, 0) == TFCC_ERR_UNSUPPORTED);
  CHECKF(strstr(tfcc_last_error(), "MyUnregisteredOp is not registered"), "%s", tfcc_last_error());
  /* introspection still lists it */
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.allow_unsupported = 1;
  char p[1200];
  path_of(p, sizeof p, "mediapipe_unknown_op.tflite");
  CHECK(tfcc_model_load_file(rt, p, &mo, &m) == TFCC_OK);
  if (m) {
    CHECK(strstr(tfcc_model_unsupported(m), "CUSTOM:MyUnregisteredOp at node 0") != NULL);
    tfcc_model_release(m);
    m = NULL;
  }
  /* registering afterwards: later loads bind it */
  CHECK(mediapipe_ops_register(rt) == TFCC_OK);
  CHECK(load(rt, "mediapipe_ops.tflite", &m, 0) == TFCC_OK);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

/* ---------------------------------------------------------------- a small operator of our own */

typedef struct spy {
  int inits, frees, prepares, evals;
  int fail_init, fail_prepare, fail_eval, silent_fail, bad_dtype;
  int saw_options, prepare_data_null, scratch_ok, user_ok;
} spy;

static tfcc_status spy_init(tfcc_custom_ctx *ctx) {
  spy *sp = ctx->op_user;
  sp->inits++;
  sp->saw_options = ctx->options_size == 2 && ((const uint8_t *)ctx->options)[0] == 1 &&
                    ((const uint8_t *)ctx->options)[1] == 2 && ctx->input_count == 1 &&
                    ctx->output_count == 1;
  if (sp->fail_init)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL, "spy init refuses option %d", 7);
  int *scale = malloc(sizeof *scale);
  if (!scale) return tfcc_custom_op_error(ctx, TFCC_ERR_NO_MEMORY, "out of memory");
  *scale = 3;
  ctx->node_data = scale;
  return TFCC_OK;
}

static void spy_free(void *user, void *node_data) {
  ((spy *)user)->frees++;
  free(node_data);
}

static tfcc_status spy_prepare(tfcc_custom_ctx *ctx) {
  spy *sp = ctx->op_user;
  sp->prepares++;
  if (sp->fail_prepare)
    return sp->silent_fail ? TFCC_ERR_SHAPE
                           : tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "spy prepare says no");
  const tfcc_custom_tensor *in = ctx->inputs[0];
  tfcc_custom_tensor *out = ctx->outputs[0];
  sp->prepare_data_null = in->data == NULL && !in->is_const && in->struct_size == sizeof *in;
  sp->user_ok = ctx->node_data && *(int *)ctx->node_data == 3 &&
                strcmp(ctx->op_name, "MyUnregisteredOp") == 0;
  if (sp->bad_dtype) out->dtype = TFCC_INT32;
  out->rank = in->rank;
  memcpy(out->dims, in->dims, sizeof(int32_t) * (size_t)in->rank);
  ctx->scratch_bytes = 100;
  return TFCC_OK;
}

static tfcc_status spy_eval(tfcc_custom_ctx *ctx) {
  spy *sp = ctx->op_user;
  sp->evals++;
  if (sp->fail_eval)
    return tfcc_custom_op_error(ctx, TFCC_ERR_RUNTIME, "spy eval: value %g out of range",
                                (double)((const float *)ctx->inputs[0]->data)[0]);
  sp->scratch_ok = ctx->scratch && ctx->scratch_bytes == 100 && ((uintptr_t)ctx->scratch & 63) == 0;
  if (ctx->scratch) memset(ctx->scratch, 0xab, ctx->scratch_bytes); /* ASan: the bytes are there */
  const float *x = ctx->inputs[0]->data;
  float *y = ctx->outputs[0]->data;
  const int scale = *(int *)ctx->node_data;
  for (size_t i = 0; i < ctx->outputs[0]->bytes / sizeof(float); i++)
    y[i] = x[i] * (float)scale + 1.f;
  return TFCC_OK;
}

static tfcc_status register_spy(tfcc_runtime *rt, spy *sp) {
  tfcc_custom_op op;
  tfcc_custom_op_default(&op);
  op.name = "MyUnregisteredOp";
  op.init = spy_init;
  op.prepare = spy_prepare;
  op.eval = spy_eval;
  op.free = spy_free;
  op.user = sp;
  return tfcc_runtime_register_custom_op(rt, &op);
}

static void test_own_operator(void) {
  spy sp = {0};
  tfcc_runtime *rt = tfcc_test_runtime();
  CHECK(register_spy(rt, &sp) == TFCC_OK);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  CHECK(load(rt, "mediapipe_unknown_op.tflite", &m, 0) == TFCC_OK);
  CHECK(sp.inits == 1 && sp.saw_options);
  CHECK(m && tfcc_session_create(m, NULL, &s) == TFCC_OK);
  CHECK(sp.prepare_data_null && sp.user_ok);
  if (s) {
    float x[2] = {1.5f, -2.f}, y[2] = {0, 0};
    const void *ins[] = {x};
    void *outs[] = {y};
    CHECK(tfcc_session_run(s, ins, outs) == TFCC_OK);
    CHECK(y[0] == 5.5f && y[1] == -5.f && sp.scratch_ok);
    /* eval failure: the run's status and the operator's message */
    sp.fail_eval = 1;
    CHECK(tfcc_session_run(s, ins, outs) == TFCC_ERR_RUNTIME);
    CHECKF(strstr(tfcc_session_last_error(s), "CUSTOM:MyUnregisteredOp") &&
               strstr(tfcc_session_last_error(s), "spy eval: value 1.5 out of range"),
           "%s", tfcc_session_last_error(s));
    sp.fail_eval = 0;
    CHECK(tfcc_session_run(s, ins, outs) == TFCC_OK);
    tfcc_session_destroy(s);
  }
  tfcc_model_release(m);
  CHECK(sp.frees == 1); /* node data freed with the model */

  /* prepare failures: at load (the shapes are validated then), with and without a message */
  sp.fail_prepare = 1;
  m = NULL;
  CHECK(load(rt, "mediapipe_unknown_op.tflite", &m, 0) == TFCC_ERR_SHAPE && !m);
  CHECKF(strstr(tfcc_last_error(), "node 0 (CUSTOM:MyUnregisteredOp)") &&
             strstr(tfcc_last_error(), "prepare: spy prepare says no"),
         "%s", tfcc_last_error());
  sp.silent_fail = 1;
  CHECK(load(rt, "mediapipe_unknown_op.tflite", &m, 0) == TFCC_ERR_SHAPE);
  CHECKF(strstr(tfcc_last_error(), "prepare failed (shape mismatch) without a message"), "%s",
         tfcc_last_error());
  sp.fail_prepare = sp.silent_fail = 0;
  /* prepare may not change the model's output dtype */
  sp.bad_dtype = 1;
  CHECK(load(rt, "mediapipe_unknown_op.tflite", &m, 0) == TFCC_ERR_DTYPE);
  CHECKF(strstr(tfcc_last_error(), "output 0: dtype set to int32, the model's is float32"), "%s",
         tfcc_last_error());
  sp.bad_dtype = 0;
  /* init failure */
  sp.fail_init = 1;
  CHECK(load(rt, "mediapipe_unknown_op.tflite", &m, 0) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(tfcc_last_error(), "init: spy init refuses option 7"), "%s", tfcc_last_error());
  sp.fail_init = 0;
  CHECKF(sp.frees == sp.inits - 1, "inits %d frees %d", sp.inits,
         sp.frees); /* the failed init frees nothing */
  tfcc_runtime_destroy(rt);
}

/* ---------------------------------------------------------------- misuse */

static tfcc_status nop(tfcc_custom_ctx *ctx) { return TFCC_OK; }

static void test_misuse(void) {
  tfcc_runtime *rt = tfcc_test_runtime();
  tfcc_custom_op op;
  tfcc_custom_op_default(&op);
  op.name = "Op";
  op.prepare = nop;
  op.eval = nop;
  CHECK(tfcc_runtime_register_custom_op(NULL, &op) == TFCC_ERR_INVALID_ARG);
  CHECK(strstr(tfcc_last_error(), "runtime is NULL") != NULL);
  CHECK(tfcc_runtime_register_custom_op(rt, NULL) == TFCC_ERR_INVALID_ARG);
  CHECK(strstr(tfcc_last_error(), "op is NULL") != NULL);
  tfcc_custom_op bad = op;
  bad.struct_size = 0;
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  CHECK(strstr(tfcc_last_error(), "struct_size") != NULL);
  bad = op;
  bad.name = NULL;
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  bad.name = "";
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  bad.name = "Tab\tName";
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  char longname[TFCC_CUSTOM_OP_NAME_MAX + 2];
  memset(longname, 'a', sizeof longname - 1);
  longname[sizeof longname - 1] = 0; /* 128 bytes: one too many */
  bad.name = longname;
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  CHECK(strstr(tfcc_last_error(), "longer than 127 bytes") != NULL);
  longname[TFCC_CUSTOM_OP_NAME_MAX] = 0; /* 127: fits */
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_OK);
  bad = op;
  bad.prepare = NULL;
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  CHECK(strstr(tfcc_last_error(), "no prepare callback") != NULL);
  bad = op;
  bad.eval = NULL;
  CHECK(tfcc_runtime_register_custom_op(rt, &bad) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_runtime_register_custom_op(rt, &op) == TFCC_OK);
  CHECK(tfcc_runtime_register_custom_op(rt, &op) == TFCC_ERR_STATE);
  CHECK(strstr(tfcc_last_error(), "custom operator Op is already registered") != NULL);
  CHECK(tfcc_runtime_custom_op_count(rt) == 2);
  CHECK(tfcc_runtime_custom_op_count(NULL) == 0);
  tfcc_custom_op_default(NULL);
  CHECK(tfcc_custom_op_error(NULL, TFCC_ERR_SHAPE, "x") == TFCC_ERR_SHAPE);
  tfcc_runtime_destroy(rt);
}

/* ---------------------------------------------------------------- concurrency */

static void *own_runtime_thread(void *arg) {
  int *bad = arg;
  for (int i = 0; i < 3; i++) {
    tfcc_runtime *rt = NULL;
    tfcc_runtime_options o;
    tfcc_runtime_options_default(&o);
    o.log_level = TFCC_LOG_ERROR;
    if (tfcc_runtime_create(&o, &rt) != TFCC_OK || mediapipe_ops_register(rt) != TFCC_OK ||
        run_reference(rt, 0, 0) != 0)
      (*bad)++;
    tfcc_runtime_destroy(rt);
  }
  return NULL;
}

typedef struct shared_arg {
  tfcc_runtime *rt;
  int bad;
} shared_arg;

static void *register_many_thread(void *arg) {
  shared_arg *a = arg;
  for (int i = 0; i < 64; i++) {
    char name[32];
    snprintf(name, sizeof name, "Extra%d", i);
    tfcc_custom_op op;
    tfcc_custom_op_default(&op);
    op.name = name;
    op.prepare = nop;
    op.eval = nop;
    if (tfcc_runtime_register_custom_op(a->rt, &op) != TFCC_OK) a->bad++;
  }
  return NULL;
}

static void test_concurrent(void) {
  pthread_t th[3];
  int bad[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) CHECK(pthread_create(&th[i], NULL, own_runtime_thread, &bad[i]) == 0);
  /* meanwhile: registrations on a runtime that is loading models on this thread */
  shared_arg sa = {tfcc_test_runtime(), 0};
  CHECK(mediapipe_ops_register(sa.rt) == TFCC_OK);
  pthread_t reg;
  CHECK(pthread_create(&reg, NULL, register_many_thread, &sa) == 0);
  for (int i = 0; i < 3; i++) CHECK(run_reference(sa.rt, 0, 0) == 0);
  pthread_join(reg, NULL);
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
  CHECK(sa.bad == 0 && bad[0] == 0 && bad[1] == 0 && bad[2] == 0);
  CHECK(tfcc_runtime_custom_op_count(sa.rt) == 3 + 64);
  tfcc_runtime_destroy(sa.rt);
}

int main(void) {
  snprintf(g_dir, sizeof g_dir, "%s/tests/models/data/mediapipe_ops", tfcc_test_source_dir());
  test_reference();
  test_bad_options();
  test_unregistered();
  test_own_operator();
  test_misuse();
  test_concurrent();
  return tfcc_test_finish("mediapipe_ops");
}
