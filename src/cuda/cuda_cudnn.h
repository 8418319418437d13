/* cuDNN for the CUDA backend's convolutions (optional): libcudnn.so.9 is opened with dlopen the
 * first time a session asks for it, when env TFCC_CUDNN=1 (opt-in until its convolutions have
 * run on a GPU: docs/cuda.md); elsewhere the backend keeps its im2col + cuBLAS path. One
 * tfcc_cudnn_conv per convolution step: descriptors in NHWC / OHWI, the algorithm found by timing
 * (as PyTorch's cudnn.benchmark does) at session creation, the workspace it needs. */
#ifndef TFCC_CUDA_CUDA_CUDNN_H
#define TFCC_CUDA_CUDA_CUDNN_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda/gpu_kernels.h"

typedef struct tfcc_cudnn_conv {
  void *x, *w, *conv, *y; /* descriptors */
  int algo;
  size_t workspace;
} tfcc_cudnn_conv;

/* A cuDNN handle on stream, or NULL (and why in why[0..cap)) where cuDNN cannot be used. */
void *tfcc_cudnn_open(void *stream, char *why, size_t cap);
void tfcc_cudnn_close(void *h);
/* Sets c up for convolution g in dt; false (c unchanged) where cuDNN cannot run it as TFLite
 * does (asymmetric padding, a failure): the caller keeps im2col + GEMM. */
bool tfcc_cudnn_conv_init(void *h, tfcc_cudnn_conv *c, const tfcc_gpu_conv_geom *g,
                          tfcc_gpu_dtype dt);
void tfcc_cudnn_conv_free(tfcc_cudnn_conv *c);
/* y = conv(x, w) on the handle's stream; 0 or a cudnnStatus_t. */
int tfcc_cudnn_conv_run(void *h, const tfcc_cudnn_conv *c, const void *x, const void *w, void *y,
                        void *workspace);

#endif
