/* REDUCE_WINDOW (reference), TFLite's reduce_window.cc: out[o] = init combined, in window order
 * (row-major over the window), with every in[o * stride + w * dilation] of the window; the
 * caller sizes the output so that every window lies inside the input (elements past it would be
 * skipped). Functions: ADD, MUL (integers wrap), MIN (a <= b ? a : b),
 * MAX (a >= b ? a : b), ALL, ANY (logical, giving 0 or 1 in the dtype). */
#ifndef TFCC_KERNELS_REF_REDUCE_WINDOW_H
#define TFCC_KERNELS_REF_REDUCE_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* ReduceWindowFunction of schema.fbs (0 is UNSUPPORTED). */
typedef enum tfcc_rw_fn {
  TFCC_RW_ADD = 1,
  TFCC_RW_MUL = 2,
  TFCC_RW_MIN = 3,
  TFCC_RW_MAX = 4,
  TFCC_RW_ALL = 5,
  TFCC_RW_ANY = 6
} tfcc_rw_fn;

/* dtypes: int8..int64, uint8..uint64, float32, float64. */
bool tfcc_ref_reduce_window_supported(tfcc_dtype dt);

/* in [rank dims], out [rank out_dims]; window, strides, dilations [rank] (>= 1); init: one
 * element of dt. Returns false for an unsupported dtype or function. */
bool tfcc_ref_reduce_window(tfcc_rw_fn fn, tfcc_dtype dt, const void *in, const int32_t *dims,
                            int32_t rank, const int64_t *window, const int64_t *strides,
                            const int64_t *dilations, const void *init, const int32_t *out_dims,
                            void *out);

#endif
