/* The classic interpreter's builtin float kernels that Eigen computes, bit for bit:
 * TensorFlow Lite as tfjs-tflite 0.0.1-alpha.10 ships it (the tfweb reference engine, REFERENCE
 * mode's hybrid subgraphs), built for WebAssembly, where Eigen has no vector code and runs its
 * scalar paths. Its older XNNPACK delegate takes neither BATCH_MATMUL nor GELU, so the builtin
 * kernels run them between the hybrid nodes. Products and sums are each rounded to float (no
 * fused multiply-add: separate statements). */
#ifndef TFCC_KERNELS_TFLITE_F32_EIGEN_F32_H
#define TFCC_KERNELS_TFLITE_F32_EIGEN_F32_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/batch_matmul.h"
#include "kernels/ref/conv.h"
#include "kernels/tflite-f32/tflite_f32.h"

/* BATCH_MATMUL (float32): TFLite's optimized BatchMatMul hands each batch to cpu_backend_gemm's
 * Eigen GEMM as out^T = rhs^T * lhs^T, so Eigen's columns are the op's lhs rows i and its rows
 * the op's output columns j. Every output is the sum over k of lhs[i][k] * rhs[k][j]:
 * - M == 1, N == 1 or K + M + N < 20 (Eigen's matrix-vector and coefficient-based products):
 *   the products added in order onto 0;
 * - otherwise Eigen's GEBP kernel, unvectorized (mr 1, nr 4): k in panels of
 *   tfcc_eigen_gemm_kc(K, M, N) (all of K up to 816), each panel's sum added in turn onto 0.
 *   Within a panel, rows i below M rounded down to 4 (groups of nr columns for Eigen) add the
 *   even k of the part peeled by 8 into one sum and the odd k into a second, then the second
 *   onto the first, then the panel's last k (fewer than 8) in order; the remaining rows add
 *   the panel's k in order.
 * lhs [..., M, K] ([..., K, M] when adj_x), rhs [..., K, N] ([..., N, K] when adj_y), batch
 * broadcasting as tfcc_bmm_f32. Verified on the probe hybrid_probe_bmm_builtin (K 37); panels
 * (K over 816) follow Eigen's blocking heuristic with its default 16 KiB L1 size, verified on
 * hybrid_probe_bmm_k817, _k1024, _k2000_builtin (panels of 416, 520, 672). */
void tfcc_eigen_bmm_f32(const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out);
/* tfcc_eigen_bmm_f32's sums for one [M, K] by [K, N] product (no adjoints, no batches) through
 * a vector kernel's gemm (tflite_f32.h: the output columns in the lanes, the same bits), then
 * + bias[j] (NULL: none) and clamped to [lo, hi] (-inf, inf: the sums as they are). */
void tfcc_eigen_gemm_kn_f32(tfcc_eigen_gemm_fn gemm, const float *a, const float *r, int32_t m,
                            int32_t k, int32_t n, const float *bias, float lo, float hi, float *y);
/* The panel depth Eigen's computeProductBlockingSizes gives a K x (M, N) product. */
int32_t tfcc_eigen_gemm_kc(int32_t k, int32_t m, int32_t n);

/* CONV_2D (float32, groups 1) as that interpreter's builtin kernel runs it where its delegate
 * does not take the node (ref9): optimized_ops::Conv, an im2col of every batch's output pixels
 * (rows of filter_h * filter_w * in_c values, ky, kx, c; zeros outside the image), unless the
 * filter is 1x1 with stride 1, then cpu_backend_gemm's Eigen GEMM of the filter [out_c, K] by
 * that [K, pixels]: tfcc_eigen_bmm_f32 with the im2col rows as lhs (M = all pixels) and the
 * filter as rhs (adj_y), then BiasAndClamp: each output + bias[c] (bias NULL: none), clamped to
 * [lo, hi]. Verified on mit-bih's pq_model (a [1, 1, 319, 1] by [16, 1, 8, 1] convolution: 0 of
 * 5104 apart; bias first and in order 1093) and hybrid_net_conv_eigen_builtin. im2col: scratch
 * of tfcc_eigen_conv_f32_scratch(g, filter_kn != NULL) bytes, which also hold the filter as
 * [K][out_c] for gemm (a vector kernel's tfcc_eigen_gemm_fn, the same sums with the
 * output channels in the lanes; NULL: the scalar loops) unless filter_kn is that transpose
 * already (made once at init from a constant filter; NULL: transposed per run). */
size_t tfcc_eigen_conv_f32_scratch(const tfcc_conv_geom *g, bool filter_packed);
void tfcc_eigen_conv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                         const float *filter_kn, const float *bias, float lo, float hi, float *out,
                         float *scratch, tfcc_eigen_gemm_fn gemm);

/* TRANSPOSE_CONV (float32) as TensorFlow Lite's builtin kernel runs it (TransposeConvV2; the
 * order of tfcc_tconv_f32 with TFCC_TCONV_F32_BUILTIN, kernels/ref/transpose_conv.h, whose
 * scalar loops are the reference): per image, cpu_backend_gemm's Eigen GEMM of the input pixels
 * [pixels][in_c] by the weights as [in_c][taps * out_c] makes each (pixel, tap, channel) dot
 * product in GEBP's order (tfcc_eigen_gemm_kc's depth panels, pixels in groups of 4 below
 * pixels rounded down to 4 with the even and odd channels of the part peeled by 8 summed apart;
 * one running sum outside GEBP: pixels or taps * out_c 1, or in_c + pixels + taps * out_c < 20),
 * then Col2im adds them to the zeroed output pixel by pixel, tap by tap, then + bias[c] (NULL:
 * + 0) and the clamp to [lo, hi]. gemm: a vector kernel's tfcc_eigen_gemm_fn (the output
 * columns, i.e. taps x channels, in the lanes: every dot product in the same order, the same
 * bits). The weights come as stored (filter, [out_c][fh][fw][in_c]) or, filter NULL, as
 * tfcc_tconv_f32_pack lays them out (packed); they are transposed into scratch per call, and the
 * GEMM runs a few pixels at a time into a column buffer there: tfcc_eigen_tconv_f32_scratch(g)
 * bytes. */
size_t tfcc_eigen_tconv_f32_scratch(const tfcc_conv_geom *g);
void tfcc_eigen_tconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                          const float *packed, const float *bias, float lo, float hi, float *out,
                          float *scratch, tfcc_eigen_gemm_fn gemm);

/* SOFTMAX (float32) as that interpreter's builtin kernel (optimized_ops::Softmax, Eigen) where
 * its delegate does not run (ref9): per row of depth values, y = (x - max) * beta, e = expf(y)
 * (tfcc_expf_ref: std::exp), their sum in order, s = 1 / sum, out = e * s (verified on
 * mit-bih's pq_model and hybrid_net_conv_eigen_builtin; the division e / sum differs). expf_v:
 * a vector kernel's expf (tfcc_tflite_f32_kernel, the same bits; exact10), NULL: the scalar one. */
void tfcc_eigen_softmax_f32(const float *x, float *y, size_t outer, size_t depth, float beta,
                            tfcc_f32_unary_fn expf_v);

/* Eigen's float erf (generic_fast_erf_float: x clamped to [-4, 4], an odd degree-13 over an
 * even degree-8 polynomial in x^2, Horner steps multiply then add, one division). */
float tfcc_eigen_erf_f32(float x);
/* GELU (approximate false) as that interpreter's builtin kernel: (0.5f * x) *
 * (1 + erf(x * (float)M_SQRT1_2)) with Eigen's erf (cancels for large negative x, as there). */
void tfcc_eigen_gelu_f32(const float *x, float *y, size_t n);
/* GELU (approximate true) as that kernel: (0.5f * x) * (1 + tanh(sqrt(2 / pi) *
 * (x + 0.044715f * ((x * x) * x)))) with Eigen's fast rational tanh (tfcc_act_tanh_eigen;
 * verified on hybrid_probe_gelu_approx_builtin: 0 of 512 differ, glibc's or musl's tanhf 188,
 * the cube as ((0.044715f * x) * x) * x 21). */
void tfcc_eigen_gelu_tanh_f32(const float *x, float *y, size_t n);

#endif
