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

/* One block of CB inner positions at offset i: sums over r in order, from 0. */
#define RSUM_BLOCK(CB, T, ACC, CONV, STORE) \
  do { \
    ACC a_[CB]; \
    for (int k = 0; k < (CB); k++) a_[k] = 0; \
    for (size_t r = 0; r < R; r++) { \
      const T *restrict v_ = x + r * I + i; \
      for (int k = 0; k < (CB); k++) a_[k] += CONV(v_[k]); \
    } \
    for (int k = 0; k < (CB); k++) y[i + k] = STORE(a_[k]); \
  } while (0)

/* Wide blocks, then 16 and 8, then single positions. */
#define RSUM_INNER(T, ACC, CONV, STORE) \
  do { \
    size_t i = 0; \
    for (; i + RSUM_CB <= I; i += RSUM_CB) RSUM_BLOCK(RSUM_CB, T, ACC, CONV, STORE); \
    if (i + 16 <= I) { \
      RSUM_BLOCK(16, T, ACC, CONV, STORE); \
      i += 16; \
    } \
    if (i + 8 <= I) { \
      RSUM_BLOCK(8, T, ACC, CONV, STORE); \
      i += 8; \
    } \
    for (; i < I; i++) RSUM_BLOCK(1, T, ACC, CONV, STORE); \
  } while (0)

#define RSUM_F(v) (v)
#define RSUM_Q(v) ((uint32_t)(int32_t)(v))
#define RSUM_STORE_Q(a) ((int32_t)(a))

void RSUM_CAT(tfcc_rsum_f32_, TFCC_RSUM_ISA)(const float *restrict in, size_t O, size_t R, size_t I,
                                             float *restrict out) {
  for (size_t o = 0; o < O; o++) {
    const float *restrict x = in + o * R * I;
    float *restrict y = out + o * I;
    RSUM_INNER(float, float, RSUM_F, RSUM_F);
  }
}

#define RSUM_Q_LOOP(T) \
  do { \
    for (size_t o = 0; o < O; o++) { \
      const T *restrict x = (const T *)in + o * R * I; \
      int32_t *restrict y = acc + o * I; \
      if (I == 1) { \
        uint32_t s = 0; \
        for (size_t r = 0; r < R; r++) s += (uint32_t)(int32_t)x[r]; \
        y[0] = (int32_t)s; \
        continue; \
      } \
      RSUM_INNER(T, uint32_t, RSUM_Q, RSUM_STORE_Q); \
    } \
  } while (0)

void RSUM_CAT(tfcc_rsum_q_, TFCC_RSUM_ISA)(tfcc_dtype dt, const void *restrict in, size_t O,
                                           size_t R, size_t I, int32_t *restrict acc) {
  if (dt == TFCC_UINT8)
    RSUM_Q_LOOP(uint8_t);
  else if (dt == TFCC_INT8)
    RSUM_Q_LOOP(int8_t);
  else
    RSUM_Q_LOOP(int16_t);
}
