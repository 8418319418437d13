/* Hot weight update: results, rejection of other graphs, integrity guard, and N threads running
 * while another thread updates the weights many times (each output must equal the full old or
 * the full new weights' output; ASan/LSan find leaks and use-after-free). */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lifecycle_util.h"
#include "runtime/weights.h"
#include "test_harness.h"

#define N_THREADS 4
#define N_UPDATES 100

static char g_path_a[512], g_path_b[512];

typedef struct model_case {
  const char *name;
  uint8_t *a, *b;
  size_t size;
  size_t in_bytes, out_bytes;
  uint8_t *input, *out_a, *out_b;
} model_case;

static int setup(model_case *c, tfcc_runtime *rt) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", tfcc_test_source_dir(),
           c->name);
  c->a = tfcc_test_read_file(path, &c->size);
  if (!c->a) return -1;
  c->b = lc_variant(c->a, c->size, 0);
  if (!c->b) return -1;
  tfcc_model *ma = NULL, *mb = NULL;
  tfcc_session *sa = NULL, *sb = NULL;
  if (tfcc_model_load_buffer(rt, c->a, c->size, NULL, &ma) ||
      tfcc_model_load_buffer(rt, c->b, c->size, NULL, &mb) || tfcc_session_create(ma, NULL, &sa) ||
      tfcc_session_create(mb, NULL, &sb))
    return -1;
  tfcc_tensor_info ii, oi;
  tfcc_session_input_info(sa, 0, &ii);
  tfcc_session_output_info(sa, 0, &oi);
  c->in_bytes = ii.bytes;
  c->out_bytes = oi.bytes;
  c->input = malloc(ii.bytes);
  c->out_a = malloc(oi.bytes);
  c->out_b = malloc(oi.bytes);
  for (size_t k = 0; k < ii.bytes; k++) c->input[k] = (uint8_t)(k * 37 + 11);
  if (ii.dtype == TFCC_FLOAT32)
    for (size_t k = 0; k < ii.bytes / 4; k++)
      ((float *)(void *)c->input)[k] = (float)((int)(k % 13) - 6) * 0.37f;
  CHECK(lc_run1(sa, c->input, c->out_a) == TFCC_OK);
  CHECK(lc_run1(sb, c->input, c->out_b) == TFCC_OK);
  CHECKF(memcmp(c->out_a, c->out_b, c->out_bytes) != 0, "%s: variant gives the same output",
         c->name);
  tfcc_session_destroy(sa);
  tfcc_session_destroy(sb);
  tfcc_model_release(ma);
  tfcc_model_release(mb);
  return 0;
}

static void teardown(model_case *c) {
  free(c->a);
  free(c->b);
  free(c->input);
  free(c->out_a);
  free(c->out_b);
}

/* Update by buffer and by file, results follow; figures are filled. */
static void test_basic(tfcc_runtime *rt, model_case *c) {
  tfcc_model *m = NULL;
  CHECK(tfcc_model_load_file(rt, g_path_a, NULL, &m) == TFCC_OK);
  tfcc_session *s = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  uint8_t *out = malloc(c->out_bytes);
  CHECK(lc_run1(s, c->input, out) == TFCC_OK && memcmp(out, c->out_a, c->out_bytes) == 0);
  CHECK(tfcc_model_update_weights_buffer(m, c->b, c->size) == TFCC_OK);
  CHECK(lc_run1(s, c->input, out) == TFCC_OK);
  CHECKF(memcmp(out, c->out_b, c->out_bytes) == 0,
         "%s: output after update is not the new weights'", c->name);
  /* A session created after the update, and a resize-free replan, see the new weights. */
  tfcc_session *s2 = NULL;
  CHECK(tfcc_session_create(m, NULL, &s2) == TFCC_OK);
  CHECK(lc_run1(s2, c->input, out) == TFCC_OK && memcmp(out, c->out_b, c->out_bytes) == 0);
  CHECK(tfcc_model_update_weights(m, g_path_a) == TFCC_OK);
  CHECK(lc_run1(s, c->input, out) == TFCC_OK && memcmp(out, c->out_a, c->out_bytes) == 0);
  CHECK(tfcc_session_set_profiling(s2, 1) == TFCC_OK);
  CHECK(lc_run1(s2, c->input, out) == TFCC_OK && memcmp(out, c->out_a, c->out_bytes) == 0);
  tfcc_update_info u;
  CHECK(tfcc_model_update_info(m, &u) == TFCC_OK);
  CHECK(u.generation == 2);
  CHECK(u.total_ms > 0 && u.total_ms >= u.map_ms);
  tfcc_session_destroy(s2);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  free(out);
}

/* Another graph is refused with a message naming the difference; weights stay. */
static void test_mismatch(tfcc_runtime *rt, model_case *c, const char *other) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", tfcc_test_source_dir(), other);
  tfcc_model *m = NULL;
  CHECK(tfcc_model_load_buffer(rt, c->a, c->size, NULL, &m) == TFCC_OK);
  tfcc_session *s = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  tfcc_status st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_ERR_INVALID_MODEL, "status %s", tfcc_status_str(st));
  const char *msg = tfcc_last_error();
  CHECKF(strstr(msg, other) &&
             (strstr(msg, "tensor") || strstr(msg, "operator") || strstr(msg, "graph")),
         "message: %s", msg);
  CHECK(tfcc_model_update_weights(m, "/nonexistent/x.tflite") == TFCC_ERR_IO);
  uint8_t junk[64] = {0};
  CHECK(tfcc_model_update_weights_buffer(m, junk, sizeof junk) == TFCC_ERR_INVALID_MODEL);
  uint8_t *out = malloc(c->out_bytes);
  CHECK(lc_run1(s, c->input, out) == TFCC_OK && memcmp(out, c->out_a, c->out_bytes) == 0);
  free(out);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
}

/* Integrity guard: the file is rewritten in place or grows while being loaded. */
static const model_case *g_hook_case;
static int g_hook_mode;
static void hook(const char *path) {
  if (g_hook_mode == 1) { /* same size, other bytes */
    int fd = open(path, O_WRONLY);
    if (fd >= 0) {
      uint8_t x = 0x5a;
      if (pwrite(fd, &x, 1, (off_t)g_hook_case->size - 3) != 1) { /* ignore */
      }
      close(fd);
    }
  } else if (g_hook_mode == 2) { /* appended */
    FILE *f = fopen(path, "ab");
    if (f) {
      fputs("more", f);
      fclose(f);
    }
  }
}

static void test_integrity(tfcc_runtime *rt, model_case *c) {
  char path[600];
  snprintf(path, sizeof path, "%s.rewrite", g_path_b);
  tfcc_model *m = NULL;
  CHECK(tfcc_model_load_buffer(rt, c->a, c->size, NULL, &m) == TFCC_OK);
  g_hook_case = c;
  tfcc_weights_test_hook = hook;
  for (g_hook_mode = 1; g_hook_mode <= 2; g_hook_mode++) {
    CHECK(lc_write_file(path, c->b, c->size));
    tfcc_status st = tfcc_model_update_weights(m, path);
    CHECKF(st == TFCC_ERR_INTEGRITY, "mode %d: %s", g_hook_mode, tfcc_status_str(st));
    CHECKF(strstr(tfcc_last_error(), "renam") != NULL, "message: %s", tfcc_last_error());
  }
  tfcc_weights_test_hook = NULL;
  tfcc_session *s = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  uint8_t *out = malloc(c->out_bytes);
  CHECK(lc_run1(s, c->input, out) == TFCC_OK && memcmp(out, c->out_a, c->out_bytes) == 0);
  free(out);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  unlink(path);
}

/* ---------------------------------------------------------------- concurrency */

typedef struct worker {
  tfcc_model *m;
  const model_case *c;
  atomic_int *stop;
  atomic_long progress;
  long runs, old_seen, new_seen, torn, errors;
} worker;

static void *run_loop(void *arg) {
  worker *w = arg;
  tfcc_session *s = NULL;
  if (tfcc_session_create(w->m, NULL, &s) != TFCC_OK) {
    w->errors++;
    return NULL;
  }
  uint8_t *out = malloc(w->c->out_bytes);
  while (!atomic_load(w->stop)) {
    if (lc_run1(s, w->c->input, out) != TFCC_OK) {
      w->errors++;
      continue;
    }
    w->runs++;
    atomic_fetch_add(&w->progress, 1);
    if (memcmp(out, w->c->out_a, w->c->out_bytes) == 0)
      w->old_seen++;
    else if (memcmp(out, w->c->out_b, w->c->out_bytes) == 0)
      w->new_seen++;
    else
      w->torn++;
  }
  free(out);
  tfcc_session_destroy(s);
  return NULL;
}

static void test_concurrent(tfcc_runtime *rt, model_case *c) {
  tfcc_model *m = NULL;
  CHECK(tfcc_model_load_file(rt, g_path_a, NULL, &m) == TFCC_OK);
  atomic_int stop;
  atomic_init(&stop, 0);
  worker w[N_THREADS];
  pthread_t th[N_THREADS];
  for (int i = 0; i < N_THREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].m = m, w[i].c = c, w[i].stop = &stop;
    atomic_init(&w[i].progress, 0);
    pthread_create(&th[i], NULL, run_loop, &w[i]);
  }
  /* Updates interleave with runs: each waits (up to 50 ms) until every thread ran again. */
  long seen[N_THREADS] = {0};
  int failed = 0;
  double worst = 0;
  for (int k = 0; k < N_UPDATES; k++) {
    for (int i = 0; i < N_THREADS; i++) {
      for (int spin = 0; spin < 5000 && atomic_load(&w[i].progress) <= seen[i]; spin++) usleep(10);
      seen[i] = atomic_load(&w[i].progress);
    }
    tfcc_status st = k % 3 == 2 ? tfcc_model_update_weights_buffer(m, k % 2 ? c->a : c->b, c->size)
                                : tfcc_model_update_weights(m, k % 2 ? g_path_a : g_path_b);
    if (st != TFCC_OK) {
      failed++;
      fprintf(stderr, "update %d: %s\n", k, tfcc_last_error());
    }
    tfcc_update_info u;
    tfcc_model_update_info(m, &u);
    if (u.total_ms > worst) worst = u.total_ms;
  }
  usleep(2000);
  atomic_store(&stop, 1);
  long runs = 0, olds = 0, news = 0, torn = 0, errors = 0;
  for (int i = 0; i < N_THREADS; i++) {
    pthread_join(th[i], NULL);
    runs += w[i].runs, olds += w[i].old_seen, news += w[i].new_seen, torn += w[i].torn,
        errors += w[i].errors;
  }
  CHECK(failed == 0);
  CHECKF(torn == 0 && errors == 0, "%s: %ld torn outputs, %ld errors in %ld runs", c->name, torn,
         errors, runs);
  CHECKF(olds > 0 && news > 0, "%s: old %ld new %ld", c->name, olds, news);
  tfcc_update_info u;
  tfcc_model_update_info(m, &u);
  CHECK(u.generation == N_UPDATES);
  printf(
      "%s: %d updates under %d running threads: %ld runs (%ld old, %ld new weights), 0 torn; worst switch %.2f ms\n",
      c->name, N_UPDATES, N_THREADS, runs, olds, news, worst);
  tfcc_model_release(m);
}

/* ---------------------------------------------------------------- control flow */

/* while_counter (tests/models/data/control_flow): acc = x; n times acc = acc * k + c (WHILE,
 * the constants in the body subgraph). Runs it with n = 3 and checks acc against k, c. */
static void cf_check_while(tfcc_session *s, float k, float c, const char *what) {
  int32_t n = 3, i_final = -1;
  const float x[3] = {0.5f, -1.0f, 2.0f};
  float acc[3] = {0};
  const void *ins[2] = {&n, x};
  void *outs[2] = {acc, &i_final};
  tfcc_status st = tfcc_session_run(s, ins, outs);
  CHECKF(st == TFCC_OK, "%s: run: %s", what, tfcc_session_last_error(s));
  for (int j = 0; j < 3; j++) {
    volatile float want = x[j]; /* one rounding per operator, as MUL then ADD */
    for (int it = 0; it < n; it++) {
      volatile float t = want * k;
      want = t + c;
    }
    CHECKF(memcmp(&acc[j], (const float *)&want, 4) == 0, "%s: acc[%d] = %.9g, want %.9g", what, j,
           acc[j], (double)want);
  }
  CHECKF(i_final == n, "%s: i_final %d", what, (int)i_final);
}

static void cf_check_sig(tfcc_session *s, const float want[3], const char *what) {
  const float x[3] = {1.0f, -2.0f, 0.5f};
  float y[3] = {0};
  CHECKF(lc_run1(s, x, y) == TFCC_OK, "%s: run: %s", what, tfcc_session_last_error(s));
  CHECKF(memcmp(y, want, sizeof y) == 0, "%s: [%g, %g, %g], want [%g, %g, %g]", what, y[0], y[1],
         y[2], want[0], want[1], want[2]);
}

/* The control-flow test model `file` (tests/models/data/control_flow), or NULL (a failed
 * check). */
static tfcc_model *cf_load(tfcc_runtime *rt, const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/models/data/control_flow/%s", tfcc_test_source_dir(), file);
  tfcc_model *m = NULL;
  CHECKF(tfcc_model_load_file(rt, path, NULL, &m) == TFCC_OK, "%s: %s", path, tfcc_last_error());
  return m;
}

/* Models with several subgraphs: an update rebinds every subgraph (WHILE's body, a signature's
 * subgraph) in sessions created before it, and a file whose subgraphs differ is refused with a
 * message naming the subgraph and the difference. */
static void test_control_flow(tfcc_runtime *rt) {
  char dir[400], path[512];
  snprintf(dir, sizeof dir, "%s/tests/models/data/control_flow", tfcc_test_source_dir());
  snprintf(path, sizeof path, "%s/while_counter.tflite", dir);
  tfcc_model *m = NULL;
  CHECKF(tfcc_model_load_file(rt, path, NULL, &m) == TFCC_OK, "%s: %s", path, tfcc_last_error());
  if (!m) return;
  tfcc_session *s = NULL, *s2 = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  cf_check_while(s, 1.5f, 0.25f, "while_counter");
  snprintf(path, sizeof path, "%s/while_counter.w2.tflite", dir);
  tfcc_status st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_OK, "update while_counter: %s", tfcc_last_error());
  cf_check_while(s, 2.5f, -0.75f, "while_counter after the update");
  CHECK(tfcc_session_create(m, NULL, &s2) == TFCC_OK);
  cf_check_while(s2, 2.5f, -0.75f, "while_counter, a session created after the update");
  snprintf(path, sizeof path, "%s/while_counter.body_shape.tflite", dir);
  st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_ERR_INVALID_MODEL, "update with another body: %s", tfcc_status_str(st));
  const char *msg = tfcc_last_error();
  CHECKF(strstr(msg, "subgraph 2 (body): tensor") && strstr(msg, "(c): shape [1], model has []"),
         "message: %s", msg);
  printf("  refused: %s\n", msg);
  cf_check_while(s, 2.5f, -0.75f, "while_counter after a refused update");
  snprintf(path, sizeof path, "%s/if_nested.tflite", dir);
  st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(tfcc_last_error(), "subgraphs, model has 3"),
         "another model: %s", tfcc_last_error());
  /* fuzz63: the first weights back retire generation 1, on which both sessions' plans were
   * replanned (WHILE: subgraph plans). Replanning s and destroying s2 free those plans after
   * their generation's graph was freed: they read none of it (under ASan this was a
   * heap-use-after-free of the IR node in tfcc_exec_plan_free). */
  snprintf(path, sizeof path, "%s/while_counter.tflite", dir);
  st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_OK, "the first weights back: %s", tfcc_last_error());
  cf_check_while(s, 1.5f, 0.25f, "while_counter, its first weights back");
  tfcc_session_destroy(s);
  tfcc_session_destroy(s2);
  tfcc_model_release(m);

  /* signatures: encode (subgraph 0) and decode (subgraph 1), each session rebound */
  if (!(m = cf_load(rt, "signatures.tflite"))) return;
  tfcc_session *enc = NULL, *dec = NULL;
  CHECK(tfcc_session_create_for_signature(m, "encode", NULL, &enc) == TFCC_OK);
  CHECK(tfcc_session_create_for_signature(m, "decode", NULL, &dec) == TFCC_OK);
  const float e1[3] = {2.0f, -4.0f, 1.0f}, d1[3] = {2.0f, -1.0f, 1.5f};
  const float e3[3] = {6.0f, -12.0f, 3.0f}, d3[3] = {4.0f, 1.0f, 3.5f};
  if (enc && dec) {
    cf_check_sig(enc, e1, "encode");
    cf_check_sig(dec, d1, "decode");
    snprintf(path, sizeof path, "%s/signatures.w3.tflite", dir);
    CHECKF(tfcc_model_update_weights(m, path) == TFCC_OK, "update signatures: %s",
           tfcc_last_error());
    cf_check_sig(enc, e3, "encode after the update");
    cf_check_sig(dec, d3, "decode after the update");
  }
  tfcc_session_destroy(enc);
  tfcc_session_destroy(dec);
  tfcc_model_release(m);
}

/* A model whose signature cannot run (docs/runtime.md, "Subgraphs that cannot run") takes new
 * weights: encode's sessions see them, decode stays refused with the same cause, and a file
 * whose decode differs (a runnable ADD for the Flex op) is refused naming the operator. */
static void test_unrunnable_signature(tfcc_runtime *rt) {
  char dir[400], path[512];
  snprintf(dir, sizeof dir, "%s/tests/models/data/control_flow", tfcc_test_source_dir());
  tfcc_model *m = cf_load(rt, "signatures.flex_decode.tflite");
  if (!m) return;
  const char *cause = "cannot run: unsupported: CUSTOM:FlexRestore at subgraph 1 node 0";
  const float e1[3] = {2.0f, -4.0f, 1.0f}, e3[3] = {6.0f, -12.0f, 3.0f};
  tfcc_session *enc = NULL, *enc2 = NULL, *dec = NULL;
  CHECK(tfcc_session_create_for_signature(m, "encode", NULL, &enc) == TFCC_OK);
  if (enc) cf_check_sig(enc, e1, "flex_decode: encode");
  snprintf(path, sizeof path, "%s/signatures.flex_decode.w3.tflite", dir);
  tfcc_status st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_OK, "update flex_decode: %s", tfcc_last_error());
  if (enc) cf_check_sig(enc, e3, "flex_decode: encode after the update");
  CHECK(tfcc_session_create_for_signature(m, "encode", NULL, &enc2) == TFCC_OK);
  if (enc2) cf_check_sig(enc2, e3, "flex_decode: encode, a session created after the update");
  st = tfcc_session_create_for_signature(m, "decode", NULL, &dec);
  CHECKF(st == TFCC_ERR_UNSUPPORTED && !dec && strstr(tfcc_last_error(), cause),
         "flex_decode: decode after the update: %s", tfcc_last_error());
  snprintf(path, sizeof path, "%s/signatures.w3.tflite", dir);
  st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_ERR_INVALID_MODEL &&
             strstr(tfcc_last_error(), "operator 0: ADD v1, model has CUSTOM:FlexRestore v1"),
         "update flex_decode with a runnable decode: %s: %s", tfcc_status_str(st),
         tfcc_last_error());
  printf("  refused: %s\n", tfcc_last_error());
  if (enc) cf_check_sig(enc, e3, "flex_decode: encode after a refused update");
  tfcc_session_destroy(enc);
  tfcc_session_destroy(enc2);
  tfcc_model_release(m);

  /* decode's plan fails at load (a [4] constant added to a [3] input): the same file again */
  if (!(m = cf_load(rt, "signatures.bad_decode.tflite"))) return;
  snprintf(path, sizeof path, "%s/signatures.bad_decode.tflite", dir);
  st = tfcc_model_update_weights(m, path);
  CHECKF(st == TFCC_OK, "update bad_decode: %s", tfcc_last_error());
  enc = NULL;
  CHECK(tfcc_session_create_for_signature(m, "encode", NULL, &enc) == TFCC_OK);
  if (enc) cf_check_sig(enc, e1, "bad_decode: encode after the update");
  tfcc_session_destroy(enc);
  tfcc_model_release(m);
}

int main(void) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_level = TFCC_LOG_ERROR;
  tfcc_runtime *rt = NULL;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) return 1;
  const char *names[] = {"conv_2d_i8_3x3_same", "fully_connected_f32_2d",
                         "depthwise_conv_2d_f32_3x3_same_m1"};
  const char *others[] = {"conv_2d_i8_3x3_valid_s2_relu", "conv_2d_f32_3x3_same",
                          "conv_2d_f32_3x3_same"};
  const char *tmp = getenv("TFCC_BINARY_DIR");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    model_case c = {.name = names[i]};
    CHECKF(setup(&c, rt) == 0, "%s: setup", names[i]);
    if (!c.out_b) continue;
    snprintf(g_path_a, sizeof g_path_a, "%s/hot_update_%d_a.tflite", tmp ? tmp : "/tmp",
             (int)getpid());
    snprintf(g_path_b, sizeof g_path_b, "%s/hot_update_%d_b.tflite", tmp ? tmp : "/tmp",
             (int)getpid());
    CHECK(lc_write_file(g_path_a, c.a, c.size) && lc_write_file(g_path_b, c.b, c.size));
    test_basic(rt, &c);
    test_mismatch(rt, &c, others[i]);
    test_integrity(rt, &c);
    test_concurrent(rt, &c);
    unlink(g_path_a);
    unlink(g_path_b);
    teardown(&c);
  }
  test_control_flow(rt);
  test_unrunnable_signature(rt);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("lifecycle.hot_update");
}
