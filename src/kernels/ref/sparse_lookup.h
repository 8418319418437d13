/* EMBEDDING_LOOKUP_SPARSE (reference), TFLite's embedding_lookup_sparse.cc: a sparse tensor
 * (ids [n], indices [n, lookup_rank], dense_shape [lookup_rank]) with one float weight per id
 * selects rows of params [rows, emb...]; the rows of each bucket (the flat position of an
 * entry's first lookup_rank - 1 indices in dense_shape; the last index is ignored) are summed,
 * each times its weight, then divided by the bucket's total weight (MEAN) or by the square
 * root of its sum of squared weights (SQRTN). As TFLite, a bucket is closed whenever the next
 * entry's bucket differs: entries that come back to an earlier bucket are combined again over
 * what it holds (ids are expected sorted). All in float32, in entry order. */
#ifndef TFCC_KERNELS_REF_SPARSE_LOOKUP_H
#define TFCC_KERNELS_REF_SPARSE_LOOKUP_H

#include <stdint.h>

typedef enum tfcc_els_combiner {
  TFCC_ELS_SUM = 0,
  TFCC_ELS_MEAN = 1,
  TFCC_ELS_SQRTN = 2
} tfcc_els_combiner;

typedef struct tfcc_els_args {
  tfcc_els_combiner combiner;
  const int32_t *ids;         /* [n] */
  const int32_t *indices;     /* [n, lookup_rank] */
  const int32_t *dense_shape; /* [lookup_rank] */
  const float *weights;       /* [n] */
  const float *params;        /* [rows, emb] */
  int32_t n, lookup_rank, rows;
  int64_t emb;     /* elements per params row */
  int64_t buckets; /* product of dense_shape[0 .. lookup_rank - 1) */
} tfcc_els_args;

/* Writes out[buckets * emb]. Returns -1 on success, else the entry whose id is outside
 * [0, rows) or whose index is outside [0, dense_shape[k]) (*bad_dim = -1 for the id, else k). */
int32_t tfcc_ref_embedding_lookup_sparse(const tfcc_els_args *a, float *out, int32_t *bad_dim);

#endif
