/* STABLEHLO_SCATTER: see shlo_scatter.h. */
#include "kernels/ref/shlo_scatter.h"

static bool contains(const int64_t *v, int32_t n, int64_t x) {
  for (int32_t i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

bool tfcc_ref_shlo_scatter_supported(tfcc_dtype dt) {
  switch (dt) {
    case TFCC_INT8:
    case TFCC_INT16:
    case TFCC_INT32:
    case TFCC_INT64:
    case TFCC_UINT8:
    case TFCC_UINT16:
    case TFCC_UINT32:
    case TFCC_UINT64:
    case TFCC_FLOAT32:
    case TFCC_FLOAT64: return true;
    default: return false;
  }
}

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
  int64_t istride[TFCC_MAX_DIMS], ostride[TFCC_MAX_DIMS], n_up = 1, s = 1;
  for (int32_t k = a->indices_rank - 1; k >= 0; k--) {
    istride[k] = s;
    s *= a->indices_dims[k];
  }
  s = 1;
  for (int32_t k = a->operand_rank - 1; k >= 0; k--) {
    ostride[k] = s;
    s *= a->operand_dims[k];
  }
  for (int32_t k = 0; k < a->updates_rank; k++) n_up *= a->updates_dims[k];
  const bool implicit = a->index_vector_dim >= a->indices_rank;
  int64_t ui[TFCC_MAX_DIMS] = {0};
  for (int64_t n = 0; n < n_up; n++) {
    int64_t batch[TFCC_MAX_DIMS] = {0}, win[TFCC_MAX_DIMS] = {0};
    int32_t nb = 0, nw = 0;
    for (int32_t d = 0; d < a->updates_rank; d++) {
      if (contains(a->update_window_dims, a->n_update_window, d))
        win[nw++] = ui[d];
      else
        batch[nb++] = ui[d];
    }
    int64_t base = 0;
    for (int32_t d = 0, b = 0; d < a->indices_rank; d++) {
      if (!implicit && d == a->index_vector_dim) continue;
      base += batch[b++] * istride[d];
    }
    const int64_t vstep = implicit ? 0 : istride[a->index_vector_dim];
    int64_t start[TFCC_MAX_DIMS] = {0};
    for (int32_t k = 0; k < a->n_scatter_dims; k++) {
      const int64_t f = base + k * vstep;
      start[a->scatter_dims_to_operand_dims[k]] =
          a->indices_i64 ? ((const int64_t *)a->indices)[f] : ((const int32_t *)a->indices)[f];
    }
    int64_t target = 0;
    bool inside = true;
    for (int32_t d = 0, j = 0; d < a->operand_rank; d++) {
      const int64_t p =
          start[d] + (contains(a->inserted_window_dims, a->n_inserted, d) ? 0 : win[j++]);
      inside = inside && p >= 0 && p < a->operand_dims[d];
      target += p * ostride[d];
    }
    if (inside) {
      switch (a->dtype) {
        case TFCC_INT8: SC_INT(int8_t, uint8_t)
        case TFCC_INT16: SC_INT(int16_t, uint16_t)
        case TFCC_INT32: SC_INT(int32_t, uint32_t)
        case TFCC_INT64: SC_INT(int64_t, uint64_t)
        case TFCC_UINT8: SC_INT(uint8_t, uint8_t)
        case TFCC_UINT16: SC_INT(uint16_t, uint16_t)
        case TFCC_UINT32: SC_INT(uint32_t, uint32_t)
        case TFCC_UINT64: SC_INT(uint64_t, uint64_t)
        case TFCC_FLOAT32: SC_FLT(float)
        case TFCC_FLOAT64: SC_FLT(double)
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
