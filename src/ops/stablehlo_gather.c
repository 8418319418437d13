/* STABLEHLO_GATHER (TFLite stablehlo_gather.cc, StableHLO spec "gather"): inputs (operand, start
 * indices int32/int64); StablehloGatherOptions offset_dims, collapsed_slice_dims,
 * start_index_map, index_vector_dim, slice_sizes (indices_are_sorted read past). Output: the
 * batch dimensions of start_indices (without index_vector_dim) with the slice dimensions that are
 * not collapsed placed at offset_dims; start indices are clamped into the operand, so every
 * index value is valid (kernels/ref/shlo_gather.h). Any fixed-size dtype (bytes copied). tfcc
 * checks the options against the shapes at prepare (TFLite trusts them): slice sizes within the
 * operand (1 in collapsed dimensions), dimension lists in range and without repeats, offset_dims
 * ascending. An
 * index_vector_dim equal to start_indices' rank means one-element index vectors (the spec). */
#include "kernels/ref/shlo_gather.h"
#include "ops/shape_ops_util.h"

#define OP "STABLEHLO_GATHER"

static tfcc_status gather_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *x, *ix;
  tfcc_tensor **const ins[] = {&x, &ix};
  tfcc_status st = tfcc_so_open_n(ctx, OP, 2, 1, ins);
  if (st) return st;
  TFCC_OP_CHECK(ctx, tfcc_so_elem_size(x->dtype) != 0, TFCC_ERR_UNSUPPORTED,
                OP ": input 0 (operand) dtype %s is not supported (fixed-size dtypes)",
                tfcc_dtype_name(x->dtype));
  TFCC_OP_CHECK(ctx, ix->dtype == TFCC_INT32 || ix->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": input 1 (start_indices) dtype %s, expected int32 or int64",
                tfcc_dtype_name(ix->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], x->dtype))) return st;
  const tfcc_stablehlo_gather_options *g = &ctx->node->opts.shlo_gather;
  const int32_t r = x->rank;
  TFCC_OP_CHECK(ctx, g->n_slice_sizes == (uint32_t)r, TFCC_ERR_INVALID_MODEL,
                OP ": slice_sizes has %u entries, the operand rank is %d",
                (unsigned)g->n_slice_sizes, (int)r);
  for (int32_t d = 0; d < r; d++)
    TFCC_OP_CHECK(ctx, g->slice_sizes[d] >= 0 && g->slice_sizes[d] <= x->dims[d],
                  TFCC_ERR_INVALID_MODEL,
                  OP ": slice_sizes[%d] = %lld outside [0, %d] (operand dimension)", (int)d,
                  (long long)g->slice_sizes[d], (int)x->dims[d]);
  TFCC_OP_CHECK(
      ctx,
      g->n_collapsed_slice_dims <= (uint32_t)r &&
          tfcc_so_dim_list_ok(g->collapsed_slice_dims, g->n_collapsed_slice_dims, r, false),
      TFCC_ERR_INVALID_MODEL, OP ": collapsed_slice_dims must be distinct operand dimensions");
  for (uint32_t k = 0; k < g->n_collapsed_slice_dims;
       k++) /* the spec's rule; it keeps reads inside */
    TFCC_OP_CHECK(ctx, g->slice_sizes[g->collapsed_slice_dims[k]] == 1, TFCC_ERR_INVALID_MODEL,
                  OP ": collapsed dimension %lld has slice size %lld (must be 1)",
                  (long long)g->collapsed_slice_dims[k],
                  (long long)g->slice_sizes[g->collapsed_slice_dims[k]]);
  TFCC_OP_CHECK(ctx, g->index_vector_dim >= 0 && g->index_vector_dim <= ix->rank,
                TFCC_ERR_INVALID_MODEL, OP ": index_vector_dim %lld outside [0, %d]",
                (long long)g->index_vector_dim, (int)ix->rank);
  const bool implicit = g->index_vector_dim == ix->rank;
  const int64_t vlen = implicit ? 1 : ix->dims[g->index_vector_dim];
  TFCC_OP_CHECK(
      ctx,
      g->n_start_index_map == (uint64_t)vlen && g->n_start_index_map <= (uint32_t)r &&
          tfcc_so_dim_list_ok(g->start_index_map, g->n_start_index_map, r, false),
      TFCC_ERR_INVALID_MODEL,
      OP
      ": start_index_map (%u entries) must name %lld distinct operand dimensions (the index "
      "vector's length)",
      (unsigned)g->n_start_index_map, (long long)vlen);
  const int32_t n_batch = ix->rank - (implicit ? 0 : 1);
  const int32_t n_off = r - (int32_t)g->n_collapsed_slice_dims;
  const int32_t out_rank = n_batch + n_off;
  TFCC_OP_CHECK(ctx, out_rank <= TFCC_MAX_RANK, TFCC_ERR_SHAPE, OP ": output rank %d exceeds %d",
                (int)out_rank, TFCC_MAX_RANK);
  TFCC_OP_CHECK(ctx,
                g->n_offset_dims == (uint32_t)n_off &&
                    tfcc_so_dim_list_ok(g->offset_dims, g->n_offset_dims, out_rank, true),
                TFCC_ERR_INVALID_MODEL,
                OP ": offset_dims (%u entries) must be %d ascending output dimensions below %d",
                (unsigned)g->n_offset_dims, (int)n_off, (int)out_rank);
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0, b = 0, s = 0; d < out_rank; d++) {
    bool is_off = false;
    for (uint32_t k = 0; k < g->n_offset_dims; k++) is_off |= g->offset_dims[k] == d;
    if (is_off) {
      while (s < r) { /* the next slice dimension that is not collapsed */
        bool collapsed = false;
        for (uint32_t k = 0; k < g->n_collapsed_slice_dims; k++)
          collapsed |= g->collapsed_slice_dims[k] == s;
        if (!collapsed) break;
        s++;
      }
      dims[d] = g->slice_sizes[s++];
    } else {
      if (!implicit && b == g->index_vector_dim) b++;
      dims[d] = ix->dims[b++];
    }
  }
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], out_rank, dims);
}

static tfcc_status gather_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *x = ctx->in[0], *ix = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const tfcc_stablehlo_gather_options *g = &ctx->node->opts.shlo_gather;
  const tfcc_shlo_gather_args a = {.operand = x->data,
                                   .operand_dims = x->dims,
                                   .operand_rank = x->rank,
                                   .indices = {ix->data, ix->dtype == TFCC_INT64, ix->dims,
                                               ix->rank, (int32_t)g->index_vector_dim},
                                   .out_dims = out->dims,
                                   .out_rank = out->rank,
                                   .offset_dims = g->offset_dims,
                                   .collapsed = g->collapsed_slice_dims,
                                   .start_index_map = g->start_index_map,
                                   .slice_sizes = g->slice_sizes,
                                   .n_offset = (int32_t)g->n_offset_dims,
                                   .n_collapsed = (int32_t)g->n_collapsed_slice_dims,
                                   .n_start = (int32_t)g->n_start_index_map,
                                   .es = tfcc_so_elem_size(x->dtype)};
  tfcc_ref_shlo_gather(&a, out->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_stablehlo_gather = {
    .name = OP, .prepare = gather_prepare, .eval = gather_eval};
