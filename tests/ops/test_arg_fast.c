/* Branch-free ARG_MAX / ARG_MIN (src/kernels/arg) against the reference tfcc_arg_min_max, on
 * random [outer, axis, inner] boxes (inner 1 and > 1, blocks of 256 and their tails, outer not
 * a multiple of 4), every input dtype, int32 and int64 outputs, values drawn from small ranges
 * (many ties: the first index must win) and float32 rows with NaN, +-inf and -0 / +0.
 * REDUCE_MAX / REDUCE_MIN (tfcc_reduce_max_min_fast) against tfcc_reduce_generic on random
 * shapes of rank 0..5 and random reduced axes: adjacent ones (and all axes: the seeded case)
 * must be taken and equal byte for byte, others refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/arg/arg.h"
#include "kernels/ref/reduce.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static size_t dt_size(tfcc_dtype dt) {
  switch (dt) {
    case TFCC_FLOAT32:
    case TFCC_INT32: return 4;
    case TFCC_INT16: return 2;
    case TFCC_INT64: return 8;
    default: return 1;
  }
}

static void fill(tfcc_dtype dt, void *buf, int64_t n, int range) {
  for (int64_t i = 0; i < n; i++) {
    const int v = (int)(urand() % (uint32_t)range) - range / 2;
    switch (dt) {
      case TFCC_FLOAT32: {
        float f = (float)v * 0.5f;
        const uint32_t s = urand() % 64;
        if (s == 0) f = NAN;
        if (s == 1) f = INFINITY;
        if (s == 2) f = -INFINITY;
        if (s == 3) f = -0.0f;
        ((float *)buf)[i] = f;
        break;
      }
      case TFCC_UINT8: ((uint8_t *)buf)[i] = (uint8_t)(v + 128); break;
      case TFCC_BOOL: ((uint8_t *)buf)[i] = (uint8_t)(v & 1); break;
      case TFCC_INT8: ((int8_t *)buf)[i] = (int8_t)v; break;
      case TFCC_INT16: ((int16_t *)buf)[i] = (int16_t)(v * 300); break;
      case TFCC_INT32: ((int32_t *)buf)[i] = v * 100000; break;
      default: ((int64_t *)buf)[i] = (int64_t)v * 10000000000ll; break;
    }
  }
}

int main(void) {
  static const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_BOOL, TFCC_INT8,
                                   TFCC_INT16,   TFCC_INT32, TFCC_INT64};
  for (int k = 0; k < 3000; k++) {
    const tfcc_dtype dt = dts[k % 7];
    const int64_t outer = 1 + urand() % 11;
    const int32_t axis = (int32_t)(1 + urand() % (k % 5 == 0 ? 40 : 9));
    const int64_t inner = k % 2 ? 1 : 1 + urand() % (k % 3 == 0 ? 150 : 9);
    const int range = k % 4 == 0 ? 3 : 256;
    const int64_t n = outer * axis * inner;
    void *x = malloc((size_t)n * dt_size(dt));
    fill(dt, x, n, range);
    for (int o = 0; o < 2; o++) {
      const tfcc_dtype odt = o ? TFCC_INT64 : TFCC_INT32;
      const size_t ob = (size_t)(outer * inner) * (o ? 8 : 4);
      for (int mx = 0; mx < 2; mx++) {
        void *a = malloc(ob + 8), *b = malloc(ob + 8);
        memset(a, 0x77, ob + 8);
        memset(b, 0x77, ob + 8);
        CHECK(tfcc_arg_min_max(dt, x, outer, axis, inner, mx, odt, a));
        CHECK(tfcc_arg_min_max_fast(dt, x, outer, axis, inner, mx, odt, b));
        CHECKF(memcmp(a, b, ob + 8) == 0, "%s dtype %d out %d [%lld, %d, %lld] differs",
               mx ? "ARG_MAX" : "ARG_MIN", (int)dt, (int)odt, (long long)outer, (int)axis,
               (long long)inner);
        free(a);
        free(b);
      }
    }
    free(x);
  }
  /* REDUCE_MAX / REDUCE_MIN */
  static const tfcc_dtype rdts[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8,
                                    TFCC_INT16,   TFCC_INT32, TFCC_INT64};
  int taken = 0, refused = 0;
  for (int k = 0; k < 4000; k++) {
    const tfcc_dtype dt = rdts[k % 6];
    tfcc_reduce_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.rank = (int32_t)(urand() % 6);
    for (int32_t d = 0; d < sh.rank; d++) {
      sh.dims[d] = (int32_t)(1 + urand() % (k % 7 == 0 ? 30 : 6));
      sh.reduced[d] = urand() % 2 == 0;
    }
    tfcc_reduce_shape_finish(&sh);
    if (sh.in_count == 0) continue;
    void *x = malloc((size_t)sh.in_count * dt_size(dt));
    fill(dt, x, sh.in_count, k % 4 == 0 ? 3 : 256);
    const size_t ob = (size_t)sh.out_count * dt_size(dt);
    for (int mx = 0; mx < 2; mx++) {
      void *a = malloc(ob + 8), *b = malloc(ob + 8);
      memset(a, 0x77, ob + 8);
      memset(b, 0x77, ob + 8);
      CHECK(tfcc_reduce_generic(&sh, mx ? TFCC_REDUCE_MAX : TFCC_REDUCE_MIN, dt, x, a));
      if (tfcc_reduce_max_min_fast(&sh, mx, dt, x, b)) {
        taken++;
        CHECKF(memcmp(a, b, ob + 8) == 0, "%s dtype %d rank %d differs",
               mx ? "REDUCE_MAX" : "REDUCE_MIN", (int)dt, (int)sh.rank);
      } else {
        refused++;
        /* refused only when two reduced axes of size > 1 have a kept one between them */
        int stage = 0;
        bool split = false;
        for (int32_t d = 0; d < sh.rank; d++) {
          if (sh.dims[d] == 1) continue;
          if (sh.reduced[d])
            split |= stage == 2, stage = 1;
          else if (stage == 1)
            stage = 2;
        }
        CHECKF(split, "REDUCE dtype %d rank %d refused", (int)dt, (int)sh.rank);
      }
      free(a);
      free(b);
    }
    free(x);
  }
  CHECKF(taken > 3000 && refused > 100, "reduce cases taken %d refused %d", taken, refused);
  int32_t y[4];
  CHECK(!tfcc_arg_min_max_fast(TFCC_FLOAT16, y, 1, 1, 1, true, TFCC_INT32, y));
  CHECK(!tfcc_arg_min_max_fast(TFCC_FLOAT32, y, 1, 1, 1, true, TFCC_INT16, y));
  CHECK(!tfcc_arg_min_max_fast(TFCC_FLOAT32, y, 1, 0, 1, true, TFCC_INT32, y));
  return tfcc_test_finish("ops.test_arg_fast");
}
