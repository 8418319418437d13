/* STABLEHLO_GATHER: see shlo_gather.h. */
#include "kernels/ref/shlo_gather.h"

#include <string.h>

#include "tfcc/tfcc.h"

static bool contains(const int64_t *v, int32_t n, int64_t x) {
  for (int32_t i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

static int64_t index_at(const tfcc_shlo_gather_args *a, int64_t flat) {
  return a->indices_i64 ? ((const int64_t *)a->indices)[flat] : ((const int32_t *)a->indices)[flat];
}

void tfcc_ref_shlo_gather(const tfcc_shlo_gather_args *a, uint8_t *out) {
  int64_t n_out = 1;
  for (int32_t k = 0; k < a->out_rank; k++) n_out *= a->out_dims[k];
  int64_t istride[TFCC_MAX_DIMS + 1], ostride_op[TFCC_MAX_DIMS];
  int64_t s = 1;
  for (int32_t k = a->indices_rank - 1; k >= 0; k--) {
    istride[k] = s;
    s *= a->indices_dims[k];
  }
  s = 1;
  for (int32_t k = a->operand_rank - 1; k >= 0; k--) {
    ostride_op[k] = s;
    s *= a->operand_dims[k];
  }
  const bool implicit = a->index_vector_dim >= a->indices_rank; /* one-element index vectors */
  int64_t idx[TFCC_MAX_DIMS] = {0};
  for (int64_t o = 0; o < n_out; o++) {
    /* split the output index into batch and offset indices */
    int64_t batch[TFCC_MAX_DIMS] = {0}, offset[TFCC_MAX_DIMS] = {0};
    int32_t nb = 0, no = 0;
    for (int32_t d = 0; d < a->out_rank; d++) {
      if (contains(a->offset_dims, a->n_offset, d))
        offset[no++] = idx[d];
      else
        batch[nb++] = idx[d];
    }
    /* the flat position in start_indices of the index vector's first element */
    int64_t base = 0;
    for (int32_t d = 0, b = 0; d < a->indices_rank; d++) {
      if (!implicit && d == a->index_vector_dim) continue;
      base += batch[b++] * istride[d];
    }
    const int64_t vstep = implicit ? 0 : istride[a->index_vector_dim];
    int64_t start[TFCC_MAX_DIMS] = {0};
    for (int32_t k = 0; k < a->n_start; k++)
      start[a->start_index_map[k]] = index_at(a, base + k * vstep);
    int64_t src = 0;
    for (int32_t d = 0, j = 0; d < a->operand_rank; d++) {
      int64_t st = start[d];
      const int64_t hi = a->operand_dims[d] - a->slice_sizes[d];
      st = st < hi ? st : hi;
      st = st > 0 ? st : 0;
      const int64_t off = contains(a->collapsed, a->n_collapsed, d) ? 0 : offset[j++];
      src += (st + off) * ostride_op[d];
    }
    memcpy(out + (size_t)o * a->es, a->operand + (size_t)src * a->es, a->es);
    for (int32_t d = a->out_rank - 1; d >= 0; d--) { /* next output index, last dimension fastest */
      if (++idx[d] < a->out_dims[d]) break;
      idx[d] = 0;
    }
  }
}
