/* EMBEDDING_LOOKUP_SPARSE (TFLite embedding_lookup_sparse.cc): inputs ids int32 [n], indices
 * int32 [n, r] (r >= 1), dense_shape int32 [r], weights float32 [n], params float32 [rows, ...]
 * (rank >= 2); EmbeddingLookupSparseOptions.combiner SUM, MEAN or SQRTN. Output float32
 * [dense_shape[0 .. r-1), params dims 1..]: each bucket (an entry's first r - 1 indices) holds
 * the weighted sum of its params rows, divided by the total weight (MEAN) or the root of the
 * summed squared weights (SQRTN); kernels/ref/sparse_lookup.h has the exact order of TFLite.
 * An id outside [0, rows) or an index outside dense_shape fails eval, as TFLite. The output
 * shape comes from dense_shape's values: not known at prepare, the output is dynamic (TFLite
 * makes it dynamic always). */
#include "kernels/ref/sparse_lookup.h"
#include "ops/shape_ops_util.h"

#define OP "EMBEDDING_LOOKUP_SPARSE"

static tfcc_status els_check(tfcc_op_ctx *ctx, int32_t i, const char *what, tfcc_dtype want,
                             int32_t rank) {
  const tfcc_tensor *t = ctx->in[i];
  TFCC_OP_CHECK(ctx, t->dtype == want, TFCC_ERR_DTYPE, OP ": input %d (%s) dtype %s, expected %s",
                (int)i, what, tfcc_dtype_name(t->dtype), tfcc_dtype_name(want));
  TFCC_OP_CHECK(ctx, rank < 0 ? t->rank >= 2 : t->rank == rank, TFCC_ERR_SHAPE,
                OP ": input %d (%s) has rank %d, expected %s", (int)i, what, (int)t->rank,
                rank == 1   ? "1"
                : rank == 2 ? "2"
                            : ">= 2");
  TFCC_OP_CHECK(ctx, t->quant->count == 0, TFCC_ERR_UNSUPPORTED,
                OP ": input %d (%s) is quantized (not supported)", (int)i, what);
  return TFCC_OK;
}

static tfcc_status els_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 5, 5, 1);
  if (st) return st;
  for (int32_t i = 0; i < 5; i++) {
    tfcc_tensor *t;
    if ((st = tfcc_so_input(ctx, i, OP, &t))) return st;
  }
  if ((st = els_check(ctx, 0, "ids", TFCC_INT32, 1)) ||
      (st = els_check(ctx, 1, "indices", TFCC_INT32, 2)) ||
      (st = els_check(ctx, 2, "dense_shape", TFCC_INT32, 1)) ||
      (st = els_check(ctx, 3, "weights", TFCC_FLOAT32, 1)) ||
      (st = els_check(ctx, 4, "params", TFCC_FLOAT32, -1)))
    return st;
  const tfcc_tensor *ids = ctx->in[0], *ix = ctx->in[1], *ds = ctx->in[2], *w = ctx->in[3];
  const tfcc_tensor *params = ctx->in[4];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], TFCC_FLOAT32))) return st;
  TFCC_OP_CHECK(ctx, ix->dims[0] == ids->dims[0] && w->dims[0] == ids->dims[0], TFCC_ERR_SHAPE,
                OP ": ids [%d], indices [%d, %d] and weights [%d] must have one entry per id",
                (int)ids->dims[0], (int)ix->dims[0], (int)ix->dims[1], (int)w->dims[0]);
  TFCC_OP_CHECK(ctx, ix->dims[1] >= 1 && ds->dims[0] == ix->dims[1], TFCC_ERR_SHAPE,
                OP ": dense_shape [%d] must have one entry per index column (indices [%d, %d])",
                (int)ds->dims[0], (int)ix->dims[0], (int)ix->dims[1]);
  if (!ds->known || !ds->data)
    return TFCC_OP_NEEDS_DATA(ctx, ds, OP ": the output shape is dense_shape's values (tensor %d)",
                              (int)ds->index);
  const int32_t r = ix->dims[1];
  const int32_t *d = ds->data;
  int64_t dims[TFCC_MAX_RANK];
  const int32_t rank = (r - 1) + (params->rank - 1);
  TFCC_OP_CHECK(ctx, rank <= TFCC_MAX_RANK, TFCC_ERR_SHAPE,
                OP ": output rank %d (dense_shape %d - 1 + params rank %d - 1) exceeds %d",
                (int)rank, (int)r, (int)params->rank, TFCC_MAX_RANK);
  for (int32_t k = 0; k < r - 1; k++) {
    TFCC_OP_CHECK(ctx, d[k] >= 0, TFCC_ERR_SHAPE, OP ": dense_shape[%d] is %d (negative)", (int)k,
                  (int)d[k]);
    dims[k] = d[k];
  }
  for (int32_t k = 1; k < params->rank; k++) dims[r - 2 + k] = params->dims[k];
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], rank, dims);
}

static tfcc_status els_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *ids = ctx->in[0], *ix = ctx->in[1], *ds = ctx->in[2], *params = ctx->in[4];
  tfcc_tensor *out = ctx->out[0];
  const int32_t r = ix->dims[1];
  const int32_t *d = ds->data;
  int64_t buckets = 1;
  for (int32_t k = 0; k < r - 1; k++) buckets *= d[k];
  /* the output was sized from these values (dense_shape known at prepare, or prepared again
   * during this run); a shape that no longer matches is refused rather than written past */
  TFCC_OP_CHECK(ctx, buckets == tfcc_so_prod(out->dims, 0, r - 1), TFCC_ERR_RUNTIME,
                OP ": dense_shape changed after the output was sized");
  const tfcc_els_args a = {.combiner = (tfcc_els_combiner)ctx->node->opts.els.combiner,
                           .ids = ids->data,
                           .indices = ix->data,
                           .dense_shape = d,
                           .weights = ctx->in[3]->data,
                           .params = params->data,
                           .n = ids->dims[0],
                           .lookup_rank = r,
                           .rows = params->dims[0],
                           .emb = tfcc_so_prod(params->dims, 1, params->rank),
                           .buckets = buckets};
  int32_t bad_dim = -1;
  const int32_t bad = tfcc_ref_embedding_lookup_sparse(&a, out->data, &bad_dim);
  if (bad >= 0 && bad_dim < 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME, OP ": id %d (entry %d) outside params' %d rows",
                        (int)a.ids[bad], (int)bad, (int)a.rows);
  if (bad >= 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME,
                        OP ": entry %d index %d is %d, outside [0, %d) of dense_shape", (int)bad,
                        (int)bad_dim, (int)a.indices[(int64_t)bad * r + bad_dim], (int)d[bad_dim]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_embedding_lookup_sparse = {
    .name = OP, .prepare = els_prepare, .eval = els_eval};
