/* Float32 vector primitives: one small header per instruction set (f32v_avx2.h, f32v_avx512.h,
 * f32v_sse4.h, f32v_neon.h, f32v_wasmsimd.h; f32v_scalar.h, one lane, for portable builds),
 * each defining
 * the same names, so that a kernel body is written once (kernels/<family>/<name>_body.h) and
 * built per ISA by a three-line file that includes the ISA's header and then the body.
 *
 * Every header defines:
 *   f32v, f32m          a vector of F32V_N floats; a lane mask from a comparison
 *   F32V_N              lanes
 *   f32v_ld(p), f32v_st(p, v)          unaligned load / store of F32V_N floats
 *   f32v_ld_n(p, n), f32v_st_n(p, v, n) the first n < F32V_N lanes (loaded lanes above n are 0;
 *                                      nothing is read or written past p + n)
 *   f32v_set(x), f32v_zero()
 *   f32v_add, f32v_sub, f32v_mul, f32v_div           one IEEE operation per lane
 *   f32v_fma(a, b, c) = a * b + c, f32v_fnma(a, b, c) = c - a * b   fused (one rounding)
 *   f32v_max(x, y) = x > y ? x : y, f32v_min(x, y) = x < y ? x : y  (so NaN in x gives y, as
 *                                      the reference kernels' conditionals)
 *   f32v_clamp(v, lo, hi) = f32v_min(hi, f32v_max(lo, v)): v < lo ? lo : v, then hi < v ? hi : v
 *                                      (NaN passes, as the scalar reference clamp and TFLite's
 *                                      min(max(v, lo), hi)); written once below for every ISA
 *   f32v_gt, f32v_ge, f32v_lt (ordered: false when either is NaN) -> f32m
 *   f32v_sel(m, a, b) = m ? a : b
 *   f32v_abs(x), f32v_neg_abs(x) = -|x| (as each ISA computed it before the bodies were shared),
 *   f32v_copysign(t, x)               t with x's sign bit or-ed in (t >= 0)
 *   f32v_round(x)                      to nearest, ties to even
 *   f32v_exp2i(n)                      2^n for integral n in [-126, 127]
 *   f32v_hsum(v), f32v_hmax(v)         horizontal sum / maximum (maximum as f32v_max)
 * The 8- and 16-lane headers also define
 *   f32v_ld_x4(p)                      p[0..3] in every group of four lanes (lane i: p[i % 4])
 */
#ifndef TFCC_KERNELS_SIMD_F32V_H
#define TFCC_KERNELS_SIMD_F32V_H

/* A macro, so that it serves every ISA header (which includes this file before defining its
 * f32v type) and the kernels that name the vector primitives themselves (f32-gemm-4x8-sse4.c). */
#define f32v_clamp(v, lo, hi) f32v_min(hi, f32v_max(lo, v))

#endif
