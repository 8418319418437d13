/* Hostile model files of the opsc operators (StableHLO, LSH_PROJECTION,
 * EMBEDDING_LOOKUP_SPARSE, DILATE, STABLEHLO_COMPOSITE): wrong operand types, mismatched shapes,
 * bad options and bad subgraph indices must fail the load or the session creation through the
 * public API with an error naming the operator and the cause (tests/ops/data/opsc_hostile,
 * written by modelgen/make_opsc_hostile.py; index.txt gives the words each error must hold), and
 * models naming operator versions TFLite's resolver registers must load and run once on zeroed
 * inputs (accepted.txt), and
 * models whose operator's work is quadratic in its input must report that work as the
 * operator's macs (work.txt). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

static void quiet_log(void *user, tfcc_log_level level, const char *tag, const char *message) {
  (void)user, (void)level, (void)tag, (void)message;
}

/* One run on zeroed inputs into the caller's buffers (dynamic outputs: the session's). */
static bool run_zeros(tfcc_session *s) {
  enum { MAX_IO = 8 };
  const int n_in = tfcc_session_input_count(s), n_out = tfcc_session_output_count(s);
  if (n_in > MAX_IO || n_out > MAX_IO) return false;
  void *buf[2 * MAX_IO] = {0};
  bool ok = true;
  for (int i = 0; i < n_in + n_out && ok; i++) {
    tfcc_tensor_info info;
    const bool in = i < n_in;
    ok = (in ? tfcc_session_input_info(s, i, &info)
             : tfcc_session_output_info(s, i - n_in, &info)) == TFCC_OK;
    const bool dyn = !in && tfcc_session_output_is_dynamic(s, i - n_in);
    if (ok && !dyn) ok = (buf[i] = calloc(1, info.bytes ? info.bytes : 1)) != NULL;
    if (ok && in) ok = tfcc_session_set_input(s, i, buf[i], info.bytes) == TFCC_OK;
    if (ok && !in)
      ok = tfcc_session_set_output(s, i - n_in, dyn ? NULL : buf[i], dyn ? 0 : info.bytes) ==
           TFCC_OK;
  }
  if (ok) ok = tfcc_session_invoke(s) == TFCC_OK;
  for (int i = 0; i < n_in + n_out; i++) free(buf[i]);
  return ok;
}

/* kernels.txt: the kernel operator 0 runs with, from one profiled run ("!ref": any but the
 * reference kernel). A window whose dilated span dwarfs its taps runs the reference kernel: the
 * packed depthwise row kernels build every column the span covers. */
static int check_kernels(tfcc_runtime *rt, const char *dir) {
  char index[1600], line[1600];
  snprintf(index, sizeof index, "%s/kernels.txt", dir);
  FILE *f = fopen(index, "r");
  CHECKF(f != NULL, "%s not found", index);
  int n = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = 0;
    char *want = strchr(line, ' ');
    if (!want) continue;
    *want++ = 0;
    char path[1700];
    snprintf(path, sizeof path, "%s/%s", dir, line);
    tfcc_model *m = NULL;
    tfcc_session *s = NULL;
    tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
    if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
    if (st == TFCC_OK) st = tfcc_session_set_profiling(s, 1);
    CHECKF(st == TFCC_OK, "%s: %s", line, tfcc_last_error());
    if (s) {
      CHECKF(run_zeros(s), "%s: run: %s", line, tfcc_session_last_error(s));
      const tfcc_op_profile *e = NULL;
      const int ne = tfcc_session_profile(s, &e);
      const char *got = ne > 0 && e ? e[0].kernel : "";
      const bool ok = want[0] == '!' ? strcmp(got, want + 1) != 0 : strcmp(got, want) == 0;
      CHECKF(ok, "%s: kernel %s, expected %s", line, got, want);
      tfcc_session_destroy(s);
    }
    if (m) tfcc_model_release(m);
    n++;
  }
  if (f) fclose(f);
  return n;
}

/* tfcc_session_set_run_max_work (fuzz53): a run stops before an operator whose work estimate
 * passes the limit, a static one (the 512 x 512 SAME pooling of work.txt) and one whose shapes
 * come with the data (the same pooling behind a RESHAPE to an input's shape: a dynamic node,
 * estimated when the run prepares it; it ran its 6.9e10 taps before). */
static void check_run_max_work(tfcc_runtime *rt, const char *dir) {
  static const char *const files[2] = {"work_average_pool_512_same.tflite",
                                       "dynamic_pool_512.tflite"};
  for (int k = 0; k < 2; k++) {
    char path[1700];
    snprintf(path, sizeof path, "%s/%s", dir, files[k]);
    tfcc_model *m = NULL;
    tfcc_session *s = NULL;
    tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
    if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
    CHECKF(st == TFCC_OK, "%s: %s", files[k], tfcc_last_error());
    if (s) {
      float *x = calloc(512 * 512, sizeof *x);
      const int32_t shape[4] = {1, 512, 512, 1};
      CHECK(x && tfcc_session_set_input(s, 0, x, 512 * 512 * sizeof *x) == TFCC_OK);
      if (k == 1) CHECK(tfcc_session_set_input(s, 1, shape, sizeof shape) == TFCC_OK);
      float *y = NULL;
      if (tfcc_session_output_is_dynamic(s, 0)) {
        CHECKF(k == 1, "%s: output dynamic", files[k]);
        CHECK(tfcc_session_set_output(s, 0, NULL, 0) == TFCC_OK);
      } else {
        CHECKF(k == 0, "%s: output not dynamic", files[k]);
        y = calloc(512 * 512, sizeof *y);
        CHECK(y && tfcc_session_set_output(s, 0, y, 512 * 512 * sizeof *y) == TFCC_OK);
      }
      CHECK(tfcc_session_set_run_max_work(s, -1) == TFCC_ERR_INVALID_ARG);
      CHECK(tfcc_session_set_run_max_work(s, 1000000) == TFCC_OK);
      st = tfcc_session_invoke(s);
      const char *msg = tfcc_session_last_error(s);
      CHECKF(st == TFCC_ERR_DEADLINE && strstr(msg, "AVERAGE_POOL_2D") &&
                 strstr(msg, "its work estimate 68719476736 passes the run's limit of 1000000"),
             "%s: %s \"%s\"", files[k], tfcc_status_str(st), msg);
      free(x);
      free(y);
      tfcc_session_destroy(s);
    }
    if (m) tfcc_model_release(m);
  }
}

int main(void) {
  char dir[1024], index[1100];
  snprintf(dir, sizeof dir, "%s/tests/ops/data/opsc_hostile", tfcc_test_source_dir());
  snprintf(index, sizeof index, "%s/index.txt", dir);
  FILE *f = fopen(index, "r");
  CHECKF(f != NULL, "%s not found", index);
  if (!f) return tfcc_test_finish("ops.opsc_hostile_models");
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_fn = quiet_log;
  tfcc_runtime *rt = NULL;
  CHECKF(tfcc_runtime_create(&ro, &rt) == TFCC_OK, "tfcc_runtime_create: %s", tfcc_last_error());
  char line[512];
  int n = 0;
  while (rt && fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = 0;
    char *words = strchr(line, ' ');
    if (!words) continue;
    *words++ = 0;
    char path[1700];
    snprintf(path, sizeof path, "%s/%s", dir, line);
    tfcc_model *m = NULL;
    tfcc_session *s = NULL;
    char msg[1024];
    tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
    if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
    snprintf(msg, sizeof msg, "%s", tfcc_last_error());
    CHECKF(st != TFCC_OK, "%s: loaded and prepared, expected an error with '%s'", line, words);
    CHECKF(strstr(msg, words) != NULL, "%s: error '%s' lacks '%s'", line, msg, words);
    if (s) tfcc_session_destroy(s);
    if (m) tfcc_model_release(m);
    n++;
  }
  fclose(f);
  /* and the operator versions the standard resolver registers must load */
  snprintf(index, sizeof index, "%s/accepted.txt", dir);
  FILE *g = fopen(index, "r");
  CHECKF(g != NULL, "%s not found", index);
  int n_ok = 0;
  while (rt && g && fgets(line, sizeof line, g)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = 0;
    char path[1700];
    snprintf(path, sizeof path, "%s/%s", dir, line);
    tfcc_model *m = NULL;
    tfcc_session *s = NULL;
    tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
    if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
    CHECKF(st == TFCC_OK, "%s: %s", line, tfcc_last_error());
    if (s) {
      CHECKF(run_zeros(s), "%s: run: %s", line, tfcc_session_last_error(s));
      tfcc_session_destroy(s);
    }
    if (m) tfcc_model_release(m);
    n_ok++;
  }
  if (g) fclose(g);
  CHECKF(n_ok >= 3, "only %d accepted models listed", n_ok);
  /* and operators whose work is quadratic in their input report it (tfcc_op_info.macs) */
  snprintf(index, sizeof index, "%s/work.txt", dir);
  FILE *w = fopen(index, "r");
  CHECKF(w != NULL, "%s not found", index);
  int n_work = 0;
  while (rt && w && fgets(line, sizeof line, w)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = 0;
    char *figure = strchr(line, ' ');
    if (!figure) continue;
    *figure++ = 0;
    char path[1700];
    snprintf(path, sizeof path, "%s/%s", dir, line);
    tfcc_model *m = NULL;
    tfcc_op_info oi = {0};
    tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
    if (st == TFCC_OK) st = tfcc_model_op_info(m, 0, &oi);
    CHECKF(st == TFCC_OK, "%s: %s", line, tfcc_last_error());
    CHECKF(oi.macs == strtoll(figure, NULL, 10), "%s: macs %lld, expected %s", line,
           (long long)oi.macs, figure);
    if (m) tfcc_model_release(m);
    n_work++;
  }
  if (w) fclose(w);
  CHECKF(n_work >= 6, "only %d work models listed", n_work);
  if (rt) check_run_max_work(rt, dir);
  if (rt) CHECKF(check_kernels(rt, dir) >= 2, "fewer than 2 kernels.txt models");
  CHECKF(n >= 22, "only %d hostile models listed", n);
  if (rt) tfcc_runtime_destroy(rt);
  return tfcc_test_finish("ops.opsc_hostile_models");
}
