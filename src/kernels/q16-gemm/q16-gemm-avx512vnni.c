/* int16 x int8 GEMM micro-kernel and requantization, avx512vnni build of the shared body
 * (gemm_body.h): 6 x 32, VPDPWSSD (q16v_avx512.h). */
#include "kernels/q16-gemm/q16v_avx512.h"
#include "kernels/simd/q16_requant_x86.h"
#define TFCC_Q16_GEMM_FN tfcc_q16_gemm_avx512vnni
#define TFCC_Q16_GEMM_REQ_FN tfcc_q16_gemm_req_avx512vnni
#define TFCC_Q16_GEMM_WIDEN_FN tfcc_q16_gemm_widen_avx512vnni
#define TFCC_Q16_GEMM_FUSED_FN tfcc_q16_gemm_fused_avx512vnni
#define TFCC_Q16_GEMM_REQ32_FN tfcc_q16_gemm_req32_avx512vnni
#define Q16_MR TFCC_Q16_GEMM_MR_avx512vnni
#define Q16_NRV (TFCC_Q16_GEMM_NR_avx512vnni / Q16V_N)
#include "kernels/q16-gemm/gemm_body.h"
