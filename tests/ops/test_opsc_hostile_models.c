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

/* A model of a list file: DIR/<name>, and the rest of its line ("" if none). */
typedef void (*listed_fn)(tfcc_runtime *rt, const char *path, const char *name, const char *rest);

/* Calls fn for each model line "<name>[ <rest>]" of DIR/LIST, '#' comments and blank lines
 * skipped (a line without <rest> too where needs_rest); returns how many it called it for. */
static int for_each_listed(tfcc_runtime *rt, const char *dir, const char *list, bool needs_rest,
                           listed_fn fn) {
  char index[1600], line[1600], path[3300];
  snprintf(index, sizeof index, "%s/%s", dir, list);
  FILE *f = fopen(index, "r");
  CHECKF(f != NULL, "%s not found", index);
  int n = 0;
  while (rt && f && fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = 0;
    char *rest = strchr(line, ' ');
    if (rest)
      *rest++ = 0;
    else if (needs_rest)
      continue;
    else
      rest = line + strlen(line);
    snprintf(path, sizeof path, "%s/%s", dir, line);
    fn(rt, path, line, rest);
    n++;
  }
  if (f) fclose(f);
  return n;
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
static void check_kernel(tfcc_runtime *rt, const char *path, const char *name, const char *want) {
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
  if (st == TFCC_OK) st = tfcc_session_set_profiling(s, 1);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (s) {
    CHECKF(run_zeros(s), "%s: run: %s", name, tfcc_session_last_error(s));
    const tfcc_op_profile *e = NULL;
    const int ne = tfcc_session_profile(s, &e);
    const char *got = ne > 0 && e ? e[0].kernel : "";
    const bool ok = want[0] == '!' ? strcmp(got, want + 1) != 0 : strcmp(got, want) == 0;
    CHECKF(ok, "%s: kernel %s, expected %s", name, got, want);
    tfcc_session_destroy(s);
  }
  if (m) tfcc_model_release(m);
}

/* index.txt: the load or the session creation fails with an error holding `words`. */
static void check_refused(tfcc_runtime *rt, const char *path, const char *name, const char *words) {
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  char msg[1024];
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
  snprintf(msg, sizeof msg, "%s", tfcc_last_error());
  CHECKF(st != TFCC_OK, "%s: loaded and prepared, expected an error with '%s'", name, words);
  CHECKF(strstr(msg, words) != NULL, "%s: error '%s' lacks '%s'", name, msg, words);
  if (s) tfcc_session_destroy(s);
  if (m) tfcc_model_release(m);
}

/* accepted.txt: the operator versions the standard resolver registers load and run once. */
static void check_accepted(tfcc_runtime *rt, const char *path, const char *name, const char *rest) {
  (void)rest;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  if (st == TFCC_OK) st = tfcc_session_create(m, NULL, &s);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (s) {
    CHECKF(run_zeros(s), "%s: run: %s", name, tfcc_session_last_error(s));
    tfcc_session_destroy(s);
  }
  if (m) tfcc_model_release(m);
}

/* work.txt: an operator whose work is quadratic in its input reports it (tfcc_op_info.macs). */
static void check_work(tfcc_runtime *rt, const char *path, const char *name, const char *figure) {
  tfcc_model *m = NULL;
  tfcc_op_info oi = {0};
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  if (st == TFCC_OK) st = tfcc_model_op_info(m, 0, &oi);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  CHECKF(oi.macs == strtoll(figure, NULL, 10), "%s: macs %lld, expected %s", name,
         (long long)oi.macs, figure);
  if (m) tfcc_model_release(m);
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
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/ops/data/opsc_hostile", tfcc_test_source_dir());
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_fn = quiet_log;
  tfcc_runtime *rt = NULL;
  CHECKF(tfcc_runtime_create(&ro, &rt) == TFCC_OK, "tfcc_runtime_create: %s", tfcc_last_error());
  const int n = for_each_listed(rt, dir, "index.txt", true, check_refused);
  const int n_ok = for_each_listed(rt, dir, "accepted.txt", false, check_accepted);
  CHECKF(n_ok >= 3, "only %d accepted models listed", n_ok);
  const int n_work = for_each_listed(rt, dir, "work.txt", true, check_work);
  CHECKF(n_work >= 6, "only %d work models listed", n_work);
  if (rt) check_run_max_work(rt, dir);
  const int n_kernels = for_each_listed(rt, dir, "kernels.txt", true, check_kernel);
  CHECKF(n_kernels >= 2, "fewer than 2 kernels.txt models");
  CHECKF(n >= 22, "only %d hostile models listed", n);
  if (rt) tfcc_runtime_destroy(rt);
  return tfcc_test_finish("ops.opsc_hostile_models");
}
