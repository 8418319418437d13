/* Constant PAD fast copy (src/kernels/f32-copy/pad.c) against the reference kernel: ranks 0-5,
 * element sizes 1/2/4/8, zero and non-zero pad values, no padding, padding on every
 * dimension, empty inputs, the NHWC shapes of MobileNet/ResNet (H, W padded only). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-copy/pad.h"
#include "kernels/ref/pad.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void check(int32_t rank, const int32_t *in_dims, const int64_t *before,
                  const int64_t *after, size_t es, bool zero_value) {
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
  CHECKF(memcmp(a, b, n_out * es) == 0, "rank %d es %zu zero %d: fast PAD differs", (int)rank,
         es, (int)zero_value);
done:
  free(in);
  free(a);
  free(b);
}

int main(void) {
  static const size_t sizes[] = {1, 2, 4, 8};
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
  return tfcc_test_finish("test_f32_pad");
}
