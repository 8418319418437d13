/* The parameters, init, release and prepare opening CONV_2D and DEPTHWISE_CONV_2D share
 * (conv_node.h). */
#include "ops/conv_node.h"

tfcc_status tfcc_conv_node_init(tfcc_conv_node *n, const tfcc_init_ctx *ctx, bool depthwise) {
  n->depthwise = depthwise;
  tfcc_f32_fast_init(&n->f32);
  tfcc_q8_fast_init(&n->q8);
  tfcc_status st;
  if (depthwise) {
    const tfcc_depthwise_options *o = &ctx->node->opts.depthwise;
    st = tfcc_window_opts_set(&n->o, o->padding, o->stride_w, o->stride_h, o->dilation_w,
                              o->dilation_h, o->activation, o->pad, ctx->err);
  } else {
    const tfcc_conv_options *o = &ctx->node->opts.conv;
    st = tfcc_window_opts_set(&n->o, o->padding, o->stride_w, o->stride_h, o->dilation_w,
                              o->dilation_h, o->activation, o->pad, ctx->err);
  }
  if (st != TFCC_OK) return st;
  if (tfcc_hybrid_applies(ctx, 0, 1))
    return tfcc_hybrid_init(ctx, depthwise ? TFCC_HYB_DW : TFCC_HYB_CONV, n->o.act, false, &n->hyb);
  return tfcc_conv_init_quant(ctx, 0, 1, n->o.act, false, &n->q);
}

void tfcc_conv_node_free(tfcc_conv_node *n) {
  tfcc_conv_qparams_free(&n->q);
  tfcc_f32_fast_free(&n->f32);
  tfcc_q8_fast_free(&n->q8);
  tfcc_hybrid_free(n->hyb);
}

static const tfcc_tensor *bias_of(const tfcc_op_ctx *ctx) {
  return ctx->n_in > 2 ? ctx->in[2] : NULL;
}

tfcc_status tfcc_conv_node_geom(const tfcc_conv_node *n, const tfcc_op_ctx *ctx,
                                tfcc_conv_geom *g) {
  return tfcc_conv_geom_make(&n->o, ctx->in[0], ctx->in[1], bias_of(ctx), n->depthwise, g,
                             ctx->err);
}

tfcc_status tfcc_conv_node_prepare_open(const tfcc_conv_node *n, tfcc_op_ctx *ctx, const char *name,
                                        tfcc_conv_geom *g) {
  if (!n) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "%s not initialised", name);
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || ctx->n_out < 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s needs input, filter and one output",
                        name);
  tfcc_status st =
      n->hyb ? TFCC_OK
             : tfcc_conv_check_types(ctx->in[0], ctx->in[1], bias_of(ctx), ctx->out[0], ctx->err);
  return st != TFCC_OK ? st : tfcc_conv_node_geom(n, ctx, g);
}

tfcc_status tfcc_conv_node_prepare_hybrid(const tfcc_conv_node *n, tfcc_op_ctx *ctx,
                                          const tfcc_conv_geom *g) {
  tfcc_status st = tfcc_hybrid_conv_prepare(ctx, n->hyb, g);
  return st != TFCC_OK ? st : tfcc_conv_geom_set_output(ctx->out[0], g, ctx->err);
}

tfcc_status tfcc_conv_node_check_quant(const tfcc_conv_node *n, const tfcc_op_ctx *ctx,
                                       const tfcc_conv_geom *g) {
  if (ctx->in[0]->dtype == TFCC_FLOAT32) return TFCC_OK;
  if (n->q.n_mult == 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "quantization parameters missing");
  return tfcc_conv_check_channels(&n->q, g->out_c, ctx->err);
}

const char *tfcc_conv_node_q8_refuse(const tfcc_conv_node *n, const tfcc_op_ctx *ctx,
                                     tfcc_conv_requant *r) {
  tfcc_conv_requant_from(&n->q, ctx->in[0]->dtype, r);
  return tfcc_q8_fast_refuse(ctx->in[0], ctx->in[1], bias_of(ctx), r);
}

bool tfcc_conv_node_probe(const tfcc_conv_node *n, const tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  tfcc_err e;
  tfcc_op_ctx c;
  return tfcc_op_probe_ctx(ctx, 2, &e, &c) && tfcc_conv_node_geom(n, &c, g) == TFCC_OK;
}
