/* The sparse encoding of a constant tensor (TFLite's SparsityParameters): traversal order,
 * block map and per-level dense / CSR metadata, with the index vectors left in the file's
 * little-endian bytes. Filled by the model reader, stored on the IR tensor, walked by the
 * densify kernel (kernels/ref/densify.h). */
#ifndef TFCC_BASE_SPARSITY_H
#define TFCC_BASE_SPARSITY_H

#include <stdint.h>

/* Index vector of a sparse dimension (SparseIndexVector union). */
typedef enum tfcc_sparse_index_type {
  TFCC_SPARSE_IDX_NONE = 0,
  TFCC_SPARSE_IDX_I32 = 1,
  TFCC_SPARSE_IDX_U16 = 2,
  TFCC_SPARSE_IDX_U8 = 3
} tfcc_sparse_index_type;

typedef struct tfcc_sparse_index {
  tfcc_sparse_index_type type;
  uint32_t count;
  const uint8_t
      *data; /* little-endian elements inside the file (read with tfcc_sparse_index_get) */
} tfcc_sparse_index;

typedef struct tfcc_dim_meta {
  int32_t format; /* 0 dense, 1 sparse CSR */
  int32_t dense_size;
  tfcc_sparse_index segments;
  tfcc_sparse_index indices;
} tfcc_dim_meta;

typedef struct tfcc_sparsity {
  int32_t n_traversal;
  int32_t *traversal_order;
  int32_t n_block_map;
  int32_t *block_map;
  int32_t n_dim_meta;
  tfcc_dim_meta *dim_meta;
} tfcc_sparsity;

static inline int32_t tfcc_sparse_index_get(const tfcc_sparse_index *v, uint32_t i) {
  const uint8_t *p = v->data;
  switch (v->type) {
    case TFCC_SPARSE_IDX_I32: {
      uint32_t u = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
                   (uint32_t)p[4 * i + 3] << 24;
      return (int32_t)u;
    }
    case TFCC_SPARSE_IDX_U16: return (int32_t)((uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8);
    case TFCC_SPARSE_IDX_U8: return p[i];
    default: return 0;
  }
}

#endif
