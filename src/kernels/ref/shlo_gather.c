/* STABLEHLO_GATHER: see shlo_gather.h. */
#include "kernels/ref/shlo_gather.h"

#include <string.h>

#include "kernels/ref/shlo_util.h"
#include "tfcc/tfcc.h"

void tfcc_ref_shlo_gather(const tfcc_shlo_gather_args *a, uint8_t *out) {
  int64_t n_out = 1;
  for (int32_t k = 0; k < a->out_rank; k++) n_out *= a->out_dims[k];
  int64_t istride[TFCC_MAX_DIMS + 1], ostride_op[TFCC_MAX_DIMS];
  tfcc_shlo_strides(a->operand_dims, a->operand_rank, ostride_op);
  tfcc_shlo_strides(a->indices.dims, a->indices.rank, istride);
  int64_t idx[TFCC_MAX_DIMS] = {0};
  for (int64_t o = 0; o < n_out; o++) {
    /* the output index's offset part, and the start its batch part selects */
    int64_t offset[TFCC_MAX_DIMS] = {0}, start[TFCC_MAX_DIMS];
    tfcc_shlo_start(&a->indices, istride, idx, a->out_rank, a->offset_dims, a->n_offset,
                    a->start_index_map, a->n_start, offset, start);
    int64_t src = 0;
    for (int32_t d = 0, j = 0; d < a->operand_rank; d++) {
      int64_t st = start[d];
      const int64_t hi = a->operand_dims[d] - a->slice_sizes[d];
      st = st < hi ? st : hi;
      st = st > 0 ? st : 0;
      const int64_t off = tfcc_shlo_contains(a->collapsed, a->n_collapsed, d) ? 0 : offset[j++];
      src += (st + off) * ostride_op[d];
    }
    memcpy(out + (size_t)o * a->es, a->operand + (size_t)src * a->es, a->es);
    for (int32_t d = a->out_rank - 1; d >= 0; d--) { /* next output index, last dimension fastest */
      if (++idx[d] < a->out_dims[d]) break;
      idx[d] = 0;
    }
  }
}
