/* RESIZE_NEAREST_NEIGHBOR as kernels/move copies (tfcc_move_resize_nearest) against its twin
 * tfcc_ref_resize_nearest, byte for byte, on random shapes (sizes 1..30 up and down, depths
 * 1..20, element sizes 1, 2, 3, 4, 8, every mode; the 8-bit fixed-point coordinates included);
 * and uint8 RESIZE_BILINEAR in TFLite's builtin float arithmetic (tfcc_q8_resize_bilinear_u8_float)
 * against its reference twin tfcc_ref_resize_bilinear_u8, byte for byte, on random shapes
 * (batch 1..2, sizes 1..40 up and down, depths 1..40 and DeepLab's 21 at 33 -> 257 / 65 -> 513
 * like sizes), align_corners, half_pixel_centers and neither; the bytes past the output
 * untouched. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/move/resize_nearest.h"
#include "kernels/q8-resize/bilinear_u8.h"
#include "kernels/ref/resize.h"
#include "test_harness.h"

static uint32_t rng = 99u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t irand(int32_t lo, int32_t hi) {
  return lo + (int32_t)(urand() % (uint32_t)(hi - lo + 1));
}

static void run(const tfcc_resize_shape *s, bool align, bool half) {
  const size_t in_n = (size_t)s->batch * s->in_h * s->in_w * s->depth;
  const size_t out_n = (size_t)s->batch * s->out_h * s->out_w * s->depth;
  uint8_t *x = malloc(in_n + 1), *a = malloc(out_n + 16), *b = malloc(out_n + 16);
  void *scratch = malloc(tfcc_q8_resize_bilinear_u8_scratch_bytes(s) + 4);
  for (size_t i = 0; i < in_n; i++) x[i] = (uint8_t)urand();
  if (urand() % 4 == 0) /* saturated inputs: the 255.5 end */
    memset(x, 255, in_n);
  memset(a, 0x77, out_n + 16);
  memset(b, 0x77, out_n + 16);
  tfcc_ref_resize_bilinear_u8(s, align, half, x, a);
  tfcc_q8_resize_bilinear_u8_float(s, align, half, x, b, scratch);
  CHECKF(memcmp(a, b, out_n + 16) == 0,
         "u8 bilinear [%d %d %d %d] -> [%d %d] align %d half %d differs", (int)s->batch,
         (int)s->in_h, (int)s->in_w, (int)s->depth, (int)s->out_h, (int)s->out_w, (int)align,
         (int)half);
  free(x);
  free(a);
  free(b);
  free(scratch);
}

static void run_nearest(const tfcc_resize_shape *s, bool align, bool half, size_t es) {
  const size_t in_n = (size_t)s->batch * s->in_h * s->in_w * s->depth * es;
  const size_t out_n = (size_t)s->batch * s->out_h * s->out_w * s->depth * es;
  uint8_t *x = malloc(in_n + 1), *a = malloc(out_n + 16), *b = malloc(out_n + 16);
  void *scratch = malloc(tfcc_move_resize_nearest_scratch_bytes(s) + 8);
  for (size_t i = 0; i < in_n; i++) x[i] = (uint8_t)urand();
  memset(a, 0x66, out_n + 16);
  memset(b, 0x66, out_n + 16);
  tfcc_ref_resize_nearest(s, align, half, es, x, a);
  tfcc_move_resize_nearest(s, align, half, es, x, b, scratch);
  CHECKF(memcmp(a, b, out_n + 16) == 0,
         "nearest [%d %d %d %d] -> [%d %d] align %d half %d es %zu differs", (int)s->batch,
         (int)s->in_h, (int)s->in_w, (int)s->depth, (int)s->out_h, (int)s->out_w, (int)align,
         (int)half, es);
  free(x);
  free(a);
  free(b);
  free(scratch);
}

int main(void) {
  static const size_t sizes[] = {1, 2, 3, 4, 8};
  for (int k = 0; k < 3000; k++) {
    tfcc_resize_shape s = {irand(1, 2),  irand(1, 12), irand(1, 12),
                           irand(1, 20), irand(1, 30), irand(1, 30)};
    const int mode = k % 3;
    run_nearest(&s, mode == 1, mode == 2, sizes[(k / 3) % 5]);
  }
  static const tfcc_resize_shape nn_big[] = {{1, 20, 20, 255, 40, 40}, {1, 13, 13, 3, 416, 416}};
  for (size_t i = 0; i < sizeof nn_big / sizeof nn_big[0]; i++)
    for (int mode = 0; mode < 3; mode++) {
      run_nearest(&nn_big[i], mode == 1, mode == 2, 1);
      run_nearest(&nn_big[i], mode == 1, mode == 2, 4);
    }
  for (int k = 0; k < 3000; k++) {
    tfcc_resize_shape s = {irand(1, 2),  irand(1, 12), irand(1, 12),
                           irand(1, 40), irand(1, 40), irand(1, 40)};
    const int mode = k % 3;
    run(&s, mode == 1, mode == 2);
  }
  static const tfcc_resize_shape big[] = {
      {1, 33, 33, 21, 257, 257}, {1, 65, 65, 21, 513, 513}, {2, 17, 9, 8, 129, 65}};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
    for (int mode = 0; mode < 3; mode++) run(&big[i], mode == 1, mode == 2);
  return tfcc_test_finish("ops.test_resize_move");
}
