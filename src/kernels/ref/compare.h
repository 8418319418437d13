/* Comparison, logical and selection kernels (reference), broadcasting like binary.h.
 * Comparisons: tflite reference_ops::ComparisonImpl on raw values, or ComparisonWithScaling
 * for uint8/int8 (both sides rescaled with left_shift 8 before comparing).
 * Bool tensors are bytes: any nonzero byte reads as true; outputs are written as 0 or 1. */
#ifndef TFCC_KERNELS_REF_COMPARE_H
#define TFCC_KERNELS_REF_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/arith_quant.h"
#include "kernels/ref/binary.h"

typedef enum tfcc_cmpop {
  TFCC_CMP_EQ,
  TFCC_CMP_NE,
  TFCC_CMP_GT,
  TFCC_CMP_GE,
  TFCC_CMP_LT,
  TFCC_CMP_LE,
  TFCC_CMPOP_COUNT_
} tfcc_cmpop;

/* out (bool) = a op b on raw values; dt in float32, int8, int16, int32, int64, uint8, bool
 * (bool only for EQ/NE). False if no kernel. */
bool tfcc_ref_compare(tfcc_cmpop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                      const void *b, uint8_t *out);
/* Quantized comparison (uint8/int8) with rescaling parameters from
 * tfcc_arith_q_prepare_compare. */
bool tfcc_ref_compare_q(tfcc_cmpop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                        const void *b, uint8_t *out, const tfcc_arith_q *q);

/* Logical AND (is_or false) / OR on bool tensors. */
void tfcc_ref_logical(bool is_or, const tfcc_bcast *bc, const uint8_t *a, const uint8_t *b,
                      uint8_t *out);

/* out = cond ? x : y, three-way broadcast (bc planned with inputs cond, x, y);
 * esize = bytes per element of x/y/out. */
void tfcc_ref_select(const tfcc_bcast *bc, const uint8_t *cond, const void *x, const void *y,
                     void *out, size_t esize);

/* SELECT v1 with a low-rank condition: cond has `rows` elements (rows == 1: scalar); each
 * selects a run of row_elems elements of x or y. */
void tfcc_ref_select_rows(const uint8_t *cond, int64_t rows, int64_t row_elems, const void *x,
                          const void *y, void *out, size_t esize);

#endif
