/* The q8 depthwise micro-kernel's channel walk (ukernels.h), written once: the packed
 * layout (c16 = c rounded up to 16; pw: c16 int32 biases, c16 float scales, then each tap's
 * c16 weights, w' in the low 16 bits of an int32, or the taps in int16 pairs: tfcc_q8_dw_w16),
 * per step of Q8DW_N channels the sum of the taps, then either the int32 sums (o->c32) or
 * requantized bytes (tfcc_requant_fp32's arithmetic). Each ISA file defines, then includes
 * this body:
 *   Q8DW_N, q8dw_acc       channels per step and the type of their int32 sums
 *   q8dw_sum(bias, taps, ntaps, ch, n, w, c16, is_signed)  bias[0..] plus each tap t's bytes
 *                          taps[t] + ch (n = channels left, may be < Q8DW_N: read no more)
 *                          times its weights w + t * c16
 *   q8dw_store32(c32, acc)  the sums
 *   q8dw_requant(c, acc, scale, lo, hi, zp, n)  min(n, Q8DW_N) bytes
 *   Q8DW_FN_S, Q8DW_FN_U   the int8 and uint8 entry points' names
 * and optionally Q8DW_RUN_S, Q8DW_RUN_U: the entry points for runs of interior pixels
 * (tfcc_q8_dw_run_fn), which save the driver's tap pointers and call per pixel, and
 * Q8DW_RUN_FAST(c, ntaps, taps, pw, o, n, step, is_signed): a special case of the run that
 * writes the first channels of every pixel and returns how many (the rest as above). */
#include "kernels/q8-dwconv/ukernels.h"

/* inlined into each entry point, so that is_signed is a constant there */
#define Q8DW_INLINE static inline __attribute__((always_inline))

Q8DW_INLINE void pixel(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                       const tfcc_q8_out *o, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  const float lo = o->lo, hi = o->hi;
  const int32_t zp = o->zp;
  for (size_t ch = 0; ch < c; ch += Q8DW_N) {
    const q8dw_acc acc = q8dw_sum(pw + ch, taps, ntaps, ch, c - ch, w + ch, c16, is_signed);
    if (o->c32)
      q8dw_store32(o->c32 + ch, acc);
    else
      q8dw_requant(o->c + ch, acc, scale + ch, lo, hi, zp, c - ch);
  }
}

TFCC_Q8_DW_DECL(Q8DW_FN_S) { pixel(c, ntaps, taps, pw, o, true); }
TFCC_Q8_DW_DECL(Q8DW_FN_U) { pixel(c, ntaps, taps, pw, o, false); }

#ifdef Q8DW_RUN_S
/* n pixels, pixel i's taps step * i bytes on (the sum's channel offset carries it). */
Q8DW_INLINE void run(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                     const tfcc_q8_out *o, size_t n, size_t step, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  const float lo = o->lo, hi = o->hi;
  const int32_t zp = o->zp;
  uint8_t *out = o->c;
#ifdef Q8DW_RUN_FAST
  const size_t ch0 = Q8DW_RUN_FAST(c, ntaps, taps, pw, o, n, step, is_signed);
#else
  const size_t ch0 = 0;
#endif
  for (size_t i = 0, off = 0; ch0 < c && i < n; i++, off += step, out += c)
    for (size_t ch = ch0; ch < c; ch += Q8DW_N) {
      const q8dw_acc acc = q8dw_sum(pw + ch, taps, ntaps, off + ch, c - ch, w + ch, c16, is_signed);
      q8dw_requant(out + ch, acc, scale + ch, lo, hi, zp, c - ch);
    }
}

TFCC_Q8_DW_RUN_DECL(Q8DW_RUN_S) { run(c, ntaps, taps, pw, o, n, step, true); }
TFCC_Q8_DW_RUN_DECL(Q8DW_RUN_U) { run(c, ntaps, taps, pw, o, n, step, false); }
#endif
