/* Float32 GEMV (one row: FULLY_CONNECTED at batch 1) on the packed panels of gemm.h:
 *
 *   c[n] = clamp(bias[n] + sum_k a[k] * B[n][k], lo, hi)
 *
 * Memory bound (every weight is read once per call: 5 MB for MobileNetV2's 1280 x 1000
 * classifier), so the kernels stream several panels at once, with software prefetch, and
 * the threads split the panels. Each output is still one chain, bias then k in order, the
 * sums of the GEMM tile (a row's result does not depend on the path that ran it). */
#ifndef TFCC_KERNELS_F32_GEMM_GEMV_H
#define TFCC_KERNELS_F32_GEMM_GEMV_H

#include <stddef.h>

#include "kernels/f32-gemm/gemm.h"

/* `np` consecutive panels of NR = 32 columns from panel p0 of p, columns [0, nc) of the run
 * (nc <= 32 * np, c at the run's first column), all of K (block by block: gemm.h's layout). */
typedef void (*tfcc_f32_gemv_multi_fn)(const tfcc_f32_packed *p, size_t p0, size_t np, size_t nc,
                                       const float *a, float *c, float lo, float hi);
void tfcc_f32_gemv_4x32_avx512(const tfcc_f32_packed *p, size_t p0, size_t np, size_t nc,
                               const float *a, float *c, float lo, float hi);
void tfcc_f32_gemv_4x8_wasmsimd(const tfcc_f32_packed *p, size_t p0, size_t np, size_t nc,
                                const float *a, float *c, float lo, float hi);
/* The multi-panel kernel for p's micro-kernel, or NULL (then the driver runs p->k->fn1 per
 * panel). */
const char *tfcc_f32_gemv_name(const tfcc_f32_packed *p);

struct tfcc_threadpool;
/* c[0..n) = row a (K floats) times the packed weights; panels split over the pool. */
void tfcc_f32_gemv(struct tfcc_threadpool *pool, const tfcc_f32_packed *p, const float *a, float *c,
                   float lo, float hi);

#endif
