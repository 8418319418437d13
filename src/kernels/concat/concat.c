/* Strided block copies of CONCATENATION / SPLIT (contract in concat.h). */
#include "kernels/concat/concat.h"

#include <string.h>

/* Loop with a compile-time block size: each memcpy becomes one move (or two). */
#define FIXED(SZ) \
  for (int64_t k = 0; k < outer; k++, d += dst_stride, s += src_stride) memcpy(d, s, SZ); \
  return

/* Blocks of b bytes, lo <= b <= 2 * lo (lo a constant): the first and the last lo bytes, the
 * overlap written twice with the same bytes (destination blocks never overlap). */
#define OVERLAP(LO) \
  for (int64_t k = 0; k < outer; k++, d += dst_stride, s += src_stride) { \
    memcpy(d, s, LO); \
    memcpy(d + bytes - LO, s + bytes - LO, LO); \
  } \
  return

void tfcc_copy_blocks(void *dst, int64_t dst_stride, const void *src, int64_t src_stride,
                      size_t bytes, int64_t outer) {
  unsigned char *restrict d = dst;
  const unsigned char *restrict s = src;
  if (bytes == 0 || outer <= 0) return;
  if (dst_stride == (int64_t)bytes && src_stride == (int64_t)bytes) {
    memcpy(d, s, bytes * (size_t)outer); /* one contiguous run */
    return;
  }
  switch (bytes) {
    case 1: FIXED(1);
    case 2: FIXED(2);
    case 4: FIXED(4);
    case 8: FIXED(8);
    case 16: FIXED(16);
    case 32: FIXED(32);
    case 64: FIXED(64);
    default: break;
  }
  if (bytes < 4) { OVERLAP(2); } /* 3 */
  if (bytes < 8) { OVERLAP(4); }
  if (bytes < 16) { OVERLAP(8); }
  if (bytes < 32) { OVERLAP(16); }
  if (bytes < 64) { OVERLAP(32); }
  for (int64_t k = 0; k < outer; k++, d += dst_stride, s += src_stride) memcpy(d, s, bytes);
}

void tfcc_concat_copy(int32_t n, const void *const *in, const size_t *inner_bytes, int64_t outer,
                      void *out) {
  size_t row = 0;
  for (int32_t i = 0; i < n; i++) row += inner_bytes[i];
  unsigned char *o = out;
  for (int32_t i = 0; i < n; i++) {
    tfcc_copy_blocks(o, row, in[i], inner_bytes[i], inner_bytes[i], outer);
    o += inner_bytes[i];
  }
}

void tfcc_split_copy(const void *in, int32_t n, void *const *out, const size_t *inner_bytes,
                     int64_t outer) {
  size_t row = 0;
  for (int32_t i = 0; i < n; i++) row += inner_bytes[i];
  const unsigned char *p = in;
  for (int32_t i = 0; i < n; i++) {
    tfcc_copy_blocks(out[i], inner_bytes[i], p, row, inner_bytes[i], outer);
    p += inner_bytes[i];
  }
}
