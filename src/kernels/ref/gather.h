/* GATHER and GATHER_ND kernels (TFLite reference semantics). Elements are blocks of es bytes;
 * indices are int16, int32 or int64 (idx_size 2, 4 or 8). Both return the position of the first
 * out-of-range index, or -1 when all were valid (nothing is read out of bounds). */
#ifndef TFCC_KERNELS_REF_GATHER_H
#define TFCC_KERNELS_REF_GATHER_H

#include <stddef.h>
#include <stdint.h>

/* Reads index i of an int16/int32/int64 index array. */
int64_t tfcc_ref_index_at(const void *idx, size_t idx_size, int64_t i);

/* out[b][o][c][:] = in[b][o][idx[b][c]][:] with batch, outer, coord, inner sizes;
 * 0 <= idx < axis_size. */
int64_t tfcc_ref_gather(const void *in, int64_t batch, int64_t outer, int64_t axis_size,
                        int64_t inner, const void *idx, size_t idx_size, int64_t coords, size_t es,
                        void *out);

/* For each of n_slices index tuples of length nd: from = sum(idx[k] * dims_to_count[k]);
 * copies slice_size elements from params + from; TFLite's check is on the flat position:
 * 0 <= from and from + slice_size <= params_size. */
int64_t tfcc_ref_gather_nd(const void *params, int64_t params_size, const int64_t *dims_to_count,
                           int32_t nd, int64_t slice_size, const void *idx, size_t idx_size,
                           int64_t n_slices, size_t es, void *out);

#endif
