/* Portable body of the pooling kernels, included by the per-ISA files that let the compiler
 * vectorise it for their instruction set (define TFCC_POOL_FN first). Channels go in blocks
 * held in local arrays the compiler keeps in vector registers; every tap of the clipped
 * window is visited row by row, as the reference does. */
#include <float.h>
#include <stddef.h>

#include "kernels/pool/pool.h"

#define POOL_CBF 32 /* float / int32 lanes per block */
/* The tap loops must stay loops over whole channel blocks (clang would otherwise vectorise
 * across taps, spilling the block to the stack). */
#if defined(__clang__)
#define POOL_TAPS _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define POOL_TAPS
#endif
#define POOL_CBQ 64 /* bytes per block (max) */

static inline float pool_clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}
static inline int32_t pool_clampi(int32_t v, int32_t lo, int32_t hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

/* One block of CB channels at offset c of one output pixel: window of kh x kw taps (kh,
 * kw > 0) at p, rows rs and columns cs elements apart. ACC is the accumulator type, INIT its
 * start, STEP(a, v) the update and OUT(a) the stored value. Wider blocks first, then 16, 8, and
 * single channels, so that channel counts such as 24 still run on vectors. */
#define POOL_BLOCK(CB, T, ACC, INIT, STEP, OUT) \
  do { \
    ACC a_[CB]; \
    for (int i = 0; i < (CB); i++) a_[i] = (INIT); \
    for (int32_t y = 0; y < kh; y++) POOL_TAPS for (int32_t x = 0; x < kw; x++) { \
        const T *restrict v_ = p + (size_t)y * rs + (size_t)x * cs + c; \
        for (int i = 0; i < (CB); i++) a_[i] = STEP(a_[i], v_[i]); \
      } \
    for (int i = 0; i < (CB); i++) o[c + i] = OUT(a_[i]); \
  } while (0)

#define POOL_CHANNELS(CBMAX, T, ACC, INIT, STEP, OUT) \
  do { \
    size_t c = 0; \
    for (; c + (CBMAX) <= C; c += (CBMAX)) POOL_BLOCK(CBMAX, T, ACC, INIT, STEP, OUT); \
    if (c + 16 <= C) { \
      POOL_BLOCK(16, T, ACC, INIT, STEP, OUT); \
      c += 16; \
    } \
    if (c + 8 <= C) { \
      POOL_BLOCK(8, T, ACC, INIT, STEP, OUT); \
      c += 8; \
    } \
    for (; c < C; c++) POOL_BLOCK(1, T, ACC, INIT, STEP, OUT); \
  } while (0)

#define POOL_MAXSTEP(a, v) ((v) > (a) ? (v) : (a))
#define POOL_SUMSTEP(a, v) ((a) + (v))

static inline void max_f32_px(const float *restrict p, size_t rs, size_t cs, int32_t kh, int32_t kw,
                              size_t C, float lo, float hi, float *restrict o) {
#define POOL_OUT(a) pool_clampf((a), lo, hi)
  POOL_CHANNELS(POOL_CBF, float, float, -FLT_MAX, POOL_MAXSTEP, POOL_OUT);
#undef POOL_OUT
}

static inline void avg_f32_px(const float *restrict p, size_t rs, size_t cs, int32_t kh, int32_t kw,
                              size_t C, float lo, float hi, float *restrict o) {
  const float n = (float)(kh * kw);
#define POOL_OUT(a) pool_clampf((a) / n, lo, hi)
  POOL_CHANNELS(POOL_CBF, float, float, 0.f, POOL_SUMSTEP, POOL_OUT);
#undef POOL_OUT
}

/* Quantized max and average for element type T (uint8_t / int8_t / int16_t), lowest value
 * LOWEST, max blocks of CBM channels. */
#define POOL_Q_PIXELS(SUF, T, LOWEST, CBM) \
  static inline T max_##SUF##_out(T m, T lo, T hi) { \
    m = m < lo ? lo : m; \
    return m > hi ? hi : m; \
  } \
  static inline void max_##SUF##_px(const T *restrict p, size_t rs, size_t cs, int32_t kh, \
                                    int32_t kw, size_t C, int32_t lo, int32_t hi, T *restrict o) { \
    const T tlo = (T)lo, thi = (T)hi; \
    POOL_CHANNELS(CBM, T, T, (T)(LOWEST), POOL_MAXSTEP, POOL_QMAX_OUT_##SUF); \
  } \
  static inline T avg_##SUF##_div(int32_t acc, int32_t n, float fn, int32_t lo, int32_t hi) { \
    const int32_t half = n / 2; \
    const int32_t a = acc > 0 ? acc + half : acc - half; \
    return (T)pool_clampi((int32_t)((float)a / fn), lo, hi); \
  } \
  static inline void avg_##SUF##_px(const T *restrict p, size_t rs, size_t cs, int32_t kh, \
                                    int32_t kw, size_t C, int32_t lo, int32_t hi, T *restrict o) { \
    const int32_t n = kh * kw; \
    const float fn = (float)n; \
    POOL_CHANNELS(POOL_CBF, T, int32_t, 0, POOL_SUMSTEP, POOL_QAVG_OUT_##SUF); \
  }

#define POOL_QMAX_OUT_u8(a) max_u8_out((a), tlo, thi)
#define POOL_QMAX_OUT_s8(a) max_s8_out((a), tlo, thi)
#define POOL_QAVG_OUT_u8(a) avg_u8_div((a), n, fn, lo, hi)
#define POOL_QAVG_OUT_s8(a) avg_s8_div((a), n, fn, lo, hi)
#define POOL_QMAX_OUT_s16(a) max_s16_out((a), tlo, thi)
#define POOL_QAVG_OUT_s16(a) avg_s16_div((a), n, fn, lo, hi)
POOL_Q_PIXELS(u8, uint8_t, 0, POOL_CBQ)
POOL_Q_PIXELS(s8, int8_t, -128, POOL_CBQ)
POOL_Q_PIXELS(s16, int16_t, -32768, POOL_CBQ / 2)

/* The rows loop for one pixel function PX over element type T; an empty window (filter
 * smaller than the padding) gives what the reference gives: clamp(lowest) for max, clamp(0)
 * for the average. */
#define POOL_ROWS(PX, T, LO, HI, EMPTY) \
  do { \
    const T *in = (const T *)j->in; \
    T *out = (T *)j->out; \
    for (int32_t row = row0; row < row1; row++) { \
      const int32_t b = row / g->out_h, oy = row % g->out_h; \
      const int32_t iy0 = oy * g->stride_h - g->pad_h; \
      const int32_t fy0 = iy0 < 0 ? -iy0 : 0; \
      const int32_t fy1 = g->filter_h < g->in_h - iy0 ? g->filter_h : g->in_h - iy0; \
      T *orow = out + (size_t)row * (size_t)g->out_w * C; \
      for (int32_t ox = 0; ox < g->out_w; ox++) { \
        const int32_t ix0 = ox * g->stride_w - g->pad_w; \
        const int32_t fx0 = ix0 < 0 ? -ix0 : 0; \
        const int32_t fx1 = g->filter_w < g->in_w - ix0 ? g->filter_w : g->in_w - ix0; \
        T *o = orow + (size_t)ox * C; \
        if (fy1 <= fy0 || fx1 <= fx0) { \
          for (size_t c = 0; c < C; c++) o[c] = (EMPTY); \
          continue; \
        } \
        const T *p = in + (((size_t)b * (size_t)g->in_h + (size_t)(iy0 + fy0)) * (size_t)g->in_w + \
                           (size_t)(ix0 + fx0)) * \
                              C; \
        PX(p, rs, C, fy1 - fy0, fx1 - fx0, C, LO, HI, o); \
      } \
    } \
  } while (0)

void TFCC_POOL_FN(const tfcc_pool_job *j, int32_t row0, int32_t row1) {
  const tfcc_conv_geom *g = j->g;
  const size_t C = (size_t)g->in_c;
  const size_t rs = (size_t)g->in_w * C;
  const float flo = j->flo, fhi = j->fhi;
  const int32_t qlo = j->qlo, qhi = j->qhi;
  switch (j->dt) {
    case TFCC_FLOAT32:
      if (j->is_avg)
        POOL_ROWS(avg_f32_px, float, flo, fhi, pool_clampf(0.f, flo, fhi));
      else
        POOL_ROWS(max_f32_px, float, flo, fhi, pool_clampf(-FLT_MAX, flo, fhi));
      return;
    case TFCC_UINT8:
      if (j->is_avg)
        POOL_ROWS(avg_u8_px, uint8_t, qlo, qhi, (uint8_t)pool_clampi(0, qlo, qhi));
      else
        POOL_ROWS(max_u8_px, uint8_t, qlo, qhi, (uint8_t)pool_clampi(0, qlo, qhi));
      return;
    case TFCC_INT8:
      if (j->is_avg)
        POOL_ROWS(avg_s8_px, int8_t, qlo, qhi, (int8_t)pool_clampi(0, qlo, qhi));
      else
        POOL_ROWS(max_s8_px, int8_t, qlo, qhi, (int8_t)pool_clampi(-128, qlo, qhi));
      return;
    case TFCC_INT16:
      if (j->is_avg)
        POOL_ROWS(avg_s16_px, int16_t, qlo, qhi, (int16_t)pool_clampi(0, qlo, qhi));
      else
        POOL_ROWS(max_s16_px, int16_t, qlo, qhi, (int16_t)pool_clampi(-32768, qlo, qhi));
      return;
    default: return;
  }
}
