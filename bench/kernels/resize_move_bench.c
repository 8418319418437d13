/* Kernel micro-benchmark: session 38's data-movement kernels against their reference twins,
 * best of N calls each, alternated, thread CPU time (bench_clock.h):
 *   uint8 RESIZE_BILINEAR align_corners (DeepLab heads): tfcc_ref_resize_bilinear_u8 vs
 *     tfcc_q8_resize_bilinear_u8_float;
 *   RESIZE_NEAREST_NEIGHBOR (YOLOv8 int8 necks, a float upsample): tfcc_ref_resize_nearest vs
 *     tfcc_move_resize_nearest;
 *   SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND of a dilated 1-D convolution (float32 [1,1,64,128],
 *     block 1x3): tfcc_ref_* vs tfcc_move_*.
 * Usage: resize_move_bench [reps] (default 21). */
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"
#include "kernels/move/resize_nearest.h"
#include "kernels/move/space_batch.h"
#include "kernels/q8-resize/bilinear_u8.h"
#include "kernels/ref/pad.h"

int main(int argc, char **argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 21;
  static const tfcc_resize_shape bl[] = {{1, 65, 65, 2, 513, 513},
                                         {1, 1, 1, 256, 65, 65},
                                         {1, 33, 33, 21, 257, 257},
                                         {1, 65, 65, 21, 513, 513}};
  for (size_t i = 0; i < sizeof bl / sizeof bl[0]; i++) {
    const tfcc_resize_shape *s = &bl[i];
    const size_t in_n = (size_t)s->in_h * s->in_w * s->depth;
    const size_t on = (size_t)s->out_h * s->out_w * s->depth;
    uint8_t *x = malloc(in_n), *o = malloc(on);
    void *sc = malloc(tfcc_q8_resize_bilinear_u8_scratch_bytes(s));
    for (size_t k = 0; k < in_n; k++) x[k] = (uint8_t)rand();
    double br = 1e30, bf = 1e30;
    for (int r = 0; r < reps; r++) {
      double t = bench_now();
      tfcc_ref_resize_bilinear_u8(s, true, false, x, o);
      t = bench_now() - t;
      if (t < br) br = t;
      t = bench_now();
      tfcc_q8_resize_bilinear_u8_float(s, true, false, x, o, sc);
      t = bench_now() - t;
      if (t < bf) bf = t;
    }
    printf("bilinear u8 align %dx%dx%d -> %dx%d: ref %.3f ms, fast %.3f ms\n", (int)s->in_h,
           (int)s->in_w, (int)s->depth, (int)s->out_h, (int)s->out_w, br * 1e3, bf * 1e3);
    free(x);
    free(o);
    free(sc);
  }
  static const struct {
    tfcc_resize_shape s;
    size_t es;
  } nn[] = {{{1, 20, 20, 256, 40, 40}, 1},
            {{1, 40, 40, 128, 80, 80}, 1},
            {{1, 96, 96, 64, 192, 192}, 4},
            {{1, 20, 20, 3, 40, 40}, 4}};
  for (size_t i = 0; i < sizeof nn / sizeof nn[0]; i++) {
    const tfcc_resize_shape *s = &nn[i].s;
    const size_t es = nn[i].es;
    const size_t in_n = (size_t)s->in_h * s->in_w * s->depth * es;
    const size_t on = (size_t)s->out_h * s->out_w * s->depth * es;
    uint8_t *x = malloc(in_n), *o = malloc(on);
    void *sc = malloc(tfcc_move_resize_nearest_scratch_bytes(s));
    for (size_t k = 0; k < in_n; k++) x[k] = (uint8_t)rand();
    double br = 1e30, bf = 1e30;
    for (int r = 0; r < reps; r++) {
      double t = bench_now();
      tfcc_ref_resize_nearest(s, false, false, es, x, o);
      t = bench_now() - t;
      if (t < br) br = t;
      t = bench_now();
      tfcc_move_resize_nearest(s, false, false, es, x, o, sc);
      t = bench_now() - t;
      if (t < bf) bf = t;
    }
    printf("nearest %dx%dx%d (%zu-byte) -> %dx%d: ref %.4f ms, move %.4f ms\n", (int)s->in_h,
           (int)s->in_w, (int)s->depth, es, (int)s->out_h, (int)s->out_w, br * 1e3, bf * 1e3);
    free(x);
    free(o);
    free(sc);
  }
  const int32_t T = 64, C = 128, d = 3, pad = 3;
  const int32_t sp[4] = {1, 1, T, C}, bt[4] = {d, 1, (T + 2 * pad) / d, C};
  float *x = calloc((size_t)T * C, 4), *a = calloc((size_t)bt[0] * bt[2] * C, 4);
  float *b = calloc((size_t)T * C, 4);
  double t0 = 1e30, t1 = 1e30, t2 = 1e30, t3 = 1e30;
  for (int r = 0; r < reps * 3; r++) {
    double t = bench_now();
    tfcc_ref_space_to_batch(x, sp, bt, 1, d, 0, pad, 0, 4, a);
    t = bench_now() - t;
    if (t < t0) t0 = t;
    t = bench_now();
    tfcc_move_space_to_batch(x, sp, bt, 1, d, 0, pad, 0, 4, a);
    t = bench_now() - t;
    if (t < t1) t1 = t;
    t = bench_now();
    tfcc_ref_batch_to_space(a, bt, sp, 1, d, 0, pad, 4, b);
    t = bench_now() - t;
    if (t < t2) t2 = t;
    t = bench_now();
    tfcc_move_batch_to_space(a, bt, sp, 1, d, 0, pad, 4, b);
    t = bench_now() - t;
    if (t < t3) t3 = t;
  }
  printf("space_to_batch f32 [1,1,%d,%d] block 1x%d pad %d: ref %.4f ms, move %.4f ms\n", T, C, d,
         pad, t0 * 1e3, t1 * 1e3);
  printf("batch_to_space (its inverse): ref %.4f ms, move %.4f ms\n", t2 * 1e3, t3 * 1e3);
  free(x);
  free(a);
  free(b);
  return 0;
}
