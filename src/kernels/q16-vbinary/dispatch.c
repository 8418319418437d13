/* int16 elementwise ADD dispatch table, parameter translation and threaded driver. */
#include "kernels/q16-vbinary/vbinary.h"

#include <string.h>

#include "kernels/bcast_split.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "q16-vbinary", tfcc_q16_vbinary)

static bool rshift_ok(int32_t s) { return s >= 0 && s <= 31; }

bool tfcc_q16_vbinary_params_init(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_arith_q *q,
                                  tfcc_q8_vbinary_params *p) {
  if (dt != TFCC_INT16 || op != TFCC_AQ_ADD) return false;
  memset(p, 0, sizeof *p);
  p->op = TFCC_Q8VB_ADD_FIXED;
  p->is_signed = true;
  if (!(INT16_MIN <= q->act_min && q->act_min <= q->act_max && q->act_max <= INT16_MAX))
    return false;
  p->qmin = q->act_min;
  p->qmax = q->act_max;
  p->out_zp = q->out_offset;
  /* |q| <= 2^15 and left shift <= 15: (q - 0) << left_shift stays inside int32 */
  if (q->in1_offset != 0 || q->in2_offset != 0 || q->left_shift < 0 || q->left_shift > 15)
    return false;
  p->left_shift = q->left_shift;
  p->a_qm = q->in1_mult;
  p->a_rs = -q->in1_shift;
  p->b_qm = q->in2_mult;
  p->b_rs = -q->in2_shift;
  p->out_qm = q->out_mult;
  p->out_rs = -q->out_shift;
  return rshift_ok(p->a_rs) && rshift_ok(p->b_rs) && rshift_ok(p->out_rs) && p->a_qm != INT32_MIN &&
         p->b_qm != INT32_MIN && p->out_qm != INT32_MIN;
}

void tfcc_q16_vbinary_run(struct tfcc_threadpool *pool, const tfcc_q16_vbinary_kernel *k,
                          const tfcc_q8_vbinary_params *p, const tfcc_bcast *bc, const void *a,
                          const void *b, void *out) {
  tfcc_bcast_split_run(pool, bc, sizeof(int16_t), a, b, out, k->fn, p, 32 * 1024);
}
