/* q8 elementwise, AVX2: 8 elements per step widened to int32 lanes; 64-bit products for the
 * Q0.31 multipliers (even and odd lanes); tails through an 8-byte buffer. */
#include <immintrin.h>

#include "kernels/simd/i32v_avx2.h"
#include "kernels/q8-vbinary/vbinary_i32v.h"

TFCC_Q8VB_ROW(row_add_xnn, add_xnn)
TFCC_Q8VB_ROW(row_add_fixed, add_fixed)
TFCC_Q8VB_ROW(row_mul_xnn, mul_xnn)
TFCC_Q8VB_ROW(row_mul_fixed, mul_fixed)

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx2) {
  const tfcc_q8_vbinary_params *p = params;
  vparams v;
  vparams_make(&v, p);
  switch (p->op) {
    case TFCC_Q8VB_ADD_XNN: row_add_xnn(&v, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_ADD_FIXED: row_add_fixed(&v, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_MUL_XNN: row_mul_xnn(&v, a, b, out, n, a_step, b_step); break;
    default: row_mul_fixed(&v, a, b, out, n, a_step, b_step); break;
  }
}
