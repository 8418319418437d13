/* What the StableHLO reference kernels (gather, scatter, reduce_window) share: the element
 * types they compute on, and the walk from a result index to the start position that an index
 * vector of start_indices selects in the operand. */
#ifndef TFCC_KERNELS_REF_SHLO_UTIL_H
#define TFCC_KERNELS_REF_SHLO_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* The element types they compute on, int8..int64, uint8..uint64, float32 and float64, as switch
 * cases: INT(T, U) for an integer type T (U: its unsigned type, for wrapping arithmetic),
 * FLT(T) for a float type; each expands to the case's statements. */
#define TFCC_SHLO_NUMERIC_CASES(INT, FLT) \
  case TFCC_INT8: INT(int8_t, uint8_t) \
  case TFCC_INT16: INT(int16_t, uint16_t) \
  case TFCC_INT32: INT(int32_t, uint32_t) \
  case TFCC_INT64: INT(int64_t, uint64_t) \
  case TFCC_UINT8: INT(uint8_t, uint8_t) \
  case TFCC_UINT16: INT(uint16_t, uint16_t) \
  case TFCC_UINT32: INT(uint32_t, uint32_t) \
  case TFCC_UINT64: INT(uint64_t, uint64_t) \
  case TFCC_FLOAT32: FLT(float) \
  case TFCC_FLOAT64: \
    FLT(double)

#define TFCC_SHLO_TRUE_INT_(T, U) return true;
#define TFCC_SHLO_TRUE_FLT_(T) return true;
static inline bool tfcc_shlo_numeric_dtype(tfcc_dtype dt) {
  switch (dt) {
    TFCC_SHLO_NUMERIC_CASES(TFCC_SHLO_TRUE_INT_, TFCC_SHLO_TRUE_FLT_)
    default: return false;
  }
}

static inline bool tfcc_shlo_contains(const int64_t *v, int32_t n, int64_t x) {
  for (int32_t i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

/* Row-major strides of dims[rank]. */
static inline void tfcc_shlo_strides(const int32_t *dims, int32_t rank, int64_t *stride) {
  int64_t s = 1;
  for (int32_t k = rank - 1; k >= 0; k--) {
    stride[k] = s;
    s *= dims[k];
  }
}

/* start_indices as the gather and scatter kernels take them: int32 values, or int64 if i64, of
 * shape dims[rank]; index vectors along vector_dim (one element each when that is rank). */
typedef struct tfcc_shlo_index_args {
  const void *data;
  bool i64;
  const int32_t *dims;
  int32_t rank, vector_dim;
} tfcc_shlo_index_args;

/* Splits the result index idx[rank] into its window part (the dimensions listed in
 * win_dims[n_win], in order, to win[]) and its batch part; the batch part selects an index
 * vector of start_indices (row-major strides istride), whose n_map elements go to start[map[k]]
 * (start[] zeroed first). */
static inline void tfcc_shlo_start(const tfcc_shlo_index_args *ix, const int64_t *istride,
                                   const int64_t *idx, int32_t rank, const int64_t *win_dims,
                                   int32_t n_win, const int64_t *map, int32_t n_map,
                                   int64_t win[TFCC_MAX_DIMS], int64_t start[TFCC_MAX_DIMS]) {
  int64_t batch[TFCC_MAX_DIMS] = {0};
  int32_t nb = 0, nw = 0;
  for (int32_t d = 0; d < rank; d++) {
    if (tfcc_shlo_contains(win_dims, n_win, d))
      win[nw++] = idx[d];
    else
      batch[nb++] = idx[d];
  }
  const bool implicit = ix->vector_dim >= ix->rank;
  /* the flat position in start_indices of the index vector's first element */
  int64_t base = 0;
  for (int32_t d = 0, b = 0; d < ix->rank; d++) {
    if (!implicit && d == ix->vector_dim) continue;
    base += batch[b++] * istride[d];
  }
  const int64_t vstep = implicit ? 0 : istride[ix->vector_dim];
  for (int32_t d = 0; d < TFCC_MAX_DIMS; d++) start[d] = 0;
  for (int32_t k = 0; k < n_map; k++) {
    const int64_t f = base + k * vstep;
    start[map[k]] = ix->i64 ? ((const int64_t *)ix->data)[f] : ((const int32_t *)ix->data)[f];
  }
}

#endif
