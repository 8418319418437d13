#include "cpu/cpu_info.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <sys/syscall.h>
#define TFCC_X86 1
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

static tfcc_cpu_info g_cpu;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
/* AMX as found (for tfcc_cpu_amx_unusable): cpuid bits (1 << TFCC_CPU_AMX*), whether XCR0 has
 * the tile state, whether Linux refused the tile permission. */
static uint64_t g_amx_cpuid;
static bool g_amx_xcr0, g_amx_refused, g_amx_disabled;

#define SET(f) (c->flags |= 1ull << TFCC_CPU_##f)

#ifdef TFCC_X86
static uint64_t xgetbv0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

static void detect_x86(tfcc_cpu_info *c) {
  unsigned a, b, cx, d;
  snprintf(c->arch, sizeof c->arch, "x86_64");
  if (!__get_cpuid(0, &a, &b, &cx, &d)) return;
  unsigned max_leaf = a;
  memcpy(c->vendor, &b, 4);
  memcpy(c->vendor + 4, &d, 4);
  memcpy(c->vendor + 8, &cx, 4);
  c->vendor[12] = 0;
  unsigned ext_max = __get_cpuid_max(0x80000000u, NULL);
  if (ext_max >= 0x80000004u) {
    unsigned r[12];
    for (unsigned i = 0; i < 3; i++)
      __get_cpuid(0x80000002u + i, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]);
    memcpy(c->brand, r, 48);
    c->brand[48] = 0;
    char *p = c->brand;
    while (*p == ' ') p++;
    memmove(c->brand, p, strlen(p) + 1);
  }
  __get_cpuid(1, &a, &b, &cx, &d);
  bool osxsave = (cx >> 27) & 1;
  uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  bool ymm = (xcr0 & 0x6) == 0x6;          /* SSE + AVX state */
  bool zmm = ymm && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
  bool tiles = (xcr0 & (3ull << 17)) == (3ull << 17);
  if ((cx >> 19) & 1) SET(SSE41);
  if (ymm && ((cx >> 28) & 1)) SET(AVX);
  if (ymm && ((cx >> 12) & 1)) SET(FMA);
  if (ymm && ((cx >> 29) & 1)) SET(F16C);
  if (max_leaf >= 7) {
    unsigned a7, b7, c7, d7, a71 = 0, b71, c71, d71;
    __cpuid_count(7, 0, a7, b7, c7, d7);
    if (a7 >= 1) __cpuid_count(7, 1, a71, b71, c71, d71);
    if (ymm && ((b7 >> 5) & 1)) SET(AVX2);
    if ((b7 >> 29) & 1) SET(SHA256); /* the SHA extensions (sha256rnds2, sha256msg1/2) */
    if (zmm) {
      if ((b7 >> 16) & 1) SET(AVX512F);
      if ((b7 >> 17) & 1) SET(AVX512DQ);
      if ((b7 >> 30) & 1) SET(AVX512BW);
      if ((b7 >> 31) & 1) SET(AVX512VL);
      if ((c7 >> 11) & 1) SET(AVX512VNNI);
      if ((d7 >> 23) & 1) SET(AVX512FP16);
      if ((a71 >> 5) & 1) SET(AVX512BF16);
    }
    if (ymm && ((a71 >> 4) & 1)) SET(AVXVNNI);
    if ((d7 >> 24) & 1) g_amx_cpuid |= 1ull << TFCC_CPU_AMXTILE;
    if ((d7 >> 25) & 1) g_amx_cpuid |= 1ull << TFCC_CPU_AMXINT8;
    if ((d7 >> 22) & 1) g_amx_cpuid |= 1ull << TFCC_CPU_AMXBF16;
    g_amx_xcr0 = tiles;
    if (tiles) {
      if ((d7 >> 24) & 1) SET(AMXTILE);
      if ((d7 >> 25) & 1) SET(AMXINT8);
      if ((d7 >> 22) & 1) SET(AMXBF16);
    }
  }
#if defined(__linux__) && defined(SYS_arch_prctl)
  /* Linux grants AMX tile data state only on request (ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA). */
  /* TFCC_AMX=off keeps the tiles unused (A/B against the AVX-512 kernels on an AMX machine, or a
   * host whose tile state is suspected): no permission is requested and the AMX flags stay clear. */
  const char *amx_env = getenv("TFCC_AMX");
  g_amx_disabled = amx_env && (!strcmp(amx_env, "off") || !strcmp(amx_env, "0"));
  if (g_amx_disabled)
    c->flags &=
        ~((1ull << TFCC_CPU_AMXTILE) | (1ull << TFCC_CPU_AMXINT8) | (1ull << TFCC_CPU_AMXBF16));
  if (tfcc_cpu_has(c, TFCC_CPU_AMXTILE)) {
    c->amx_permitted = syscall(SYS_arch_prctl, 0x1023, 18) == 0;
    g_amx_refused = !c->amx_permitted;
    if (!c->amx_permitted)
      c->flags &=
          ~((1ull << TFCC_CPU_AMXTILE) | (1ull << TFCC_CPU_AMXINT8) | (1ull << TFCC_CPU_AMXBF16));
  }
#endif
}
#endif

#if defined(__aarch64__)
static void detect_arm(tfcc_cpu_info *c) {
  snprintf(c->arch, sizeof c->arch, "aarch64");
  unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
  SET(NEON);                            /* mandatory on aarch64 */
  if (hw & (1ul << 20)) SET(DOTPROD);   /* HWCAP_ASIMDDP */
  if (hw & (1ul << 10)) SET(FP16ARITH); /* HWCAP_ASIMDHP */
  if (hw & (1ul << 22)) SET(SVE);       /* HWCAP_SVE */
  if (hw2 & (1ul << 13)) SET(I8MM);     /* HWCAP2_I8MM */
  if (hw & (1ul << 6)) SET(SHA256);     /* HWCAP_SHA2 */
  snprintf(c->vendor, sizeof c->vendor, "arm");
}
#endif

static size_t read_size_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char buf[64] = {0};
  size_t v = 0;
  if (fgets(buf, sizeof buf, f)) {
    char *end;
    v = strtoul(buf, &end, 10);
    if (*end == 'K')
      v *= 1024;
    else if (*end == 'M')
      v *= 1024 * 1024;
  }
  fclose(f);
  return v;
}

static int read_int_file(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int ok = fgets(buf, (int)len, f) != NULL;
  fclose(f);
  return ok ? 0 : -1;
}

static void detect_topology(tfcc_cpu_info *c) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  c->logical_cpus = n > 0 ? (int)n : 1;
  for (int i = 0; i < 8; i++) {
    char path[128], type[32] = {0};
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
    if (read_int_file(path, type, sizeof type) != 0) break;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    char lvl[8] = {0};
    if (read_int_file(path, lvl, sizeof lvl) != 0) continue;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    size_t sz = read_size_file(path);
    if (lvl[0] == '1' && strncmp(type, "Data", 4) == 0)
      c->l1d_bytes = sz;
    else if (lvl[0] == '2')
      c->l2_bytes = sz;
    else if (lvl[0] == '3')
      c->l3_bytes = sz;
  }
  /* physical cores: distinct (package, core_id) pairs */
  int cores = 0;
  int seen[1024][2];
  for (int cpu = 0; cpu < c->logical_cpus && cpu < 1024; cpu++) {
    char path[128], buf[32];
    int pkg = 0, core = cpu;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    if (read_int_file(path, buf, sizeof buf) == 0) pkg = atoi(buf);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
    if (read_int_file(path, buf, sizeof buf) != 0) {
      cores = 0;
      break;
    }
    core = atoi(buf);
    bool dup = false;
    for (int k = 0; k < cores; k++) dup = dup || (seen[k][0] == pkg && seen[k][1] == core);
    if (!dup) {
      seen[cores][0] = pkg;
      seen[cores][1] = core;
      cores++;
    }
  }
  c->physical_cores = cores;
  int nodes = 0;
  for (int i = 0; i < 1024; i++) {
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d", i);
    if (access(path, F_OK) != 0) break;
    nodes++;
  }
  c->numa_nodes = nodes > 0 ? nodes : 1;
}

static void detect(void) {
  tfcc_cpu_info *c = &g_cpu;
  memset(c, 0, sizeof *c);
#ifdef TFCC_X86
  detect_x86(c);
#elif defined(__aarch64__)
  detect_arm(c);
#elif defined(__wasm__)
  snprintf(c->arch, sizeof c->arch, "wasm32");
  snprintf(c->vendor, sizeof c->vendor, "wasm");
#endif
  detect_topology(c);
  c->best_isa = TFCC_ISA_GENERIC;
#if defined(__wasm_simd128__)
  /* SIMD128 is a property of the build: an engine that lacks it refuses the whole module. */
  c->best_isa = TFCC_ISA_WASMSIMD;
#endif
  if (tfcc_cpu_has(c, TFCC_CPU_NEON)) c->best_isa = TFCC_ISA_NEON;
  if (tfcc_cpu_has(c, TFCC_CPU_SSE41)) c->best_isa = TFCC_ISA_SSE4;
  if (tfcc_cpu_has(c, TFCC_CPU_AVX2) && tfcc_cpu_has(c, TFCC_CPU_FMA) &&
      tfcc_cpu_has(c, TFCC_CPU_F16C))
    c->best_isa = TFCC_ISA_AVX2;
  if (c->best_isa == TFCC_ISA_AVX2 && tfcc_cpu_has(c, TFCC_CPU_AVX512F) &&
      tfcc_cpu_has(c, TFCC_CPU_AVX512BW) && tfcc_cpu_has(c, TFCC_CPU_AVX512VL) &&
      tfcc_cpu_has(c, TFCC_CPU_AVX512DQ))
    c->best_isa = TFCC_ISA_AVX512;
}

const tfcc_cpu_info *tfcc_cpu(void) {
  pthread_once(&g_once, detect);
  return &g_cpu;
}

const char *tfcc_cpu_amx_unusable(tfcc_cpu_feature f) {
  const tfcc_cpu_info *c = tfcc_cpu();
  if (tfcc_cpu_has(c, TFCC_CPU_AMXTILE) && tfcc_cpu_has(c, f) && c->amx_permitted) return NULL;
  if (strcmp(c->arch, "x86_64") != 0) return "AMX exists on x86-64 only";
  if (!((g_amx_cpuid >> TFCC_CPU_AMXTILE) & 1))
    return "the CPU has no AMX (cpuid leaf 7: no AMX-TILE)";
  if (!((g_amx_cpuid >> f) & 1))
    return f == TFCC_CPU_AMXINT8 ? "the CPU has AMX-TILE but no AMX-INT8 (cpuid)"
                                 : "the CPU has AMX-TILE but no AMX-BF16 (cpuid)";
  if (!g_amx_xcr0) return "the OS has not enabled the AMX tile state (XCR0 bits 17-18)";
  if (g_amx_disabled) return "AMX turned off by TFCC_AMX=off";
  if (g_amx_refused)
    return "Linux refused the AMX tile permission (arch_prctl ARCH_REQ_XCOMP_PERM; needs Linux "
           ">= 5.16)";
  return "AMX is not usable in this process";
}

tfcc_isa tfcc_cpu_dispatch_isa(tfcc_isa cap) {
  tfcc_isa best = tfcc_cpu()->best_isa;
  if (best == TFCC_ISA_NEON || best == TFCC_ISA_WASMSIMD)
    return cap == TFCC_ISA_GENERIC ? TFCC_ISA_GENERIC : best;
  if (cap >= TFCC_ISA_COUNT_ || cap == TFCC_ISA_NEON || cap == TFCC_ISA_WASMSIMD) return best;
  return cap < best ? cap : best;
}

tfcc_status tfcc_cpu_info_get(tfcc_cpu_info *info) {
  if (!info) return TFCC_ERR_INVALID_ARG;
  *info = *tfcc_cpu();
  return TFCC_OK;
}

const char *tfcc_cpu_feature_name(tfcc_cpu_feature f) {
  static const char *const names[] = {
#define TFCC_CPU_FEATURE_NAME_(name, text) text,
      TFCC_CPU_FEATURE_LIST(TFCC_CPU_FEATURE_NAME_)
#undef TFCC_CPU_FEATURE_NAME_
  };
  return (unsigned)f < TFCC_CPU_FEATURE_COUNT_ ? names[f] : "?";
}

static const char *const k_isa_names[TFCC_ISA_COUNT_] = {"generic", "sse4", "avx2",
                                                         "avx512",  "neon", "wasmsimd"};

const char *tfcc_isa_name(tfcc_isa isa) {
  return (unsigned)isa < TFCC_ISA_COUNT_ ? k_isa_names[isa] : "?";
}

tfcc_status tfcc_isa_parse(const char *name, tfcc_isa *isa) {
  if (!name || !isa) return TFCC_ERR_INVALID_ARG;
  for (int i = 0; i < TFCC_ISA_COUNT_; i++)
    if (strcmp(name, k_isa_names[i]) == 0) {
      *isa = (tfcc_isa)i;
      return TFCC_OK;
    }
  return TFCC_ERR_INVALID_ARG;
}
