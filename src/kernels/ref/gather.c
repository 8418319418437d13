/* GATHER and GATHER_ND kernels over blocks of bytes; the contract is in gather.h. */
#include "kernels/ref/gather.h"

#include <string.h>

int64_t tfcc_ref_index_at(const void *idx, size_t idx_size, int64_t i) {
  const uint8_t *p = (const uint8_t *)idx + (size_t)i * idx_size;
  if (idx_size == 2) {
    int16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  if (idx_size == 4) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  int64_t v;
  memcpy(&v, p, 8);
  return v;
}

int64_t tfcc_ref_gather(const void *in, int64_t batch, int64_t outer, int64_t axis_size,
                        int64_t inner, const void *idx, size_t idx_size, int64_t coords, size_t es,
                        void *out) {
  /* TFLite checks every index before copying anything. */
  for (int64_t i = 0; i < batch * coords; i++) {
    int64_t v = tfcc_ref_index_at(idx, idx_size, i);
    if (v < 0 || v >= axis_size) return i;
  }
  const size_t row = (size_t)inner * es;
  if (row == 0) return -1; /* empty rows: outer x coords copies of nothing */
  const uint8_t *src = (const uint8_t *)in;
  uint8_t *dst = (uint8_t *)out;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t o = 0; o < outer; o++)
      for (int64_t c = 0; c < coords; c++) {
        int64_t v = tfcc_ref_index_at(idx, idx_size, b * coords + c);
        memcpy(dst + (size_t)(((b * outer + o) * coords + c)) * row,
               src + (size_t)((b * outer + o) * axis_size + v) * row, row);
      }
  return -1;
}

int64_t tfcc_ref_gather_nd(const void *params, int64_t params_size, const int64_t *dims_to_count,
                           int32_t nd, int64_t slice_size, const void *idx, size_t idx_size,
                           int64_t n_slices, size_t es, void *out) {
  for (int64_t i = 0; i < n_slices; i++) {
    int64_t from = 0;
    for (int32_t k = 0; k < nd; k++) {
      int64_t v = tfcc_ref_index_at(idx, idx_size, i * nd + k);
      /* Beyond +-params_size the tuple cannot land inside params (and would overflow). */
      if (v > params_size || v < -params_size) return i;
      from += v * dims_to_count[k];
    }
    if (from < 0 || from + slice_size > params_size) return i;
    memcpy((uint8_t *)out + (size_t)(i * slice_size) * es,
           (const uint8_t *)params + (size_t)from * es, (size_t)slice_size * es);
  }
  return -1;
}
