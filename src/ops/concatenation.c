/* CONCATENATION: joins inputs along `axis` (ConcatenationOptions: axis, fused activation).
 * As TFLite: the fused activation is read but ignored (TFLite's kernel never applies it; a
 * RELU-fused float CONCATENATION keeps its negative values); int8 inputs must share the output's scale and zero point;
 * int16 zero points must be 0 (copied without rescaling); uint8 inputs with another
 * scale/zero point are requantized as ConcatenationWithScaling. int4 (v5) is copied without
 * rescaling (constant int4 inputs arrive unpacked as int8, values in [-8, 7]); float16: v6. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/concat/concat.h"
#include "kernels/q8-lut/lut.h"
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

#define OP "CONCATENATION"
#define CONCAT_MAX_INPUTS 4096

/* Per model (init): for uint8, which inputs are requantized and their 256-entry tables, built
 * by running the reference requantization (tfcc_ref_concat_u8_scaled) on every byte value, so
 * the table lookup is exact by construction. slot[i] < 0: input i is copied unchanged. */
typedef struct concat_params {
  int32_t n;
  int32_t n_tables;
  int32_t *slot;         /* [n] */
  uint8_t (*table)[256]; /* [n_tables] */
} concat_params;

static tfcc_status concat_init(tfcc_init_ctx *ctx) {
  ctx->params = NULL;
  const tfcc_ir_node *node = ctx->node;
  if (!node || !ctx->sg || node->n_inputs < 1 || node->n_outputs < 1 || node->outputs[0] < 0)
    return TFCC_OK;
  const tfcc_ir_tensor *to = &ctx->sg->tensors[node->outputs[0]];
  if (to->dtype != TFCC_UINT8 || to->quant.count < 1 || !to->quant.scale || !to->quant.zero_point)
    return TFCC_OK; /* other dtypes never requantize; prepare reports bad quantization */
  const float out_scale = to->quant.scale[0];
  const int32_t out_zp = to->quant.zero_point[0];
  const int32_t n = node->n_inputs;
  int32_t n_tables = 0;
  for (int32_t i = 0; i < n; i++) {
    if (node->inputs[i] < 0) return TFCC_OK;
    const tfcc_ir_tensor *t = &ctx->sg->tensors[node->inputs[i]];
    const float sc = t->quant.count > 0 ? t->quant.scale[0] : 0.f;
    const int32_t zp = t->quant.count > 0 ? t->quant.zero_point[0] : 0;
    if (sc != out_scale || zp != out_zp) n_tables++;
  }
  const size_t head = (sizeof(concat_params) + (size_t)n * sizeof(int32_t) + 63) & ~(size_t)63;
  concat_params *p = calloc(1, head + (size_t)n_tables * 256);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for " OP " tables");
  p->n = n;
  p->n_tables = n_tables;
  p->slot = (int32_t *)(void *)(p + 1);
  p->table = (uint8_t(*)[256])(void *)((uint8_t *)p + head);
  uint8_t bytes[256];
  for (int v = 0; v < 256; v++) bytes[v] = (uint8_t)v;
  const uint8_t *src = bytes;
  const int64_t inner = 256;
  int32_t k = 0;
  for (int32_t i = 0; i < n; i++) {
    const tfcc_ir_tensor *t = &ctx->sg->tensors[node->inputs[i]];
    const float sc = t->quant.count > 0 ? t->quant.scale[0] : 0.f;
    const int32_t zp = t->quant.count > 0 ? t->quant.zero_point[0] : 0;
    if ((sc == out_scale && zp == out_zp) || !(out_scale > 0.f)) {
      p->slot[i] = -1;
      continue;
    }
    p->slot[i] = k;
    tfcc_ref_concat_u8_scaled(1, &src, &inner, 1, &sc, &zp, out_scale, out_zp, p->table[k]);
    k++;
  }
  p->n_tables = k;
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status concat_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 1, CONCAT_MAX_INPUTS, 1);
  if (st) return st;
  int32_t axis_opt = ctx->node->opts.concat.axis;
  tfcc_tensor *t0;
  if ((st = tfcc_so_input(ctx, 0, OP, &t0))) return st;
  static const int ok[] = {TFCC_FLOAT32,     TFCC_UINT8, TFCC_INT8,
                           TFCC_INT16,       TFCC_INT32, TFCC_INT64,
                           TFCC_FLOAT16,     TFCC_BOOL,  TFCC_FLOAT8_E4M3FN,
                           TFCC_FLOAT8_E5M2, -1}; /* types: float8 copies (v7) */
  tfcc_tensor *out = ctx->out[0];
  /* v5: int4 (one value per byte: copied as bytes, no rescaling, as TFLite's int4 path);
   * constant int4 inputs arrive as int8 */
  const bool int4 = out->dtype == TFCC_INT4;
  if (int4)
    st = tfcc_so_int4_operand(ctx, OP, "input 0", t0);
  else if (!(st = tfcc_so_check_dtype(ctx, OP, "input", t0->dtype, ok)))
    st = tfcc_so_check_out_dtype(ctx, OP, 0, out, t0->dtype);
  if (st) return st;
  int32_t axis;
  if ((st = tfcc_so_axis(ctx, OP, axis_opt, t0->rank, &axis))) return st;
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0; d < t0->rank; d++) dims[d] = t0->dims[d];
  for (int32_t i = 1; i < ctx->n_in; i++) {
    tfcc_tensor *t;
    if (int4) {
      char what[32];
      snprintf(what, sizeof what, "input %d", (int)i);
      if ((st = tfcc_so_input(ctx, i, OP, &t)) || (st = tfcc_so_int4_operand(ctx, OP, what, t)))
        return st;
      TFCC_OP_CHECK(ctx, t->rank == t0->rank, TFCC_ERR_SHAPE, OP ": input %d rank %d, expected %d",
                    (int)i, (int)t->rank, (int)t0->rank);
    } else if ((st = tfcc_so_input_like(ctx, i, OP, t0, &t))) {
      return st;
    }
    for (int32_t d = 0; d < t0->rank; d++) {
      if (d == axis)
        dims[d] += t->dims[d];
      else
        TFCC_OP_CHECK(ctx, t->dims[d] == t0->dims[d], TFCC_ERR_SHAPE,
                      OP ": input %d dimension %d is %d, expected %d", (int)i, (int)d,
                      (int)t->dims[d], (int)t0->dims[d]);
    }
  }
  if (!int4 && (t0->dtype == TFCC_INT8 || t0->dtype == TFCC_UINT8 || t0->dtype == TFCC_INT16)) {
    for (int32_t i = 0; i <= ctx->n_in; i++) {
      const tfcc_tensor *t = i < ctx->n_in ? ctx->in[i] : out;
      TFCC_OP_CHECK(ctx, t->quant->count <= 1, TFCC_ERR_UNSUPPORTED,
                    OP ": per-axis quantization is not supported");
      if (t0->dtype == TFCC_UINT8) {
        TFCC_OP_CHECK(
            ctx,
            i == ctx->n_in || tfcc_so_scale(t) == tfcc_so_scale(out) || tfcc_so_scale(out) > 0.0f,
            TFCC_ERR_INVALID_MODEL, OP ": output scale must be positive to rescale");
      } else if (t0->dtype == TFCC_INT8 && i < ctx->n_in) {
        /* TFLite Prepare: no rescaling for int8. */
        TFCC_OP_CHECK(ctx,
                      tfcc_so_scale(t) == tfcc_so_scale(out) &&
                          tfcc_so_zero_point(t) == tfcc_so_zero_point(out),
                      TFCC_ERR_UNSUPPORTED,
                      OP ": int8 input %d scale %g zero point %d differ from output %g/%d", (int)i,
                      (double)tfcc_so_scale(t), (int)tfcc_so_zero_point(t),
                      (double)tfcc_so_scale(out), (int)tfcc_so_zero_point(out));
      } else if (t0->dtype == TFCC_INT16) {
        TFCC_OP_CHECK(ctx, tfcc_so_zero_point(t) == 0, TFCC_ERR_UNSUPPORTED,
                      OP ": int16 %s %d zero point %d, expected 0",
                      i < ctx->n_in ? "input" : "output", (int)(i < ctx->n_in ? i : 0),
                      (int)tfcc_so_zero_point(t));
      }
    }
  }
  ctx->scratch_bytes = (size_t)ctx->n_in * (sizeof(void *) + sizeof(int64_t) + sizeof(size_t) +
                                            sizeof(float) + sizeof(int32_t));
  return tfcc_so_set_shape(ctx, OP, out, t0->rank, dims);
}

/* The requantizing uint8 path: copied parts as strided block copies, rescaled parts through
 * their table (one lookup pass when outer is 1, else one per block). */
static void concat_u8_tables(const tfcc_op_ctx *ctx, const concat_params *p, int32_t n,
                             const void *const *ptrs, const size_t *inner, int64_t outer) {
  size_t row = 0;
  for (int32_t i = 0; i < n; i++) row += inner[i];
  const tfcc_q8_lut_kernel *lk = ctx->ks->q8_lut;
  uint8_t *o = (uint8_t *)ctx->out[0]->data;
  for (int32_t i = 0; i < n; i++) {
    const int32_t slot = p->slot[i];
    if (slot < 0) {
      tfcc_copy_blocks(o, row, ptrs[i], inner[i], inner[i], outer);
    } else if (outer == 1) {
      tfcc_q8_lut_run(ctx->pool, lk, p->table[slot], ptrs[i], o, inner[i]);
    } else if (inner[i]) {
      const uint8_t *src = ptrs[i];
      for (int64_t k = 0; k < outer; k++)
        lk->fn(p->table[slot], src + (size_t)k * inner[i], o + (size_t)k * row, inner[i]);
    }
    o += inner[i];
  }
}

static tfcc_status concat_eval(tfcc_op_ctx *ctx) {
  tfcc_tensor *out = ctx->out[0];
  const tfcc_tensor *t0 = ctx->in[0];
  int32_t axis = ctx->node->opts.concat.axis;
  if (axis < 0) axis += t0->rank;
  int32_t n = ctx->n_in;
  int64_t outer = tfcc_so_prod(out->dims, 0, axis);
  size_t es = tfcc_dtype_size(out->dtype);
  uint8_t *s = (uint8_t *)ctx->scratch;
  const void **ptrs = (const void **)(void *)s;
  s += (size_t)n * sizeof(void *);
  int64_t *inner = (int64_t *)(void *)s;
  s += (size_t)n * sizeof(int64_t);
  size_t *inner_bytes = (size_t *)(void *)s;
  s += (size_t)n * sizeof(size_t);
  float *scales = (float *)(void *)s;
  s += (size_t)n * sizeof(float);
  int32_t *zps = (int32_t *)(void *)s;
  bool rescale = false;
  for (int32_t i = 0; i < n; i++) {
    const tfcc_tensor *t = ctx->in[i];
    ptrs[i] = t->data;
    inner[i] = tfcc_so_prod(t->dims, axis, t->rank);
    inner_bytes[i] = (size_t)inner[i] * es;
    if (out->dtype == TFCC_UINT8) {
      scales[i] = tfcc_so_scale(t);
      zps[i] = tfcc_so_zero_point(t);
      if (scales[i] != tfcc_so_scale(out) || zps[i] != tfcc_so_zero_point(out)) rescale = true;
    }
  }
  if (!rescale) {
    tfcc_concat_copy(n, ptrs, inner_bytes, outer, out->data);
    return TFCC_OK;
  }
  const concat_params *p = ctx->params;
  if (p && p->n == n) {
    concat_u8_tables(ctx, p, n, ptrs, inner_bytes, outer);
    return TFCC_OK;
  }
  tfcc_ref_concat_u8_scaled(n, (const uint8_t *const *)ptrs, inner, outer, scales, zps,
                            tfcc_so_scale(out), tfcc_so_zero_point(out), (uint8_t *)out->data);
  return TFCC_OK;
}

static const char *concat_kernel(const tfcc_op_ctx *ctx) {
  const concat_params *p = ctx->params;
  return p && p->n_tables > 0 ? ctx->ks->q8_lut->name : "concat-copy";
}

const tfcc_op_def tfcc_op_concatenation = {.name = OP,
                                           .init = concat_init,
                                           .prepare = concat_prepare,
                                           .eval = concat_eval,
                                           .kernel = concat_kernel};
