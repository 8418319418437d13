/* The 64-byte AMX tile configuration that ldtilecfg (_tile_loadconfig) reads, palette 1:
 * per tile its bytes per row (colsb) and rows. Shared by the AMX GEMM kernels (bf16-gemm,
 * q8-gemm). */
#ifndef TFCC_KERNELS_SIMD_AMX_TILE_CONFIG_H
#define TFCC_KERNELS_SIMD_AMX_TILE_CONFIG_H

#include <stdint.h>
#include <string.h>

typedef struct tfcc_amx_tile_config {
  uint8_t palette;
  uint8_t start_row;
  uint8_t reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
} tfcc_amx_tile_config;

/* Tiles 0..n-1 with 64-byte rows, tile t with rows[t] rows; the others unused. */
static inline void tfcc_amx_tile_config_set(tfcc_amx_tile_config *cfg, int n, const uint8_t *rows) {
  memset(cfg, 0, sizeof *cfg);
  cfg->palette = 1;
  for (int t = 0; t < n; t++) {
    cfg->colsb[t] = 64;
    cfg->rows[t] = rows[t];
  }
}

#endif
