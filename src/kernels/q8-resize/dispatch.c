/* q8 bilinear resize dispatch table, coordinate tables and row-parallel driver. */
#include "kernels/q8-resize/resize.h"
#include "kernels/dispatch_table.h"

#include "base/threadpool.h"

static const tfcc_q8_resize_kernel kernels[] = {
    TFCC_KERNELS_X86({"q8-resize-avx512", TFCC_ISA_AVX512, tfcc_q8_resize_avx512},
                     {"q8-resize-avx2", TFCC_ISA_AVX2, tfcc_q8_resize_avx2})
        TFCC_KERNELS_ARM64({"q8-resize-neon", TFCC_ISA_NEON, tfcc_q8_resize_neon}){
            "q8-resize-scalar", TFCC_ISA_GENERIC, tfcc_q8_resize_scalar},
};
TFCC_DISPATCH_TABLE_FNS(tfcc_q8_resize, tfcc_q8_resize_kernel)

size_t tfcc_q8_resize_scratch_bytes(const tfcc_resize_shape *s) {
  return sizeof(int32_t) * 3 *
         ((size_t)(s->out_w > 0 ? s->out_w : 0) + (size_t)(s->out_h > 0 ? s->out_h : 0));
}

typedef struct rs_job {
  const tfcc_q8_resize_kernel *k;
  const tfcc_resize_shape *s;
  bool is_signed;
  const void *in;
  void *out;
  const int32_t *xt, *yt;
} rs_job;

static void rs_range(void *ctx, size_t r0, size_t r1) {
  const rs_job *j = ctx;
  j->k->fn(j->s, j->is_signed, j->in, j->out, j->xt, j->yt, (int32_t)r0, (int32_t)r1);
}

void tfcc_q8_resize_bilinear(struct tfcc_threadpool *pool, const tfcc_q8_resize_kernel *k,
                             const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                             bool is_signed, const void *in, void *out, void *scratch) {
  if (s->batch <= 0 || s->out_h <= 0 || s->out_w <= 0 || s->depth <= 0) return;
  int32_t *xt = scratch, *yt = xt + 3 * (size_t)s->out_w;
  for (int32_t ox = 0; ox < s->out_w; ox++)
    tfcc_xnn_resize_axis(ox, s->in_w, s->out_w, align_corners, half_pixel, &xt[3 * ox],
                         &xt[3 * ox + 1], &xt[3 * ox + 2]);
  for (int32_t oy = 0; oy < s->out_h; oy++)
    tfcc_xnn_resize_axis(oy, s->in_h, s->out_h, align_corners, half_pixel, &yt[3 * oy],
                         &yt[3 * oy + 1], &yt[3 * oy + 2]);
  rs_job j = {k, s, is_signed, in, out, xt, yt};
  const int32_t rows = s->batch * s->out_h;
  int threads = tfcc_threadpool_size(pool);
  if ((double)rows * s->out_w * s->depth < 64.0 * 1024.0) threads = 1;
  tfcc_threadpool_run_split(threads > 1 ? pool : NULL, (size_t)rows,
                            threads > 1 ? 4 * (size_t)threads : 1, rs_range, &j);
}
