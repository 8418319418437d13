/* Quantize kernels, neon build of the portable body (quantize_body.h). */
#define TFCC_QZ_ISA neon
#include "kernels/quantize/quantize_body.h"
