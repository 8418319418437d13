/* Precision bf16 on real float models: every float32 model in ../shared/models, plus the zoo
 * classifiers (mobilenet_v2, resnet50 in $TFCC_ZOO_DIR, default ~/.cache/tfcc-zoo) when
 * present, run once at TFCC_PRECISION_F32 and once at TFCC_PRECISION_BF16 on the same input.
 *
 * Where a bf16 kernel runs at this dispatch level (AVX512-BF16; TFCC_ISA may cap it away):
 * the profile shows bf16 kernels, classifiers keep their top-1 class, segmentation keeps the
 * per-pixel class almost everywhere, and every output stays within a bound of its float32
 * value measured on these models (max |bf16 - f32| / max |f32|, see docs/kernels.md "bf16",
 * with about 2x margin). Where none runs: outputs are bit-identical to float32 (the option
 * falls back, with one KERNEL_FALLBACK at load). Prints the accuracy table. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/gemm.h"
#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

/* Sanitizer builds run ~10x slower: the two largest networks are left to the other builds. */
#if defined(__SANITIZE_ADDRESS__)
#define TFCC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFCC_SANITIZED 1
#endif
#endif
#ifndef TFCC_SANITIZED
#define TFCC_SANITIZED 0
#endif

typedef struct model_case {
  const char *name;
  int zoo;          /* 1: $TFCC_ZOO_DIR/<name>.tflite with <name>.input_nhwc.npy */
  int cls_output;   /* output whose rows (last dimension) are class scores: argmax checked; -1 */
  double min_agree; /* fraction of rows whose argmax must agree (1: all) */
  double max_rel;   /* bound on max |bf16 - f32| / max |f32| over every output */
} model_case;

static const model_case k_cases[] = {
    /* measured on the AVX512-BF16 kernel (docs/kernels.md): 4.9e-4, 0.0106 (99.95% of pixels),
     * 0.011, 0.0108, 3.4e-3, 0.051, 3.5e-3, 3.9e-3 */
    {"mnist_lstm_float", 0, 0, 1.0, 0.002},
    {"deeplabv3_257_float", 0, 0, 0.995, 0.025},
    {"face_detection_short_range", 0, -1, 0, 0.025},
    {"face_detection_full_range_sparse", 0, -1, 0, 0.025},
    {"face_landmark", 0, -1, 0, 0.01},
    {"hand_landmark_lite", 0, -1, 0, 0.1},
    {"mobilenet_v2", 1, 0, 1.0, 0.01},
    {"resnet50", 1, 0, 1.0, 0.01},
};

static tfcc_runtime *g_rt;

typedef struct outputs {
  int n;
  test_npy o[8];
  int bf16_nodes; /* nodes whose profiled kernel is a bf16 one */
} outputs;

static void outputs_free(outputs *r) {
  for (int i = 0; i < r->n; i++) free(r->o[i].data);
  r->n = 0;
}

static int run(const char *path, const test_npy *in, tfcc_precision prec, outputs *r) {
  memset(r, 0, sizeof *r);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = prec;
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(g_rt, path, &mo, &m);
  CHECKF(st == TFCC_OK, "%s: load: %s", path, tfcc_last_error());
  if (st != TFCC_OK) return -1;
  tfcc_session *s = NULL;
  st = tfcc_session_create(m, NULL, &s);
  tfcc_model_release(m);
  CHECKF(st == TFCC_OK, "%s: session: %s", path, tfcc_last_error());
  if (st != TFCC_OK) return -1;
  int ok = tfcc_session_input_count(s) == 1 && tfcc_session_output_count(s) <= 8;
  tfcc_tensor_info info;
  ok = ok && tfcc_session_input_info(s, 0, &info) == TFCC_OK && info.bytes == in->bytes;
  CHECKF(ok, "%s: one input of %zu bytes expected", path, in->bytes);
  void *outs[8];
  r->n = ok ? tfcc_session_output_count(s) : 0;
  for (int i = 0; i < r->n; i++) {
    tfcc_session_output_info(s, i, &info);
    r->o[i].dtype = info.dtype;
    r->o[i].rank = info.rank;
    memcpy(r->o[i].dims, info.dims, sizeof r->o[i].dims);
    r->o[i].bytes = info.bytes;
    r->o[i].data = calloc(1, info.bytes ? info.bytes : 1);
    outs[i] = r->o[i].data;
  }
  const void *ins[1] = {in->data};
  if (ok) {
    tfcc_session_set_profiling(s, 1);
    st = tfcc_session_run(s, ins, outs);
    CHECKF(st == TFCC_OK, "%s: run: %s", path, tfcc_session_last_error(s));
    ok = st == TFCC_OK;
    const tfcc_op_profile *e = NULL;
    int n = tfcc_session_profile(s, &e);
    for (int i = 0; i < n; i++)
      if (e[i].runs && e[i].kernel && strncmp(e[i].kernel, "bf16-", 5) == 0) r->bf16_nodes++;
  }
  tfcc_session_destroy(s);
  return ok ? 0 : -1;
}

static int argmax(const float *p, int n) {
  int b = 0;
  for (int i = 1; i < n; i++)
    if (p[i] > p[b]) b = i;
  return b;
}

static void check_model(const model_case *c, const char *shared, const char *zoo, bool bf16_runs) {
  char path[4096], in_path[4096];
  if (c->zoo) {
    snprintf(path, sizeof path, "%s/%s.tflite", zoo, c->name);
    snprintf(in_path, sizeof in_path, "%s/%s.input_nhwc.npy", zoo, c->name);
  } else {
    snprintf(path, sizeof path, "%s/models/%s.tflite", shared, c->name);
    snprintf(in_path, sizeof in_path, "%s/models/ref/%s/input_0.npy", shared, c->name);
  }
  if (TFCC_SANITIZED &&
      (strcmp(c->name, "resnet50") == 0 || strcmp(c->name, "deeplabv3_257_float") == 0)) {
    printf("%-34s (skipped in a sanitizer build)\n", c->name);
    return;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("%-34s (absent: %s)\n", c->name, path);
    CHECKF(c->zoo, "%s: shared model missing", c->name);
    return;
  }
  fclose(f);
  test_npy in;
  if (test_npy_load(in_path, &in) != 0) {
    CHECKF(0, "%s: input %s", c->name, in_path);
    return;
  }
  outputs a, b;
  if (run(path, &in, TFCC_PRECISION_F32, &a) == 0 && run(path, &in, TFCC_PRECISION_BF16, &b) == 0 &&
      a.n == b.n) {
    double worst_rel = 0, worst_abs = 0;
    int rows = 0, agree = 0;
    bool identical = true;
    char detail[512];
    size_t dl = 0;
    detail[0] = 0;
    for (int i = 0; i < a.n; i++) {
      if (a.o[i].dtype != TFCC_FLOAT32) {
        identical = identical && memcmp(a.o[i].data, b.o[i].data, a.o[i].bytes) == 0;
        continue;
      }
      const float *x = a.o[i].data, *y = b.o[i].data;
      const size_t n = a.o[i].bytes / sizeof(float);
      double mx = 0, md = 0;
      for (size_t j = 0; j < n; j++) {
        mx = fmax(mx, fabs(x[j]));
        md = fmax(md, fabs((double)x[j] - y[j]));
      }
      identical = identical && memcmp(x, y, a.o[i].bytes) == 0;
      worst_abs = fmax(worst_abs, md);
      worst_rel = fmax(worst_rel, mx > 0 ? md / mx : md);
      if (dl < sizeof detail)
        dl += (size_t)snprintf(detail + dl, sizeof detail - dl, "%s out%d %.3g/%.3g", dl ? "," : "",
                               i, md, mx);
      if (i == c->cls_output) {
        const int last = a.o[i].dims[a.o[i].rank - 1];
        for (size_t r0 = 0; r0 + (size_t)last <= n; r0 += (size_t)last, rows++)
          agree += argmax(x + r0, last) == argmax(y + r0, last);
      }
    }
    printf("%-34s bf16 nodes %3d  max|diff| %.3g  max|diff|/max|f32| %.3g", c->name, b.bf16_nodes,
           worst_abs, worst_rel);
    if (rows) printf("  top-1 agreement %d/%d (%.2f%%)", agree, rows, 100.0 * agree / rows);
    printf("\n%34s (per output: max|diff| / max|f32|:%s)\n", "", detail);
    if (!bf16_runs) {
      CHECKF(identical && b.bf16_nodes == 0, "%s: no bf16 kernel here, yet outputs differ from f32",
             c->name);
    } else {
      CHECKF(b.bf16_nodes > 0, "%s: no node ran a bf16 kernel", c->name);
      CHECKF(worst_rel <= c->max_rel, "%s: max|diff|/max|f32| %.3g > %.3g", c->name, worst_rel,
             c->max_rel);
      if (rows)
        CHECKF(agree >= c->min_agree * rows, "%s: top-1 agreement %d/%d", c->name, agree, rows);
    }
  }
  outputs_free(&a);
  outputs_free(&b);
  test_npy_free(&in);
}

/* Hot weight update keeps the precision: the new generation's operators pack bf16 too. */
static void check_update(const char *shared, bool bf16_runs) {
  char path[4096], in_path[4096];
  snprintf(path, sizeof path, "%s/models/face_detection_short_range.tflite", shared);
  snprintf(in_path, sizeof in_path, "%s/models/ref/face_detection_short_range/input_0.npy", shared);
  test_npy in;
  if (test_npy_load(in_path, &in) != 0) return;
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = TFCC_PRECISION_BF16;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  CHECK(tfcc_model_load_file(g_rt, path, &mo, &m) == TFCC_OK);
  if (m) CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  if (s) {
    tfcc_tensor_info info[2];
    void *out[2][2];
    for (int i = 0; i < 2; i++) {
      tfcc_session_output_info(s, i, &info[i]);
      out[0][i] = calloc(1, info[i].bytes);
      out[1][i] = calloc(1, info[i].bytes);
    }
    const void *ins[1] = {in.data};
    tfcc_session_set_profiling(s, 1);
    CHECK(tfcc_session_run(s, ins, out[0]) == TFCC_OK);
    CHECKF(tfcc_model_update_weights(m, path) == TFCC_OK, "update: %s", tfcc_last_error());
    tfcc_session_profile_reset(s);
    CHECK(tfcc_session_run(s, ins, out[1]) == TFCC_OK);
    const tfcc_op_profile *e = NULL;
    int n = tfcc_session_profile(s, &e), bf16_nodes = 0;
    for (int i = 0; i < n; i++)
      if (e[i].runs && e[i].kernel && strncmp(e[i].kernel, "bf16-", 5) == 0) bf16_nodes++;
    CHECKF(bf16_runs ? bf16_nodes > 0 : bf16_nodes == 0, "after update: %d bf16 nodes", bf16_nodes);
    for (int i = 0; i < 2; i++) {
      CHECKF(memcmp(out[0][i], out[1][i], info[i].bytes) == 0, "output %d changed by the update",
             i);
      free(out[0][i]);
      free(out[1][i]);
    }
    printf("hot update at precision bf16: %d bf16 nodes after the update, outputs unchanged\n",
           bf16_nodes);
  }
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  test_npy_free(&in);
}

int main(void) {
  const char *shared = tfcc_test_shared_dir();
  if (!shared) return TFCC_TEST_SKIP;
  char zoo[4096];
  const char *z = getenv("TFCC_ZOO_DIR"), *home = getenv("HOME");
  snprintf(zoo, sizeof zoo, "%s%s",
           z      ? z
           : home ? home
                  : "/nonexistent",
           z ? "" : "/.cache/tfcc-zoo");
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 2;
  ro.log_level = TFCC_LOG_ERROR; /* the expected KERNEL_FALLBACK at low caps */
  CHECK(tfcc_runtime_create(&ro, &g_rt) == TFCC_OK);
  { /* a value outside the enum is refused at load, naming the field */
    tfcc_model_options mo;
    tfcc_model_options_default(&mo);
    CHECK(mo.precision == TFCC_PRECISION_F32);
    mo.precision = (tfcc_precision)7;
    char path[4096];
    snprintf(path, sizeof path, "%s/models/mnist_lstm_float.tflite", shared);
    tfcc_model *m = NULL;
    CHECK(tfcc_model_load_file(g_rt, path, &mo, &m) == TFCC_ERR_INVALID_ARG && m == NULL);
    CHECKF(strstr(tfcc_last_error(), "precision 7") != NULL, "message: %s", tfcc_last_error());
  }
  const char *cap = getenv("TFCC_ISA");
  tfcc_isa cap_isa = TFCC_ISA_COUNT_;
  if (cap && cap[0]) tfcc_isa_parse(cap, &cap_isa);
  const tfcc_isa level = tfcc_cpu_dispatch_isa(cap_isa);
  const bool bf16_runs = tfcc_bf16_gemm_select(level) != NULL;
  printf("dispatch level %s: %s\n", tfcc_isa_name(level),
         bf16_runs ? tfcc_bf16_gemm_select(level)->name : tfcc_bf16_gemm_unavailable(level));
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
    check_model(&k_cases[i], shared, zoo, bf16_runs);
  check_update(shared, bf16_runs);
  tfcc_runtime_destroy(g_rt);
  return tfcc_test_finish("test_bf16_models");
}
