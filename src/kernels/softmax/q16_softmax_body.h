/* int16 SOFTMAX rows (reference_ops::SoftmaxInt16, kernels/ref/softmax.c) over the i32v
 * primitives (kernels/simd/i32v.h; x86, NEON and SIMD128 builds), I32V_N elements a step: the
 * row's maximum; each exp as MultiplyByQuantizedMultiplier of x - max, recentred and saturated,
 * looked up in the exp table with its interpolation (both table entries of a segment from one
 * 32-bit load at the int16 index); the sum of the exps (int32, wrapping as the reference's);
 * 1 / sum in scalar code; each exp times the reciprocal with the rounding right shift. The
 * product, at most 2^30 in magnitude, and its rounding term (at most 2^29) stay inside int32, so
 * the reference's int64 arithmetic (whose negative branch is a floor) is the lanes' arithmetic
 * shift. Tails run the reference's element functions. The including file first includes its
 * ISA's i32v_<isa>.h and defines ld16(p) (I32V_N int16 at p, widened), st16(p, x) (the lanes,
 * int16 values, stored as I32V_N int16), lut_pair(lut, idx) (per lane the int32 at int16 index
 * idx of lut, i.e. lut[idx] | lut[idx + 1] << 16: a gather; or TFCC_Q16_SOFTMAX_LANE_LUT for the
 * body's lane-by-lane loads) and TFCC_Q16_SOFTMAX_FN. */
#include "kernels/simd/i32v_rdiv.h"
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"

#ifdef TFCC_Q16_SOFTMAX_LANE_LUT
#include <string.h>

static inline i32v lut_pair(const int16_t *lut, i32v idx) {
  int32_t ix[I32V_N], v[I32V_N];
  i32v_st(ix, idx);
  for (int l = 0; l < I32V_N; l++) memcpy(&v[l], lut + ix[l], sizeof v[l]);
  return i32v_ld(v);
}
#endif

/* tfcc_lut16_lookup on lanes holding int16 values */
static inline i32v q16sm_lookup(const int16_t *lut, i32v v) {
  const i32v pair = lut_pair(lut, i32v_add(i32v_srai(v, 7), i32v_set(256)));
  const i32v base = i32v_srai(i32v_slli(pair, 16), 16), next = i32v_srai(pair, 16);
  const i32v off = i32v_and(v, i32v_set(0x7f));
  const i32v delta = i32v_srai(i32v_add(i32v_mullo(i32v_sub(next, base), off), i32v_set(64)), 7);
  return i32v_srai(i32v_slli(i32v_add(base, delta), 16), 16); /* tfcc_fp16_wrap */
}

TFCC_Q16_SOFTMAX_DECL(TFCC_Q16_SOFTMAX_FN) {
  const int ls = p->input_shift > 0 ? p->input_shift : 0;
  const i32v_shc vls = i32v_shc_make(ls);
  const rdiv rd = rdiv_make(p->input_shift > 0 ? 0 : -p->input_shift);
  const i32v qm = i32v_set(p->input_multiplier), lo = i32v_set(-32768), hi = i32v_set(32767);
  int32_t lanes[I32V_N];
  for (size_t r = 0; r < rows; r++, in += depth, out += depth) {
    size_t c = 0;
    i32v vmax = i32v_set(INT16_MIN);
    for (; c + I32V_N <= depth; c += I32V_N) vmax = i32v_max(vmax, ld16(in + c));
    i32v_st(lanes, vmax);
    int32_t m = INT16_MIN;
    for (int l = 0; l < I32V_N; l++) m = lanes[l] > m ? lanes[l] : m;
    for (; c < depth; c++) m = in[c] > m ? in[c] : m;
    const int16_t max_in_row = (int16_t)m;
    const i32v vm = i32v_set(m);
    i32v vsum = i32v_set(0);
    for (c = 0; c + I32V_N <= depth; c += I32V_N) {
      const i32v d = i32v_sll(i32v_sub(ld16(in + c), vm), vls);
      const i32v sym = i32v_add(rdbpot(i32v_srdhm(d, qm), &rd), hi);
      const i32v e = q16sm_lookup(p->exp_lut, i32v_min(i32v_max(sym, lo), hi));
      st16(out + c, e);
      vsum = i32v_add(vsum, e);
    }
    i32v_st(lanes, vsum);
    uint32_t sum = 0;
    for (int l = 0; l < I32V_N; l++) sum += (uint32_t)lanes[l];
    for (size_t t = c; t < depth; t++) {
      out[t] = tfcc_softmax_i16_exp(in[t], max_in_row, p);
      sum += (uint32_t)(int32_t)out[t];
    }
    int16_t recip;
    int rs;
    if (!tfcc_softmax_i16_recip((int32_t)sum, p, &recip, &rs)) {
      for (size_t t = 0; t < depth; t++) out[t] = 0;
      continue;
    }
    const i32v vr = i32v_set(recip), vround = i32v_set(rs > 0 ? 1 << (rs - 1) : 0);
    const i32v_shc vrs = i32v_shc_make(rs);
    for (c = 0; c + I32V_N <= depth; c += I32V_N) {
      const i32v y = i32v_sra(i32v_add(i32v_mullo(ld16(out + c), vr), vround), vrs);
      st16(out + c, i32v_min(i32v_max(y, i32v_set(0)), hi));
    }
    for (; c < depth; c++) out[c] = tfcc_softmax_i16_scale(out[c], recip, rs);
  }
}
