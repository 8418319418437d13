/* q8 GEMM micro-kernel, WebAssembly SIMD128: 4 rows x 8 columns over depth pairs (the "c2"
 * panel layout, tfcc_q8_gemm_c2_layout: per pair of depth elements, columns 0-7 two int16
 * each, the weight bytes widened at packing, depth padded to 8; both operands of one
 * signedness, kz = fo). Columns in the lanes: row i has two accumulators (columns 0-3, 4-7).
 * Per depth pair the panel's 32 bytes are two vector loads, and each row's pair, broadcast
 * to the four i32 lanes, meets both in i32x4.dot_i16x8: per 8 x 8 x 2 products 2 weight
 * loads, 4 row loads, 8 dot products, 8 adds; 8 accumulators + 2 weights + 1 row + 1 product
 * live (x86-64 engines allocate 15 of the 16 SIMD registers). The rows' pairs come from a
 * buffer that the call fills once for all its panels (several panels, depth <= XB_MAX_K): the
 * rows widened to int16 and transposed so that a pair's four rows are 16 consecutive bytes,
 * each broadcast by one v128.load32_splat (vbroadcastss in V8's code), 4 widening loads, 8
 * unpacks and 4 stores per 8 bytes of the four rows. It held each pair already broadcast (16
 * bytes per row and pair: 9 instructions per 8 bytes of a row, and a 30 KiB buffer at K = 960
 * against the 32 KiB L1, so deeper rows went without it): MobileNetV2 int8's K = 576-960
 * layers 0.8 of the time, the model 0.95. A single panel reads its rows directly
 * (v128.load16_splat + widening: the fill would cost as much for one use). The former
 * layout (rows in lanes: 32 weight broadcasts per 8 x 8 x 4, each with its own address add in
 * V8's code) ran 132 instructions per 256 products, this one 88 (+ the loop's).
 * Products of two widened bytes fit i16 x i16 -> i32 exactly (|s8 x s8| <= 16384, u8 x u8 <=
 * 65025), so the sums wrap modulo 2^32 exactly as the reference's int32 does. Output stage: the
 * int32 tile (o->c32) or float requantization as tfcc_requant_fp32 (round half to even, by the
 * 1.5 * 2^23 addition: no f32x4.nearest / i32x4.trunc_sat_f32x4, several instructions each on
 * x86-64 engines), row by row with the columns' scales as two vectors, the clamp in integers
 * (i32x4.max on the rounded bits, byte min after the narrowing: 5 instructions per 4 outputs
 * and 2 per 16, where float min / max took 7 per 4).
 * One call runs every panel the driver gives it (tfcc_q8_gemm_multi_panel: nc up to the task's
 * columns), the rows' depth tail padded once: the call, the driver's per-tile work and the tail
 * copies cost as much as several depth steps, which the small depths (16-32: MobileNetV2's
 * 112x112 and 56x56 expansions, the first 3x3 conv) have few of. */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-gemm/ukernels.h"

#define NR 8
/* Depths up to which a call fills the rows' pair buffer (4 * XB_MAX_K bytes of stack,
 * 16 KiB). */
#define XB_MAX_K 2048

/* The output stage's constants: the rounding, the lower clamp in the rounded bits, zp, and
 * the upper clamp as bytes. */
typedef struct out_consts {
  v128_t magic, magic_min, magic_zp, max8;
} out_consts;

static inline out_consts out_init(const tfcc_q8_out *o) {
  out_consts k;
  /* f + 1.5 * 2^23 (|f| < 2^22) has the integer nearest f, ties to even, in its low mantissa
     bits: the bits minus those of 1.5 * 2^23 are f rounded as f32x4.nearest, exactly. The
     bits are monotone in f over all finite f (negative sums: negative as int32), so the lower
     clamp act_min - zp is an i32x4.max on them; minus zp folded into the one integer
     subtraction; the upper clamp after the saturating narrowing, on the bytes */
  k.magic = wasm_f32x4_splat(12582912.0f);
  k.magic_min = wasm_i32x4_splat((int32_t)(0x4B400000u + (uint32_t)(o->act_min - o->zp)));
  k.magic_zp = wasm_i32x4_splat((int32_t)(0x4B400000u - (uint32_t)o->zp));
  k.max8 = wasm_i8x16_splat((int8_t)o->act_max);
  return k;
}

/* Four columns of a row: float requantization with the columns' scales, lower clamp, + zp. */
static inline v128_t requant4(v128_t acc, v128_t scale, const out_consts *k) {
  const v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), scale);
  return wasm_i32x4_sub(wasm_i32x4_max(wasm_f32x4_add(f, k->magic), k->magic_min), k->magic_zp);
}

/* Row i's 8 bytes (lane L of r) to the output at c; nc < 8 through a buffer. */
static inline void store_row(uint8_t *c, size_t i, size_t nc, v128_t r, int lane,
                             const tfcc_q8_out *o) {
  if (nc >= NR) {
    if (lane)
      wasm_v128_store64_lane(c + i * o->c_stride, r, 1);
    else
      wasm_v128_store64_lane(c + i * o->c_stride, r, 0);
    return;
  }
  uint8_t tmp[16];
  wasm_v128_store(tmp, r);
  memcpy(c + i * o->c_stride, tmp + 8 * lane, nc);
}

/* The last n < 8 bytes of a row, zero-padded to 8 (never reads past the row). */
static inline const uint8_t *tail8(uint8_t *tmp, const uint8_t *p, size_t n) {
  memset(tmp, 0, 8);
  memcpy(tmp, p, n);
  return tmp;
}

/* Row i's accumulators += its broadcast pair (a) times the pair's columns 0-3 (wl), 4-7 (wh). */
#define ROW(i, a) \
  { \
    const v128_t ai = (a); \
    l##i = wasm_i32x4_add(l##i, wasm_i32x4_dot_i16x8(ai, wl)); \
    h##i = wasm_i32x4_add(h##i, wasm_i32x4_dot_i16x8(ai, wh)); \
  }
/* One depth pair: the panel's 32 bytes at q, the rows' broadcast pairs A(0) .. A(3). */
#define PAIR(q, A) \
  { \
    const v128_t wl = wasm_v128_load(q), wh = wasm_v128_load((q) + 16); \
    ROW(0, A(0)) ROW(1, A(1)) ROW(2, A(2)) ROW(3, A(3)) \
  }
/* Row i's pair from the buffer (xs: the pair's four rows) or from the row itself (depth byte
 * kk of a##i, or of the zero-padded tail tb##i). */
#define A_XB(i) wasm_v128_load32_splat(xs + (i))
#define A_ROW(i) WIDEN(wasm_v128_load16_splat(a##i + kk))
#define A_TAIL(i) WIDEN(wasm_v128_load16_splat(tb##i + kk))

/* The four rows' 8 depth bytes at p0 .. p3, widened (4 pairs each), transposed so that pair
 * P's four rows (one int32 each) lie at xs[4 * P .. 4 * P + 3]: 4 loads, 8 two-input shuffles
 * (unpacks) and 4 stores for 16 pairs. */
#define FILL(p0, p1, p2, p3) \
  { \
    const v128_t r0 = LOADX(p0), r1 = LOADX(p1), r2 = LOADX(p2), r3 = LOADX(p3); \
    const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5); \
    const v128_t t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5); \
    const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7); \
    const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7); \
    wasm_v128_store(xs, wasm_i64x2_shuffle(t0, t1, 0, 2)); \
    wasm_v128_store(xs + 4, wasm_i64x2_shuffle(t0, t1, 1, 3)); \
    wasm_v128_store(xs + 8, wasm_i64x2_shuffle(t2, t3, 0, 2)); \
    wasm_v128_store(xs + 12, wasm_i64x2_shuffle(t2, t3, 1, 3)); \
  }

/* The kernel for one signedness: LOADX widens 8 bytes, WIDEN the low 8 bytes of a vector,
 * NARROW8 narrows to the output's bytes with saturation (the values are >= act_min already;
 * above the type's range they saturate, and MIN8 then clamps to act_max, as the scalar
 * clamp does before its truncation). */
#define KERNEL \
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3]; \
  const bool radd = (row_add[0] | row_add[1] | row_add[2] | row_add[3]) != 0; \
  /* the bytes of a row the kernel may read (o->rows_pad8: kc rounded up to 8, zero past kc); \
     their last kread % 8, zero-padded, once for all panels */ \
  const size_t kread = o->rows_pad8 ? (kc + 7) & ~(size_t)7 : kc; \
  const size_t kfull = kread & ~(size_t)7; \
  uint8_t tb0[8], tb1[8], tb2[8], tb3[8]; \
  if (kfull < kread) { \
    tail8(tb0, a0 + kfull, kread - kfull), tail8(tb1, a1 + kfull, kread - kfull); \
    tail8(tb2, a2 + kfull, kread - kfull), tail8(tb3, a3 + kfull, kread - kfull); \
  } \
  const size_t panel_bytes = NR * (8 + 2 * ((kc + 7) & ~(size_t)7)); \
  const uint8_t *wp = w; \
  uint8_t *cp = o->c; \
  if (mr == 1) { \
    for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
      PANEL1(nc - n0 < NR ? nc - n0 : NR) \
      if (n0 + NR >= nc) break; \
    } \
    return; \
  } \
  if (nc > NR && kc <= XB_MAX_K) { \
    uint32_t xb[2 * XB_MAX_K]; \
    uint32_t *xs = xb; \
    for (size_t k = 0; k < kfull; k += 8, xs += 16) FILL(a0 + k, a1 + k, a2 + k, a3 + k) \
    if (kfull < kread) FILL(tb0, tb1, tb2, tb3) \
    /* the depth pairs up to kc: those past it are zero in the rows and the panel (a first \
       conv's K = 27 runs 14 pairs, not 16) */ \
    const uint32_t *const xe = xb + 4 * ((kc + 1) / 2); \
    for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
      PANEL(DEPTH_XB, nc - n0 < NR ? nc - n0 : NR) \
      if (n0 + NR >= nc) break; \
    } \
    return; \
  } \
  for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
    PANEL(DEPTH_ROWS, nc - n0 < NR ? nc - n0 : NR) \
    if (n0 + NR >= nc) break; \
  }

/* A panel's depth loop, one depth pair (32 panel bytes) an iteration, never unrolled: V8
 * (Node 20) schedules a block's loads first, whatever their order in the code, so a block of
 * four pairs holds 8 weight and 16 row vectors at once and spills (V8's code for it read:
 * the accumulators went to the stack; empty asm barriers order LLVM's code, not V8's). One
 * pair: 6 loads, 8 dot products, 8 adds and the loop's 5 instructions. */
#define PAIR_XB \
  PAIR(pw, A_XB) \
  pw += 32, xs += 4;
#define DEPTH_XB \
  _Pragma("clang loop unroll(disable)") for (const uint32_t *xs = xb; xs < xe;) { PAIR_XB }
#define PAIR_ROW(A) \
  PAIR(pw, A) \
  pw += 32, kk += 2;
#define DEPTH_ROWS \
  _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < kfull;) { PAIR_ROW(A_ROW) } \
  if (kfull < kread) _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < 8;) { \
      PAIR_ROW(A_TAIL) \
    }

/* One panel (wp) against the four rows: its columns' outputs at cp. The accumulators start at
 * bias (columns) + row_add (row i, splat; skipped where all four are zero: filters with no
 * offset, every int8 model, where the 8 adds and 4 splats are a tenth of a small-K tile). */
#define PANEL(DEPTH_LOOP, ncp) \
  const uint8_t *pw = wp + NR * 8; \
  const v128_t bl = wasm_v128_load(wp), bh = wasm_v128_load(wp + 16); \
  v128_t l0 = bl, h0 = bh, l1 = bl, h1 = bh, l2 = bl, h2 = bh, l3 = bl, h3 = bh; \
  if (radd) { \
    const v128_t r0 = wasm_i32x4_splat(row_add[0]), r1 = wasm_i32x4_splat(row_add[1]); \
    const v128_t r2 = wasm_i32x4_splat(row_add[2]), r3 = wasm_i32x4_splat(row_add[3]); \
    l0 = wasm_i32x4_add(l0, r0), h0 = wasm_i32x4_add(h0, r0); \
    l1 = wasm_i32x4_add(l1, r1), h1 = wasm_i32x4_add(h1, r1); \
    l2 = wasm_i32x4_add(l2, r2), h2 = wasm_i32x4_add(h2, r2); \
    l3 = wasm_i32x4_add(l3, r3), h3 = wasm_i32x4_add(h3, r3); \
  } \
  DEPTH_LOOP \
  if (o->c32) { \
    int32_t *d = o->c32; \
    wasm_v128_store(d, l0), wasm_v128_store(d + 4, h0); \
    wasm_v128_store(d + 8, l1), wasm_v128_store(d + 12, h1); \
    wasm_v128_store(d + 16, l2), wasm_v128_store(d + 20, h2); \
    wasm_v128_store(d + 24, l3), wasm_v128_store(d + 28, h3); \
    return; \
  } \
  const out_consts oc = out_init(o); \
  const v128_t sl = wasm_v128_load(wp + NR * 4), sh = wasm_v128_load(wp + NR * 4 + 16); \
  const v128_t n0_ = wasm_i16x8_narrow_i32x4(requant4(l0, sl, &oc), requant4(h0, sh, &oc)); \
  const v128_t n1_ = wasm_i16x8_narrow_i32x4(requant4(l1, sl, &oc), requant4(h1, sh, &oc)); \
  const v128_t n2_ = wasm_i16x8_narrow_i32x4(requant4(l2, sl, &oc), requant4(h2, sh, &oc)); \
  const v128_t n3_ = wasm_i16x8_narrow_i32x4(requant4(l3, sl, &oc), requant4(h3, sh, &oc)); \
  const v128_t r01 = MIN8(NARROW8(n0_, n1_), oc.max8), r23 = MIN8(NARROW8(n2_, n3_), oc.max8); \
  store_row(cp, 0, ncp, r01, 0, o); \
  if (mr > 1) store_row(cp, 1, ncp, r01, 1, o); \
  if (mr > 2) store_row(cp, 2, ncp, r23, 0, o); \
  if (mr > 3) store_row(cp, 3, ncp, r23, 1, o);

/* One row (mr == 1: a FULLY_CONNECTED of one batch, the last tile of an odd row count): one
 * panel against row 0 alone, two depth pairs an iteration (4 weight and 2 row vectors, 2
 * accumulators: no spill), a quarter of the 4-row tile's products. */
#define PAIR1(A) \
  { \
    const v128_t ai = (A); \
    l0 = wasm_i32x4_add(l0, wasm_i32x4_dot_i16x8(ai, wasm_v128_load(pw))); \
    h0 = wasm_i32x4_add(h0, wasm_i32x4_dot_i16x8(ai, wasm_v128_load(pw + 16))); \
    pw += 32, kk += 2; \
  }
#define PANEL1(ncp) \
  const uint8_t *pw = wp + NR * 8; \
  v128_t l0 = wasm_i32x4_add(wasm_v128_load(wp), wasm_i32x4_splat(row_add[0])); \
  v128_t h0 = wasm_i32x4_add(wasm_v128_load(wp + 16), wasm_i32x4_splat(row_add[0])); \
  _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < kfull;) { \
    PAIR1(A_ROW(0)) PAIR1(A_ROW(0)) \
  } \
  if (kfull < kread) _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < 8;) { \
      PAIR1(A_TAIL(0)) \
    } \
  if (o->c32) { \
    wasm_v128_store(o->c32, l0), wasm_v128_store(o->c32 + 4, h0); \
    return; \
  } \
  const out_consts oc = out_init(o); \
  const v128_t sl = wasm_v128_load(wp + NR * 4), sh = wasm_v128_load(wp + NR * 4 + 16); \
  const v128_t n0_ = wasm_i16x8_narrow_i32x4(requant4(l0, sl, &oc), requant4(h0, sh, &oc)); \
  store_row(cp, 0, ncp, MIN8(NARROW8(n0_, n0_), oc.max8), 0, o);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmsimd){
#define LOADX wasm_i16x8_load8x8
#define WIDEN wasm_i16x8_extend_low_i8x16
#define NARROW8 wasm_i8x16_narrow_i16x8
#define MIN8 wasm_i8x16_min
    KERNEL
#undef LOADX
#undef WIDEN
#undef NARROW8
#undef MIN8
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmsimd) {
#define LOADX wasm_u16x8_load8x8
#define WIDEN wasm_u16x8_extend_low_u8x16
#define NARROW8 wasm_u8x16_narrow_i16x8
#define MIN8 wasm_u8x16_min
  KERNEL
#undef LOADX
#undef WIDEN
#undef NARROW8
#undef MIN8
}

/* The relaxed-SIMD binary's q8 GEMM (q8-gemm-4x8-wasmrdot, TFCC_WASM_RELAXED_DOT): 4 rows x 8 columns over depth
 * groups of 4 bytes (the 4-byte group layout of gemm.h, weights stored as they are, depth
 * padded to 4), one i32x4.relaxed_dot_i8x16_i7x16_add_s per 16 products: lane j of
 * rdot(a, b, c) is c[j] + a[4j] b[4j] + .. + a[4j+3] b[4j+3]. The activations are xor 0x80
 * (tfcc_q8_gemm_kernel.x_xor): int8 x becomes the byte x + 128 (0..255), the second (b,
 * "i7") operand, against the int8 weights as the first; uint8 x becomes the int8 x - 128,
 * the first operand, against the uint8 weights as the second. The packed bias takes
 * -128 * (int8) or +128 * (uint8) the column's weight sum (pack.c), so the accumulator is
 * the SIMD128 kernel's. That holds where the engine computes the dot product exactly with b
 * read as unsigned bytes (x86-64 engines with AVX-VNNI: vpdpbusd); the relaxed-SIMD spec also
 * allows b read as signed bytes (ARM's sdot) and 16-bit pair sums that saturate (x86 without
 * VNNI: pmaddubsw; Node 20's V8 11.3 here), both wrong for b >= 128, so dispatch takes this
 * kernel only after tfcc_q8_gemm_wasm_rdot_exact's self-check on this engine (below; the
 * proof: docs/kernels.md, "WebAssembly int8 relaxed dot product").
 * Clang 14 (Emscripten 3.1.6) has no builtin for the dot product: the f64x2 relaxed fma
 * stands in for it (three v128 operands in the same order, one v128 result; tfcc emits it
 * nowhere else), rewritten after the link by scripts/wasm-relaxed.mjs. */
#include <stdatomic.h>

#include "kernels/q8-gemm/gemm.h"
#include "kernels/simd/wasm_rdot.h"

/* Both binaries hold this kernel and its self-check (kernels/simd/wasm_rdot.h). */
#define rdot tfcc_wasm_rdot

/* Row i's accumulators += its 4 broadcast bytes (x, already xor 0x80) times the group's
 * columns 0-3 (wl), 4-7 (wh); DOT puts each in its operand for the signedness. */
#define RROW(i, x) \
  { \
    const v128_t xi = (x); \
    l##i = DOT(xi, wl, l##i); \
    h##i = DOT(xi, wh, h##i); \
  }
#define RGROUP(q, A) \
  { \
    const v128_t wl = wasm_v128_load(q), wh = wasm_v128_load((q) + 16); \
    RROW(0, A(0)) RROW(1, A(1)) RROW(2, A(2)) RROW(3, A(3)) \
  }
#define RA_XB(i) wasm_v128_load32_splat(xs + (i))
#define RA_ROW(i) wasm_v128_xor(wasm_v128_load32_splat(a##i + kk), k80)
#define RA_TAIL(i) wasm_v128_xor(wasm_v128_load32_splat(tb##i + kk), k80)
#define RLOADX(p) wasm_v128_xor(wasm_v128_load(p), k80)

/* A row's 4 bytes at p, xor 0x80 each, as the buffer holds them. */
static inline uint32_t group32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v ^ 0x80808080u;
}

/* The groups up to kc (those past it are zero in the panel; the rows' bytes there, zero or
 * not, meet zero weights): from the buffer of transposed rows, or from the rows and their
 * zero-padded 16-byte tails (tb##i, from kfull). */
#define RDEPTH_XB \
  _Pragma("clang loop unroll(disable)") for (const uint32_t *xs = xb; xs < xe;) { \
    RGROUP(pw, RA_XB) \
    pw += 32, xs += 4; \
  }
#define RDEPTH_ROWS \
  _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < kfull;) { \
    RGROUP(pw, RA_ROW) \
    pw += 32, kk += 4; \
  } \
  _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < ktail;) { \
    RGROUP(pw, RA_TAIL) \
    pw += 32, kk += 4; \
  }

/* One row: one group an iteration (2 accumulators, 2 weight vectors, 1 row vector). */
#define RPANEL1(ncp) \
  const uint8_t *pw = wp + NR * 8; \
  v128_t l0 = wasm_i32x4_add(wasm_v128_load(wp), wasm_i32x4_splat(row_add[0])); \
  v128_t h0 = wasm_i32x4_add(wasm_v128_load(wp + 16), wasm_i32x4_splat(row_add[0])); \
  _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < kfull;) { \
    const v128_t wl = wasm_v128_load(pw), wh = wasm_v128_load(pw + 16); \
    RROW(0, RA_ROW(0)) \
    pw += 32, kk += 4; \
  } \
  _Pragma("clang loop unroll(disable)") for (size_t kk = 0; kk < ktail;) { \
    const v128_t wl = wasm_v128_load(pw), wh = wasm_v128_load(pw + 16); \
    RROW(0, RA_TAIL(0)) \
    pw += 32, kk += 4; \
  } \
  if (o->c32) { \
    wasm_v128_store(o->c32, l0), wasm_v128_store(o->c32 + 4, h0); \
    return; \
  } \
  const out_consts oc = out_init(o); \
  const v128_t sl = wasm_v128_load(wp + NR * 4), sh = wasm_v128_load(wp + NR * 4 + 16); \
  const v128_t n0_ = wasm_i16x8_narrow_i32x4(requant4(l0, sl, &oc), requant4(h0, sh, &oc)); \
  store_row(cp, 0, ncp, MIN8(NARROW8(n0_, n0_), oc.max8), 0, o);

/* The rows' bytes the kernel reads: kc, or kc rounded up to 4 where the rows hold zeros up to
 * 8 (o->rows_pad8); when that is not whole 4-byte groups, those from k16 (a multiple of 16) on
 * come from the zero-padded copies tb##i (ktail bytes: the rest rounded up to 4). The buffer path (several panels) holds the
 * rows xor 0x80 and transposed, a group's four rows as 16 consecutive bytes (FILL, 16 depth
 * bytes of the four rows per step). */
#define RKERNEL \
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3]; \
  const bool radd = (row_add[0] | row_add[1] | row_add[2] | row_add[3]) != 0; \
  const v128_t k80 = wasm_i8x16_splat((int8_t)0x80); \
  const size_t kread = o->rows_pad8 ? (kc + 3) & ~(size_t)3 : kc; \
  const size_t k16 = kread & ~(size_t)15; \
  /* whole 4-byte groups (im2col rows: K rounded up to 4, zero past K): every group straight \
     from the rows, no copies */ \
  const bool whole = (kread & 3) == 0; \
  const size_t kfull = whole ? kread : k16; \
  const size_t ktail = whole ? 0 : ((kread - k16) + 3) & ~(size_t)3; \
  uint8_t tb0[16], tb1[16], tb2[16], tb3[16]; \
  if (ktail) { \
    memset(tb0, 0, 16), memset(tb1, 0, 16), memset(tb2, 0, 16), memset(tb3, 0, 16); \
    memcpy(tb0, a0 + k16, kread - k16), memcpy(tb1, a1 + k16, kread - k16); \
    memcpy(tb2, a2 + k16, kread - k16), memcpy(tb3, a3 + k16, kread - k16); \
  } \
  const size_t panel_bytes = NR * (8 + ((kc + 3) & ~(size_t)3)); \
  const uint8_t *wp = w; \
  uint8_t *cp = o->c; \
  if (mr == 1) { \
    for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
      RPANEL1(nc - n0 < NR ? nc - n0 : NR) \
      if (n0 + NR >= nc) break; \
    } \
    return; \
  } \
  if (nc > NR && kc <= XB_MAX_K) { \
    uint32_t xb[XB_MAX_K]; \
    uint32_t *xs = xb; \
    for (size_t k = 0; k < k16; k += 16, xs += 16) FILL(a0 + k, a1 + k, a2 + k, a3 + k) \
    if (ktail) FILL(tb0, tb1, tb2, tb3) \
    for (size_t k = k16; k < kfull; k += 4, xs += 4) \
      xs[0] = group32(a0 + k), xs[1] = group32(a1 + k), xs[2] = group32(a2 + k), \
      xs[3] = group32(a3 + k); \
    const uint32_t *const xe = xb + 4 * ((kc + 3) / 4); \
    for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
      PANEL(RDEPTH_XB, nc - n0 < NR ? nc - n0 : NR) \
      if (n0 + NR >= nc) break; \
    } \
    return; \
  } \
  for (size_t n0 = 0;; n0 += NR, wp += panel_bytes, cp += NR) { \
    PANEL(RDEPTH_ROWS, nc - n0 < NR ? nc - n0 : NR) \
    if (n0 + NR >= nc) break; \
  }

/* int8: x + 128 as the unsigned operand, the int8 weights as the signed one */
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmrdot){
#define DOT(x, w, acc) rdot(w, x, acc)
#define LOADX RLOADX
#define NARROW8 wasm_i8x16_narrow_i16x8
#define MIN8 wasm_i8x16_min
    RKERNEL
#undef DOT
#undef LOADX
#undef NARROW8
#undef MIN8
}

/* uint8: x - 128 as the signed operand, the uint8 weights as the unsigned one */
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmrdot) {
#define DOT(x, w, acc) rdot(x, w, acc)
#define LOADX RLOADX
#define NARROW8 wasm_u8x16_narrow_i16x8
#define MIN8 wasm_u8x16_min
  RKERNEL
#undef DOT
#undef LOADX
#undef NARROW8
#undef MIN8
}

/* The self-check: both kernels (and a plain loop) on edge bytes, int32 accumulators of two
 * panels of 8 columns, 4 rows and 1 row, depth 20 (groups from the rows and from the tail),
 * for int8 and uint8; bit-identical or this engine's dot product is not the exact
 * u8 x s8 one. Row bytes 0x7f / 0x00 / 0xff,0x80 / random, column bytes 0x80 / 0xff / 0x7f /
 * 0x00 / alternating / random: every (x + 128) = 255 meets w = -128 and every x - 128 = -128
 * meets w = 255, the pairs whose 16-bit sums saturate (-65280) and whose bytes >= 128 read
 * as signed give other sums. */
#define ST_K 20
#define ST_N 16
static bool rdot_selftest(void) {
  uint8_t x[4][ST_K], wt[ST_N][ST_K];
  uint32_t seed = 0x2545f491u;
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < ST_K; k++) {
      seed = seed * 1664525u + 1013904223u;
      x[i][k] = i == 0   ? 0x7f
                : i == 1 ? 0x00
                : i == 2 ? (k & 1 ? 0x80 : 0xff)
                         : (uint8_t)(seed >> 24);
    }
  for (int n = 0; n < ST_N; n++)
    for (int k = 0; k < ST_K; k++) {
      seed = seed * 1664525u + 1013904223u;
      static const uint8_t fixed[6][2] = {{0x80, 0x80}, {0xff, 0xff}, {0x7f, 0x7f},
                                          {0x00, 0x00}, {0x80, 0x7f}, {0xff, 0x00}};
      wt[n][k] = n < 6 ? fixed[n][k & 1] : (uint8_t)(seed >> 24);
    }
  int32_t bias[ST_N];
  for (int n = 0; n < ST_N; n++) bias[n] = n * 1000 - 7000;
  const tfcc_conv_requant r = {0};
  const tfcc_q8_gemm_kernel kr = {"rdot",
                                  TFCC_ISA_WASMSIMD,
                                  -1,
                                  0,
                                  4,
                                  NR,
                                  tfcc_q8_gemm_s_4x8_wasmrdot,
                                  tfcc_q8_gemm_u_4x8_wasmrdot,
                                  NULL,
                                  false,
                                  0x80};
  const tfcc_q8_gemm_kernel ks = {
      "q8-gemm-4x8-wasmsimd",      TFCC_ISA_WASMSIMD,           -1,   0,     4, NR,
      tfcc_q8_gemm_s_4x8_wasmsimd, tfcc_q8_gemm_u_4x8_wasmsimd, NULL, false, 0};
  _Alignas(64) uint8_t wr[2 * NR * (8 + 2 * 24) + 64], ws[2 * NR * (8 + 2 * 24) + 64];
  for (int sgn = 0; sgn < 2; sgn++) {
    tfcc_q8_packed pr, ps;
    const size_t br = tfcc_q8_pack_layout(&kr, sgn, ST_N, ST_K, &r, &pr);
    const size_t bs = tfcc_q8_pack_layout(&ks, sgn, ST_N, ST_K, &r, &ps);
    if (!br || !bs || br > sizeof wr || bs > sizeof ws) return false;
    tfcc_q8_pack_fill(&pr, wt, bias, &r, wr, br);
    tfcc_q8_pack_fill(&ps, wt, bias, &r, ws, bs);
    const void *rows[4] = {x[0], x[1], x[2], x[3]};
    const int32_t row_add[4] = {0, 0, 0, 0}; /* kz = filter offset = 0 for both */
    for (int p = 0; p < 2; p++)
      for (size_t mr = 1; mr <= 4; mr += 3) {
        int32_t cr[4 * NR], cs[4 * NR];
        tfcc_q8_out o;
        memset(&o, 0, sizeof o);
        memset(cr, 0, sizeof cr), memset(cs, 0, sizeof cs);
        o.c32 = cr;
        (sgn ? kr.fn_s : kr.fn_u)(mr, NR, ST_K, rows, wr + (size_t)p * tfcc_q8_panel_bytes(&pr),
                                  row_add, &o);
        o.c32 = cs;
        (sgn ? ks.fn_s : ks.fn_u)(mr, NR, ST_K, rows, ws + (size_t)p * tfcc_q8_panel_bytes(&ps),
                                  row_add, &o);
        for (size_t i = 0; i < mr; i++)
          for (int j = 0; j < NR; j++) {
            const int n = p * NR + j;
            int32_t want = bias[n];
            for (int k = 0; k < ST_K; k++)
              want += sgn ? (int32_t)(int8_t)x[i][k] * (int8_t)wt[n][k] : x[i][k] * wt[n][k];
            if (cr[i * NR + j] != want || cs[i * NR + j] != want) return false;
          }
      }
  }
  return true;
}

bool tfcc_q8_gemm_wasm_rdot_exact(void) {
  /* 0: not run yet, 1: exact, 2: not (loads may race to it: each gets the same answer) */
  static atomic_int state;
  int s = atomic_load_explicit(&state, memory_order_acquire);
  if (!s) {
    s = rdot_selftest() ? 1 : 2;
    atomic_store_explicit(&state, s, memory_order_release);
  }
  return s == 1;
}
