/* The int8 output requantization of the quantized BATCH_MATMUL (bmm.h) over the i32v primitives
 * (kernels/simd/i32v.h): per output the int64 sum truncated to int32 (TFLite's int32
 * accumulator wraps), MultiplyByQuantizedMultiplier (left shift, SaturatingRoundingDoublingHighMul,
 * RoundingDivideByPOT: q8-vbinary's lane arithmetic, kernels/q8-vbinary/vbinary_i32v.h), plus
 * the output offset, clamped. The including file first includes its ISA's i32v_<isa>.h and
 * defines ld64(p) (I32V_N int64 at p, each truncated to its low 32 bits) and
 * TFCC_Q16_BMM_REQ8_FN. */
#include <string.h>

#include "kernels/q16-bmm/bmm.h"
#include "kernels/q8-vbinary/vbinary_i32v.h"

TFCC_Q16_BMM_REQ8_DECL(TFCC_Q16_BMM_REQ8_FN) {
  const __m128i vls = _mm_cvtsi32_si128(q->shift > 0 ? q->shift : 0);
  const rdiv rd = rdiv_make(q->shift > 0 ? 0 : -q->shift);
  const i32v qm = i32v_set(q->mult), zo = i32v_set(q->output_offset);
  const i32v lo = i32v_set(q->act_min), hi = i32v_set(q->act_max);
  for (size_t i = 0; i < rows; i++) {
    const int64_t *s = acc + i * acc_stride;
    int8_t *o = out + i * out_stride;
    size_t n = 0;
    for (; n < nc; n += I32V_N) {
      int64_t t[I32V_N];
      const int64_t *src = s + n;
      if (nc - n < I32V_N) { /* the tail: only the row's sums are read */
        memset(t, 0, sizeof t);
        memcpy(t, s + n, (nc - n) * sizeof(int64_t));
        src = t;
      }
      const i32v x = i32v_srdhm(i32v_sll(ld64(src), vls), qm);
      const i32v y = i32v_min(i32v_max(i32v_add(rdbpot(x, &rd), zo), lo), hi);
      if (nc - n < I32V_N)
        i32v_st_i8_n(o + n, y, nc - n, true);
      else
        i32v_st_i8(o + n, y, true);
    }
  }
}
