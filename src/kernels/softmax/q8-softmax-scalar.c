/* 8-bit softmax rows, portable C (contract in softmax.h): byte-identical to tfcc_softmax_q8.
 * The byte-table pass runs on the q8-lut kernel given. The generic variant of q8-softmax, and
 * what the vector variants run for rows shorter than 4. */
#include <string.h>

#include "kernels/softmax/q8_softmax_quant.h"
#include "kernels/softmax/softmax.h"

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

TFCC_Q8_SOFTMAX_DECL(tfcc_q8_softmax_scalar) {
  const uint8_t flip = u8 ? 0 : 0x80;
  for (size_t r0 = 0; r0 < rows; r0 += 4) {
    const size_t nr = rows - r0 < 4 ? rows - r0 : 4;
    int lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
    /* t[k][v] = table_offset[x] of row k for biased byte v (table + 255 - max, indexed by x) */
    const float *t[4];
    for (size_t k = 0; k < nr; k++) {
      row_range(in + (r0 + k) * depth, depth, flip, &lo[k], &hi[k]);
      t[k] = table + (255 - hi[k]);
    }
    /* sums in element order, four rows interleaved (independent dependency chains) */
    float sum[4] = {0.f, 0.f, 0.f, 0.f};
    const uint8_t *p0 = in + r0 * depth;
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
      uint8_t *orow = out + (r0 + k) * depth;
      const float inv = 1.0f / (sum[k] * out_scale);
      const size_t span = (size_t)(hi[k] - lo[k] + 1);
      if (depth >= 2 * span && depth >= 64) {
        /* byte table over the row's values: lut[x] for the raw byte x */
        uint8_t lut[256];
        memset(lut, 0, sizeof lut);
        for (int v = lo[k]; v <= hi[k]; v++)
          lut[(uint8_t)(v ^ flip)] = tfcc_q8sm_quantize(t[k][v] * inv, u8, out_zp);
        lk->fn(lut, row, orow, depth);
      } else {
        for (size_t j = 0; j < depth; j++)
          orow[j] = tfcc_q8sm_quantize(t[k][row[j] ^ flip] * inv, u8, out_zp);
      }
    }
  }
}
