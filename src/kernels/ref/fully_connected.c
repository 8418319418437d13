/* Reference fully-connected kernels (float and integer); the contract is in fully_connected.h. */
#include "kernels/ref/fully_connected.h"

#include <math.h>
#include <stddef.h>

#include "kernels/ref/conv_acc.h"

void tfcc_fc_f32(const tfcc_fc_dims *d, const float *in, const float *w, const float *bias,
                 float act_min, float act_max, float *out) {
  for (int32_t b = 0; b < d->batches; b++) {
    const float *x = in + (size_t)b * d->accum;
    for (int32_t u = 0; u < d->units; u++) {
      const float *wr = w + (size_t)u * d->accum;
      float total = 0.f;
      for (int32_t k = 0; k < d->accum; k++) total += x[k] * wr[k];
      out[(size_t)b * d->units + u] = tfcc_bias_act_f32(total, bias, (size_t)u, act_min, act_max);
    }
  }
}

/* The depth block of Eigen's GEBP for K (computeProductBlockingSizes, one thread, default 16 KiB
 * L1, scalar float, mr 1 and nr 4: (16384 - 16) / 20 rounded down to 8): at most 816, else the
 * blocks evened out in steps of 8 (measured on LiteRT: K 820 -> 416, 1000 -> 504, 1632 -> 816,
 * 2000 -> 672). */
int32_t tfcc_fc_eigen_kc(int32_t k) {
  const int32_t max_kc = 816, peel = 8;
  if (k <= max_kc) return k;
  if (k % max_kc == 0) return max_kc;
  return max_kc - peel * ((max_kc - 1 - k % max_kc) / (peel * (k / max_kc + 1)));
}

/* One output's sum over [k0, k1) in GEBP's order: a column of a 4-batch group keeps two sums,
 * even and odd k, over the depth rounded down to 8, adds them, then the rest in order; a batch
 * outside the groups of 4 sums in order. */
static float eigen_dot(const float *x, const float *wr, int32_t k0, int32_t k1, bool group) {
  float s0 = 0.f, s1 = 0.f;
  int32_t k = k0;
  if (group) {
    const int32_t kp = k0 + ((k1 - k0) & ~7);
    for (; k < kp; k += 2) { /* products and sums as separate statements: no contraction */
      const float p0 = x[k] * wr[k], p1 = x[k + 1] * wr[k + 1];
      s0 += p0;
      s1 += p1;
    }
    s0 += s1;
  }
  for (; k < k1; k++) {
    const float p = x[k] * wr[k];
    s0 += p;
  }
  return s0;
}

void tfcc_fc_f32_eigen(const tfcc_fc_dims *d, const float *in, const float *w, const float *bias,
                       float act_min, float act_max, float *out) {
  const int32_t kc = tfcc_fc_eigen_kc(d->accum), groups = d->batches - d->batches % 4;
  for (int32_t b = 0; b < d->batches; b++) {
    const float *x = in + (size_t)b * d->accum;
    for (int32_t u = 0; u < d->units; u++) {
      const float *wr = w + (size_t)u * d->accum;
      float total = 0.f;
      for (int32_t k0 = 0; k0 < d->accum; k0 += kc) {
        const int32_t k1 = d->accum - k0 < kc ? d->accum : k0 + kc;
        const float part = eigen_dot(x, wr, k0, k1, b < groups);
        total = k0 == 0 ? part : total + part;
      }
      out[(size_t)b * d->units + u] = tfcc_bias_act_f32(total, bias, (size_t)u, act_min, act_max);
    }
  }
}

void tfcc_fc_f32_eigen_gemv(const tfcc_fc_dims *d, const float *in, const float *w,
                            const float *bias, float act_min, float act_max, float *out) {
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t u = 0; u < d->units; u++) {
      const float s =
          eigen_dot(in + (size_t)b * d->accum, w + (size_t)u * d->accum, 0, d->accum, false);
      out[(size_t)b * d->units + u] = tfcc_bias_act_f32(s, bias, (size_t)u, act_min, act_max);
    }
}

#define TFCC_FC_LOOP(IN_T, W_T, FINISH) \
  for (int32_t b = 0; b < d->batches; b++) { \
    const IN_T *x = in + (size_t)b * d->accum; \
    for (int32_t u = 0; u < d->units; u++) { \
      const W_T *wr = w + (size_t)u * d->accum; \
      int64_t acc = 0; \
      for (int32_t k = 0; k < d->accum; k++) \
        acc += (int64_t)((int32_t)wr[k] + fo) * ((int32_t)x[k] + io); \
      const size_t oi = (size_t)b * d->units + u; \
      FINISH; \
    } \
  }

void tfcc_fc_u8(const tfcc_fc_dims *d, const tfcc_conv_requant *q, const uint8_t *in,
                const uint8_t *w, const int32_t *bias, uint8_t *out) {
  const int32_t io = q->input_offset, fo = q->filter_offset;
  TFCC_FC_LOOP(uint8_t, uint8_t, out[oi] = (uint8_t)tfcc_requant32_b(acc, bias, q, u))
}

void tfcc_fc_i8(const tfcc_fc_dims *d, const tfcc_conv_requant *q, const int8_t *in,
                const int8_t *w, const int32_t *bias, int8_t *out) {
  const int32_t io = q->input_offset, fo = q->filter_offset;
  TFCC_FC_LOOP(int8_t, int8_t, out[oi] = (int8_t)tfcc_requant32_b(acc, bias, q, u))
}

/* round(acc * real) as a double, to int32 (saturated before the conversion), plus the output
 * offset, clamped to the activation range. */
static int32_t rescale_real(double acc, double real, const tfcc_conv_requant *q) {
  double v = round(acc * real);
  if (v > 2147483647.0) v = 2147483647.0;
  if (v < -2147483648.0) v = -2147483648.0;
  return tfcc_clamp_i32((int32_t)((int64_t)v + q->output_offset), q->act_min, q->act_max);
}

int16_t tfcc_fc_i16_out(int64_t acc, int32_t u, const tfcc_conv_requant *q, const int64_t *bias64,
                        const int32_t *bias32, const double *real) {
  if (real) {
    const double rs = real[u * q->mult_stride];
    /* an int64 bias near its limits (a hostile file) wraps as two's complement, not UB */
    const double a = bias32 ? (double)tfcc_wrap_i32(acc + bias32[u])
                            : (double)(int64_t)((uint64_t)acc + (uint64_t)(bias64 ? bias64[u] : 0));
    return (int16_t)rescale_real(a, rs, q);
  }
  if (bias32) {
    int32_t a = tfcc_wrap_i32(acc + bias32[u]);
    const int32_t kk = u * q->mult_stride;
    int32_t v = tfcc_mbqm(a, q->mult[kk], q->shift[kk]);
    v = (int32_t)((int64_t)v + q->output_offset);
    return (int16_t)tfcc_clamp_i32(v, q->act_min, q->act_max);
  }
  return (int16_t)tfcc_requant64(acc, bias64 ? bias64[u] : 0, q, u);
}

void tfcc_fc_i16(const tfcc_fc_dims *d, const tfcc_conv_requant *q, const int16_t *in,
                 const int8_t *w, const int64_t *bias64, const int32_t *bias32, const double *real,
                 int16_t *out) {
  const int32_t io = 0, fo = q->filter_offset;
  TFCC_FC_LOOP(int16_t, int8_t, out[oi] = tfcc_fc_i16_out(acc, u, q, bias64, bias32, real))
}
