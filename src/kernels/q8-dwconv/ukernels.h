/* Depthwise micro-kernel entry points (one file per ISA variant; see dwconv.h). */
#ifndef TFCC_KERNELS_Q8_DWCONV_UKERNELS_H
#define TFCC_KERNELS_Q8_DWCONV_UKERNELS_H

#include "kernels/q8-dwconv/dwconv.h"

#define TFCC_Q8_DW_DECL(name) \
  void name(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw, \
            const tfcc_q8_out *o)

#define TFCC_Q8_DW_RUN_DECL(name) \
  void name(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw, \
            const tfcc_q8_out *o, size_t n, size_t step)

void tfcc_q8_dw_row_s_avx512vnni(const tfcc_q8_dw_row *a);
void tfcc_q8_dw_row_u_avx512vnni(const tfcc_q8_dw_row *a);
TFCC_Q8_DW_DECL(tfcc_q8_dw_s_avx512);
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_avx512);
TFCC_Q8_DW_DECL(tfcc_q8_dw_s_avx2);
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_avx2);
TFCC_Q8_DW_RUN_DECL(tfcc_q8_dw_run_s_avx2);
TFCC_Q8_DW_RUN_DECL(tfcc_q8_dw_run_u_avx2);
void tfcc_q8_dw_rq_fixed_avx2(const int32_t *acc, size_t c, const tfcc_conv_requant *r,
                              uint8_t *out);
TFCC_Q8_DW_DECL(tfcc_q8_dw_s_neon);
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_neon);
TFCC_Q8_DW_DECL(tfcc_q8_dw_s_wasmsimd);
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_wasmsimd);
TFCC_Q8_DW_RUN_DECL(tfcc_q8_dw_run_s_wasmsimd);
TFCC_Q8_DW_RUN_DECL(tfcc_q8_dw_run_u_wasmsimd);
void tfcc_q8_dw_cols_s_wasmsimd(size_t c, int32_t fh, int32_t fw, const uint8_t *const *taps,
                                const int32_t *pw, const tfcc_q8_out *o, size_t n, size_t step);
void tfcc_q8_dw_cols_u_wasmsimd(size_t c, int32_t fh, int32_t fw, const uint8_t *const *taps,
                                const int32_t *pw, const tfcc_q8_out *o, size_t n, size_t step);
TFCC_Q8_DW_DECL(tfcc_q8_dw_s_scalar);
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_scalar);

#endif
