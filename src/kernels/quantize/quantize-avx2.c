/* Quantize kernels, avx2 build of the portable body (quantize_body.h). */
#define TFCC_QZ_ISA avx2
#include "kernels/quantize/quantize_body.h"
