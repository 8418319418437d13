/* int16 x int8 GEMM micro-kernel and requantization, scalar build of the shared body (gemm_body.h): 2 x 8. */
#include "kernels/q16-gemm/q16v_scalar.h"
#define TFCC_Q16_GEMM_FN tfcc_q16_gemm_scalar
#define TFCC_Q16_GEMM_REQ_FN tfcc_q16_gemm_req_scalar
#define TFCC_Q16_GEMM_WIDEN_FN tfcc_q16_gemm_widen_scalar
#define TFCC_Q16_GEMM_FUSED_FN tfcc_q16_gemm_fused_scalar
#define TFCC_Q16_GEMM_REQ32_FN tfcc_q16_gemm_req32_scalar
#define Q16_MR TFCC_Q16_GEMM_MR_scalar
#define Q16_NRV (TFCC_Q16_GEMM_NR_scalar / Q16V_N)
#include "kernels/q16-gemm/gemm_body.h"
