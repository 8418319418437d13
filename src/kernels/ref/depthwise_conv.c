/* Reference depthwise convolution kernels (float and integer);
 * the contract is in depthwise_conv.h. */
#include "kernels/ref/depthwise_conv.h"

#include <stddef.h>

#include "kernels/ref/conv_acc.h"

/* Output channel oc reads input channel oc / multiplier; filter [1, fh, fw, out_c]. */
#define TFCC_DW_LOOP(ACC_T, IN_EXPR, F_EXPR, FINISH) \
  const int32_t mult = g->out_c / g->in_c; \
  TFCC_CONV_PIXELS(for (int32_t oc = 0; oc < g->out_c; oc++) { \
    const int32_t ic = oc / mult; \
    ACC_T acc = 0; \
    TFCC_CONV_TAPS(const size_t ii = (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c + ic; \
                   const size_t fi = ((size_t)fy * g->filter_w + fx) * g->out_c + oc; \
                   acc += (IN_EXPR) * (F_EXPR);) \
    FINISH; \
  })

void tfcc_dwconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                     const float *bias, float act_min, float act_max, float *out) {
  TFCC_DW_LOOP(float, in[ii], filter[fi],
               { out[out_base + oc] = tfcc_bias_act_f32(acc, bias, (size_t)oc, act_min, act_max); })
}

void tfcc_dwconv_f32_bias_first(const tfcc_conv_geom *g, const float *in, const float *filter,
                                const float *bias, float act_min, float act_max, bool nan_to_hi,
                                float *out) {
  const int32_t mult = g->out_c / g->in_c;
  TFCC_CONV_PIXELS(for (int32_t oc = 0; oc < g->out_c; oc++) {
    const int32_t ic = oc / mult;
    float acc = bias ? bias[oc] : 0.f;
    TFCC_CONV_TAPS(const size_t ii = (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c + ic;
                   const size_t fi = ((size_t)fy * g->filter_w + fx) * g->out_c + oc;
                   const float p = in[ii] * filter[fi]; /* its own statement: never an FMA */
                   acc += p;)
    if (nan_to_hi) { /* std::min(act_max, acc), then std::max(act_min, .) */
      acc = acc < act_max ? acc : act_max;
      out[out_base + oc] = act_min < acc ? acc : act_min;
    } else {
      acc = acc < act_min ? act_min : acc;
      out[out_base + oc] = acc > act_max ? act_max : acc;
    }
  })
}

void tfcc_dwconv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                    const uint8_t *filter, const int32_t *bias, uint8_t *out) {
  const int32_t io = q->input_offset, fo = q->filter_offset;
  TFCC_DW_LOOP(int64_t, (int32_t)in[ii] + io, (int32_t)filter[fi] + fo,
               { out[out_base + oc] = (uint8_t)tfcc_requant32_b(acc, bias, q, oc); })
}

void tfcc_dwconv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                    const int8_t *filter, const int32_t *bias, int8_t *out) {
  const int32_t io = q->input_offset;
  TFCC_DW_LOOP(int64_t, (int32_t)in[ii] + io, (int32_t)filter[fi],
               { out[out_base + oc] = (int8_t)tfcc_requant32_b(acc, bias, q, oc); })
}

void tfcc_dwconv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                     const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                     int16_t *out) {
  const int32_t io = q->input_offset;
  TFCC_DW_LOOP(int64_t, (int64_t)((int32_t)in[ii] + io), (int64_t)filter[fi], {
    int64_t bv = bias64 ? bias64[oc] : (bias32 ? (int64_t)bias32[oc] : 0);
    out[out_base + oc] = (int16_t)tfcc_requant64(acc, bv, q, oc);
  })
}
