/* int16 x int8 depthwise sums, wasmsimd build of the shared body (dwconv_body.h). */
#define TFCC_Q16_DW_FN tfcc_q16_dw_wasmsimd
#include "kernels/q16-dwconv/dwconv_body.h"
