/* A run allocates nothing once its sizes have been seen: the program counts every malloc,
 * calloc, realloc, aligned_alloc, posix_memalign and memalign (glibc's, interposed here) while
 * tfcc_session_invoke runs (tests/harness/alloc_count.h), for
 *   - a static model (a float CONV_2D conformance model): no allocation in any run;
 *   - dynamic UNIQUE nodes (int32, float32 and int8 conformance models: the outputs' sizes
 *     depend on the values, so the node is prepared again in each run): after the first run,
 *     runs with as many or fewer values allocate nothing (the session keeps the node's memory:
 *     its working memory for counting distinct values, which was malloc'ed and freed in every
 *     run's prepare before, and its dynamic outputs), and the outputs are the distinct values
 *     in order of first appearance and each element's index (checked against a scan).
 * Under AddressSanitizer / ThreadSanitizer the counts are not taken; the values are still
 * checked. (tests/ops/test_conformance.c counts the second run of every conformance case.) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"
#include "tfcc/tfcc.h"
#include "test_harness.h"

/* Invokes s, counting the allocations made meanwhile into *allocs. */
static tfcc_status invoke_counted(tfcc_session *s, long *allocs) {
  test_alloc_begin();
  tfcc_status st = tfcc_session_invoke(s);
  *allocs = test_alloc_end();
  return st;
}

static tfcc_model *load(tfcc_runtime *rt, const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s", tfcc_test_source_dir(), name);
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  CHECKF(st == TFCC_OK, "%s: %s", path, tfcc_last_error());
  return m;
}

/* A static model: every run allocates nothing. */
static void check_static(tfcc_runtime *rt) {
  tfcc_model *m = load(rt, "conv_2d_f32_3x3_same.tflite");
  if (!m) return;
  tfcc_session *s = NULL;
  CHECKF(tfcc_session_create(m, NULL, &s) == TFCC_OK, "%s", tfcc_last_error());
  tfcc_model_release(m);
  if (!s) return;
  tfcc_tensor_info in, out;
  tfcc_session_input_info(s, 0, &in);
  tfcc_session_output_info(s, 0, &out);
  float *x = calloc(1, in.bytes + 4), *y = calloc(1, out.bytes + 4);
  for (size_t i = 0; i < in.bytes / 4; i++) x[i] = (float)(i % 7) - 3.0f;
  CHECK(tfcc_session_set_input(s, 0, x, in.bytes) == TFCC_OK);
  CHECK(tfcc_session_set_output(s, 0, y, out.bytes) == TFCC_OK);
  for (int r = 0; r < 3; r++) {
    long allocs = -1;
    CHECKF(invoke_counted(s, &allocs) == TFCC_OK, "%s", tfcc_session_last_error(s));
    CHECKF(!TEST_ALLOC_COUNTED || allocs == 0, "conv_2d_f32_3x3_same run %d: %ld allocations", r,
           allocs);
  }
  free(x);
  free(y);
  tfcc_session_destroy(s);
}

/* Distinct values of x (es bytes each) in order of first appearance and each one's index. */
static int64_t scan(const uint8_t *x, size_t es, int64_t n, uint8_t *uniq, int32_t *idx) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t j = 0;
    while (j < count && memcmp(uniq + (size_t)j * es, x + (size_t)i * es, es) != 0) j++;
    if (j == count) memcpy(uniq + (size_t)count++ * es, x + (size_t)i * es, es);
    idx[i] = (int32_t)j;
  }
  return count;
}

/* A dynamic UNIQUE over n values of es bytes: runs with several value sets, the first one with
 * the most distinct values (later runs need no more memory). */
static void check_unique(tfcc_runtime *rt, const char *file, size_t es) {
  tfcc_model *m = load(rt, file);
  if (!m) return;
  tfcc_session *s = NULL;
  CHECKF(tfcc_session_create(m, NULL, &s) == TFCC_OK, "%s", tfcc_last_error());
  tfcc_model_release(m);
  if (!s) return;
  tfcc_tensor_info in;
  tfcc_session_input_info(s, 0, &in);
  const int64_t n = (int64_t)(in.bytes / es);
  CHECK(n >= 4 && n <= 64 && tfcc_session_output_is_dynamic(s, 0) == 1);
  uint8_t x[64 * 4], uniq[64 * 4];
  int32_t idx[64], got_idx[64];
  static const int distinct[] = {64, 64, 3, 1, 2, 5, 64};
  for (int r = 0; r < (int)(sizeof distinct / sizeof distinct[0]); r++) {
    for (int64_t i = 0; i < n; i++) {
      const int v = (int)((i * 5 + r) % distinct[r]) - 2;
      if (es == 1) {
        x[i] = (uint8_t)(int8_t)v;
      } else if (strstr(file, "f32")) {
        const float f = (float)v * 0.5f;
        memcpy(x + i * 4, &f, 4);
      } else {
        const int32_t w = v * 1000003;
        memcpy(x + i * 4, &w, 4);
      }
    }
    tfcc_tensor_info info;
    tfcc_session_output_info(s, 1, &info);
    CHECK(tfcc_session_set_input(s, 0, x, in.bytes) == TFCC_OK);
    CHECK(tfcc_session_set_output(s, 0, NULL, 0) == TFCC_OK);
    CHECK(tfcc_session_set_output(s, 1, got_idx, (size_t)n * 4) == TFCC_OK);
    long allocs = -1;
    tfcc_status st = invoke_counted(s, &allocs);
    CHECKF(st == TFCC_OK, "%s run %d: %s", file, r, tfcc_session_last_error(s));
    if (r > 0)
      CHECKF(!TEST_ALLOC_COUNTED || allocs == 0, "%s run %d: %ld allocations after the first run",
             file, r, allocs);
    const int64_t count = scan(x, es, n, uniq, idx);
    const void *u = NULL;
    size_t bytes = 0;
    CHECK(st != TFCC_OK ||
          (tfcc_session_output_data(s, 0, &u, &bytes) == TFCC_OK && u && bytes == count * es));
    CHECKF(!u || memcmp(u, uniq, (size_t)count * es) == 0, "%s run %d: distinct values differ",
           file, r);
    CHECKF(memcmp(got_idx, idx, (size_t)n * 4) == 0, "%s run %d: indices differ", file, r);
  }
  tfcc_session_destroy(s);
}

int main(void) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  tfcc_runtime *rt = NULL;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK) {
    fprintf(stderr, "runtime: %s\n", tfcc_last_error());
    return 1;
  }
  if (!TEST_ALLOC_COUNTED)
    printf("allocation counts not taken (sanitizer allocator); values checked\n");
  check_static(rt);
  check_unique(rt, "unique_i32.tflite", 4);
  check_unique(rt, "unique_f32.tflite", 4);
  check_unique(rt, "unique_i8.tflite", 1);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("run_allocations");
}
