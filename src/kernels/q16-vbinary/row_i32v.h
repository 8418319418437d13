/* The int16 ADD and MUL rows over the i32v primitives (kernels/simd/i32v.h) and q8-vbinary's
 * ADD_FIXED / MUL_FIXED lane arithmetic (kernels/q8-vbinary/vbinary_i32v.h): the including file
 * first includes its ISA's i32v_<isa>.h and defines ld16(p) (I32V_N int16 at p, widened) and
 * st16(p, x) (the lanes, int16 values, stored as I32V_N int16), then TFCC_Q16_VBINARY_FN. */
#include <string.h>

#include "kernels/q16-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary_i32v.h"

/* One row loop per operation so that each keeps its constants in registers. */
#define Q16VB_ROW(name, op) \
  static void name(const vparams *v, const int16_t *pa, const int16_t *pb, int16_t *po, size_t n, \
                   int a_step, int b_step) { \
    const i32v ca = i32v_set(pa[0]), cb = i32v_set(pb[0]); \
    size_t i = 0; \
    for (; i + I32V_N <= n; i += I32V_N) { \
      const i32v va = a_step ? ld16(pa + i) : ca; \
      const i32v vb = b_step ? ld16(pb + i) : cb; \
      st16(po + i, op(v, va, vb)); \
    } \
    if (i < n) { \
      int16_t ta[I32V_N] = {0}, tb[I32V_N] = {0}, to[I32V_N]; \
      if (a_step) memcpy(ta, pa + i, (n - i) * sizeof(int16_t)); \
      if (b_step) memcpy(tb, pb + i, (n - i) * sizeof(int16_t)); \
      const i32v va = a_step ? ld16(ta) : ca; \
      const i32v vb = b_step ? ld16(tb) : cb; \
      st16(to, op(v, va, vb)); \
      memcpy(po + i, to, (n - i) * sizeof(int16_t)); \
    } \
  }
Q16VB_ROW(row_add16, add_fixed)
Q16VB_ROW(row_mul16, mul_fixed)

TFCC_Q16_VBINARY_DECL(TFCC_Q16_VBINARY_FN) {
  if (n == 0) return;
  vparams v;
  vparams_make(&v, params);
  if (((const tfcc_q8_vbinary_params *)params)->op == TFCC_Q8VB_MUL_FIXED)
    row_mul16(&v, a, b, out, n, a_step, b_step);
  else
    row_add16(&v, a, b, out, n, a_step, b_step);
}
