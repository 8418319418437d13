/* STABLEHLO_SCATTER (TFLite stablehlo_scatter.cc, StableHLO spec "scatter"): inputs (operand,
 * scatter_indices int32/int64, updates of the operand's dtype); StablehloScatterOptions
 * update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims, index_vector_dim,
 * update_computation_subgraph_index (indices_are_sorted, unique_indices read past). Output: the
 * operand with each update combined in (kernels/ref/shlo_scatter.h); as TFLite, the update
 * computation is not run: its subgraph holds no operator (the update replaces) or exactly one
 * of STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM, STABLEHLO_MINIMUM. Updates that land
 * outside the operand are skipped. int8..int64, uint8..uint64, float32, float64. tfcc checks the
 * options against the shapes at prepare (TFLite trusts them). */
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/shlo_scatter.h"
#include "ops/shape_ops_util.h"

#define OP "STABLEHLO_SCATTER"

typedef struct scatter_params {
  tfcc_scatter_fn fn;
} scatter_params;

static tfcc_status scatter_init(tfcc_init_ctx *ctx) {
  const int32_t b = ctx->node->opts.shlo_scatter.update_computation_subgraph;
  if (b < 0 || b >= ctx->graph->n_subgraphs)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_INVALID_MODEL,
        OP ": update_computation_subgraph_index %d is out of range (the model has %d subgraphs)",
        (int)b, (int)ctx->graph->n_subgraphs);
  const tfcc_ir_subgraph *body = &ctx->graph->subgraphs[b];
  tfcc_scatter_fn fn = TFCC_SCATTER_UPDATE;
  if (body->n_nodes > 1)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_UNSUPPORTED,
        OP ": update computation subgraph %d has %d operators; TFLite runs at most one", (int)b,
        (int)body->n_nodes);
  if (body->n_nodes == 1) {
    switch (body->nodes[0].builtin) {
      case TFCC_OP_STABLEHLO_ADD: fn = TFCC_SCATTER_ADD; break;
      case TFCC_OP_STABLEHLO_MULTIPLY: fn = TFCC_SCATTER_MUL; break;
      case TFCC_OP_STABLEHLO_MAXIMUM: fn = TFCC_SCATTER_MAX; break;
      case TFCC_OP_STABLEHLO_MINIMUM: fn = TFCC_SCATTER_MIN; break;
      default:
        return tfcc_err_set(
            ctx->err, TFCC_ERR_UNSUPPORTED,
            OP
            ": update computation subgraph %d's operator %s is not supported (STABLEHLO_ADD, "
            "_MULTIPLY, _MAXIMUM, _MINIMUM, or none)",
            (int)b, tfcc_builtin_name(body->nodes[0].builtin));
    }
  }
  scatter_params *p = malloc(sizeof *p);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  p->fn = fn;
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status scatter_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *x, *ix, *up;
  tfcc_tensor **const ins[] = {&x, &ix, &up};
  tfcc_status st = tfcc_so_open_n(ctx, OP, 3, 1, ins);
  if (st) return st;
  TFCC_OP_CHECK(
      ctx, tfcc_ref_shlo_scatter_supported(x->dtype), TFCC_ERR_UNSUPPORTED,
      OP
      ": input 0 (operand) dtype %s is not supported (int8..int64, uint8..uint64, float32, float64)",
      tfcc_dtype_name(x->dtype));
  TFCC_OP_CHECK(ctx, ix->dtype == TFCC_INT32 || ix->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": input 1 (scatter_indices) dtype %s, expected int32 or int64",
                tfcc_dtype_name(ix->dtype));
  TFCC_OP_CHECK(ctx, up->dtype == x->dtype, TFCC_ERR_DTYPE,
                OP ": input 2 (updates) dtype %s differs from the operand's %s",
                tfcc_dtype_name(up->dtype), tfcc_dtype_name(x->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], x->dtype))) return st;
  const tfcc_stablehlo_scatter_options *o = &ctx->node->opts.shlo_scatter;
  TFCC_OP_CHECK(ctx, o->index_vector_dim >= 0 && o->index_vector_dim <= ix->rank,
                TFCC_ERR_INVALID_MODEL, OP ": index_vector_dim %lld outside [0, %d]",
                (long long)o->index_vector_dim, (int)ix->rank);
  const bool implicit = o->index_vector_dim == ix->rank;
  const int64_t vlen = implicit ? 1 : ix->dims[o->index_vector_dim];
  TFCC_OP_CHECK(
      ctx,
      o->n_scatter_dims_to_operand_dims == (uint64_t)vlen &&
          o->n_scatter_dims_to_operand_dims <= (uint32_t)x->rank &&
          tfcc_so_dim_list_ok(o->scatter_dims_to_operand_dims, o->n_scatter_dims_to_operand_dims,
                              x->rank, false),
      TFCC_ERR_INVALID_MODEL,
      OP ": scatter_dims_to_operand_dims (%u entries) must name %lld distinct operand dimensions",
      (unsigned)o->n_scatter_dims_to_operand_dims, (long long)vlen);
  TFCC_OP_CHECK(
      ctx,
      o->n_update_window_dims <= (uint32_t)up->rank &&
          tfcc_so_dim_list_ok(o->update_window_dims, o->n_update_window_dims, up->rank, true),
      TFCC_ERR_INVALID_MODEL, OP ": update_window_dims must be ascending updates dimensions");
  TFCC_OP_CHECK(
      ctx,
      o->n_inserted_window_dims <= (uint32_t)x->rank &&
          tfcc_so_dim_list_ok(o->inserted_window_dims, o->n_inserted_window_dims, x->rank, false) &&
          o->n_update_window_dims + o->n_inserted_window_dims == (uint32_t)x->rank,
      TFCC_ERR_INVALID_MODEL,
      OP
      ": update_window_dims (%u) and inserted_window_dims (%u) must add up to the operand rank %d",
      (unsigned)o->n_update_window_dims, (unsigned)o->n_inserted_window_dims, (int)x->rank);
  /* the updates' scatter dimensions are the indices' batch dimensions, in order */
  const int32_t n_batch = ix->rank - (implicit ? 0 : 1);
  TFCC_OP_CHECK(ctx, up->rank - (int32_t)o->n_update_window_dims == n_batch, TFCC_ERR_SHAPE,
                OP ": updates have %d scatter dimensions, the indices %d batch dimensions",
                (int)(up->rank - (int32_t)o->n_update_window_dims), (int)n_batch);
  for (int32_t d = 0, b = 0; d < up->rank; d++) {
    bool is_win = false;
    for (uint32_t k = 0; k < o->n_update_window_dims; k++) is_win |= o->update_window_dims[k] == d;
    if (is_win) continue;
    if (!implicit && b == o->index_vector_dim) b++;
    TFCC_OP_CHECK(ctx, up->dims[d] == ix->dims[b], TFCC_ERR_SHAPE,
                  OP ": updates dimension %d (%d) differs from indices dimension %d (%d)", (int)d,
                  (int)up->dims[d], (int)b, (int)ix->dims[b]);
    b++;
  }
  return tfcc_tensor_set_shape(ctx->out[0], x->rank, x->dims, ctx->err);
}

static tfcc_status scatter_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *x = ctx->in[0], *ix = ctx->in[1], *up = ctx->in[2];
  tfcc_tensor *out = ctx->out[0];
  const tfcc_stablehlo_scatter_options *o = &ctx->node->opts.shlo_scatter;
  if (out->data != x->data) memcpy(out->data, x->data, x->bytes);
  const tfcc_shlo_scatter_args a = {
      .fn = ((const scatter_params *)ctx->params)->fn,
      .dtype = x->dtype,
      .operand_dims = x->dims,
      .operand_rank = x->rank,
      .indices = {ix->data, ix->dtype == TFCC_INT64, ix->dims, ix->rank,
                  (int32_t)o->index_vector_dim},
      .updates = up->data,
      .updates_dims = up->dims,
      .updates_rank = up->rank,
      .update_window_dims = o->update_window_dims,
      .inserted_window_dims = o->inserted_window_dims,
      .scatter_dims_to_operand_dims = o->scatter_dims_to_operand_dims,
      .n_update_window = (int32_t)o->n_update_window_dims,
      .n_inserted = (int32_t)o->n_inserted_window_dims,
      .n_scatter_dims = (int32_t)o->n_scatter_dims_to_operand_dims,
  };
  TFCC_OP_CHECK(ctx, tfcc_ref_shlo_scatter(&a, out->data), TFCC_ERR_UNSUPPORTED,
                OP ": dtype %s is not supported", tfcc_dtype_name(x->dtype));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_stablehlo_scatter = {
    .name = OP, .init = scatter_init, .prepare = scatter_prepare, .eval = scatter_eval};
