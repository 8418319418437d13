/* Constant PAD fast copy (src/kernels/f32-copy/pad.c) against the reference kernel: ranks 0-5,
 * element sizes 1/2/4/8, zero and non-zero pad values, no padding, padding on every
 * dimension, empty inputs, the NHWC shapes of MobileNet/ResNet (H, W padded only); each case
 * also through the variant split over a 2-thread pool (large shapes take the split). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-copy/pad.h"
#include "kernels/ref/pad.h"
#include "base/threadpool.h"
#include "test_harness.h"

static tfcc_threadpool *pool2; /* 2 threads: the split variant */

static uint32_t rng = 4242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void check(int32_t rank, const int32_t *in_dims, const int64_t *before, const int64_t *after,
                  size_t es, bool zero_value) {
  int32_t out_dims[8];
  size_t n_in = 1, n_out = 1;
  for (int32_t d = 0; d < rank; d++) {
    out_dims[d] = in_dims[d] + (int32_t)before[d] + (int32_t)after[d];
    n_in *= (size_t)in_dims[d];
    n_out *= (size_t)out_dims[d];
  }
  uint8_t *in = malloc(n_in * es + 1), *a = malloc(n_out * es + 1), *b = malloc(n_out * es + 1);
  CHECK(in && a && b);
  if (!in || !a || !b) goto done;
  for (size_t i = 0; i < n_in * es; i++) in[i] = (uint8_t)urand();
  memset(a, 0xA5, n_out * es);
  memset(b, 0x5A, n_out * es);
  uint8_t value[8] = {0};
  for (size_t i = 0; i < es; i++) value[i] = zero_value ? 0 : (uint8_t)(urand() | 1u);
  tfcc_ref_pad_const(in, rank, in_dims, before, out_dims, value, es, a);
  tfcc_pad_const_fast(in, rank, in_dims, before, out_dims, value, es, b);
  CHECKF(memcmp(a, b, n_out * es) == 0, "rank %d es %zu zero %d: fast PAD differs", (int)rank, es,
         (int)zero_value);
  memset(b, 0x3C, n_out * es);
  tfcc_pad_const_fast_pool(pool2, in, rank, in_dims, before, out_dims, value, es, b);
  CHECKF(memcmp(a, b, n_out * es) == 0, "rank %d es %zu zero %d: PAD split over 2 threads differs",
         (int)rank, es, (int)zero_value);
done:
  free(in);
  free(a);
  free(b);
}

int main(void) {
  static const size_t sizes[] = {1, 2, 4, 8};
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool2, &err) == TFCC_OK);
  /* fixed cases: MobileNet/ResNet NHWC PADs, no padding, empty input, rank 0 */
  {
    const int32_t d1[] = {1, 112, 112, 96};
    const int64_t b1[] = {0, 0, 0, 0}, a1[] = {0, 1, 1, 0};
    const int64_t b2[] = {0, 3, 3, 0}, a2[] = {0, 3, 3, 0};
    const int32_t d3[] = {2, 5, 0, 3};
    const int64_t b3[] = {1, 0, 2, 0}, a3[] = {0, 1, 1, 1};
    const int64_t z[] = {0, 0, 0, 0};
    for (int z0 = 0; z0 < 2; z0++) {
      check(4, d1, b1, a1, 4, z0);
      check(4, d1, b2, a2, 4, z0);
      check(4, d1, z, z, 4, z0);
      check(4, d3, b3, a3, 4, z0);
      check(0, d1, z, z, 4, z0);
    }
  }
  /* large enough for the 2-thread split (>= TFCC_PAD_MIN_PARALLEL_BYTES): ResNet-50's PAD
   * before MAX_POOL, padded batches (split on dimension 0), a split on dimension 2 (leading
   * dimensions of 1), a long padded last dimension (rank 1 and 2: not split / split on 0) */
  {
    const int32_t r50[] = {1, 112, 112, 64}, nb[] = {9, 7, 33, 40}, lead[] = {1, 1, 7, 9000};
    const int32_t vec[] = {70000}, mat[] = {3, 40000};
    const int64_t p1[] = {0, 1, 1, 0}, q1[] = {0, 1, 1, 0}, p2[] = {2, 1, 0, 3},
                  q2[] = {1, 0, 2, 1};
    const int64_t p3[] = {0, 0, 2, 5}, q3[] = {0, 0, 1, 0}, pv[] = {5}, qv[] = {9};
    const int64_t pm[] = {1, 3}, qm[] = {2, 0};
    for (int z0 = 0; z0 < 2; z0++) {
      check(4, r50, p1, q1, 4, z0);
      check(4, nb, p2, q2, 2, z0);
      check(4, lead, p3, q3, 1, z0);
      check(1, vec, pv, qv, 8, z0);
      check(2, mat, pm, qm, 4, z0);
    }
  }
  /* random shapes */
  for (int iter = 0; iter < 400; iter++) {
    const int32_t rank = 1 + (int32_t)(urand() % 5);
    int32_t dims[5];
    int64_t before[5], after[5];
    for (int32_t d = 0; d < rank; d++) {
      dims[d] = (int32_t)(urand() % 6);
      if (iter % 7 != 0 && dims[d] == 0) dims[d] = 1;
      before[d] = (urand() % 3 == 0) ? 0 : (int64_t)(urand() % 4);
      after[d] = (urand() % 3 == 0) ? 0 : (int64_t)(urand() % 4);
    }
    check(rank, dims, before, after, sizes[iter % 4], (iter / 4) % 2 == 0);
  }
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_pad");
}
