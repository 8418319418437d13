/* int16 x int8 GEMM micro-kernel and requantization, wasmsimd build of the shared body (gemm_body.h): 4 x 8. */
#include "kernels/q16-gemm/q16v_wasmsimd.h"
#define TFCC_Q16_GEMM_FN tfcc_q16_gemm_wasmsimd
#define TFCC_Q16_GEMM_REQ_FN tfcc_q16_gemm_req_wasmsimd
#define TFCC_Q16_GEMM_WIDEN_FN tfcc_q16_gemm_widen_wasmsimd
#define TFCC_Q16_GEMM_FUSED_FN tfcc_q16_gemm_fused_wasmsimd
#define TFCC_Q16_GEMM_REQ32_FN tfcc_q16_gemm_req32_wasmsimd
#define Q16_MR TFCC_Q16_GEMM_MR_wasmsimd
#define Q16_NRV (TFCC_Q16_GEMM_NR_wasmsimd / Q16V_N)
#include "kernels/q16-gemm/gemm_body.h"
