/* q8 elementwise, AVX-512 + VNNI: ADD / SUB in XNNPACK arithmetic as the AVX-512 variant's
 * 64-wide word-pair path, with the bias and both inputs' products accumulated by two VPDPWSSD
 * (no separate adds); everything else (other operations, larger multipliers, tails, both
 * operands constant) is the AVX-512 variant. */
#include <immintrin.h>

#include "kernels/q8-vbinary/vbinary.h"

#define TFCC_XNN_PAIR_DOT(acc, pairs, m) _mm512_dpwssd_epi32((acc), (pairs), (m))
#include "kernels/q8-vbinary/xnn_pairs_avx512.h"

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx512vnni) {
  const tfcc_q8_vbinary_params *p = params;
  const size_t done = p->op == TFCC_Q8VB_ADD_XNN && p->xnn_pairs
                          ? add_xnn_pairs(p, a, b, out, n, a_step, b_step)
                          : 0;
  if (done < n)
    tfcc_q8_vbinary_avx512(params, (const int8_t *)a + (a_step ? done : 0),
                           (const int8_t *)b + (b_step ? done : 0), (int8_t *)out + done, n - done,
                           a_step, b_step);
}
