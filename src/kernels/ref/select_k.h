/* TOPK_V2 and UNIQUE kernels (TFLite reference semantics). dtype: float32, uint8, int8, int16,
 * int32, int64. */
#ifndef TFCC_KERNELS_REF_SELECT_K_H
#define TFCC_KERNELS_REF_SELECT_K_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* For each of rows rows of n values: the k largest, in descending order, equal values in
 * order of position (TFLite TopContainer); values out[rows][k] of dtype, positions idx[rows][k]
 * as int32 (idx_size 4) or int64 (8). k <= n; pos: scratch of k entries. */
void tfcc_ref_topk(tfcc_dtype dtype, const void *in, int64_t rows, int64_t n, int64_t k,
                   void *values, void *idx, int idx_size, int64_t *pos);

/* UNIQUE over n values (n < 2^31): uniq[0..*count) the distinct values in order of first
 * appearance, idx[i] (int32 or int64 per idx_size) the position of in[i] in uniq (floats equal
 * by ==: -0 and 0 are one value, every NaN its own). Returns *count. scratch:
 * tfcc_ref_unique_scratch_bytes(dtype, n) bytes, 8-byte aligned. Linear in n (8- and 16-bit
 * values: a table of ids; wider: a radix sort). */
int64_t tfcc_ref_unique(tfcc_dtype dtype, const void *in, int64_t n, void *uniq, void *idx,
                        int idx_size, void *scratch);

/* The number of distinct values tfcc_ref_unique finds (same scratch; 8- and 16-bit values need
 * none: scratch may be NULL). */
int64_t tfcc_ref_unique_count(tfcc_dtype dtype, const void *in, int64_t n, void *scratch);

size_t tfcc_ref_unique_scratch_bytes(tfcc_dtype dtype, int64_t n);

#endif
