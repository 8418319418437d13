/* Shared by tests/models/test_passes_equivalence*.c (split in two to keep each test short).
 *
 * Graph passes change nothing observable. Every operator conformance model and every real model
 * in ../shared/models runs on the same inputs three ways:
 *   on:    all passes (the default);
 *   base:  all passes off except fold_constants;
 *   off:   all passes off.
 * on vs base (what the rewriting passes do): quantized / integer / bool outputs byte-identical,
 * float32 within 1e-5 * max(1, |base|) (the conformance suite's tolerance). Folding batch norm
 * into weights would change float rounding, but no model here has an unfolded batch norm; its
 * own tolerance is tested in tests/graph/test_pass_fold_batch_norm.c.
 * on vs off: quantized outputs byte-identical; float32 within 1e-3 * max(1, |off|) (the shared
 * models' TFLite tolerance), because without folded constants float convolutions cannot use the
 * packed fast kernels (weights from a float16 DEQUANTIZE are not model constants) and run the
 * reference kernels, which sum in another order.
 * Where the rewriting passes changed a real model, the same file is also applied as a hot weight
 * update (which runs the same passes) and must give the same outputs.
 * Also checks the memory plan on the real models: arena <= 1.1 x the live-tensor lower bound,
 * and prints what the passes and the plan's buffer sharing did. */
#ifndef TFCC_TEST_PASSES_EQUIVALENCE_H
#define TFCC_TEST_PASSES_EQUIVALENCE_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_load.h"
#include "runtime/internal.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static tfcc_runtime *g_rt;

#define BASE_PASSES_OFF (TFCC_PASS_ALL & ~TFCC_PASS_FOLD_CONSTANTS)

/* Under sanitizers the all-off runs of the real models (reference kernels, the slow part) are
 * skipped: the pass equivalence proper is the on vs base comparison. */
#if defined(__SANITIZE_ADDRESS__)
#define EQUIV_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define EQUIV_SANITIZED 1
#endif
#endif
#ifndef EQUIV_SANITIZED
#define EQUIV_SANITIZED 0
#endif

typedef struct outputs {
  int n;
  void *data[8];
  size_t bytes[8];
  tfcc_dtype dtype[8];
  int live_nodes;
  tfcc_memory_info mem;
  int32_t views, inplace;
} outputs;

/* True if the rewriting passes (not only the constant folder) change the model at `path`. */
static bool on_live_differs(const char *path, int base_live) {
  tfcc_model *m = NULL;
  if (tfcc_model_load_file(g_rt, path, NULL, &m) != TFCC_OK) return false;
  const tfcc_ir_subgraph *sg = &m->graph.subgraphs[0];
  int live = 0;
  for (int32_t i = 0; i < sg->n_nodes; i++) live += !sg->nodes[i].removed;
  tfcc_model_release(m);
  return live != base_live;
}

static void outputs_free(outputs *o) {
  for (int i = 0; i < o->n; i++) free(o->data[i]);
  memset(o, 0, sizeof *o);
}

static int run(const char *path, uint32_t disabled, bool hot_update, test_npy *ins, int n_ins,
               outputs *res) {
  memset(res, 0, sizeof *res);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = disabled;
  tfcc_model *m = NULL;
  if (tfcc_model_load_file(g_rt, path, &mo, &m) != TFCC_OK) {
    CHECKF(0, "%s: load: %s", path, tfcc_last_error());
    return -1;
  }
  const tfcc_ir_subgraph *sg = &m->graph.subgraphs[0];
  for (int32_t i = 0; i < sg->n_nodes; i++) res->live_nodes += !sg->nodes[i].removed;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, NULL, &s);
  tfcc_model_release(m);
  if (st != TFCC_OK) {
    CHECKF(0, "%s: session: %s", path, tfcc_last_error());
    return -1;
  }
  int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  const void *in_ptrs[8];
  void *out_ptrs[8];
  int rc = 0;
  if (ni > 8 || no > 8 || ni != n_ins) {
    CHECKF(0, "%s: %d inputs (%d given), %d outputs", path, ni, n_ins, no);
    rc = -1;
  }
  for (int i = 0; i < ni && rc == 0; i++) in_ptrs[i] = ins[i].data;
  for (int i = 0; i < no && rc == 0; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, i, &info);
    res->data[i] = calloc(1, info.bytes ? info.bytes : 1);
    res->bytes[i] = info.bytes;
    res->dtype[i] = info.dtype;
    out_ptrs[i] = res->data[i];
    res->n = i + 1;
  }
  if (rc == 0 && (st = tfcc_session_run(s, in_ptrs, out_ptrs)) != TFCC_OK) {
    CHECKF(0, "%s: run: %s", path, tfcc_session_last_error(s));
    rc = -1;
  }
  if (rc == 0 && hot_update) {
    /* The same file as a new weights generation goes through the same passes and must give the
     * same graph and outputs (the session holds the model reference). */
    st = tfcc_model_update_weights(m, path);
    CHECKF(st == TFCC_OK, "%s: update weights after passes: %s", path, tfcc_last_error());
    void *again[8];
    for (int i = 0; i < no; i++) again[i] = calloc(1, res->bytes[i] ? res->bytes[i] : 1);
    if (st == TFCC_OK && (st = tfcc_session_run(s, in_ptrs, again)) != TFCC_OK)
      CHECKF(0, "%s: run after update: %s", path, tfcc_session_last_error(s));
    for (int i = 0; i < no; i++) {
      if (st == TFCC_OK)
        CHECKF(memcmp(again[i], res->data[i], res->bytes[i]) == 0,
               "%s: output %d differs after update", path, i);
      free(again[i]);
    }
  }
  tfcc_session_memory_info(s, &res->mem);
  res->views = s->plan.n_views;
  res->inplace = s->plan.n_inplace;
  tfcc_session_destroy(s);
  return rc;
}

/* Returns the number of differing outputs (and CHECKs). Floats: |d| <= tol * max(1, |off|). */
static int compare(const char *name, const outputs *on, const outputs *off, float tol) {
  int bad = 0;
  CHECKF(on->n == off->n, "%s: %d outputs vs %d", name, on->n, off->n);
  for (int i = 0; i < on->n && i < off->n; i++) {
    CHECKF(on->bytes[i] == off->bytes[i] && on->dtype[i] == off->dtype[i],
           "%s: output %d shape/dtype differ", name, i);
    if (on->bytes[i] != off->bytes[i]) {
      bad++;
      continue;
    }
    if (on->dtype[i] == TFCC_FLOAT32) {
      size_t n = on->bytes[i] / 4, over = 0;
      const float *a = on->data[i], *b = off->data[i];
      for (size_t k = 0; k < n; k++) {
        if ((isnan(a[k]) && isnan(b[k])) || a[k] == b[k])
          continue; /* NaN for NaN, equal infinities */
        if (!(fabsf(a[k] - b[k]) <= tol * fmaxf(1.0f, fabsf(b[k])))) over++;
      }
      CHECKF(over == 0, "%s: output %d: %zu of %zu floats differ beyond %g", name, i, over, n,
             (double)tol);
      bad += over != 0;
    } else {
      int same = memcmp(on->data[i], off->data[i], on->bytes[i]) == 0;
      CHECKF(same, "%s: output %d (%s) not byte-identical", name, i, tfcc_dtype_name(on->dtype[i]));
      bad += !same;
    }
  }
  return bad;
}

static inline void shared_models(const char *shared, const char *const *names, int n_names) {
  char path[4096];
  for (int m = 0; m < n_names; m++) {
    test_npy ins[8];
    int n = 0;
    memset(ins, 0, sizeof ins);
    for (; n < 8; n++) {
      snprintf(path, sizeof path, "%s/models/ref/%s/input_%d.npy", shared, names[m], n);
      FILE *f = fopen(path, "rb");
      if (!f) break;
      fclose(f);
      if (test_npy_load(path, &ins[n]) != 0) break;
    }
    snprintf(path, sizeof path, "%s/models/%s.tflite", shared, names[m]);
    outputs on = {0}, base = {0}, off = {0};
    if (run(path, BASE_PASSES_OFF, false, ins, n, &base) == 0 &&
        (EQUIV_SANITIZED || run(path, TFCC_PASS_ALL, false, ins, n, &off) == 0) &&
        run(path, 0, on_live_differs(path, base.live_nodes), ins, n, &on) == 0) {
      compare(names[m], &on, &base, 1e-5f);
      if (!EQUIV_SANITIZED) compare(names[m], &on, &off, 1e-3f);
      double ratio = on.mem.lower_bound_bytes
                         ? (double)on.mem.arena_bytes / (double)on.mem.lower_bound_bytes
                         : 1.0;
      CHECKF(ratio <= 1.1, "%s: arena %zu > 1.1 x lower bound %zu", names[m], on.mem.arena_bytes,
             on.mem.lower_bound_bytes);
      printf(
          "  %-34s nodes %3d (fold only) -> %3d  arena %9zu (fold only %9zu)  lower bound %9zu  x%.3f"
          "  views %d in-place %d\n",
          names[m], base.live_nodes, on.live_nodes, on.mem.arena_bytes, base.mem.arena_bytes,
          on.mem.lower_bound_bytes, ratio, on.views, on.inplace);
    }
    outputs_free(&on);
    outputs_free(&base);
    outputs_free(&off);
    for (int i = 0; i < n; i++) test_npy_free(&ins[i]);
  }
}

static inline void conformance(const char *src) {
  char path[4096], line[512];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/cases.txt", src);
  FILE *f = fopen(path, "r");
  CHECKF(f != NULL, "cannot open %s", path);
  if (!f) return;
  int cases = 0, failed = 0;
  while (fgets(line, sizeof line, f)) {
    char name[256];
    int n_in, n_out;
    if (line[0] == '#' || sscanf(line, "%255s %d %d", name, &n_in, &n_out) != 3) continue;
    test_npy ins[8];
    memset(ins, 0, sizeof ins);
    int ok = n_in <= 8;
    for (int i = 0; i < n_in && ok; i++) {
      snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.in%d.npy", src, name, i);
      ok = test_npy_load(path, &ins[i]) == 0;
    }
    snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", src, name);
    outputs on = {0}, off = {0};
    if (ok && run(path, 0, false, ins, n_in, &on) == 0 &&
        run(path, TFCC_PASS_ALL, false, ins, n_in, &off) == 0)
      failed += compare(name, &on, &off, 1e-5f) != 0;
    else
      failed++;
    outputs_free(&on);
    outputs_free(&off);
    for (int i = 0; i < n_in; i++) test_npy_free(&ins[i]);
    cases++;
  }
  fclose(f);
  printf("  conformance: %d cases, %d differ with passes on vs off\n", cases, failed);
  CHECK(cases > 600);
}

static inline int equivalence_main(const char *name, bool with_conformance,
                                   const char *const *models, int n_models) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_level = TFCC_LOG_ERROR; /* KERNEL_FALLBACK notes of the passes-off runs */
  if (tfcc_runtime_create(&ro, &g_rt) != TFCC_OK) return 1;
  if (with_conformance) conformance(tfcc_test_source_dir());
  const char *shared = tfcc_test_shared_dir();
  if (shared) shared_models(shared, models, n_models);
  tfcc_runtime_destroy(g_rt);
  return tfcc_test_finish(name);
}

#endif
