/* Scatter kernels: SCATTER_ND (summed updates into zeros) and DYNAMIC_UPDATE_SLICE (a block
 * written over a copy of the operand), TFLite reference semantics. */
#ifndef TFCC_KERNELS_REF_SCATTER_H
#define TFCC_KERNELS_REF_SCATTER_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* out (out_size elements of dtype: float32, uint8, int8, int32, int64, bool) = 0, then for each
 * of n_slices index tuples idx[i][0..nd) (int32) the slice_size updates of slice i are added at
 * flat position sum(idx[i][k] * dims_to_count[k]) (integers wrap; bool ORs). Returns the first
 * slice whose position falls outside [0, out_size - slice_size], or -1 (nothing is written past
 * the output). */
int64_t tfcc_ref_scatter_nd(tfcc_dtype dtype, const int32_t *idx, int32_t nd,
                            const int64_t *dims_to_count, int64_t n_slices, int64_t slice_size,
                            const void *updates, void *out, int64_t out_size);

/* out = operand (rank dims, es-byte elements), then the block update (dims upd) written at
 * start[d] (already clamped to [0, dims[d] - upd[d]]). */
void tfcc_ref_dynamic_update_slice(const void *operand, const int32_t *dims, int32_t rank,
                                   const void *update, const int32_t *upd, const int64_t *start,
                                   size_t es, void *out);

#endif
