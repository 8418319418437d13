/* Quantize kernels, sse4 build of the portable body (quantize_body.h). */
#define TFCC_QZ_ISA sse4
#include "kernels/quantize/quantize_body.h"
