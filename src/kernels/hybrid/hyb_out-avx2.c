/* Hybrid output stage, avx2 build of the portable body (hyb_out_body.h). */
#define TFCC_HO_ISA avx2
#define HO_W 8
#include "kernels/hybrid/hyb_out_body.h"
