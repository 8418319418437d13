/* Body of the SIMD fast-LSTM variants, included once by each q8-lstm-<isa>.c after it defines:
 *   V, M               vector of int16 lanes, lane mask (a vector or an AVX-512 mask register)
 *   VL                 int16 lanes per vector
 *   LD(p), ST(p, v)    unaligned load / store of VL int16
 *   SET1(x), ZERO()    broadcast int16, zero
 *   ADD, SUB, ADDS, AND  wrapping add, wrapping sub, saturating add, and (16-bit lanes)
 *   MULHRS(a, b)       (a * b + 2^14) >> 15 per lane (PMULHRSW)
 *   SRA(v, n), SRL(v, n), SLL(v, n)  shifts by a run-time count
 *   CMPEQ, CMPGT       lane masks;  BLEND(a, b, m)  m ? b : a
 *   GEMV_LANES         int32 lanes per vector
 *   GEMV_LOAD(p)       GEMV_LANES x 2 int8 at p sign-extended to int16 lanes
 *   MADD(a, b)         PMADDWD;  ADD32;  SET1_32;  ST32(p, v)
 *   32-bit lanes (GEMV_LANES of them): M32 lane mask, CMPGT32, INC_IF(v, m) (+1 where m),
 *   SLL32 / SRA32 / SRL32 (run-time count), MULLO32, MIN32, MAX32, MUL_EVEN (PMULDQ), ADD64,
 *   SET1_64, SRLI64 / SLLI64 (immediate), BLEND_ODD32(even, odd) (odd 32-bit lanes from odd),
 *   LD16_32(p) GEMV_LANES int16 sign-extended, ST16_32(p, v) / ST8_32(p, v) narrow values that
 *   fit (int16 / int8) and store GEMV_LANES of them
 *   SRDHM32(a, m)      optional: the ISA's exact SaturatingRoundingDoublingHighMul (then
 *                      MUL_EVEN, ADD64, SET1_64, SRLI64, SLLI64, BLEND_ODD32 are not needed)
 *   SFX                the function name suffix
 * The activations follow tfcc_fx16_logistic / tfcc_fx16_tanh (src/kernels/ref/lstm_quant.c)
 * operation for operation; see there for what each step is. */
#include <string.h>

#include "kernels/q8-lstm/lstm.h"
#include "kernels/q8-lstm/scalar_ops.h"
#include "kernels/ref/quant_util.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

/* SaturatingRoundingDoublingHighMul: PMULHRSW is exact except for INT16_MIN x INT16_MIN
 * (INT16_MIN instead of INT16_MAX). No product in these activations can be that one: every
 * multiply has a constant operand other than INT16_MIN or operands bounded well inside
 * (|x| <= 1/8 in exp_on_interval, positive denominators in the Newton-Raphson steps), and
 * tests/ops/test_q8_lstm_fast.c checks all 65536 inputs at every integer-bit count. */
static inline V fx_mul(V a, V b) { return MULHRS(a, b); }

static inline int16_t fx_const(int32_t c) {
  return (int16_t)(uint16_t)(uint32_t)tfcc_rdbpot(c, 16);
}

/* RoundingDivideByPOT, e >= 1. */
static inline V fx_rdbpot(V x, int e) {
  const int16_t mask = (int16_t)((1 << e) - 1);
  const V rem = AND(x, SET1(mask));
  const V thr = ADD(SET1((int16_t)(mask >> 1)), SRL(x, 15));
  return ADD(SRA(x, e), BLEND(ZERO(), SET1(1), CMPGT(rem, thr)));
}

/* SaturatingRoundingMultiplyByPOT. */
static inline V fx_mul_pot(V x, int e) {
  if (e > 0) {
    const int16_t thr = (int16_t)((1 << (15 - e)) - 1);
    V r = SLL(x, e);
    r = BLEND(r, SET1(INT16_MAX), CMPGT(x, SET1(thr)));
    return BLEND(r, SET1(INT16_MIN), CMPGT(SET1((int16_t)-thr), x));
  }
  if (e < 0) return fx_rdbpot(x, -e);
  return x;
}

/* (a + INT16_MAX + sign) / 2 rounded toward zero: (a + 32768) >> 1, and -1 for a = INT16_MIN. */
static inline V fx_half_sum_max(V a) {
  const V r = SRL(ADD(a, SET1(INT16_MIN)), 1);
  return BLEND(r, SET1(-1), CMPEQ(a, SET1(INT16_MIN)));
}

static inline V fx_exp_quarter(V a) {
  const V constant_term = SET1(fx_const(1895147668));
  const V one_third = SET1(fx_const(715827883));
  const V x = ADD(a, SET1(1 << 12));
  const V x2 = fx_mul(x, x);
  const V x3 = fx_mul(x2, x);
  const V x4 = fx_mul(x2, x2);
  const V x4_over_4 = fx_mul_pot(x4, -2);
  const V poly = fx_mul_pot(ADD(fx_mul(ADD(x4_over_4, x3), one_third), x2), -1);
  return ADDS(constant_term, fx_mul(constant_term, ADD(x, poly)));
}

static inline V fx_exp_negative(V a, int ib) {
  static const int32_t k_mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                    39332535,   720401,     242};
  const int fb = 15 - ib;
  const int16_t quarter = (int16_t)(1 << (fb - 2));
  const V amq = SUB(AND(a, SET1((int16_t)(quarter - 1))), SET1(quarter));
  V result = fx_exp_quarter(fx_mul_pot(amq, ib));
  const V remainder = SUB(amq, a);
  for (int e = -2; e <= 4; e++) {
    if (ib > e) {
      const V bit = SET1((int16_t)(1 << (fb + e)));
      result = BLEND(result, fx_mul(result, SET1(fx_const(k_mult[e + 2]))),
                     CMPEQ(AND(remainder, bit), bit));
    }
  }
  if (ib > 5) result = BLEND(result, ZERO(), CMPGT(SET1(fx_const(-(1 << (36 - ib)))), a));
  return BLEND(result, SET1(INT16_MAX), CMPEQ(a, ZERO()));
}

static inline V fx_nr_inverse(V a) {
  const V f2_one = SET1(1 << 13);
  const V half_den = fx_half_sum_max(a);
  V x = ADD(SET1(fx_const(1515870810)), fx_mul(half_den, SET1(fx_const(-1010580540))));
  for (int i = 0; i < 3; i++) {
    const V hx = fx_mul(half_den, x);
    const V one_minus = SUB(f2_one, hx);
    x = ADD(x, fx_mul_pot(fx_mul(x, one_minus), 2));
  }
  return x;
}

static inline V v_logistic(V a, int ib) {
  const M pos = CMPGT(a, ZERO());
  const V neg_abs = BLEND(a, SUB(ZERO(), a), pos);
  const V rp = fx_mul_pot(fx_nr_inverse(fx_exp_negative(neg_abs, ib)), 1);
  const V rn = SUB(SET1(INT16_MAX), rp);
  const V r = BLEND(rn, rp, pos);
  return BLEND(r, SET1(fx_const(1 << 30)), CMPEQ(a, ZERO()));
}

static inline V v_tanh(V a, int ib) {
  const M neg = CMPGT(ZERO(), a);
  const V n = BLEND(SUB(ZERO(), a), a, neg);
  const V x = fx_nr_inverse(fx_exp_negative(n, ib + 1));
  const V t = fx_mul_pot(SUB(x, SET1(1 << 13)), 2);
  const V r = BLEND(t, SUB(ZERO(), t), neg);
  return BLEND(r, ZERO(), CMPEQ(a, ZERO()));
}

/* The tail (fewer than VL elements) through masked loads and stores where the ISA has them,
 * else through a zeroed VL-element buffer. */
#ifdef LD_TAIL
#define ACT_TAIL(fn) \
  if (i < n) ST_TAIL(out + i, fn(LD_TAIL(in + i, n - i), int_bits), n - i)
#else
#define ACT_TAIL(fn) \
  if (i < n) { \
    int16_t buf[VL]; \
    memset(buf, 0, sizeof buf); \
    memcpy(buf, in + i, (n - i) * sizeof(int16_t)); \
    ST(buf, fn(LD(buf), int_bits)); \
    memcpy(out + i, buf, (n - i) * sizeof(int16_t)); \
  }
#endif

void CAT(tfcc_q8_lstm_sigmoid_, SFX)(const int16_t *in, int16_t *out, size_t n, int int_bits) {
  size_t i = 0;
  for (; i + VL <= n; i += VL) ST(out + i, v_logistic(LD(in + i), int_bits));
  ACT_TAIL(v_logistic);
}

void CAT(tfcc_q8_lstm_tanh_, SFX)(const int16_t *in, int16_t *out, size_t n, int int_bits) {
  size_t i = 0;
  for (; i + VL <= n; i += VL) ST(out + i, v_tanh(LD(in + i), int_bits));
  ACT_TAIL(v_tanh);
}

/* 16 rows per block: 16 / GEMV_LANES accumulators, one column pair per step. */
#define GEMV_ACC (16 / GEMV_LANES)
void CAT(tfcc_q8_lstm_gemv_, SFX)(const int8_t *packed, int32_t row_blocks, int32_t k_pairs,
                                  const int32_t *xp, int32_t *acc) {
  for (int32_t b = 0; b < row_blocks; b++) {
    const int8_t *w = packed + (size_t)b * k_pairs * 32;
    V s[GEMV_ACC];
    for (int j = 0; j < GEMV_ACC; j++) s[j] = ZERO();
    for (int32_t p = 0; p < k_pairs; p++) {
      const V x = SET1_32(xp[p]);
      for (int j = 0; j < GEMV_ACC; j++)
        s[j] = ADD32(s[j], MADD(GEMV_LOAD(w + (size_t)p * 32 + j * 2 * GEMV_LANES), x));
    }
    for (int j = 0; j < GEMV_ACC; j++) ST32(acc + (size_t)b * 16 + j * GEMV_LANES, s[j]);
  }
}

/* ---------------------------------------------------------------- 32-bit lanes */

/* RoundingDivideByPOT, 0 <= e <= 31. */
static inline V v_rdbpot32(V x, int e) {
  if (e == 0) return x;
  const int32_t mask = (int32_t)((1ull << e) - 1);
  const V rem = AND(x, SET1_32(mask));
  const V thr = ADD32(SET1_32(mask >> 1), SRL32(x, 31));
  return INC_IF(SRA32(x, e), CMPGT32(rem, thr));
}

/* SaturatingRoundingDoublingHighMul(a, b) for a multiplier b >= 0 (never INT32_MIN, so the
 * saturating case cannot occur): the low 32 bits of (a * b + 2^30) >> 31, which equals the
 * reference's nudge-and-truncate for either sign of the product. */
static inline V v_srdhm(V a, int32_t b) {
#ifdef SRDHM32
  return SRDHM32(a, b); /* the ISA's own instruction (NEON SQRDMULH) */
#else
  const V bv = SET1_32(b), r = SET1_64(INT64_C(1) << 30);
  const V even = SRLI64(ADD64(MUL_EVEN(a, bv), r), 31);
  const V odd = SLLI64(ADD64(MUL_EVEN(SRLI64(a, 32), bv), r), 1);
  return BLEND_ODD32(even, odd);
#endif
}

/* MultiplyByQuantizedMultiplier. */
static inline V v_mbqm(V x, int32_t m, int shift) {
  if (shift > 0) x = SLL32(x, shift);
  return v_rdbpot32(v_srdhm(x, m), shift > 0 ? 0 : -shift);
}

static inline V v_clamp32(V v, int32_t lo, int32_t hi) {
  return MIN32(MAX32(v, SET1_32(lo)), SET1_32(hi));
}
/* (int16_t) of an int32 lane, sign-extended back. */
static inline V v_trunc16(V v) { return SRA32(SLL32(v, 16), 16); }

void CAT(tfcc_q8_lstm_gate_, SFX)(const int32_t *ax, const int32_t *bx, int32_t mx, int sx,
                                  const int32_t *ah, const int32_t *bh, int32_t mh, int sh,
                                  int16_t *out, size_t n) {
  size_t i = 0;
  for (; i + GEMV_LANES <= n; i += GEMV_LANES) {
    const V v = v_clamp32(v_mbqm(ADD32(LD(ax + i), LD(bx + i)), mx, sx), INT16_MIN, INT16_MAX);
    const V g = ADD32(v_mbqm(ADD32(LD(ah + i), LD(bh + i)), mh, sh), v);
    ST16_32(out + i, v_clamp32(g, INT16_MIN, INT16_MAX));
  }
#ifdef LD32_TAIL
  if (i < n) {
    const size_t t = n - i;
    const V v = v_clamp32(v_mbqm(ADD32(LD32_TAIL(ax + i, t), LD32_TAIL(bx + i, t)), mx, sx),
                          INT16_MIN, INT16_MAX);
    const V g = ADD32(v_mbqm(ADD32(LD32_TAIL(ah + i, t), LD32_TAIL(bh + i, t)), mh, sh), v);
    ST16_32_TAIL(out + i, v_clamp32(g, INT16_MIN, INT16_MAX), t);
  }
#else
  tfcc_q8_lstm_gate_tail(ax, bx, mx, sx, ah, bh, mh, sh, out, i, n);
#endif
}

void CAT(tfcc_q8_lstm_cell_, SFX)(const int16_t *ig, const int16_t *fg, const int16_t *cg,
                                  int16_t *c, size_t n, int in_shift, int16_t clip) {
  size_t i = 0;
  const int32_t lo = clip > 0 ? -clip : INT16_MIN, hi = clip > 0 ? clip : INT16_MAX;
  /* clamp to int16 then to the clip: one clamp, the clip lies inside int16 */
#define CELL_STEP(LOAD, STORE) \
  { \
    const V f = LOAD(fg + i), cv = LOAD(c + i); \
    const V in_gate = ig ? LOAD(ig + i) : v_trunc16(SUB32(SET1_32(INT16_MAX), f)); \
    const V kept = v_trunc16(v_rdbpot32(MULLO32(f, cv), 15)); \
    const V added = v_trunc16(v_rdbpot32(MULLO32(in_gate, LOAD(cg + i)), in_shift)); \
    STORE(c + i, v_clamp32(ADD32(kept, added), lo, hi)); \
  }
  for (; i + GEMV_LANES <= n; i += GEMV_LANES) CELL_STEP(LD16_32, ST16_32)
#ifdef LD32_TAIL
  if (i < n) {
    const size_t t = n - i;
#define LD_T(p) LD16_32_TAIL((p), t)
#define ST_T(p, v) ST16_32_TAIL((p), (v), t)
    CELL_STEP(LD_T, ST_T)
#undef LD_T
#undef ST_T
  }
#else
  tfcc_q8_lstm_cell_tail(ig, fg, cg, c, i, n, in_shift, clip);
#endif
#undef CELL_STEP
}

void CAT(tfcc_q8_lstm_hidden_, SFX)(const int16_t *og, const int16_t *th, int32_t m, int s,
                                    int32_t zp, int8_t *out, size_t n) {
  size_t i = 0;
  for (; i + GEMV_LANES <= n; i += GEMV_LANES) {
    const V v = v_mbqm(MULLO32(LD16_32(og + i), LD16_32(th + i)), m, s);
    ST8_32(out + i, v_clamp32(SUB32(v, SET1_32(zp)), INT8_MIN, INT8_MAX));
  }
#ifdef LD32_TAIL
  if (i < n) {
    const size_t t = n - i;
    const V v = v_mbqm(MULLO32(LD16_32_TAIL(og + i, t), LD16_32_TAIL(th + i, t)), m, s);
    ST8_32_TAIL(out + i, v_clamp32(SUB32(v, SET1_32(zp)), INT8_MIN, INT8_MAX), t);
  }
#else
  tfcc_q8_lstm_hidden_tail(og, th, m, s, zp, out, i, n);
#endif
}
