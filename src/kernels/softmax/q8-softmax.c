/* 8-bit softmax (contract in softmax.h): byte-identical to tfcc_softmax_q8. Portable C; the
 * byte-table pass runs on the q8-lut kernel given. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/softmax/softmax.h"

/* The reference's quantization of one probability (kernels/ref/softmax.c), 8-bit outputs. */
static inline int32_t to_i32_sat(float v) {
  if (v != v) return 0;
  if (v >= 2147483648.f) return INT32_MAX;
  if (v < -2147483648.f) return INT32_MIN;
  return (int32_t)v;
}

/* roundf (half away from zero) then to_i32_sat, without the libm call for the usual range:
 * for 0 <= p < 2^23, p - trunc(p) is exact, so comparing it with 0.5 decides as roundf. */
static inline int32_t round_sat(float p) {
  if (p >= 0.f && p < 8388608.f) {
    const int32_t i = (int32_t)p;
    return i + (p - (float)i >= 0.5f);
  }
  return to_i32_sat(roundf(p));
}

static inline uint8_t quantize(float prob, bool u8, int32_t zp) {
  int32_t q;
  if (u8) {
    q = to_i32_sat(prob + 0.5f);
    return (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
  }
  q = (int32_t)((uint32_t)round_sat(prob) + (uint32_t)zp);
  return (uint8_t)(int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
}

/* Rows as unsigned bytes: int8 values are biased by 128 (x ^ 0x80) for the max / min and the
 * table index, so one code path serves both types. */
static inline void row_range(const uint8_t *row, size_t depth, uint8_t flip, int *lo, int *hi) {
  uint8_t mx = 0, mn = 255;
  for (size_t j = 0; j < depth; j++) {
    const uint8_t v = row[j] ^ flip;
    mx = v > mx ? v : mx;
    mn = v < mn ? v : mn;
  }
  *lo = mn;
  *hi = mx;
}

int tfcc_q8_softmax(const tfcc_q8_lut_kernel *lk, tfcc_dtype in_type, const void *in,
                    tfcc_dtype out_type, void *out, size_t outer, size_t depth,
                    const float table[256], float out_scale, int32_t out_zp) {
  if (in_type != out_type || (in_type != TFCC_UINT8 && in_type != TFCC_INT8)) return 0;
  const bool u8 = in_type == TFCC_UINT8;
  const uint8_t flip = u8 ? 0 : 0x80;
  const uint8_t *src = in;
  uint8_t *dst = out;
  for (size_t r0 = 0; r0 < outer; r0 += 4) {
    const size_t nr = outer - r0 < 4 ? outer - r0 : 4;
    int lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
    /* t[k][v] = table_offset[x] of row k for biased byte v (table + 255 - max, indexed by x) */
    const float *t[4];
    for (size_t k = 0; k < nr; k++) {
      row_range(src + (r0 + k) * depth, depth, flip, &lo[k], &hi[k]);
      t[k] = table + (255 - hi[k]);
    }
    /* sums in element order, four rows interleaved (independent dependency chains) */
    float sum[4] = {0.f, 0.f, 0.f, 0.f};
    const uint8_t *p0 = src + r0 * depth;
    if (nr == 4) {
      const uint8_t *p1 = p0 + depth, *p2 = p1 + depth, *p3 = p2 + depth;
      for (size_t j = 0; j < depth; j++) {
        sum[0] += t[0][p0[j] ^ flip];
        sum[1] += t[1][p1[j] ^ flip];
        sum[2] += t[2][p2[j] ^ flip];
        sum[3] += t[3][p3[j] ^ flip];
      }
    } else {
      for (size_t k = 0; k < nr; k++)
        for (size_t j = 0; j < depth; j++) sum[k] += t[k][p0[k * depth + j] ^ flip];
    }
    for (size_t k = 0; k < nr; k++) {
      const uint8_t *row = p0 + k * depth;
      uint8_t *orow = dst + (r0 + k) * depth;
      const float inv = 1.0f / (sum[k] * out_scale);
      const size_t span = (size_t)(hi[k] - lo[k] + 1);
      if (depth >= 2 * span && depth >= 64) {
        /* byte table over the row's values: lut[x] for the raw byte x */
        uint8_t lut[256];
        memset(lut, 0, sizeof lut);
        for (int v = lo[k]; v <= hi[k]; v++)
          lut[(uint8_t)(v ^ flip)] = quantize(t[k][v] * inv, u8, out_zp);
        lk->fn(lut, row, orow, depth);
      } else {
        for (size_t j = 0; j < depth; j++)
          orow[j] = quantize(t[k][row[j] ^ flip] * inv, u8, out_zp);
      }
    }
  }
  return 1;
}
