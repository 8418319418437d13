/* int16 x int8 depthwise sums and requantization, neon build of the shared bodies
 * (dwconv_body.h; dwpair_body.h on dwp_neon.h). */
#include "kernels/q16-dwconv/dwp_neon.h"
#define TFCC_Q16_DW_FN tfcc_q16_dw_neon
#define TFCC_Q16_DW_REQ_FN tfcc_q16_dw_req_neon
#define TFCC_Q16_DWP_FN tfcc_q16_dwp_neon
#define TFCC_Q16_DWP_PACK_FN tfcc_q16_dwp_pack_neon
#define TFCC_Q16_DWF_FN tfcc_q16_dwf_neon
#include "kernels/q16-dwconv/dwconv_body.h"
#include "kernels/q16-dwconv/dwpair_body.h"
