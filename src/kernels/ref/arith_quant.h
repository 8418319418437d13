/* Quantized (uint8 / int8 / int16) elementwise arithmetic, bit-exact with TFLite's reference
 * kernels: ADD/SUB (reference_ops::AddElementwise with the second multiplier negated for SUB),
 * the int16 power-of-two ADD/SUB (Add / Sub16), MUL (MulElementwise), DIV (DivElementwise),
 * SQUARED_DIFFERENCE (squared_difference.cc) and the rescaling comparisons
 * (ComparisonWithScaling). Parameters are computed exactly as the ops' Prepare do. */
#ifndef TFCC_KERNELS_REF_ARITH_QUANT_H
#define TFCC_KERNELS_REF_ARITH_QUANT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/binary.h"

typedef struct tfcc_arith_q {
  int32_t left_shift;
  int32_t in1_offset, in2_offset, out_offset; /* -zp1, -zp2, +zp_out */
  int32_t in1_mult, in2_mult, out_mult;
  int32_t in1_shift, in2_shift, out_shift;
  int32_t act_min, act_max;
  /* XNNPACK (TFCC_AQ_ADD_XNN / TFCC_AQ_MUL_XNN) */
  int32_t xnn_bias, xnn_a_mult, xnn_b_mult, xnn_shift;
  float xnn_scale;
} tfcc_arith_q;

typedef enum tfcc_arith_qop {
  TFCC_AQ_ADD,     /* general rescaling ADD; SUB = ADD with in2_mult negated */
  TFCC_AQ_ADD_POT, /* int16 power-of-two ADD: shifts in in1_shift / in2_shift (<= 0) */
  TFCC_AQ_SUB_POT, /* int16 power-of-two SUB (Sub16) */
  TFCC_AQ_MUL,
  TFCC_AQ_DIV, /* the caller guarantees no divisor equals its zero point */
  TFCC_AQ_SQDIFF,
  TFCC_AQ_ADD_XNN, /* XNNPACK qs8/qu8 vadd (SUB: negative b multiplier) */
  TFCC_AQ_MUL_XNN, /* XNNPACK qs8/qu8 vmul, fp32 requantization */
  TFCC_AQ_COUNT_
} tfcc_arith_qop;

/* add.cc / sub.cc Prepare (general path): left_shift 20 (15 for int16);
 * negate_in2 for SUB. act_min/act_max must be set by the caller. */
void tfcc_arith_q_prepare_add(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo, int32_t left_shift, bool negate_in2);
/* XNNPACK's xnn_init_q{s,u}8_add_minmax_scalar_params: per-input scales s/so in float, one
 * shift 20 - exponent(max |scale|), 21-bit integer multipliers (negated b for SUB), bias with
 * the rounding term and the zero points folded in. act_min/act_max set by the caller. */
void tfcc_arith_q_prepare_add_xnn(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, bool negate_in2);
/* XNNPACK's xnn_init_q{s,u}8_mul_minmax_scalar_params: scale (s1 * s2) / so in float. */
void tfcc_arith_q_prepare_mul_xnn(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo);
/* The XNNPACK vadd element: (bias + a * a_mult + b * b_mult) >> shift (arithmetic, i.e. round
 * half up), plus zo, clamped. Exposed for tests. */
int32_t tfcc_arith_add_xnn_elem(int32_t a, int32_t b, const tfcc_arith_q *q);

/* tflite::CheckedLog2: true if x is (within 1e-3 in log2) a power of two. */
bool tfcc_checked_log2(float x, int32_t *log2_rounded);
/* mul.cc: multiplier = s1 * s2 / so computed in float, then QuantizeMultiplier. */
void tfcc_arith_q_prepare_mul(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo);
/* div.cc: multiplier = s1 / (s2 * so) computed in float. */
void tfcc_arith_q_prepare_div(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo);
/* squared_difference.cc (int8): left_shift 7; clamps to the int8 range. */
void tfcc_arith_q_prepare_sqdiff(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2,
                                 float so, int32_t zo);
/* comparisons.cc: left_shift 8, each scale quantized as a multiplier. */
void tfcc_arith_q_prepare_compare(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2);

/* out = op(a, b) for dt in {uint8, int8, int16}. False if no kernel. */
bool tfcc_ref_arith_q(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                      const void *b, void *out, const tfcc_arith_q *q);

/* Rescaled input value used by quantized comparisons (both sides are compared after it). */
int32_t tfcc_compare_rescale(int32_t raw, int32_t offset, int32_t mult, int32_t shift,
                             int32_t left_shift);

/* Fixed-point pieces shared with other kernels. */
int32_t tfcc_q_rdbpot(int32_t x, int exponent); /* exponent may be out of [0, 31] */
int32_t tfcc_q_mbqm_lt1(int32_t x, int32_t qm,
                        int shift); /* MultiplyByQuantizedMultiplierSmallerThanOneExp */
int32_t tfcc_q_reciprocal(int32_t x, int x_integer_digits, int *num_bits_over_unit);
int tfcc_q_clrsb32(int32_t x); /* CountLeadingSignBits */

#endif
