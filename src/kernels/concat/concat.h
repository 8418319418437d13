/* CONCATENATION / SPLIT data movement: for each of `outer` steps, part i holds inner_bytes[i]
 * contiguous bytes of the joined tensor (the layout of tfcc_ref_concat / tfcc_ref_split, whose
 * results these reproduce byte for byte; any dtype, the blocks are opaque bytes).
 *
 * The reference copies block by block with memcpy, which costs a library call per block: a
 * channel concatenation of [1, 8, 8, 1] pieces is 64 one-byte calls per input. Here each part
 * is copied as one strided loop whose block size is fixed for the whole loop (1, 2, 4, 8, 16,
 * 32, 64 bytes: single moves; other sizes below 64: two overlapping moves; larger: memcpy), so
 * small blocks cost a load and a store. Inputs and outputs must not overlap. Portable C: fixed-size memcpy compiles to vector moves on
 * every target, there is nothing per ISA to choose. */
#ifndef TFCC_KERNELS_CONCAT_CONCAT_H
#define TFCC_KERNELS_CONCAT_CONCAT_H

#include <stddef.h>
#include <stdint.h>

/* out = in[0..n) joined: out + k * sum(inner_bytes) + offset_i <- in[i] + k * inner_bytes[i]. */
void tfcc_concat_copy(int32_t n, const void *const *in, const size_t *inner_bytes, int64_t outer,
                      void *out);

/* Inverse: out[i] + k * inner_bytes[i] <- in + k * sum(inner_bytes) + offset_i. */
void tfcc_split_copy(const void *in, int32_t n, void *const *out, const size_t *inner_bytes,
                     int64_t outer);

/* One strided part: for k < outer, dst + k * dst_stride <- src + k * src_stride, `bytes` each
 * (the building block of both; also used for the 8-bit requantizing concatenation and for the
 * innermost runs of kernels/move). Strides in bytes, signed: a source stride may be 0
 * (broadcast) or negative (reversed); destination blocks never overlap. */
void tfcc_copy_blocks(void *dst, int64_t dst_stride, const void *src, int64_t src_stride,
                      size_t bytes, int64_t outer);

#endif
