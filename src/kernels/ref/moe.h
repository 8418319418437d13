/* moe: LiteRT's mixture-of-experts operator (the XNNPACK delegate's custom "moe",
 * moe_delegate_kernel.cc), float32 weights. Each token (a row of model_dim floats) goes to
 * num_active experts (top_indices, a negative index counting from the end); expert e computes
 *   h = gelu(G_e x) * (U_e x)      (G_e, U_e: hidden_dim x model_dim; gelu in its erfc form)
 *   y = D_e h                      (D_e: model_dim x hidden_dim)
 * and the token's output is the sum over its routes of y * per_expert_scale[e] * top_weight,
 * added in the order of the experts (then of the routes), as the delegate adds them. Row `out`
 * of expert e is row out * num_experts + e of each weight tensor. */
#ifndef TFCC_KERNELS_REF_MOE_H
#define TFCC_KERNELS_REF_MOE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_moe_shape {
  int32_t num_experts, num_active, model_dim, hidden_dim;
} tfcc_moe_shape;

/* The expert weights: gate and up [hidden_dim x num_experts x model_dim], down [model_dim x
 * num_experts x hidden_dim], per_expert_scale [num_experts]. */
typedef struct tfcc_moe_weights {
  const float *gate, *up, *down, *per_expert_scale;
} tfcc_moe_weights;

/* Floats of scratch for tfcc_moe_f32: 3 x hidden_dim + model_dim. */
size_t tfcc_moe_scratch_floats(const tfcc_moe_shape *s);

/* out[tokens x model_dim] from src[tokens x model_dim], top_weights and top_indices
 * [tokens x num_active]. False (out untouched) when an index is outside -num_experts ..
 * num_experts - 1: *bad_index is that index (plus num_experts if negative, as reported there). */
bool tfcc_moe_f32(const tfcc_moe_shape *s, int64_t tokens, const float *src,
                  const float *top_weights, const int32_t *top_indices, const tfcc_moe_weights *w,
                  float *out, float *scratch, int32_t *bad_index);

#endif
