/* int16 elementwise ADD, neon build of the portable row (row_portable.h). */
#define TFCC_Q16_VBINARY_FN tfcc_q16_vbinary_neon
#include "kernels/q16-vbinary/row_portable.h"
