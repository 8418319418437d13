/* q8 elementwise, portable C: the same arithmetic as the vector variants, one loop per
 * operation, signedness and broadcast pattern so that the compiler keeps the parameters in
 * registers (and vectorises where the target allows). */
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/quant_util.h"

#include <math.h>

/* Arithmetic shift right (floor) without relying on signed >>: sign ^ ((v ^ sign) >> s). */
static inline int32_t asr(int32_t v, int s) {
  const uint32_t sign = 0u - ((uint32_t)v >> 31);
  return (int32_t)((((uint32_t)v ^ sign) >> s) ^ sign);
}

static inline int32_t clampi(int32_t r, int32_t lo, int32_t hi) {
  r = r < lo ? lo : r;
  return r > hi ? hi : r;
}

static inline int32_t fixed_term(int32_t v, int32_t ls, int32_t qm, int32_t rs) {
  return tfcc_rdbpot(tfcc_srdhm((int32_t)((uint32_t)v << ls), qm), rs);
}

static inline int32_t add_xnn(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  const int32_t acc = (int32_t)((uint32_t)p->bias + (uint32_t)a * (uint32_t)p->a_mult +
                                (uint32_t)b * (uint32_t)p->b_mult);
  return clampi(asr(acc, p->shift) + p->out_zp, p->qmin, p->qmax);
}

static inline int32_t add_fixed(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  const int32_t s = fixed_term(a + p->a_off, p->left_shift, p->a_qm, p->a_rs) +
                    fixed_term(b + p->b_off, p->left_shift, p->b_qm, p->b_rs);
  return clampi(tfcc_rdbpot(tfcc_srdhm(s, p->out_qm), p->out_rs) + p->out_zp, p->qmin, p->qmax);
}

static inline int32_t mul_xnn(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  float f = (float)((a + p->a_off) * (b + p->b_off)) * p->scale;
  const float lo = (float)(p->qmin - p->out_zp), hi = (float)(p->qmax - p->out_zp);
  f = f < lo ? lo : f;
  f = f > hi ? hi : f;
  return (int32_t)lrintf(f) + p->out_zp;
}

static inline int32_t mul_fixed(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  return clampi(
      fixed_term((a + p->a_off) * (b + p->b_off), p->out_ls, p->out_qm, p->out_rs) + p->out_zp,
      p->qmin, p->qmax);
}

/* One row: T the storage type, steps fixed per instantiation. */
#define ROW(name, T, op) \
  static void name(const tfcc_q8_vbinary_params *p, const T *restrict a, const T *restrict b, \
                   T *o, size_t n, int sa, int sb) { \
    const tfcc_q8_vbinary_params q = *p; \
    if (sa && sb) { \
      for (size_t i = 0; i < n; i++) o[i] = (T)op(&q, a[i], b[i]); \
    } else if (sa) { \
      const int32_t y = b[0]; \
      for (size_t i = 0; i < n; i++) o[i] = (T)op(&q, a[i], y); \
    } else if (sb) { \
      const int32_t x = a[0]; \
      for (size_t i = 0; i < n; i++) o[i] = (T)op(&q, x, b[i]); \
    } else { \
      const T v = (T)op(&q, a[0], b[0]); \
      for (size_t i = 0; i < n; i++) o[i] = v; \
    } \
  }
#define ROWS(T, sfx) \
  ROW(add_xnn_##sfx, T, add_xnn) \
  ROW(add_fixed_##sfx, T, add_fixed) \
  ROW(mul_xnn_##sfx, T, mul_xnn) \
  ROW(mul_fixed_##sfx, T, mul_fixed)
ROWS(int8_t, s8)
ROWS(uint8_t, u8)

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_scalar) {
  const tfcc_q8_vbinary_params *p = params;
  if (p->is_signed) {
    switch (p->op) {
      case TFCC_Q8VB_ADD_XNN: add_xnn_s8(p, a, b, out, n, a_step, b_step); break;
      case TFCC_Q8VB_ADD_FIXED: add_fixed_s8(p, a, b, out, n, a_step, b_step); break;
      case TFCC_Q8VB_MUL_XNN: mul_xnn_s8(p, a, b, out, n, a_step, b_step); break;
      default: mul_fixed_s8(p, a, b, out, n, a_step, b_step); break;
    }
  } else {
    switch (p->op) {
      case TFCC_Q8VB_ADD_XNN: add_xnn_u8(p, a, b, out, n, a_step, b_step); break;
      case TFCC_Q8VB_ADD_FIXED: add_fixed_u8(p, a, b, out, n, a_step, b_step); break;
      case TFCC_Q8VB_MUL_XNN: mul_xnn_u8(p, a, b, out, n, a_step, b_step); break;
      default: mul_fixed_u8(p, a, b, out, n, a_step, b_step); break;
    }
  }
}
