/* Portable body of the quantize kernels, included by the per-ISA files that let the compiler
 * vectorise it for their instruction set (define TFCC_QZ_ISA first: the name suffix). The
 * arithmetic is described in quantize.h; every loop is element-wise and branch-free. */
#include <stddef.h>
#include <stdint.h>

#include "kernels/quantize/quantize.h"
#include "kernels/ref/q_store.h"

#define QZ_CAT2(a, b) a##b
#define QZ_CAT(a, b) QZ_CAT2(a, b)

/* XNNPACK f32 -> q8 for element type T. */
#define QZ_XNN_LOOP(T) \
  do { \
    T *restrict o = (T *)out; \
    for (size_t i = 0; i < n; i++) { \
      float f = in[i] * inv_scale; \
      f = f >= flo ? f : flo; \
      f = f <= fhi ? f : fhi; \
      const float r = (f + 12582912.0f) - 12582912.0f; \
      o[i] = (T)((int32_t)r + zp); \
    } \
  } while (0)

/* QZ_XNN_HEAD: the ISA file defines the function's vector part (QZ_XNN_HEAD(T) runs the
 * leading elements and leaves i, the rest for the loop below). */
void QZ_CAT(tfcc_qz_xnn_, TFCC_QZ_ISA)(const float *restrict in, void *restrict out, size_t n,
                                       float inv_scale, int32_t zp, tfcc_dtype ot) {
  const int32_t qmin = ot == TFCC_UINT8 ? 0 : -128, qmax = ot == TFCC_UINT8 ? 255 : 127;
  const float flo = (float)(qmin - zp), fhi = (float)(qmax - zp);
  size_t i0 = 0;
#ifdef QZ_XNN_HEAD
  i0 = QZ_XNN_HEAD(in, out, n, inv_scale, zp, flo, fhi, ot == TFCC_UINT8);
#endif
  in += i0;
  out = (uint8_t *)out + i0;
  n -= i0;
  if (ot == TFCC_UINT8)
    QZ_XNN_LOOP(uint8_t);
  else
    QZ_XNN_LOOP(int8_t);
}

/* TFLite builtin f32 -> q for element type T. */
/* M(T) for the quantized type t: uint8, int8, else int16. */
#define QZ_Q_TYPES(t, M) \
  do { \
    if ((t) == TFCC_UINT8) \
      M(uint8_t); \
    else if ((t) == TFCC_INT8) \
      M(int8_t); \
    else \
      M(int16_t); \
  } while (0)

/* TFLite builtin f32 -> q of element type T, in double throughout (a loop the compiler
 * vectorises): v clamped to [rlo - 1, rhi + 1], its truncation t (= (double)(int32_t)v there),
 * the rounding t + 1 or t - 1 (exact), clamped to [rlo, rhi], one conversion to int32, + zp.
 * Not inlined, and the rounding's two terms apart: else GCC 12 keeps branches in the loop
 * (scalar). */
#define QZ_REF_FN(T) \
  static __attribute__((noinline)) void QZ_CAT(qz_ref_, T)( \
      const float *restrict in, T *restrict o, size_t n, double dscale, double vlo, double vhi, \
      double dlo, double dhi, int32_t zp) { \
    for (size_t i = 0; i < n; i++) { \
      double v = (double)in[i] / dscale; \
      v = v == v ? v : 0.0; \
      v = v < vlo ? vlo : v; \
      v = v > vhi ? vhi : v; \
      const double t = (double)(int32_t)v; \
      const double d = v - t; \
      const double up = d >= 0.5 ? 1.0 : 0.0, down = d <= -0.5 ? 1.0 : 0.0; \
      double r = t + up - down; \
      r = r < dlo ? dlo : r; \
      r = r > dhi ? dhi : r; \
      o[i] = (T)((int32_t)r + zp); \
    } \
  }
QZ_REF_FN(uint8_t)
QZ_REF_FN(int8_t)
QZ_REF_FN(int16_t)

#define QZ_REF_LOOP(T) QZ_CAT(qz_ref_, T)(in, (T *)out, n, dscale, vlo, vhi, dlo, dhi, zp)

void QZ_CAT(tfcc_qz_ref_, TFCC_QZ_ISA)(const float *restrict in, void *restrict out, size_t n,
                                       float scale, int32_t zp, tfcc_dtype ot) {
  int32_t qmin, qmax;
  tfcc_q_range(ot, &qmin, &qmax);
  const int32_t rlo = qmin - zp, rhi = qmax - zp;
  const double vlo = (double)(rlo - 1), vhi = (double)(rhi + 1), dscale = (double)scale;
  const double dlo = (double)rlo, dhi = (double)rhi;
  QZ_Q_TYPES(ot, QZ_REF_LOOP);
}

#define QZ_DEQ_LOOP(T) \
  do { \
    const T *restrict x = (const T *)in; \
    for (size_t i = 0; i < n; i++) out[i] = scale * (float)((int32_t)x[i] - zp); \
  } while (0)

void QZ_CAT(tfcc_dqz_, TFCC_QZ_ISA)(const void *restrict in, float *restrict out, size_t n,
                                    float scale, int32_t zp, tfcc_dtype it) {
  QZ_Q_TYPES(it, QZ_DEQ_LOOP);
}

#define QZ_RQ_LOOP(T, QMIN, QMAX) \
  do { \
    const T *restrict x = (const T *)in; \
    T *restrict o = (T *)out; \
    for (size_t i = 0; i < n; i++) { \
      int32_t v = (bias + (int32_t)x[i] * mult) >> 8; /* arithmetic shift: floor */ \
      v = v < (QMIN) ? (QMIN) : v; \
      v = v > (QMAX) ? (QMAX) : v; \
      o[i] = (T)v; \
    } \
  } while (0)

void QZ_CAT(tfcc_rqz_xnn_, TFCC_QZ_ISA)(const void *restrict in, void *restrict out, size_t n,
                                        int32_t mult, int32_t in_zp, int32_t out_zp, tfcc_dtype t) {
  const int32_t bias = (int32_t)((uint32_t)out_zp << 8) - mult * in_zp + 0x80;
  if (t == TFCC_UINT8)
    QZ_RQ_LOOP(uint8_t, 0, 255);
  else
    QZ_RQ_LOOP(int8_t, -128, 127);
}
