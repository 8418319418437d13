/* TFLite float arithmetic (tflite_f32.h), avx2: tflite_f32_body.h and tflite_f32v_body.h. */
#define TFCC_XF_ISA avx2
#define XF_W 8
#include "kernels/tflite-f32/tflite_f32_body.h"
#include "kernels/simd/f32v_avx2.h"
#include "kernels/tflite-f32/tflite_f32v_body.h"
