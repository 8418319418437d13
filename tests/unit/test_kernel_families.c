/* Kernel family table: every family has a generic fallback, variants are ordered and named,
 * the chosen variant never needs more than the level asked, and the public view agrees with the
 * internal lookup. */
#include <stdbool.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-lut/lut.h"
#include "kernel_variants.h"
#include "test_harness.h"

int main(void) {
  /* level rules */
  CHECK(tfcc_kernel_isa_fits(TFCC_ISA_GENERIC, TFCC_ISA_GENERIC));
  CHECK(tfcc_kernel_isa_fits(TFCC_ISA_GENERIC, TFCC_ISA_NEON));
  CHECK(tfcc_kernel_isa_fits(TFCC_ISA_AVX2, TFCC_ISA_AVX512));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_AVX512, TFCC_ISA_AVX2));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_SSE4, TFCC_ISA_NEON));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_NEON, TFCC_ISA_AVX512));
  CHECK(tfcc_kernel_isa_fits(TFCC_ISA_NEON, TFCC_ISA_NEON));
  /* wasm SIMD128: a level of its own, like NEON */
  CHECK(tfcc_kernel_isa_fits(TFCC_ISA_WASMSIMD, TFCC_ISA_WASMSIMD));
  CHECK(tfcc_kernel_isa_fits(TFCC_ISA_GENERIC, TFCC_ISA_WASMSIMD));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_WASMSIMD, TFCC_ISA_AVX512));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_SSE4, TFCC_ISA_WASMSIMD));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_NEON, TFCC_ISA_WASMSIMD));
  CHECK(!tfcc_kernel_isa_fits(TFCC_ISA_WASMSIMD, TFCC_ISA_NEON));

  int n = tfcc_kernel_family_count();
  CHECK(n > 0);
  tfcc_kernel_family f;
  CHECK(tfcc_kernel_family_get(-1, TFCC_ISA_GENERIC, &f) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_kernel_family_get(n, TFCC_ISA_GENERIC, &f) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_kernel_family_get(0, TFCC_ISA_COUNT_, &f) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_kernel_family_get(0, TFCC_ISA_GENERIC, NULL) == TFCC_ERR_INVALID_ARG);
  for (int i = 0; i < n; i++) {
    for (int lv = 0; lv < TFCC_ISA_COUNT_; lv++) {
      tfcc_isa level = (tfcc_isa)lv;
      CHECK(tfcc_kernel_family_get(i, level, &f) == TFCC_OK);
      CHECKF(f.name && f.name[0] && f.ops && f.ops[0], "family %d", i);
      tfcc_isa visa[16];
      CHECKF(f.variant_count >= 1 && f.variant_count <= 16, "%s: %d variants", f.name,
             f.variant_count);
      for (int v = 0; v < f.variant_count && v < 16; v++) {
        const char *vname = NULL;
        CHECK(tfcc_kernel_family_variant(i, v, &vname, &visa[v]) == TFCC_OK);
        CHECKF(vname && vname[0], "%s: variant %d has no name", f.name, v);
      }
      CHECK(tfcc_kernel_family_variant(i, f.variant_count, NULL, NULL) == TFCC_ERR_INVALID_ARG);
      CHECK(tfcc_kernel_family_variant(i, -1, NULL, NULL) == TFCC_ERR_INVALID_ARG);
      CHECKF(visa[0] == TFCC_ISA_GENERIC, "%s: first variant must be generic", f.name);
      for (int v = 1; v < f.variant_count && v < 16; v++)
        CHECKF(visa[v] >= visa[v - 1], "%s: variants out of ISA order", f.name);
      CHECKF(tfcc_kernel_isa_fits(f.variant_isa, level), "%s at %s picks %s", f.name,
             tfcc_isa_name(level), f.variant);
      /* the chosen variant is listed; where the level alone decides (no row needs a CPU
       * feature), it is the highest fitting one */
      int listed = 0;
      for (int v = 0; v < f.variant_count && v < 16; v++) {
        const char *vname = NULL;
        tfcc_kernel_family_variant(i, v, &vname, NULL);
        listed |= strcmp(vname, f.variant) == 0;
      }
      CHECKF(listed, "%s: chosen %s is not listed", f.name, f.variant);
      static const char *const by_feature[] = {"q8-gemm", "q8-dwconv", "q8-vbinary", "q8-fc-small",
                                               "bf16-gemm"};
      bool level_only = true;
      for (size_t b = 0; b < sizeof by_feature / sizeof by_feature[0]; b++)
        if (strcmp(f.name, by_feature[b]) == 0) level_only = false;
      for (int v = 0; level_only && v < f.variant_count && v < 16; v++)
        if (tfcc_kernel_isa_fits(visa[v], level))
          CHECK(visa[v] <= f.variant_isa || level == TFCC_ISA_NEON || level == TFCC_ISA_WASMSIMD);
      const char *internal = tfcc_kernel_variant(f.name, level);
      CHECKF(internal && strcmp(internal, f.variant) == 0, "%s: table lookup disagrees", f.name);
      for (int j = 0; j < i; j++) {
        tfcc_kernel_family g;
        tfcc_kernel_family_get(j, level, &g);
        CHECKF(strcmp(g.name, f.name) != 0, "duplicate family %s", f.name);
      }
    }
  }
  CHECK(tfcc_kernel_variant("no-such-family", TFCC_ISA_GENERIC) == NULL);
  CHECK(tfcc_kernel_variant(NULL, TFCC_ISA_GENERIC) == NULL);

  /* gated variants (AMX): available exactly when no reason; never below their level */
  tfcc_kernel_gated gv;
  const int ng = tfcc_kernel_gated_count();
  CHECK(tfcc_kernel_gated_get(-1, TFCC_ISA_GENERIC, &gv) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_kernel_gated_get(ng, TFCC_ISA_GENERIC, &gv) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_kernel_gated_get(0, TFCC_ISA_COUNT_, &gv) == TFCC_ERR_INVALID_ARG);
  CHECK(tfcc_kernel_gated_get(0, TFCC_ISA_GENERIC, NULL) == TFCC_ERR_INVALID_ARG);
  int q8_amx_listed = 0;
  for (int i = 0; i < ng; i++)
    for (int lv = 0; lv < TFCC_ISA_COUNT_; lv++) {
      CHECK(tfcc_kernel_gated_get(i, (tfcc_isa)lv, &gv) == TFCC_OK);
      CHECKF(gv.family && gv.name && gv.needs && gv.needs[0], "gated %d", i);
      CHECKF(gv.available == (gv.reason == NULL), "%s: available %d, reason %s", gv.name,
             gv.available, gv.reason ? gv.reason : "(none)");
      if (!tfcc_kernel_isa_fits(gv.isa, (tfcc_isa)lv))
        CHECKF(!gv.available && gv.reason && strstr(gv.reason, "avx512"), "%s at %s", gv.name,
               tfcc_isa_name((tfcc_isa)lv));
      if (!tfcc_cpu()->amx_permitted) CHECKF(!gv.available, "%s without AMX", gv.name);
      if (strcmp(gv.name, "q8-gemm-16x64-amxint8") == 0) q8_amx_listed = 1;
    }
#if defined(__x86_64__)
  CHECK(ng >= 2 && q8_amx_listed);
#else
  CHECK(ng == 0 && !q8_amx_listed);
#endif

  /* dispatch level: never above the CPU, the cap is honoured */
  const tfcc_cpu_info *c = tfcc_cpu();
  CHECK(tfcc_isa_dispatch_level(TFCC_ISA_COUNT_) == c->best_isa);
  CHECK(tfcc_isa_dispatch_level(TFCC_ISA_GENERIC) == TFCC_ISA_GENERIC);
  if (c->best_isa != TFCC_ISA_NEON && c->best_isa != TFCC_ISA_WASMSIMD)
    for (int cap = 0; cap < TFCC_ISA_NEON; cap++)
      CHECK(tfcc_isa_dispatch_level((tfcc_isa)cap) ==
            (cap < (int)c->best_isa ? (tfcc_isa)cap : c->best_isa));

  /* the kernel tests' loop (kernel_variants.h): at every level the rows that fit, each once, in
   * table order, and no other; `continue` goes on to the next row; a false rule visits none */
  for (int lv = 0; lv < TFCC_ISA_COUNT_; lv++) {
    int want = 0, got = 0;
    for (int i = 0; i < tfcc_q8_lut_kernel_count(); i++)
      want += tfcc_kernel_isa_fits(tfcc_q8_lut_kernel_at(i)->isa, (tfcc_isa)lv);
    const tfcc_q8_lut_kernel *last = NULL;
    TFCC_EACH_VARIANT(tfcc_q8_lut, k, (tfcc_isa)lv) {
      CHECKF(tfcc_kernel_isa_fits(k->isa, (tfcc_isa)lv) && (!last || k > last), "%s at level %s",
             k->name, tfcc_isa_name((tfcc_isa)lv));
      last = k;
      got++;
      if (got > 0) continue;
      CHECK(0);
    }
    CHECKF(got == want && want >= 1, "level %s: %d variants visited, %d fit",
           tfcc_isa_name((tfcc_isa)lv), got, want);
    TFCC_EACH_VARIANT_IF(tfcc_q8_lut, k, (tfcc_isa)lv, false) CHECKF(0, "%s visited", k->name);
  }
  return tfcc_test_finish("kernel_families");
}
