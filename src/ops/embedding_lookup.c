/* EMBEDDING_LOOKUP: inputs (ids int32 1-D, table rank >= 2); out[i] = table[ids[i]], shape
 * [len(ids), table dims 1..] (embedding_lookup.cc). float32, int8 and uint8 tables copied
 * as they are; an int8 / uint8 table with a float32 output is TFLite's hybrid form:
 * out = byte (read as int8, as TFLite reads it) * scale (per tensor, or per row when the
 * table has one scale per row); zero points must be 0 (TFLite's prepare). int4 (v4) and int2
 * (v5) tables: constants are unpacked to int8 at load, as TFLite's Unpack4Bit / Unpack2Bit read
 * them (value * scale, exact either way). An id outside [0, rows) fails eval. */
#include "kernels/ref/lookup.h"
#include "ops/shape_ops_util.h"

#define OP "EMBEDDING_LOOKUP"

static bool is_hybrid(const tfcc_tensor *table, const tfcc_tensor *out) {
  const tfcc_dtype t = table->dtype;
  return (t == TFCC_INT8 || t == TFCC_UINT8 || t == TFCC_INT4 || t == TFCC_INT2) &&
         out->dtype == TFCC_FLOAT32;
}

static tfcc_status embedding_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *ids, *table;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &ids);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &table))) return st;
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, ids->dtype == TFCC_INT32 && ids->rank == 1, TFCC_ERR_SHAPE,
                OP ": ids are %s rank %d, expected int32 1-D", tfcc_dtype_name(ids->dtype),
                (int)ids->rank);
  TFCC_OP_CHECK(ctx, table->rank >= 2, TFCC_ERR_SHAPE, OP ": table rank %d, expected >= 2",
                (int)table->rank);
  /* types: int4 / int2 tables (v4 / v5; constants arrive unpacked to int8, run-time ones hold
   * one value per byte) only in the hybrid form, as TFLite */
  static const int allowed[] = {TFCC_FLOAT32, TFCC_INT8, TFCC_UINT8, TFCC_INT4, TFCC_INT2, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "table (input 1)", table->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx,
                is_hybrid(table, out) || (table->dtype != TFCC_INT4 && table->dtype != TFCC_INT2),
                TFCC_ERR_UNSUPPORTED, OP ": %s table with %s output not supported (float32 only)",
                tfcc_dtype_name(table->dtype), tfcc_dtype_name(out->dtype));
  if (is_hybrid(table, out)) {
    const tfcc_quant *q = table->quant;
    TFCC_OP_CHECK(ctx, q && q->count >= 1 && (q->count == 1 || q->count == table->dims[0]),
                  TFCC_ERR_UNSUPPORTED,
                  OP ": hybrid table needs one scale or one per row (has %d for %d rows)",
                  q ? (int)q->count : 0, (int)table->dims[0]);
    for (int32_t i = 0; i < q->count; i++) /* as TFLite's prepare */
      TFCC_OP_CHECK(ctx, q->zero_point[i] == 0, TFCC_ERR_UNSUPPORTED,
                    OP ": hybrid table zero point %d is %d, TFLite requires 0", (int)i,
                    (int)q->zero_point[i]);
  } else if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, table->dtype))) {
    return st;
  }
  int32_t dims[TFCC_MAX_RANK];
  dims[0] = ids->dims[0];
  for (int32_t d = 1; d < table->rank; d++) dims[d] = table->dims[d];
  return tfcc_tensor_set_shape(out, table->rank, dims, ctx->err);
}

static tfcc_status embedding_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *ids = ctx->in[0], *table = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int64_t rows = table->dims[0], row_elems = tfcc_so_prod(table->dims, 1, table->rank);
  int64_t bad;
  if (is_hybrid(table, out))
    bad = tfcc_ref_embedding_lookup_dequant(ids->data, ids->dims[0], table->data, rows, row_elems,
                                            table->quant->scale, table->quant->count, out->data);
  else
    bad = tfcc_ref_embedding_lookup(ids->data, ids->dims[0], table->data, rows, row_elems,
                                    tfcc_dtype_size(table->dtype), out->data);
  TFCC_OP_CHECK(
      ctx, bad < 0, TFCC_ERR_RUNTIME, OP ": id %d (entry %lld) outside the table's rows [0, %lld)",
      bad >= 0 ? (int)((const int32_t *)ids->data)[bad] : 0, (long long)bad, (long long)rows);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_embedding_lookup = {
    .name = OP, .prepare = embedding_prepare, .eval = embedding_eval};
