/* Hybrid output stage, scalar build of the portable body (hyb_out_body.h). */
#define TFCC_HO_ISA scalar
#define HO_W 4
#include "kernels/hybrid/hyb_out_body.h"
