/* CPU fingerprint: cpuid + xgetbv (the OS must have enabled YMM/ZMM/tile state), Linux AMX
 * permission, aarch64 hwcaps; caches, cores and NUMA nodes from sysfs. */
#ifndef TFCC_CPU_CPU_INFO_H
#define TFCC_CPU_CPU_INFO_H

#include <stdbool.h>

#include "tfcc/tfcc.h"

/* Cached fingerprint (computed once). */
const tfcc_cpu_info *tfcc_cpu(void);

static inline bool tfcc_cpu_has(const tfcc_cpu_info *c, tfcc_cpu_feature f) {
  return (c->flags >> f) & 1u;
}

/* NULL when this process may run AMX tile instructions of feature f (TFCC_CPU_AMXINT8 or
 * TFCC_CPU_AMXBF16), else why not, first missing piece first: not x86-64, no AMX-TILE or no f in
 * cpuid, tile state not enabled in XCR0, Linux refused the tile permission (static text). */
const char *tfcc_cpu_amx_unusable(tfcc_cpu_feature f);

/* The ISA level kernels may use: the CPU's best, capped by `cap` (TFCC_ISA_COUNT_ = no cap).
 * A cap above what the CPU has never raises the level. */
tfcc_isa tfcc_cpu_dispatch_isa(tfcc_isa cap);

/* Whether a kernel that needs ISA level `need` may run at dispatch level `level`: generic
 * kernels everywhere; the x86 levels include the lower ones (sse4 < avx2 < avx512); NEON
 * (aarch64) and WASMSIMD (wasm SIMD128) are levels of their own, matched exactly. The one rule
 * every family's dispatch table uses. */
static inline bool tfcc_isa_is_x86(tfcc_isa isa) {
  return isa >= TFCC_ISA_SSE4 && isa <= TFCC_ISA_AVX512;
}
static inline bool tfcc_isa_level_fits(tfcc_isa need, tfcc_isa level) {
  if (need == TFCC_ISA_GENERIC) return true;
  if (!tfcc_isa_is_x86(need) || !tfcc_isa_is_x86(level)) return need == level;
  return need <= level;
}

#endif
