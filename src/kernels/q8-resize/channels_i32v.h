/* q8r_channels of the x86 q8 resize kernels (kernels/q8-resize/resize_body.h), written once
 * over the i32v primitives (kernels/simd/i32v.h): the includer first includes its ISA's
 * i32v_<isa>.h. I32V_N channels per step, the tail through the partial loads and stores. */
#ifndef TFCC_KERNELS_Q8_RESIZE_CHANNELS_I32V_H
#define TFCC_KERNELS_Q8_RESIZE_CHANNELS_I32V_H

#include "kernels/q8-resize/resize.h"

/* tfcc_xnn_ibilinear per lane: t = tl<<11 + (tr-tl)*wx, b likewise, (t<<11 + (b-t)*wy + 2^21)
 * >> 22 arithmetic. Every intermediate stays inside int32 for 8-bit inputs; the result is in
 * the inputs' range. */
static inline i32v q8r_lerp(i32v tl, i32v tr, i32v bl, i32v br, i32v wx, i32v wy) {
  const i32v t = i32v_add(i32v_slli(tl, 11), i32v_mullo(i32v_sub(tr, tl), wx));
  const i32v b = i32v_add(i32v_slli(bl, 11), i32v_mullo(i32v_sub(br, bl), wx));
  const i32v acc =
      i32v_add(i32v_add(i32v_slli(t, 11), i32v_mullo(i32v_sub(b, t), wy)), i32v_set(1 << 21));
  return i32v_srai(acc, 22);
}

static inline size_t q8r_channels(int8_t *o, const int8_t *const *p, int32_t wx, int32_t wy, bool s,
                                  size_t d) {
  const i32v vx = i32v_set(wx), vy = i32v_set(wy);
  size_t c = 0;
  for (; c + I32V_N <= d; c += I32V_N)
    i32v_st_i8(o + c,
               q8r_lerp(i32v_ld_i8(p[0] + c, s), i32v_ld_i8(p[1] + c, s), i32v_ld_i8(p[2] + c, s),
                        i32v_ld_i8(p[3] + c, s), vx, vy),
               s);
  if (c < d) {
    const size_t n = d - c;
    i32v_st_i8_n(o + c,
                 q8r_lerp(i32v_ld_i8_n(p[0] + c, n, s), i32v_ld_i8_n(p[1] + c, n, s),
                          i32v_ld_i8_n(p[2] + c, n, s), i32v_ld_i8_n(p[3] + c, n, s), vx, vy),
                 n, s);
  }
  return d;
}

#endif
