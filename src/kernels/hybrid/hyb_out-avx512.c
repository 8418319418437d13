/* Hybrid output stage, avx512 build of the portable body (hyb_out_body.h). */
#define TFCC_HO_ISA avx512
#define HO_W 16
#include "kernels/hybrid/hyb_out_body.h"
