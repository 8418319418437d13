/* MATRIX_DIAG, MATRIX_SET_DIAG, REVERSE_SEQUENCE, SPARSE_TO_DENSE (see rearrange.h). */
#include "kernels/ref/rearrange.h"

#include <string.h>

void tfcc_ref_matrix_diag(const void *diag, int64_t batch, int64_t n, size_t es, void *out) {
  const uint8_t *d = diag;
  uint8_t *o = out;
  if (n == 0) return; /* empty matrices: 2^40 batches of nothing ([2^20, 2^20, 0], fuzz55) */
  memset(o, 0, (size_t)(batch * n * n) * es);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < n; i++)
      memcpy(o + (size_t)((b * n + i) * n + i) * es, d + (size_t)(b * n + i) * es, es);
}

void tfcc_ref_matrix_set_diag(const void *in, const void *diag, int64_t batch, int64_t rows,
                              int64_t cols, size_t es, void *out) {
  const uint8_t *d = diag;
  uint8_t *o = out;
  const int64_t k = rows < cols ? rows : cols;
  if (out != in) memmove(o, in, (size_t)(batch * rows * cols) * es);
  if (k == 0) return; /* no diagonal: batches of nothing */
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < k; i++)
      memcpy(o + (size_t)((b * rows + i) * cols + i) * es, d + (size_t)(b * k + i) * es, es);
}

void tfcc_ref_reverse_sequence(const void *in, const int64_t *len, int64_t outer, int64_t d0,
                               int64_t mid, int64_t d1, int64_t inner, int seq_first, size_t es,
                               void *out) {
  const uint8_t *x = in;
  uint8_t *y = out;
  const size_t row = (size_t)inner * es;
  /* empty rows: nothing to walk ([2^20, 2^20, 0]: 2^40 of them, fuzz54), nor rows of an empty
   * axis (2^30 x 0 batches: fuzz55) */
  if (row == 0 || outer == 0 || d0 == 0 || mid == 0 || d1 == 0) return;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < d0; i++)
      for (int64_t m = 0; m < mid; m++)
        for (int64_t j = 0; j < d1; j++) {
          const int64_t b = seq_first ? j : i, s = seq_first ? i : j, L = len[b];
          const int64_t src_s = s < L ? L - 1 - s : s;
          const int64_t si = seq_first ? src_s : i, sj = seq_first ? j : src_s;
          const int64_t to = (((o * d0 + i) * mid + m) * d1 + j) * inner;
          const int64_t from = (((o * d0 + si) * mid + m) * d1 + sj) * inner;
          memcpy(y + (size_t)to * es, x + (size_t)from * es, row);
        }
}

void tfcc_ref_sparse_to_dense(const int64_t *flat, int64_t n, const void *values, int values_scalar,
                              const void *def, int64_t out_size, size_t es, void *out) {
  uint8_t *o = out;
  for (int64_t i = 0; i < out_size; i++) memcpy(o + (size_t)i * es, def, es);
  for (int64_t i = 0; i < n; i++)
    memcpy(o + (size_t)flat[i] * es, (const uint8_t *)values + (values_scalar ? 0 : (size_t)i * es),
           es);
}
