/* Row function of the q8 GEMM's hybrid output stage (q8-gemm/gemm.h, tfcc_q8_hybrid): for
 * columns n0 .. n0+nc-1 of one row,
 *   out = clamp(((float)(acc - zp * wsum) * s) * fscale + bias, lo, hi)     (or the combined
 *   order (float)(acc - zp * wsum) * (s * fscale) + bias)
 * in per-ISA builds of one portable body (hyb_out_body.h); every build gives the same bits. */
#ifndef TFCC_KERNELS_HYBRID_HYB_OUT_H
#define TFCC_KERNELS_HYBRID_HYB_OUT_H

#include "kernels/hybrid/quantize.h"
#include "kernels/q8-gemm/gemm.h"

/* The best build allowed at dispatch level isa. */
tfcc_q8_hybrid_row_fn tfcc_hyb_out_select(tfcc_isa isa);
/* The whole-tile form (columns in vectors, their sums, scales and biases loaded once). */
tfcc_q8_hybrid_tile_fn tfcc_hyb_out_tile_select(tfcc_isa isa);

/* Smallest and largest value of x[0..n), n >= 1 (the qd8 quantizer's range), in the same
 * per-ISA builds. */
tfcc_hyb_minmax_fn tfcc_hyb_minmax_select(tfcc_isa isa);
/* The element of the sym and asym quantizers (quantize.h), in the same builds. */
tfcc_hyb_round_fn tfcc_hyb_round_select(tfcc_isa isa);
/* qd8 of many rows in one call (min/max, parameters, element), in the same builds. */
tfcc_hyb_qd8_rows_fn tfcc_hyb_qd8_rows_select(tfcc_isa isa);

#define TFCC_HYB_OUT_DECL(isa) \
  void tfcc_hyb_out_row_##isa(const tfcc_q8_hybrid *h, const int32_t *acc, size_t n0, size_t nc, \
                              uint32_t zp, float s, float *out); \
  void tfcc_hyb_out_tile_##isa(const tfcc_q8_hybrid *h, const int32_t *c32, size_t NR, size_t m0, \
                               size_t mr, size_t n0, size_t nc); \
  void tfcc_hyb_minmax_##isa(const float *x, size_t n, float *lo, float *hi); \
  void tfcc_hyb_round_##isa(const float *x, size_t n, float inv, int32_t zp, int32_t qmin, \
                            int32_t qmax, void *q, bool centered); \
  void tfcc_hyb_qd8_rows_##isa(const float *x, size_t len, size_t rows, int8_t *q, float *scale, \
                               int32_t *zp, int32_t off);
TFCC_HYB_OUT_DECL(avx512)
TFCC_HYB_OUT_DECL(avx2)
TFCC_HYB_OUT_DECL(scalar)

#endif
