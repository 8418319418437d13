/* Portable body of the sum kernels, included by the per-ISA files that let the compiler
 * vectorise it for their instruction set (define TFCC_RSUM_ISA first: the name suffix).
 * Inner positions go in blocks held in local arrays the compiler keeps in vector registers;
 * with no inner axis (I == 1) the float sum stays sequential (the reference's order) and the
 * integer sum is a vectorised reduction. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/reduce/reduce.h"
#include "kernels/tflite-f32/tflite_f32.h"

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

/* XNNPACK-order float MEAN over rows (reduce.h tfcc_rsum_xnn_mean_f32_fn). The 16 lanes of one
 * row's accumulators live in one 64-byte vector (lanes 4v..4v+3: accumulator v), which the
 * compiler lowers to the ISA's registers; four rows run side by side (independent chains). */
typedef float RSUM_CAT(rsx16_, TFCC_RSUM_ISA) __attribute__((vector_size(64)));
typedef float RSUM_CAT(rsx4_, TFCC_RSUM_ISA) __attribute__((vector_size(16)));
#define RSX16 RSUM_CAT(rsx16_, TFCC_RSUM_ISA)
#define RSX4 RSUM_CAT(rsx4_, TFCC_RSUM_ISA)

/* acc += the 16 floats at p (by pointer: a 64-byte vector is not passed by value, whose ABI
 * differs between ISA levels) */
static inline __attribute__((always_inline)) void RSUM_CAT(rsx_add_,
                                                           TFCC_RSUM_ISA)(RSX16 *acc,
                                                                          const float *p) {
  RSX16 v;
  memcpy(&v, p, sizeof v);
  *acc = *acc + v;
}

/* The end of one row of n after the whole 16-element steps up to i: up to three 4-element
 * groups into accumulators 0, 1, 2 (+0 into the others: exact, a lane that started at +0 is
 * never -0), the fold (acc0 + acc2) + (acc1 + acc3), the lanes (0 + 2) and (1 + 3), a remaining
 * pair added to those two, their sum, a remaining single added last (tfcc_xnn_rsum_end). */
static inline __attribute__((always_inline)) float RSUM_CAT(rsx_finish_,
                                                            TFCC_RSUM_ISA)(const RSX16 *accp,
                                                                           const float *x, size_t i,
                                                                           size_t n) {
  RSX16 acc = *accp;
  const size_t g = (n - i) / 4;
  if (g) {
    RSX16 t = {0};
    memcpy(&t, x + i, g * 4 * sizeof(float));
    acc = acc + t;
    i += g * 4;
  }
  RSX4 q[4];
  memcpy(q, &acc, sizeof q);
  const RSX4 lo = q[0] + q[2], hi = q[1] + q[3];
  const RSX4 v = lo + hi;
  const float a[4] = {v[0], v[1], v[2], v[3]};
  return tfcc_xnn_rsum_end(a, x, i, n);
}

void RSUM_CAT(tfcc_rsum_xnn_mean_f32_, TFCC_RSUM_ISA)(const float *restrict in, size_t O, size_t R,
                                                      float scale, float *restrict out) {
  size_t o = 0;
  for (; o + 4 <= O; o += 4) {
    const float *x0 = in + o * R, *x1 = x0 + R, *x2 = x1 + R, *x3 = x2 + R;
    RSX16 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
    size_t i = 0;
    for (; i + 16 <= R; i += 16) {
      RSUM_CAT(rsx_add_, TFCC_RSUM_ISA)(&a0, x0 + i);
      RSUM_CAT(rsx_add_, TFCC_RSUM_ISA)(&a1, x1 + i);
      RSUM_CAT(rsx_add_, TFCC_RSUM_ISA)(&a2, x2 + i);
      RSUM_CAT(rsx_add_, TFCC_RSUM_ISA)(&a3, x3 + i);
    }
    out[o] = RSUM_CAT(rsx_finish_, TFCC_RSUM_ISA)(&a0, x0, i, R) * scale;
    out[o + 1] = RSUM_CAT(rsx_finish_, TFCC_RSUM_ISA)(&a1, x1, i, R) * scale;
    out[o + 2] = RSUM_CAT(rsx_finish_, TFCC_RSUM_ISA)(&a2, x2, i, R) * scale;
    out[o + 3] = RSUM_CAT(rsx_finish_, TFCC_RSUM_ISA)(&a3, x3, i, R) * scale;
  }
  for (; o < O; o++) {
    const float *x = in + o * R;
    RSX16 a = {0};
    size_t i = 0;
    for (; i + 16 <= R; i += 16) RSUM_CAT(rsx_add_, TFCC_RSUM_ISA)(&a, x + i);
    out[o] = RSUM_CAT(rsx_finish_, TFCC_RSUM_ISA)(&a, x, i, R) * scale;
  }
}
