/* RESIZE_NEAREST_NEIGHBOR as pixel and row copies (see resize_nearest.h). */
#include "kernels/move/resize_nearest.h"

#include <stdint.h>
#include <string.h>

size_t tfcc_move_resize_nearest_scratch_bytes(const tfcc_resize_shape *s) {
  return sizeof(int64_t) * (size_t)(s->out_w > 0 ? s->out_w : 0);
}

/* The pixels of one output row: dst[x] <- src + xt[x], px bytes each; a fixed px gives fixed-size
 * moves. */
#define NN_ROW(PX) \
  for (int32_t x = 0; x < ow; x++) memcpy(dst + (size_t)x * (PX), src + xt[x], (PX))

static void nn_row(uint8_t *dst, const uint8_t *src, const int64_t *xt, int32_t ow, size_t px) {
  switch (px) {
    case 1: NN_ROW(1); break;
    case 2: NN_ROW(2); break;
    case 3: NN_ROW(3); break;
    case 4: NN_ROW(4); break;
    case 6: NN_ROW(6); break;
    case 8: NN_ROW(8); break;
    case 12: NN_ROW(12); break;
    case 16: NN_ROW(16); break;
    case 24: NN_ROW(24); break;
    case 32: NN_ROW(32); break;
    case 48: NN_ROW(48); break;
    case 64: NN_ROW(64); break;
    default: NN_ROW(px); break;
  }
}

void tfcc_move_resize_nearest(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                              size_t es, const void *in, void *out, void *scratch) {
  if (s->batch <= 0 || s->out_h <= 0 || s->out_w <= 0 || s->depth <= 0) return;
  const size_t px = (size_t)s->depth * es;
  const size_t in_row = (size_t)s->in_w * px, out_row = (size_t)s->out_w * px;
  int64_t *xt = scratch;
  for (int32_t x = 0; x < s->out_w; x++)
    xt[x] = (int64_t)tfcc_ref_resize_nearest_coord(x, s->in_w, s->out_w, align_corners, half_pixel,
                                                   es) *
            (int64_t)px;
  const uint8_t *src = in;
  uint8_t *dst = out;
  for (int32_t b = 0; b < s->batch; b++) {
    const uint8_t *img = src + (size_t)b * (size_t)s->in_h * in_row;
    int32_t prev = -1;
    for (int32_t y = 0; y < s->out_h; y++, dst += out_row) {
      const int32_t iy =
          tfcc_ref_resize_nearest_coord(y, s->in_h, s->out_h, align_corners, half_pixel, es);
      if (iy == prev)
        memcpy(dst, dst - out_row, out_row);
      else
        nn_row(dst, img + (size_t)iy * in_row, xt, s->out_w, px);
      prev = iy;
    }
  }
}
