/* uint8 RESIZE_BILINEAR in TensorFlow Lite's builtin float arithmetic (the path tfcc runs when
 * XNNPACK does not take the node, e.g. align_corners): the same bytes as
 * tfcc_ref_resize_bilinear_u8 (kernels/ref/resize.h, its reference twin). Per output pixel the
 * reference computes its coordinates (floorf / ceilf calls) and four float weights, then per
 * channel v = in0 * w0 + in1 * w1 + in2 * w2 + in3 * w3 + 0.5, truncated, behind a call per
 * pixel. Here the column coordinates and fractions are a table built once per run, the row's
 * once per row, the weights once per pixel, and the channel loop is the same expression with
 * the same rounding (no contraction into fused multiply-adds), which the compiler vectorises.
 * Portable C: nothing per ISA. */
#ifndef TFCC_KERNELS_Q8_RESIZE_BILINEAR_U8_H
#define TFCC_KERNELS_Q8_RESIZE_BILINEAR_U8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/resize.h"

/* Scratch bytes for the column table (4-byte aligned). */
size_t tfcc_q8_resize_bilinear_u8_scratch_bytes(const tfcc_resize_shape *s);

/* Arguments as tfcc_ref_resize_bilinear_u8, plus scratch. Input and output must not overlap. */
void tfcc_q8_resize_bilinear_u8_float(const tfcc_resize_shape *s, bool align_corners,
                                      bool half_pixel, const uint8_t *in, uint8_t *out,
                                      void *scratch);

#endif
