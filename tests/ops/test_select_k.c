/* TOPK_V2's kernel (a heap, O(n log k)) against a selection of the largest remaining value,
 * earliest position first, and UNIQUE's (a table of ids or a radix sort, linear) against the
 * straightforward O(n^2) scan it replaced: distinct values in order of first appearance, each element's index, every
 * dtype, both index sizes; floats equal by == (-0 and 0 one value, every NaN its own); few and
 * many distinct values, and a large input that the scan would take minutes over. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/select_k.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* The scan: count, uniq (as bytes) and idx (int64). */
static int64_t scan(tfcc_dtype dt, const uint8_t *x, int64_t n, uint8_t *uniq, int64_t *idx) {
  const size_t es = tfcc_dtype_size(dt);
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t j = 0;
    for (; j < count; j++) {
      const bool eq = dt == TFCC_FLOAT32
                          ? ((const float *)uniq)[j] == ((const float *)x)[i]
                          : memcmp(uniq + (size_t)j * es, x + (size_t)i * es, es) == 0;
      if (eq) break;
    }
    if (j == count) memcpy(uniq + (size_t)count++ * es, x + (size_t)i * es, es);
    idx[i] = j;
  }
  return count;
}

static void check_one(tfcc_dtype dt, int64_t n, uint32_t range) {
  const size_t es = tfcc_dtype_size(dt);
  uint8_t *x = malloc((size_t)n * es + 1), *u_ref = malloc((size_t)n * es + 1);
  uint8_t *u = malloc((size_t)n * es + 1);
  int64_t *i_ref = malloc(sizeof(int64_t) * (size_t)n + 8);
  int64_t *i64 = malloc(sizeof(int64_t) * (size_t)n + 8);
  int32_t *i32 = malloc(sizeof(int32_t) * (size_t)n + 4);
  void *order = malloc(tfcc_ref_unique_scratch_bytes(dt, n));
  for (int64_t i = 0; i < n; i++) {
    const uint32_t r = rnd() % range;
    switch (dt) {
      case TFCC_FLOAT32: {
        float v = (float)r - (float)range / 2;
        if (r % 7 == 3) v = NAN;
        if (r % 11 == 5) v = -0.0f;
        if (r % 13 == 6) v = 0.0f;
        ((float *)x)[i] = v;
        break;
      }
      case TFCC_UINT8: x[i] = (uint8_t)r; break;
      case TFCC_INT8: ((int8_t *)x)[i] = (int8_t)(r - range / 2); break;
      case TFCC_INT16: ((int16_t *)x)[i] = (int16_t)(r - range / 2); break;
      case TFCC_INT32: ((int32_t *)x)[i] = (int32_t)(r * 2654435761u); break;
      default: ((int64_t *)x)[i] = (int64_t)r * -1000003 * 1000003; break;
    }
  }
  const int64_t c_ref = scan(dt, x, n, u_ref, i_ref);
  CHECKF(tfcc_ref_unique_count(dt, x, n, order) == c_ref, "%s n %lld", tfcc_dtype_name(dt),
         (long long)n);
  for (int idx_size = 4; idx_size <= 8; idx_size += 4) {
    memset(u, 0xA5, (size_t)n * es + 1);
    const int64_t c =
        tfcc_ref_unique(dt, x, n, u, idx_size == 8 ? (void *)i64 : (void *)i32, idx_size, order);
    CHECKF(c == c_ref, "%s n %lld: %lld distinct, expected %lld", tfcc_dtype_name(dt), (long long)n,
           (long long)c, (long long)c_ref);
    if (c != c_ref) continue;
    /* bytes equal (a NaN is the same NaN it was read as) */
    CHECKF(memcmp(u, u_ref, (size_t)c * es) == 0, "%s n %lld: values", tfcc_dtype_name(dt),
           (long long)n);
    bool same = true;
    for (int64_t i = 0; i < n; i++) same &= (idx_size == 8 ? i64[i] : i32[i]) == i_ref[i];
    CHECKF(same, "%s n %lld idx_size %d: indices", tfcc_dtype_name(dt), (long long)n, idx_size);
  }
  free(x), free(u_ref), free(u), free(i_ref), free(i64), free(i32), free(order);
}

/* 2^20 values, nearly all distinct: the scan's 5e11 steps; sorted runs take well under a
 * second. Checks the ids count up in first-appearance order and map back to the values. */
static void check_large(void) {
  const int64_t n = 1 << 20;
  int32_t *x = malloc(sizeof(int32_t) * (size_t)n), *u = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *idx = malloc(sizeof(int32_t) * (size_t)n);
  void *order = malloc(tfcc_ref_unique_scratch_bytes(TFCC_INT32, n));
  for (int64_t i = 0; i < n; i++) x[i] = (int32_t)(rnd() & 0x3fffff);
  const int64_t c = tfcc_ref_unique(TFCC_INT32, x, n, u, idx, 4, order);
  CHECK(c == tfcc_ref_unique_count(TFCC_INT32, x, n, order));
  bool ok = c > n / 2;
  int32_t next = 0;
  for (int64_t i = 0; i < n && ok; i++) {
    ok = idx[i] >= 0 && idx[i] <= next && u[idx[i]] == x[i];
    if (idx[i] == next) next++;
  }
  CHECK(ok && next == c);
  free(x), free(u), free(idx), free(order);
}

/* TOPK over rows x n int32 or float values with many ties, each k. */
static void check_topk(tfcc_dtype dt, int64_t rows, int64_t n, uint32_t range) {
  float *xf = malloc(sizeof(float) * (size_t)(rows * n + 1));
  int32_t *xi = malloc(sizeof(int32_t) * (size_t)(rows * n + 1));
  for (int64_t i = 0; i < rows * n; i++) {
    xi[i] = (int32_t)(rnd() % range) - (int32_t)range / 2;
    xf[i] = (float)xi[i] * 0.25f;
    if (xi[i] == 0 && (rnd() & 1)) xf[i] = -0.0f;
  }
  const void *x = dt == TFCC_FLOAT32 ? (const void *)xf : (const void *)xi;
  int32_t *vals = malloc(4 * (size_t)(rows * n + 1)), *idx = malloc(4 * (size_t)(rows * n + 1));
  int64_t *pos = malloc(sizeof(int64_t) * (size_t)(n + 1));
  bool *taken = malloc((size_t)n + 1);
  bool ok = true;
  for (int64_t k = 0; k <= n; k += 1 + n / 7) {
    tfcc_ref_topk(dt, x, rows, n, k, vals, idx, 4, pos);
    for (int64_t r = 0; r < rows; r++) {
      memset(taken, 0, (size_t)n + 1);
      for (int64_t j = 0; j < k; j++) {
        int64_t best = -1;
        for (int64_t i = 0; i < n; i++) {
          if (taken[i]) continue;
          const bool better = best < 0 || (dt == TFCC_FLOAT32 ? xf[r * n + i] > xf[r * n + best]
                                                              : xi[r * n + i] > xi[r * n + best]);
          if (better) best = i;
        }
        taken[best] = true;
        const int32_t want = dt == TFCC_FLOAT32 ? 0 : xi[r * n + best];
        ok &= idx[r * k + j] == best;
        ok &= dt == TFCC_FLOAT32 ? memcmp(&vals[r * k + j], &xf[r * n + best], 4) == 0
                                 : vals[r * k + j] == want;
      }
    }
    CHECKF(ok, "TOPK %s rows %lld n %lld k %lld", tfcc_dtype_name(dt), (long long)rows,
           (long long)n, (long long)k);
  }
  free(xf), free(xi), free(vals), free(idx), free(pos), free(taken);
}

/* k = n = 2^20 ascending values: the insertion's 5e11 steps. */
static void check_topk_large(void) {
  const int64_t n = 1 << 20;
  int32_t *x = malloc(sizeof(int32_t) * (size_t)n), *v = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *idx = malloc(sizeof(int32_t) * (size_t)n);
  int64_t *pos = malloc(sizeof(int64_t) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) x[i] = (int32_t)(i / 3);
  tfcc_ref_topk(TFCC_INT32, x, 1, n, n, v, idx, 4, pos);
  bool ok = true;
  int64_t j = 0; /* descending; equal values (threes) earliest first */
  for (int64_t g = (n - 1) / 3; g >= 0; g--)
    for (int64_t i = 3 * g; i < 3 * g + 3 && i < n; i++, j++) ok &= v[j] == x[i] && idx[j] == i;
  CHECK(ok);
  free(x), free(v), free(idx), free(pos);
}

int main(void) {
  static const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8,
                                   TFCC_INT16,   TFCC_INT32, TFCC_INT64};
  static const int64_t ns[] = {0, 1, 2, 3, 17, 256, 1000};
  static const uint32_t ranges[] = {1, 3, 50, 100000};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
      for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
        check_one(dts[d], ns[k], ranges[r]);
  check_large();
  for (int f = 0; f < 2; f++) {
    const tfcc_dtype dt = f ? TFCC_FLOAT32 : TFCC_INT32;
    check_topk(dt, 3, 1, 5);
    check_topk(dt, 2, 40, 3);
    check_topk(dt, 2, 300, 50);
    check_topk(dt, 1, 1000, 1000000);
  }
  check_topk_large();
  return tfcc_test_finish("ops.select_k");
}
