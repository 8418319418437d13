/* int16 x int8 GEMM micro-kernel and requantization, neon build of the shared body (gemm_body.h): 6 x 8. */
#include "kernels/q16-gemm/q16v_neon.h"
#define TFCC_Q16_GEMM_FN tfcc_q16_gemm_neon
#define TFCC_Q16_GEMM_REQ_FN tfcc_q16_gemm_req_neon
#define TFCC_Q16_GEMM_WIDEN_FN tfcc_q16_gemm_widen_neon
#define TFCC_Q16_GEMM_FUSED_FN tfcc_q16_gemm_fused_neon
#define TFCC_Q16_GEMM_REQ32_FN tfcc_q16_gemm_req32_neon
#define Q16_MR TFCC_Q16_GEMM_MR_neon
#define Q16_NRV (TFCC_Q16_GEMM_NR_neon / Q16V_N)
#include "kernels/q16-gemm/gemm_body.h"
