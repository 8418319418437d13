/* Custom operators with run-time-shaped outputs (docs/custom_ops.md, "Outputs shaped while
 * running"): KeepPositive keeps the positive values of a float32 vector, so its output's length
 * depends on the values. Its prepare marks the output is_dynamic and its eval sizes it with
 * tfcc_custom_output_resize. The model (modelgen/make_mediapipe_ops.py, keep_positive_model):
 * x [8] -> KeepPositive -> p -> ADD 1 -> y, and KeepPositive of a constant -> q. Checked: the
 * values and shapes of every output over runs whose sizes grow and shrink (against a plain
 * loop), memory kept when a run needs no more, two sessions of one model interleaved, both with
 * every graph pass on (the constant node is not folded) and off, the memory the resized outputs
 * hold counted in tfcc_session_dynamic_bytes with the builtin dynamic tensors', and the
 * misuses: an output
 * eval does not size, a resize of an output prepare did not mark, a resize in prepare, a
 * negative dimension. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "test_runtime.h"
#include "tfcc/tfcc.h"

enum { MODE_OK, MODE_FORGET, MODE_STATIC_RESIZE, MODE_RESIZE_IN_PREPARE, MODE_NEGATIVE, MODE_BIG };

/* MODE_BIG: each kept value becomes BIG_REPEAT copies (large outputs, for the memory figures) */
#define BIG_REPEAT 1000

typedef struct kp_user {
  int mode;
  int evals;
} kp_user;

static tfcc_status kp_prepare(tfcc_custom_ctx *ctx) {
  const kp_user *u = ctx->op_user;
  const tfcc_custom_tensor *in = ctx->inputs[0];
  tfcc_custom_tensor *out = ctx->outputs[0];
  if (ctx->input_count != 1 || ctx->output_count != 1 || in->dtype != TFCC_FLOAT32 || in->rank != 1)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "KeepPositive takes one float32 vector");
  if (u->mode == MODE_RESIZE_IN_PREPARE) {
    int32_t d = 1;
    return tfcc_custom_output_resize(ctx, 0, 1, &d);
  }
  out->rank = 1;
  out->dims[0] = in->dims[0]; /* the most it can be; the run's length comes from eval */
  out->is_dynamic = u->mode != MODE_STATIC_RESIZE;
  return TFCC_OK;
}

static tfcc_status kp_eval(tfcc_custom_ctx *ctx) {
  kp_user *u = ctx->op_user;
  u->evals++;
  const tfcc_custom_tensor *in = ctx->inputs[0];
  const float *x = in->data;
  const int32_t n = in->dims[0];
  int32_t kept = 0;
  for (int32_t i = 0; i < n; i++) kept += x[i] > 0.f;
  if (u->mode == MODE_FORGET) return TFCC_OK;
  if (u->mode == MODE_NEGATIVE) kept = -3;
  if (u->mode == MODE_BIG) {
    int32_t big = kept * BIG_REPEAT;
    tfcc_status st = tfcc_custom_output_resize(ctx, 0, 1, &big);
    if (st != TFCC_OK) return st;
    float *y = ctx->outputs[0]->data;
    for (int32_t i = 0, j = 0; i < n; i++)
      for (int32_t r = 0; x[i] > 0.f && r < BIG_REPEAT; r++) y[j++] = x[i];
    return TFCC_OK;
  }
  if (!ctx->outputs[0]->is_dynamic && u->mode == MODE_OK)
    return tfcc_custom_op_error(ctx, TFCC_ERR_STATE, "output 0 is not marked dynamic at eval");
  tfcc_status st = tfcc_custom_output_resize(ctx, 0, 1, &kept);
  if (st != TFCC_OK) return st;
  tfcc_custom_tensor *out = ctx->outputs[0];
  if (out->rank != 1 || out->dims[0] != kept || out->bytes != (size_t)kept * sizeof(float) ||
      (kept && !out->data) || ((uintptr_t)out->data & 63) != 0)
    return tfcc_custom_op_error(ctx, TFCC_ERR_RUNTIME, "the view was not updated by the resize");
  float *y = out->data;
  for (int32_t i = 0, j = 0; i < n; i++)
    if (x[i] > 0.f) y[j++] = x[i];
  return TFCC_OK;
}

static char g_model[1200];

static tfcc_status load(tfcc_runtime *rt, uint32_t disabled_passes, tfcc_model **m) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = disabled_passes;
  return tfcc_model_load_file(rt, g_model, &mo, m);
}

/* Output k of s after a run: its shape and values against want[0..n). */
static int check_output(tfcc_session *s, int k, const float *want, int32_t n, const char *what) {
  tfcc_tensor_info oi;
  const void *data = NULL;
  size_t bytes = 0;
  if (tfcc_session_output_info(s, k, &oi) != TFCC_OK ||
      tfcc_session_output_data(s, k, &data, &bytes) != TFCC_OK) {
    fprintf(stderr, "%s: output %d: no info or data\n", what, k);
    return 1;
  }
  if (oi.rank != 1 || oi.dims[0] != n || oi.bytes != (size_t)n * 4 || bytes != oi.bytes) {
    fprintf(stderr, "%s: output %d: rank %d dims[0] %d bytes %zu/%zu, want [%d]\n", what, k,
            (int)oi.rank, (int)oi.dims[0], oi.bytes, bytes, (int)n);
    return 1;
  }
  if (n && memcmp(data, want, (size_t)n * 4) != 0) {
    fprintf(stderr, "%s: output %d: values differ\n", what, k);
    return 1;
  }
  return 0;
}

/* Runs x on s (outputs left in the session) and checks p, y and q. */
static int run_and_check(tfcc_session *s, const float *x, const char *what) {
  const void *ins[] = {x};
  void *outs[] = {NULL, NULL, NULL};
  tfcc_status st = tfcc_session_run(s, ins, outs);
  if (st != TFCC_OK) {
    fprintf(stderr, "%s: run: %s\n", what, tfcc_session_last_error(s));
    return 1;
  }
  float p[8], y[8];
  int32_t n = 0;
  for (int i = 0; i < 8; i++)
    if (x[i] > 0.f) {
      p[n] = x[i];
      y[n] = x[i] + 1.f;
      n++;
    }
  static const float q[] = {2.f, 3.5f};
  return check_output(s, 0, p, n, what) + check_output(s, 1, y, n, what) +
         check_output(s, 2, q, 2, what);
}

static void test_runs(uint32_t disabled_passes) {
  kp_user u = {MODE_OK, 0};
  tfcc_runtime *rt = tfcc_test_runtime_with_op("KeepPositive", kp_prepare, kp_eval, &u);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL, *s2 = NULL;
  CHECKF(load(rt, disabled_passes, &m) == TFCC_OK, "%s", tfcc_last_error());
  CHECK(m && tfcc_session_create(m, NULL, &s) == TFCC_OK &&
        tfcc_session_create(m, NULL, &s2) == TFCC_OK);
  if (!s || !s2) goto done;
  for (int k = 0; k < 3; k++) CHECK(tfcc_session_output_is_dynamic(s, k) == 1);
  /* the reason names the operator and the call that sizes it */
  int found = 0;
  for (int i = 0; i < tfcc_session_dynamic_tensor_count(s); i++) {
    tfcc_dynamic_tensor_info di;
    CHECK(tfcc_session_dynamic_tensor_info(s, i, &di) == TFCC_OK);
    if (strstr(di.reason, "CUSTOM:KeepPositive: output 0's shape depends on input values") &&
        strstr(di.reason, "tfcc_custom_output_resize"))
      found++;
  }
  CHECKF(found == 2, "%d reasons name KeepPositive", found);

  static const float xs[][8] = {
      {1.f, -2.f, 3.f, -4.f, 0.f, 6.f, -7.f, -8.f},   /* 3 */
      {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f},       /* 8: grows */
      {-1.f, -2.f, 0.f, -4.f, 0.f, -6.f, -7.f, 0.f},  /* 0 */
      {-1.f, -2.f, 0.f, -4.f, 9.5f, -6.f, -7.f, 0.f}, /* 1 */
      {0.5f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 0.25f},    /* 8 again: no growth */
  };
  const void *p_after_largest = NULL;
  for (int r = 0; r < 5; r++) {
    char what[64];
    snprintf(what, sizeof what, "passes 0x%x run %d", (unsigned)disabled_passes, r);
    CHECK(run_and_check(s, xs[r], what) == 0);
    CHECK(run_and_check(s2, xs[4 - r], what) == 0); /* another session, other sizes, interleaved */
    const void *p = NULL;
    CHECK(tfcc_session_output_data(s, 0, &p, NULL) == TFCC_OK);
    if (r == 1) p_after_largest = p;
    if (r > 1) CHECKF(p == p_after_largest, "run %d: output 0 moved although it did not grow", r);
  }
  CHECK(u.evals == 2 * 5 * 2); /* two nodes per run, none folded */
  /* a caller's buffer: values land in it; one too small says so */
  {
    float p[8], y[8], q[2];
    CHECK(tfcc_session_set_output(s, 0, p, sizeof p) == TFCC_OK &&
          tfcc_session_set_output(s, 1, y, sizeof y) == TFCC_OK &&
          tfcc_session_set_output(s, 2, q, sizeof q) == TFCC_OK);
    CHECK(tfcc_session_set_input(s, 0, xs[0], sizeof xs[0]) == TFCC_OK);
    CHECKF(tfcc_session_invoke(s) == TFCC_OK, "%s", tfcc_session_last_error(s));
    CHECK(p[0] == 1.f && p[1] == 3.f && p[2] == 6.f && y[2] == 7.f && q[0] == 2.f && q[1] == 3.5f);
    CHECK(tfcc_session_set_output(s, 0, p, 2 * sizeof(float)) == TFCC_OK);
    CHECK(tfcc_session_invoke(s) == TFCC_ERR_BUFFER_TOO_SMALL);
    CHECKF(
        strstr(tfcc_session_last_error(s), "output 0 (p): this run produced float32 [3], 12 bytes"),
        "%s", tfcc_session_last_error(s));
  }
done:
  tfcc_session_destroy(s2);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

static void test_misuse(void) {
  static const struct {
    int mode;
    tfcc_status st;
    const char *words;
  } cases[] = {
      {MODE_FORGET, TFCC_ERR_RUNTIME,
       "eval: output 0 is dynamic (marked by prepare) and eval did not size it"},
      {MODE_STATIC_RESIZE, TFCC_ERR_STATE,
       "output 0 is not dynamic (its prepare did not set is_dynamic)"},
      {MODE_NEGATIVE, TFCC_ERR_SHAPE, "tfcc_custom_output_resize: output 0: dimension 0 is -3"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    kp_user u = {cases[i].mode, 0};
    tfcc_runtime *rt = tfcc_test_runtime_with_op("KeepPositive", kp_prepare, kp_eval, &u);
    tfcc_model *m = NULL;
    tfcc_session *s = NULL;
    if (cases[i].mode == MODE_STATIC_RESIZE) {
      /* a static node of constant inputs runs at load (folded): its resize fails the load */
      CHECK(load(rt, 0, &m) == cases[i].st && !m);
      CHECKF(strstr(tfcc_last_error(), "CUSTOM:KeepPositive") &&
                 strstr(tfcc_last_error(), cases[i].words),
             "%s", tfcc_last_error());
      tfcc_runtime_destroy(rt);
      continue;
    }
    CHECK(load(rt, 0, &m) == TFCC_OK && tfcc_session_create(m, NULL, &s) == TFCC_OK);
    if (s) {
      float x[8] = {1, 2, -3, 4, 5, 6, 7, 8};
      const void *ins[] = {x};
      void *outs[] = {NULL, NULL, NULL};
      CHECK(tfcc_session_run(s, ins, outs) == cases[i].st);
      const char *e = tfcc_session_last_error(s);
      CHECKF(strstr(e, "CUSTOM:KeepPositive") && strstr(e, cases[i].words), "mode %d: %s",
             cases[i].mode, e);
      tfcc_session_destroy(s);
    }
    tfcc_model_release(m);
    tfcc_runtime_destroy(rt);
  }
  /* sizing belongs to eval: prepare's call fails the load, saying so */
  kp_user u = {MODE_RESIZE_IN_PREPARE, 0};
  tfcc_runtime *rt = tfcc_test_runtime_with_op("KeepPositive", kp_prepare, kp_eval, &u);
  tfcc_model *m = NULL;
  CHECK(load(rt, 0, &m) == TFCC_ERR_STATE && !m);
  CHECKF(strstr(tfcc_last_error(), "output 0 can be sized only in eval"), "%s", tfcc_last_error());
  tfcc_runtime_destroy(rt);
  CHECK(tfcc_custom_output_resize(NULL, 0, 0, NULL) == TFCC_ERR_INVALID_ARG);
}

/* The resized outputs' buffers count in the session's dynamic bytes, as the ADD's dynamic output
 * downstream does: p (KeepPositive, up to 8000 floats here) and y (ADD, as large) both. */
static void test_memory(void) {
  kp_user u = {MODE_BIG, 0};
  tfcc_runtime *rt = tfcc_test_runtime_with_op("KeepPositive", kp_prepare, kp_eval, &u);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  CHECKF(load(rt, 0, &m) == TFCC_OK, "%s", tfcc_last_error());
  CHECK(m && tfcc_session_create(m, NULL, &s) == TFCC_OK);
  if (!s) goto done;
  static const float xs[][8] = {
      {1.f, -2.f, 3.f, -4.f, 0.f, 6.f, -7.f, -8.f}, /* 3 kept: 3000 floats */
      {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f},     /* 8: 8000, grows */
      {-1.f, 2.f, 0.f, -4.f, 0.f, -6.f, -7.f, 0.f}, /* 1: no growth */
  };
  size_t prev = 0;
  for (int r = 0; r < 3; r++) {
    const void *ins[] = {xs[r]};
    void *outs[] = {NULL, NULL, NULL};
    CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "run %d: %s", r, tfcc_session_last_error(s));
    tfcc_tensor_info pi, yi;
    CHECK(tfcc_session_output_info(s, 0, &pi) == TFCC_OK &&
          tfcc_session_output_info(s, 1, &yi) == TFCC_OK);
    const size_t dyn = tfcc_session_dynamic_bytes(s);
    const int32_t kept = r == 0 ? 3 : r == 1 ? 8 : 1;
    CHECKF(pi.dims[0] == kept * BIG_REPEAT && yi.dims[0] == kept * BIG_REPEAT, "run %d: %d / %d", r,
           (int)pi.dims[0], (int)yi.dims[0]);
    /* the largest run so far: p's buffer (the custom operator's) and y's (the session's) */
    const size_t largest = (size_t)(r == 0 ? 3 : 8) * BIG_REPEAT * sizeof(float);
    CHECKF(dyn >= 2 * largest, "run %d: dynamic_bytes %zu < 2 x %zu", r, dyn, largest);
    CHECKF(dyn < 4 * largest + 4096, "run %d: dynamic_bytes %zu for 2 x %zu", r, dyn, largest);
    if (r == 1) CHECKF(dyn > prev, "run 1 grew nothing: %zu", dyn);
    if (r == 2) CHECKF(dyn == prev, "run 2: %zu, was %zu", dyn, prev);
    prev = dyn;
  }
done:
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

int main(void) {
  snprintf(g_model, sizeof g_model, "%s/tests/models/data/mediapipe_ops/keep_positive.tflite",
           tfcc_test_source_dir());
  test_runs(0);
  test_runs(TFCC_PASS_ALL);
  test_memory();
  test_misuse();
  return tfcc_test_finish("custom_dynamic");
}
