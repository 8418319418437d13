/* Several sessions of one model, run concurrently from different caller threads on a runtime
 * whose worker pool they share, give exactly the single-threaded result. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

#define THREADS 4
#define RUNS 12

typedef struct {
  tfcc_model *model;
  const void *input;
  const void *expect;
  size_t out_bytes;
  int mismatches, errors;
} job;

static void *worker(void *arg) {
  job *j = arg;
  tfcc_session *s = NULL;
  if (tfcc_session_create(j->model, NULL, &s) != TFCC_OK) {
    j->errors++;
    return NULL;
  }
  void *out = malloc(j->out_bytes);
  for (int r = 0; r < RUNS; r++) {
    const void *ins[] = {j->input};
    void *outs[] = {out};
    memset(out, 0x5a, j->out_bytes);
    if (tfcc_session_run(s, ins, outs) != TFCC_OK)
      j->errors++;
    else if (memcmp(out, j->expect, j->out_bytes) != 0)
      j->mismatches++;
  }
  free(out);
  tfcc_session_destroy(s);
  return NULL;
}

static void check_model(const char *path, int num_threads) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = num_threads;
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(&ro, &rt) == TFCC_OK);
  tfcc_model *m = NULL;
  CHECKF(tfcc_model_load_file(rt, path, NULL, &m) == TFCC_OK, "%s: %s", path, tfcc_last_error());
  if (!m) {
    tfcc_runtime_destroy(rt);
    return;
  }
  tfcc_session *s = NULL;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  tfcc_tensor_info ii, oi;
  tfcc_session_input_info(s, 0, &ii);
  tfcc_session_output_info(s, 0, &oi);
  uint8_t *in = malloc(ii.bytes), *expect = malloc(oi.bytes);
  unsigned seed = 7;
  for (size_t i = 0; i < ii.bytes; i++) {
    seed = seed * 1103515245u + 12345u;
    in[i] = (uint8_t)(seed >> 16);
  }
  if (ii.dtype == TFCC_FLOAT32) /* keep floats finite: small values */
    for (size_t i = 0; i < ii.bytes / 4; i++)
      ((float *)in)[i] = (float)((int)(i % 255) - 127) / 64.0f;
  const void *ins[] = {in};
  void *outs[] = {expect};
  CHECK(tfcc_session_run(s, ins, outs) == TFCC_OK);
  tfcc_session_destroy(s);
  job jobs[THREADS];
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t] = (job){m, in, expect, oi.bytes, 0, 0};
    pthread_create(&th[t], NULL, worker, &jobs[t]);
  }
  for (int t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    CHECKF(jobs[t].errors == 0 && jobs[t].mismatches == 0,
           "%s (%d threads): caller %d: %d errors, %d mismatches", path, num_threads, t,
           jobs[t].errors, jobs[t].mismatches);
  }
  printf("  %s, runtime threads %d: %d callers x %d runs identical\n", path, num_threads, THREADS,
         RUNS);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  free(in);
  free(expect);
}

int main(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/conv_2d_f32_3x3_same.tflite",
           tfcc_test_source_dir());
  for (int n = 1; n <= 2; n++) check_model(path, n);
  const char *shared = tfcc_test_shared_dir();
  if (shared) {
    snprintf(path, sizeof path, "%s/models/mobilenet_v1_025_128_quant.tflite", shared);
    for (int n = 1; n <= 2; n++) check_model(path, n);
  }
  return tfcc_test_finish("concurrent_sessions");
}
