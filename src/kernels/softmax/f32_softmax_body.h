/* Float32 softmax row written once over the f32v primitives (kernels/simd/f32v.h); each ISA's
 * file includes its primitives header, defines TFCC_F32_SOFTMAX_FN and includes this body.
 * The maximum (NaN never wins: f32v_max keeps its second operand), e = e^((x - max) * beta)
 * in four vector partial sums, then times 1 / sum (softmax.h). */
#include <float.h>

#include "kernels/simd/f32v_exp.h"
#include "kernels/softmax/softmax.h"

static inline f32v sm_exp(const float *x, f32v vmax, f32v vbeta) {
  return f32v_exp_neg(f32v_mul(f32v_sub(f32v_ld(x), vmax), vbeta));
}

TFCC_F32_SOFTMAX_DECL(TFCC_F32_SOFTMAX_FN) {
  f32v m = f32v_set(-FLT_MAX);
  size_t c = 0;
  for (; c + F32V_N <= depth; c += F32V_N) m = f32v_max(f32v_ld(in + c), m);
  float max = f32v_hmax(m);
  for (size_t j = c; j < depth; j++) max = in[j] > max ? in[j] : max;
  const f32v vmax = f32v_set(max), vbeta = f32v_set(beta);
  f32v s0 = f32v_zero(), s1 = s0, s2 = s0, s3 = s0;
  c = 0;
  for (; c + 4 * F32V_N <= depth; c += 4 * F32V_N) {
    const f32v e0 = sm_exp(in + c, vmax, vbeta), e1 = sm_exp(in + c + F32V_N, vmax, vbeta);
    const f32v e2 = sm_exp(in + c + 2 * F32V_N, vmax, vbeta);
    const f32v e3 = sm_exp(in + c + 3 * F32V_N, vmax, vbeta);
    f32v_st(out + c, e0);
    f32v_st(out + c + F32V_N, e1);
    f32v_st(out + c + 2 * F32V_N, e2);
    f32v_st(out + c + 3 * F32V_N, e3);
    s0 = f32v_add(s0, e0);
    s1 = f32v_add(s1, e1);
    s2 = f32v_add(s2, e2);
    s3 = f32v_add(s3, e3);
  }
  for (; c + F32V_N <= depth; c += F32V_N) {
    const f32v e = sm_exp(in + c, vmax, vbeta);
    f32v_st(out + c, e);
    s0 = f32v_add(s0, e);
  }
  if (c < depth) { /* the tail's lanes are stored, then read back zero-filled for the sum */
    const size_t k = depth - c;
    f32v_st_n(out + c, f32v_exp_neg(f32v_mul(f32v_sub(f32v_ld_n(in + c, k), vmax), vbeta)), k);
    s1 = f32v_add(s1, f32v_ld_n(out + c, k));
  }
  const float sum = f32v_hsum(f32v_add(f32v_add(s0, s1), f32v_add(s2, s3)));
  const f32v inv = f32v_set(1.f / sum);
  c = 0;
  for (; c + F32V_N <= depth; c += F32V_N) f32v_st(out + c, f32v_mul(f32v_ld(out + c), inv));
  if (c < depth) f32v_st_n(out + c, f32v_mul(f32v_ld_n(out + c, depth - c), inv), depth - c);
}
