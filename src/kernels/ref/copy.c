/* Data movement kernels: strided N-d copies, concat / split, tiling, fills;
 * the contract is in copy.h. */
#include "kernels/ref/copy.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* TFLite's float formulas are evaluated without fused multiply-add */
#endif

#define TFCC_COPY_MAX_RANK 16

void tfcc_ref_strides(int32_t rank, const int32_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int32_t d = rank - 1; d >= 0; d--) {
    strides[d] = s;
    s *= dims[d];
  }
}

static void copy_row(uint8_t *o, int64_t os, const uint8_t *i, int64_t is, int32_t n, size_t es) {
  if (is == 1 && os == 1) {
    memcpy(o, i, (size_t)n * es);
    return;
  }
  int64_t ib = is * (int64_t)es, ob = os * (int64_t)es;
  switch (es) {
    case 1:
      for (int32_t k = 0; k < n; k++) o[k * ob] = i[k * ib];
      break;
    case 2:
      for (int32_t k = 0; k < n; k++) memcpy(o + k * ob, i + k * ib, 2);
      break;
    case 4:
      for (int32_t k = 0; k < n; k++) memcpy(o + k * ob, i + k * ib, 4);
      break;
    case 8:
      for (int32_t k = 0; k < n; k++) memcpy(o + k * ob, i + k * ib, 8);
      break;
    default:
      for (int32_t k = 0; k < n; k++) memcpy(o + k * ob, i + k * ib, es);
      break;
  }
}

void tfcc_ref_copy_nd(int32_t rank, const int32_t *dims, const void *in, int64_t in_off,
                      const int64_t *in_strides, void *out, int64_t out_off,
                      const int64_t *out_strides, size_t es) {
  const uint8_t *ib = (const uint8_t *)in;
  uint8_t *ob = (uint8_t *)out;
  if (rank <= 0) {
    memcpy(ob + out_off * (int64_t)es, ib + in_off * (int64_t)es, es);
    return;
  }
  for (int32_t d = 0; d < rank; d++)
    if (dims[d] <= 0) return;
  int32_t idx[TFCC_COPY_MAX_RANK] = {0};
  const int32_t last = rank - 1;
  int64_t io = in_off, oo = out_off;
  for (;;) {
    copy_row(ob + oo * (int64_t)es, out_strides[last], ib + io * (int64_t)es, in_strides[last],
             dims[last], es);
    int32_t d = last - 1;
    for (; d >= 0; d--) {
      idx[d]++;
      io += in_strides[d];
      oo += out_strides[d];
      if (idx[d] < dims[d]) break;
      io -= in_strides[d] * dims[d];
      oo -= out_strides[d] * dims[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

/* Whether any of the n parts of a row has bytes (any_bytes: sizes in bytes; any_elems: uint8
 * elements): an output of empty rows (PACK of [2^20, 2^20, 0] inputs) has 2^40 of them to walk
 * for nothing. */
#define TFCC_ANY_NONZERO(fn, type) \
  static bool fn(int32_t n, const type *inner) { \
    for (int32_t i = 0; i < n; i++) \
      if (inner[i]) return true; \
    return false; \
  }
TFCC_ANY_NONZERO(any_bytes, size_t)
TFCC_ANY_NONZERO(any_elems, int64_t)

void tfcc_ref_concat(int32_t n, const void *const *in, const size_t *inner_bytes, int64_t outer,
                     void *out) {
  uint8_t *o = (uint8_t *)out;
  if (!any_bytes(n, inner_bytes)) return;
  for (int64_t k = 0; k < outer; k++)
    for (int32_t i = 0; i < n; i++) {
      if (inner_bytes[i])
        memcpy(o, (const uint8_t *)in[i] + (size_t)k * inner_bytes[i], inner_bytes[i]);
      o += inner_bytes[i];
    }
}

void tfcc_ref_split(const void *in, int32_t n, void *const *out, const size_t *inner_bytes,
                    int64_t outer) {
  const uint8_t *p = (const uint8_t *)in;
  if (!any_bytes(n, inner_bytes)) return;
  for (int64_t k = 0; k < outer; k++)
    for (int32_t i = 0; i < n; i++) {
      if (inner_bytes[i]) memcpy((uint8_t *)out[i] + (size_t)k * inner_bytes[i], p, inner_bytes[i]);
      p += inner_bytes[i];
    }
}

void tfcc_ref_concat_u8_scaled(int32_t n, const uint8_t *const *in, const int64_t *inner,
                               int64_t outer, const float *in_scale, const int32_t *in_zp,
                               float out_scale, int32_t out_zp, uint8_t *out) {
  const float inverse_output_scale = 1.f / out_scale;
  uint8_t *o = out;
  if (!any_elems(n, inner)) return;
  for (int64_t k = 0; k < outer; k++) {
    for (int32_t i = 0; i < n; i++) {
      const uint8_t *p = in[i] + k * inner[i];
      if (in_zp[i] == out_zp && in_scale[i] == out_scale) {
        if (inner[i]) memcpy(o, p, (size_t)inner[i]);
      } else {
        const float scale = in_scale[i] * inverse_output_scale;
        const float bias = (float)(-in_zp[i]) * scale;
        for (int64_t j = 0; j < inner[i]; j++) {
          float v = (float)p[j] * scale + bias;
          /* hostile scale ratios: clamped where TFLite's conversion would be undefined (NaN
           * as the low end); the same bytes wherever it is defined */
          v = !(v >= -2e9f) ? -2e9f : v > 2e9f ? 2e9f : v;
          const int64_t q = (int64_t)roundf(v) + out_zp;
          o[j] = (uint8_t)(q < 0 ? 0 : (q > 255 ? 255 : q));
        }
      }
      o += inner[i];
    }
  }
}

void tfcc_ref_fill(void *out, int64_t n, const void *value, size_t es) {
  uint8_t *o = (uint8_t *)out;
  if (n <= 0) return;
  if (es == 1) {
    memset(o, *(const uint8_t *)value, (size_t)n);
    return;
  }
  memcpy(o, value, es);
  /* Doubling copies. */
  int64_t done = 1;
  while (done < n) {
    int64_t c = done < n - done ? done : n - done;
    memcpy(o + done * (int64_t)es, o, (size_t)c * es);
    done += c;
  }
}

/* Writes the tile of in_dims[dim..] into out, returns elements written (TFLite's TileOneDimension
 * order: copy the sub-block once per input index, then replicate the whole row `multiple` times). */
static int64_t tile_dim(const uint8_t *in, int32_t rank, const int32_t *in_dims,
                        const int64_t *multiples, size_t es, uint8_t *out, int32_t dim,
                        int64_t *in_used) {
  if (dim == rank - 1) {
    int64_t row = in_dims[dim];
    for (int64_t m = 0; m < multiples[dim]; m++)
      if (row) memcpy(out + m * row * (int64_t)es, in, (size_t)row * es);
    *in_used = row;
    return row * multiples[dim];
  }
  int64_t written = 0, consumed = 0;
  for (int32_t i = 0; i < in_dims[dim]; i++) {
    int64_t used = 0;
    written += tile_dim(in + consumed * (int64_t)es, rank, in_dims, multiples, es,
                        out + written * (int64_t)es, dim + 1, &used);
    consumed += used;
  }
  for (int64_t m = 1; m < multiples[dim]; m++)
    if (written) memcpy(out + m * written * (int64_t)es, out, (size_t)written * es);
  *in_used = consumed;
  return written * multiples[dim];
}

void tfcc_ref_tile(const void *in, int32_t rank, const int32_t *in_dims, const int64_t *multiples,
                   size_t es, void *out) {
  int64_t used = 0;
  if (rank == 0) {
    memcpy(out, in, es);
    return;
  }
  for (int32_t d = 0; d < rank; d++)
    if (in_dims[d] == 0 || multiples[d] == 0) return;
  tile_dim((const uint8_t *)in, rank, in_dims, multiples, es, (uint8_t *)out, 0, &used);
}
