/* int16 x int8 depthwise dispatch table and the 16x8 DEPTHWISE_CONV_2D driver on it
 * (dwconv.h): the reference kernel's walk and requantization, its sums from the vector kernel. */
#include "kernels/q16-dwconv/dwconv.h"

#include "kernels/ref/conv_walk.h"

#define Q16_DW_ROW(name, fn, sfx, level) \
  { name "-" #sfx, level, fn##_##sfx, fn##_req_##sfx }
static const tfcc_q16_dw_kernel kernels[] = {
    TFCC_KERNEL_ROWS(Q16_DW_ROW, "q16-dwconv", tfcc_q16_dw)};
TFCC_DISPATCH_TABLE_FNS(tfcc_q16_dw, tfcc_q16_dw_kernel)

/* Output channels per pass (the int64 sums and, with a depth multiplier above 1, the input
 * spread to the output channels, on the stack). */
enum { Q16_DW_CHUNK = 256 };

bool tfcc_q16_dwconv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q) {
  return g->in_c > 0 && g->out_c % g->in_c == 0 && q->input_offset == 0;
}

void tfcc_q16_dwconv(const tfcc_q16_dw_kernel *k, const tfcc_conv_geom *g,
                     const tfcc_conv_requant *q, const int16_t *in, const int8_t *filter,
                     const int64_t *bias64, const int32_t *bias32, int16_t *out) {
  const int32_t mult = g->out_c / g->in_c;
  int64_t acc[Q16_DW_CHUNK];
  const int16_t *xs[TFCC_Q16_DW_MAX_TAPS];
  const int8_t *ws[TFCC_Q16_DW_MAX_TAPS];
  /* mult > 1: each tap's input of the pass spread to its output channels */
  int16_t spread[TFCC_Q16_DW_MAX_TAPS][Q16_DW_CHUNK];
  TFCC_CONV_PIXELS(for (int32_t c0 = 0; c0 < g->out_c; c0 += Q16_DW_CHUNK) {
    const int32_t nc = g->out_c - c0 < Q16_DW_CHUNK ? g->out_c - c0 : Q16_DW_CHUNK;
    for (int32_t j = 0; j < nc; j++) acc[j] = 0;
    size_t nt = 0;
    TFCC_CONV_TAPS({
      const int16_t *px = in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c;
      if (mult == 1) {
        xs[nt] = px + c0;
      } else {
        for (int32_t j = 0; j < nc; j++) spread[nt][j] = px[(c0 + j) / mult];
        xs[nt] = spread[nt];
      }
      ws[nt] = filter + ((size_t)fy * g->filter_w + fx) * g->out_c + c0;
      if (++nt == TFCC_Q16_DW_MAX_TAPS) {
        k->fn(nt, xs, ws, (size_t)nc, acc);
        nt = 0;
      }
    })
    if (nt) k->fn(nt, xs, ws, (size_t)nc, acc);
    k->req((size_t)nc, acc, bias64, bias32, q, c0, out + out_base + c0);
  })
}
