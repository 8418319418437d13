/* Float32 bilinear resize written once over the f32v primitives (kernels/simd/f32v.h); each
 * ISA's file includes its primitives header, defines TFCC_F32_RESIZE_FN (the reference order)
 * and TFCC_F32_RESIZE_XNN_FN (XNNPACK's) and includes this body. F32V_N channels per step, partial vectors for channel tails; multiplies and adds as
 * separate operations (no FMA), in the reference's order. */
#include "kernels/f32-resize/resize.h"

static inline size_t rs_off4(const tfcc_resize_shape *s, int32_t b, int32_t y, int32_t x) {
  return (((size_t)b * (size_t)s->in_h + (size_t)y) * (size_t)s->in_w + (size_t)x) *
         (size_t)s->depth;
}

/* k lanes at p (k <= F32V_N) */
static inline f32v rs_ld(const float *p, size_t k) {
  return k == F32V_N ? f32v_ld(p) : f32v_ld_n(p, k);
}
static inline void rs_st(float *p, f32v v, size_t k) {
  if (k == F32V_N)
    f32v_st(p, v);
  else
    f32v_st_n(p, v, k);
}

static inline f32v rs_lerp4(const float *const *p, const f32v *w, size_t c, size_t k) {
  f32v acc = f32v_add(f32v_zero(), f32v_mul(rs_ld(p[0] + c, k), w[0]));
  acc = f32v_add(acc, f32v_mul(rs_ld(p[1] + c, k), w[1]));
  acc = f32v_add(acc, f32v_mul(rs_ld(p[2] + c, k), w[2]));
  return f32v_add(acc, f32v_mul(rs_ld(p[3] + c, k), w[3]));
}

TFCC_F32_RESIZE_DECL(TFCC_F32_RESIZE_FN) {
  const size_t D = (size_t)s->depth;
  const f32v half = f32v_set(0.5f); /* x / 2 and x * 0.5 round identically */
  if (!xt) {                        /* 2x upsampling: input row r -> output rows 2y, 2y + 1 */
    for (int32_t r = row0; r < row1; r++) {
      const int32_t b = r / s->in_h, y0 = r % s->in_h;
      const int32_t y1 = y0 + 1 < s->in_h - 1 ? y0 + 1 : s->in_h - 1;
      for (int32_t x0 = 0; x0 < s->in_w; x0++) {
        const int32_t x1 = x0 + 1 < s->in_w - 1 ? x0 + 1 : s->in_w - 1;
        const float *p00 = in + rs_off4(s, b, y0, x0), *p01 = in + rs_off4(s, b, y0, x1);
        const float *p10 = in + rs_off4(s, b, y1, x0), *p11 = in + rs_off4(s, b, y1, x1);
        float *o = out + (((size_t)b * s->out_h + 2 * (size_t)y0) * s->out_w + 2 * (size_t)x0) * D;
        const size_t oyo = D * (size_t)s->out_w;
        for (size_t c = 0; c < D; c += F32V_N) {
          const size_t k = D - c >= F32V_N ? F32V_N : D - c;
          const f32v a = rs_ld(p00 + c, k), bb = rs_ld(p01 + c, k);
          const f32v cc = rs_ld(p10 + c, k), d = rs_ld(p11 + c, k);
          const f32v bl = f32v_mul(f32v_add(a, cc), half);
          rs_st(o + c, a, k);
          rs_st(o + c + D, f32v_mul(f32v_add(a, bb), half), k);
          rs_st(o + c + oyo, bl, k);
          rs_st(o + c + D + oyo, f32v_mul(f32v_add(bl, f32v_mul(f32v_add(bb, d), half)), half), k);
        }
      }
    }
    return;
  }
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, y = r % s->out_h;
    const float dy = yt[y].frac;
    float *o = out + (size_t)r * s->out_w * D;
    for (int32_t x = 0; x < s->out_w; x++, o += D) {
      const float dx = xt[x].frac;
      const float ws[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
      const f32v w[4] = {f32v_set(ws[0]), f32v_set(ws[1]), f32v_set(ws[2]), f32v_set(ws[3])};
      const float *p[4] = {
          in + rs_off4(s, b, yt[y].lo, xt[x].lo), in + rs_off4(s, b, yt[y].lo, xt[x].hi),
          in + rs_off4(s, b, yt[y].hi, xt[x].lo), in + rs_off4(s, b, yt[y].hi, xt[x].hi)};
      for (size_t c = 0; c < D; c += F32V_N) {
        const size_t k = D - c >= F32V_N ? F32V_N : D - c;
        rs_st(o + c, rs_lerp4(p, w, c, k), k);
      }
    }
  }
}

/* XNNPACK's f32 ibilinear step on F32V_N channels: t = tl + (tr - tl) ax,
 * b = bl + (br - bl) ax, o = t + (b - t) ay, each product and sum rounded (its wasm SIMD
 * kernel has no FMA). */
static inline f32v rs_xnn_lerp(const float *const *p, f32v ax, f32v ay, size_t c, size_t k) {
  const f32v tl = rs_ld(p[0] + c, k), tr = rs_ld(p[1] + c, k);
  const f32v bl = rs_ld(p[2] + c, k), br = rs_ld(p[3] + c, k);
  const f32v t = f32v_add(tl, f32v_mul(f32v_sub(tr, tl), ax));
  const f32v b = f32v_add(bl, f32v_mul(f32v_sub(br, bl), ax));
  return f32v_add(t, f32v_mul(f32v_sub(b, t), ay));
}

TFCC_F32_RESIZE_DECL(TFCC_F32_RESIZE_XNN_FN) {
  const size_t D = (size_t)s->depth;
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, y = r % s->out_h;
    const f32v ay = f32v_set(yt[y].frac);
    float *o = out + (size_t)r * s->out_w * D;
    for (int32_t x = 0; x < s->out_w; x++, o += D) {
      const f32v ax = f32v_set(xt[x].frac);
      const float *p[4] = {
          in + rs_off4(s, b, yt[y].lo, xt[x].lo), in + rs_off4(s, b, yt[y].lo, xt[x].hi),
          in + rs_off4(s, b, yt[y].hi, xt[x].lo), in + rs_off4(s, b, yt[y].hi, xt[x].hi)};
      for (size_t c = 0; c < D; c += F32V_N) {
        const size_t k = D - c >= F32V_N ? F32V_N : D - c;
        rs_st(o + c, rs_xnn_lerp(p, ax, ay, c, k), k);
      }
    }
  }
}
