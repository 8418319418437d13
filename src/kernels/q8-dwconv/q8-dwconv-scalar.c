/* q8 depthwise micro-kernel, portable C (the arithmetic of dwconv.h). */
#include <math.h>

#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-dwconv/ukernels.h"

static inline void pixel(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                         const tfcc_q8_out *o, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  for (size_t ch = 0; ch < c; ch++) {
    uint32_t acc = (uint32_t)pw[ch];
    for (size_t t = 0; t < ntaps; t++) {
      const int32_t x = is_signed ? (int32_t)(int8_t)taps[t][ch] : (int32_t)taps[t][ch];
      acc += (uint32_t)(x * (int32_t)(int16_t)w[t * c16 + ch]);
    }
    if (o->c32) {
      o->c32[ch] = (int32_t)acc;
      continue;
    }
    float f = (float)(int32_t)acc * scale[ch];
    f = f < o->lo ? o->lo : f;
    f = f > o->hi ? o->hi : f;
    o->c[ch] = (uint8_t)((int32_t)lrintf(f) + o->zp);
  }
}

TFCC_Q8_DW_DECL(tfcc_q8_dw_s_scalar) { pixel(c, ntaps, taps, pw, o, true); }
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_scalar) { pixel(c, ntaps, taps, pw, o, false); }
