/* q8 GEMM micro-kernel, WebAssembly SIMD128: 4 rows x 8 columns. Weights stored unchanged (both
 * operands of one signedness, kz = fo, as for NEON's sdot / udot). Per group of 4 depth bytes the
 * panel's 32 bytes (columns 0-3, 4-7, 4 bytes each) are widened to four i16x8 vectors of two
 * columns each; a row's 4 bytes, broadcast and widened, meet them in i32x4.dot_i16x8, which
 * leaves two partial sums per column (depth bytes 0+1, 2+3). Those pairs are added once per tile.
 * Products of two widened bytes fit i16 x i16 -> i32 exactly (|s8 x s8| <= 16384, u8 x u8 <=
 * 65025), so the sums wrap modulo 2^32 exactly as the reference's int32 does. Output stage: the
 * int32 tile (o->c32) or float requantization as tfcc_requant_fp32 (round half to even). */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-gemm/ukernels.h"

#define NR 8

static inline v128_t splat4(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
  return wasm_i32x4_splat((int32_t)v);
}

/* [c0 k01, c0 k23, c1 k01, c1 k23] + [c2 .., c3 ..] -> [c0, c1, c2, c3] */
static inline v128_t pair_sum(v128_t lo, v128_t hi) {
  return wasm_i32x4_add(wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6),
                        wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7));
}

static inline void store_row(size_t i, size_t nc, v128_t v0, v128_t v1, const int32_t *bias,
                             const int32_t *row_add, const float *scale, const tfcc_q8_out *o) {
  const v128_t ra = wasm_i32x4_splat(row_add[i]);
  v0 = wasm_i32x4_add(wasm_i32x4_add(v0, wasm_v128_load(bias)), ra);
  v1 = wasm_i32x4_add(wasm_i32x4_add(v1, wasm_v128_load(bias + 4)), ra);
  if (o->c32) {
    wasm_v128_store(o->c32 + i * NR, v0);
    wasm_v128_store(o->c32 + i * NR + 4, v1);
    return;
  }
  const v128_t lo = wasm_f32x4_splat(o->lo), hi = wasm_f32x4_splat(o->hi);
  v128_t f0 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(v0), wasm_v128_load(scale));
  v128_t f1 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(v1), wasm_v128_load(scale + 4));
  f0 = wasm_f32x4_pmin(wasm_f32x4_pmax(f0, lo), hi);
  f1 = wasm_f32x4_pmin(wasm_f32x4_pmax(f1, lo), hi);
  const v128_t zp = wasm_i32x4_splat(o->zp);
  const v128_t q0 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f0)), zp);
  const v128_t q1 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f1)), zp);
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

/* Row r's accumulators: columns 0-1, 2-3, 4-5, 6-7, each lane a partial sum (pair_sum adds them).
 * Named variables, not an array: an array indexed by the run-time row count ends up in memory. */
#define ROW_ACC(r) \
  v128_t c##r##0 = wasm_i32x4_splat(0), c##r##1 = c##r##0, c##r##2 = c##r##0, c##r##3 = c##r##0
#define ROW_DOT(r, x) \
  c##r##0 = wasm_i32x4_add(c##r##0, wasm_i32x4_dot_i16x8(x, w01)); \
  c##r##1 = wasm_i32x4_add(c##r##1, wasm_i32x4_dot_i16x8(x, w23)); \
  c##r##2 = wasm_i32x4_add(c##r##2, wasm_i32x4_dot_i16x8(x, w45)); \
  c##r##3 = wasm_i32x4_add(c##r##3, wasm_i32x4_dot_i16x8(x, w67))

/* One depth group of 4 bytes: the panel's 8 columns widened, each row's 4 bytes broadcast
 * (LOAD_ROW(p): the 4 bytes at p as an i32x4 splat). */
#define STEP(LOAD_ROW, WIDEN_LO, WIDEN_HI) \
  { \
    const v128_t w0 = wasm_v128_load(pw), w1 = wasm_v128_load(pw + 16); \
    const v128_t w01 = WIDEN_LO(w0), w23 = WIDEN_HI(w0), w45 = WIDEN_LO(w1), w67 = WIDEN_HI(w1); \
    const v128_t x0 = WIDEN_LO(LOAD_ROW(a0 + k)), x1 = WIDEN_LO(LOAD_ROW(a1 + k)); \
    ROW_DOT(0, x0); \
    ROW_DOT(1, x1); \
    const v128_t x2 = WIDEN_LO(LOAD_ROW(a2 + k)), x3 = WIDEN_LO(LOAD_ROW(a3 + k)); \
    ROW_DOT(2, x2); \
    ROW_DOT(3, x3); \
  }

#define LOAD_FULL(p) wasm_v128_load32_splat(p)
#define LOAD_TAIL(p) splat4(p, kc - k)

#define TILE(WIDEN_LO, WIDEN_HI) \
  const uint8_t *pw = (const uint8_t *)w + NR * 8; \
  const int32_t *bias = w; \
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4); \
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3]; \
  ROW_ACC(0); \
  ROW_ACC(1); \
  ROW_ACC(2); \
  ROW_ACC(3); \
  size_t k = 0; \
  for (; k + 4 <= kc; k += 4, pw += 4 * NR) STEP(LOAD_FULL, WIDEN_LO, WIDEN_HI) \
  if (k < kc) STEP(LOAD_TAIL, WIDEN_LO, WIDEN_HI) \
  store_row(0, nc, pair_sum(c00, c01), pair_sum(c02, c03), bias, row_add, scale, o); \
  if (mr > 1) store_row(1, nc, pair_sum(c10, c11), pair_sum(c12, c13), bias, row_add, scale, o); \
  if (mr > 2) store_row(2, nc, pair_sum(c20, c21), pair_sum(c22, c23), bias, row_add, scale, o); \
  if (mr > 3) store_row(3, nc, pair_sum(c30, c31), pair_sum(c32, c33), bias, row_add, scale, o);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmsimd){
    TILE(wasm_i16x8_extend_low_i8x16,
         wasm_i16x8_extend_high_i8x16)} TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmsimd) {
  TILE(wasm_u16x8_extend_low_u8x16, wasm_u16x8_extend_high_u8x16)
}
