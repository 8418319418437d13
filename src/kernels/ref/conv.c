/* Reference 2-D convolution kernels (float and integer, TFLite bit-exact);
 * the contract is in conv.h. */
#include "kernels/ref/conv.h"

#include <stddef.h>

#include "kernels/ref/conv_acc.h"

/* Grouped convolution: output channel oc reads the filter_in_c input channels of its group. */
#define TFCC_CONV_LOOP(ACC_T, ACC_INIT, IN_EXPR, F_EXPR, FINISH) \
  const int32_t groups = g->in_c / g->filter_in_c; \
  const int32_t per_group = g->out_c / groups; \
  const int32_t fic = g->filter_in_c; \
  TFCC_CONV_PIXELS(for (int32_t oc = 0; oc < g->out_c; oc++) { \
    const int32_t grp = oc / per_group; \
    ACC_T acc = ACC_INIT; \
    TFCC_CONV_TAPS(const size_t ib = \
                       (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c + (size_t)grp * fic; \
                   const size_t fb = (((size_t)oc * g->filter_h + fy) * g->filter_w + fx) * fic; \
                   for (int32_t ic = 0; ic < fic; ic++) acc += (IN_EXPR) * (F_EXPR);) \
    FINISH; \
  })

void tfcc_conv_f32(const tfcc_conv_geom *g, const float *in, const float *filter, const float *bias,
                   float act_min, float act_max, float *out) {
  TFCC_CONV_LOOP(float, 0.f, in[ib + ic], filter[fb + ic], {
    out[out_base + oc] = tfcc_bias_act_f32(acc, bias, (size_t)oc, act_min, act_max);
  })
}

void tfcc_conv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                  const uint8_t *filter, const int32_t *bias, uint8_t *out) {
  const int32_t io = q->input_offset, fo = q->filter_offset;
  TFCC_CONV_LOOP(int64_t, 0, (int32_t)in[ib + ic] + io, (int32_t)filter[fb + ic] + fo,
                 { out[out_base + oc] = (uint8_t)tfcc_requant32_b(acc, bias, q, oc); })
}

void tfcc_conv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                  const int8_t *filter, const int32_t *bias, int8_t *out) {
  const int32_t io = q->input_offset;
  TFCC_CONV_LOOP(int64_t, 0, (int32_t)in[ib + ic] + io, (int32_t)filter[fb + ic],
                 { out[out_base + oc] = (int8_t)tfcc_requant32_b(acc, bias, q, oc); })
}

void tfcc_conv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                   const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                   int16_t *out) {
  const int32_t io = q->input_offset;
  TFCC_CONV_LOOP(int64_t, 0, (int64_t)((int32_t)in[ib + ic] + io), (int64_t)filter[fb + ic], {
    out[out_base + oc] = (int16_t)(bias32 ? tfcc_requant16_b32(acc, bias32[oc], q, oc)
                                          : tfcc_requant64(acc, bias64 ? bias64[oc] : 0, q, oc));
  })
}
