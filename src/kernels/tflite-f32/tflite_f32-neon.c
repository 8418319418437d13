/* TFLite float arithmetic (tflite_f32.h), neon: tflite_f32_body.h and tflite_f32v_body.h. */
#define TFCC_XF_ISA neon
#define XF_W 4
#include "kernels/tflite-f32/tflite_f32_body.h"
#include "kernels/simd/f32v_neon.h"
#include "kernels/tflite-f32/tflite_f32v_body.h"
