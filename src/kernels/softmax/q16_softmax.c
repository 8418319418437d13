/* int16 softmax dispatch table (vector variants on x86, NEON and SIMD128; the reference
 * otherwise) and threaded driver (rows split over the pool). */
#include "base/threadpool.h"
#include "kernels/dispatch_table.h"
#include "kernels/softmax/softmax.h"

static void q16_softmax_ref(const int16_t *in, int16_t *out, size_t rows, size_t depth,
                            const tfcc_softmax_i16_params *p) {
  tfcc_softmax_i16(in, out, rows, depth, p);
}

static const tfcc_q16_softmax_kernel kernels[] = {
    TFCC_KERNELS_X86({"q16-softmax-avx512", TFCC_ISA_AVX512, tfcc_q16_softmax_avx512},
                     {"q16-softmax-avx2", TFCC_ISA_AVX2, tfcc_q16_softmax_avx2})
        TFCC_KERNELS_ARM64({"q16-softmax-neon", TFCC_ISA_NEON, tfcc_q16_softmax_neon})
            TFCC_KERNELS_WASMSIMD(
                {"q16-softmax-wasmsimd", TFCC_ISA_WASMSIMD, tfcc_q16_softmax_wasmsimd}){
                "q16-softmax-ref", TFCC_ISA_GENERIC, q16_softmax_ref},
};
TFCC_DISPATCH_TABLE_FNS(tfcc_q16_softmax, tfcc_q16_softmax_kernel)

typedef struct q16sm_job {
  const tfcc_q16_softmax_kernel *k;
  const int16_t *in;
  int16_t *out;
  size_t depth;
  const tfcc_softmax_i16_params *p;
} q16sm_job;

static void q16sm_range(void *ctx, size_t r0, size_t r1) {
  const q16sm_job *j = ctx;
  j->k->fn(j->in + r0 * j->depth, j->out + r0 * j->depth, r1 - r0, j->depth, j->p);
}

void tfcc_q16_softmax_run(struct tfcc_threadpool *pool, const tfcc_q16_softmax_kernel *k,
                          const int16_t *in, int16_t *out, size_t outer, size_t depth,
                          const tfcc_softmax_i16_params *p) {
  if (outer == 0 || depth == 0) return;
  if (p->input_shift < -31 || p->input_multiplier == INT32_MIN) {
    tfcc_softmax_i16(in, out, outer, depth, p);
    return;
  }
  const size_t tasks = tfcc_softmax_tasks(pool, outer, depth);
  if (!tasks) {
    k->fn(in, out, outer, depth, p);
    return;
  }
  q16sm_job j = {k, in, out, depth, p};
  tfcc_threadpool_run_split(pool, outer, tasks, q16sm_range, &j);
}
