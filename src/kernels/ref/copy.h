/* Data movement kernels shared by the shape operators: strided N-d copies, concatenation
 * and splitting of byte blocks, uint8 requantizing concatenation, tiling and fills.
 * Elements are opaque blocks of `es` bytes (1, 2, 4 or 8), so one kernel serves every dtype. */
#ifndef TFCC_KERNELS_REF_COPY_H
#define TFCC_KERNELS_REF_COPY_H

#include <stddef.h>
#include <stdint.h>

/* Copies an N-d box: for every index i in dims (rank <= 16),
 *   out[out_off + sum(i[d] * out_strides[d])] = in[in_off + sum(i[d] * in_strides[d])]
 * Offsets and strides count elements (strides may be 0 or negative). rank 0 copies one element.
 * Runs where both innermost strides are 1 are copied with memcpy. */
void tfcc_ref_copy_nd(int32_t rank, const int32_t *dims, const void *in, int64_t in_off,
                      const int64_t *in_strides, void *out, int64_t out_off,
                      const int64_t *out_strides, size_t es);

/* Row-major element strides of a shape. */
void tfcc_ref_strides(int32_t rank, const int32_t *dims, int64_t *strides);

/* out = concat over inputs along one axis: for each of `outer` steps, input i contributes
 * inner_bytes[i] contiguous bytes. */
void tfcc_ref_concat(int32_t n, const void *const *in, const size_t *inner_bytes, int64_t outer,
                     void *out);
/* Inverse of tfcc_ref_concat. */
void tfcc_ref_split(const void *in, int32_t n, void *const *out, const size_t *inner_bytes,
                    int64_t outer);

/* uint8 concatenation with rescaling, as TFLite's ConcatenationWithScaling: an input whose
 * (scale, zero point) equals the output's is copied, others become
 *   clamp(round(q * (s_in * (1/s_out)) + (-zp_in * scale)) + zp_out, 0, 255)   in float. */
void tfcc_ref_concat_u8_scaled(int32_t n, const uint8_t *const *in, const int64_t *inner,
                               int64_t outer, const float *in_scale, const int32_t *in_zp,
                               float out_scale, int32_t out_zp, uint8_t *out);

/* Fills n elements of es bytes with the element at value. */
void tfcc_ref_fill(void *out, int64_t n, const void *value, size_t es);

/* TILE: out dims = in dims * multiples. */
void tfcc_ref_tile(const void *in, int32_t rank, const int32_t *in_dims, const int64_t *multiples,
                   size_t es, void *out);

#endif
