/* q16-gemm vector primitives (gemm_body.h lists them), portable C: four int32 lanes in a
 * struct (no assumption on byte order: a pair is kept as its two values). */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_SCALAR_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_SCALAR_H

#include <stdint.h>

typedef struct q16v {
  int32_t v[4];
} q16v;
typedef struct q16x {
  int32_t lo, hi;
} q16x;
typedef const int16_t *q16w;
#define Q16V_N 4

static inline q16v q16v_zero(void) {
  const q16v z = {{0, 0, 0, 0}};
  return z;
}
static inline q16w q16v_ldw(const int16_t *p) { return p; }
static inline q16x q16x_pair(const int16_t *p) {
  const q16x x = {p[0], p[1]};
  return x;
}
static inline q16x q16x_one(const int16_t *p) {
  const q16x x = {p[0], 0};
  return x;
}
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
  for (int i = 0; i < 4; i++) acc.v[i] += x.lo * w[2 * i] + x.hi * w[2 * i + 1];
  return acc;
}
static inline void q16v_st(int32_t *p, q16v v) {
  for (int i = 0; i < 4; i++) p[i] = v.v[i];
}
static inline q16v q16v_ld32(const int32_t *p) {
  const q16v v = {{p[0], p[1], p[2], p[3]}};
  return v;
}
static inline void q16v_st16(int16_t *p, q16v v, int n) {
  for (int i = 0; i < n; i++) p[i] = (int16_t)v.v[i];
}
/* the requantization lane by lane */
#define Q16V_RQ_LANES 1

#endif
