/* Portable body of the sum kernels, included by the per-ISA files that let the compiler
 * vectorise it for their instruction set (define TFCC_RSUM_ISA first: the name suffix).
 * Inner positions go in blocks held in local arrays the compiler keeps in vector registers;
 * with no inner axis (I == 1) the float sum stays sequential (the reference's order) and the
 * integer sum is a vectorised reduction. */
#include <stddef.h>
#include <stdint.h>

#include "kernels/reduce/reduce.h"

#define RSUM_CAT2(a, b) a##b
#define RSUM_CAT(a, b) RSUM_CAT2(a, b)
#define RSUM_CB 64

void RSUM_CAT(tfcc_rsum_f32_, TFCC_RSUM_ISA)(const float *restrict in, size_t O, size_t R,
                                             size_t I, float *restrict out) {
  for (size_t o = 0; o < O; o++) {
    const float *restrict x = in + o * R * I;
    float *restrict y = out + o * I;
    size_t i = 0;
    for (; i + RSUM_CB <= I; i += RSUM_CB) {
      float acc[RSUM_CB];
      for (int k = 0; k < RSUM_CB; k++) acc[k] = 0.f;
      for (size_t r = 0; r < R; r++) {
        const float *restrict v = x + r * I + i;
        for (int k = 0; k < RSUM_CB; k++) acc[k] += v[k];
      }
      for (int k = 0; k < RSUM_CB; k++) y[i + k] = acc[k];
    }
    for (; i < I; i++) {
      float acc = 0.f;
      for (size_t r = 0; r < R; r++) acc += x[r * I + i];
      y[i] = acc;
    }
  }
}

#define RSUM_Q_LOOP(T)                                                                   \
  do {                                                                                   \
    for (size_t o = 0; o < O; o++) {                                                     \
      const T *restrict x = (const T *)in + o * R * I;                                   \
      int32_t *restrict y = acc + o * I;                                                 \
      if (I == 1) {                                                                      \
        uint32_t s = 0;                                                                  \
        for (size_t r = 0; r < R; r++) s += (uint32_t)(int32_t)x[r];                     \
        y[0] = (int32_t)s;                                                               \
        continue;                                                                        \
      }                                                                                  \
      size_t i = 0;                                                                      \
      for (; i + RSUM_CB <= I; i += RSUM_CB) {                                           \
        uint32_t a[RSUM_CB];                                                             \
        for (int k = 0; k < RSUM_CB; k++) a[k] = 0;                                      \
        for (size_t r = 0; r < R; r++) {                                                 \
          const T *restrict v = x + r * I + i;                                           \
          for (int k = 0; k < RSUM_CB; k++) a[k] += (uint32_t)(int32_t)v[k];             \
        }                                                                                \
        for (int k = 0; k < RSUM_CB; k++) y[i + k] = (int32_t)a[k];                      \
      }                                                                                  \
      for (; i < I; i++) {                                                               \
        uint32_t s = 0;                                                                  \
        for (size_t r = 0; r < R; r++) s += (uint32_t)(int32_t)x[r * I + i];             \
        y[i] = (int32_t)s;                                                               \
      }                                                                                  \
    }                                                                                    \
  } while (0)

void RSUM_CAT(tfcc_rsum_q_, TFCC_RSUM_ISA)(tfcc_dtype dt, const void *restrict in, size_t O,
                                           size_t R, size_t I, int32_t *restrict acc) {
  if (dt == TFCC_UINT8) RSUM_Q_LOOP(uint8_t);
  else if (dt == TFCC_INT8) RSUM_Q_LOOP(int8_t);
  else RSUM_Q_LOOP(int16_t);
}
