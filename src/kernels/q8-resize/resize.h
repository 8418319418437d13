/* Fast 8-bit RESIZE_BILINEAR in XNNPACK's arithmetic (TFCC_QUANT_COMPAT_TFLITE, see
 * kernels/ref/resize_xnn.c): per output pixel the four source pixels and 11-bit weights from
 * tables built once per run, the two integer lerps vectorised over channels. Bytes identical
 * to tfcc_xnn_resize_bilinear_{u8,i8}. One file per ISA variant behind a dispatch table. */
#ifndef TFCC_KERNELS_Q8_RESIZE_RESIZE_H
#define TFCC_KERNELS_Q8_RESIZE_RESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/resize.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* Output rows [row0, row1) (row = batch * out_h + oy). xt: per output column {x0, x1, wx},
 * yt: per output row {y0, y1, wy} (tfcc_xnn_resize_axis). */
typedef void (*tfcc_q8_resize_fn)(const tfcc_resize_shape *s, bool is_signed, const void *in,
                                  void *out, const int32_t *xt, const int32_t *yt, int32_t row0,
                                  int32_t row1);

typedef struct tfcc_q8_resize_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q8_resize_fn fn;
} tfcc_q8_resize_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q8_resize, tfcc_q8_resize_kernel);

/* Scratch the driver needs for the coordinate tables. */
size_t tfcc_q8_resize_scratch_bytes(const tfcc_resize_shape *s);

struct tfcc_threadpool;
/* Builds the tables in scratch (tfcc_q8_resize_scratch_bytes, 4-byte aligned) and runs the
 * rows, split over pool for large outputs. align_corners and half_pixel not both set. */
void tfcc_q8_resize_bilinear(struct tfcc_threadpool *pool, const tfcc_q8_resize_kernel *k,
                             const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                             bool is_signed, const void *in, void *out, void *scratch);

#define TFCC_Q8_RESIZE_DECL(name) \
  void name(const tfcc_resize_shape *s, bool is_signed, const void *in, void *out, \
            const int32_t *xt, const int32_t *yt, int32_t row0, int32_t row1)
TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_avx512);
TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_avx2);
TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_neon);
TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_scalar);

#endif
