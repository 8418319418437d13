/* Hybrid output stage, avx2 build of the portable body (hyb_out_body.h). */
#define TFCC_HO_ISA avx2
#include "kernels/hybrid/hyb_out_body.h"
