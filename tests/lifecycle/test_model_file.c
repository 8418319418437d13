/* A model file changed in place under a loaded model, and quantization validated at load.
 *
 * - Truncating (ftruncate to 0) or overwriting in place the file a model was loaded from must
 *   not change its results (it used to raise SIGBUS: operators read options from the mapping).
 * - Loading and hot-updating while another thread rewrites the file in place (as `cp` does:
 *   truncate, then write) gives the complete old or new content, or a clean error
 *   (TFCC_ERR_INTEGRITY, or TFCC_ERR_INVALID_MODEL for a file read consistently while only
 *   partly written): never a crash, never a torn result.
 * - Only a file declared immutable is left mapped (zero-copy).
 * - Scales that are NaN, infinite, zero, negative or denormal and zero points outside the
 *   stored type are refused at load, naming the tensor and the value; per-channel weights may
 *   have zero scales (pruned channels) and negative ones (mcunet), which TFLite runs. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/fb.h"
#include "format/fb_verify.h"
#include "format/tflite_schema.h"
#include "format/tflite_reader.h"
#include "npy_load.h"
#include "test_harness.h"
#include "lifecycle_util.h"

#define MAX_IO 4

typedef struct io_case {
  char label[96];
  char model[512];
  int n_in, n_out;
  test_npy in[MAX_IO], ref[MAX_IO];
} io_case;

static char g_tmp[512];

/* Conformance case tests/ops/conformance/NAME.{tflite,inK.npy,outK.npy}. */
static int conformance_case(io_case *c, const char *name) {
  memset(c, 0, sizeof *c);
  const char *dir = tfcc_test_source_dir();
  snprintf(c->label, sizeof c->label, "%s", name);
  snprintf(c->model, sizeof c->model, "%s/tests/ops/conformance/%s.tflite", dir, name);
  char p[600];
  for (int k = 0; k < MAX_IO; k++) {
    snprintf(p, sizeof p, "%s/tests/ops/conformance/%s.in%d.npy", dir, name, k);
    if (access(p, R_OK) != 0) break;
    if (test_npy_load(p, &c->in[c->n_in])) return -1;
    c->n_in++;
  }
  for (int k = 0; k < MAX_IO; k++) {
    snprintf(p, sizeof p, "%s/tests/ops/conformance/%s.out%d.npy", dir, name, k);
    if (access(p, R_OK) != 0) break;
    if (test_npy_load(p, &c->ref[c->n_out])) return -1;
    c->n_out++;
  }
  return c->n_in > 0 && c->n_out > 0 ? 0 : -1;
}

/* Shared model SHARED/NAME.tflite with TensorFlow Lite's outputs in SHARED/ref/NAME. */
static int shared_case(io_case *c, const char *shared, const char *name) {
  memset(c, 0, sizeof *c);
  snprintf(c->label, sizeof c->label, "%s", name);
  snprintf(c->model, sizeof c->model, "%s/models/%s.tflite", shared, name);
  char p[600];
  snprintf(p, sizeof p, "%s/models/ref/%s/input_0.npy", shared, name);
  if (test_npy_load(p, &c->in[0])) return -1;
  snprintf(p, sizeof p, "%s/models/ref/%s/output_0.npy", shared, name);
  if (test_npy_load(p, &c->ref[0])) return -1;
  c->n_in = c->n_out = 1;
  return 0;
}

static void free_case(io_case *c) {
  for (int k = 0; k < c->n_in; k++) test_npy_free(&c->in[k]);
  for (int k = 0; k < c->n_out; k++) test_npy_free(&c->ref[k]);
}

/* Output buffers sized from the session. */
typedef struct outs {
  int n;
  size_t bytes[MAX_IO];
  tfcc_dtype dtype[MAX_IO];
  uint8_t *buf[MAX_IO];
} outs;

static int outs_alloc(tfcc_session *s, int n, outs *o) {
  memset(o, 0, sizeof *o);
  o->n = n;
  for (int k = 0; k < n; k++) {
    tfcc_tensor_info oi;
    if (tfcc_session_output_info(s, k, &oi) != TFCC_OK) return -1;
    o->bytes[k] = oi.bytes;
    o->dtype[k] = oi.dtype;
    o->buf[k] = calloc(1, oi.bytes ? oi.bytes : 1);
    if (!o->buf[k]) return -1;
  }
  return 0;
}

static void outs_free(outs *o) {
  for (int k = 0; k < o->n; k++) free(o->buf[k]);
}

static bool outs_equal(const outs *a, const outs *b) {
  for (int k = 0; k < a->n; k++)
    if (a->bytes[k] != b->bytes[k] || memcmp(a->buf[k], b->buf[k], a->bytes[k]) != 0) return false;
  return true;
}

static tfcc_status run_case(tfcc_session *s, const io_case *c, outs *o) {
  const void *ins[MAX_IO];
  void *ob[MAX_IO];
  for (int k = 0; k < c->n_in; k++) ins[k] = c->in[k].data;
  for (int k = 0; k < o->n; k++) ob[k] = o->buf[k];
  tfcc_status st = tfcc_session_reset_state(s); /* LSTM state: every run from zero */
  return st == TFCC_OK ? tfcc_session_run(s, ins, ob) : st;
}

/* Output against TensorFlow Lite's: floats within 1e-4 relative (+1e-5 absolute), integers
 * within 1 (the conformance and shared-model tolerances are looser). */
static bool matches_ref(const outs *o, const io_case *c) {
  for (int k = 0; k < c->n_out; k++) {
    const test_npy *r = &c->ref[k];
    if (r->bytes != o->bytes[k]) return false;
    size_t n = r->bytes / (tfcc_dtype_size(r->dtype) ? tfcc_dtype_size(r->dtype) : 1);
    for (size_t i = 0; i < n; i++) {
      double x, y;
      switch (r->dtype) {
        case TFCC_FLOAT32: {
          float fx, fy;
          memcpy(&fx, o->buf[k] + 4 * i, 4);
          memcpy(&fy, (const uint8_t *)r->data + 4 * i, 4);
          if (!(fabs((double)fx - fy) <= 1e-5 + 1e-4 * fabs((double)fy))) return false;
          continue;
        }
        case TFCC_INT8: x = ((const int8_t *)o->buf[k])[i], y = ((const int8_t *)r->data)[i]; break;
        case TFCC_UINT8: x = o->buf[k][i], y = ((const uint8_t *)r->data)[i]; break;
        case TFCC_INT16: {
          int16_t a, b;
          memcpy(&a, o->buf[k] + 2 * i, 2);
          memcpy(&b, (const uint8_t *)r->data + 2 * i, 2);
          x = a, y = b;
          break;
        }
        default: return memcmp(o->buf[k], r->data, r->bytes) == 0;
      }
      if (fabs(x - y) > 1) return false;
    }
  }
  return true;
}

/* Is path mapped into this process? (/proc/self/maps names mapped files.) */
static bool is_mapped(const char *path) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return false;
  char line[1024];
  bool found = false;
  size_t n = strlen(path);
  while (!found && fgets(line, sizeof line, f)) {
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == ' ')) line[--l] = 0;
    found = l >= n && strcmp(line + l - n, path) == 0;
  }
  fclose(f);
  return found;
}

/* ---------------------------------------------------------------- truncation while loaded */

static void test_truncate_while_loaded(tfcc_runtime *rt, const io_case *c) {
  size_t size;
  uint8_t *bytes = tfcc_test_read_file(c->model, &size);
  CHECKF(bytes != NULL, "%s: cannot read", c->model);
  if (!bytes) return;
  CHECK(lc_write_file(g_tmp, bytes, size));
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, g_tmp, NULL, &m);
  CHECKF(st == TFCC_OK, "%s: %s", c->label, tfcc_last_error());
  if (st != TFCC_OK) {
    free(bytes);
    return;
  }
  CHECKF(!is_mapped(g_tmp), "%s: the model file stays mapped after a default load", c->label);
  tfcc_session *s = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  outs before, after;
  CHECK(outs_alloc(s, c->n_out, &before) == 0 && outs_alloc(s, c->n_out, &after) == 0);
  CHECK(run_case(s, c, &before) == TFCC_OK);
  CHECKF(matches_ref(&before, c), "%s: output differs from TensorFlow Lite's", c->label);

  /* `: > model.tflite`: the file is empty now. */
  int fd = open(g_tmp, O_RDWR);
  CHECK(fd >= 0 && ftruncate(fd, 0) == 0);
  CHECK(run_case(s, c, &after) == TFCC_OK);
  CHECKF(outs_equal(&before, &after), "%s: output changed after the file was truncated", c->label);
  /* A session created now reads only the model's memory too. */
  tfcc_session *s2 = NULL;
  CHECK(tfcc_session_create(m, NULL, &s2) == TFCC_OK);
  memset(after.buf[0], 0, after.bytes[0]);
  CHECK(s2 && run_case(s2, c, &after) == TFCC_OK && outs_equal(&before, &after));
  /* Overwritten in place with other bytes of the old size. */
  uint8_t *junk = malloc(size);
  memset(junk, 0xa5, size);
  CHECK(fd >= 0 && pwrite(fd, junk, size, 0) == (ssize_t)size);
  memset(after.buf[0], 0, after.bytes[0]);
  CHECK(run_case(s, c, &after) == TFCC_OK);
  CHECKF(outs_equal(&before, &after), "%s: output changed after the file was overwritten",
         c->label);
  if (fd >= 0) close(fd);
  free(junk);
  outs_free(&before);
  outs_free(&after);
  tfcc_session_destroy(s2);
  tfcc_session_destroy(s);
  tfcc_model_release(m);

  /* Declared immutable: mapped, zero-copy, same results. */
  CHECK(lc_write_file(g_tmp, bytes, size));
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.file_immutable = 1;
  CHECK(tfcc_model_load_file(rt, g_tmp, &mo, &m) == TFCC_OK);
  CHECKF(m && is_mapped(g_tmp), "%s: a file declared immutable is not mapped", c->label);
  if (m && tfcc_session_create(m, NULL, &s) == TFCC_OK) {
    CHECK(outs_alloc(s, c->n_out, &after) == 0);
    CHECK(run_case(s, c, &after) == TFCC_OK && matches_ref(&after, c));
    outs_free(&after);
    tfcc_session_destroy(s);
  }
  tfcc_model_release(m);
  CHECKF(!is_mapped(g_tmp), "%s: mapping left after release", c->label);
  free(bytes);
  unlink(g_tmp);
}

/* ---------------------------------------------------------------- rewrites while loading */

typedef struct rewriter {
  const char *path;
  const uint8_t *a, *b;
  size_t size;
  atomic_int stop;
  long rewrites;
} rewriter;

/* Rewrites the file in place as cp does (O_TRUNC, then writes), alternating a and b, in small
 * pieces, every third rewrite with yields in between, so that readers meet every state. */
static void *rewrite_loop(void *arg) {
  rewriter *r = arg;
  size_t piece = r->size / 5 + 1;
  while (!atomic_load(&r->stop)) {
    const uint8_t *src = (r->rewrites & 1) ? r->b : r->a;
    int fd = open(r->path, O_WRONLY | O_TRUNC);
    if (fd < 0) continue;
    for (size_t at = 0; at < r->size; at += piece) {
      size_t n = r->size - at < piece ? r->size - at : piece;
      if (pwrite(fd, src + at, n, (off_t)at) != (ssize_t)n) break;
      if (r->rewrites % 3 == 0) sched_yield(); /* some rewrites slow, some fast */
    }
    close(fd);
    r->rewrites++;
    sched_yield();
  }
  return NULL;
}

typedef struct runner {
  tfcc_model *m;
  const io_case *c;
  const outs *out_a, *out_b;
  atomic_int *stop;
  long runs, torn, errors;
} runner;

static void *run_loop(void *arg) {
  runner *w = arg;
  tfcc_session *s = NULL;
  outs o;
  if (tfcc_session_create(w->m, NULL, &s) != TFCC_OK || outs_alloc(s, w->c->n_out, &o) != 0) {
    w->errors++;
    tfcc_session_destroy(s);
    return NULL;
  }
  while (!atomic_load(w->stop)) {
    if (run_case(s, w->c, &o) != TFCC_OK) {
      w->errors++;
      continue;
    }
    w->runs++;
    if (!outs_equal(&o, w->out_a) && !outs_equal(&o, w->out_b)) w->torn++;
  }
  outs_free(&o);
  tfcc_session_destroy(s);
  return NULL;
}

/* Outputs of model bytes m on the case's inputs (for the variant's reference). */
static int outputs_of(tfcc_runtime *rt, const uint8_t *bytes, size_t size, const io_case *c,
                      outs *o) {
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  int rc = -1;
  if (tfcc_model_load_buffer(rt, bytes, size, NULL, &m) == TFCC_OK &&
      tfcc_session_create(m, NULL, &s) == TFCC_OK && outs_alloc(s, c->n_out, o) == 0 &&
      run_case(s, c, o) == TFCC_OK)
    rc = 0;
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  return rc;
}

/* Copy of model with its float and 8-bit constants changed (int32 ones, which may be shapes
 * or sizes, kept): the same graph with other weights. NULL on failure. */
static uint8_t *weights_variant(const uint8_t *model, size_t size) {
  tfcc_graph g;
  tfcc_err err = {0};
  if (tfcc_tflite_read(model, size, &g, &err) != TFCC_OK) return NULL;
  uint8_t *out = malloc(size);
  if (out) memcpy(out, model, size);
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  for (int32_t i = 0; out && i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *t = &sg->tensors[i];
    const uint8_t *d = t->data;
    if (!d || d < model || d + t->data_bytes > model + size) continue;
    uint8_t *p = out + (d - model);
    if (t->dtype == TFCC_FLOAT32)
      for (size_t k = 0; k + 4 <= t->data_bytes; k += 4) {
        float v;
        memcpy(&v, p + k, 4);
        v = v * -1.25f + 0.125f;
        memcpy(p + k, &v, 4);
      }
    else if (t->dtype == TFCC_INT8 || t->dtype == TFCC_UINT8)
      for (size_t k = 0; k < t->data_bytes; k++) p[k] = (uint8_t)(p[k] ^ 0x16);
  }
  tfcc_graph_free(&g);
  return out;
}

static bool clean_failure(tfcc_status st) {
  return st == TFCC_ERR_INTEGRITY || st == TFCC_ERR_INVALID_MODEL;
}

static void test_rewrite_races(tfcc_runtime *rt, const io_case *c, int iterations) {
  size_t size;
  uint8_t *a = tfcc_test_read_file(c->model, &size);
  uint8_t *b = a ? weights_variant(a, size) : NULL;
  CHECKF(a && b, "%s: cannot make a variant", c->label);
  if (!a || !b) {
    free(a);
    return;
  }
  outs out_a, out_b;
  CHECK(outputs_of(rt, a, size, c, &out_a) == 0 && outputs_of(rt, b, size, c, &out_b) == 0);
  CHECKF(!outs_equal(&out_a, &out_b), "%s: the variant gives the same output", c->label);
  CHECK(lc_write_file(g_tmp, a, size));

  /* 1. Loads while the file is rewritten. */
  rewriter wr = {.path = g_tmp, .a = a, .b = b, .size = size};
  atomic_init(&wr.stop, 0);
  pthread_t th;
  CHECK(pthread_create(&th, NULL, rewrite_loop, &wr) == 0);
  long ok = 0, refused = 0;
  for (int i = 0; i < iterations; i++) {
    tfcc_model *m = NULL;
    tfcc_status st = tfcc_model_load_file(rt, g_tmp, NULL, &m);
    if (st == TFCC_OK) {
      tfcc_session *s = NULL;
      outs o;
      CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK && outs_alloc(s, c->n_out, &o) == 0);
      CHECK(run_case(s, c, &o) == TFCC_OK);
      CHECKF(outs_equal(&o, &out_a) || outs_equal(&o, &out_b),
             "%s: a load during a rewrite gives a torn model", c->label);
      outs_free(&o);
      tfcc_session_destroy(s);
      tfcc_model_release(m);
      ok++;
    } else {
      CHECKF(clean_failure(st), "%s: load during a rewrite: %s: %s", c->label, tfcc_status_str(st),
             tfcc_last_error());
      refused++;
    }
  }
  atomic_store(&wr.stop, 1);
  pthread_join(th, NULL);
  fprintf(stderr, "%s: %d loads during %ld in-place rewrites: %ld complete, %ld refused cleanly\n",
          c->label, iterations, wr.rewrites, ok, refused);

  /* 2. Hot updates from the served file while it is rewritten, runs going on. */
  CHECK(lc_write_file(g_tmp, a, size));
  tfcc_model *m = NULL;
  CHECK(tfcc_model_load_file(rt, g_tmp, NULL, &m) == TFCC_OK);
  if (!m) goto out;
  atomic_int stop_runs;
  atomic_init(&stop_runs, 0);
  runner rn[2];
  pthread_t rth[2];
  for (int k = 0; k < 2; k++) {
    rn[k] = (runner){.m = m, .c = c, .out_a = &out_a, .out_b = &out_b, .stop = &stop_runs};
    CHECK(pthread_create(&rth[k], NULL, run_loop, &rn[k]) == 0);
  }
  wr.rewrites = 0;
  atomic_store(&wr.stop, 0);
  CHECK(pthread_create(&th, NULL, rewrite_loop, &wr) == 0);
  ok = refused = 0;
  for (int i = 0; i < iterations; i++) {
    tfcc_status st = tfcc_model_update_weights(m, g_tmp);
    if (st == TFCC_OK) {
      ok++;
    } else {
      CHECKF(clean_failure(st), "%s: update during a rewrite: %s: %s", c->label,
             tfcc_status_str(st), tfcc_last_error());
      refused++;
    }
  }
  atomic_store(&wr.stop, 1);
  pthread_join(th, NULL);
  /* The file truncated for good while runs go on. */
  CHECK(truncate(g_tmp, 0) == 0);
  usleep(20000);
  atomic_store(&stop_runs, 1);
  long runs = 0;
  for (int k = 0; k < 2; k++) {
    pthread_join(rth[k], NULL);
    CHECKF(rn[k].errors == 0 && rn[k].torn == 0, "%s: runner %d: %ld errors, %ld torn outputs",
           c->label, k, rn[k].errors, rn[k].torn);
    runs += rn[k].runs;
  }
  CHECK(runs > 0);
  fprintf(
      stderr,
      "%s: %d updates during %ld in-place rewrites: %ld published, %ld refused cleanly; %ld runs\n",
      c->label, iterations, wr.rewrites, ok, refused, runs);
  /* A final update from a complete file works. */
  CHECK(lc_write_file(g_tmp, b, size));
  CHECKF(tfcc_model_update_weights(m, g_tmp) == TFCC_OK, "%s", tfcc_last_error());
  tfcc_session *s = NULL;
  outs o;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK && outs_alloc(s, c->n_out, &o) == 0);
  CHECK(run_case(s, c, &o) == TFCC_OK && outs_equal(&o, &out_b));
  outs_free(&o);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
out:
  outs_free(&out_a);
  outs_free(&out_b);
  free(a);
  free(b);
  unlink(g_tmp);
}

/* ---------------------------------------------------------------- quantization mutants */

/* Locates tensor ti's quantization scale and zero_point vectors inside a model's bytes. */
static int quant_vectors(uint8_t *model, size_t size, int32_t ti, uint8_t **scale, uint8_t **zp,
                         uint32_t *count) {
  tfcc_err err = {0};
  tfcc_fb_table root;
  if (tfcc_fbv_root(model, size, &root, &err) != TFCC_OK) return -1;
  tfcc_fb_vec subgraphs, tensors, sv, zv;
  if (!tfcc_fb_vec_field(&root, TFL_MODEL_SUBGRAPHS, 4, &subgraphs) || subgraphs.count < 1)
    return -1;
  tfcc_fb_table sg = tfcc_fb_vec_table(&root, &subgraphs, 0);
  if (!tfcc_fb_vec_field(&sg, TFL_SUBGRAPH_TENSORS, 4, &tensors) || (uint32_t)ti >= tensors.count)
    return -1;
  tfcc_fb_table t = tfcc_fb_vec_table(&sg, &tensors, (uint32_t)ti);
  tfcc_fb_table q = tfcc_fb_table_field(&t, TFL_TENSOR_QUANTIZATION);
  if (!q.buf || !tfcc_fb_vec_field(&q, TFL_QUANT_SCALE, 4, &sv) ||
      !tfcc_fb_vec_field(&q, TFL_QUANT_ZERO_POINT, 8, &zv) || sv.count < 1 || zv.count < 1)
    return -1;
  *scale = model + (sv.data - model);
  *zp = model + (zv.data - model);
  *count = sv.count;
  return 0;
}

typedef struct mutant {
  bool is_scale;
  float scale;
  int64_t zp;
  const char *needle; /* in the message */
} mutant;

/* The bytes of conformance model `name` (malloc'ed), or NULL after a failed check. */
static uint8_t *read_conformance_model(const char *name, size_t *size) {
  char path[600];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", tfcc_test_source_dir(), name);
  uint8_t *b = tfcc_test_read_file(path, size);
  CHECKF(b != NULL, "%s", path);
  return b;
}

/* Each mutant of tensor ti (its first scale or zero point) is refused naming the tensor and
 * the value; the unchanged model and a valid change load. */
static void test_quant_mutants(tfcc_runtime *rt, const char *name, int32_t ti, const mutant *mu,
                               int n) {
  size_t size;
  uint8_t *orig = read_conformance_model(name, &size);
  if (!orig) return;
  uint8_t *mod = malloc(size);
  uint8_t *sp, *zp;
  uint32_t count;
  memcpy(mod, orig, size);
  int located = quant_vectors(mod, size, ti, &sp, &zp, &count);
  CHECKF(located == 0, "%s: tensor %d has no quantization", name, (int)ti);
  tfcc_model *m = NULL;
  CHECKF(tfcc_model_load_buffer(rt, orig, size, NULL, &m) == TFCC_OK, "%s: %s", name,
         tfcc_last_error());
  tfcc_model_release(m);
  char prefix[64];
  snprintf(prefix, sizeof prefix, "tensor %d (", (int)ti);
  for (int i = 0; located == 0 && i < n; i++) {
    memcpy(mod, orig, size);
    if (mu[i].is_scale)
      memcpy(sp, &mu[i].scale, 4);
    else
      memcpy(zp, &mu[i].zp, 8);
    m = NULL;
    tfcc_status st = tfcc_model_load_buffer(rt, mod, size, NULL, &m);
    const char *msg = tfcc_last_error();
    CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(msg, prefix) && strstr(msg, mu[i].needle),
           "%s mutant %d (%s): %s: %s", name, i, mu[i].needle, tfcc_status_str(st), msg);
    tfcc_model_release(m);
  }
  free(mod);
  free(orig);
}

static int32_t find_tensor(tfcc_runtime *rt, const char *name, bool want_input, bool want_const) {
  char path[600];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", tfcc_test_source_dir(), name);
  size_t size;
  uint8_t *b = tfcc_test_read_file(path, &size);
  if (!b) return -1;
  (void)rt;
  tfcc_graph g;
  tfcc_err err = {0};
  int32_t found = -1;
  if (tfcc_tflite_read(b, size, &g, &err) == TFCC_OK) {
    const tfcc_ir_subgraph *sg = &g.subgraphs[0];
    if (want_input) found = sg->n_inputs > 0 ? sg->inputs[sg->n_inputs - 1] : -1;
    for (int32_t i = 0; want_const && found < 0 && i < sg->n_tensors; i++)
      if (sg->tensors[i].data && sg->tensors[i].quant.count > 0 &&
          (sg->tensors[i].dtype == TFCC_INT8 || sg->tensors[i].dtype == TFCC_UINT8))
        found = i;
    tfcc_graph_free(&g);
  }
  free(b);
  return found;
}

/* CONV_2D with int8 input and a nonzero filter zero point (a QAT export wrote -127 for one
 * channel of a portrait-segmentation model, sweep13): TensorFlow Lite's conv.cc refuses the node
 * (both its builds); tfcc refused nothing and computed as if the zero point were 0. Now an
 * invalid model naming the channel; the same zero point on FULLY_CONNECTED's per-tensor int8
 * weights stays a filter offset (TFLite runs it). */
static void test_conv_filter_zero_point(tfcc_runtime *rt) {
  size_t size;
  uint8_t *mod = read_conformance_model("conv_2d_i8_3x3_same", &size);
  if (!mod) return;
  tfcc_graph g;
  tfcc_err err = {0};
  CHECK(tfcc_tflite_read(mod, size, &g, &err) == TFCC_OK);
  int32_t wt = g.subgraphs[0].nodes[0].inputs[1];
  tfcc_graph_free(&g);
  uint8_t *sp, *zp;
  uint32_t count;
  CHECK(quant_vectors(mod, size, wt, &sp, &zp, &count) == 0 && count > 1);
  const int64_t z = -127;
  memcpy(zp + 8, &z, 8); /* channel 1 */
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_buffer(rt, mod, size, NULL, &m);
  const char *msg = tfcc_last_error();
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(msg, "CONV_2D") &&
             strstr(msg, "filter zero point 1 of") && strstr(msg, "is -127"),
         "conv filter zero point -127: %s: %s", tfcc_status_str(st), msg);
  tfcc_model_release(m);
  free(mod);
}

/* A per-channel weight scale of 0 is what TFLite's quantizer writes for an all-zero (pruned)
 * channel: it loads, and that channel outputs the output zero point (multiplier 0), as in
 * TFLite; the other channels keep TFLite's results. A zero scale on an activation is refused
 * (above). */
static void test_zero_channel(tfcc_runtime *rt) {
  io_case c;
  if (conformance_case(&c, "conv_2d_i8_3x3_same") != 0) {
    CHECK(0);
    return;
  }
  size_t size;
  uint8_t *mod = tfcc_test_read_file(c.model, &size);
  tfcc_graph g;
  tfcc_err err = {0};
  CHECK(mod && tfcc_tflite_read(mod, size, &g, &err) == TFCC_OK);
  if (!mod) return;
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  int32_t wt = sg->nodes[0].inputs[1];
  const tfcc_ir_tensor *w = &sg->tensors[wt];
  CHECKF(w->quant.count == w->dims[0] && w->quant.count > 1, "weights are not per-channel");
  /* zero channel 0's weights in place, then its scale (and the bias's, if per-channel) */
  size_t per_channel = w->data_bytes / (size_t)w->dims[0];
  memset(mod + ((const uint8_t *)w->data - mod), 0, per_channel);
  int32_t bt = sg->nodes[0].n_inputs > 2 ? sg->nodes[0].inputs[2] : -1;
  tfcc_graph_free(&g);
  uint8_t *sp, *zp;
  uint32_t count;
  const float zero = 0.0f;
  CHECK(quant_vectors(mod, size, wt, &sp, &zp, &count) == 0);
  memcpy(sp, &zero, 4);
  if (bt >= 0 && quant_vectors(mod, size, bt, &sp, &zp, &count) == 0 && count > 1)
    memcpy(sp, &zero, 4);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_model_load_buffer(rt, mod, size, NULL, &m);
  CHECKF(st == TFCC_OK, "zero channel scale: %s", tfcc_last_error());
  outs o;
  if (st == TFCC_OK && tfcc_session_create(m, NULL, &s) == TFCC_OK && outs_alloc(s, 1, &o) == 0) {
    CHECK(run_case(s, &c, &o) == TFCC_OK);
    tfcc_tensor_info oi;
    tfcc_session_output_info(s, 0, &oi);
    int32_t ch = oi.dims[oi.rank - 1], ozp = oi.zero_points[0];
    const int8_t *got = (const int8_t *)o.buf[0], *ref = (const int8_t *)c.ref[0].data;
    int bad0 = 0, bad_rest = 0;
    for (size_t i = 0; i < o.bytes[0]; i++) {
      if (i % (size_t)ch == 0)
        bad0 += got[i] != ozp;
      else
        bad_rest += abs(got[i] - ref[i]) > 1;
    }
    CHECKF(bad0 == 0 && bad_rest == 0,
           "zero channel: %d channel-0 outputs differ from the zero point, %d others from TFLite",
           bad0, bad_rest);
    outs_free(&o);
  }
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  free(mod);
  free_case(&c);
}

/* Model `name` (its bytes mod, freed here) with tensor ti's per-tensor scale set to `scale`:
 * loads when want_ok, else is refused with a message holding needle (and needle2 if given). */
static void rescaled_load(tfcc_runtime *rt, const char *name, uint8_t *mod, size_t size, int32_t ti,
                          float scale, bool want_ok, const char *needle, const char *needle2) {
  uint8_t *sp, *zp;
  uint32_t count;
  CHECK(quant_vectors(mod, size, ti, &sp, &zp, &count) == 0 && count == 1);
  memcpy(sp, &scale, 4);
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_buffer(rt, mod, size, NULL, &m);
  const char *msg = tfcc_last_error();
  if (want_ok)
    CHECKF(st == TFCC_OK, "%s: scale %g on tensor %d: %s", name, (double)scale, (int)ti, msg);
  else
    CHECKF(
        st == TFCC_ERR_INVALID_MODEL && strstr(msg, needle) && (!needle2 || strstr(msg, needle2)),
        "%s: scale %g on tensor %d (%s%s%s): %s: %s", name, (double)scale, (int)ti, needle,
        needle2 ? ", " : "", needle2 ? needle2 : "", tfcc_status_str(st), msg);
  tfcc_model_release(m);
  free(mod);
}

/* Tensor ti of conformance model `name` given a per-tensor scale of 0 and (zero_data) all its
 * stored bytes 0 (its zero point is 0): loads when want_ok, else is refused with `needle`. */
static void zero_scale_mutant(tfcc_runtime *rt, const char *name, int32_t ti, bool zero_data,
                              bool want_ok, const char *needle) {
  size_t size;
  uint8_t *mod = read_conformance_model(name, &size);
  if (!mod) return;
  tfcc_graph g;
  tfcc_err err = {0};
  CHECK(tfcc_tflite_read(mod, size, &g, &err) == TFCC_OK);
  const tfcc_ir_tensor *x = &g.subgraphs[0].tensors[ti];
  CHECKF(x->data && x->quant.count == 1 && x->quant.zero_point[0] == 0,
         "%s: tensor %d is no per-tensor constant with zero point 0", name, (int)ti);
  if (zero_data && x->data) memset(mod + ((const uint8_t *)x->data - mod), 0, x->data_bytes);
  if (!zero_data && x->data) mod[(const uint8_t *)x->data - mod] = 1; /* a value off the zp */
  tfcc_graph_free(&g);
  rescaled_load(rt, name, mod, size, ti, 0.0f, want_ok, "scale 0 is 0", needle);
}

/* A per-tensor scale of 0 on a constant (TFLite's quantizer writes it for an all-zero int16
 * constant that QUANTIZE requantizes: neuralSPOT's mut_model_data, which TFLite runs) loads
 * there only: on an all-zero-point constant read as input 0 of QUANTIZE
 * (conformance quantize_i16_zero_scale_const_concat checks its outputs); a value other than
 * the zero point, or a reader that divides by the scale, is refused as any other zero scale. */
static void test_zero_scale_constant(tfcc_runtime *rt) {
  const char *q = "quantize_i16_zero_scale_const_concat";
  zero_scale_mutant(rt, q, 1, true, true, NULL);
  zero_scale_mutant(rt, q, 1, false, false, "a value other than its zero point");
  /* FULLY_CONNECTED's per-tensor int8 weights, zeroed: a reader other than QUANTIZE */
  zero_scale_mutant(rt, "fully_connected_i8_2d", 1, true, false,
                    "read by an operator other than QUANTIZE");
}

/* Tensor ti of conformance model `name` given the per-tensor scale `scale`: loads when want_ok,
 * else is refused with `needle`. */
static void scale_mutant(tfcc_runtime *rt, const char *name, int32_t ti, float scale, bool want_ok,
                         const char *needle) {
  size_t size;
  uint8_t *mod = read_conformance_model(name, &size);
  if (mod) rescaled_load(rt, name, mod, size, ti, scale, want_ok, needle, NULL);
}

/* A positive denormal scale on an activation (TFLite's quantizer writes it for the product of
 * a zero-scale constant: AmbiqAI's nnse / nnsp LSTM, which TFLite runs) loads there only: on
 * the output of a MUL by a zero-scale constant, read only by ADD (conformance
 * mul_add_i16_zero_scale_const_denormal checks its outputs; tensors x 0, y 1, c 2, m 3, o 4). */
static void test_denormal_scale_product(tfcc_runtime *rt) {
  const char *n = "mul_add_i16_zero_scale_const_denormal";
  const float denormal = 0x1p-141f;
  scale_mutant(rt, n, 3, denormal, true, NULL);
  /* the constant's scale normal: the product's multiplier is no longer 0 */
  scale_mutant(rt, n, 2, 0x1p-15f, false, "not the output of a MUL by a zero-scale constant");
  /* a subgraph output with a denormal scale */
  scale_mutant(rt, n, 4, denormal, false, "a subgraph output");
  /* a subgraph input */
  scale_mutant(rt, n, 1, denormal, false, "(denormal)");
  /* QUANTIZE's output (read by CONCATENATION): tensors x 0, c 1, cq 2, y 3 */
  scale_mutant(rt, "quantize_i16_zero_scale_const_concat", 2, denormal, false,
               "not the output of a MUL by a zero-scale constant");
}

/* The byte offset of scalar field `field` of table t in its buffer, or 0 when it is absent. */
static size_t fb_field_pos(const tfcc_fb_table *t, int field) {
  int32_t so;
  uint16_t vlen, off;
  memcpy(&so, t->buf + t->pos, 4);
  const size_t vt = (size_t)((int64_t)t->pos - so);
  memcpy(&vlen, t->buf + vt, 2);
  if (4 + 2 * (size_t)field + 2 > vlen) return 0;
  memcpy(&off, t->buf + vt + 4 + 2 * (size_t)field, 2);
  return off ? t->pos + off : 0;
}

/* gtcrn57: conformance model `name` with its operator code `from` made `to` (the int8 and the
 * int32 code); loads, or is refused with `needle` (TFCC_ERR_INVALID_MODEL). */
static void recoded_load(tfcc_runtime *rt, const char *name, int32_t from, int32_t to, bool want_ok,
                         const char *needle) {
  size_t size;
  uint8_t *mod = read_conformance_model(name, &size);
  if (!mod) return;
  tfcc_err err = {0};
  tfcc_fb_table root;
  tfcc_fb_vec codes;
  int n = 0;
  if (tfcc_fbv_root(mod, size, &root, &err) == TFCC_OK &&
      tfcc_fb_vec_field(&root, TFL_MODEL_OPERATOR_CODES, 4, &codes))
    for (uint32_t i = 0; i < codes.count; i++) {
      tfcc_fb_table oc = tfcc_fb_vec_table(&root, &codes, i);
      const size_t d = fb_field_pos(&oc, TFL_OPCODE_DEPRECATED_BUILTIN_CODE),
                   c = fb_field_pos(&oc, TFL_OPCODE_BUILTIN_CODE);
      if (d && (int8_t)mod[d] == from) mod[d] = (uint8_t)(int8_t)to, n++;
      if (c && tfcc_fb_i32(&oc, TFL_OPCODE_BUILTIN_CODE, 0) == from) memcpy(mod + c, &to, 4), n++;
    }
  CHECKF(n == 2, "%s: operator code %d found %d times", name, (int)from, n);
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_buffer(rt, mod, size, NULL, &m);
  const char *msg = tfcc_last_error();
  if (want_ok)
    CHECKF(st == TFCC_OK, "%s: code %d -> %d: %s", name, (int)from, (int)to, msg);
  else
    CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(msg, needle), "%s: code %d -> %d (%s): %s: %s",
           name, (int)from, (int)to, needle, tfcc_status_str(st), msg);
  tfcc_model_release(m);
  free(mod);
}

/* gtcrn57: the same product read by SUB (sub.cc's general path flushes its multiplier to 0 as
 * add.cc's: conformance mul_sub_i16 / _i8_zero_scale_const_denormal, tensors x 0, y 1, c 2,
 * m 3, o 4, p 5) loads; read by another operator (the SUBs made MAXIMUMs, whose TFLite result
 * is not checked) it is refused, naming why; and an int16 ADD on the power-of-two path
 * (pot_scale_int16 true, zero points 0, every scale a power of two) is refused by the operator:
 * TFLite's Add16 would shift by 129 bits. */
static void test_denormal_scale_readers(tfcc_runtime *rt) {
  scale_mutant(rt, "mul_sub_i16_zero_scale_const_denormal", 3, 0x1p-141f, true, NULL);
  scale_mutant(rt, "mul_sub_i8_zero_scale_const_denormal", 3, 0x1p-140f, true, NULL);
  recoded_load(rt, "mul_sub_i16_zero_scale_const_denormal", 41, 41, true, NULL);
  recoded_load(rt, "mul_sub_i16_zero_scale_const_denormal", 41, 55, false,
               "read by an operator other than ADD or SUB");
  recoded_load(rt, "mul_sub_i8_zero_scale_const_denormal", 41, 57, false,
               "read by an operator other than ADD or SUB");
  size_t size;
  uint8_t *mod = read_conformance_model("mul_add_i16_zero_scale_const_denormal", &size);
  if (!mod) return;
  tfcc_err err = {0};
  tfcc_fb_table root;
  tfcc_fb_vec sgs, ops;
  size_t pot = 0;
  if (tfcc_fbv_root(mod, size, &root, &err) == TFCC_OK &&
      tfcc_fb_vec_field(&root, TFL_MODEL_SUBGRAPHS, 4, &sgs) && sgs.count > 0) {
    tfcc_fb_table sg = tfcc_fb_vec_table(&root, &sgs, 0);
    if (tfcc_fb_vec_field(&sg, TFL_SUBGRAPH_OPERATORS, 4, &ops) && ops.count == 2) {
      tfcc_fb_table add = tfcc_fb_vec_table(&sg, &ops, 1);
      tfcc_fb_table opt = tfcc_fb_table_field(&add, TFL_OP_BUILTIN_OPTIONS);
      if (opt.buf) pot = fb_field_pos(&opt, 1); /* AddOptions.pot_scale_int16 */
    }
  }
  CHECKF(pot && mod[pot] == 0, "mul_add_i16_zero_scale_const_denormal: no pot_scale_int16 false");
  if (pot) mod[pot] = 1;
  const float y_scale = 0x1p-14f, o_scale = 0x1p-12f;
  uint8_t *sp, *zp;
  uint32_t count;
  int32_t zero = 0;
  for (int32_t ti = 1; ti <= 4; ti += 3) { /* y, o: power-of-two scales, zero points 0 */
    CHECK(quant_vectors(mod, size, ti, &sp, &zp, &count) == 0 && count == 1);
    memcpy(sp, ti == 1 ? &y_scale : &o_scale, 4);
    memcpy(zp, &zero, 4), memset(zp + 4, 0, 4);
  }
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_model_load_buffer(rt, mod, size, NULL, &m);
  if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
  const char *msg = tfcc_last_error();
  CHECKF(st == TFCC_ERR_UNSUPPORTED && strstr(msg, "power-of-two path") &&
             strstr(msg, "denormal input scale") && strstr(msg, "129 bits"),
         "ADD pot_scale_int16 on a denormal input: %s: %s", tfcc_status_str(st), msg);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  free(mod);
}

/* A negative per-channel weight scale (mcunet's converter folds negative batch-norm gammas into
 * them) loads: TFLite's per-channel kernels run the negative multiplier (bit-exact results in
 * the conformance cases *_neg_channel_scale). */
static void test_negative_channel_scale(tfcc_runtime *rt, const char *name, int32_t ti) {
  size_t size;
  uint8_t *mod = read_conformance_model(name, &size);
  if (!mod) return;
  uint8_t *sp, *zp;
  uint32_t count;
  if (quant_vectors(mod, size, ti, &sp, &zp, &count) == 0 && count > 1) {
    float s;
    memcpy(&s, sp, 4);
    s = -s;
    memcpy(sp, &s, 4);
    tfcc_model *m = NULL;
    CHECKF(tfcc_model_load_buffer(rt, mod, size, NULL, &m) == TFCC_OK,
           "%s: negative channel scale: %s", name, tfcc_last_error());
    tfcc_model_release(m);
  } else {
    CHECKF(0, "%s: tensor %d is not per-channel", name, (int)ti);
  }
  free(mod);
}

static void test_quantization(tfcc_runtime *rt) {
  const float denormal = 1e-40f, nan_ = NAN, inf = INFINITY;
  const mutant scale_and_int8_zp[] = {
      {true, nan_, 0, "nan"},    {true, inf, 0, "inf"},        {true, -inf, 0, "infinite"},
      {true, 0.0f, 0, "zero"},   {true, -0.5f, 0, "negative"}, {true, denormal, 0, "denormal"},
      {false, 0, 256, "is 256"}, {false, 0, 1000, "is 1000"},  {false, 0, -129, "is -129"},
  };
  const int n8 = (int)(sizeof scale_and_int8_zp / sizeof scale_and_int8_zp[0]);
  /* CONCATENATION inputs (the UBSan report), int8 and uint8 */
  int32_t t = find_tensor(rt, "concatenation_i8_axis1", true, false);
  CHECK(t >= 0);
  test_quant_mutants(rt, "concatenation_i8_axis1", t, scale_and_int8_zp, n8);
  const mutant u8_zp[] = {
      {false, 0, 256, "is 256"}, {false, 0, -1, "is -1"}, {true, nan_, 0, "nan"}};
  t = find_tensor(rt, "concatenation_u8_axis1", true, false);
  CHECK(t >= 0);
  test_quant_mutants(rt, "concatenation_u8_axis1", t, u8_zp, 3);
  /* per-channel weights of a convolution: all but a zero scale (see test_zero_channel) and a
   * negative one (below) */
  const mutant weights[] = {
      {true, nan_, 0, "nan"},           {true, inf, 0, "inf"},
      {true, -inf, 0, "infinite"},      {true, denormal, 0, "denormal"},
      {true, -denormal, 0, "negative"}, {false, 0, 256, "is 256"},
      {false, 0, 1000, "is 1000"},      {false, 0, -129, "is -129"},
  };
  t = find_tensor(rt, "conv_2d_i8_3x3_same", false, true);
  CHECK(t >= 0);
  test_quant_mutants(rt, "conv_2d_i8_3x3_same", t, weights,
                     (int)(sizeof weights / sizeof weights[0]));
  test_negative_channel_scale(rt, "conv_2d_i8_3x3_same", t);
  /* an int16 activation: zero points within int16 */
  const mutant i16_zp[] = {{false, 0, 40000, "is 40000"}, {true, denormal, 0, "denormal"}};
  t = find_tensor(rt, "concatenation_i16_axis1", true, false);
  CHECK(t >= 0);
  test_quant_mutants(rt, "concatenation_i16_axis1", t, i16_zp, 2);
}

int main(void) {
  /* tmpfs where there is one: an in-place rewrite there takes ~0.1 ms (ext4: ~6 ms), so
   * loads and updates meet many rewrites */
  const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(g_tmp, sizeof g_tmp, "%s/tfcc_model_file_%d.tflite", dir, (int)getpid());
  tfcc_runtime *rt = NULL;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) return 1;
  /* operators that read options at run time (RESIZE_*), several inputs, integer kernels */
  const char *names[] = {"resize_bilinear_f32_half_pixel", "resize_nearest_neighbor_u8_up",
                         "concatenation_i8_axis1", "conv_2d_i8_3x3_same"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    io_case c;
    CHECKF(conformance_case(&c, names[i]) == 0, "%s: case files", names[i]);
    test_truncate_while_loaded(rt, &c);
    if (i == 3) test_rewrite_races(rt, &c, 300);
    free_case(&c);
  }
  /* UNIDIRECTIONAL_SEQUENCE_LSTM (the served model of the report) */
  const char *shared = tfcc_test_shared_dir();
  if (shared) {
    io_case c;
    CHECKF(shared_case(&c, shared, "mnist_lstm_float") == 0, "mnist_lstm_float: case files");
    test_truncate_while_loaded(rt, &c);
    test_rewrite_races(rt, &c, 200);
    free_case(&c);
  }
  test_quantization(rt);
  test_zero_channel(rt);
  test_zero_scale_constant(rt);
  test_denormal_scale_product(rt);
  test_denormal_scale_readers(rt);
  test_conv_filter_zero_point(rt);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("test_model_file");
}
