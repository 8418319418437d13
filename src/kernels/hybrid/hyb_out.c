/* Hybrid output stage and min/max dispatch (hyb_out.h). */
#include "kernels/hybrid/hyb_out.h"

#include "cpu/cpu_info.h"

tfcc_q8_hybrid_row_fn tfcc_hyb_out_select(tfcc_isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, isa)) return tfcc_hyb_out_row_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, isa)) return tfcc_hyb_out_row_avx2;
#endif
  return tfcc_hyb_out_row_scalar;
}

tfcc_hyb_minmax_fn tfcc_hyb_minmax_select(tfcc_isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, isa)) return tfcc_hyb_minmax_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, isa)) return tfcc_hyb_minmax_avx2;
#endif
  return tfcc_hyb_minmax_scalar;
}

tfcc_hyb_round_fn tfcc_hyb_round_select(tfcc_isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, isa)) return tfcc_hyb_round_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, isa)) return tfcc_hyb_round_avx2;
#endif
  return tfcc_hyb_round_scalar;
}

tfcc_q8_hybrid_tile_fn tfcc_hyb_out_tile_select(tfcc_isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, isa)) return tfcc_hyb_out_tile_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, isa)) return tfcc_hyb_out_tile_avx2;
#endif
  return tfcc_hyb_out_tile_scalar;
}

tfcc_hyb_qd8_rows_fn tfcc_hyb_qd8_rows_select(tfcc_isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, isa)) return tfcc_hyb_qd8_rows_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, isa)) return tfcc_hyb_qd8_rows_avx2;
#endif
  return tfcc_hyb_qd8_rows_scalar;
}
