/* q8 elementwise, NEON (aarch64): 8 elements per step in two int32x4 halves; SQRDMULH is
 * exactly gemmlowp's SaturatingRoundingDoublingHighMul; tails through an 8-byte buffer. */
#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/simd/q8_widen_neon.h"

typedef struct vparams {
  bool s;
  int32x4_t zo, lo, hi, bias, am, bm, aoff, boff, nsh, ls, ols, aqm, bqm, oqm;
  int32x4_t ar_mask, ar_thr, ar_n, br_mask, br_thr, br_n, or_mask, or_thr, or_n;
  float32x4_t scale, flo, fhi;
} vparams;

/* gemmlowp RoundingDivideByPOT (half away from zero) by e in [0, 31]: mask, threshold and -e
 * precomputed. */
static inline int32x4_t rdbpot(int32x4_t x, int32x4_t mask, int32x4_t thr, int32x4_t neg_e) {
  const int32x4_t rem = vandq_s32(x, mask);
  const int32x4_t t = vsubq_s32(thr, vshrq_n_s32(x, 31));
  const int32x4_t up = vreinterpretq_s32_u32(vcgtq_s32(rem, t)); /* -1 where rounding up */
  return vsubq_s32(vshlq_s32(x, neg_e), up);
}

static inline int32x4_t clamp(const vparams *v, int32x4_t r) {
  return vminq_s32(vmaxq_s32(r, v->lo), v->hi);
}

static inline int32x4_t add_xnn(const vparams *v, int32x4_t a, int32x4_t b) {
  const int32x4_t acc = vmlaq_s32(vmlaq_s32(v->bias, a, v->am), b, v->bm);
  return clamp(v, vaddq_s32(vshlq_s32(acc, v->nsh), v->zo));
}

static inline int32x4_t add_fixed(const vparams *v, int32x4_t a, int32x4_t b) {
  const int32x4_t xa = vshlq_s32(vaddq_s32(a, v->aoff), v->ls);
  const int32x4_t xb = vshlq_s32(vaddq_s32(b, v->boff), v->ls);
  const int32x4_t s = vaddq_s32(rdbpot(vqrdmulhq_s32(xa, v->aqm), v->ar_mask, v->ar_thr, v->ar_n),
                                rdbpot(vqrdmulhq_s32(xb, v->bqm), v->br_mask, v->br_thr, v->br_n));
  return clamp(v,
               vaddq_s32(rdbpot(vqrdmulhq_s32(s, v->oqm), v->or_mask, v->or_thr, v->or_n), v->zo));
}

static inline int32x4_t mul_xnn(const vparams *v, int32x4_t a, int32x4_t b) {
  const int32x4_t prod = vmulq_s32(vaddq_s32(a, v->aoff), vaddq_s32(b, v->boff));
  float32x4_t f = vmulq_f32(vcvtq_f32_s32(prod), v->scale);
  f = vminq_f32(vmaxq_f32(f, v->flo), v->fhi);
  return vaddq_s32(vcvtnq_s32_f32(f), v->zo);
}

static inline int32x4_t mul_fixed(const vparams *v, int32x4_t a, int32x4_t b) {
  const int32x4_t prod = vmulq_s32(vaddq_s32(a, v->aoff), vaddq_s32(b, v->boff));
  const int32x4_t h = vqrdmulhq_s32(vshlq_s32(prod, v->ols), v->oqm);
  return clamp(v, vaddq_s32(rdbpot(h, v->or_mask, v->or_thr, v->or_n), v->zo));
}

static inline void narrow(int8_t *p, bool s, int32x4_t lo, int32x4_t hi) {
  const int16x8_t w = vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi));
  if (s)
    vst1_s8(p, vqmovn_s16(w));
  else
    vst1_u8((uint8_t *)p, vqmovun_s16(w));
}

#define ROW(name, op) \
  static void name(const vparams *v, const int8_t *pa, const int8_t *pb, int8_t *po, size_t n, \
                   int a_step, int b_step) { \
    const bool s = v->s; \
    const int32x4_t ca = vdupq_n_s32(s ? (int32_t)pa[0] : (int32_t)(uint8_t)pa[0]); \
    const int32x4_t cb = vdupq_n_s32(s ? (int32_t)pb[0] : (int32_t)(uint8_t)pb[0]); \
    int8_t ta[8], tb[8], to[8]; \
    for (size_t i = 0; i < n; i += 8) { \
      const size_t m = n - i < 8 ? n - i : 8; \
      const int8_t *xa = pa + i, *xb = pb + i; \
      if (m < 8) { \
        memset(ta, 0, 8); \
        memset(tb, 0, 8); \
        if (a_step) memcpy(ta, pa + i, m); \
        if (b_step) memcpy(tb, pb + i, m); \
        xa = ta; \
        xb = tb; \
      } \
      int32x4_t a0 = ca, a1 = ca, b0 = cb, b1 = cb; \
      if (a_step) tfcc_q8_widen_neon(xa, s, &a0, &a1); \
      if (b_step) tfcc_q8_widen_neon(xb, s, &b0, &b1); \
      if (m == 8) { \
        narrow(po + i, s, op(v, a0, b0), op(v, a1, b1)); \
      } else { \
        narrow(to, s, op(v, a0, b0), op(v, a1, b1)); \
        memcpy(po + i, to, m); \
      } \
    } \
  }
ROW(row_add_xnn, add_xnn)
ROW(row_add_fixed, add_fixed)
ROW(row_mul_xnn, mul_xnn)
ROW(row_mul_fixed, mul_fixed)

static void rdiv(int32_t e, int32x4_t *mask, int32x4_t *thr, int32x4_t *neg) {
  const uint32_t m = (uint32_t)((1ull << e) - 1u);
  *mask = vdupq_n_s32((int32_t)m);
  *thr = vdupq_n_s32((int32_t)(m >> 1));
  *neg = vdupq_n_s32(-e);
}

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_neon) {
  const tfcc_q8_vbinary_params *p = params;
  vparams v;
  v.s = p->is_signed;
  v.zo = vdupq_n_s32(p->out_zp);
  v.lo = vdupq_n_s32(p->qmin);
  v.hi = vdupq_n_s32(p->qmax);
  v.bias = vdupq_n_s32(p->bias);
  v.am = vdupq_n_s32(p->a_mult);
  v.bm = vdupq_n_s32(p->b_mult);
  v.aoff = vdupq_n_s32(p->a_off);
  v.boff = vdupq_n_s32(p->b_off);
  v.nsh = vdupq_n_s32(-p->shift);
  v.ls = vdupq_n_s32(p->left_shift);
  v.ols = vdupq_n_s32(p->out_ls);
  v.aqm = vdupq_n_s32(p->a_qm);
  v.bqm = vdupq_n_s32(p->b_qm);
  v.oqm = vdupq_n_s32(p->out_qm);
  rdiv(p->a_rs, &v.ar_mask, &v.ar_thr, &v.ar_n);
  rdiv(p->b_rs, &v.br_mask, &v.br_thr, &v.br_n);
  rdiv(p->out_rs, &v.or_mask, &v.or_thr, &v.or_n);
  v.scale = vdupq_n_f32(p->scale);
  v.flo = vdupq_n_f32((float)(p->qmin - p->out_zp));
  v.fhi = vdupq_n_f32((float)(p->qmax - p->out_zp));
  switch (p->op) {
    case TFCC_Q8VB_ADD_XNN: row_add_xnn(&v, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_ADD_FIXED: row_add_fixed(&v, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_MUL_XNN: row_mul_xnn(&v, a, b, out, n, a_step, b_step); break;
    default: row_mul_fixed(&v, a, b, out, n, a_step, b_step); break;
  }
}
