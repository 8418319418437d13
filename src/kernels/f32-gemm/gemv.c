/* GEMV driver: panels split into contiguous blocks over the pool (each weight byte read by
 * one thread, about 4 blocks per thread), each block run by the ISA's multi-panel kernel
 * (AVX-512, wasm SIMD128: 4 panels at once) or, at other levels, the one-row micro-kernel
 * panel by panel. No allocation. */
#include "kernels/f32-gemm/gemv.h"

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/ukernels.h"
#include "base/threadpool.h"

/* Below this many weight bytes one thread streams them faster than waking the pool. */
#define TFCC_F32_GEMV_MIN_PARALLEL_BYTES (256u * 1024u)

static tfcc_f32_gemv_multi_fn multi_fn(const tfcc_f32_packed *p) {
#if defined(__x86_64__) || defined(__i386__)
  if (p->k->fn1 == tfcc_f32_gemm_1x32_avx512 && p->k->nr == 32) return tfcc_f32_gemv_4x32_avx512;
#endif
#if defined(__wasm_simd128__)
  if (p->k->fn1 == tfcc_f32_gemm_1x8_wasmsimd && p->k->nr == 8) return tfcc_f32_gemv_4x8_wasmsimd;
#endif
  (void)p;
  return NULL;
}

const char *tfcc_f32_gemv_name(const tfcc_f32_packed *p) {
  if (!multi_fn(p)) return p->k->name1;
#if defined(__wasm_simd128__)
  return "f32-gemv-4x8-wasmsimd";
#else
  return "f32-gemv-4x32-avx512";
#endif
}

typedef struct gemv_job {
  const tfcc_f32_packed *p;
  tfcc_f32_gemv_multi_fn fn;
  const float *a;
  float *c;
  float lo, hi;
  size_t panels, per_task;
} gemv_job;

static void gemv_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const gemv_job *j = ctx;
  const tfcc_f32_packed *p = j->p;
  const size_t NR = (size_t)p->k->nr, N = (size_t)p->n;
  const size_t p0 = task * j->per_task;
  const size_t p1 = p0 + j->per_task < j->panels ? p0 + j->per_task : j->panels;
  if (j->fn) {
    const size_t n0 = p0 * NR, n1 = p1 * NR < N ? p1 * NR : N;
    j->fn(p, p0, p1 - p0, n1 - n0, j->a, j->c + n0, j->lo, j->hi);
    return;
  }
  for (size_t pi = p0; pi < p1; pi++) {
    const size_t n0 = pi * NR, nc = N - n0 < NR ? N - n0 : NR;
    tfcc_f32_panel_row(p, pi, nc, j->a, j->c + n0, false, j->lo, j->hi);
  }
}

void tfcc_f32_gemv(struct tfcc_threadpool *pool, const tfcc_f32_packed *p, const float *a, float *c,
                   float lo, float hi) {
  if (p->n <= 0) return;
  gemv_job j = {p, multi_fn(p), a, c, lo, hi, 0, 0};
  const size_t NR = (size_t)p->k->nr;
  j.panels = ((size_t)p->n + NR - 1) / NR;
  size_t threads = (size_t)tfcc_threadpool_size(pool);
  if ((double)j.panels * (double)NR * ((double)p->kdim + 1.0) * 4.0 <
      (double)TFCC_F32_GEMV_MIN_PARALLEL_BYTES)
    threads = 1;
  /* about 4 tasks per thread (a thread descheduled on a shared machine leaves its work to
   * the others), each a whole number of 4-panel groups */
  size_t tasks = threads > 1 ? 4 * threads : 1;
  if (tasks > j.panels) tasks = j.panels;
  j.per_task = (j.panels + tasks - 1) / tasks;
  if (j.fn && threads > 1) j.per_task = (j.per_task + 3) & ~(size_t)3;
  tasks = (j.panels + j.per_task - 1) / j.per_task;
  tfcc_threadpool_run(tasks > 1 ? pool : NULL, tasks, gemv_task, &j);
}
