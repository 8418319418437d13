/* The tap-pair weight layout of the x86 and wasm q16-dwconv pair kernels (dwpair_body.h):
 * their x rows are interleaved per 128-bit lane (unpacklo / unpackhi of two taps' int16
 * inputs), so a block of DWP_B channels is two vectors of int16 pairs, the first with
 * channels 0-3, 8-11, 16-19 ... of the block, the second with channels 4-7, 12-15 ... */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWP_X86_PACK_H
#define TFCC_KERNELS_Q16_DWCONV_DWP_X86_PACK_H

#include <stddef.h>
#include <stdint.h>

/* dst[i], i < 2 * bsz: the weight of tap a (even i) or tap b (odd i) of the channel the
 * interleave puts there; wb NULL: zeros (an odd tap count's last pair). */
static inline void dwp_pack_lanes(size_t bsz, const int8_t *wa, const int8_t *wb, int16_t *dst) {
  for (size_t i = 0; i < 2 * bsz; i++) {
    const size_t v = i / bsz, e = i % bsz, ch = e / 8 * 8 + v * 4 + e % 8 / 2;
    dst[i] = (int16_t)(e % 2 ? (wb ? wb[ch] : 0) : wa[ch]);
  }
}

#endif
