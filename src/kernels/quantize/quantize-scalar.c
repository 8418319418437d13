/* Quantize kernels, scalar build of the portable body (quantize_body.h). */
#define TFCC_QZ_ISA scalar
#include "kernels/quantize/quantize_body.h"
