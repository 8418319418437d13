/* Float output stage of the q8 GEMM kernels of vnni_body.h (q8-gemm-6x16-avxvnni, -avx2, and through
 * requant-avx512.h q8-gemm-14x32-avx512vnni and q8-gemm-16x64-amxint8), written once over the
 * i32v primitives: two rows of 2 * I32V_N int32 accumulators (columns 0.. in a0 / b0, I32V_N..
 * in a1 / b1) stored as int32 (o->c32, rows 2 * I32V_N apart) or requantized to bytes. Include
 * after an i32v_*.h header.
 *
 * Requantization: exactly tfcc_requant_fp32 (clamp((float)acc * scale, lo, hi), round half to
 * even, + zp) with fewer instructions: cvtdq2ps, mul, min(hi) in float, cvtps2dq (round half
 * to even; below -2^31 it gives INT32_MIN, which saturates to the bottom like the value
 * would), saturating packs to int16, + zp (saturating), saturating pack to 8 bits, max with
 * act_min, one dword permute back to row order. Equal to the reference because rounding is
 * monotone and lo, hi are integers: round(clamp(f, lo, hi)) = clamp(round(f), lo, hi), and
 * every saturation on the way is monotone and the identity on [act_min, act_max]. */
#ifndef TFCC_KERNELS_Q8_GEMM_REQUANT_BODY_H
#define TFCC_KERNELS_Q8_GEMM_REQUANT_BODY_H

#include "kernels/q8-gemm/ukernels.h"

static inline i32v requant_fp32_(i32v acc, f32v scale, f32v hi) {
  return i32v_from_f32(f32v_min(f32v_mul(i32v_to_f32(acc), scale), hi));
}

/* Rows i and i + 1 (i + 1 may be >= mr: computed, not stored); s0, s1: the columns' scales. */
static inline void store_pair(size_t i, size_t mr, size_t nc, i32v a0, i32v a1, i32v b0, i32v b1,
                              f32v s0, f32v s1, const tfcc_q8_out *o, int is_signed) {
  enum { NR2 = 2 * I32V_N };
  if (o->c32) {
    i32v_st(o->c32 + i * NR2, a0);
    i32v_st(o->c32 + i * NR2 + I32V_N, a1);
    if (i + 1 < mr) {
      i32v_st(o->c32 + (i + 1) * NR2, b0);
      i32v_st(o->c32 + (i + 1) * NR2 + I32V_N, b1);
    }
    return;
  }
  const f32v hi = f32v_set(o->hi);
  a0 = requant_fp32_(a0, s0, hi);
  a1 = requant_fp32_(a1, s1, hi);
  b0 = requant_fp32_(b0, s0, hi);
  b1 = requant_fp32_(b1, s1, hi);
  const i32v zp = i32v_set16((int16_t)o->zp);
  /* block l: a0[4l..4l+3] a1[4l..4l+3] (int16), likewise b */
  const i32v pa = i32v_adds16(i32v_packs16(a0, a1), zp);
  const i32v pb = i32v_adds16(i32v_packs16(b0, b1), zp);
  /* dword 4l + g holds elements 4l..4l+3 of a0, a1, b0, b1 for g = 0..3 */
  const int32_t amin = (int32_t)o->lo + o->zp;
  const bool s = is_signed != 0;
  const i32v v = i32v_unblock(i32v_max8(i32v_packs8(pa, pb, s), i32v_set8((int8_t)amin), s));
  uint8_t *c = o->c + i * o->c_stride;
  const size_t n = nc < NR2 ? nc : NR2;
  i32v_st_u8_half(c, v, 0, n);
  if (i + 1 < mr) i32v_st_u8_half(c + o->c_stride, v, 1, n);
}

#endif
