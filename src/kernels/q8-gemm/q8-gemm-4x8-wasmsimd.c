/* q8 GEMM micro-kernel, WebAssembly SIMD128: 4 rows x 8 columns over depth pairs (the "c2"
 * panel layout, tfcc_q8_gemm_c2_layout: per pair of depth bytes, columns 0-7 two bytes each,
 * depth padded to 8). Weights stored unchanged (both operands of one signedness, kz = fo).
 * Per 8 depth bytes each row's bytes are loaded widened to i16x8 once (v128.load8x8); per pair
 * p the row's pair p, broadcast to four lanes (one i32x4 shuffle), meets the pair's columns
 * 0-3 and 4-7 (v128.load8x8 each) in i32x4.dot_i16x8: one int32 lane per column, so a row
 * needs 2 accumulators, not 4 (8 accumulators, 4 rows, 2 weight vectors and a broadcast fit
 * the 16 SIMD registers of x86-64 engines: the 4-depth layout's 16 accumulators spilled).
 * Products of two widened bytes fit i16 x i16 -> i32 exactly (|s8 x s8| <= 16384, u8 x u8 <=
 * 65025), so the sums wrap modulo 2^32 exactly as the reference's int32 does. Output stage: the
 * int32 tile (o->c32) or float requantization as tfcc_requant_fp32 (round half to even, by the
 * 1.5 * 2^23 addition: no f32x4.nearest / i32x4.trunc_sat_f32x4, several instructions each on
 * x86-64 engines). */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/f32v_wasmsimd.h"

#define NR 8

/* The output stage's constants: the clamp (act_min - zp, act_max - zp) and the rounding. */
typedef struct out_consts {
  v128_t lo, hi, magic, magic_zp;
} out_consts;

static inline out_consts out_init(const tfcc_q8_out *o) {
  out_consts k;
  k.lo = wasm_f32x4_splat(o->lo);
  k.hi = wasm_f32x4_splat(o->hi);
  /* f + 1.5 * 2^23 (|f| < 2^22) has the integer nearest f, ties to even, in its low mantissa
     bits: the bits minus those of 1.5 * 2^23 are f rounded as f32x4.nearest, exactly; minus
     zp folded into the one integer subtraction */
  k.magic = wasm_f32x4_splat(12582912.0f);
  k.magic_zp = wasm_i32x4_splat((int32_t)(0x4B400000u - (uint32_t)o->zp));
  return k;
}

static inline v128_t requant4(v128_t acc, const float *scale, const out_consts *k) {
  v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), wasm_v128_load(scale));
  f = f32v_min(k->hi, f32v_max(k->lo, f)); /* NaN passes, as the scalar clamp */
  return wasm_i32x4_sub(wasm_f32x4_add(f, k->magic), k->magic_zp);
}

static inline void store_row(size_t i, size_t nc, v128_t v0, v128_t v1, const int32_t *bias,
                             const int32_t *row_add, const float *scale, const tfcc_q8_out *o,
                             const out_consts *k) {
  const v128_t ra = wasm_i32x4_splat(row_add[i]);
  v0 = wasm_i32x4_add(wasm_i32x4_add(v0, wasm_v128_load(bias)), ra);
  v1 = wasm_i32x4_add(wasm_i32x4_add(v1, wasm_v128_load(bias + 4)), ra);
  if (o->c32) {
    wasm_v128_store(o->c32 + i * NR, v0);
    wasm_v128_store(o->c32 + i * NR + 4, v1);
    return;
  }
  const v128_t q0 = requant4(v0, scale, k), q1 = requant4(v1, scale + 4, k);
  /* low byte of each lane (a truncation, as the scalar kernel's (uint8_t) cast) */
  const v128_t b =
      wasm_i8x16_shuffle(q0, q1, 0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
  if (nc >= NR) {
    wasm_v128_store64_lane(o->c + i * o->c_stride, b, 0);
    return;
  }
  uint8_t tmp[16];
  wasm_v128_store(tmp, b);
  memcpy(o->c + i * o->c_stride, tmp, nc);
}

/* The last n < 8 bytes of a row, zero-padded to 8 (never reads past the row). */
static inline const uint8_t *tail8(uint8_t *tmp, const uint8_t *p, size_t n) {
  memset(tmp, 0, 8);
  memcpy(tmp, p, n);
  return tmp;
}

/* Row r's accumulators (columns 0-3, 4-7): named variables, not an array (an array indexed by
 * the run-time row count ends up in linear memory). */
#define ROW_DOT(r, P) \
  { \
    const v128_t xs = wasm_i32x4_shuffle(x##r, x##r, P, P, P, P); \
    c##r##0 = wasm_i32x4_add(c##r##0, wasm_i32x4_dot_i16x8(xs, w0)); \
    c##r##1 = wasm_i32x4_add(c##r##1, wasm_i32x4_dot_i16x8(xs, w1)); \
  }
#define PAIR(P, LOADW) \
  { \
    const v128_t w0 = LOADW(pw + 16 * P), w1 = LOADW(pw + 16 * P + 8); \
    ROW_DOT(0, P) \
    ROW_DOT(1, P) \
    ROW_DOT(2, P) \
    ROW_DOT(3, P) \
  }
/* 8 depth bytes: rows r at p##r, widened once */
#define STEP(LOADW, p0, p1, p2, p3) \
  { \
    const v128_t x0 = LOADW(p0), x1 = LOADW(p1), x2 = LOADW(p2), x3 = LOADW(p3); \
    PAIR(0, LOADW) \
    PAIR(1, LOADW) \
    PAIR(2, LOADW) \
    PAIR(3, LOADW) \
  }

#define TILE(LOADW) \
  const uint8_t *pw = (const uint8_t *)w + NR * 8; \
  const int32_t *bias = w; \
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4); \
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3]; \
  v128_t c00 = wasm_i32x4_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, \
         c30 = c00, c31 = c00; \
  size_t k = 0; \
  for (; k + 8 <= kc; k += 8, pw += 8 * NR) STEP(LOADW, a0 + k, a1 + k, a2 + k, a3 + k) \
  if (k < kc) { \
    uint8_t t0[8], t1[8], t2[8], t3[8]; \
    STEP(LOADW, tail8(t0, a0 + k, kc - k), tail8(t1, a1 + k, kc - k), tail8(t2, a2 + k, kc - k), \
         tail8(t3, a3 + k, kc - k)) \
  } \
  const out_consts oc = out_init(o); \
  store_row(0, nc, c00, c01, bias, row_add, scale, o, &oc); \
  if (mr > 1) store_row(1, nc, c10, c11, bias, row_add, scale, o, &oc); \
  if (mr > 2) store_row(2, nc, c20, c21, bias, row_add, scale, o, &oc); \
  if (mr > 3) store_row(3, nc, c30, c31, bias, row_add, scale, o, &oc);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmsimd){
    TILE(wasm_i16x8_load8x8)} TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmsimd) {
  TILE(wasm_u16x8_load8x8)
}
