/* f32 GEMM micro-kernels, SSE4.1: 4 rows x 8 columns (8 xmm accumulators) and 1 x 8
 * (gemm_body.h). Separate multiply and add (no FMA at this level). */
#include <smmintrin.h>

#include "kernels/simd/f32v.h"

/* the vector names gemm_body.h uses (there is no kernels/simd header for SSE4.1) */
typedef __m128 f32v;
#define F32V_N 4
#define f32v_ld(p) _mm_loadu_ps(p)
#define f32v_st(p, v) _mm_storeu_ps(p, v)
#define f32v_set(x) _mm_set1_ps(x)
#define f32v_fma(a, b, c) _mm_add_ps(c, _mm_mul_ps(a, b))
#define f32v_max(x, y) _mm_max_ps(x, y)
#define f32v_min(x, y) _mm_min_ps(x, y)
#define GEMM_LDW(p) _mm_load_ps(p)
#define GEMM_BCAST(p) _mm_load1_ps(p)

#define GEMM_FN tfcc_f32_gemm_4x8_sse4
#define GEMM_FN1 tfcc_f32_gemm_1x8_sse4
#define GEMM_ROWS(X) X(0) X(1) X(2) X(3)
#include "kernels/f32-gemm/gemm_body.h"
