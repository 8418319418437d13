/* f32 Winograd tile transforms, sse4 build of the portable body (wino_body.h). */
#define TFCC_WINO_ISA sse4
#define TFCC_WINO_VW 4
#include "kernels/f32-winograd/wino_body.h"
