/* int16 elementwise ADD, wasmsimd build of the portable row (row_portable.h). */
#define TFCC_Q16_VBINARY_FN tfcc_q16_vbinary_wasmsimd
#include "kernels/q16-vbinary/row_portable.h"
