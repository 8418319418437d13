/* Expands a TFLite sparse tensor (SparsityParameters: traversal order, block map, per-level
 * dense / CSR metadata) into its dense row-major form, following TFLite's FormatConverter
 * (SparseToDense / Populate): levels are visited in traversal order, the first `rank` levels are
 * the (blocked) original dimensions, the rest are block dimensions mapped by block_map. Every
 * index, segment and value position is bounds-checked. */
#ifndef TFCC_KERNELS_REF_DENSIFY_H
#define TFCC_KERNELS_REF_DENSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/sparsity.h"

/* dst (product(dims) * es bytes) is zero-filled, then the n_values values of src placed. */
tfcc_status tfcc_ref_densify(const tfcc_sparsity *sp, int32_t rank, const int32_t *dims,
                             const void *src, int64_t n_values, size_t es, void *dst,
                             tfcc_err *err);

#endif
