/* q16-dot GEMV primitives (gemv_body.h lists them), portable C: 8 int16 as pairs into four
 * int32 lanes. */
#ifndef TFCC_KERNELS_Q16_DOT_Q16D_SCALAR_H
#define TFCC_KERNELS_Q16_DOT_Q16D_SCALAR_H

#include <stdint.h>

typedef struct q16dv {
  int32_t v[4];
} q16dv;
typedef struct q16dx {
  int16_t v[8];
} q16dx;
#define Q16D_N 8

static inline q16dv q16d_zero(void) {
  const q16dv z = {{0, 0, 0, 0}};
  return z;
}
static inline q16dx q16d_ldx(const int16_t *p) {
  q16dx x;
  for (int i = 0; i < 8; i++) x.v[i] = p[i];
  return x;
}
static inline q16dx q16d_ldw(const int8_t *p) {
  q16dx x;
  for (int i = 0; i < 8; i++) x.v[i] = p[i];
  return x;
}
static inline q16dv q16d_madd(q16dv acc, q16dx x, q16dx w) {
  for (int i = 0; i < 4; i++)
    acc.v[i] += (int32_t)x.v[2 * i] * w.v[2 * i] + (int32_t)x.v[2 * i + 1] * w.v[2 * i + 1];
  return acc;
}
static inline int64_t q16d_sum(q16dv v) {
  return (int64_t)v.v[0] + (int64_t)v.v[1] + (int64_t)v.v[2] + (int64_t)v.v[3];
}

#endif
