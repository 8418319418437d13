/* Fast 8-bit depthwise convolution (depth multiplier 1), bit-exact with the reference
 * kernels. Every tap of the window is read, the taps outside the image from a row of input
 * zero points, so that with the weights w' = w + fo the sum is
 *   acc[c] = bias[c] + io * sum_t w'_t[c] + sum_t x_t[c] * w'_t[c]       (int32, wrapping)
 * and the taps outside the image add (zp + io) * w' = 0 exactly as the reference skips them.
 * The first two terms are folded into the packed bias. Requantization: XNNPACK fp32
 * (vectorised) or the reference's fixed point on the int32 sums.
 *
 * Packed (int32 units, C16 = channels rounded up to 16): [C16 bias'][C16 float scale]
 * [taps x C16 weights w' in the low 16 bits, high 16 bits zero], then C16 zero-point bytes. */
#ifndef TFCC_KERNELS_Q8_DWCONV_DWCONV_H
#define TFCC_KERNELS_Q8_DWCONV_DWCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"

#define TFCC_Q8_DW_MAX_TAPS 128

/* One output pixel: channels c, taps pointers (each c bytes). */
typedef void (*tfcc_q8_dw_fn)(size_t c, size_t ntaps, const uint8_t *const *taps,
                              const int32_t *pw, const tfcc_q8_out *o);

typedef struct tfcc_q8_dw_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q8_dw_fn fn_s, fn_u; /* int8 / uint8 activations */
} tfcc_q8_dw_kernel;

const tfcc_q8_dw_kernel *tfcc_q8_dw_select(tfcc_isa isa);
int tfcc_q8_dw_kernel_count(void);
const tfcc_q8_dw_kernel *tfcc_q8_dw_kernel_at(int i);
bool tfcc_q8_dw_usable(const tfcc_q8_dw_kernel *k, tfcc_isa isa);

typedef struct tfcc_q8_dw_packed {
  const tfcc_q8_dw_kernel *k;
  int32_t c, taps;
  bool is_signed, fp32;
  int32_t *w;
} tfcc_q8_dw_packed;

/* filter [1, fh, fw, c] (int8 when is_signed, else uint8), bias (NULL: zero). */
bool tfcc_q8_dw_pack(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh,
                     int32_t fw, const void *filter, const int32_t *bias,
                     const tfcc_conv_requant *r, tfcc_q8_dw_packed *out);
void tfcc_q8_dw_packed_free(tfcc_q8_dw_packed *p);

struct tfcc_threadpool;
size_t tfcc_q8_dw_scratch_bytes(const tfcc_q8_dw_packed *p, int threads);
/* g->in_c == g->out_c == p->c, filter_h * filter_w == p->taps. */
void tfcc_q8_dwconv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                    const tfcc_q8_dw_packed *p, const tfcc_conv_requant *r, const void *in,
                    void *out, void *scratch);

#endif
