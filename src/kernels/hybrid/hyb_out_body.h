/* Portable body of the hybrid output stage (hyb_out.h), included by the per-ISA files with
 * TFCC_HO_ISA (name suffix) defined so that the compiler vectorises the loops for that
 * instruction set. One pass per element; every product and sum is its own statement (no
 * contraction into a fused multiply-add, even where the file is built with FMA enabled). */
#include <stddef.h>
#include <stdint.h>

#include "kernels/hybrid/hyb_out.h"

#define HO_CAT2(a, b) a##b
#define HO_CAT(a, b) HO_CAT2(a, b)

#define HO_LOOP(SCALE, BIAS)                                                 \
  for (size_t j = 0; j < nc; j++) {                                          \
    const float t = (float)(int32_t)((uint32_t)acc[j] - zp * (uint32_t)ws[j]); \
    float v = SCALE;                                                         \
    BIAS;                                                                    \
    v = v < lo ? lo : v;                                                     \
    v = v > hi ? hi : v;                                                     \
    out[j] = v;                                                              \
  }

void HO_CAT(tfcc_hyb_out_row_, TFCC_HO_ISA)(const tfcc_q8_hybrid *h, const int32_t *restrict acc,
                                           size_t n0, size_t nc, uint32_t zp, float s,
                                           float *restrict out) {
  const int32_t *restrict ws = h->wsum + n0;
  const float lo = h->lo, hi = h->hi;
  const float *restrict b = h->bias ? h->bias + n0 : NULL;
  if (h->fscale_stride) {
    const float *restrict fs = h->fscale + n0;
    if (h->combined) {
      if (b) HO_LOOP(t * (s * fs[j]), v = v + b[j])
      else HO_LOOP(t * (s * fs[j]), (void)0)
    } else {
      if (b) HO_LOOP((t * s) * fs[j], v = v + b[j])
      else HO_LOOP((t * s) * fs[j], (void)0)
    }
  } else {
    const float fs = h->fscale[0], m = s * fs;
    if (h->combined) {
      if (b) HO_LOOP(t * m, v = v + b[j])
      else HO_LOOP(t * m, (void)0)
    } else {
      if (b) HO_LOOP((t * s) * fs, v = v + b[j])
      else HO_LOOP((t * s) * fs, (void)0)
    }
  }
}
