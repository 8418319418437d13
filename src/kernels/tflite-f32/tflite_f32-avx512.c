/* TFLite float arithmetic (tflite_f32.h), avx512: tflite_f32_body.h and tflite_f32v_body.h. */
#define TFCC_XF_ISA avx512
#define XF_W 16
#define XF_NB 2
#include "kernels/tflite-f32/tflite_f32_body.h"
#include "kernels/simd/f32v_avx512.h"
#include "kernels/tflite-f32/tflite_f32v_body.h"
