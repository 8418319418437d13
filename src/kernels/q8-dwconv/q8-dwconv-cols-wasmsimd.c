/* q8 depthwise on WebAssembly's relaxed dot product (q8-dwconv-8-wasmrdot, the relaxed-SIMD
 * binary's; tfcc_q8_dw_cols_fn, layout in dwconv.h): 8 channels per step. A "column quad" is
 * one filter column's input bytes of 4 filter rows (zero weights past fh), interleaved so that
 * each int32 lane holds one channel's 4 rows; one i32x4.relaxed_dot_i8x16_i7x16_add_s then
 * multiplies them by the packed weight quad (signed bytes, first operand) and adds to the
 * channel's sum: 4 products per lane in one operation, where the SIMD128 kernel
 * (q8-dwconv-wasmsimd.c) needs a widen, an unpack, a dot and an add per 2. The activations are
 * the second operand, read as unsigned bytes: uint8 x as is, int8 x as x ^ 0x80 = x + 128
 * (the bias holds -128 * sum w', driver.c pack_cols). That is the exact dot product only where
 * the engine computes it as u8 x s8 (AVX-VNNI's vpdpbusd), so dispatch takes this kernel after
 * the q8 GEMM's self-check (tfcc_q8_gemm_wasm_rdot_exact), as q8-gemm-4x8-wasmrdot.
 * A 3x3 filter on a run of interior pixels at stride 1 or 2 builds each input column's quad
 * once and uses it for every pixel that reads it (3 or 2 pixels: 1 or 2 new quads per
 * pixel); anything else (edge pixels, other filters) builds each pixel's quads.
 * Requantization: tfcc_requant_fp32's (wasmsimd_requant.h), as the SIMD128 kernel. The dot
 * product's placeholder: kernels/simd/wasm_rdot.h. */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-dwconv/ukernels.h"
#include "kernels/q8-dwconv/wasmsimd_requant.h"
#include "kernels/simd/wasm_rdot.h"

#define INLINE static inline __attribute__((always_inline))

/* acc + the 4-byte dot products of w (signed) and x (unsigned) per lane (the plain binary's
 * stand-in is no such dot product: there the self-check fails and the kernel is never taken) */
#define rdot tfcc_wasm_rdot

/* 8 bytes at p into the low half (nb < 8: nb of them, zeros after) */
static inline v128_t ld8(const uint8_t *p, size_t nb) {
  if (nb >= 8) return wasm_v128_load64_zero(p);
  uint8_t t[8] = {0};
  memcpy(t, p, nb);
  return wasm_v128_load64_zero(t);
}

/* The quads of 8 channels from rows a, b, c, d (low 8 bytes each): q0 channels 0-3, q1 4-7,
 * lane j = (a_j, b_j, c_j, d_j) ^ flip. */
#define QUAD(a, b, c, d, q0, q1) \
  { \
    const v128_t u_ = \
        wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23); \
    const v128_t v_ = \
        wasm_i8x16_shuffle(c, d, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23); \
    q0 = wasm_i16x8_shuffle(u_, v_, 0, 8, 1, 9, 2, 10, 3, 11); \
    q1 = wasm_i16x8_shuffle(u_, v_, 4, 12, 5, 13, 6, 14, 7, 15); \
    if (is_signed) q0 = wasm_v128_xor(q0, flip), q1 = wasm_v128_xor(q1, flip); \
  }
/* 3x3: the quad of the column at p0, p1, p2 (filter rows 0-2; the fourth byte meets zeros) */
#define QUAD3(p0, p1, p2, q0, q1) \
  { \
    const v128_t r2_ = wasm_v128_load64_zero(p2); \
    QUAD(wasm_v128_load64_zero(p0), wasm_v128_load64_zero(p1), r2_, r2_, q0, q1) \
  }

typedef struct outk {
  v128_t vmin, vzp, vmax;
} outk;

/* 8 channels' sums requantized, as int16 (>= act_min - the type's range: see the q8dw_requant
 * of q8-dwconv-wasmsimd.c) */
INLINE v128_t req8(v128_t a0, v128_t a1, const float *scale, const outk *k) {
  return wasm_i16x8_narrow_i32x4(tfcc_q8dw_requant4(a0, scale, k->vmin, k->vzp),
                                 tfcc_q8dw_requant4(a1, scale + 4, k->vmin, k->vzp));
}

/* two such int16 vectors as bytes (narrowed with saturation, clamped to act_max) */
INLINE v128_t bytes16(v128_t q0, v128_t q1, const outk *k, bool is_signed) {
  return is_signed ? wasm_i8x16_min(wasm_i8x16_narrow_i16x8(q0, q1), k->vmax)
                   : wasm_u8x16_min(wasm_u8x16_narrow_i16x8(q0, q1), k->vmax);
}

/* 8 channels' sums to nb (<= 8) bytes at out */
INLINE void put8(uint8_t *out, v128_t a0, v128_t a1, const float *scale, const outk *k, size_t nb,
                 bool is_signed) {
  const v128_t q = req8(a0, a1, scale, k);
  const v128_t b = bytes16(q, q, k, is_signed);
  if (nb >= 8) {
    wasm_v128_store64_lane(out, b, 0);
    return;
  }
  uint8_t t[16];
  wasm_v128_store(t, b);
  memcpy(out, t, nb);
}

/* Any filter, any tap pointers: channels from ch0 on, each pixel's quads built for it. */
INLINE void cols_any(size_t c, size_t ch0, int32_t fh, int32_t fw, const uint8_t *const *taps,
                     const int32_t *pw, const outk *k, uint8_t *outp, size_t n, size_t step,
                     bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15, nq = ((size_t)fh + 3) / 4, W = (size_t)fw;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *wq = pw + 2 * c16;
  const v128_t flip = wasm_i8x16_splat((int8_t)0x80);
  for (size_t i = 0, off = 0; i < n; i++, off += step, outp += c)
    for (size_t ch = ch0; ch < c; ch += 8) {
      const size_t nb = c - ch;
      v128_t a0 = wasm_v128_load(pw + ch), a1 = wasm_v128_load(pw + ch + 4);
      for (size_t q = 0; q < nq; q++) {
        const size_t r = 4 * q, last = (size_t)fh - 1;
        const size_t r1 = r + 1 < last ? r + 1 : last, r2 = r + 2 < last ? r + 2 : last;
        const size_t r3 = r + 3 < last ? r + 3 : last;
        for (size_t fx = 0; fx < W; fx++) {
          v128_t q0, q1;
          QUAD(ld8(taps[r * W + fx] + off + ch, nb), ld8(taps[r1 * W + fx] + off + ch, nb),
               ld8(taps[r2 * W + fx] + off + ch, nb), ld8(taps[r3 * W + fx] + off + ch, nb), q0, q1)
          const int32_t *wg = wq + (q * W + fx) * c16 + ch;
          a0 = rdot(wasm_v128_load(wg), q0, a0);
          a1 = rdot(wasm_v128_load(wg + 4), q1, a1);
        }
      }
      put8(outp + ch, a0, a1, scale + ch, k, nb, is_signed);
    }
}

/* One pixel of 8 channels from the quads of its three input columns X, Y, Z (cols3): the
 * requantized int16 q (PIXQ) or its bytes at o (PIX; two pixels' int16 narrowed together were
 * 2-4 % slower: the first's held across the second spilled). */
#define PIXQ(X, Y, Z, q) \
  { \
    v128_t a0 = rdot(wasm_v128_load(wg), X##0, b0); \
    v128_t a1 = rdot(wasm_v128_load(wg + 4), X##1, b1); \
    a0 = rdot(wasm_v128_load(wg + c16), Y##0, a0); \
    a1 = rdot(wasm_v128_load(wg + c16 + 4), Y##1, a1); \
    a0 = rdot(wasm_v128_load(wg + 2 * c16), Z##0, a0); \
    a1 = rdot(wasm_v128_load(wg + 2 * c16 + 4), Z##1, a1); \
    q = req8(a0, a1, scale + ch, k); \
  }
#define PIX(X, Y, Z, o) \
  { \
    v128_t q_; \
    PIXQ(X, Y, Z, q_) \
    wasm_v128_store64_lane(o, bytes16(q_, q_, k, is_signed), 0); \
  }

/* 3x3 on a run at stride 1 (s2 false) or 2 (s2 true), whole 8-channel steps below cend: each
 * input column's quad built once. Column j of filter row r is taps[3 r] + j * dx. */
INLINE void cols3(size_t c, size_t cend, const uint8_t *const *taps, size_t dx, const int32_t *pw,
                  const outk *k, uint8_t *outp, size_t n, bool s2, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *wq = pw + 2 * c16;
  const v128_t flip = wasm_i8x16_splat((int8_t)0x80);
  for (size_t ch = 0; ch < cend; ch += 8) {
    const uint8_t *p0 = taps[0] + ch, *p1 = taps[3] + ch, *p2 = taps[6] + ch;
    const int32_t *wg = wq + ch;
    const v128_t b0 = wasm_v128_load(pw + ch), b1 = wasm_v128_load(pw + ch + 4);
    uint8_t *out = outp + ch;
    v128_t A0, A1, B0, B1, C0, C1;
    QUAD3(p0, p1, p2, A0, A1)
    p0 += dx, p1 += dx, p2 += dx;
    if (!s2) {
      QUAD3(p0, p1, p2, B0, B1)
      p0 += dx, p1 += dx, p2 += dx;
    }
    size_t i = 0;
    if (s2) { /* two new quads a pixel; two pixels an iteration were slower (V8 spilled) */
      for (; i < n; i++, out += c) {
        QUAD3(p0, p1, p2, B0, B1)
        p0 += dx, p1 += dx, p2 += dx;
        QUAD3(p0, p1, p2, C0, C1)
        p0 += dx, p1 += dx, p2 += dx;
        PIX(A, B, C, out)
        A0 = C0, A1 = C1;
      }
      continue;
    }
    /* stride 1: two pixels an iteration (no moves between the quads' registers, half the loop
       work; 6-8 % faster than one) */
    for (; i + 2 <= n; i += 2, out += 2 * c) {
      v128_t D0, D1;
      QUAD3(p0, p1, p2, C0, C1)
      p0 += dx, p1 += dx, p2 += dx;
      PIX(A, B, C, out)
      QUAD3(p0, p1, p2, D0, D1)
      p0 += dx, p1 += dx, p2 += dx;
      PIX(B, C, D, out + c)
      A0 = C0, A1 = C1, B0 = D0, B1 = D1;
    }
    if (i < n) {
      QUAD3(p0, p1, p2, C0, C1)
      PIX(A, B, C, out)
    }
  }
}

/* Specialised per stride and signedness (constant arguments: no branches in the loops). The
 * link's optimiser (binaryen) inlines them into the two entry points all the same; V8's
 * trace shows the stride-1 loop without spills of the quads. */
#define COLS3(name, s2, is_signed) \
  static __attribute__((noinline)) void name(size_t c, size_t cend, const uint8_t *const *taps, \
                                             size_t dx, const int32_t *pw, const outk *k, \
                                             uint8_t *outp, size_t n) { \
    cols3(c, cend, taps, dx, pw, k, outp, n, s2, is_signed); \
  }
COLS3(cols3_s1_s, false, true)
COLS3(cols3_s2_s, true, true)
COLS3(cols3_s1_u, false, false)
COLS3(cols3_s2_u, true, false)
#define COLS_ANY(name, is_signed) \
  static __attribute__((noinline)) void name( \
      size_t c, size_t ch0, int32_t fh, int32_t fw, const uint8_t *const *taps, const int32_t *pw, \
      const outk *k, uint8_t *outp, size_t n, size_t step) { \
    cols_any(c, ch0, fh, fw, taps, pw, k, outp, n, step, is_signed); \
  }
COLS_ANY(cols_any_s, true)
COLS_ANY(cols_any_u, false)
/* 3x3 with the filter size known (edge pixels: their loops unrolled) */
#define COLS_ANY3(name, is_signed) \
  static __attribute__((noinline)) void name(size_t c, const uint8_t *const *taps, \
                                             const int32_t *pw, const outk *k, uint8_t *outp, \
                                             size_t n, size_t step) { \
    cols_any(c, 0, 3, 3, taps, pw, k, outp, n, step, is_signed); \
  }
COLS_ANY3(cols_any3_s, true)
COLS_ANY3(cols_any3_u, false)

INLINE void cols(size_t c, int32_t fh, int32_t fw, const uint8_t *const *taps, const int32_t *pw,
                 const tfcc_q8_out *o, size_t n, size_t step, bool is_signed) {
  outk k;
  k.vmin = tfcc_q8dw_magic_min(o->lo);
  k.vzp = tfcc_q8dw_magic_zp(o->zp);
  k.vmax = wasm_i8x16_splat((int8_t)((int32_t)o->hi + o->zp));
  size_t ch0 = 0;
  if (fh == 3 && fw == 3 && n >= 2) {
    const size_t dx = (size_t)(taps[1] - taps[0]);
    bool rows = taps[1] > taps[0];
    for (int r = 0; r < 3; r++)
      rows = rows && taps[3 * r + 1] == taps[3 * r] + dx && taps[3 * r + 2] == taps[3 * r + 1] + dx;
    if (rows && (step == dx || step == 2 * dx)) {
      ch0 = c & ~(size_t)7;
      if (step == dx)
        (is_signed ? cols3_s1_s : cols3_s1_u)(c, ch0, taps, dx, pw, &k, o->c, n);
      else
        (is_signed ? cols3_s2_s : cols3_s2_u)(c, ch0, taps, dx, pw, &k, o->c, n);
      if (ch0 == c) return;
    }
  }
  if (fh == 3 && fw == 3 && ch0 == 0)
    (is_signed ? cols_any3_s : cols_any3_u)(c, taps, pw, &k, o->c, n, step);
  else
    (is_signed ? cols_any_s : cols_any_u)(c, ch0, fh, fw, taps, pw, &k, o->c, n, step);
}

void tfcc_q8_dw_cols_s_wasmsimd(size_t c, int32_t fh, int32_t fw, const uint8_t *const *taps,
                                const int32_t *pw, const tfcc_q8_out *o, size_t n, size_t step) {
  cols(c, fh, fw, taps, pw, o, n, step, true);
}
void tfcc_q8_dw_cols_u_wasmsimd(size_t c, int32_t fh, int32_t fw, const uint8_t *const *taps,
                                const int32_t *pw, const tfcc_q8_out *o, size_t n, size_t step) {
  cols(c, fh, fw, taps, pw, o, n, step, false);
}
