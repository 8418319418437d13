/* SCATTER_ND and DYNAMIC_UPDATE_SLICE (see scatter.h). */
#include "kernels/ref/scatter.h"

#include <stdbool.h>
#include <string.h>

#define SCATTER_ADD(T, U) \
  do { \
    const T *u = updates; \
    T *o = out; \
    for (int64_t j = 0; j < slice_size; j++) \
      o[pos + j] = (T)((U)o[pos + j] + (U)u[i * slice_size + j]); \
  } while (0)

int64_t tfcc_ref_scatter_nd(tfcc_dtype dtype, const int32_t *idx, int32_t nd,
                            const int64_t *dims_to_count, int64_t n_slices, int64_t slice_size,
                            const void *updates, void *out, int64_t out_size) {
  memset(out, 0, (size_t)out_size * tfcc_dtype_size(dtype)); /* out is never NULL */
  for (int64_t i = 0; i < n_slices; i++) {
    int64_t pos = 0;
    for (int32_t k = 0; k < nd; k++) pos += (int64_t)idx[i * nd + k] * dims_to_count[k];
    if (pos < 0 || pos + slice_size > out_size) return i;
    switch (dtype) {
      case TFCC_FLOAT32: SCATTER_ADD(float, float); break;
      case TFCC_UINT8: SCATTER_ADD(uint8_t, uint32_t); break;
      case TFCC_INT8: SCATTER_ADD(int8_t, uint32_t); break;
      case TFCC_INT32: SCATTER_ADD(int32_t, uint32_t); break;
      case TFCC_INT64: SCATTER_ADD(int64_t, uint64_t); break;
      case TFCC_BOOL: {
        const uint8_t *u = updates;
        uint8_t *o = out;
        for (int64_t j = 0; j < slice_size; j++)
          o[pos + j] = (uint8_t)(o[pos + j] || u[i * slice_size + j]);
        break;
      }
      default: break;
    }
  }
  return -1;
}

void tfcc_ref_dynamic_update_slice(const void *operand, const int32_t *dims, int32_t rank,
                                   const void *update, const int32_t *upd, const int64_t *start,
                                   size_t es, void *out) {
  int64_t total = 1, utotal = 1;
  for (int32_t d = 0; d < rank; d++) {
    total *= dims[d];
    utotal *= upd[d];
  }
  if (out != operand) memmove(out, operand, (size_t)total * es);
  if (utotal == 0) return;
  int64_t stride[TFCC_MAX_DIMS];
  int64_t s = 1;
  for (int32_t d = rank - 1; d >= 0; d--) {
    stride[d] = s;
    s *= dims[d];
  }
  const int64_t row = rank > 0 ? upd[rank - 1] : 1; /* contiguous run of the innermost dim */
  const int64_t rows = utotal / row;
  int64_t ix[TFCC_MAX_DIMS] = {0};
  const uint8_t *src = update;
  uint8_t *dst = out;
  for (int64_t r = 0; r < rows; r++) {
    int64_t off = 0;
    for (int32_t d = 0; d < rank; d++) off += (start[d] + (d == rank - 1 ? 0 : ix[d])) * stride[d];
    memcpy(dst + (size_t)off * es, src + (size_t)(r * row) * es, (size_t)row * es);
    for (int32_t d = rank - 2; d >= 0; d--) {
      if (++ix[d] < upd[d]) break;
      ix[d] = 0;
    }
  }
}
