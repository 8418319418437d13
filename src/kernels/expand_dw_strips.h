/* The strip walk the fused expand 1x1 + depthwise families run (f32-expand-dw, q8-expand-dw,
 * the hybrid pair of kernels/hybrid/expand_dw.c): the output rows are cut into strips; for each
 * strip the expanded input rows it needs are made into a per-thread window (rows the previous
 * strip already made move to the window's front), then the depthwise runs over the window as a
 * short image. One contiguous run of output rows per thread, so each run recomputes its halo
 * rows once; images that fit one window run in whole-image mode on a pool instead (expand_pool
 * below). The families supply the two halves (their GEMM and their depthwise) and their element
 * size; nothing here knows a dtype. */
#ifndef TFCC_KERNELS_EXPAND_DW_STRIPS_H
#define TFCC_KERNELS_EXPAND_DW_STRIPS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"

struct tfcc_threadpool;

/* Output rows per strip whose expanded rows (row_bytes each) fit in budget bytes (at least one;
 * at most the image's). */
int32_t tfcc_xdw_strip_rows(const tfcc_conv_geom *g, size_t row_bytes, size_t budget);
/* Bytes of one thread's window for strips of `strip` rows: whole rows, never more than the
 * image, rounded up to 64. */
size_t tfcc_xdw_window_bytes(const tfcc_conv_geom *g, size_t row_bytes, int32_t strip);

/* Float expanded rows (f32-expand-dw and the hybrid pair, kernels/hybrid/expand_dw.c): one row
 * in_w x in_c floats, a window of at most TFCC_XDW_F32_WINDOW_BYTES per thread, sized so it
 * stays in L2 (2 MiB per core here) next to the depthwise's output rows. MobileNetV2's 16
 * pairs, bench/kernels/expand_dw_bench, thread CPU time, unfused -> fused: 128 KiB 1.02x,
 * 256 KiB 0.94x, 512 KiB 0.89x, 1 MiB 0.88x (the 14x14 and 7x7 layers then run as one strip). */
#define TFCC_XDW_F32_WINDOW_BYTES (512u * 1024u)
static inline size_t tfcc_xdw_f32_row_bytes(const tfcc_conv_geom *g) {
  return (size_t)g->in_w * (size_t)g->in_c * sizeof(float);
}
static inline int32_t tfcc_xdw_f32_strip_rows(const tfcc_conv_geom *g) {
  return tfcc_xdw_strip_rows(g, tfcc_xdw_f32_row_bytes(g), TFCC_XDW_F32_WINDOW_BYTES);
}

typedef struct tfcc_xdw_walk {
  const tfcc_conv_geom *g; /* the depthwise's geometry over the expanded image */
  size_t row_bytes;        /* one expanded row: in_w x in_c elements */
  int32_t strip;           /* tfcc_xdw_strip_rows */
  uint8_t *scratch;        /* threads x thread_bytes; each thread's part starts with its window */
  size_t thread_bytes;
  /* Expands image b's input rows [from, to) into dst (row_bytes apart); thread: the thread's
   * part of scratch. */
  void (*expand)(void *ctx, int32_t b, int32_t from, int32_t to, uint8_t *dst, uint8_t *thread);
  /* The depthwise over the window as image w (its input row 0 is window row 0) into image b's
   * output rows [oy0, oy0 + w->out_h). */
  void (*dw)(void *ctx, int32_t b, int32_t oy0, const tfcc_conv_geom *w, const uint8_t *window,
             uint8_t *thread);
  void *ctx;
  /* Optional (NULL: strips only). Expands image b's input rows [from, to) into dst (row_bytes
   * apart) with the GEMM split over pool. With a pool of 2+ threads and an image whose expanded
   * rows fit one window (a single strip: the 14x14 and 7x7 layers), the walk expands the whole
   * image once over all threads into the start of scratch, then splits the depthwise's output
   * rows: no halo rows recomputed, and no thread expanding 5 of 7 rows while another expands 4. */
  void (*expand_pool)(void *ctx, struct tfcc_threadpool *pool, int32_t b, int32_t from, int32_t to,
                      uint8_t *dst);
} tfcc_xdw_walk;

/* Runs the walk over every output row of every image, split over pool (NULL: inline) unless
 * the layer's multiply-adds (macs) are too few to wake workers for. */
void tfcc_xdw_walk_run(struct tfcc_threadpool *pool, const tfcc_xdw_walk *w, double macs);

#endif
