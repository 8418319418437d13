/* f32 GEMM micro-kernels, aarch64 NEON: 8 rows x 8 columns (16 q accumulators) and 1 x 8
 * (gemm_body.h). Built only for aarch64 (CMake drops *-neon.c elsewhere). The clamp is
 * FMAX/FMIN (NaN stays NaN), not f32v_max/f32v_min's compare and select. */
#include "kernels/simd/f32v_neon.h"
#define GEMM_CLAMP(v, lo, hi) vminq_f32(vmaxq_f32(v, lo), hi)
#define GEMM_FN tfcc_f32_gemm_8x8_neon
#define GEMM_FN1 tfcc_f32_gemm_1x8_neon
#define GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#include "kernels/f32-gemm/gemm_body.h"
