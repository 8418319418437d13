/* f32 direct convolution dispatch table and row-parallel driver. */
#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/dispatch_table.h"
#include "base/threadpool.h"

static const tfcc_f32_direct_conv_kernel kernels[] = {
    TFCC_KERNELS_X86(
        {"f32-conv-direct-32-avx512", TFCC_ISA_AVX512, 32, tfcc_f32_direct_conv_32_avx512},
        {"f32-conv-direct-16-avx2", TFCC_ISA_AVX2, 16, tfcc_f32_direct_conv_16_avx2},
        {"f32-conv-direct-8-sse4", TFCC_ISA_SSE4, 8, tfcc_f32_direct_conv_8_sse4})
        TFCC_KERNELS_ARM64(
            {"f32-conv-direct-8-neon", TFCC_ISA_NEON, 8, tfcc_f32_direct_conv_8_neon})
            TFCC_KERNELS_WASMSIMD({"f32-conv-direct-8-wasmsimd", TFCC_ISA_WASMSIMD, 8,
                                   tfcc_f32_direct_conv_8_wasmsimd}){
                "f32-conv-direct-8-scalar", TFCC_ISA_GENERIC, 8, tfcc_f32_direct_conv_8_scalar},
};
TFCC_DISPATCH_TABLE_ACCESS_FNS(tfcc_f32_direct_conv, tfcc_f32_direct_conv_kernel)

bool tfcc_f32_direct_conv_fits(const tfcc_conv_geom *g) {
  const int64_t k = (int64_t)g->filter_h * g->filter_w * g->in_c;
  return g->in_c == g->filter_in_c && g->dil_h == 1 && g->dil_w == 1 &&
         g->filter_h * g->filter_w > 1 && k > 0 && k <= TFCC_F32_DIRECT_CONV_MAX_K &&
         g->stride_h > 0 && g->stride_w > 0;
}

TFCC_SELECT_FN const tfcc_f32_direct_conv_kernel *tfcc_f32_direct_conv_select(tfcc_isa isa,
                                                                              int nr) {
  for (int i = 0; i < tfcc_f32_direct_conv_n_kernels_; i++)
    if (kernels[i].nr == nr && tfcc_isa_level_fits(kernels[i].isa, isa)) return &kernels[i];
  return NULL;
}

typedef struct dc_job {
  const tfcc_f32_direct_conv_kernel *k;
  const tfcc_conv_geom *g;
  const float *in, *w;
  float lo, hi;
  float *out;
} dc_job;

static void dc_range(void *ctx, size_t r0, size_t r1) {
  const dc_job *j = ctx;
  j->k->fn(j->g, j->in, j->w, j->lo, j->hi, j->out, (int32_t)r0, (int32_t)r1);
}

void tfcc_f32_direct_conv(struct tfcc_threadpool *pool, const tfcc_f32_direct_conv_kernel *k,
                          const tfcc_conv_geom *g, const float *w, const float *in, float *out,
                          float lo, float hi) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->out_c <= 0) return;
  int threads = tfcc_threadpool_size(pool);
  const double macs =
      (double)g->batches * g->out_h * g->out_w * g->out_c * g->filter_h * g->filter_w * g->in_c;
  if (macs < 128.0 * 1024.0) { /* small layers: waking workers costs more than it saves */
    threads = 1;
    pool = NULL;
  }
  dc_job j = {k, g, in, w, lo, hi, out};
  tfcc_threadpool_run_split(pool, (size_t)g->batches * (size_t)g->out_h,
                            threads > 1 ? 4 * (size_t)threads : 1, dc_range, &j);
}
