/* Subgraphs, control flow, resource variables, signatures, run budget
 * (tests/models/data/control_flow, made by modelgen/make_control_flow.py):
 *   case    models built with modelgen (WHILE with a counter, WHILE with a growing loop
 *           variable, nested IF, IF whose branches differ in shape, CALL_ONCE + variables, two
 *           signatures): every run of a sequence against TensorFlow Lite running the same
 *           sequence on one interpreter (cases with dynamic outputs: each run on a fresh classic
 *           interpreter, engine tfweb); float32 within 1e-5 + 1e-5 |ref|, others bit-exact
 *   shared  okay_nabu_streaming (../shared/models): 8 runs in a row with state carried, bit-exact;
 *           after tfcc_session_reset_state run 0 again gives run 0's output
 *   hostile malformed models: the load or run status and message cases.txt names, no crash
 * plus: a WHILE that never ends stops at the run timeout and on tfcc_session_cancel; static
 * control flow stays static; the graph passes rewrite a WHILE body (while_fused: a constant
 * folded, a RELU fused into the ADD), and its runs match TensorFlow Lite with passes on and off
 * (hot weight updates of these models: tests/lifecycle/test_hot_update.c). */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define HAVE_MALLINFO2 1
#endif

#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static const char *g_src, *g_shared;
static tfcc_runtime *g_rt;
static char g_dir[4096];

static tfcc_model *load(const char *path) {
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(g_rt, path, NULL, &m);
  CHECKF(st == TFCC_OK, "%s: load: %s", path, tfcc_last_error());
  return st == TFCC_OK ? m : NULL;
}

static bool same_values(const char *what, const test_npy *ref, tfcc_dtype dt, int32_t rank,
                        const int32_t *dims, const void *got) {
  bool ok = ref->dtype == dt && ref->rank == rank;
  for (int32_t d = 0; ok && d < rank; d++) ok = ref->dims[d] == dims[d];
  CHECKF(ok, "%s: tfcc gives %s rank %d [%d,%d,...], TFLite %s rank %d [%d,%d,...]", what,
         tfcc_dtype_name(dt), (int)rank, rank > 0 ? (int)dims[0] : 0, rank > 1 ? (int)dims[1] : 0,
         tfcc_dtype_name(ref->dtype), (int)ref->rank, ref->rank > 0 ? (int)ref->dims[0] : 0,
         ref->rank > 1 ? (int)ref->dims[1] : 0);
  if (!ok) return false;
  size_t n = ref->bytes / tfcc_dtype_size(dt), bad = 0;
  double max_diff = 0;
  for (size_t k = 0; k < n; k++) {
    if (dt == TFCC_FLOAT32) {
      double a = ((const float *)got)[k], b = ((const float *)ref->data)[k], d = fabs(a - b);
      if (!(d <= 1e-5 + 1e-5 * fabs(b))) bad++;
      if (d > max_diff) max_diff = d;
    }
  }
  if (dt != TFCC_FLOAT32) bad = memcmp(got, ref->data, ref->bytes) != 0;
  CHECKF(bad == 0, "%s: %zu of %zu values differ from TFLite (max diff %g)", what, bad, n,
         max_diff);
  return bad == 0;
}

/* Runs `runs` runs of stem (inputs stem.r<r>.in<i>.npy) on s and compares every output with
 * stem.r<r>.out<o>.npy. Returns the number of outputs that matched. */
static int run_sequence(tfcc_session *s, const char *dir, const char *stem, int runs, int n_in,
                        int n_out, int first_run) {
  int matched = 0;
  for (int r = first_run; r < first_run + runs; r++) {
    test_npy in[8], ref[8];
    void *buf[8] = {0};
    memset(in, 0, sizeof in);
    memset(ref, 0, sizeof ref);
    char path[4200], what[256];
    bool ok = n_in <= 8 && n_out <= 8 && tfcc_session_input_count(s) == n_in &&
              tfcc_session_output_count(s) == n_out;
    CHECKF(ok, "%s: session has %d inputs / %d outputs, cases.txt %d / %d", stem,
           tfcc_session_input_count(s), tfcc_session_output_count(s), n_in, n_out);
    for (int i = 0; ok && i < n_in; i++) {
      snprintf(path, sizeof path, "%s/%s.r%d.in%d.npy", dir, stem, r, i);
      if (test_npy_load(path, &in[i]) != 0) ok = false;
    }
    for (int i = 0; ok && i < n_in; i++) {
      tfcc_tensor_info info;
      tfcc_session_input_info(s, i, &info);
      bool same = info.rank == in[i].rank;
      for (int32_t d = 0; same && d < info.rank; d++) same = info.dims[d] == in[i].dims[d];
      if (!same) {
        tfcc_status st = tfcc_session_resize_input(s, i, in[i].rank, in[i].dims);
        CHECKF(st == TFCC_OK, "%s run %d: resize input %d: %s", stem, r, i,
               tfcc_session_last_error(s));
      }
      tfcc_status st = tfcc_session_set_input(s, i, in[i].data, in[i].bytes);
      CHECKF(st == TFCC_OK, "%s run %d: input %d: %s", stem, r, i, tfcc_session_last_error(s));
      if (st != TFCC_OK) ok = false;
    }
    for (int o = 0; ok && o < n_out; o++) {
      tfcc_tensor_info info;
      tfcc_session_output_info(s, o, &info);
      if (tfcc_session_output_is_dynamic(s, o)) {
        tfcc_session_set_output(s, o, NULL, 0); /* read from the session after the run */
      } else {
        buf[o] = calloc(1, info.bytes + 1);
        tfcc_session_set_output(s, o, buf[o], info.bytes);
      }
    }
    tfcc_status st = ok ? tfcc_session_invoke(s) : TFCC_ERR_RUNTIME;
    CHECKF(!ok || st == TFCC_OK, "%s run %d: %s", stem, r, tfcc_session_last_error(s));
    for (int o = 0; ok && st == TFCC_OK && o < n_out; o++) {
      snprintf(path, sizeof path, "%s/%s.r%d.out%d.npy", dir, stem, r, o);
      if (test_npy_load(path, &ref[o]) != 0) continue;
      tfcc_tensor_info info;
      tfcc_session_output_info(s, o, &info);
      const void *data = buf[o];
      if (!data) {
        size_t bytes = 0;
        CHECK(tfcc_session_output_data(s, o, &data, &bytes) == TFCC_OK && bytes == info.bytes);
      }
      snprintf(what, sizeof what, "%s run %d output %d (%s)", stem, r, o, info.name);
      if (data && same_values(what, &ref[o], info.dtype, info.rank, info.dims, data)) matched++;
    }
    for (int i = 0; i < 8; i++) {
      test_npy_free(&in[i]);
      test_npy_free(&ref[i]);
      free(buf[i]);
    }
  }
  return matched;
}

/* Heap bytes in use (glibc), 0 where unknown. */
static size_t heap_in_use(void) {
#ifdef HAVE_MALLINFO2
  return mallinfo2().uordblks;
#else
  return 0;
#endif
}

/* Runs s on zero inputs, outputs into scratch buffers; *heap_delta: heap bytes the run left in use. */
static tfcc_status run_zeros(tfcc_session *s, long *heap_delta) {
  void *bufs[16] = {0};
  int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  for (int i = 0; i < ni && i < 8; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    bufs[i] = calloc(1, info.bytes + 1);
    tfcc_session_set_input(s, i, bufs[i], info.bytes);
  }
  for (int o = 0; o < no && o < 8; o++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, o, &info);
    bufs[8 + o] = calloc(1, info.bytes + 1);
    tfcc_session_set_output(s, o, bufs[8 + o], info.bytes);
  }
  size_t before = heap_in_use();
  tfcc_status st = tfcc_session_invoke(s);
  if (heap_delta) *heap_delta = (long)heap_in_use() - (long)before;
  for (int i = 0; i < 16; i++) free(bufs[i]);
  return st;
}

static void check_case(const char *name, const char *sig, int runs, int n_in, int n_out) {
  char path[4200], stem[300];
  snprintf(path, sizeof path, "%s/%s.tflite", g_dir, name);
  tfcc_model *m = load(path);
  if (!m) return;
  bool several = tfcc_model_signature_count(m) > 1;
  snprintf(stem, sizeof stem, several ? "%s.%s" : "%s", name, sig);
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create_for_signature(m, sig, NULL, &s);
  CHECKF(st == TFCC_OK, "%s: session for signature %s: %s", name, sig, tfcc_last_error());
  tfcc_model_release(m);
  if (st != TFCC_OK) return;
  int matched = run_sequence(s, g_dir, stem, runs, n_in, n_out, 0);
  printf("  %-28s %-16s %d runs: %d of %d outputs match TFLite\n", name, sig, runs, matched,
         runs * n_out);
  if (strcmp(name, "while_counter") == 0 || strcmp(name, "if_nested") == 0 ||
      strcmp(name, "call_once_vars") == 0)
    CHECKF(tfcc_session_dynamic_tensor_count(s) == 0,
           "%s: static control flow made %d dynamic tensors", name,
           tfcc_session_dynamic_tensor_count(s));
  if (strcmp(name, "while_grow") == 0 || strcmp(name, "if_shapes") == 0)
    CHECK(tfcc_session_output_is_dynamic(s, 0) == 1);
  if (strcmp(name, "while_counter") == 0 || strcmp(name, "if_nested") == 0) {
    /* static control flow: a run (the last one again, same shapes) allocates nothing */
    long delta = 0;
    CHECK(run_zeros(s, &delta) == TFCC_OK && run_zeros(s, &delta) == TFCC_OK);
    CHECKF(delta == 0, "%s: a run changed the heap in use by %ld bytes", name, delta);
  }
  if (strcmp(name, "call_once_vars") == 0) { /* a fresh state gives run 0 again */
    CHECK(tfcc_session_reset_state(s) == TFCC_OK);
    CHECKF(run_sequence(s, g_dir, stem, 1, n_in, n_out, 0) == n_out,
           "%s: after reset_state, run 0 differs", name);
  }
  if (several) { /* inputs and outputs carry the signature's names */
    tfcc_tensor_info info;
    tfcc_session_input_info(s, 0, &info);
    int idx = -1;
    CHECK(tfcc_session_find_input(s, info.name, &idx) == TFCC_OK && idx == 0);
    CHECK(tfcc_session_subgraph(s) == (strcmp(sig, "decode") == 0 ? 1 : 0));
  }
  tfcc_session_destroy(s);
}

static void check_okay_nabu(int runs) {
  if (!g_shared) {
    printf("  okay_nabu_streaming: SKIPPED (no shared models directory)\n");
    return;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/models/okay_nabu_streaming.tflite", g_shared);
  tfcc_model *m = load(path);
  if (!m) return;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, NULL, &s);
  CHECKF(st == TFCC_OK, "okay_nabu: session: %s", tfcc_last_error());
  tfcc_model_release(m);
  if (st != TFCC_OK) return;
  CHECK(tfcc_session_dynamic_tensor_count(s) == 0);
  int matched = run_sequence(s, g_dir, "okay_nabu_streaming", runs, 1, 1, 0);
  CHECK(tfcc_session_reset_state(s) == TFCC_OK);
  matched += run_sequence(s, g_dir, "okay_nabu_streaming", 1, 1, 1, 0);
  printf(
      "  %-28s %-16s %d runs in a row + 1 after reset_state: %d of %d match TFLite bit-exactly\n",
      "okay_nabu_streaming", "serving_default", runs, matched, runs + 1);
  tfcc_session_destroy(s);
}

static tfcc_session *hostile_session(const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.tflite", g_dir, name);
  tfcc_model *m = load(path);
  if (!m) return NULL;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, NULL, &s);
  CHECKF(st == TFCC_OK, "%s: session: %s", name, tfcc_last_error());
  tfcc_model_release(m);
  return s;
}

static void check_hostile(const char *name, const char *stage, const char *status,
                          const char *words) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.tflite", g_dir, name);
  tfcc_status want = TFCC_OK;
  for (int k = 0; k < TFCC_STATUS_COUNT_; k++) {
    char nm[64];
    snprintf(nm, sizeof nm, "%s", status);
    if ((k == TFCC_ERR_INVALID_MODEL && !strcmp(nm, "ERR_INVALID_MODEL")) ||
        (k == TFCC_ERR_DEADLINE && !strcmp(nm, "ERR_DEADLINE")) ||
        (k == TFCC_ERR_SHAPE && !strcmp(nm, "ERR_SHAPE")) ||
        (k == TFCC_ERR_STATE && !strcmp(nm, "ERR_STATE")) ||
        (k == TFCC_ERR_UNSUPPORTED && !strcmp(nm, "ERR_UNSUPPORTED")))
      want = (tfcc_status)k;
  }
  CHECKF(want != TFCC_OK, "%s: status %s not known to the test", name, status);
  const char *msg = "";
  tfcc_status st;
  tfcc_session *s = NULL;
  if (strcmp(stage, "load") == 0) {
    tfcc_model *m = NULL;
    st = tfcc_model_load_file(g_rt, path, NULL, &m);
    msg = tfcc_last_error();
    tfcc_model_release(m);
  } else {
    s = hostile_session(name);
    if (!s) return;
    if (want == TFCC_ERR_DEADLINE) tfcc_session_set_run_timeout(s, 20000); /* 20 ms */
    st = run_zeros(s, NULL);
    msg = tfcc_session_last_error(s);
  }
  CHECKF(st == want && strstr(msg, words), "%s: %s gave %s \"%s\"; expected %s with \"%s\"", name,
         stage, tfcc_status_str(st), msg, status, words);
  printf("  %-28s %-4s %s: %s\n", name, stage, tfcc_status_str(st), msg);
  tfcc_session_destroy(s);
}

static void *cancel_later(void *arg) {
  struct timespec ts = {0, 30 * 1000 * 1000};
  nanosleep(&ts, NULL);
  tfcc_session_cancel(arg);
  return NULL;
}

/* The endless WHILE: stopped by another thread's tfcc_session_cancel, then runs again (and is
 * stopped by its timeout) with the session intact. */
static void check_cancel(void) {
  tfcc_session *s = hostile_session("h_infinite_while");
  if (!s) return;
  pthread_t th;
  CHECK(pthread_create(&th, NULL, cancel_later, s) == 0);
  tfcc_status st = run_zeros(s, NULL);
  pthread_join(th, NULL);
  CHECKF(st == TFCC_ERR_CANCELLED, "cancel: %s: %s", tfcc_status_str(st),
         tfcc_session_last_error(s));
  printf("  %-28s cancelled from another thread: %s\n", "h_infinite_while",
         tfcc_session_last_error(s));
  tfcc_session_set_run_timeout(s, 5000);
  st = run_zeros(s, NULL);
  CHECKF(st == TFCC_ERR_DEADLINE, "after cancel, timeout: %s", tfcc_status_str(st));
  tfcc_session_destroy(s);
}

/* The run budget inside one operator: a hybrid time-major BIDIRECTIONAL_SEQUENCE_RNN repeats
 * its whole sequence once per time step, as TFLite's kernel does; a sequence of 20,000 steps
 * (a 640 KB input to a 2 KB file) would run for minutes. It checks the deadline between its
 * passes (fuzz_model_run's find of stop 51: 196,608 steps, over libFuzzer's 20 s limit), and
 * the session runs again afterwards. */
static void check_op_deadline(void) {
  char path[4200];
  snprintf(path, sizeof path,
           "%s/tests/ops/conformance/bidirectional_sequence_rnn_hybrid_merge_tm.tflite", g_src);
  tfcc_model *m = load(path);
  if (!m) return;
  tfcc_session *s = NULL;
  CHECKF(tfcc_session_create(m, NULL, &s) == TFCC_OK, "rnn session: %s", tfcc_last_error());
  tfcc_model_release(m);
  if (!s) return;
  const int32_t dims[3] = {20000, 2, 4};
  CHECKF(tfcc_session_resize_input(s, 0, 3, dims) == TFCC_OK, "resize: %s",
         tfcc_session_last_error(s));
  const size_t n = (size_t)dims[0] * dims[1] * dims[2];
  float *x = malloc(n * sizeof *x);
  CHECK(x != NULL);
  if (!x) {
    tfcc_session_destroy(s);
    return;
  }
  for (size_t i = 0; i < n; i++) x[i] = (float)((int)(i % 7) - 3) * 0.25f;
  float *y = calloc(n / 4 * 10, sizeof *y); /* [20000, 2, 10] */
  CHECK(y != NULL);
  CHECK(tfcc_session_set_input(s, 0, x, n * sizeof *x) == TFCC_OK);
  CHECKF(tfcc_session_set_output(s, 0, y, n / 4 * 10 * sizeof *y) == TFCC_OK, "output: %s",
         tfcc_session_last_error(s));
  tfcc_session_set_run_timeout(s, 20000); /* 20 ms */
  tfcc_status st = tfcc_session_invoke(s);
  const char *msg = tfcc_session_last_error(s);
  CHECKF(st == TFCC_ERR_DEADLINE && strstr(msg, "BIDIRECTIONAL_SEQUENCE_RNN pass"),
         "long RNN: %s \"%s\"", tfcc_status_str(st), msg);
  printf("  %-28s %s: %s\n", "rnn 20000 steps", tfcc_status_str(st), msg);
  const int32_t small[3] = {3, 2, 4};
  CHECK(tfcc_session_resize_input(s, 0, 3, small) == TFCC_OK);
  CHECK(tfcc_session_set_input(s, 0, x, 24 * sizeof *x) == TFCC_OK);
  CHECK(tfcc_session_set_output(s, 0, y, 60 * sizeof *y) == TFCC_OK);
  st = tfcc_session_invoke(s);
  CHECKF(st == TFCC_OK, "short RNN after the deadline: %s", tfcc_session_last_error(s));
  free(x);
  free(y);
  tfcc_session_destroy(s);
}

static char g_pass_log[4096];
static void pass_log(void *user, tfcc_log_level level, const char *tag, const char *msg) {
  (void)user;
  (void)level;
  (void)tag;
  size_t used = strlen(g_pass_log);
  snprintf(g_pass_log + used, sizeof g_pass_log - used, "%s\n", msg);
}

/* The graph passes run on every subgraph: while_fused's body gets a constant folded and a RELU
 * fused (the debug log says so), and every run equals the one with all passes off bit for bit
 * (the cases above compare it with TensorFlow Lite). */
static void check_passes_in_subgraphs(void) {
  char path[4200];
  snprintf(path, sizeof path, "%s/while_fused.tflite", g_dir);
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.log_level = TFCC_LOG_DEBUG;
  ro.log_fn = pass_log;
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(&ro, &rt) == TFCC_OK);
  if (!rt) return;
  g_pass_log[0] = 0;
  tfcc_model *on = NULL, *off = NULL;
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  CHECK(tfcc_model_load_file(rt, path, &mo, &on) == TFCC_OK);
  CHECKF(strstr(g_pass_log, "pass fold_constants: subgraph 2: 1 change") &&
             strstr(g_pass_log, "pass fuse_activation: subgraph 2: 1 change"),
         "the passes did not rewrite the WHILE body: %s", g_pass_log);
  mo.disabled_passes = TFCC_PASS_ALL;
  CHECK(tfcc_model_load_file(rt, path, &mo, &off) == TFCC_OK);
  tfcc_session *a = NULL, *b = NULL;
  if (on && off && tfcc_session_create(on, NULL, &a) == TFCC_OK &&
      tfcc_session_create(off, NULL, &b) == TFCC_OK) {
    for (int32_t n = 0; n < 8; n++) {
      const float x[3] = {-4.0f, 0.5f, -1.0f};
      float ya[3] = {0}, yb[3] = {1};
      int32_t ia = -1, ib = -2;
      const void *ins[2] = {&n, x};
      void *oa[2] = {ya, &ia}, *ob[2] = {yb, &ib};
      CHECK(tfcc_session_run(a, ins, oa) == TFCC_OK && tfcc_session_run(b, ins, ob) == TFCC_OK);
      CHECKF(memcmp(ya, yb, sizeof ya) == 0 && ia == n && ib == n,
             "while_fused n=%d: passes on [%g %g %g], off [%g %g %g]", (int)n, ya[0], ya[1], ya[2],
             yb[0], yb[1], yb[2]);
    }
  }
  tfcc_session_destroy(a);
  tfcc_session_destroy(b);
  tfcc_model_release(on);
  tfcc_model_release(off);
  tfcc_runtime_destroy(rt);
}

/* API edges: unknown signature, NULL arguments, subgraph introspection. */
static void check_api(void) {
  char path[4200];
  snprintf(path, sizeof path, "%s/while_counter.tflite", g_dir);
  tfcc_model *m = load(path);
  if (!m) return;
  tfcc_session *s = (tfcc_session *)1;
  CHECK(tfcc_session_create_for_signature(m, "nope", NULL, &s) == TFCC_ERR_NOT_FOUND && s == NULL);
  CHECK(strstr(tfcc_last_error(), "no signature 'nope'") != NULL);
  CHECK(tfcc_session_create_for_signature(m, NULL, NULL, &s) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_session_set_run_timeout(NULL, 1) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_session_cancel(NULL) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_subgraph_count(m) == 3);
  tfcc_subgraph_info gi;
  CHECK(tfcc_model_subgraph_info(m, 3, &gi) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_model_subgraph_info(m, 0, &gi) == TFCC_OK && gi.entry == 1 && gi.caller == -1);
  CHECK(tfcc_model_subgraph_info(m, 1, &gi) == TFCC_OK && gi.entry == 0 && gi.caller == 0 &&
        gi.caller_node == 0 && strcmp(gi.role, "cond") == 0 && strcmp(gi.caller_op, "WHILE") == 0);
  CHECK(tfcc_model_subgraph_info(m, 2, &gi) == TFCC_OK && strcmp(gi.role, "body") == 0);
  tfcc_model_release(m);
}

/* A signature whose subgraph cannot run does not keep the model from loading: encode (subgraph
 * 0) runs, a session for decode is refused with the cause, as TFLite fails a subgraph only when
 * it prepares it. signatures.flex_decode.tflite: decode's ADD is the Flex op FlexRestore;
 * signatures.bad_decode.tflite: decode adds a [4] constant to a [3] input. */
static void check_unrunnable_signature(const char *file, const char *unsupported,
                                       const char *cause) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", g_dir, file);
  tfcc_model *m = load(path);
  if (!m) return;
  CHECKF(unsupported ? strstr(tfcc_model_unsupported(m), unsupported) != NULL
                     : tfcc_model_unsupported(m)[0] == 0,
         "%s: unsupported: %s", file, tfcc_model_unsupported(m));
  tfcc_session *enc = NULL, *dec = (tfcc_session *)1;
  CHECKF(tfcc_session_create_for_signature(m, "encode", NULL, &enc) == TFCC_OK, "%s: encode: %s",
         file, tfcc_last_error());
  if (enc) {
    const float x[3] = {1.0f, -2.0f, 0.5f}, want[3] = {2.0f, -4.0f, 1.0f};
    float y[3] = {0};
    CHECK(tfcc_session_set_input(enc, 0, x, sizeof x) == TFCC_OK &&
          tfcc_session_set_output(enc, 0, y, sizeof y) == TFCC_OK);
    CHECKF(tfcc_session_invoke(enc) == TFCC_OK, "%s: encode: run: %s", file,
           tfcc_session_last_error(enc));
    CHECKF(memcmp(y, want, sizeof y) == 0, "%s: encode: [%g, %g, %g], want x * 2", file, y[0], y[1],
           y[2]);
    tfcc_session_destroy(enc);
  }
  const tfcc_status st = tfcc_session_create_for_signature(m, "decode", NULL, &dec);
  CHECKF(st != TFCC_OK && dec == NULL, "%s: decode: %s", file, tfcc_status_str(st));
  const char *msg = tfcc_last_error();
  CHECKF(strstr(msg, cause) != NULL, "%s: decode: %s", file, msg);
  printf("  %s: decode refused: %s\n", file, msg);
  /* the cause without the signature's name (the operators decode reaches, or its plan's
   * error), and none for encode's subgraph 0 */
  const char *why = tfcc_model_subgraph_error(m, 1);
  CHECKF(why && strstr(why, unsupported ? unsupported : cause),
         "%s: tfcc_model_subgraph_error(1): %s", file, why ? why : "(null)");
  CHECKF(tfcc_model_subgraph_error(m, 0) && !tfcc_model_subgraph_error(m, 0)[0],
         "%s: tfcc_model_subgraph_error(0): %s", file, tfcc_model_subgraph_error(m, 0));
  CHECK(tfcc_model_subgraph_error(m, 2) == NULL && tfcc_model_subgraph_error(NULL, 0) == NULL);
  tfcc_model_release(m);
}

/* Subgraph 0 that cannot run does not keep another signature from running: encode (subgraph 0)
 * holds the Flex op FlexRestore, decode (subgraph 1) adds 1. TFLite prepares a subgraph only
 * when it runs it, and LiteRT runs such a file's builtin-only signature (the twenty-eighth
 * sweep batch's Mobile_p2pfl__proxy_model_mlp: `aggregate` is subgraph 0, `infer` runs); the
 * load failed before. A session for subgraph 0 or encode is refused with the operator and the
 * signature that can run. */
static void check_unrunnable_subgraph0(void) {
  char path[4200];
  snprintf(path, sizeof path, "%s/signatures.flex_encode.tflite", g_dir);
  tfcc_model *m = load(path);
  if (!m) return;
  CHECKF(strstr(tfcc_model_unsupported(m), "CUSTOM:FlexRestore at node 0") != NULL,
         "flex_encode: unsupported: %s", tfcc_model_unsupported(m));
  tfcc_session *dec = NULL, *enc = (tfcc_session *)1, *s0 = (tfcc_session *)1;
  CHECKF(tfcc_session_create_for_signature(m, "decode", NULL, &dec) == TFCC_OK,
         "flex_encode: decode: %s", tfcc_last_error());
  if (dec) {
    const float x[3] = {1.0f, -2.0f, 0.5f}, want[3] = {2.0f, -1.0f, 1.5f};
    float y[3] = {0};
    CHECK(tfcc_session_set_input(dec, 0, x, sizeof x) == TFCC_OK &&
          tfcc_session_set_output(dec, 0, y, sizeof y) == TFCC_OK);
    CHECKF(tfcc_session_invoke(dec) == TFCC_OK, "flex_encode: decode: run: %s",
           tfcc_session_last_error(dec));
    CHECKF(memcmp(y, want, sizeof y) == 0, "flex_encode: decode: [%g, %g, %g], want x + 1", y[0],
           y[1], y[2]);
    tfcc_session_destroy(dec);
  }
  tfcc_status st = tfcc_session_create_for_signature(m, "encode", NULL, &enc);
  CHECKF(st == TFCC_ERR_UNSUPPORTED && enc == NULL, "flex_encode: encode: %s", tfcc_status_str(st));
  const char *msg = tfcc_last_error();
  CHECKF(strstr(msg, "signature 'decode' can") && strstr(msg, "FlexRestore at node 0"),
         "flex_encode: encode: %s", msg);
  st = tfcc_session_create(m, NULL, &s0);
  CHECKF(st == TFCC_ERR_UNSUPPORTED && s0 == NULL, "flex_encode: subgraph 0: %s",
         tfcc_status_str(st));
  printf("  signatures.flex_encode.tflite: decode runs, subgraph 0 refused: %s\n",
         tfcc_last_error());
  CHECKF(strstr(tfcc_model_subgraph_error(m, 0), "FlexRestore at node 0") &&
             !tfcc_model_subgraph_error(m, 1)[0],
         "flex_encode: subgraph errors: '%s', '%s'", tfcc_model_subgraph_error(m, 0),
         tfcc_model_subgraph_error(m, 1));
  tfcc_model_release(m);
}

int main(void) {
  g_src = tfcc_test_source_dir();
  g_shared = tfcc_test_shared_dir();
  if (!g_src) return TFCC_TEST_SKIP;
  snprintf(g_dir, sizeof g_dir, "%s/tests/models/data/control_flow", g_src);
  tfcc_status st = tfcc_runtime_create(NULL, &g_rt);
  CHECK(st == TFCC_OK);
  if (st != TFCC_OK) return tfcc_test_finish("control_flow");
  char path[4200];
  snprintf(path, sizeof path, "%s/cases.txt", g_dir);
  FILE *f = fopen(path, "r");
  CHECKF(f != NULL, "cannot open %s", path);
  char line[512];
  int n_cases = 0;
  while (f && fgets(line, sizeof line, f)) {
    char kind[16], name[128], a[64], b[64];
    int runs, n_in, n_out, off = 0;
    if (line[0] == '#' || sscanf(line, "%15s %127s", kind, name) != 2) continue;
    if (strcmp(kind, "case") == 0 &&
        sscanf(line, "%*s %*s %63s %d %d %d", a, &runs, &n_in, &n_out) == 4) {
      check_case(name, a, runs, n_in, n_out);
      n_cases++;
    } else if (strcmp(kind, "shared") == 0 && sscanf(line, "%*s %*s %*s %d", &runs) == 1) {
      check_okay_nabu(runs);
    } else if (strcmp(kind, "hostile") == 0 &&
               sscanf(line, "%*s %*s %63s %63s %n", a, b, &off) == 2 && off > 0) {
      line[strcspn(line, "\n")] = 0;
      check_hostile(name, a, b, line + off);
      n_cases++;
    }
  }
  if (f) fclose(f);
  CHECKF(n_cases >= 12, "cases.txt lists %d cases", n_cases);
  check_cancel();
  check_op_deadline();
  check_passes_in_subgraphs();
  check_api();
  check_unrunnable_signature("signatures.flex_decode.tflite",
                             "CUSTOM:FlexRestore at subgraph 1 node 0",
                             "signature 'decode' (subgraph 1) cannot run: unsupported: "
                             "CUSTOM:FlexRestore at subgraph 1 node 0");
  check_unrunnable_signature("signatures.bad_decode.tflite", NULL, "ADD");
  check_unrunnable_subgraph0();
  tfcc_runtime_destroy(g_rt);
  return tfcc_test_finish("control_flow");
}
