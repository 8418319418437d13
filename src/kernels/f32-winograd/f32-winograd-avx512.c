/* f32 Winograd tile transforms, avx512 build of the portable body (wino_body.h). */
#define TFCC_WINO_ISA avx512
#define TFCC_WINO_VW 16
#include "kernels/f32-winograd/wino_body.h"
