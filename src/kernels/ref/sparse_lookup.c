/* EMBEDDING_LOOKUP_SPARSE: see sparse_lookup.h. */
#include "kernels/ref/sparse_lookup.h"

#include <math.h>
#include <string.h>

static void finish_bucket(tfcc_els_combiner c, int32_t count, float total, float squares,
                          int64_t emb, float *row) {
  if (c == TFCC_ELS_SUM || count == 0) return;
  const float div = c == TFCC_ELS_MEAN ? total : sqrtf(squares);
  for (int64_t k = 0; k < emb; k++) row[k] /= div;
}

int32_t tfcc_ref_embedding_lookup_sparse(const tfcc_els_args *a, float *out, int32_t *bad_dim) {
  if (a->buckets * a->emb > 0) memset(out, 0, (size_t)(a->buckets * a->emb) * sizeof(float));
  int64_t cur = 0; /* offset of the open bucket */
  float total = 0.f, squares = 0.f;
  int32_t count = 0;
  for (int32_t i = 0; i < a->n; i++) {
    const int32_t id = a->ids[i];
    if (id < 0 || id >= a->rows) {
      *bad_dim = -1;
      return i;
    }
    const int32_t *ix = a->indices + (int64_t)i * a->lookup_rank;
    int64_t bucket = 0, stride = 1;
    for (int32_t k = a->lookup_rank - 2; k >= 0; k--) {
      if (ix[k] < 0 || ix[k] >= a->dense_shape[k]) {
        *bad_dim = k;
        return i;
      }
      bucket += (int64_t)ix[k] * stride;
      stride *= a->dense_shape[k];
    }
    const int64_t off = bucket * a->emb;
    if (off != cur) {
      finish_bucket(a->combiner, count, total, squares, a->emb, out + cur);
      count = 0;
      total = squares = 0.f;
      cur = off;
    }
    count++;
    const float w = a->weights[i];
    squares += w * w;
    total += w;
    const float *row = a->params + (int64_t)id * a->emb;
    for (int64_t k = 0; k < a->emb; k++) out[cur + k] += row[k] * w;
  }
  if (a->buckets * a->emb > 0) finish_bucket(a->combiner, count, total, squares, a->emb, out + cur);
  return -1;
}
