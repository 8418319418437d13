/* Reference 2-D pooling kernels (average, max, L2); the contract is in pool.h. */
#include "kernels/ref/pool.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "kernels/ref/conv_walk.h"

/* Visits every output element with its clipped window [fy0, fy1) x [fx0, fx1). */
#define TFCC_POOL_LOOP(...) \
  TFCC_CONV_PIXELS(const int32_t fy0 = iy0 < 0 ? -iy0 : 0; const int32_t fx0 = ix0 < 0 ? -ix0 : 0; \
                   const int32_t fy1 = g->filter_h < g->in_h - iy0 ? g->filter_h : g->in_h - iy0; \
                   const int32_t fx1 = g->filter_w < g->in_w - ix0 ? g->filter_w : g->in_w - ix0; \
                   for (int32_t c = 0; c < g->out_c; c++){__VA_ARGS__})
#define TFCC_POOL_AT(fy, fx) \
  ((((size_t)b * g->in_h + (size_t)(iy0 + (fy))) * g->in_w + (size_t)(ix0 + (fx))) * g->out_c + c)

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
static inline int32_t clampi(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Inside TFCC_POOL_LOOP: sum (float) of TERM over the window's values v, and their count. */
#define WINDOW_SUM_F32(sum, count, TERM) \
  float sum = 0.f; \
  int32_t count = 0; \
  for (int32_t fy = fy0; fy < fy1; fy++) \
    for (int32_t fx = fx0; fx < fx1; fx++) { \
      const float v = in[TFCC_POOL_AT(fy, fx)]; \
      sum += TERM; \
      count++; \
    }

void tfcc_avgpool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out) {
  TFCC_POOL_LOOP({
    WINDOW_SUM_F32(total, count, v);
    /* an empty window (only possible with a filter smaller than the padding) gives 0
     * instead of TFLite's division by zero */
    out[out_base + c] = clampf(count ? total / (float)count : 0.f, lo, hi);
  })
}

/* The sum in int64: TFLite's int32 one overflows (undefined) past 65,538 int16 taps of 32767
 * or 8.4 M uint8 taps of 255, a window a file may ask for; the mean is the same wherever int32
 * held the sum. */
#define TFCC_AVG_Q(T) \
  TFCC_POOL_LOOP({ \
    int64_t acc = 0; \
    int32_t count = 0; \
    for (int32_t fy = fy0; fy < fy1; fy++) \
      for (int32_t fx = fx0; fx < fx1; fx++) { \
        acc += in[TFCC_POOL_AT(fy, fx)]; \
        count++; \
      } \
    if (count) acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count; \
    out[out_base + c] = (T)clampi((int32_t)acc, lo, hi); \
  })

static void avgpool_u8(const tfcc_conv_geom *g, const uint8_t *in, int32_t lo, int32_t hi,
                       uint8_t *out) {
  TFCC_AVG_Q(uint8_t)
}
static void avgpool_i8(const tfcc_conv_geom *g, const int8_t *in, int32_t lo, int32_t hi,
                       int8_t *out) {
  TFCC_AVG_Q(int8_t)
}
static void avgpool_i16(const tfcc_conv_geom *g, const int16_t *in, int32_t lo, int32_t hi,
                        int16_t *out) {
  TFCC_AVG_Q(int16_t)
}

void tfcc_maxpool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out) {
  TFCC_POOL_LOOP({
    float m = -FLT_MAX; /* std::numeric_limits<float>::lowest() */
    for (int32_t fy = fy0; fy < fy1; fy++)
      for (int32_t fx = fx0; fx < fx1; fx++) {
        float v = in[TFCC_POOL_AT(fy, fx)];
        m = v > m ? v : m;
      }
    out[out_base + c] = clampf(m, lo, hi);
  })
}

#define TFCC_MAX_Q(T, LOWEST) \
  TFCC_POOL_LOOP({ \
    int32_t m = LOWEST; \
    for (int32_t fy = fy0; fy < fy1; fy++) \
      for (int32_t fx = fx0; fx < fx1; fx++) { \
        int32_t v = in[TFCC_POOL_AT(fy, fx)]; \
        m = v > m ? v : m; \
      } \
    out[out_base + c] = (T)clampi(m, lo, hi); \
  })

static void maxpool_u8(const tfcc_conv_geom *g, const uint8_t *in, int32_t lo, int32_t hi,
                       uint8_t *out) {
  TFCC_MAX_Q(uint8_t, 0)
}
static void maxpool_i8(const tfcc_conv_geom *g, const int8_t *in, int32_t lo, int32_t hi,
                       int8_t *out) {
  TFCC_MAX_Q(int8_t, -128)
}
static void maxpool_i16(const tfcc_conv_geom *g, const int16_t *in, int32_t lo, int32_t hi,
                        int16_t *out) {
  TFCC_MAX_Q(int16_t, -32768)
}

bool tfcc_pool_q(bool avg, tfcc_dtype dt, const tfcc_conv_geom *g, const void *in, int32_t lo,
                 int32_t hi, void *out) {
  switch (dt) {
    case TFCC_UINT8: (avg ? avgpool_u8 : maxpool_u8)(g, in, lo, hi, out); return true;
    case TFCC_INT8: (avg ? avgpool_i8 : maxpool_i8)(g, in, lo, hi, out); return true;
    case TFCC_INT16: (avg ? avgpool_i16 : maxpool_i16)(g, in, lo, hi, out); return true;
    default: return false;
  }
}

void tfcc_l2pool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out) {
  TFCC_POOL_LOOP({
    WINDOW_SUM_F32(sum, count, v * v);
    out[out_base + c] = clampf(count ? sqrtf(sum / (float)count) : 0.f, lo, hi);
  })
}
