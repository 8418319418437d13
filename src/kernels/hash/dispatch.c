/* SHA-256 block function dispatch (sha256.h): a variant runs where its level fits and the CPU
 * has its feature. */
#include "kernels/hash/sha256.h"

static const tfcc_sha256_kernel kernels[] = {
    TFCC_KERNELS_X86({"sha256-shani", TFCC_ISA_SSE4, TFCC_CPU_SHA256, tfcc_sha256_blocks_shani})
        TFCC_KERNELS_ARM64(
            {"sha256-neonsha2", TFCC_ISA_NEON, TFCC_CPU_SHA256, tfcc_sha256_blocks_neonsha2}){
            "sha256-scalar", TFCC_ISA_GENERIC, -1, tfcc_sha256_blocks_portable}};

static bool usable(const tfcc_sha256_kernel *k, tfcc_isa isa) {
  return tfcc_isa_level_fits(k->isa, isa) &&
         (k->feature < 0 || tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature));
}

TFCC_DISPATCH_TABLE_FNS_USABLE(tfcc_sha256, tfcc_sha256_kernel, usable)

void tfcc_sha256_fast(const void *data, size_t n, uint8_t digest[32]) {
  tfcc_sha256_with(tfcc_sha256_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_))->fn, data, n, digest);
}
