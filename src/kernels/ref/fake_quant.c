/* FAKE_QUANT (see fake_quant.h). */
#include "kernels/ref/fake_quant.h"

#include <math.h>

void tfcc_ref_fake_quant_f32(const float *in, int64_t n, float min, float max, int32_t quant_min,
                             int32_t quant_max, float *out) {
  const float qmin = (float)quant_min, qmax = (float)quant_max;
  const float scale = (max - min) / (qmax - qmin);
  const float zp_from_min = qmin - min / scale;
  uint16_t zp;
  if (zp_from_min < qmin)
    zp = (uint16_t)quant_min;
  else if (zp_from_min > qmax)
    zp = (uint16_t)quant_max;
  else
    zp = (uint16_t)roundf(zp_from_min);
  const float nmin = (qmin - zp) * scale, nmax = (qmax - zp) * scale;
  const float inv = 1.0f / scale;
  for (int64_t i = 0; i < n; i++) {
    const float lo = in[i] > nmin ? in[i] : nmin; /* std::max(nudged_min, x) */
    const float c = nmax < lo ? nmax : lo;        /* std::min(nudged_max, .) */
    out[i] = roundf((c - nmin) * inv) * scale + nmin;
  }
}
