/* Broadcasting elementwise kernels (reference).
 *
 * Broadcasting follows TFLite (CalculateShapeForBroadcast / NdArrayDesc): shapes are aligned on
 * their last dimension, missing leading dimensions count as 1, and each pair of dimensions must
 * be equal or one of them 1 (1 against 0 gives 0). Up to TFCC_MAX_DIMS dimensions (TFLite's
 * reference kernels stop at 4, 5 or 6). Kernels see pointers, shapes and parameters only. */
#ifndef TFCC_KERNELS_REF_BINARY_H
#define TFCC_KERNELS_REF_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

#define TFCC_BCAST_MAX_IN 3

/* An iteration plan over a broadcast output: dimensions of size 1 dropped and adjacent
 * dimensions merged where every input is contiguous across them. */
typedef struct tfcc_bcast {
  int32_t n_in;
  int32_t rank; /* >= 1 */
  int64_t dims[TFCC_MAX_DIMS];
  int64_t strides[TFCC_BCAST_MAX_IN][TFCC_MAX_DIMS]; /* in elements; 0 = broadcast */
  int64_t elements;                                  /* output elements */
} tfcc_bcast;

/* Output shape of broadcasting n shapes; false if they are incompatible (bad_dim: the output
 * dimension index, counted from the left of the output, that failed). */
bool tfcc_bcast_shape(int32_t n, const int32_t *ranks, const int32_t *const *dims,
                      int32_t *out_rank, int32_t *out_dims, int32_t *bad_dim);

/* Plans the iteration of n inputs (shapes broadcastable to out). */
void tfcc_bcast_plan(tfcc_bcast *bc, int32_t n, const int32_t *ranks, const int32_t *const *dims,
                     int32_t out_rank, const int32_t *out_dims);

/* Processes one innermost row of n elements: input k advances by step[k] (0 or its stride). */
typedef void (*tfcc_bcast_row_fn)(void *out, const void *const *in, const int64_t *step, int64_t n,
                                  const void *params);

void tfcc_bcast_run(const tfcc_bcast *bc, void *out, size_t out_esize, const void *const *in,
                    const size_t *in_esize, tfcc_bcast_row_fn fn, const void *params);

/* Non-quantized binary operators. */
typedef enum tfcc_binop {
  TFCC_BIN_ADD,
  TFCC_BIN_SUB,
  TFCC_BIN_MUL,
  TFCC_BIN_DIV,    /* float: a / b; int32: truncating, b != 0 checked by the caller */
  TFCC_BIN_SQDIFF, /* (a - b)^2 */
  TFCC_BIN_MAX,
  TFCC_BIN_MIN,
  TFCC_BIN_POW,       /* float: powf; int32: pow in double, b >= 0 checked by the caller */
  TFCC_BIN_FLOOR_DIV, /* floor((double)a / (double)b) converted back, as TFLite FloorDiv */
  TFCC_BIN_FLOOR_MOD, /* remainder with the sign of b, as TFLite FloorMod */
  TFCC_BINOP_COUNT_
} tfcc_binop;

/* Output clamp for ADD/SUB/MUL/DIV (fused activation); ignored by the other ops. */
typedef struct tfcc_binary_act {
  float f_lo, f_hi;
  int64_t i_lo, i_hi;
} tfcc_binary_act;

/* Whether a kernel exists for op on dtype (float32, int8, int16, int32, int64, uint8 as TFLite
 * has them; integer ops on raw values). */
bool tfcc_ref_binary_supported(tfcc_binop op, tfcc_dtype dt);

/* x^n for n >= 1 as TFLite's POW computes it for a one-element exponent that broadcasts and lies
 * within 1e-5 of an integer (optimized_ops::BroadcastPow4D -> IntegerPower; both TFLite builds,
 * probed with tfweb and LiteRT on exponents 2, 3, 4, 5, 7): from the top bit down, p(n) =
 * p(n / 2)^2, times x when n is odd, each product rounded (powf differs on 1,085 of 4,096 values
 * for n = 3). ref9: REFERENCE mode. */
void tfcc_pow_int_f32(const float *x, int32_t n, float *y, size_t count);

/* out = op(a, b) broadcast as planned by bc. Returns false if the combination has no kernel. */
bool tfcc_ref_binary(tfcc_binop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                     const void *b, void *out, const tfcc_binary_act *act);

/* Activation range of a non-quantized output (tflite::CalculateActivationRange). */
void tfcc_binary_act_range(int activation, tfcc_binary_act *act);

/* out[i] = sum of the n inputs' element i (ADD_N), summed from 0 in input order. */
bool tfcc_ref_add_n(tfcc_dtype dt, const void *const *in, int32_t n, void *out, int64_t elements);

#endif
