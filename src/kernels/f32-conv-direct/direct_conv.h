/* Direct float32 convolution for layers with few input values per output (a network's first
 * layer: 3x3 x 3 channels, K = 27), where im2col + GEMM spends much of its time copying:
 * each output pixel reads its KH rows of KW x Cin contiguous input floats in place and
 * broadcasts them against the filter held as vectors of output channels, bias and fused
 * activation applied before the store. It reads the filter as the f32 GEMM packed it
 * (panels of NR output channels, all panels' bias first, then each panel's K x NR: one K
 * block, as K <= MAX_K always fits it; k = (ky * KW + kx) * Cin + ci; see
 * kernels/f32-gemm/gemm.h), so it costs no extra memory. Each output is bias + the taps in k
 * order on one chain (padded taps as FMAs with zero), the sums the GEMM path computes, so
 * the two give the same bits. One file per ISA variant behind a dispatch table. */
#ifndef TFCC_KERNELS_F32_CONV_DIRECT_DIRECT_CONV_H
#define TFCC_KERNELS_F32_CONV_DIRECT_DIRECT_CONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* Largest K = filter_h * filter_w * in_c taken (border pixels gather K floats on the stack):
 * 7x7 x 3 (ResNet-50's stem, 2.99 -> 2.34 ms) and 3x3 x 16 (56x56 -> 64: 0.65 -> 0.55 ms) are
 * still faster direct than through im2col + GEMM (f32_conv_direct_bench, thread CPU time). */
#define TFCC_F32_DIRECT_CONV_MAX_K 160

/* Output rows [row0, row1), row = batch * out_h + oy. w: packed panels of the kernel's nr
 * columns covering g->out_c. */
typedef void (*tfcc_f32_direct_conv_fn)(const tfcc_conv_geom *g, const float *in, const float *w,
                                        float lo, float hi, float *out, int32_t row0, int32_t row1);

typedef struct tfcc_f32_direct_conv_kernel {
  const char *name; /* "f32-conv-direct-32-avx512" */
  tfcc_isa isa;     /* level the kernel needs */
  int nr;           /* panel width it reads (the f32 GEMM kernel's NR at that level) */
  tfcc_f32_direct_conv_fn fn;
} tfcc_f32_direct_conv_kernel;

/* True for the convolutions this family takes: groups 1, no dilation, a window larger than
 * 1x1 (1x1 already reads its input in place in the GEMM) and K <= MAX_K. */
bool tfcc_f32_direct_conv_fits(const tfcc_conv_geom *g);
/* Best kernel at or below `isa` that reads panels of nr columns, or NULL. */
const tfcc_f32_direct_conv_kernel *tfcc_f32_direct_conv_select(tfcc_isa isa, int nr);
TFCC_DISPATCH_TABLE_ACCESS_DECL(tfcc_f32_direct_conv, tfcc_f32_direct_conv_kernel);

struct tfcc_threadpool;
/* Splits output rows over the pool. No scratch, no allocation. */
void tfcc_f32_direct_conv(struct tfcc_threadpool *pool, const tfcc_f32_direct_conv_kernel *k,
                          const tfcc_conv_geom *g, const float *w, const float *in, float *out,
                          float lo, float hi);

#define TFCC_F32_DIRECT_CONV_DECL(name) \
  void name(const tfcc_conv_geom *g, const float *in, const float *w, float lo, float hi, \
            float *out, int32_t row0, int32_t row1)
TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_32_avx512);
TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_16_avx2);
TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_8_sse4);
TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_8_neon);
TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_8_wasmsimd);
TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_8_scalar);

#endif
