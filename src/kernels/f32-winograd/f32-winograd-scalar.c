/* f32 Winograd tile transforms, scalar build of the portable body (wino_body.h). */
#define TFCC_WINO_ISA scalar
#define TFCC_WINO_VW 1
#include "kernels/f32-winograd/wino_body.h"
