/* DILATE (reference), TFLite's dilate.cc: out has dims (d - 1) * f + 1 per dimension; out at
 * (i0 f0, i1 f1, ...) is in[i0, i1, ...], every other element is the padding value. Raw bytes
 * of any element size. */
#ifndef TFCC_KERNELS_REF_DILATE_H
#define TFCC_KERNELS_REF_DILATE_H

#include <stddef.h>
#include <stdint.h>

/* in of shape dims[rank] (rank <= TFCC_MAX_DIMS, each >= 1), factors[rank] >= 1, pad: one element of es bytes. */
void tfcc_ref_dilate(const uint8_t *in, const int32_t *dims, const int32_t *factors, int32_t rank,
                     size_t es, const uint8_t *pad, uint8_t *out);

#endif
