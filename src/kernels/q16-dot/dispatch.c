/* int16 x int8 dot-product dispatch table and the 16x8 CONV_2D / FULLY_CONNECTED drivers on
 * it (dot.h): the reference kernels' walk and requantization, their sums from the vector
 * kernel. */
#include "kernels/q16-dot/dot.h"

#include "kernels/ref/conv_acc.h"
#include "kernels/ref/conv_walk.h"

#define Q16_DOT_ROW(name, fn, sfx, level) \
  { name "-" #sfx, level, fn##_##sfx, tfcc_q16_gemv_##sfx }
static const tfcc_q16_dot_kernel kernels[] = {
    TFCC_KERNEL_ROWS(Q16_DOT_ROW, "q16-dot", tfcc_q16_dot)};
TFCC_DISPATCH_TABLE_FNS(tfcc_q16_dot, tfcc_q16_dot_kernel)

/* Output channels per pass (the int64 sums on the stack). */
enum { Q16_OC_CHUNK = 256 };

static int16_t q16_requant(int64_t acc, const int64_t *bias64, const int32_t *bias32,
                           const tfcc_conv_requant *q, int32_t c) {
  return (int16_t)(bias32 ? tfcc_requant16_b32(acc, bias32[c], q, c)
                          : tfcc_requant64(acc, bias64 ? bias64[c] : 0, q, c));
}

bool tfcc_q16_conv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q) {
  return g->filter_in_c == g->in_c && g->in_c > 0 && q->input_offset == 0;
}

void tfcc_q16_conv(const tfcc_q16_dot_kernel *k, const tfcc_conv_geom *g,
                   const tfcc_conv_requant *q, const int16_t *in, const int8_t *filter,
                   const int64_t *bias64, const int32_t *bias32, int16_t *out) {
  const size_t fic = (size_t)g->in_c, oc_stride = (size_t)g->filter_h * g->filter_w * fic;
  int64_t acc[Q16_OC_CHUNK];
  TFCC_CONV_PIXELS(for (int32_t c0 = 0; c0 < g->out_c; c0 += Q16_OC_CHUNK) {
    const int32_t nc = g->out_c - c0 < Q16_OC_CHUNK ? g->out_c - c0 : Q16_OC_CHUNK;
    for (int32_t j = 0; j < nc; j++) acc[j] = 0;
    TFCC_CONV_TAPS(k->fn(in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * fic,
                         filter + (size_t)c0 * oc_stride + ((size_t)fy * g->filter_w + fx) * fic,
                         fic, (size_t)nc, oc_stride, 0, acc);)
    for (int32_t j = 0; j < nc; j++)
      out[out_base + (size_t)c0 + (size_t)j] = q16_requant(acc[j], bias64, bias32, q, c0 + j);
  })
}

void tfcc_q16_fc(const tfcc_q16_dot_kernel *k, const tfcc_fc_dims *d, const tfcc_conv_requant *q,
                 const int16_t *in, const int8_t *w, const int64_t *bias64, const int32_t *bias32,
                 const double *real, int16_t *out) {
  const size_t K = (size_t)d->accum;
  int64_t acc[Q16_OC_CHUNK];
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t u0 = 0; u0 < d->units; u0 += Q16_OC_CHUNK) {
      const int32_t nu = d->units - u0 < Q16_OC_CHUNK ? d->units - u0 : Q16_OC_CHUNK;
      for (int32_t j = 0; j < nu; j++) acc[j] = 0;
      if (q->filter_offset == 0)
        k->gemv(in + (size_t)b * K, w + (size_t)u0 * K, K, (size_t)nu, K, acc);
      else
        k->fn(in + (size_t)b * K, w + (size_t)u0 * K, K, (size_t)nu, K, q->filter_offset, acc);
      for (int32_t j = 0; j < nu; j++)
        out[(size_t)b * d->units + (size_t)(u0 + j)] =
            tfcc_fc_i16_out(acc[j], u0 + j, q, bias64, bias32, real);
    }
}
