/* FULLY_CONNECTED: inputs (input, weights [units, accum], optional bias), options
 * FullyConnectedOptions (fused_activation_function, weights_format, keep_num_dims,
 * asymmetric_quantize_inputs, quantized_bias_type). Only the DEFAULT weights format. Hybrid
 * (float32 input, int8 weights) runs in ops/hybrid.c. int8 with run-time weights requantizes
 * with one rounding (ruy's, as TFLite's builtin kernel) in the default arithmetic. */
#include <stdlib.h>

#include "kernels/f32-gemm/gemv.h"
#include "kernels/hybrid/fc_eigen.h"
#include "kernels/kernel_set.h"
#include "kernels/q16-dot/dot.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/ref/fully_connected.h"
#include "kernels/ref/quant_util.h"
#include "ops/params_mem.h"
#include "ops/bf16_fast.h"
#include "ops/conv_common.h"
#include "ops/f32_fast.h"
#include "ops/fc_blockwise.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "ops/hybrid.h"
#include "ops/pack_once.h"
#include "ops/packed_layouts.h"
#include "ops/q8_fast.h"
#include "base/threadpool.h"
#include "base/weights_mem.h"
#include "ops/work_estimate.h"

typedef struct fc_params {
  tfcc_packed_owner own; /* first (the owner the store sees is the params): the bf16 packing's */
  int32_t act;
  bool keep_num_dims;
  bool per_channel;
  tfcc_conv_qparams q;
  tfcc_f32_fast f32;        /* float32: weights packed for the GEMM / GEMV micro-kernels */
  tfcc_q8_fast q8;          /* int8/uint8: weights packed for the q8 GEMM */
  tfcc_bf16_fast bf16;      /* float32 at precision bf16: weights packed for the bf16 GEMM */
  tfcc_q8_fcs_packed small; /* int8/uint8 tiny layers: packed at init (q8-fc-small) */
  tfcc_dtype small_dtype;
  tfcc_hybrid *hyb;      /* float32 input with int8 weights (ops/hybrid.h), else NULL */
  tfcc_fc_blockwise *bw; /* float32 input, blockwise-quantized weights (ops/fc_blockwise.h) */
  /* int8 with run-time weights in TFLite's default arithmetic: XNNPACK does not take the node
   * and TFLite's builtin kernel requantizes through ruy, with one rounding (issue 15: tfcc was
   * 1 below on ~1% of elements with gemmlowp's two roundings) */
  bool ruy_round;
  /* int16 input (ops): the effective scales input * weight / output in double, [q.n_mult], which
   * current TFLite's int16 kernel rescales with (FULLY_CONNECTED v13, int16 x int4) */
  double *real16;
  /* int16 input, constant int8 weights, weight offset 0 (q16_k set at init): the weights packed
   * for the q16-gemm kernel q16_k (made from q16_src), which runs the evals of more than one
   * batch; packed once (q16_once) at init where the stored input has more than one batch, else
   * at the first prepare that sees more than one (a resize), never during a run; during the load
   * the packing is a block of the weights cache (q16_key, TFCC_BLOCK_Q16_GEMM as CONV_2D's): a
   * hit is used in place (q16_w), a miss packed into q16_own and offered */
  const int8_t *q16_w;
  int8_t *q16_own;
  tfcc_packed_key q16_key;
  const tfcc_q16_gemm_kernel *q16_k;
  const void *q16_src;
  int32_t q16_units, q16_accum;
  tfcc_pack_once q16_once;
  /* float32 with run-time weights in TFLITE mode of a hybrid model: LiteRT runs TFLite's builtin
   * kernel (Eigen's GEBP order, tfcc_fc_f32_eigen) as the XNNPACK delegate leaves the node */
  bool eigen_f32;
  /* REFERENCE mode where the classic interpreter's builtin kernel runs a float node: its
   * activation range (tfcc_act_range_f32_builtin: NONE clamps to +-FLT_MAX, NaN passes) */
  bool builtin_range;
  /* float32 with constant float32 weights in a hybrid subgraph (REFERENCE mode
   * too): the delegate takes it (VisitFullyConnectedNode), XNNPACK's f32 GEMM (tfcc_xnn_fc_f32):
   * the weights packed at init (tfcc_xnn_fc_pack) for the vector kernel xnn_k->fc */
  bool xnn_f32;
  bool xnn_no_nr2;     /* REFERENCE mode at an nr2 width: the default order, unpacked weights */
  const float *xnn_wp; /* xnn_own, or a block of the weights cache */
  float *xnn_own;
  tfcc_packed_layout xnn_tail; /* its nr2 kernel's narrow last block */
  const tfcc_tflite_f32_kernel *xnn_k;
  /* eigen_f32 with constant weights (REFERENCE mode): the vector kernel's panels packed
   * once (tfcc_fc_eigen_pack), made from the weights at eigen_src */
  tfcc_packed_layout eigen_wp;
  const void *eigen_src;
} fc_params;
_Static_assert(offsetof(fc_params, own) == 0, "the store's owner is the params");

static void fc_release(void *p) {
  fc_params *fp = p;
  if (!fp) return;
  tfcc_conv_qparams_free(&fp->q);
  tfcc_f32_fast_free(&fp->f32);
  tfcc_q8_fast_free(&fp->q8);
  tfcc_bf16_fast_free(&fp->bf16);
  tfcc_q8_fcs_packed_free(&fp->small);
  tfcc_hybrid_free(fp->hyb);
  tfcc_fc_blockwise_free(fp->bw);
  free(fp->real16);
  tfcc_wmem_free(fp->q16_own);
  tfcc_pack_once_destroy(&fp->q16_once);
  tfcc_wmem_free(fp->xnn_own);
  tfcc_packed_layout_free(&fp->xnn_tail);
  tfcc_packed_layout_free(&fp->eigen_wp);
  tfcc_params_free(fp);
}

/* The kernels' requantization view (TFLite applies the weights zero point in the per-tensor
 * kernels only). */
static void fc_requant(const fc_params *p, tfcc_dtype dt, tfcc_conv_requant *r) {
  tfcc_conv_requant_from(&p->q, dt, r);
  r->filter_offset = p->per_channel ? 0 : p->q.filter_offset;
  r->single_round = p->ruy_round && dt == TFCC_INT8;
}

/* ops: int16 input: the double effective scales of current TFLite's int16 reference kernel
 * (round(acc * input_scale * weight_scale / output_scale)), one per multiplier. */
static tfcc_status fc_real16_init(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *w, fc_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *out = tfcc_conv_ir_output(ctx, 0);
  const int32_t n = p->q.n_mult;
  if (!w || !out || n < 1 || in->quant.count < 1 || out->quant.count < 1 || w->quant.count < 1)
    return TFCC_OK;
  p->real16 = malloc((size_t)n * sizeof *p->real16);
  if (!p->real16) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t c = 0; c < n; c++) {
    const float ws = w->quant.scale[w->quant.count > 1 && c < w->quant.count ? c : 0];
    p->real16[c] = (double)in->quant.scale[0] * (double)ws / (double)out->quant.scale[0];
  }
  return TFCC_OK;
}

/* The q16-gemm packing of the weights at q16_src, once for every session (tfcc_pack_once: the
 * first caller packs, under its mutex; out of memory leaves q16-dot): the weights cache's block
 * where it has one (its size follows from the shapes and the kernel), else packed and offered
 * (the store answers during the load only: a later resize packs without it). */
static void fc_q16_pack(fc_params *p) {
  if (!p->q16_k || !tfcc_pack_once_begin(&p->q16_once)) return;
  const size_t bytes = tfcc_q16_gemm_packed_bytes(p->q16_k, p->q16_units, 1, p->q16_accum);
  const int8_t *hit = bytes ? tfcc_packed_get(&p->q16_key, bytes) : NULL;
  p->q16_own = bytes && !hit ? tfcc_wmem_alloc(bytes) : NULL;
  if (p->q16_own) {
    tfcc_q16_gemm_pack(p->q16_k, p->q16_units, 1, p->q16_accum, p->q16_src, p->q16_own);
    tfcc_packed_put(&p->q16_key, p->q16_own, bytes);
  }
  p->q16_w = hit ? hit : p->q16_own;
  tfcc_pack_once_end(&p->q16_once, p->q16_src, p->q16_w != NULL);
}

/* int16 input with constant int8 weights [units][accum] and weight offset 0: q16-gemm runs its
 * evals of more than one batch, packed here where the stored input has more than one batch,
 * else at the first prepare with more (fc_prepare: batch-1 models keep q16-dot, no copy). */
static void fc_q16_init(const tfcc_init_ctx *ctx, fc_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *w = tfcc_conv_ir_input(ctx, 1);
  if (!in || !w || in->dtype != TFCC_INT16 || w->dtype != TFCC_INT8 || !w->data || w->rank != 2 ||
      w->sparsity || (!p->per_channel && p->q.filter_offset != 0))
    return;
  const int32_t units = w->dims[0], accum = w->dims[1];
  if (units <= 0 || accum <= 0 || w->data_bytes < (size_t)units * (size_t)accum) return;
  const tfcc_q16_gemm_kernel *k = ctx->ks ? ctx->ks->q16_gemm : tfcc_q16_gemm_select(ctx->isa);
  if (!k || !tfcc_q16_gemm_packed_bytes(k, units, 1, accum)) return;
  tfcc_pack_once_init(&p->q16_once);
  p->q16_key = tfcc_init_block_key(ctx, TFCC_BLOCK_Q16_GEMM);
  p->q16_k = k;
  p->q16_src = w->data;
  p->q16_units = units, p->q16_accum = accum;
  int64_t n = 1;
  for (int i = 0; i < in->rank; i++) n *= in->dims[i] > 0 ? in->dims[i] : 1;
  if (n / accum > 1) fc_q16_pack(p);
}

/* Tiny int8/uint8 layers: everything the q8-fc-small kernel needs, computed once here
 * (constant weights and bias only; anything else stays on the q8 GEMM / reference path). */
static void fc_small_init(const tfcc_init_ctx *ctx, fc_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *w = tfcc_conv_ir_input(ctx, 1);
  const tfcc_ir_tensor *bias = tfcc_conv_ir_input(ctx, 2);
  if (!in || !w || (in->dtype != TFCC_INT8 && in->dtype != TFCC_UINT8) || w->dtype != in->dtype ||
      w->rank != 2 || !w->data || w->sparsity || p->q.n_mult == 0 || p->ruy_round)
    return;
  const int32_t units = w->dims[0], accum = w->dims[1];
  if (units <= 0 || accum <= 0 || w->data_bytes != (size_t)units * (size_t)accum) return;
  if (bias && (bias->dtype != TFCC_INT32 || !bias->data || bias->sparsity ||
               bias->data_bytes != (size_t)units * sizeof(int32_t)))
    return;
  if (p->q.n_mult != 1 && p->q.n_mult != units) return;
  tfcc_conv_requant r;
  fc_requant(p, in->dtype, &r);
  const tfcc_q8_fcs_kernel *k = ctx->ks->q8_fcs;
  const bool is_signed = in->dtype == TFCC_INT8;
  if (tfcc_q8_fcs_refuse(units, accum, w->data, is_signed, &r)) return;
  /* one block of the weights cache (its size from the shapes alone): used in place, or packed
   * into own memory and offered */
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_Q8_FC_SMALL);
  const size_t bytes = tfcc_q8_fcs_bytes(units, accum);
  const void *hit = tfcc_packed_get(&key, bytes);
  bool ok;
  if (hit) {
    ok = tfcc_q8_fcs_adopt(k, is_signed, units, accum, w->data, &r, hit, &p->small);
  } else {
    void *m = aligned_alloc(64, bytes);
    ok = m && tfcc_q8_fcs_pack_into(k, is_signed, units, accum, w->data, bias ? bias->data : NULL,
                                    &r, m, &p->small);
    if (ok) {
      p->small.mem = m;
      tfcc_packed_put(&key, m, bytes);
    } else {
      free(m);
    }
  }
  if (ok) p->small_dtype = in->dtype;
}

/* int16 input on the q16-dot kernels: where the kernel set is there and the weight offset is an
 * int8 zero point's (the kernels' int32 block sums rely on it). */
static bool fc_q16_takes(const tfcc_op_ctx *ctx, const tfcc_conv_requant *r) {
  return ctx->ks && ctx->ks->q16_dot && r->filter_offset >= -128 && r->filter_offset <= 128;
}

/* int16 input of more than one batch on q16-gemm: packed for these weights, prepare's scratch
 * there. */
static bool fc_q16_gemm_takes(const tfcc_op_ctx *ctx, const tfcc_fc_dims *d,
                              const tfcc_conv_requant *r) {
  const fc_params *p = ctx->params;
  return p->q16_k && d->batches > 1 && ctx->in[0]->dtype == TFCC_INT16 &&
         tfcc_pack_once_ready(&p->q16_once, ctx->in[1]->data) && tfcc_q16_gemm_fc_fits(r) &&
         ctx->scratch &&
         ctx->scratch_bytes >= tfcc_q16_gemm_fc_scratch(d->batches, d->units, d->accum,
                                                        tfcc_threadpool_size(ctx->pool));
}

/* The small kernel takes this call (packed for these weights, work within its limit). */
static bool fc_small_takes(const fc_params *p, const tfcc_tensor *in, const tfcc_tensor *w,
                           int64_t batches) {
  return p->small.k && in->dtype == p->small_dtype && w->data == p->small.src &&
         tfcc_q8_fcs_fits(&p->small, batches);
}

/* constant float weights of the Eigen order (REFERENCE mode's builtin kernel) packed
 * once for the vector kernel, unless there is one unit (its GEMV reads them as they are);
 * one batch row too, the vector kernel's GEMV order reads them (the DPCRN GRU cells). */
static void fc_eigen_pack_init(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *w, fc_params *p) {
  if (w->dtype != TFCC_FLOAT32 || w->rank != 2 || w->sparsity || w->dims[0] <= 1 ||
      w->dims[1] <= 0 || w->data_bytes < (size_t)w->dims[0] * (size_t)w->dims[1] * sizeof(float))
    return;
  tfcc_packed_fc_eigen(ctx, w->data, w->dims[0], w->dims[1], &p->eigen_wp);
  if (p->eigen_wp.data) p->eigen_src = w->data;
}

static tfcc_status fc_init(tfcc_init_ctx *ctx) {
  fc_params *p = tfcc_params_calloc(sizeof(*p)); /* ops/params_mem.h */
  if (!p)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for FULLY_CONNECTED params");
  atomic_init(&p->own.given_back, 0);
  tfcc_f32_fast_init(&p->f32);
  tfcc_f32_fast_attach(&p->f32, ctx, TFCC_BLOCK_F32_GEMM);
  tfcc_q8_fast_init(&p->q8);
  tfcc_q8_fast_attach(&p->q8, ctx, TFCC_BLOCK_Q8_GEMM);
  tfcc_bf16_fast_init(&p->bf16, ctx);
  const tfcc_fully_connected_options *o = &ctx->node->opts.fc;
  p->act = o->activation;
  int32_t wf = o->weights_format;
  p->keep_num_dims = o->keep_num_dims;
  tfcc_status st = tfcc_conv_check_act(p->act, ctx->err);
  if (st == TFCC_OK && wf != 0)
    st = tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "weights format %s unsupported",
                      wf == 1 ? "SHUFFLED4x16INT8" : "unknown");
  if (st == TFCC_OK && tfcc_fc_blockwise_applies(ctx)) {
    st = tfcc_fc_blockwise_init(ctx, p->act, &p->bw);
  } else if (st == TFCC_OK && tfcc_hybrid_applies(ctx, 0, 1)) {
    st = tfcc_hybrid_init(ctx, TFCC_HYB_FC, p->act, o->asymmetric_quantize_inputs, &p->hyb);
  } else if (st == TFCC_OK) {
    const tfcc_ir_tensor *w = tfcc_conv_ir_input(ctx, 1);
    p->per_channel = w && w->quant.count > 1;
    /* per-tensor: GetQuantizedConvolutionMultipler (float product) for every dtype;
     * per-channel: double all through. */
    st = tfcc_conv_init_quant(ctx, 0, 1, p->act, !p->per_channel, &p->q);
    const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0);
    p->ruy_round = st == TFCC_OK && ctx->quant_compat != TFCC_QUANT_COMPAT_REFERENCE && in &&
                   in->dtype == TFCC_INT8 && w && !p->q.scale;
    if (st == TFCC_OK && in && in->dtype == TFCC_INT16) st = fc_real16_init(ctx, w, p);
    if (st == TFCC_OK) fc_q16_init(ctx, p);
    /* REFERENCE mode, a float node of a hybrid subgraph the classic interpreter's
     * delegate does not take (run-time weights, or nothing delegated: nutls_lstm's LSTM
     * projections) runs the builtin kernel there, Eigen's order too (one batch: the GEMV) */
    const bool ref_builtin = tfcc_hybrid_ref_builtin_float(ctx) &&
                             (!w || !w->data || !tfcc_hybrid_ref_delegated_float(ctx));
    p->eigen_f32 =
        st == TFCC_OK && in && in->dtype == TFCC_FLOAT32 && w &&
        ((!w->data && tfcc_hybrid_xnn_float(ctx)) || (w->dtype == TFCC_FLOAT32 && ref_builtin));
    p->builtin_range = tfcc_ref_builtin_float_range(ctx) ||
                       (ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE && p->eigen_f32);
    if (p->eigen_f32 && w->data) fc_eigen_pack_init(ctx, w, p);
    const tfcc_ir_tensor *b = tfcc_conv_ir_input(ctx, 2);
    p->xnn_f32 = st == TFCC_OK && in && in->dtype == TFCC_FLOAT32 && w &&
                 w->dtype == TFCC_FLOAT32 && w->data && w->rank == 2 && !w->sparsity &&
                 (!b || (b->dtype == TFCC_FLOAT32 && b->data && !b->sparsity)) &&
                 (p->act == TFCC_ACT_NONE || p->act == TFCC_ACT_RELU || p->act == TFCC_ACT_RELU6 ||
                  p->act == TFCC_ACT_RELU_N1_TO_1) &&
                 (tfcc_hybrid_xnn_float(ctx) || tfcc_hybrid_ref_delegated_float(ctx));
    /* REFERENCE mode, the classic interpreter's older delegate: its GEMM has no nr2
     * kernel, every width takes the default order (the portable loop, weights unpacked) */
    p->xnn_no_nr2 = p->xnn_f32 && ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE &&
                    tfcc_xnn_fc_uses_nr2(w->dims[0]);
    if (p->xnn_f32 && !p->xnn_no_nr2 && w->dims[0] > 0 && w->dims[1] >= 0 &&
        w->data_bytes >= (size_t)w->dims[0] * (size_t)w->dims[1] * sizeof(float)) {
      /* packed once (or taken from the weights cache) on huge pages; the raw weights are
       * read no more: every eval of this node runs the packed kernel (fc_eval) */
      const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_XNN_FC);
      const size_t bytes = tfcc_xnn_fc_packed_bytes(w->dims[0], w->dims[1]);
      const void *hit = tfcc_packed_get(&key, bytes);
      if (hit) {
        p->xnn_wp = hit;
      } else if ((p->xnn_own = tfcc_wmem_alloc(bytes)) != NULL) {
        tfcc_xnn_fc_pack_into(w->data, w->dims[0], w->dims[1], p->xnn_own);
        tfcc_packed_put(&key, p->xnn_own, bytes);
        p->xnn_wp = p->xnn_own;
      } else {
        st = tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY,
                          "out of memory packing FULLY_CONNECTED weights (%d x %d, %zu bytes)",
                          (int)w->dims[0], (int)w->dims[1], bytes);
      }
      p->xnn_k = tfcc_tflite_f32_select(ctx->isa);
      if (p->xnn_wp && p->xnn_k) tfcc_packed_consumed(&key, p, w->data);
      tfcc_packed_xnn_fc_tail(ctx, p->xnn_k, p->xnn_wp, w->dims[0], w->dims[1], &p->xnn_tail);
    }
  }
  if (st == TFCC_OK) fc_small_init(ctx, p);
  if (st != TFCC_OK) {
    fc_release(p);
    return st;
  }
  ctx->params = p;
  return TFCC_OK;
}

/* Shapes: output dims into od/orank and kernel dims into d. */
static tfcc_status fc_shapes(const tfcc_op_ctx *ctx, tfcc_fc_dims *d, int32_t *orank, int32_t *od) {
  const fc_params *p = ctx->params;
  const tfcc_tensor *in = ctx->in[0], *w = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (w->rank != 2)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "weights rank %d, expected 2", (int)w->rank);
  if (in->rank < 1)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input rank %d, expected >= 1", (int)in->rank);
  int64_t n_in;
  if (!tfcc_conv_count(in->rank, in->dims, &n_in))
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input too large");
  d->units = w->dims[0];
  d->accum = w->dims[1];
  if (d->units < 0 || d->accum < 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "negative weights dimension");
  if (bias && tfcc_tensor_elements(bias) != d->units)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "bias has %lld elements, expected %d",
                        (long long)tfcc_tensor_elements(bias), (int)d->units);
  if (p->keep_num_dims) {
    if (d->accum != 0 && in->dims[in->rank - 1] != d->accum)
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                          "keep_num_dims: input last dimension %d, expected %d",
                          (int)in->dims[in->rank - 1], (int)d->accum);
    *orank = in->rank;
    for (int32_t i = 0; i < in->rank; i++) od[i] = in->dims[i];
    od[in->rank - 1] = d->units;
  } else {
    *orank = 2;
    if (d->accum == 0) { /* as TFLite: flatten all but the last input dimension */
      int64_t b = 1;
      for (int32_t i = 0; i < in->rank - 1; i++) b *= in->dims[i];
      od[0] = (int32_t)b;
    } else { /* as TFLite: batches = input elements / columns, rounded down; a remainder is
                not read (YAMNet exports whose embedding reshape leaves 64 for 320 columns) */
      od[0] = (int32_t)(n_in / d->accum);
    }
    od[1] = d->units;
  }
  int64_t n_out;
  if (!tfcc_conv_count(*orank, od, &n_out))
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "output too large");
  d->batches = d->units ? (int32_t)(n_out / d->units) : 0;
  if (d->accum != 0 && (int64_t)d->batches * d->accum > n_in)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input has %lld elements, expected %lld",
                        (long long)n_in, (long long)d->batches * d->accum);
  return TFCC_OK;
}

/* Float32 fast path: packed weights, or NULL (reference kernel). */
static const tfcc_f32_packed *fc_f32_packed(const tfcc_op_ctx *ctx, const tfcc_fc_dims *d) {
  const fc_params *p = ctx->params;
  const tfcc_f32_packed *pk = tfcc_f32_fast_get(&p->f32, ctx->in[1]->data);
  return ctx->in[0]->dtype == TFCC_FLOAT32 && pk && pk->n == d->units && pk->kdim == d->accum
             ? pk
             : NULL;
}

/* prepare: packs the weights once per model (model load runs the first prepare). */
static void fc_f32_prepare(tfcc_op_ctx *ctx, const tfcc_fc_dims *d) {
  fc_params *p = (fc_params *)ctx->params;
  const tfcc_tensor *w = ctx->in[1], *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const char *why = NULL;
  if (d->units == 0 || d->accum == 0) return;
  if (!tfcc_f32_const_or_absent(w) || !tfcc_f32_const_or_absent(bias))
    why = "weights or bias are not constant";
  else if (!tfcc_f32_fast_pack(&p->f32, ctx->isa, ctx->pool, d->units, d->accum, w->data,
                               (size_t)d->accum, 1, bias ? bias->data : NULL))
    why = "out of memory packing the weights";
  if (why) {
    tfcc_f32_fast_fallback(&p->f32, ctx, "FULLY_CONNECTED", why);
  } else if (!p->bf16.wanted) { /* every later batch size runs on the packing */
    tfcc_packed_consumed(&p->f32.key, p, w->data);
    tfcc_packed_consumed(&p->f32.key, p, bias ? bias->data : NULL);
  }
}

/* 8-bit fast path: packed weights, or NULL (reference kernel). */
static const tfcc_q8_packed *fc_q8_packed(const tfcc_op_ctx *ctx, const tfcc_fc_dims *d) {
  const fc_params *p = ctx->params;
  const tfcc_q8_packed *pk = tfcc_q8_fast_get(&p->q8, ctx->in[1]->data);
  const tfcc_dtype dt = ctx->in[0]->dtype;
  return (dt == TFCC_INT8 || dt == TFCC_UINT8) && pk && pk->n == d->units && pk->kdim == d->accum
             ? pk
             : NULL;
}

static void fc_q8_prepare(tfcc_op_ctx *ctx, const tfcc_fc_dims *d) {
  fc_params *p = (fc_params *)ctx->params;
  const tfcc_tensor *w = ctx->in[1], *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (d->units == 0 || d->accum == 0) return;
  tfcc_conv_requant r;
  fc_requant(p, ctx->in[0]->dtype, &r);
  const char *why = tfcc_q8_fast_refuse(ctx->in[0], w, bias, &r);
  if (!why &&
      !tfcc_q8_fast_pack(&p->q8, ctx->isa, ctx->pool, ctx->in[0]->dtype == TFCC_INT8, d->batches,
                         d->units, d->accum, w->data, bias ? bias->data : NULL, &r))
    why = "out of memory packing the weights";
  if (why) {
    tfcc_f32_log_fallback_once(&p->q8.logged, ctx, "FULLY_CONNECTED", why);
    return;
  }
  if (!p->small.k) { /* no tiny-layer kernel on the raw weights: the packing serves every batch */
    tfcc_packed_consumed(&p->q8.key, p, w->data);
    tfcc_packed_consumed(&p->q8.key, p, bias ? bias->data : NULL);
  }
  const tfcc_q8_packed *pk = fc_q8_packed(ctx, d);
  if (pk) ctx->scratch_bytes = tfcc_q8_scratch_bytes(NULL, pk, tfcc_threadpool_size(ctx->pool));
}

/* The weights packed at init where the tensor run is the one they were made from, else NULL. */
static const float *fc_eigen_packed(const tfcc_op_ctx *ctx) {
  const fc_params *p = ctx->params;
  return p->eigen_src && ctx->in[1]->data == p->eigen_src ? p->eigen_wp.data : NULL;
}

static tfcc_status fc_prepare(tfcc_op_ctx *ctx) {
  const fc_params *p = ctx->params;
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "FULLY_CONNECTED not initialised");
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || ctx->n_out != 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "FULLY_CONNECTED needs input, weights and one output");
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  tfcc_status st = p->hyb || p->bw
                       ? TFCC_OK
                       : tfcc_conv_check_types(ctx->in[0], ctx->in[1], bias, ctx->out[0], ctx->err);
  if (st != TFCC_OK) return st;
  tfcc_fc_dims d = {0, 0, 0};
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  st = fc_shapes(ctx, &d, &orank, od);
  if (st != TFCC_OK) return st;
  if (p->bw) {
    st = tfcc_fc_blockwise_prepare(ctx, p->bw, d.units, d.accum);
    return st != TFCC_OK ? st : tfcc_tensor_set_shape(ctx->out[0], orank, od, ctx->err);
  }
  if (p->hyb) { /* float32 input, int8 weights */
    st = tfcc_hybrid_fc_prepare(ctx, p->hyb, d.batches, d.units, d.accum);
    return st != TFCC_OK ? st : tfcc_tensor_set_shape(ctx->out[0], orank, od, ctx->err);
  }
  if (ctx->in[0]->dtype != TFCC_FLOAT32) {
    if (p->q.n_mult == 0)
      return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "quantization parameters missing");
    st = tfcc_conv_check_channels(&p->q, d.units, ctx->err);
    if (st != TFCC_OK) return st;
  }
  ctx->scratch_bytes = 0;
  /* REFERENCE mode's builtin Eigen order reads the constant weights as they are
     (builtin_range: REFERENCE mode; TFLITE mode's eigen_f32 weights are run-time tensors) */
  const bool ref_eigen = p->eigen_f32 && p->builtin_range;
  if (ctx->in[0]->dtype == TFCC_FLOAT32 && !p->xnn_f32 && !ref_eigen &&
      !tfcc_bf16_fast_fc_prepare(&((fc_params *)ctx->params)->bf16, ctx, d.batches, d.units,
                                 d.accum, &((fc_params *)ctx->params)->own))
    fc_f32_prepare(ctx, &d);
  if (p->eigen_f32 && ctx->in[0]->dtype == TFCC_FLOAT32 && !fc_eigen_packed(ctx))
    ctx->scratch_bytes = /* one transposed panel of weights */
        (size_t)tfcc_threadpool_size(ctx->pool) * tfcc_fc_eigen_scratch_bytes(d.accum);
  if ((ctx->in[0]->dtype == TFCC_INT8 || ctx->in[0]->dtype == TFCC_UINT8) &&
      !fc_small_takes(p, ctx->in[0], ctx->in[1], d.batches))
    fc_q8_prepare(ctx, &d);
  if (p->q16_k && ctx->in[0]->dtype == TFCC_INT16 && d.batches > 1 &&
      ctx->in[1]->data == p->q16_src) {
    /* packed at the first prepare with more than one batch (a resize), never during
       a run (run_time: a dynamic node's prepare inside the run stays on q16-dot) */
    if (!ctx->run_time) fc_q16_pack((fc_params *)ctx->params);
    if (tfcc_pack_once_ready(&p->q16_once, p->q16_src))
      ctx->scratch_bytes =
          tfcc_q16_gemm_fc_scratch(d.batches, d.units, d.accum, tfcc_threadpool_size(ctx->pool));
  }
  return tfcc_tensor_set_shape(ctx->out[0], orank, od, ctx->err);
}

/* Eigen-order float32 with run-time weights: the vector kernel of the session's dispatch level
 * where its packed weights (constant ones, exact11) or prepare's scratch are there, else NULL
 * (the reference loop). The GEMV of one batch on the packed weights too (its order,
 * gemv true) with a vector build; one unit, or weights not packed, keep the scalar GEMV. */
static const tfcc_fc_eigen_kernel *fc_eigen_kernel(const tfcc_op_ctx *ctx, const tfcc_fc_dims *d) {
  const fc_params *p = ctx->params;
  if (!p->eigen_f32 || !ctx->ks || !ctx->ks->fc_eigen) return NULL;
  if (tfcc_fc_eigen_is_gemv(d)) /* the one-lane build is no faster than the scalar loop
                                   (dpcrn.tflite at TFCC_ISA=generic: 1.11x the time) */
    return d->batches == 1 && d->units > 1 && fc_eigen_packed(ctx) &&
                   ctx->ks->fc_eigen->isa != TFCC_ISA_GENERIC
               ? ctx->ks->fc_eigen
               : NULL;
  return fc_eigen_packed(ctx) ||
                 (ctx->scratch && ctx->scratch_bytes >= (size_t)tfcc_threadpool_size(ctx->pool) *
                                                            tfcc_fc_eigen_scratch_bytes(d->accum))
             ? ctx->ks->fc_eigen
             : NULL;
}

static tfcc_status fc_eval(tfcc_op_ctx *ctx) {
  const fc_params *p = ctx->params;
  if (p->small.k) { /* tiny layer: no shape work, no tiling, no pool (prepare checked shapes) */
    const tfcc_tensor *in = ctx->in[0];
    tfcc_tensor *out = ctx->out[0];
    const int64_t batches = (int64_t)(out->bytes / (size_t)p->small.n);
    if (fc_small_takes(p, in, ctx->in[1], batches)) {
      p->small.k->fn(&p->small, (size_t)batches, in->data, out->data);
      return TFCC_OK;
    }
  }
  tfcc_fc_dims d = {0, 0, 0};
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  tfcc_status st = fc_shapes(ctx, &d, &orank, od);
  if (st != TFCC_OK) return st;
  if (p->hyb) return tfcc_hybrid_fc_eval(ctx, p->hyb, d.batches, d.units, d.accum);
  if (p->bw) return tfcc_fc_blockwise_eval(ctx, p->bw, d.batches, d.units, d.accum);
  const tfcc_tensor *in = ctx->in[0], *w = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const void *bd = bias ? bias->data : NULL;
  void *out = ctx->out[0]->data;
  tfcc_conv_requant r;
  if (in->dtype != TFCC_FLOAT32) fc_requant(p, in->dtype, &r);
  const tfcc_q8_packed *q8 = in->dtype != TFCC_FLOAT32 ? fc_q8_packed(ctx, &d) : NULL;
  if (q8 &&
      ctx->scratch_bytes >= tfcc_q8_scratch_bytes(NULL, q8, tfcc_threadpool_size(ctx->pool))) {
    tfcc_q8_gemm(ctx->pool, q8, &r, d.batches, in->data, (size_t)d.accum, out, (size_t)d.units,
                 ctx->scratch);
    return TFCC_OK;
  }
  switch (in->dtype) {
    case TFCC_FLOAT32: {
      float lo, hi;
      if (p->builtin_range)
        tfcc_act_range_f32_builtin(p->act, &lo, &hi);
      else
        tfcc_act_range_f32(p->act, &lo, &hi);
      if (p->xnn_f32 && p->xnn_wp && p->xnn_k && w->dims[0] == d.units) {
        tfcc_xnn_fc_run(ctx->pool, p->xnn_k, in->data, (int32_t)d.batches, (int32_t)d.accum,
                        p->xnn_wp, p->xnn_tail.data, bd, (int32_t)d.units, lo, hi, out);
        return TFCC_OK;
      }
      if (p->xnn_f32) {
        tfcc_xnn_fc_f32_order(in->data, (int32_t)d.batches, (int32_t)d.accum, w->data, bd,
                              (int32_t)d.units, lo, hi, !p->xnn_no_nr2, out);
        return TFCC_OK;
      }
      if (tfcc_bf16_fast_fc_eval(&p->bf16, ctx, d.batches, d.units, d.accum, lo, hi))
        return TFCC_OK;
      const tfcc_f32_packed *pk = fc_f32_packed(ctx, &d);
      if (pk && d.batches == 1) { /* GEMV: memory bound, several panels streamed at once */
        tfcc_f32_gemv(ctx->pool, pk, in->data, out, lo, hi);
        return TFCC_OK;
      }
      if (pk) {
        tfcc_f32_gemm(ctx->pool, pk, d.batches, in->data, (size_t)d.accum, out, (size_t)d.units, lo,
                      hi);
        return TFCC_OK;
      }
      const tfcc_fc_eigen_kernel *ek = fc_eigen_kernel(ctx, &d);
      if (ek)
        tfcc_fc_eigen_run(ctx->pool, ek, &d, tfcc_fc_eigen_is_gemv(&d), in->data, w->data,
                          fc_eigen_packed(ctx), bd, lo, hi, out, ctx->scratch);
      else if (p->eigen_f32 && tfcc_fc_eigen_is_gemv(&d))
        tfcc_fc_f32_eigen_gemv(&d, in->data, w->data, bd, lo, hi, out);
      else if (p->eigen_f32)
        tfcc_fc_f32_eigen(&d, in->data, w->data, bd, lo, hi, out);
      else
        tfcc_fc_f32(&d, in->data, w->data, bd, lo, hi, out);
      return TFCC_OK;
    }
    case TFCC_UINT8: tfcc_fc_u8(&d, &r, in->data, w->data, bd, out); return TFCC_OK;
    case TFCC_INT8: tfcc_fc_i8(&d, &r, in->data, w->data, bd, out); return TFCC_OK;
    case TFCC_INT16: {
      const int64_t *b64 = bias && bias->dtype == TFCC_INT64 ? bd : NULL;
      const int32_t *b32 = bias && bias->dtype == TFCC_INT32 ? bd : NULL;
      if (fc_q16_gemm_takes(ctx, &d, &r)) /* batches: the register-tiled GEMM */
        tfcc_q16_gemm_fc(ctx->pool, p->q16_k, d.batches, d.units, d.accum, &r, in->data, p->q16_w,
                         b64, b32, p->real16, out, ctx->scratch);
      else if (fc_q16_takes(ctx, &r)) /* the same sums, vectorised (kernels/q16-dot) */
        tfcc_q16_fc(ctx->ks->q16_dot, &d, &r, in->data, w->data, b64, b32, p->real16, out);
      else
        tfcc_fc_i16(&d, &r, in->data, w->data, b64, b32, p->real16, out);
      return TFCC_OK;
    }
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "input dtype %s unsupported",
                          tfcc_dtype_name(in->dtype));
  }
}

static int64_t fc_macs(const tfcc_op_ctx *ctx) {
  tfcc_err e;
  tfcc_op_ctx c;
  tfcc_fc_dims d = {0, 0, 0};
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c) || fc_shapes(&c, &d, &orank, od) != TFCC_OK) return 0;
  return tfcc_work_mul3(d.batches, d.units, d.accum);
}

static const char *fc_kernel(const tfcc_op_ctx *ctx) {
  tfcc_err e;
  tfcc_op_ctx c;
  tfcc_fc_dims d = {0, 0, 0};
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c) || fc_shapes(&c, &d, &orank, od) != TFCC_OK) return "ref";
  const fc_params *p = ctx->params;
  if (p->hyb) return tfcc_hybrid_kernel(p->hyb);
  if (p->bw) return "ref-blockwise";
  if (ctx->in[0]->dtype == TFCC_INT16) {
    tfcc_conv_requant r;
    fc_requant(p, TFCC_INT16, &r);
    if (fc_q16_gemm_takes(ctx, &d, &r)) return p->q16_k->name;
    return fc_q16_takes(ctx, &r) ? ctx->ks->q16_dot->name : "ref";
  }
  if (fc_small_takes(p, ctx->in[0], ctx->in[1], d.batches)) return p->small.k->name;
  const tfcc_q8_packed *q8 = fc_q8_packed(ctx, &d);
  if (q8) return q8->k->name;
  const char *bf16 = tfcc_bf16_fast_kernel(&((const fc_params *)ctx->params)->bf16, ctx, d.batches);
  if (bf16) return bf16;
  if (p->xnn_f32 && p->xnn_wp && p->xnn_k)
    return tfcc_xnn_fc_uses_nr2((int32_t)d.units) ? "xnn-f32-fc-nr2-vec" : "xnn-f32-fc-vec";
  if (p->xnn_f32)
    return tfcc_xnn_fc_uses_nr2((int32_t)d.units) && !p->xnn_no_nr2 ? "xnn-f32-fc-nr2"
                                                                    : "xnn-f32-fc";
  const tfcc_f32_packed *pk = fc_f32_packed(ctx, &d);
  if (!pk && p->eigen_f32 && tfcc_fc_eigen_is_gemv(&d))
    return fc_eigen_kernel(ctx, &d) ? ctx->ks->fc_eigen->name : "ref-eigen-gemv";
  if (!pk && p->eigen_f32)
    return ctx->ks && ctx->ks->fc_eigen ? ctx->ks->fc_eigen->name : "ref-eigen-order";
  if (!pk) return "ref";
  return d.batches == 1 ? tfcc_f32_gemv_name(pk) : pk->k->name;
}

TFCC_OP_DEFINE(tfcc_op_fully_connected, "FULLY_CONNECTED", fc_init, fc_prepare, fc_eval,
               .release = fc_release, .macs = fc_macs, .kernel = fc_kernel);
