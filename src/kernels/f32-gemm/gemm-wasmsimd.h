/* Tile rows of the wasm f32 GEMM (f32-gemm-5x8-wasmsimd.c), for the kernel and the dispatch
 * table. The relaxed-SIMD binary (TFCC_WASM_RELAXED_MADD, CMakeLists.txt) runs 6 rows: with
 * relaxed_madd (an FMA in place on the accumulator) a depth step holds 12 accumulators, two
 * weight vectors and the broadcast, 15 v128 values, which V8 on x86-64 keeps in the xmm
 * registers it allocates; SIMD128's separate multiply needs a 16th for the product, and 6 rows
 * spilled there (5 rows). Same sums either way (a row's chain does not depend on the tile).
 * Node 20 --experimental-wasm-relaxed-simd, bench/wasm/ab.mjs CPU time, both orders, load ~9:
 * MobileNetV2 fp32 0.962 / 0.973, ResNet-18 fp32 0.955 / 0.962 of the 5-row kernel. The name
 * keeps its length: both binaries must have the same data (the threads glue holds data
 * addresses; scripts/build-wasm.sh compares the glue). */
#ifndef TFCC_KERNELS_F32_GEMM_GEMM_WASMSIMD_H
#define TFCC_KERNELS_F32_GEMM_GEMM_WASMSIMD_H

#ifdef TFCC_WASM_RELAXED_MADD
#define TFCC_F32_GEMM_WASM_MR 6
#define TFCC_F32_GEMM_WASM_NAME "f32-gemm-6x8-wasmsimd"
#define TFCC_F32_GEMM_WASM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
#else
#define TFCC_F32_GEMM_WASM_MR 5
#define TFCC_F32_GEMM_WASM_NAME "f32-gemm-5x8-wasmsimd"
#define TFCC_F32_GEMM_WASM_ROWS(X) X(0) X(1) X(2) X(3) X(4)
#endif

#endif
