/* The int16 ADD and MUL rows in portable C (the scalar, NEON and SIMD128 builds; the compiler
 * may vectorise them): the reference kernel's elements (kernels/ref/arith_quant.c, add_elem and
 * mul_elem) on the parameters of tfcc_q16_vbinary_params_init. Defines TFCC_Q16_VBINARY_FN. */
#include "kernels/q16-vbinary/vbinary.h"
#include "kernels/ref/quant_util.h"

static inline int32_t q16vb_term(int32_t v, int32_t ls, int32_t qm, int32_t rs) {
  return tfcc_rdbpot(tfcc_srdhm((int32_t)((uint32_t)v << ls), qm), rs);
}

/* the output stage: clamp(RDBPOT(SRDHM(s << ls, out_qm), out_rs) + out_zp) */
static inline int32_t q16vb_out(const tfcc_q8_vbinary_params *p, int32_t s, int32_t ls) {
  int32_t r = (int32_t)((uint32_t)q16vb_term(s, ls, p->out_qm, p->out_rs) + (uint32_t)p->out_zp);
  r = r < p->qmin ? p->qmin : r;
  return r > p->qmax ? p->qmax : r;
}

static inline int32_t q16vb_add(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  const int32_t s = (int32_t)((uint32_t)q16vb_term(a, p->left_shift, p->a_qm, p->a_rs) +
                              (uint32_t)q16vb_term(b, p->left_shift, p->b_qm, p->b_rs));
  return q16vb_out(p, s, 0);
}

static inline int32_t q16vb_mul(const tfcc_q8_vbinary_params *p, int32_t a, int32_t b) {
  const uint32_t prod = (uint32_t)(a + p->a_off) * (uint32_t)(b + p->b_off);
  return q16vb_out(p, (int32_t)prod, p->out_ls);
}

TFCC_Q16_VBINARY_DECL(TFCC_Q16_VBINARY_FN) {
  const tfcc_q8_vbinary_params *p = params;
  const int16_t *pa = a, *pb = b;
  int16_t *po = out;
  if (p->op == TFCC_Q8VB_MUL_FIXED) {
    for (size_t i = 0; i < n; i++)
      po[i] = (int16_t)q16vb_mul(p, pa[a_step ? i : 0], pb[b_step ? i : 0]);
    return;
  }
  for (size_t i = 0; i < n; i++)
    po[i] = (int16_t)q16vb_add(p, pa[a_step ? i : 0], pb[b_step ? i : 0]);
}
