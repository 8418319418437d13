/* f32 depthwise kernel, avx2 build of the portable body (dwconv_body.h) on explicit AVX2
 * vectors (TFCC_DW_F32V): same sums in the same order as the compiler-vectorised block, 0.5-1.0x
 * its time on MobileNet-like shapes (24 channels 0.7x, 190 with a 5x5 filter 0.5x), and 4-13x
 * less under ASan+UBSan, which kept the block's floats in memory with a check per float. */
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/simd/f32v_avx2.h"
#define TFCC_DW_F32V
#define TFCC_DW_FN tfcc_f32_dwconv_avx2
#include "kernels/f32-dwconv/dwconv_body.h"
