/* f32 Winograd tile transforms, avx2 build of the portable body (wino_body.h). */
#define TFCC_WINO_ISA avx2
#define TFCC_WINO_VW 8
#include "kernels/f32-winograd/wino_body.h"
