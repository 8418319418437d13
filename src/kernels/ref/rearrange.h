/* Element rearrangements of es-byte elements: MATRIX_DIAG, MATRIX_SET_DIAG, REVERSE_SEQUENCE,
 * SPARSE_TO_DENSE (TFLite reference semantics). */
#ifndef TFCC_KERNELS_REF_REARRANGE_H
#define TFCC_KERNELS_REF_REARRANGE_H

#include <stddef.h>
#include <stdint.h>

/* out[b][i][j] = i == j ? diag[b][i] : zero bytes; diag [batch][n], out [batch][n][n]. */
void tfcc_ref_matrix_diag(const void *diag, int64_t batch, int64_t n, size_t es, void *out);

/* out = in [batch][rows][cols] with out[b][i][i] = diag[b][i] for i < min(rows, cols). */
void tfcc_ref_matrix_set_diag(const void *in, const void *diag, int64_t batch, int64_t rows,
                              int64_t cols, size_t es, void *out);

/* in viewed as [outer][d0][mid][d1][inner] where d0/d1 are the batch and sequence dimensions
 * in order of position (seq_first says which is the sequence one); along the sequence axis
 * the first len[b] elements of batch b are reversed, the rest copied. len[] in [0, seq]. */
void tfcc_ref_reverse_sequence(const void *in, const int64_t *len, int64_t outer, int64_t d0,
                               int64_t mid, int64_t d1, int64_t inner, int seq_first, size_t es,
                               void *out);

/* out (out_size elements) = default; then out[flat[i]] = values[i] (or values[0] when
 * values_scalar) for i in [0, n). flat[] must be in [0, out_size). */
void tfcc_ref_sparse_to_dense(const int64_t *flat, int64_t n, const void *values, int values_scalar,
                              const void *def, int64_t out_size, size_t es, void *out);

#endif
