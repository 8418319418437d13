/* SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND as per-block box copies (see space_batch.h). */
#include "kernels/move/space_batch.h"

#include <stdbool.h>
#include <string.h>

#include "kernels/move/move.h"

/* ceil(a / b) for b > 0 and any a. */
static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The batched rows [lo, hi) of block offset `off` whose space row h * block + off - before lies in
 * [0, size). */
static void inside(int64_t size, int64_t block, int64_t off, int64_t before, int64_t n, int64_t *lo,
                   int64_t *hi) {
  *lo = clamp64(ceil_div(before - off, block), 0, n);
  *hi = clamp64(ceil_div(size + before - off, block), *lo, n);
}

/* The box copy of one block: 4-D [B, rows, cols, C] between the batched block (element offset
 * bo, dense strides) and the space tensor (element offset so, strides every block_h rows and
 * block_w columns). */
static void box_plan(tfcc_move_plan *plan, const int32_t sp[4], const int32_t bt[4], int64_t rows,
                     int64_t cols, int32_t block_h, int32_t block_w, bool to_batch, size_t es) {
  const int64_t C = sp[3];
  const int32_t dims[4] = {sp[0], (int32_t)rows, (int32_t)cols, (int32_t)C};
  const int64_t bs[4] = {(int64_t)bt[1] * bt[2] * C, (int64_t)bt[2] * C, C, 1};
  const int64_t ss[4] = {(int64_t)sp[1] * sp[2] * C, (int64_t)block_h * sp[2] * C,
                         (int64_t)block_w * C, 1};
  if (to_batch)
    tfcc_move_plan_make(plan, 4, dims, ss, bs, es);
  else
    tfcc_move_plan_make(plan, 4, dims, bs, ss, es);
}

/* Both directions: sp the space dims, bt the batched dims; to_batch: src is the space tensor. */
static void space_batch(const uint8_t *src, uint8_t *dst, const int32_t sp[4], const int32_t bt[4],
                        int32_t block_h, int32_t block_w, int32_t top, int32_t left, size_t es,
                        bool to_batch, uint8_t pad_byte) {
  const int64_t B = sp[0], th = bt[1], tw = bt[2];
  const size_t px = (size_t)sp[3] * es; /* bytes of one pixel */
  if (B == 0 || bt[0] == 0) return;
  for (int32_t i = 0; i < block_h; i++) {
    int64_t h0, h1;
    inside(sp[1], block_h, i, top, th, &h0, &h1);
    for (int32_t j = 0; j < block_w; j++) {
      int64_t w0, w1;
      inside(sp[2], block_w, j, left, tw, &w0, &w1);
      /* this block's first batch index, and its first batched element */
      const int64_t b0 = ((int64_t)i * block_w + j) * B;
      if (to_batch && (h0 > 0 || h1 < th || w0 > 0 || w1 < tw)) {
        /* padding: rows outside whole, the inside rows' columns outside */
        for (int64_t b = 0; b < B; b++) {
          uint8_t *img = dst + (size_t)((b0 + b) * th * tw) * px;
          if (h0 > 0) memset(img, pad_byte, (size_t)(h0 * tw) * px);
          if (h1 < th)
            memset(img + (size_t)(h1 * tw) * px, pad_byte, (size_t)((th - h1) * tw) * px);
          if (w0 > 0 || w1 < tw)
            for (int64_t h = h0; h < h1; h++) {
              uint8_t *row = img + (size_t)(h * tw) * px;
              if (w0 > 0) memset(row, pad_byte, (size_t)w0 * px);
              if (w1 < tw) memset(row + (size_t)w1 * px, pad_byte, (size_t)(tw - w1) * px);
            }
        }
      }
      if (h1 <= h0 || w1 <= w0) continue;
      tfcc_move_plan plan;
      box_plan(&plan, sp, bt, h1 - h0, w1 - w0, block_h, block_w, to_batch, es);
      /* element offsets of the box's first pixel on both sides */
      const int64_t C = sp[3];
      const int64_t bo = ((b0 * th + h0) * tw + w0) * C;
      const int64_t y0 = h0 * block_h + i - top, x0 = w0 * block_w + j - left;
      const int64_t so = (y0 * sp[2] + x0) * C;
      if (to_batch)
        tfcc_move_run(&plan, src, so, dst, bo);
      else
        tfcc_move_run(&plan, src, bo, dst, so);
    }
  }
}

void tfcc_move_space_to_batch(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                              int32_t block_h, int32_t block_w, int32_t pad_top, int32_t pad_left,
                              uint8_t pad_byte, size_t es, void *out) {
  space_batch(in, out, in_dims, out_dims, block_h, block_w, pad_top, pad_left, es, true, pad_byte);
}

void tfcc_move_batch_to_space(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                              int32_t block_h, int32_t block_w, int32_t crop_top, int32_t crop_left,
                              size_t es, void *out) {
  space_batch(in, out, out_dims, in_dims, block_h, block_w, crop_top, crop_left, es, false, 0);
}

const char *tfcc_move_space_batch_kind(const int32_t space_dims[4], const int32_t batched_dims[4],
                                       int32_t block_h, int32_t block_w, size_t es) {
  tfcc_move_plan plan;
  box_plan(&plan, space_dims, batched_dims, batched_dims[1], batched_dims[2], block_h, block_w,
           true, es);
  return tfcc_move_kind_name(&plan);
}
