/* e^z for z <= 0 (or NaN) on f32v vectors, for the activation and softmax bodies. Include after
 * an ISA's primitives header (f32v.h). n = round(z log2 e), r = z - n ln2 (ln2 in two parts),
 * Cephes' degree-7 expf polynomial, times 2^n. z < -87 gives 0 (the result would be below
 * 2^-125); NaN stays NaN. */
#ifndef TFCC_KERNELS_SIMD_F32V_EXP_H
#define TFCC_KERNELS_SIMD_F32V_EXP_H

static inline f32v f32v_exp_neg(f32v z) {
  const f32v zc = f32v_max(f32v_set(-87.5f), z);
  const f32v n = f32v_round(f32v_mul(zc, f32v_set(1.44269504088896341f)));
  f32v r = f32v_fnma(n, f32v_set(0.693359375f), zc);
  r = f32v_fnma(n, f32v_set(-2.12194440e-4f), r);
  f32v p = f32v_set(1.9875691500e-4f);
  p = f32v_fma(p, r, f32v_set(1.3981999507e-3f));
  p = f32v_fma(p, r, f32v_set(8.3334519073e-3f));
  p = f32v_fma(p, r, f32v_set(4.1665795894e-2f));
  p = f32v_fma(p, r, f32v_set(1.6666665459e-1f));
  p = f32v_fma(p, r, f32v_set(5.0000001201e-1f));
  p = f32v_fma(p, f32v_mul(r, r), f32v_add(r, f32v_set(1.0f)));
  const f32v res = f32v_mul(p, f32v_exp2i(n));
  return f32v_sel(f32v_lt(z, f32v_set(-87.0f)), f32v_zero(), res);
}

#endif
