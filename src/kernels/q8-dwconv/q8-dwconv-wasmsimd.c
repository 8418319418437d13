/* q8 depthwise micro-kernel, WebAssembly SIMD128 (dwconv_body.h): 16 channels per step, taps
 * in pairs. The pack (tfcc_q8_dw_w16) stores the int16 weights w' of taps 2p and 2p + 1
 * interleaved per channel in tap row p (int16 2c + t % 2 of that c16-int32 row; an odd last tap
 * has a zero partner). Per pair and 8 channels the two taps' input bytes, loaded widened to int16
 * (v128.load8x8), are interleaved the same way (i16x8 unpack low / high) and meet the weights in
 * i32x4.dot_i16x8: x_t * w'_t + x_t+1 * w'_t+1 per channel, exact in int32 (|x| <= 255,
 * |w'| <= 255). The channel tail goes through a zero-padded copy. Requantization as
 * tfcc_requant_fp32 (round half to even, see wasmsimd_requant.h). */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-dwconv/ukernels.h"
#include "kernels/q8-dwconv/wasmsimd_requant.h"

static inline v128_t widen(const uint8_t *p, size_t n, bool is_signed) {
  if (n >= 8) return is_signed ? wasm_i16x8_load8x8(p) : wasm_u16x8_load8x8(p);
  uint8_t tmp[8] = {0};
  if (n) memcpy(tmp, p, n);
  return is_signed ? wasm_i16x8_load8x8(tmp) : wasm_u16x8_load8x8(tmp);
}

#define Q8DW_N 16
typedef struct q8dw_acc {
  v128_t a0, a1, a2, a3;
  bool is_signed; /* the output's signedness (a constant once inlined) */
} q8dw_acc;

/* taps xa (tap 2p) and xb (tap 2p + 1), 8 channels each, against the pair's weights at wt */
#define PAIR8(xa, xb, wt, lo, hi) \
  lo = wasm_i32x4_add(lo, \
                      wasm_i32x4_dot_i16x8(wasm_i16x8_shuffle(xa, xb, 0, 8, 1, 9, 2, 10, 3, 11), \
                                           wasm_v128_load(wt))); \
  hi = wasm_i32x4_add(hi, \
                      wasm_i32x4_dot_i16x8(wasm_i16x8_shuffle(xa, xb, 4, 12, 5, 13, 6, 14, 7, 15), \
                                           wasm_v128_load((wt) + 8)))

/* 16 channels of taps at xa and xb (n >= 16) or of their first n channels (zero-padded). */
#define FULL16(xa, xb) \
  const v128_t xa0 = is_signed ? wasm_i16x8_load8x8(xa) : wasm_u16x8_load8x8(xa); \
  const v128_t xb0 = is_signed ? wasm_i16x8_load8x8(xb) : wasm_u16x8_load8x8(xb); \
  const v128_t xa1 = is_signed ? wasm_i16x8_load8x8(xa + 8) : wasm_u16x8_load8x8(xa + 8); \
  const v128_t xb1 = is_signed ? wasm_i16x8_load8x8(xb + 8) : wasm_u16x8_load8x8(xb + 8);
#define PART16(xa, xb) \
  const v128_t xa0 = widen(xa, n, is_signed), xb0 = widen(xb, n, is_signed); \
  const v128_t xa1 = widen(xa + 8, n > 8 ? n - 8 : 0, is_signed); \
  const v128_t xb1 = widen(xb + 8, n > 8 ? n - 8 : 0, is_signed);
/* The taps in pairs, one running pointer each for the taps and the weights (wt: pair p's row,
 * 2 * c16 int16 apart), an odd last tap with itself (its partner's weights are zero). */
#define TAPS(LOAD16) \
  const uint8_t *const *tp = taps; \
  const int16_t *wt = (const int16_t *)(const void *)w; \
  const uint8_t *const *const tend = taps + (ntaps & ~(size_t)1); \
  for (; tp < tend; tp += 2, wt += 2 * c16) { \
    const uint8_t *xa = tp[0] + ch, *xb = tp[1] + ch; \
    LOAD16(xa, xb) \
    PAIR8(xa0, xb0, wt, a0, a1); \
    PAIR8(xa1, xb1, wt + 16, a2, a3); \
  } \
  if (ntaps & 1) { \
    const uint8_t *xa = tp[0] + ch; \
    LOAD16(xa, xa) \
    PAIR8(xa0, xb0, wt, a0, a1); \
    PAIR8(xa1, xb1, wt + 16, a2, a3); \
  }

static inline q8dw_acc q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                                size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  v128_t a0 = wasm_v128_load(bias), a1 = wasm_v128_load(bias + 4);
  v128_t a2 = wasm_v128_load(bias + 8), a3 = wasm_v128_load(bias + 12);
  if (n >= 16) {
    TAPS(FULL16)
  } else {
    TAPS(PART16)
  }
  const q8dw_acc r = {a0, a1, a2, a3, is_signed};
  return r;
}

static inline void q8dw_store32(int32_t *c32, q8dw_acc acc) {
  wasm_v128_store(c32, acc.a0);
  wasm_v128_store(c32 + 4, acc.a1);
  wasm_v128_store(c32 + 8, acc.a2);
  wasm_v128_store(c32 + 12, acc.a3);
}

/* The 16 channels' bytes: requantized, narrowed with saturation (the values are >= act_min;
 * above the type's range they saturate), then clamped to act_max on the bytes: the bytes of
 * the scalar clamp and truncation. lo and hi are act_min - zp and act_max - zp, integers. */
static inline void q8dw_requant(uint8_t *c, q8dw_acc acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  const v128_t vmin = tfcc_q8dw_magic_min(lo), vzp = tfcc_q8dw_magic_zp(zp);
  const v128_t q01 = wasm_i16x8_narrow_i32x4(tfcc_q8dw_requant4(acc.a0, scale, vmin, vzp),
                                             tfcc_q8dw_requant4(acc.a1, scale + 4, vmin, vzp));
  const v128_t q23 = wasm_i16x8_narrow_i32x4(tfcc_q8dw_requant4(acc.a2, scale + 8, vmin, vzp),
                                             tfcc_q8dw_requant4(acc.a3, scale + 12, vmin, vzp));
  const int32_t act_max = (int32_t)hi + zp;
  const v128_t b =
      acc.is_signed
          ? wasm_i8x16_min(wasm_i8x16_narrow_i16x8(q01, q23), wasm_i8x16_splat((int8_t)act_max))
          : wasm_u8x16_min(wasm_u8x16_narrow_i16x8(q01, q23), wasm_i8x16_splat((int8_t)act_max));
  if (n >= 16) {
    wasm_v128_store(c, b);
    return;
  }
  uint8_t tmp[16];
  wasm_v128_store(tmp, b);
  memcpy(c, tmp, n);
}

#define Q8DW_FN_S tfcc_q8_dw_s_wasmsimd
#define Q8DW_FN_U tfcc_q8_dw_u_wasmsimd
#define Q8DW_RUN_S tfcc_q8_dw_run_s_wasmsimd
#define Q8DW_RUN_U tfcc_q8_dw_run_u_wasmsimd
#include "kernels/q8-dwconv/dwconv_body.h"
