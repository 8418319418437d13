/* Float32 softmax rows written once over the f32v primitives (kernels/simd/f32v.h); each ISA's
 * file includes its primitives header, defines TFCC_F32_SOFTMAX_FN and TFCC_F32_SOFTMAX_EXPF
 * (the kernels/tflite-f32 expf of its instruction set) and includes this body. The reference's
 * bits (tfcc_softmax_f32; the same bits at every ISA cap): per row the maximum from
 * -FLT_MAX (f32v_max: a NaN never wins, as the reference's compare; the sign of a zero maximum
 * cannot show after the subtraction and the exp), z = (x - max) * beta rounded apart, e = expf(z)
 * with the C library's bits, the sum in element order from 0 (SM_ROWS rows side by side, one
 * dependency chain each), then every e times 1 / sum. */
#include <float.h>

#include "kernels/softmax/softmax.h"
#include "kernels/tflite-f32/tflite_f32.h"

#define SM_ROWS 4

/* out = (in - max) * beta of one row, its maximum taken as the reference takes it */
static inline void sm_shift(const float *in, float *out, size_t depth, float beta) {
  f32v m = f32v_set(-FLT_MAX);
  size_t c = 0;
  for (; c + F32V_N <= depth; c += F32V_N) m = f32v_max(f32v_ld(in + c), m);
  float max = f32v_hmax(m);
  for (size_t j = c; j < depth; j++) max = in[j] > max ? in[j] : max;
  const f32v vmax = f32v_set(max), vbeta = f32v_set(beta);
  for (c = 0; c + F32V_N <= depth; c += F32V_N)
    f32v_st(out + c, f32v_mul(f32v_sub(f32v_ld(in + c), vmax), vbeta));
  if (c < depth)
    f32v_st_n(out + c, f32v_mul(f32v_sub(f32v_ld_n(in + c, depth - c), vmax), vbeta), depth - c);
}

static inline void sm_scale(float *out, size_t depth, float sum) {
  const f32v inv = f32v_set(1.f / sum);
  size_t c = 0;
  for (; c + F32V_N <= depth; c += F32V_N) f32v_st(out + c, f32v_mul(f32v_ld(out + c), inv));
  if (c < depth) f32v_st_n(out + c, f32v_mul(f32v_ld_n(out + c, depth - c), inv), depth - c);
}

TFCC_F32_SOFTMAX_DECL(TFCC_F32_SOFTMAX_FN) {
  for (size_t r0 = 0; r0 < rows; r0 += SM_ROWS) {
    const size_t nr = rows - r0 < SM_ROWS ? rows - r0 : SM_ROWS;
    float *y = out + r0 * depth;
    for (size_t r = 0; r < nr; r++) {
      sm_shift(in + (r0 + r) * depth, y + r * depth, depth, beta);
      TFCC_F32_SOFTMAX_EXPF(y + r * depth, y + r * depth, depth);
    }
    float s[SM_ROWS] = {0.f, 0.f, 0.f, 0.f};
    if (nr == SM_ROWS) {
      const float *y1 = y + depth, *y2 = y1 + depth, *y3 = y2 + depth;
      for (size_t c = 0; c < depth; c++) {
        s[0] = s[0] + y[c];
        s[1] = s[1] + y1[c];
        s[2] = s[2] + y2[c];
        s[3] = s[3] + y3[c];
      }
    } else {
      for (size_t r = 0; r < nr; r++)
        for (size_t c = 0; c < depth; c++) s[r] = s[r] + y[r * depth + c];
    }
    for (size_t r = 0; r < nr; r++) sm_scale(y + r * depth, depth, s[r]);
  }
}
