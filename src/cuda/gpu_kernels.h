/* libtfcc_cuda's own device kernels (src/cuda/gpu_kernels.cu), callable from C.
 *
 * Kernels know device pointers, shapes and parameters only (as src/kernels/ on the CPU). Every
 * tensor is dense, row-major, NHWC for 4-D activations; its element type is one of
 * tfcc_gpu_dtype (all tensors of one call share it, except biases, which are float32). Every
 * function enqueues its work on `stream` (a cudaStream_t) and returns the launch's cudaError_t
 * (0: cudaSuccess), never synchronises, allocates, or logs, so that a whole run can be captured
 * into a CUDA graph. Arithmetic is float32 in registers for every storage type. */
#ifndef TFCC_CUDA_GPU_KERNELS_H
#define TFCC_CUDA_GPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tfcc_gpu_dtype {
  TFCC_GPU_F32 = 0,
  TFCC_GPU_F16 = 1, /* IEEE half (__half) */
  TFCC_GPU_BF16 = 2 /* bfloat16 (__nv_bfloat16) */
} tfcc_gpu_dtype;

/* Fused activations: the values of TFLite's ActivationFunctionType (TFCC_ACT_* on the CPU),
 * plus the standalone unary operators' functions. */
typedef enum tfcc_gpu_act {
  TFCC_GPU_ACT_NONE = 0,
  TFCC_GPU_ACT_RELU = 1,
  TFCC_GPU_ACT_RELU_N1_TO_1 = 2,
  TFCC_GPU_ACT_RELU6 = 3,
  TFCC_GPU_ACT_TANH = 4,
  TFCC_GPU_ACT_SIGMOID = 16, /* LOGISTIC */
  TFCC_GPU_ACT_HARD_SWISH = 17,
  TFCC_GPU_ACT_RELU_0_TO_1 = 18,
  TFCC_GPU_ACT_LEAKY_RELU = 19, /* alpha: param */
  TFCC_GPU_ACT_ELU = 20,
  TFCC_GPU_ACT_GELU_TANH = 21, /* GELU, approximate = true */
  TFCC_GPU_ACT_GELU_ERF = 22   /* GELU, approximate = false */
} tfcc_gpu_act;

/* y[i] = (ddt) x[i] (sdt), i < n: float32 <-> float16 / bfloat16, round to nearest even. */
int tfcc_gpu_convert(void *stream, const void *x, tfcc_gpu_dtype sdt, void *y, tfcc_gpu_dtype ddt,
                     size_t n);

/* The epilogue of a GEMM / convolution: y[r][c] = act(x[r][c] + bias[c] + res[r][c]) for
 * r < rows, c < channels. bias (float32 [channels]) and res ([rows][channels], dt) may be NULL;
 * y may equal x. */
int tfcc_gpu_bias_act(void *stream, tfcc_gpu_dtype dt, const void *x, const float *bias,
                      const void *res, void *y, int64_t rows, int32_t channels, int act);

/* One convolution's geometry (TFLite's: NHWC input, explicit padding already resolved). */
typedef struct tfcc_gpu_conv_geom {
  int32_t n, ih, iw, ic;     /* input */
  int32_t oh, ow, oc;        /* output */
  int32_t kh, kw;            /* filter window */
  int32_t sh, sw, dh, dw;    /* strides, dilations */
  int32_t pad_top, pad_left; /* rows / columns of zeros before the input */
  int32_t depth_multiplier;  /* DEPTHWISE_CONV_2D: oc = ic * depth_multiplier; else 1 */
} tfcc_gpu_conv_geom;

/* im2col for CONV_2D: col[(b*oh + y)*ow + x][(ky*kw + kx)*ic + ci] = input at the tap, 0 in the
 * padding, so that col x filter^T (filter OHWI = [oc][kh*kw*ic]) is the convolution. */
int tfcc_gpu_im2col(void *stream, tfcc_gpu_dtype dt, const void *x, void *col,
                    const tfcc_gpu_conv_geom *g);

/* DEPTHWISE_CONV_2D: filter [kh][kw][oc] (dt), bias float32 [oc] or NULL, y [n][oh][ow][oc];
 * output channel c reads input channel c / depth_multiplier; zero padding; then act. */
int tfcc_gpu_depthwise(void *stream, tfcc_gpu_dtype dt, const void *x, const void *filter,
                       const float *bias, void *y, const tfcc_gpu_conv_geom *g, int act);

/* AVERAGE_POOL_2D (is_max 0: the mean over the window's taps inside the input, as TFLite) and
 * MAX_POOL_2D (is_max 1), window kh x kw, strides sh/sw, padding pad_top/pad_left; oc == ic;
 * then act. */
int tfcc_gpu_pool(void *stream, tfcc_gpu_dtype dt, const void *x, void *y,
                  const tfcc_gpu_conv_geom *g, int is_max, int act);

/* MEAN / SUM / REDUCE_MAX over the middle axis of x viewed as [outer][reduce][inner]:
 * y[o][i] = op over r of x[o][r][i]. op: 0 mean, 1 sum, 2 max. */
int tfcc_gpu_reduce(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int64_t outer,
                    int64_t reduce, int64_t inner, int op);

/* Elementwise binary with NumPy broadcasting over rank <= 6 (dims padded at the front with 1):
 * y[idx] = act(a[idx . a_strides] OP b[idx . b_strides]), strides in elements, 0 on a broadcast
 * axis. */
typedef enum tfcc_gpu_binop {
  TFCC_GPU_ADD = 0,
  TFCC_GPU_SUB = 1,
  TFCC_GPU_MUL = 2,
  TFCC_GPU_DIV = 3,
  TFCC_GPU_MAX = 4,
  TFCC_GPU_MIN = 5,
  TFCC_GPU_SQUARED_DIFF = 6,
  TFCC_GPU_POW = 7
} tfcc_gpu_binop;
#define TFCC_GPU_MAX_RANK 6
typedef struct tfcc_gpu_broadcast {
  int32_t rank;
  int64_t dims[TFCC_GPU_MAX_RANK]; /* output dims */
  int64_t a_strides[TFCC_GPU_MAX_RANK], b_strides[TFCC_GPU_MAX_RANK];
} tfcc_gpu_broadcast;
int tfcc_gpu_binary(void *stream, tfcc_gpu_dtype dt, int op, const void *a, const void *b, void *y,
                    const tfcc_gpu_broadcast *bc, int act);

/* y[i] = f(x[i]), i < n, f a tfcc_gpu_act (param: LEAKY_RELU's alpha). y may equal x. */
int tfcc_gpu_unary(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, size_t n, int act,
                   float param);

/* SOFTMAX over the last axis: y[r][c] = exp(beta*(x[r][c] - max_r)) / sum, rows x cols. */
int tfcc_gpu_softmax(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int64_t rows,
                     int32_t cols, float beta);

/* PAD / PADV2 (constant value): rank <= 6, y dims = before + x dims + after. */
int tfcc_gpu_pad(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int32_t rank,
                 const int64_t *x_dims, const int64_t *before, const int64_t *y_dims, float value);

/* RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR on NHWC (TFLite's coordinate rules:
 * align_corners, half_pixel_centers). */
typedef struct tfcc_gpu_resize {
  int32_t n, ih, iw, c, oh, ow;
  int32_t align_corners, half_pixel_centers;
  int32_t nearest; /* 1: RESIZE_NEAREST_NEIGHBOR */
} tfcc_gpu_resize;
int tfcc_gpu_resize_nhwc(void *stream, tfcc_gpu_dtype dt, const void *x, void *y,
                         const tfcc_gpu_resize *r);

/* TRANSPOSE over rank <= 6: y dims[i] = x dims[perm[i]]. */
int tfcc_gpu_transpose(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int32_t rank,
                       const int64_t *x_dims, const int32_t *perm);

#ifdef __cplusplus
}
#endif

#endif
