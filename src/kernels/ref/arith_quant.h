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
} tfcc_arith_q;

typedef enum tfcc_arith_qop {
  TFCC_AQ_ADD,     /* general rescaling ADD; SUB = ADD with in2_mult negated */
  TFCC_AQ_ADD_POT, /* int16 power-of-two ADD: shifts in in1_shift / in2_shift (<= 0) */
  TFCC_AQ_SUB_POT, /* int16 power-of-two SUB (Sub16) */
  TFCC_AQ_MUL,
  TFCC_AQ_DIV,     /* the caller guarantees no divisor equals its zero point */
  TFCC_AQ_SQDIFF,
  TFCC_AQ_COUNT_
} tfcc_arith_qop;

/* add.cc / sub.cc Prepare (general path): left_shift 20 (15 for int16);
 * negate_in2 for SUB. act_min/act_max must be set by the caller. */
void tfcc_arith_q_prepare_add(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo, int32_t left_shift, bool negate_in2);
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
int32_t tfcc_q_rdbpot(int32_t x, int exponent);           /* exponent may be out of [0, 31] */
int32_t tfcc_q_mbqm_lt1(int32_t x, int32_t qm, int shift); /* MultiplyByQuantizedMultiplierSmallerThanOneExp */
int32_t tfcc_q_reciprocal(int32_t x, int x_integer_digits, int *num_bits_over_unit);
int tfcc_q_clrsb32(int32_t x);                            /* CountLeadingSignBits */

#endif
