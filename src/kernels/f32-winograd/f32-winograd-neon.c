/* f32 Winograd tile transforms, neon build of the portable body (wino_body.h). */
#define TFCC_WINO_ISA neon
#define TFCC_WINO_VW 4
#include "kernels/f32-winograd/wino_body.h"
