/* STABLEHLO_PAD (reference), the StableHLO spec's pad as TFLite's stablehlo_pad.cc computes
 * it: out is the padding value everywhere except at out[low + j * (interior + 1)] = in[j] for
 * every input index j whose position lies inside out (a negative low / high crops). Raw bytes
 * of any element size. */
#ifndef TFCC_KERNELS_REF_SHLO_PAD_H
#define TFCC_KERNELS_REF_SHLO_PAD_H

#include <stddef.h>
#include <stdint.h>

/* in of shape in_dims[rank] (rank <= TFCC_MAX_DIMS), out of shape out_dims[rank] (each >= 0),
 * low[rank], interior[rank] >= 0; pad: one element of es bytes. */
void tfcc_ref_shlo_pad(const uint8_t *in, const int32_t *in_dims, const int32_t *out_dims,
                       const int64_t *low, const int64_t *interior, int32_t rank, size_t es,
                       const uint8_t *pad, uint8_t *out);

#endif
