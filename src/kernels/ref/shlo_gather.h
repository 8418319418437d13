/* STABLEHLO_GATHER (reference), the StableHLO spec's gather as TFLite's stablehlo_gather.cc
 * computes it: for each output index, its batch dimensions (those not in offset_dims) select an
 * index vector of start_indices (along index_vector_dim; a vector of one element when
 * index_vector_dim is start_indices' rank), scattered into operand dimensions by
 * start_index_map and clamped to [0, operand dim - slice size]; the offset dimensions, with a 0
 * inserted at each collapsed_slice_dims position, are added to it. Raw bytes of any element
 * size; int32 or int64 indices. */
#ifndef TFCC_KERNELS_REF_SHLO_GATHER_H
#define TFCC_KERNELS_REF_SHLO_GATHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/shlo_util.h"

typedef struct tfcc_shlo_gather_args {
  const uint8_t *operand;
  const int32_t *operand_dims;
  int32_t operand_rank;
  tfcc_shlo_index_args indices; /* start_indices */
  const int32_t *out_dims;
  int32_t out_rank;
  const int64_t *offset_dims, *collapsed, *start_index_map, *slice_sizes;
  int32_t n_offset, n_collapsed, n_start;
  size_t es;
} tfcc_shlo_gather_args;

/* Operands checked by the caller: every dimension and option in range (slice_sizes[d] <=
 * operand_dims[d], 1 in collapsed dimensions), so that every read is inside the operand. */
void tfcc_ref_shlo_gather(const tfcc_shlo_gather_args *a, uint8_t *out);

#endif
