/* Int32 vector primitives: one small header per instruction set (i32v_avx2.h, i32v_avx512.h),
 * each defining the same names, so that the int32-lane arithmetic of a quantized kernel (q8
 * elementwise, q8 resize) is written once for both widths, as f32v.h does for float32.
 *
 * The x86 headers (i32v_avx2.h, i32v_avx512.h) define all of the names below (and include their
 * f32v header, whose f32v the conversions use); i32v_neon.h and i32v_wasmsimd.h define the
 * int32 arithmetic up to i32v_srdhm, i32v_shc and i32v_ld / i32v_st (what kernels/simd/
 * i32v_rdiv.h and the int16 softmax use):
 *   i32v                a vector of I32V_N int32 lanes
 *   I32V_N              lanes
 *   i32v_set(x)                         every lane x
 *   i32v_add, i32v_sub, i32v_mullo      wrapping int32 add, subtract, low 32 bits of the product
 *   i32v_min, i32v_max, i32v_and
 *   i32v_slli(x, k), i32v_srai(x, k)    shift by a constant k (macros)
 *   i32v_shc, i32v_shc_make(k)          a shift count k >= 0 as the variable shifts take it
 *                                      (x86: the low 64 bits of an __m128i)
 *   i32v_sll(x, c), i32v_sra(x, c)      shift by the count c (an i32v_shc): a count past 31
 *                                      gives 0 (sll) or the sign in every bit (sra)
 *   i32v_inc_gt(q, a, b)                q + 1 in the lanes where a > b (signed), else q
 *   i32v_srdhm(x, m)                    gemmlowp SaturatingRoundingDoublingHighMul for
 *                                      m != INT32_MIN: (x * m + 2^30) >> 31 per lane
 *   i32v_to_f32(x), i32v_from_f32(f)    int32 <-> float32 (round to nearest even)
 *   i32v_widen8(b, s)                   the first I32V_N bytes of the __m128i b, sign-extended
 *                                      (s) or zero-extended
 *   i32v_ld_i8(p, s)                    I32V_N bytes at p (int8 if s, else uint8), widened
 *   i32v_ld_i8_n(p, n, s)               the first n < I32V_N of them (lanes above n are 0;
 *                                      nothing is read past p + n)
 *   i32v_st_i8(p, x, s), i32v_st_i8_n(p, x, n, s)   the lanes, which hold values of the byte
 *                                      type, stored as I32V_N (or the first n) bytes
 *   i32v_ld(p), i32v_st(p, x)           I32V_N int32 at p (any alignment)
 *   i32v_lda(p)                         the same at p aligned to the vector size
 * and, for output stages that narrow four vectors to bytes at once (the q8 GEMM kernels), the
 * same vector seen as 16-bit or 8-bit lanes, in 128-bit blocks as the pack instructions work:
 *   i32v_packs16(a, b)                  int32 -> int16, saturating: block l holds a's four
 *                                      lanes of block l, then b's
 *   i32v_set16(x), i32v_adds16(a, b)    every int16 lane x; saturating int16 add
 *   i32v_packs8(a, b, s)                int16 -> int8 (s) or uint8, saturating, the same way
 *   i32v_set8(x), i32v_max8(a, b, s)    every byte x; int8 (s) or uint8 maximum
 *   i32v_unblock(x)                     dword 4l + g (block l) to dword g * I32V_N / 4 + l
 *   i32v_st_u8_half(p, x, h, n)         bytes h * 2 * I32V_N.. of x (half h of them), the
 *                                      first n (at most 2 * I32V_N) stored at p */
#ifndef TFCC_KERNELS_SIMD_I32V_H
#define TFCC_KERNELS_SIMD_I32V_H
#endif
