/* int16 x int8 depthwise sums and requantization, avx2 build of the shared bodies
 * (dwconv_body.h; dwpair_body.h on dwp_avx2.h). */
#include "kernels/simd/q16_requant_x86.h"
#include "kernels/q16-dwconv/dwp_avx2.h"
#define TFCC_Q16_DW_FN tfcc_q16_dw_avx2
#define TFCC_Q16_DW_REQ_FN tfcc_q16_dw_req_avx2
#define TFCC_Q16_DWP_FN tfcc_q16_dwp_avx2
#define TFCC_Q16_DWP_PACK_FN tfcc_q16_dwp_pack_avx2
#define TFCC_Q16_DWF_FN tfcc_q16_dwf_avx2
#include "kernels/q16-dwconv/dwconv_body.h"
#include "kernels/q16-dwconv/dwpair_body.h"
