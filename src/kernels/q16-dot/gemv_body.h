/* Portable body of the q16-dot GEMV (dot.h: tfcc_q16_gemv_fn), included by the per-ISA files
 * after their primitives header (q16d_<isa>.h) with TFCC_Q16_GEMV_FN defined. The primitives:
 *   q16dv               int32 lanes of sums
 *   q16dx               Q16D_N int16 (Q16D_N / 2 pairs, one pair per lane of q16dv)
 *   q16d_zero(), q16d_ldx(p) (Q16D_N int16 at p), q16d_ldw(p) (Q16D_N int8 at p, widened)
 *   q16d_madd(acc, x, w)  each lane of acc + the products of its pair of x and w, in int32
 *   q16d_sum(v)         the lanes' sum in int64
 * A lane takes two products (each at most 2^22 in size) a step, at most Q16D_STEPS steps (2^31 -
 * 2^23 at most) before its sums go into int64: every sum is exact, so it is the reference's.
 * Four units share each load of x; the last K % Q16D_N elements: q16d_dot_n (AVX-512: masked
 * loads; else a plain loop), nothing read past a row. */
#include "kernels/q16-dot/dot.h"

#if defined(__GNUC__) && !defined(__clang__)
/* as in q16-gemm's gemm_body.h: GCC's out-of-SSA coalescing copies every sum a step otherwise */
#pragma GCC optimize("no-tree-coalesce-vars")
#endif

#define Q16D_STEPS 255

/* acc[0..3] += rows w0..w3 (w_stride apart) . x over elements [k0, k1), k1 - k0 a multiple of
 * Q16D_N, at most Q16D_STEPS vectors. */
static inline __attribute__((always_inline)) void q16d_run4(const int16_t *x, const int8_t *w,
                                                            size_t ws, size_t k0, size_t k1,
                                                            int64_t *acc) {
  q16dv s0 = q16d_zero(), s1 = q16d_zero(), s2 = q16d_zero(), s3 = q16d_zero();
  for (size_t k = k0; k < k1; k += Q16D_N) {
    const q16dx xv = q16d_ldx(x + k);
    s0 = q16d_madd(s0, xv, q16d_ldw(w + k));
    s1 = q16d_madd(s1, xv, q16d_ldw(w + ws + k));
    s2 = q16d_madd(s2, xv, q16d_ldw(w + 2 * ws + k));
    s3 = q16d_madd(s3, xv, q16d_ldw(w + 3 * ws + k));
  }
  acc[0] += q16d_sum(s0), acc[1] += q16d_sum(s1), acc[2] += q16d_sum(s2), acc[3] += q16d_sum(s3);
}

static inline __attribute__((always_inline)) int64_t q16d_run1(const int16_t *x, const int8_t *w,
                                                               size_t k0, size_t k1) {
  q16dv s = q16d_zero();
  for (size_t k = k0; k < k1; k += Q16D_N) s = q16d_madd(s, q16d_ldx(x + k), q16d_ldw(w + k));
  return q16d_sum(s);
}

#ifndef Q16D_HAS_DOT_N
/* The dot product of the first n < Q16D_N elements. */
static inline int64_t q16d_dot_n(const int16_t *x, const int8_t *w, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += (int32_t)x[i] * w[i];
  return s;
}
#endif

void TFCC_Q16_GEMV_FN(const int16_t *x, const int8_t *w, size_t K, size_t units, size_t w_stride,
                      int64_t *acc) {
  const size_t kv = K - K % Q16D_N, tail = K - kv, block = (size_t)Q16D_STEPS * Q16D_N;
  size_t u = 0;
  for (; u + 4 <= units; u += 4) {
    const int8_t *wu = w + u * w_stride;
    for (size_t k0 = 0; k0 < kv; k0 += block)
      q16d_run4(x, wu, w_stride, k0, kv - k0 < block ? kv : k0 + block, acc + u);
    if (tail)
      for (size_t i = 0; i < 4; i++) acc[u + i] += q16d_dot_n(x + kv, wu + i * w_stride + kv, tail);
  }
  for (; u < units; u++) {
    const int8_t *wu = w + u * w_stride;
    for (size_t k0 = 0; k0 < kv; k0 += block)
      acc[u] += q16d_run1(x, wu, k0, kv - k0 < block ? kv : k0 + block);
    if (tail) acc[u] += q16d_dot_n(x + kv, wu + kv, tail);
  }
}
