/* f32 GEMV kernel, AVX-512F (gemv_body.h): four 32-column panels at once (eight zmm
 * accumulators, eight independent load streams), prefetching each stream a fixed distance
 * ahead. */
#include <immintrin.h>

#include "kernels/simd/f32v_avx512.h"

/* Prefetch distance in k steps (x 128 bytes per panel): 4 KB ahead per stream. From memory
 * (MobileNetV2 1280 x 1000, weights not in cache, as in a model run) 8: 10.6 GB/s, 32: 13.4,
 * 64: 10.5; 8 panels at once instead of 4: no better. */
#define GEMV_PF_K 32
#define GEMV_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#define GEMV_FN tfcc_f32_gemv_4x32_avx512
#include "kernels/f32-gemm/gemv_body.h"
