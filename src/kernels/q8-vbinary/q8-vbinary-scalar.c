/* q8 elementwise, portable C: one element at a time, same arithmetic as the vector variants. */
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/quant_util.h"

#include <math.h>

static inline int32_t load(const void *p, size_t i, bool s) {
  return s ? (int32_t)((const int8_t *)p)[i] : (int32_t)((const uint8_t *)p)[i];
}

static inline void store(void *p, size_t i, int32_t v, bool s) {
  if (s) ((int8_t *)p)[i] = (int8_t)v;
  else ((uint8_t *)p)[i] = (uint8_t)v;
}

/* Arithmetic shift right (floor) without relying on signed >>. */
static inline int32_t asr(int32_t v, int s) {
  return v >= 0 ? (int32_t)((uint32_t)v >> s) : (int32_t)~(~(uint32_t)v >> s);
}

static inline int32_t fixed_term(int32_t v, int32_t ls, int32_t qm, int32_t rs) {
  return tfcc_rdbpot(tfcc_srdhm((int32_t)((uint32_t)v << ls), qm), rs);
}

static inline int32_t elem(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  int32_t r;
  switch (p->op) {
    case TFCC_Q8VB_ADD_XNN:
      r = asr((int32_t)((uint32_t)p->bias + (uint32_t)a * (uint32_t)p->a_mult +
                        (uint32_t)b * (uint32_t)p->b_mult),
              p->shift) + p->out_zp;
      break;
    case TFCC_Q8VB_ADD_FIXED: {
      const int32_t s = fixed_term(a + p->a_off, p->left_shift, p->a_qm, p->a_rs) +
                        fixed_term(b + p->b_off, p->left_shift, p->b_qm, p->b_rs);
      r = tfcc_rdbpot(tfcc_srdhm(s, p->out_qm), p->out_rs) + p->out_zp;
      break;
    }
    case TFCC_Q8VB_MUL_XNN: {
      float f = (float)((a + p->a_off) * (b + p->b_off)) * p->scale;
      const float lo = (float)(p->qmin - p->out_zp), hi = (float)(p->qmax - p->out_zp);
      f = f < lo ? lo : f;
      f = f > hi ? hi : f;
      return (int32_t)lrintf(f) + p->out_zp;
    }
    default: /* MUL_FIXED */
      r = fixed_term((a + p->a_off) * (b + p->b_off), p->out_ls, p->out_qm, p->out_rs) + p->out_zp;
      break;
  }
  return r < p->qmin ? p->qmin : (r > p->qmax ? p->qmax : r);
}

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_scalar) {
  const tfcc_q8_vbinary_params *p = params;
  const bool s = p->is_signed;
  for (size_t i = 0; i < n; i++)
    store(out, i, elem(p, load(a, a_step ? i : 0, s), load(b, b_step ? i : 0, s)), s);
}
