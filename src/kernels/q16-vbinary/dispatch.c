/* int16 elementwise ADD dispatch table, parameter translation and threaded driver. */
#include "kernels/q16-vbinary/vbinary.h"

#include <string.h>

#include "kernels/bcast_split.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "q16-vbinary", tfcc_q16_vbinary)

bool tfcc_q16_vbinary_params_init(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_arith_q *q,
                                  tfcc_q8_vbinary_params *p) {
  if (dt != TFCC_INT16 || (op != TFCC_AQ_ADD && op != TFCC_AQ_MUL)) return false;
  memset(p, 0, sizeof *p);
  p->is_signed = true;
  if (!(INT16_MIN <= q->act_min && q->act_min <= q->act_max && q->act_max <= INT16_MAX))
    return false;
  p->qmin = q->act_min;
  p->qmax = q->act_max;
  p->out_zp = q->out_offset;
  if (op == TFCC_AQ_MUL) {
    /* mul_elem: every step wraps in 32 bits in the reference as in the lanes (the product, the
     * left shift), so any offsets of int16 zero points and any shift in [-31, 31] are exact */
    p->op = TFCC_Q8VB_MUL_FIXED;
    p->a_off = q->in1_offset;
    p->b_off = q->in2_offset;
    p->out_qm = q->out_mult;
    p->out_ls = q->out_shift > 0 ? q->out_shift : 0;
    p->out_rs = q->out_shift > 0 ? 0 : -q->out_shift;
    return q->in1_offset >= -INT16_MAX && q->in1_offset <= -INT16_MIN &&
           q->in2_offset >= -INT16_MAX && q->in2_offset <= -INT16_MIN && p->out_ls <= 31 &&
           p->out_rs <= 31 && p->out_qm != INT32_MIN;
  }
  /* |q| <= 2^15 and left shift <= 15: (q - 0) << left_shift stays inside int32 */
  return q->in1_offset == 0 && q->in2_offset == 0 && tfcc_q8_vbinary_add_fixed_scales(q, 15, p);
}

void tfcc_q16_vbinary_run(struct tfcc_threadpool *pool, const tfcc_q16_vbinary_kernel *k,
                          const tfcc_q8_vbinary_params *p, const tfcc_bcast *bc, const void *a,
                          const void *b, void *out) {
  tfcc_bcast_split_run(pool, bc, sizeof(int16_t), a, b, out, k->fn, p, 32 * 1024);
}
