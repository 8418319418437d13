/* The lookup functions every kernel family's dispatch.c exposes over its table.
 *
 * A family keeps one `static const <type> kernels[]`, best variant first and the generic one
 * last, each entry with a `tfcc_isa isa` member. Its header writes
 *   TFCC_DISPATCH_TABLE_DECL(tfcc_<family>, tfcc_<family>_kernel)
 * and its dispatch.c, after the table,
 *   TFCC_DISPATCH_TABLE_FNS(tfcc_<family>, tfcc_<family>_kernel)
 * to get
 *   <prefix>_select(isa)    the first variant allowed at dispatch level `isa` (generic if none),
 *   <prefix>_kernel_count() the table's length (for tests, benches and `tfcc cpu-info`),
 *   <prefix>_kernel_at(i)   entry i, or NULL out of range,
 *   <prefix>_row_name(i, &isa)     entry i's name and level (NULL out of range): what the
 *                           family registry (kernel_families.c) lists for `tfcc cpu-info`,
 *   <prefix>_kernel_chosen(isa)    the index _select(isa) picks (not with _ACCESS_FNS alone).
 * Families whose variants need more than the ISA level (a CPU feature) write
 * TFCC_DISPATCH_TABLE_FNS_USABLE(prefix, type, usable) with their own
 * `bool usable(const type *k, tfcc_isa isa)`; families that choose by more than that (shape
 * limits, tiles) write their own select and TFCC_DISPATCH_TABLE_ACCESS_FNS for the other two
 * (TFCC_DISPATCH_TABLE_ACCESS_DECL in the header). */
#ifndef TFCC_KERNELS_DISPATCH_TABLE_H
#define TFCC_KERNELS_DISPATCH_TABLE_H

#include "cpu/cpu_info.h"

/* A family's select, called once per process per dispatch level (kernel_set.c fills every
 * level's set at the first load): cold, so that the linker gathers every family's select in
 * one place (.text.unlikely) instead of one page of code per family's file. A fresh process
 * touches each page of code it runs once, and on a VM each first touch of a 4 KiB page costs
 * a few microseconds (bench/README.md, "load7"). */
#if defined(__GNUC__) || defined(__clang__)
#define TFCC_SELECT_FN __attribute__((cold))
#else
#define TFCC_SELECT_FN
#endif

#define TFCC_DISPATCH_TABLE_ACCESS_DECL(prefix, type) \
  int prefix##_kernel_count(void); \
  const type *prefix##_kernel_at(int i); \
  const char *prefix##_row_name(int i, tfcc_isa *isa)

#define TFCC_DISPATCH_TABLE_DECL(prefix, type) \
  const type *prefix##_select(tfcc_isa isa); \
  int prefix##_kernel_chosen(tfcc_isa isa); \
  TFCC_DISPATCH_TABLE_ACCESS_DECL(prefix, type)

#define TFCC_DISPATCH_TABLE_ACCESS_FNS(prefix, type) \
  enum { prefix##_n_kernels_ = (int)(sizeof kernels / sizeof kernels[0]) }; \
  int prefix##_kernel_count(void) { return prefix##_n_kernels_; } \
  const type *prefix##_kernel_at(int i) { \
    return i >= 0 && i < prefix##_n_kernels_ ? &kernels[i] : NULL; \
  } \
  const char *prefix##_row_name(int i, tfcc_isa *isa) { \
    if (i < 0 || i >= prefix##_n_kernels_) return NULL; \
    if (isa) *isa = kernels[i].isa; \
    return kernels[i].name; \
  }

#define TFCC_DISPATCH_TABLE_FNS_USABLE(prefix, type, usable) \
  TFCC_DISPATCH_TABLE_ACCESS_FNS(prefix, type) \
  TFCC_SELECT_FN const type *prefix##_select(tfcc_isa isa) { \
    for (int i = 0; i < prefix##_n_kernels_; i++) \
      if (usable(&kernels[i], isa)) return &kernels[i]; \
    return &kernels[prefix##_n_kernels_ - 1]; \
  } \
  int prefix##_kernel_chosen(tfcc_isa isa) { return (int)(prefix##_select(isa) - kernels); }

/* Table rows that exist only where the build compiles their ISA's files: write
 *   TFCC_KERNELS_X86(row, row, ...) TFCC_KERNELS_ARM64(row) TFCC_KERNELS_WASMSIMD(row)
 * before the generic row (each expands to its rows and a comma, or to nothing). */
#if defined(__x86_64__) || defined(__i386__)
#define TFCC_KERNELS_X86(...) __VA_ARGS__,
#else
#define TFCC_KERNELS_X86(...)
#endif
#if defined(__aarch64__)
#define TFCC_KERNELS_ARM64(...) __VA_ARGS__,
#else
#define TFCC_KERNELS_ARM64(...)
#endif
#if defined(__wasm_simd128__)
#define TFCC_KERNELS_WASMSIMD(...) __VA_ARGS__,
#else
#define TFCC_KERNELS_WASMSIMD(...)
#endif

/* A family's whole table from one row macro R(name, fn, suffix, level), called for each level
 * the build has: TFCC_KERNEL_ROWS gives avx512, avx2, neon, wasmsimd, scalar; _SSE4 adds sse4
 * below avx2. A family whose variants follow the file naming (<fn>_avx512 ... <fn>_scalar,
 * named "<name>-avx512" ...) and whose rows are {name, level, fn} uses TFCC_KERNEL_ROW:
 *   static const tfcc_f32_vunary_kernel kernels[] = {
 *       TFCC_KERNEL_ROWS(TFCC_KERNEL_ROW, "f32-vunary", tfcc_f32_vunary)};
 * others pass their own R (name and fn may then be left empty). */
#define TFCC_KERNEL_ROW(name, fn, sfx, level) \
  { name "-" #sfx, level, fn##_##sfx }
#define TFCC_KERNEL_ROWS_TAIL_(R, name, fn) \
  TFCC_KERNELS_ARM64(R(name, fn, neon, TFCC_ISA_NEON)) \
  TFCC_KERNELS_WASMSIMD(R(name, fn, wasmsimd, TFCC_ISA_WASMSIMD)) \
  R(name, fn, scalar, TFCC_ISA_GENERIC)
#define TFCC_KERNEL_ROWS(R, name, fn) \
  TFCC_KERNELS_X86(R(name, fn, avx512, TFCC_ISA_AVX512), R(name, fn, avx2, TFCC_ISA_AVX2)) \
  TFCC_KERNEL_ROWS_TAIL_(R, name, fn)
#define TFCC_KERNEL_ROWS_SSE4(R, name, fn) \
  TFCC_KERNELS_X86(R(name, fn, avx512, TFCC_ISA_AVX512), R(name, fn, avx2, TFCC_ISA_AVX2), \
                   R(name, fn, sse4, TFCC_ISA_SSE4)) \
  TFCC_KERNEL_ROWS_TAIL_(R, name, fn)

/* The ISA level alone decides (tfcc_isa_level_fits). */
#define TFCC_DISPATCH_LEVEL_FITS_(k, isa) tfcc_isa_level_fits((k)->isa, isa)
#define TFCC_DISPATCH_TABLE_FNS(prefix, type) \
  TFCC_DISPATCH_TABLE_FNS_USABLE(prefix, type, TFCC_DISPATCH_LEVEL_FITS_)

/* A whole family in one line, where its rows are TFCC_KERNEL_ROW ones (kernel type
 * <prefix>_kernel, variants <prefix>_<suffix> named "<name>-<suffix>") and the ISA level alone
 * decides: the table (rows: TFCC_KERNEL_ROWS or TFCC_KERNEL_ROWS_SSE4) and its lookup
 * functions, e.g. TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "f32-vunary", tfcc_f32_vunary). */
#define TFCC_KERNEL_FAMILY(rows, name, prefix) \
  static const prefix##_kernel kernels[] = {rows(TFCC_KERNEL_ROW, name, prefix)}; \
  TFCC_DISPATCH_TABLE_FNS(prefix, prefix##_kernel)

#endif
