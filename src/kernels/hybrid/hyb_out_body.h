/* Portable body of the hybrid output stage (hyb_out.h), included by the per-ISA files with
 * TFCC_HO_ISA (name suffix) defined so that the compiler vectorises the loops for that
 * instruction set. One pass per element; every product and sum is its own statement (no
 * contraction into a fused multiply-add, even where the file is built with FMA enabled). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Smallest and largest of x[0..n) (n >= 1), exact in any order: 4 vectors of HO_W floats. */
typedef float ho_v __attribute__((vector_size(HO_W * 4)));
typedef int32_t ho_i __attribute__((vector_size(HO_W * 4)));

void HO_CAT(tfcc_hyb_minmax_, TFCC_HO_ISA)(const float *x, size_t n, float *lo, float *hi) {
  float ra = x[0], rb = x[0];
  size_t i = 0;
  if (n >= 4 * HO_W) {
    ho_v a[4], b[4];
    memcpy(a, x, sizeof a);
    memcpy(b, x, sizeof b);
    for (i = 4 * HO_W; i + 4 * HO_W <= n; i += 4 * HO_W) {
      ho_v v[4];
      memcpy(v, x + i, sizeof v);
      for (int k = 0; k < 4; k++) {
        const ho_i lt = v[k] < a[k], gt = v[k] > b[k];
        a[k] = (ho_v)((lt & (ho_i)v[k]) | (~lt & (ho_i)a[k]));
        b[k] = (ho_v)((gt & (ho_i)v[k]) | (~gt & (ho_i)b[k]));
      }
    }
    for (int k = 0; k < 4; k++)
      for (int j = 0; j < HO_W; j++) {
        ra = a[k][j] < ra ? a[k][j] : ra;
        rb = b[k][j] > rb ? b[k][j] : rb;
      }
  }
  for (; i < n; i++) {
    ra = x[i] < ra ? x[i] : ra;
    rb = x[i] > rb ? x[i] : rb;
  }
  *lo = ra;
  *hi = rb;
}
