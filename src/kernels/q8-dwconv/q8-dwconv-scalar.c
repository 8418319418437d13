/* q8 depthwise micro-kernel, portable C (dwconv_body.h, one channel per step): the arithmetic
 * of dwconv.h. */
#include <math.h>

#include "kernels/q8-dwconv/ukernels.h"

#define Q8DW_N 1
typedef uint32_t q8dw_acc; /* wrapping int32 sums */

static inline uint32_t q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                                size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  uint32_t acc = (uint32_t)bias[0];
  for (size_t t = 0; t < ntaps; t++) {
    const int32_t x = is_signed ? (int32_t)(int8_t)taps[t][ch] : (int32_t)taps[t][ch];
    acc += (uint32_t)(x * (int32_t)(int16_t)w[t * c16]);
  }
  return acc;
}

static inline void q8dw_store32(int32_t *c32, uint32_t acc) { c32[0] = (int32_t)acc; }

static inline void q8dw_requant(uint8_t *c, uint32_t acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  float f = (float)(int32_t)acc * scale[0];
  f = f < lo ? lo : f;
  f = f > hi ? hi : f;
  c[0] = (uint8_t)((int32_t)lrintf(f) + zp);
}

#define Q8DW_FN_S tfcc_q8_dw_s_scalar
#define Q8DW_FN_U tfcc_q8_dw_u_scalar
#include "kernels/q8-dwconv/dwconv_body.h"
