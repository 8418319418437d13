/* TFLite float arithmetic (tflite_f32.h), sse4: tflite_f32_body.h and tflite_f32v_body.h. */
#define TFCC_XF_ISA sse4
#define XF_W 4
#include "kernels/tflite-f32/tflite_f32_body.h"
#include "kernels/simd/f32v_sse4.h"
#include "kernels/tflite-f32/tflite_f32v_body.h"
