/* STABLEHLO_SCATTER: see shlo_scatter.h. */
#include "kernels/ref/shlo_scatter.h"

#include "kernels/ref/shlo_util.h"

bool tfcc_ref_shlo_scatter_supported(tfcc_dtype dt) { return tfcc_shlo_numeric_dtype(dt); }

/* out[target] = combine(out[target], updates[n]); ADD / MUL of integers through unsigned U. */
#define SC_APPLY(T, ADD, MUL) \
  { \
    T *o = (T *)out + target; \
    const T u = ((const T *)a->updates)[n]; \
    switch (a->fn) { \
      case TFCC_SCATTER_UPDATE: *o = u; break; \
      case TFCC_SCATTER_ADD: *o = ADD; break; \
      case TFCC_SCATTER_MUL: *o = MUL; break; \
      case TFCC_SCATTER_MAX: *o = *o < u ? u : *o; break; \
      case TFCC_SCATTER_MIN: *o = u < *o ? u : *o; break; \
    } \
    break; \
  }
#define SC_INT(T, U) SC_APPLY(T, (T)(U)((uint64_t)(U)*o + (U)u), (T)(U)((uint64_t)(U)*o * (U)u))
#define SC_FLT(T) SC_APPLY(T, *o + u, *o * u)

bool tfcc_ref_shlo_scatter(const tfcc_shlo_scatter_args *a, void *out) {
  if (!tfcc_ref_shlo_scatter_supported(a->dtype)) return false;
  int64_t istride[TFCC_MAX_DIMS], ostride[TFCC_MAX_DIMS], n_up = 1;
  tfcc_shlo_strides(a->operand_dims, a->operand_rank, ostride);
  for (int32_t k = 0; k < a->updates_rank; k++) n_up *= a->updates_dims[k];
  tfcc_shlo_strides(a->indices.dims, a->indices.rank, istride);
  int64_t ui[TFCC_MAX_DIMS] = {0};
  for (int64_t n = 0; n < n_up; n++) {
    int64_t win[TFCC_MAX_DIMS] = {0}, start[TFCC_MAX_DIMS];
    tfcc_shlo_start(&a->indices, istride, ui, a->updates_rank, a->update_window_dims,
                    a->n_update_window, a->scatter_dims_to_operand_dims, a->n_scatter_dims, win,
                    start);
    int64_t target = 0;
    bool inside = true;
    for (int32_t d = 0, j = 0; d < a->operand_rank; d++) {
      /* start: any int32 / int64 value of start_indices; w: an update index, in int32 */
      const int64_t s = start[d], w = tfcc_shlo_contains(a->inserted_window_dims, a->n_inserted, d)
                                          ? 0
                                          : win[j++];
      inside = inside && s >= -w && s < a->operand_dims[d] && s + w < a->operand_dims[d];
      if (inside) target += (s + w) * ostride[d];
    }
    if (inside) {
      switch (a->dtype) {
        TFCC_SHLO_NUMERIC_CASES(SC_INT, SC_FLT)
        default: return false;
      }
    }
    for (int32_t d = a->updates_rank - 1; d >= 0;
         d--) { /* next update index, last dimension fastest */
      if (++ui[d] < a->updates_dims[d]) break;
      ui[d] = 0;
    }
  }
  return true;
}
