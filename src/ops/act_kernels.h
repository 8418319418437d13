/* How the unary activation operators (RELU family, LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH)
 * reach their fast kernels: float32 through the f32-vunary family, uint8 / int8 through a
 * 256-entry table (q8-lut) that init filled from the reference kernel; other dtypes (int16)
 * stay on each operator's own reference code. Private to those operator files. */
#ifndef TFCC_OPS_ACT_KERNELS_H
#define TFCC_OPS_ACT_KERNELS_H

#include "kernels/f32-vunary/vunary.h"
#include "kernels/q8-lut/lut.h"
#include "ops/act_common.h"
#include "ops/op.h"

/* out[0] = op(in[0]) in float32; lo/hi for CLAMP, alpha for LEAKY_RELU. */
static inline void act_run_f32(const tfcc_op_ctx *ctx, tfcc_f32_vunary_op op, float lo, float hi,
                               float alpha) {
  const tfcc_f32_vunary_params fp = {op, lo, hi, alpha};
  tfcc_f32_vunary_run(ctx->pool, ctx->ks->f32_vunary, &fp, (const float *)ctx->in[0]->data,
                      (float *)ctx->out[0]->data, (size_t)tfcc_tensor_elements(ctx->in[0]));
}

/* out[0] = lut[in[0]] for uint8 / int8 tensors. */
static inline void act_run_lut(const tfcc_op_ctx *ctx, const uint8_t lut[256]) {
  tfcc_q8_lut_run(ctx->pool, ctx->ks->q8_lut, lut, ctx->in[0]->data, ctx->out[0]->data,
                  (size_t)tfcc_tensor_elements(ctx->in[0]));
}

/* The kernel name `tfcc bench` shows for an activation node whose input dtype is t. */
static inline const char *act_kernel_name(const tfcc_op_ctx *ctx, tfcc_dtype t) {
  if (t == TFCC_FLOAT32) return ctx->ks->f32_vunary->name;
  if (t == TFCC_UINT8 || t == TFCC_INT8) return ctx->ks->q8_lut->name;
  return "ref";
}

/* The .kernel of an operator whose params start with an act_head (ops/act_common.h). */
static inline const char *act_unary_kernel(const tfcc_op_ctx *ctx) {
  const act_head *h = (const act_head *)ctx->params;
  return h ? act_kernel_name(ctx, h->in_type) : "ref";
}

/* The operator definition of such an activation: its own init and eval, the shared
 * prepare and kernel name, in place allowed. */
#define TFCC_ACT_UNARY_OP_DEF(sym, op_name, init_fn, eval_fn) \
  const tfcc_op_def sym = {.name = op_name, \
                           .init = init_fn, \
                           .prepare = act_unary_prepare, \
                           .eval = eval_fn, \
                           .kernel = act_unary_kernel, \
                           .inplace_ok = true}

#endif
