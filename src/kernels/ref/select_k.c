/* TOPK_V2 and UNIQUE (see select_k.h). */
#include "kernels/ref/select_k.h"

static void put_idx(void *idx, int idx_size, int64_t at, int64_t v) {
  if (idx_size == 8)
    ((int64_t *)idx)[at] = v;
  else
    ((int32_t *)idx)[at] = (int32_t)v;
}

/* k-best insertion: a later equal value never passes an earlier one */
/* M(T) for dtype's element type T (float32, uint8, int8, int16, int32, else int64). */
#define SELECT_K_TYPES(M) \
  do { \
    switch (dtype) { \
      case TFCC_FLOAT32: M(float); break; \
      case TFCC_UINT8: M(uint8_t); break; \
      case TFCC_INT8: M(int8_t); break; \
      case TFCC_INT16: M(int16_t); break; \
      case TFCC_INT32: M(int32_t); break; \
      default: M(int64_t); break; \
    } \
  } while (0)

#define TOPK(T) \
  do { \
    const T *x = in; \
    T *v = values; \
    for (int64_t r = 0; r < rows; r++) { \
      const T *row = x + r * n; \
      T *vr = v + r * k; \
      int64_t have = 0; \
      for (int64_t i = 0; i < n; i++) { \
        if (have == k && !(row[i] > vr[k - 1])) continue; \
        int64_t p = have < k ? have++ : k - 1; \
        while (p > 0 && row[i] > vr[p - 1]) { \
          vr[p] = vr[p - 1]; \
          pos[p] = pos[p - 1]; \
          p--; \
        } \
        vr[p] = row[i]; \
        pos[p] = i; \
      } \
      for (int64_t j = 0; j < k; j++) put_idx(idx, idx_size, r *k + j, pos[j]); \
    } \
  } while (0)

void tfcc_ref_topk(tfcc_dtype dtype, const void *in, int64_t rows, int64_t n, int64_t k,
                   void *values, void *idx, int idx_size, int64_t *pos) {
  if (k <= 0) return;
  SELECT_K_TYPES(TOPK);
}

#define UNIQ(T) \
  do { \
    const T *x = in; \
    T *u = uniq; \
    for (int64_t i = 0; i < n; i++) { \
      int64_t j = 0; \
      while (j < count && !(u[j] == x[i])) j++; \
      if (j == count) u[count++] = x[i]; \
      put_idx(idx, idx_size, i, j); \
    } \
  } while (0)

int64_t tfcc_ref_unique(tfcc_dtype dtype, const void *in, int64_t n, void *uniq, void *idx,
                        int idx_size) {
  int64_t count = 0;
  SELECT_K_TYPES(UNIQ);
  return count;
}
