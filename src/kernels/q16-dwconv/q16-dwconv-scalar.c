/* int16 x int8 depthwise sums and requantization, scalar build of the shared body
 * (dwconv_body.h). */
#define TFCC_Q16_DW_FN tfcc_q16_dw_scalar
#define TFCC_Q16_DW_REQ_FN tfcc_q16_dw_req_scalar
#include "kernels/q16-dwconv/dwconv_body.h"
