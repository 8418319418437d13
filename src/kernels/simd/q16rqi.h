/* The integer-mode requantization of an int32 sum s that the int16 x int8 kernels (q16-gemm's
 * tfcc_q16_gemm_rq, q16-dwconv's tfcc_q16_dw_rq, and the int64 groups of q16_requant_x86.h)
 * share, per channel j, on plain arrays of per-channel terms:
 *   x = s * mult[j] + bm[j] in int64, (int32)(x >> shift[j]) (arithmetic, shift 1..62),
 *   then + offset (wrapping in int32) and the clamp to [act_min, act_max].
 * That is tfcc_requant64 (kernels/ref/conv_acc.h) of s bit for bit where bm = bias * mult +
 * 2^(shift - 1) and the kernel's precomputation has checked the ranges (see each caller).
 * This header: the scalar lane (the variants without 64-bit vector shifts by lane: scalar,
 * SIMD128, and the real-mode-free lanes of the others). One header per instruction set
 * (q16rqi_avx2.h, q16rqi_avx512.h, q16rqi_neon.h) defines the same vector names:
 *   tfcc_q16rqi(s, mult, bm, shift)          the ISA's int32 vector of sums, lane i by the
 *                                             terms at index i: the int32 results in lane order
 *   tfcc_q16rq_end(v, offset, act_min, act_max)  + offset (wrapping), the clamp
 * and the x86 ones, for sums already in int64 lanes (q16_requant_x86.h):
 *   tfcc_q16rqi64(a, mult, bm, shift)        (a * mult + bm) >> shift per int64 lane, a and
 *                                             mult within int32 (VPMULDQ) */
#ifndef TFCC_KERNELS_SIMD_Q16RQI_H
#define TFCC_KERNELS_SIMD_Q16RQI_H

#include <stdint.h>

static inline int32_t tfcc_q16rqi_lane(int32_t s, int64_t mult, int64_t bm, int64_t shift) {
  return (int32_t)(uint32_t)(uint64_t)(((int64_t)s * mult + bm) >> shift);
}
static inline int32_t tfcc_q16rq_end_lane(int32_t v, int32_t offset, int32_t act_min,
                                          int32_t act_max) {
  v = (int32_t)((uint32_t)v + (uint32_t)offset);
  return v < act_min ? act_min : (v > act_max ? act_max : v);
}

#endif
