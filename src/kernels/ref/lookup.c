/* ONE_HOT, BUCKETIZE, EMBEDDING_LOOKUP (see lookup.h). */
#include "kernels/ref/lookup.h"

#include <string.h>

void tfcc_ref_one_hot(const void *idx, size_t idx_size, int64_t prefix, int64_t suffix,
                      int32_t depth, const void *on, const void *off, size_t es, void *out) {
  uint8_t *o = out;
  if (suffix <= 0 || depth <= 0) return; /* an empty output: prefix x depth empty rows */
  for (int64_t i = 0; i < prefix; i++)
    for (int32_t d = 0; d < depth; d++)
      for (int64_t k = 0; k < suffix; k++, o += es) {
        int32_t v;
        if (idx_size == 8) {
          int64_t w;
          memcpy(&w, (const uint8_t *)idx + (size_t)(i * suffix + k) * 8, 8);
          v = (int32_t)(uint32_t)(uint64_t)w; /* static_cast<int> */
        } else {
          memcpy(&v, (const uint8_t *)idx + (size_t)(i * suffix + k) * 4, 4);
        }
        memcpy(o, v == d ? on : off, es);
      }
}

#define BUCKETS(T, CMP_T) \
  do { \
    const T *v = x; \
    for (int64_t i = 0; i < n; i++) { \
      const CMP_T xv = (CMP_T)v[i]; \
      int64_t lo = 0, hi = n_boundaries; /* first boundary with xv < b */ \
      while (lo < hi) { \
        const int64_t mid = lo + (hi - lo) / 2; \
        if (xv < (CMP_T)boundaries[mid]) \
          hi = mid; \
        else \
          lo = mid + 1; \
      } \
      out[i] = (int32_t)lo; \
    } \
  } while (0)

void tfcc_ref_bucketize(tfcc_dtype dtype, const void *x, int64_t n, const float *boundaries,
                        int64_t n_boundaries, int32_t *out) {
  switch (dtype) {
    case TFCC_FLOAT64: BUCKETS(double, double); break;
    case TFCC_INT32: BUCKETS(int32_t, float); break;
    case TFCC_INT64: BUCKETS(int64_t, float); break;
    default: BUCKETS(float, float); break;
  }
}

int64_t tfcc_ref_embedding_lookup(const int32_t *ids, int64_t n_ids, const void *table,
                                  int64_t rows, int64_t row_elems, size_t es, void *out) {
  const size_t row_bytes = (size_t)row_elems * es;
  for (int64_t i = 0; i < n_ids; i++) {
    if (ids[i] < 0 || ids[i] >= rows) return i;
    memcpy((uint8_t *)out + (size_t)i * row_bytes,
           (const uint8_t *)table + (size_t)ids[i] * row_bytes, row_bytes);
  }
  return -1;
}

int64_t tfcc_ref_embedding_lookup_dequant(const int32_t *ids, int64_t n_ids, const int8_t *table,
                                          int64_t rows, int64_t row_elems, const float *scale,
                                          int64_t n_scales, float *out) {
  for (int64_t i = 0; i < n_ids; i++) {
    if (ids[i] < 0 || ids[i] >= rows) return i;
    const double s = n_scales == rows && n_scales > 1 ? scale[ids[i]] : scale[0];
    const int64_t base = (int64_t)ids[i] * row_elems;
    for (int64_t j = 0; j < row_elems; j++) out[i * row_elems + j] = (float)(table[base + j] * s);
  }
  return -1;
}
