/* q8 GEMM micro-kernel, WebAssembly SIMD128: 4 rows x 8 columns over depth pairs (the "c2"
 * panel layout, tfcc_q8_gemm_c2_layout: per pair of depth elements, columns 0-7 two int16
 * each, the weight bytes widened at packing, depth padded to 8; both operands of one
 * signedness, kz = fo). Rows in the lanes: column j's accumulator holds rows 0-3. Per 8 depth
 * bytes each row's bytes are loaded widened to i16x8 once (v128.load8x8) and the four rows
 * transposed (8 unpacks) into one vector per depth pair (pair p of rows 0-3 in its i32 lanes);
 * per pair and column the column's two int16 are broadcast from the panel (v128.load32_splat,
 * a load only) into i32x4.dot_i16x8: 32 dot products, 32 adds, 32 broadcast loads and 12
 * other vector instructions per 256 products, 8 accumulators + 4 pair vectors + 2 temporaries
 * live (x86-64 engines allocate 15 of the 16 SIMD registers). The former layout (rows'
 * pairs broadcast by shuffles, weights widened per tile) had 16 shuffles, 8 widening loads
 * and ~18 spill moves per 256 products.
 * Products of two widened bytes fit i16 x i16 -> i32 exactly (|s8 x s8| <= 16384, u8 x u8 <=
 * 65025), so the sums wrap modulo 2^32 exactly as the reference's int32 does. Output stage: the
 * int32 tile (o->c32) or float requantization as tfcc_requant_fp32 (round half to even, by the
 * 1.5 * 2^23 addition: no f32x4.nearest / i32x4.trunc_sat_f32x4, several instructions each on
 * x86-64 engines).
 * One call runs every panel the driver gives it (tfcc_q8_gemm_multi_panel: nc up to the task's
 * columns), the rows' depth tail padded once: the call, the driver's per-tile work and the tail
 * copies cost as much as several depth steps, which the small depths (16-32: MobileNetV2's
 * 112x112 and 56x56 expansions, the first 3x3 conv) have few of. */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/f32v_wasmsimd.h"

#define NR 8
/* Depths up to which a multi-panel call transposes the rows once (XB_MAX_K / 2 vectors of
 * stack, 4 KiB). */
#define XB_MAX_K 512

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

/* Column j's four rows: float requantization with the column's scale, + zp. */
static inline v128_t requant_col(v128_t acc, const float *scale, const out_consts *k) {
  v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), wasm_v128_load32_splat(scale));
  f = f32v_min(k->hi, f32v_max(k->lo, f)); /* NaN passes, as the scalar clamp */
  return wasm_i32x4_sub(wasm_f32x4_add(f, k->magic), k->magic_zp);
}

/* Row i's 8 bytes (low half of r) to the output at c; nc < 8 through a buffer. */
static inline void store_row(uint8_t *c, size_t i, size_t nc, v128_t r, const tfcc_q8_out *o) {
  if (nc >= NR) {
    wasm_v128_store64_lane(c + i * o->c_stride, r, 0);
    return;
  }
  uint8_t tmp[16];
  wasm_v128_store(tmp, r);
  memcpy(c + i * o->c_stride, tmp, nc);
}

/* The last n < 8 bytes of a row, zero-padded to 8 (never reads past the row). */
static inline const uint8_t *tail8(uint8_t *tmp, const uint8_t *p, size_t n) {
  memset(tmp, 0, 8);
  memcpy(tmp, p, n);
  return tmp;
}

/* Column j's accumulator c##j (rows 0-3 in its lanes) += pair P of the four rows (a##P) times
 * column j's pair P, pre-widened at packing: one load32_splat, no extend. */
#define COL(j, P) \
  c##j = wasm_i32x4_add(c##j, wasm_i32x4_dot_i16x8(xp##P, wsplat(pw + 32 * P + 4 * j))); \
  ORDER();
/* An empty asm with a memory clobber: no load moves across it. Without it LLVM hoists all 32
 * broadcasts of a step to its top (and gives each its own pointer), and V8, which keeps the
 * order of the loads, spills most of them. */
#define ORDER() __asm__ volatile("" ::: "memory")
/* pw as a value LLVM cannot see through: else loop strength reduction keeps one pointer per
 * weight load (32, spilled to the stack). */
#define OPAQUE(p) __asm__("" : "+r"(p))
/* Column j's pair at p, broadcast, its address computed in the wasm code (an opaque add) rather
 * than in the load's offset: V8 (Node 20) hoists base + offset of each of the 32 distinct
 * offsets out of the loop and spills them. */
static inline v128_t wsplat(const uint8_t *p) {
  OPAQUE(p);
  return wasm_v128_load32_splat(p);
}
#define PAIR(P) COL(0, P) COL(1, P) COL(2, P) COL(3, P) COL(4, P) COL(5, P) COL(6, P) COL(7, P)
/* 8 depth bytes of rows 0-3 (at p0..p3), widened once, transposed so that xp##P holds pair P of
 * rows 0-3 (one i32 lane each) */
#define STEP(LOADX, p0, p1, p2, p3) \
  { \
    XPOSE_HEAD(LOADX, p0, p1, p2, p3) \
    const v128_t xp0 = wasm_i64x2_shuffle(t0, t1, 0, 2), xp1 = wasm_i64x2_shuffle(t0, t1, 1, 3); \
    PAIR(0) \
    PAIR(1) \
    const v128_t xp2 = wasm_i64x2_shuffle(t2, t3, 0, 2), xp3 = wasm_i64x2_shuffle(t2, t3, 1, 3); \
    PAIR(2) \
    PAIR(3) \
  }
#define XPOSE_HEAD(LOADX, p0, p1, p2, p3) \
  const v128_t x0 = LOADX(p0), x1 = LOADX(p1), x2 = LOADX(p2), x3 = LOADX(p3); \
  const v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5); \
  const v128_t t1 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5); \
  const v128_t t2 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7); \
  const v128_t t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
/* The same four pair vectors, stored at xs[0..3] (the rows' transposition once per call). */
#define XPOSE_STORE(LOADX, p0, p1, p2, p3, xs) \
  { \
    XPOSE_HEAD(LOADX, p0, p1, p2, p3) \
    wasm_v128_store(xs, wasm_i64x2_shuffle(t0, t1, 0, 2)); \
    wasm_v128_store(xs + 1, wasm_i64x2_shuffle(t0, t1, 1, 3)); \
    wasm_v128_store(xs + 2, wasm_i64x2_shuffle(t2, t3, 0, 2)); \
    wasm_v128_store(xs + 3, wasm_i64x2_shuffle(t2, t3, 1, 3)); \
  }
/* A step from the stored pair vectors: one load per pair. */
#define STEP_XB(xs) \
  { \
    const v128_t xp0 = wasm_v128_load(xs); \
    PAIR(0) \
    const v128_t xp1 = wasm_v128_load(xs + 1); \
    PAIR(1) \
    const v128_t xp2 = wasm_v128_load(xs + 2); \
    PAIR(2) \
    const v128_t xp3 = wasm_v128_load(xs + 3); \
    PAIR(3) \
  }

/* Columns c0..c3 (rows in lanes) to rows r0..r3 (columns in lanes). */
#define TRANSPOSE4(c0, c1, c2, c3, r0, r1, r2, r3) \
  { \
    const v128_t u0 = wasm_i32x4_shuffle(c0, c1, 0, 4, 1, 5); \
    const v128_t u1 = wasm_i32x4_shuffle(c2, c3, 0, 4, 1, 5); \
    const v128_t u2 = wasm_i32x4_shuffle(c0, c1, 2, 6, 3, 7); \
    const v128_t u3 = wasm_i32x4_shuffle(c2, c3, 2, 6, 3, 7); \
    r0 = wasm_i64x2_shuffle(u0, u1, 0, 2); \
    r1 = wasm_i64x2_shuffle(u0, u1, 1, 3); \
    r2 = wasm_i64x2_shuffle(u2, u3, 0, 2); \
    r3 = wasm_i64x2_shuffle(u2, u3, 1, 3); \
  }

/* The accumulators start at bias (column j, splat) + row_add (rows 0-3). The output stage
 * requantizes column by column (rows in lanes), narrows the eight columns to bytes with
 * saturation (NARROW8: i8x16 / u8x16 narrow, the output's signedness; the values are in
 * [act_min, act_max] already, so the saturation changes nothing: the same bytes as the
 * scalar truncation) and transposes the 4 x 8 bytes with two byte shuffles. */
#define TILE(LOADX, NARROW8) \
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3]; \
  const v128_t ra = wasm_v128_load(row_add); \
  /* the rows' last kc % 8 bytes, zero-padded, once for all panels */ \
  const size_t kfull = kc & ~(size_t)7; \
  uint8_t tb0[8], tb1[8], tb2[8], tb3[8]; \
  if (kfull < kc) { \
    tail8(tb0, a0 + kfull, kc - kfull), tail8(tb1, a1 + kfull, kc - kfull); \
    tail8(tb2, a2 + kfull, kc - kfull), tail8(tb3, a3 + kfull, kc - kfull); \
  } \
  const size_t panel_bytes = NR * (8 + 2 * ((kc + 7) & ~(size_t)7)); \
  const uint8_t *wp = w; \
  uint8_t *cp = o->c; \
  if (nc > NR && kc <= XB_MAX_K) { \
    /* several panels: the rows' pair vectors once, each panel's steps load them */ \
    v128_t xb[XB_MAX_K / 2]; \
    v128_t *xe = xb; \
    for (size_t k = 0; k < kfull; k += 8, xe += 4) \
      XPOSE_STORE(LOADX, a0 + k, a1 + k, a2 + k, a3 + k, xe) \
    if (kfull < kc) { \
      XPOSE_STORE(LOADX, tb0, tb1, tb2, tb3, xe) \
      xe += 4; \
    } \
    for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
      PANEL(LOOP_XB, NARROW8, nc - n0 < NR ? nc - n0 : NR) \
      if (n0 + NR >= nc) break; \
    } \
    return; \
  } \
  for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
    PANEL(LOOP_ROWS(LOADX), NARROW8, nc - n0 < NR ? nc - n0 : NR) \
    if (n0 + NR >= nc) break; \
  }

/* A panel's depth loop from the rows (LOOP_ROWS) or from the stored pair vectors (LOOP_XB). */
#define LOOP_ROWS(LOADX) \
  for (size_t k = 0; k < kfull; k += 8, pw += 16 * NR) { \
    OPAQUE(pw); \
    STEP(LOADX, a0 + k, a1 + k, a2 + k, a3 + k) \
  } \
  if (kfull < kc) STEP(LOADX, tb0, tb1, tb2, tb3)
#define LOOP_XB \
  for (const v128_t *xs = xb; xs < xe; xs += 4, pw += 16 * NR) { \
    OPAQUE(pw); \
    STEP_XB(xs) \
  }

/* One panel (wp) against the four rows: its columns' outputs at cp. */
#define PANEL(DEPTH_LOOP, NARROW8, ncp) \
  const uint8_t *pw = wp + NR * 8; \
  const int32_t *bias = (const int32_t *)(const void *)wp; \
  const float *scale = (const float *)(const void *)(wp + NR * 4); \
  v128_t c0 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 0), ra); \
  v128_t c1 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 1), ra); \
  v128_t c2 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 2), ra); \
  v128_t c3 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 3), ra); \
  v128_t c4 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 4), ra); \
  v128_t c5 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 5), ra); \
  v128_t c6 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 6), ra); \
  v128_t c7 = wasm_i32x4_add(wasm_v128_load32_splat(bias + 7), ra); \
  DEPTH_LOOP \
  if (o->c32) { \
    v128_t l0, l1, l2, l3, h0, h1, h2, h3; \
    TRANSPOSE4(c0, c1, c2, c3, l0, l1, l2, l3) \
    TRANSPOSE4(c4, c5, c6, c7, h0, h1, h2, h3) \
    int32_t *d = o->c32; \
    wasm_v128_store(d, l0), wasm_v128_store(d + 4, h0); \
    wasm_v128_store(d + 8, l1), wasm_v128_store(d + 12, h1); \
    wasm_v128_store(d + 16, l2), wasm_v128_store(d + 20, h2); \
    wasm_v128_store(d + 24, l3), wasm_v128_store(d + 28, h3); \
    return; \
  } \
  const out_consts oc = out_init(o); \
  const v128_t n01 = \
      wasm_i16x8_narrow_i32x4(requant_col(c0, scale, &oc), requant_col(c1, scale + 1, &oc)); \
  const v128_t n23 = \
      wasm_i16x8_narrow_i32x4(requant_col(c2, scale + 2, &oc), requant_col(c3, scale + 3, &oc)); \
  const v128_t n45 = \
      wasm_i16x8_narrow_i32x4(requant_col(c4, scale + 4, &oc), requant_col(c5, scale + 5, &oc)); \
  const v128_t n67 = \
      wasm_i16x8_narrow_i32x4(requant_col(c6, scale + 6, &oc), requant_col(c7, scale + 7, &oc)); \
  /* bytes: columns 0-3 x rows 0-3, columns 4-7 x rows 0-3 */ \
  const v128_t b0 = NARROW8(n01, n23), b1 = NARROW8(n45, n67); \
  const v128_t r01 = \
      wasm_i8x16_shuffle(b0, b1, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29); \
  const v128_t r23 = \
      wasm_i8x16_shuffle(b0, b1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31); \
  store_row(cp, 0, ncp, r01, o); \
  if (mr > 1) store_row(cp, 1, ncp, wasm_i64x2_shuffle(r01, r01, 1, 1), o); \
  if (mr > 2) store_row(cp, 2, ncp, r23, o); \
  if (mr > 3) store_row(cp, 3, ncp, wasm_i64x2_shuffle(r23, r23, 1, 1), o);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmsimd){
    TILE(wasm_i16x8_load8x8,
         wasm_i8x16_narrow_i16x8)} TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmsimd) {
  TILE(wasm_u16x8_load8x8, wasm_u8x16_narrow_i16x8)
}
