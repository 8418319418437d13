/* Quantize kernels, avx512 build of the portable body (quantize_body.h). */
#define TFCC_QZ_ISA avx512
#include "kernels/quantize/quantize_body.h"
