/* q8 depthwise micro-kernel, WebAssembly SIMD128 (dwconv_body.h): 16 channels per step, taps
 * in pairs. The pack (tfcc_q8_dw_w16) stores the int16 weights w' of taps 2p and 2p + 1
 * interleaved per channel in tap row p (int16 2c + t % 2 of that c16-int32 row; an odd last tap
 * has a zero partner). Per pair and 8 channels the two taps' input bytes, loaded widened to int16
 * (v128.load8x8), are interleaved the same way (i16x8 unpack low / high) and meet the weights in
 * i32x4.dot_i16x8: x_t * w'_t + x_t+1 * w'_t+1 per channel, exact in int32 (|x| <= 255,
 * |w'| <= 255). The channel tail goes through a zero-padded copy. Requantization as
 * tfcc_requant_fp32 (round half to even, see requant4). */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-dwconv/ukernels.h"

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

/* f + 1.5 * 2^23 (|f| < 2^22) has the integer nearest f, ties to even, in its low mantissa bits:
 * the bits minus those of 1.5 * 2^23 are f rounded as f32x4.nearest, exactly (no
 * i32x4.trunc_sat_f32x4, several instructions on x86-64 engines). The bits are monotone in f
 * over all finite f (negative sums: negative as int32), so the lower clamp is an i32x4.max on
 * them (magic_min: the bits of lo); minus zp folded into the one subtraction. */
static inline v128_t requant4(v128_t acc, v128_t scale, v128_t magic_min, v128_t magic_zp) {
  const v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), scale);
  return wasm_i32x4_sub(wasm_i32x4_max(wasm_f32x4_add(f, wasm_f32x4_splat(12582912.0f)), magic_min),
                        magic_zp);
}

/* The 16 channels' bytes: requantized (channel 4 j + i's scale in lane i of sj), narrowed with
 * saturation (the values are >= act_min; above the type's range they saturate), then clamped to
 * act_max on the bytes: the bytes of the scalar clamp and truncation. lo and hi are act_min - zp
 * and act_max - zp, integers. */
static inline void q8dw_requant_v(uint8_t *c, q8dw_acc acc, v128_t s0, v128_t s1, v128_t s2,
                                  v128_t s3, float lo, float hi, int32_t zp, size_t n) {
  const v128_t vmin = wasm_i32x4_splat((int32_t)(0x4B400000u + (uint32_t)(int32_t)lo));
  const v128_t vzp = wasm_i32x4_splat((int32_t)(0x4B400000u - (uint32_t)zp));
  const v128_t q01 =
      wasm_i16x8_narrow_i32x4(requant4(acc.a0, s0, vmin, vzp), requant4(acc.a1, s1, vmin, vzp));
  const v128_t q23 =
      wasm_i16x8_narrow_i32x4(requant4(acc.a2, s2, vmin, vzp), requant4(acc.a3, s3, vmin, vzp));
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

static inline void q8dw_requant(uint8_t *c, q8dw_acc acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  q8dw_requant_v(c, acc, wasm_v128_load(scale), wasm_v128_load(scale + 4),
                 wasm_v128_load(scale + 8), wasm_v128_load(scale + 12), lo, hi, zp, n);
}

#define Q8DW_FN_S tfcc_q8_dw_s_wasmsimd
#define Q8DW_FN_U tfcc_q8_dw_u_wasmsimd
#define Q8DW_RUN_S tfcc_q8_dw_run_s_wasmsimd
#define Q8DW_RUN_U tfcc_q8_dw_run_u_wasmsimd
#include "kernels/q8-dwconv/dwconv_body.h"

/* The relaxed-SIMD binary's row kernel (q8-dwconv-16-wasmrdot, TFCC_WASM_RELAXED_DOT): the
 * AVX512-VNNI row kernel's scheme (dwconv.h) on 16 channels at a time, one
 * i32x4.relaxed_dot_i8x16_i7x16_add_s per 4 filter rows of 4 channels: the packed weight
 * quads (signed bytes) as the first operand, the column quads of the input (int8 x xor 0x80 =
 * x + 128, uint8 x as it is: unsigned bytes) as the second, exact where the engine reads the
 * second operand as unsigned bytes with no saturation (the q8 GEMM's condition: dispatch takes
 * this kernel only where tfcc_q8_gemm_wasm_rdot_exact(); docs/kernels.md, "WebAssembly int8
 * relaxed dot product"). It reads pack_rows' layout as it is: 16-channel group L of a 64-channel
 * block is, for each of its four 4-channel vectors j, the 16 bytes at lane index 16 j + 4 L
 * (dwconv.h's lane order), channels 16 L + 4 j .. + 3 in order. Per group, pass 1 builds every
 * input column's quads (filter rows 4q..4q+3, interleaved per channel by two byte and two
 * 16-bit unpacks; rows outside the image as the zero point, rows past the filter zero), pass 2
 * runs each output pixel as filter_w x filter_h/4 x 4 dot products. Output stage: q8dw_requant
 * (tfcc_requant_fp32's arithmetic), the reference's tfcc_requant32 for fixed-point
 * requantization, or the hybrid float stage (tfcc_q8_dw_hyb). Both binaries hold it (static
 * data alike, see the q8 GEMM); the plain binary's rdot is the stand-in that fails the check. */
#include "kernels/ref/conv_acc.h"

static inline v128_t dw_rdot(v128_t a, v128_t b, v128_t c) {
#ifdef TFCC_WASM_RELAXED_DOT
  return (v128_t)__builtin_wasm_fma_f64x2((__f64x2)a, (__f64x2)b, (__f64x2)c);
#else
  return wasm_i32x4_add(c, wasm_i32x4_dot_i16x8(a, b));
#endif
}

/* 16 bytes of channels c0.. at p (n < 16: the first n, the rest fill) */
static inline v128_t ld16(const uint8_t *p, size_t n, uint8_t fill) {
  if (n >= 16) return wasm_v128_load(p);
  uint8_t tmp[16];
  memset(tmp, fill, sizeof tmp);
  memcpy(tmp, p, n);
  return wasm_v128_load(tmp);
}

static inline __attribute__((always_inline)) void rd_build_cols(const tfcc_q8_dw_row *a, size_t c0,
                                                                size_t n, v128_t flip, v128_t zpv,
                                                                int32_t ix_lo, int32_t ncols,
                                                                const int32_t KH, const int32_t NQ,
                                                                v128_t *cols) {
  const tfcc_conv_geom *g = a->g;
  const size_t C = (size_t)a->p->c;
  const v128_t zero = wasm_i32x4_splat(0);
  for (int32_t col = 0; col < ncols; col++) {
    const int32_t ix = ix_lo + col;
    const bool inside = ix >= 0 && ix < g->in_w;
    const size_t off = (size_t)ix * C + c0;
    v128_t *d = cols + (size_t)col * (size_t)NQ * 4;
    for (int32_t q = 0; q < NQ; q++, d += 4) {
      v128_t r[4];
      for (int32_t k = 0; k < 4; k++) {
        const int32_t ky = 4 * q + k;
        if (ky >= KH)
          r[k] = zero;
        else if (inside && a->rows[ky])
          r[k] = wasm_v128_xor(ld16(a->rows[ky] + off, n, a->zp_byte), flip);
        else
          r[k] = zpv;
      }
      const v128_t lo01 =
          wasm_i8x16_shuffle(r[0], r[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      const v128_t hi01 = wasm_i8x16_shuffle(r[0], r[1], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13,
                                             29, 14, 30, 15, 31);
      const v128_t lo23 =
          wasm_i8x16_shuffle(r[2], r[3], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      const v128_t hi23 = wasm_i8x16_shuffle(r[2], r[3], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13,
                                             29, 14, 30, 15, 31);
      wasm_v128_store(d + 0, wasm_i16x8_shuffle(lo01, lo23, 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(d + 1, wasm_i16x8_shuffle(lo01, lo23, 4, 12, 5, 13, 6, 14, 7, 15));
      wasm_v128_store(d + 2, wasm_i16x8_shuffle(hi01, hi23, 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(d + 3, wasm_i16x8_shuffle(hi01, hi23, 4, 12, 5, 13, 6, 14, 7, 15));
    }
  }
}

/* The hybrid float stage on 4 channels (kernels/hybrid/dwconv.h's operations and order;
 * pmax / pmin are its v < lo ? lo : v and v > hi ? hi : v) */
static inline v128_t hyb4(v128_t acc, v128_t s, v128_t fs, v128_t bb, bool bias, v128_t lo,
                          v128_t hi) {
  v128_t f = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), s), fs);
  if (bias) f = wasm_f32x4_add(f, bb);
  return wasm_f32x4_pmin(wasm_f32x4_pmax(f, lo), hi);
}

static inline __attribute__((always_inline)) void rd_row_body(const tfcc_q8_dw_row *a,
                                                              const bool is_signed,
                                                              const int32_t KH, const int32_t KW) {
  const tfcc_conv_geom *g = a->g;
  const tfcc_q8_dw_packed *p = a->p;
  const int32_t NQ = (KH + 3) / 4;
  const size_t C = (size_t)p->c;
  const size_t bstride = (size_t)(4 + NQ * KW) * 64; /* int32 per 64-channel block */
  const int32_t sw = g->stride_w, dw = g->dil_w;
  const int32_t ix_lo = -g->pad_w;
  const int32_t ncols = (g->out_w - 1) * sw + (KW - 1) * dw + 1;
  const v128_t flip = wasm_i8x16_splat(is_signed ? (int8_t)0x80 : 0);
  const v128_t zpv = wasm_v128_xor(wasm_i8x16_splat((int8_t)a->zp_byte), flip);
  v128_t kzq[TFCC_Q8_DW_MAX_TAPS / 4];
  const bool has_kz = p->kz != 0;
  for (int32_t q = 0; q < NQ; q++) {
    uint32_t word = 0;
    for (int32_t k = 0; k < 4; k++)
      if (4 * q + k < KH) word |= (uint32_t)(uint8_t)(int8_t)p->kz << (8 * k);
    kzq[q] = wasm_i32x4_splat((int32_t)word);
  }
  v128_t *cols = a->cols;
  const tfcc_q8_dw_hyb *h = a->hyb;
  for (size_t c0 = 0; c0 < C; c0 += 16) {
    const size_t n = C - c0 < 16 ? C - c0 : 16;
    const size_t lane = ((c0 % 64) / 16) * 4; /* group L's int32 offset in a lane-ordered row */
    const int32_t *pw = p->w + (c0 / 64) * bstride;
    const int32_t *wq = pw + 4 * 64 + lane;
    rd_build_cols(a, c0, n, flip, zpv, ix_lo, ncols, KH, NQ, cols);
    v128_t b0 = wasm_v128_load(pw + lane), b1 = wasm_v128_load(pw + 16 + lane);
    v128_t b2 = wasm_v128_load(pw + 32 + lane), b3 = wasm_v128_load(pw + 48 + lane);
    const float *sc = (const float *)(const void *)(pw + 64 + lane);
    const v128_t s0 = wasm_v128_load(sc), s1 = wasm_v128_load(sc + 16);
    const v128_t s2 = wasm_v128_load(sc + 32), s3 = wasm_v128_load(sc + 48);
    float hfs[16], hbb[16];
    if (h) {
      /* the packed bias is -128 * sum(w) (the flip's term): sum(w) is its shift by 7 */
      const v128_t hz = wasm_i32x4_splat(h->zp);
      b0 = wasm_i32x4_add(b0, wasm_i32x4_mul(hz, wasm_i32x4_shr(b0, 7)));
      b1 = wasm_i32x4_add(b1, wasm_i32x4_mul(hz, wasm_i32x4_shr(b1, 7)));
      b2 = wasm_i32x4_add(b2, wasm_i32x4_mul(hz, wasm_i32x4_shr(b2, 7)));
      b3 = wasm_i32x4_add(b3, wasm_i32x4_mul(hz, wasm_i32x4_shr(b3, 7)));
      for (size_t i = 0; i < 16; i++) {
        const size_t c = c0 + (i < n ? i : 0);
        hfs[i] = h->fscale[h->fscale_stride ? c * h->fscale_stride : 0];
        hbb[i] = h->bias ? h->bias[c] : 0.0f;
      }
    }
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      v128_t a0 = b0, a1 = b1, a2 = b2, a3 = b3;
      for (int32_t kx = 0; kx < KW; kx++) {
        const v128_t *cq = cols + (size_t)(ox * sw + kx * dw) * (size_t)NQ * 4;
        for (int32_t q = 0; q < NQ; q++, cq += 4) {
          const int32_t *w = wq + ((size_t)q * (size_t)KW + (size_t)kx) * 64;
          const v128_t x0 = wasm_v128_load(cq), x1 = wasm_v128_load(cq + 1);
          const v128_t x2 = wasm_v128_load(cq + 2), x3 = wasm_v128_load(cq + 3);
          a0 = dw_rdot(wasm_v128_load(w), x0, a0);
          a1 = dw_rdot(wasm_v128_load(w + 16), x1, a1);
          a2 = dw_rdot(wasm_v128_load(w + 32), x2, a2);
          a3 = dw_rdot(wasm_v128_load(w + 48), x3, a3);
          if (has_kz) {
            a0 = dw_rdot(kzq[q], x0, a0);
            a1 = dw_rdot(kzq[q], x1, a1);
            a2 = dw_rdot(kzq[q], x2, a2);
            a3 = dw_rdot(kzq[q], x3, a3);
          }
        }
      }
      if (h) {
        const v128_t s = wasm_f32x4_splat(h->scale);
        const v128_t lo = wasm_f32x4_splat(h->lo), hi = wasm_f32x4_splat(h->hi);
        const bool hb = h->bias != NULL;
        float f[16];
        wasm_v128_store(f, hyb4(a0, s, wasm_v128_load(hfs), wasm_v128_load(hbb), hb, lo, hi));
        wasm_v128_store(f + 4,
                        hyb4(a1, s, wasm_v128_load(hfs + 4), wasm_v128_load(hbb + 4), hb, lo, hi));
        wasm_v128_store(f + 8,
                        hyb4(a2, s, wasm_v128_load(hfs + 8), wasm_v128_load(hbb + 8), hb, lo, hi));
        wasm_v128_store(
            f + 12, hyb4(a3, s, wasm_v128_load(hfs + 12), wasm_v128_load(hbb + 12), hb, lo, hi));
        memcpy(a->fout + (size_t)ox * C + c0, f, n * sizeof(float));
        continue;
      }
      uint8_t *o = a->out + (size_t)ox * C + c0;
      if (!p->fp32) {
        int32_t acc[16];
        wasm_v128_store(acc, a0);
        wasm_v128_store(acc + 4, a1);
        wasm_v128_store(acc + 8, a2);
        wasm_v128_store(acc + 12, a3);
        for (size_t i = 0; i < n; i++)
          o[i] = (uint8_t)tfcc_requant32(acc[i], 0, a->r, (int32_t)(c0 + i));
        continue;
      }
      const q8dw_acc acc = {a0, a1, a2, a3, is_signed};
      q8dw_requant_v(o, acc, s0, s1, s2, s3, a->lo, a->hi, a->zp, n);
    }
  }
}

static inline void rd_row_dispatch(const tfcc_q8_dw_row *a, const bool is_signed) {
  const int32_t KH = a->g->filter_h, KW = a->g->filter_w;
  if (KH == 3 && KW == 3)
    rd_row_body(a, is_signed, 3, 3);
  else if (KH == 5 && KW == 5)
    rd_row_body(a, is_signed, 5, 5);
  else
    rd_row_body(a, is_signed, KH, KW);
}

void tfcc_q8_dw_row_s_wasmrdot(const tfcc_q8_dw_row *a) { rd_row_dispatch(a, true); }
void tfcc_q8_dw_row_u_wasmrdot(const tfcc_q8_dw_row *a) { rd_row_dispatch(a, false); }
