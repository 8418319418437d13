/* STABLEHLO_SCATTER (reference), the StableHLO spec's scatter as TFLite's stablehlo_scatter.cc
 * computes it: out = operand; then for each element of updates in row-major order, its scatter
 * dimensions (those not in update_window_dims) select an index vector of scatter_indices
 * (along index_vector_dim; one element when that is the indices' rank), placed into operand
 * dimensions by scatter_dims_to_operand_dims; its window dimensions, with a 0 inserted at each
 * inserted_window_dims position, are added; an element whose target falls outside the operand
 * is skipped (TFLite skips targets past the end; tfcc also those below 0, where TFLite writes
 * out of bounds); otherwise out[target] = combine(out[target], update): UPDATE (the update),
 * ADD, MUL (integers wrap), MAX (std::max), MIN (std::min). */
#ifndef TFCC_KERNELS_REF_SHLO_SCATTER_H
#define TFCC_KERNELS_REF_SHLO_SCATTER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/shlo_util.h"
#include "tfcc/tfcc.h"

typedef enum tfcc_scatter_fn {
  TFCC_SCATTER_UPDATE,
  TFCC_SCATTER_ADD,
  TFCC_SCATTER_MUL,
  TFCC_SCATTER_MAX,
  TFCC_SCATTER_MIN
} tfcc_scatter_fn;

typedef struct tfcc_shlo_scatter_args {
  tfcc_scatter_fn fn;
  tfcc_dtype dtype; /* int8..int64, uint8..uint64, float32, float64 */
  const int32_t *operand_dims;
  int32_t operand_rank;
  tfcc_shlo_index_args indices; /* scatter_indices */
  const void *updates;
  const int32_t *updates_dims;
  int32_t updates_rank;
  const int64_t *update_window_dims, *inserted_window_dims, *scatter_dims_to_operand_dims;
  int32_t n_update_window, n_inserted, n_scatter_dims;
} tfcc_shlo_scatter_args;

bool tfcc_ref_shlo_scatter_supported(tfcc_dtype dt);

/* out holds the operand's values on entry. The caller checks the options against the shapes
 * (the updates' scatter dimensions equal the indices' batch dimensions). */
bool tfcc_ref_shlo_scatter(const tfcc_shlo_scatter_args *a, void *out);

#endif
