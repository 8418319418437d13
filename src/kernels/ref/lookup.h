/* Value -> position kernels: ONE_HOT, BUCKETIZE, EMBEDDING_LOOKUP (TFLite reference
 * semantics). */
#ifndef TFCC_KERNELS_REF_LOOKUP_H
#define TFCC_KERNELS_REF_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* out[prefix][depth][suffix] (es-byte elements) = (int32)idx[prefix][suffix] == d ? on : off;
 * idx int32 (idx_size 4) or int64 (8, compared after truncation to int32 as TFLite). */
void tfcc_ref_one_hot(const void *idx, size_t idx_size, int64_t prefix, int64_t suffix,
                      int32_t depth, const void *on, const void *off, size_t es, void *out);

/* out[i] = number of boundaries b with !(x[i] < b) (std::upper_bound): x float32, float64,
 * int32 or int64 compared as C++ compares it with a float boundary (int -> float,
 * float -> double). boundaries: n little-endian float32 (ascending). */
void tfcc_ref_bucketize(tfcc_dtype dtype, const void *x, int64_t n, const float *boundaries,
                        int64_t n_boundaries, int32_t *out);

/* Rows of a [rows, row_elems] table: out[i] = table[ids[i]] copied (es-byte elements), or (the
 * _dequant form, TFLite EvalHybrid) 8-bit bytes read as int8 (uint8 tables too, as TFLite
 * reads them) times scale[0] or, with n_scales == rows, scale[ids[i]], in double, no zero
 * point. Both return the first i whose id is outside [0, rows), or -1. */
int64_t tfcc_ref_embedding_lookup(const int32_t *ids, int64_t n_ids, const void *table,
                                  int64_t rows, int64_t row_elems, size_t es, void *out);
int64_t tfcc_ref_embedding_lookup_dequant(const int32_t *ids, int64_t n_ids, const int8_t *table,
                                          int64_t rows, int64_t row_elems, const float *scale,
                                          int64_t n_scales, float *out);

#endif
