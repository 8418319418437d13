/* int16 x int8 depthwise sums and requantization, avx512 build of the shared body
 * (dwconv_body.h). */
#define TFCC_Q16_DW_FN tfcc_q16_dw_avx512
#define TFCC_Q16_DW_REQ_FN tfcc_q16_dw_req_avx512
#include "kernels/q16-dwconv/dwconv_body.h"
