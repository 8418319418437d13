/* fma_peak: measured per-core arithmetic peak of this CPU, the yardstick for tfcc's kernels.
 *
 *   fma_peak [--seconds S] [--threads N] [--json]
 *
 * For each instruction set the CPU has (tfcc_cpu_info_get): a throughput loop of independent
 * FMA chains (enough chains to cover latency x ports), timed for about S seconds (default 0.3)
 * after a warm-up that lets the clock settle; the best of 5 repetitions is reported. Time is the
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so a loaded machine does not lower the figure.
 *   f32 FMA, AVX-512 (zmm):   32 FLOP per instruction (16 lanes x mul+add)
 *   f32 FMA, AVX2 (ymm):      16 FLOP per instruction
 *   f32 mul+add, SSE (xmm):   8 FLOP per mul/add pair (no FMA)
 *   int8 VNNI, AVX-512 (zmm): vpdpbusd, 64 u8 x s8 MACs = 128 OP per instruction
 *   int8 VNNI, AVX (ymm):     vpdpbusd (AVX-VNNI), 32 MACs = 64 OP per instruction
 *   f32 FMA, NEON (aarch64):  8 FLOP per fmla (4 lanes)
 * With --threads N the loop runs on N threads pinned to CPUs 0..N-1 at once (total and per
 * thread are printed). Not a test: nothing is asserted. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfcc/tfcc.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

typedef uint64_t (*loop_fn)(uint64_t iters, float seed); /* returns instructions executed */

static volatile float g_sink;
static volatile int32_t g_isink;

#if defined(__x86_64__)
#define CHAINS16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define CHAINS12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

__attribute__((target("avx512f"))) static uint64_t loop_avx512_fma(uint64_t iters, float seed) {
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(seed * 1e-7f);
#define DECL(i) __m512 c##i = _mm512_set1_ps(seed + (float)(i));
  CHAINS16(DECL)
#undef DECL
  for (uint64_t n = 0; n < iters; n++) {
#define STEP(i) c##i = _mm512_fmadd_ps(c##i, a, b);
    CHAINS16(STEP)
#undef STEP
  }
  __m512 s = c0;
#define SUM(i) s = _mm512_add_ps(s, c##i);
  CHAINS16(SUM)
#undef SUM
  g_sink = _mm512_reduce_add_ps(s);
  return iters * 16;
}

__attribute__((target("avx2,fma"))) static uint64_t loop_avx2_fma(uint64_t iters, float seed) {
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(seed * 1e-7f);
#define DECL(i) __m256 c##i = _mm256_set1_ps(seed + (float)(i));
  CHAINS12(DECL)
#undef DECL
  for (uint64_t n = 0; n < iters; n++) {
#define STEP(i) c##i = _mm256_fmadd_ps(c##i, a, b);
    CHAINS12(STEP)
#undef STEP
  }
  __m256 s = c0;
#define SUM(i) s = _mm256_add_ps(s, c##i);
  CHAINS12(SUM)
#undef SUM
  float out[8];
  _mm256_storeu_ps(out, s);
  g_sink = out[0] + out[7];
  return iters * 12;
}

static uint64_t loop_sse_muladd(uint64_t iters, float seed) {
  const __m128 a = _mm_set1_ps(0.999999f), b = _mm_set1_ps(seed * 1e-7f);
#define DECL(i) __m128 c##i = _mm_set1_ps(seed + (float)(i));
  CHAINS12(DECL)
#undef DECL
  for (uint64_t n = 0; n < iters; n++) {
#define STEP(i) c##i = _mm_add_ps(_mm_mul_ps(c##i, a), b);
    CHAINS12(STEP)
#undef STEP
  }
  __m128 s = c0;
#define SUM(i) s = _mm_add_ps(s, c##i);
  CHAINS12(SUM)
#undef SUM
  g_sink = _mm_cvtss_f32(s);
  return iters * 12;
}

__attribute__((target("avx512f,avx512vnni"))) static uint64_t loop_avx512_vnni(uint64_t iters, float seed) {
  const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8((char)(int)seed);
#define DECL(i) __m512i c##i = _mm512_set1_epi32(i);
  CHAINS16(DECL)
#undef DECL
  for (uint64_t n = 0; n < iters; n++) {
#define STEP(i) c##i = _mm512_dpbusd_epi32(c##i, a, b);
    CHAINS16(STEP)
#undef STEP
  }
  __m512i s = c0;
#define SUM(i) s = _mm512_add_epi32(s, c##i);
  CHAINS16(SUM)
#undef SUM
  g_isink = _mm512_reduce_add_epi32(s);
  return iters * 16;
}

__attribute__((target("avx2,avxvnni"))) static uint64_t loop_avx_vnni(uint64_t iters, float seed) {
  const __m256i a = _mm256_set1_epi8(3), b = _mm256_set1_epi8((char)(int)seed);
#define DECL(i) __m256i c##i = _mm256_set1_epi32(i);
  CHAINS12(DECL)
#undef DECL
  for (uint64_t n = 0; n < iters; n++) {
#define STEP(i) c##i = _mm256_dpbusd_avx_epi32(c##i, a, b);
    CHAINS12(STEP)
#undef STEP
  }
  __m256i s = c0;
#define SUM(i) s = _mm256_add_epi32(s, c##i);
  CHAINS12(SUM)
#undef SUM
  int32_t out[8];
  _mm256_storeu_si256((__m256i *)out, s);
  g_isink = out[0] + out[7];
  return iters * 12;
}
#endif

#if defined(__aarch64__)
static uint64_t loop_neon_fma(uint64_t iters, float seed) {
  const float32x4_t a = vdupq_n_f32(0.999999f), b = vdupq_n_f32(seed * 1e-7f);
  float32x4_t c[24];
  for (int i = 0; i < 24; i++) c[i] = vdupq_n_f32(seed + (float)i);
  for (uint64_t n = 0; n < iters; n++)
    for (int i = 0; i < 24; i++) c[i] = vfmaq_f32(b, c[i], a);
  float32x4_t s = c[0];
  for (int i = 1; i < 24; i++) s = vaddq_f32(s, c[i]);
  g_sink = vgetq_lane_f32(s, 0);
  return iters * 24;
}
#endif

typedef struct kernel {
  const char *name;   /* "f32-fma-avx512" */
  const char *unit;   /* "GFLOP/s" or "GOPS" */
  int ops_per_instr;  /* FLOP or OP per instruction (per mul/add pair for SSE) */
  tfcc_cpu_feature need1, need2;
  loop_fn fn;
} kernel;

static const kernel k_kernels[] = {
#if defined(__x86_64__)
    {"f32-fma-avx512", "GFLOP/s", 32, TFCC_CPU_AVX512F, TFCC_CPU_AVX512F, loop_avx512_fma},
    {"f32-fma-avx2", "GFLOP/s", 16, TFCC_CPU_AVX2, TFCC_CPU_FMA, loop_avx2_fma},
    {"f32-muladd-sse", "GFLOP/s", 8, TFCC_CPU_SSE41, TFCC_CPU_SSE41, loop_sse_muladd},
    {"int8-vnni-avx512", "GOPS", 128, TFCC_CPU_AVX512VNNI, TFCC_CPU_AVX512F, loop_avx512_vnni},
    {"int8-vnni-avx", "GOPS", 64, TFCC_CPU_AVXVNNI, TFCC_CPU_AVX2, loop_avx_vnni},
#elif defined(__aarch64__)
    {"f32-fma-neon", "GFLOP/s", 8, TFCC_CPU_NEON, TFCC_CPU_NEON, loop_neon_fma},
#endif
};
#define KERNEL_COUNT (sizeof k_kernels / sizeof k_kernels[0])

/* CPU time of the calling thread: the peak is a property of the core, so time the thread was
 * descheduled (a shared, loaded machine) must not count. */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct job {
  const kernel *k;
  double seconds;
  int cpu; /* -1: do not pin */
  double rate; /* out: best ops per second */
} job;

static void *measure(void *arg) {
  job *j = (job *)arg;
  if (j->cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(j->cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  }
  /* calibrate: grow the iteration count until one call takes ~1/10 of the target */
  uint64_t iters = 1000;
  for (;;) {
    double t0 = now_s();
    j->k->fn(iters, 1.0f);
    double dt = now_s() - t0;
    if (dt >= j->seconds / 10 || iters > (1ull << 40)) {
      iters = (uint64_t)((double)iters * (j->seconds / 5) / (dt > 1e-9 ? dt : 1e-9)) + 1;
      break;
    }
    iters *= 4;
  }
  j->k->fn(iters, 2.0f); /* warm-up at the target length: lets the clock settle */
  double best = 0;
  for (int r = 0; r < 5; r++) {
    double t0 = now_s();
    uint64_t instr = j->k->fn(iters, 1.0f + (float)r);
    double dt = now_s() - t0;
    double rate = (double)instr * j->k->ops_per_instr / dt;
    if (rate > best) best = rate;
  }
  j->rate = best;
  return NULL;
}

int main(int argc, char **argv) {
  double seconds = 0.3;
  int threads = 1, as_json = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--json") == 0) as_json = 1;
    else {
      fprintf(stderr, "usage: fma_peak [--seconds S] [--threads N] [--json]\n");
      return strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ? 0 : 2;
    }
  }
  if (seconds <= 0 || seconds > 60 || threads < 1 || threads > 1024) {
    fprintf(stderr, "fma_peak: error: --seconds must be in (0, 60], --threads in [1, 1024]\n");
    return 2;
  }
  tfcc_cpu_info c;
  tfcc_cpu_info_get(&c);
  if (as_json) printf("{\"cpu\": \"%s\", \"threads\": %d, \"peaks\": [", c.brand, threads);
  else printf("cpu: %s (%s), %d thread%s\n%-18s %12s %12s  %s\n", c.brand, c.arch, threads, threads == 1 ? "" : "s",
              "kernel", "per thread", "total", "unit");
  int first = 1;
  for (size_t k = 0; k < KERNEL_COUNT; k++) {
    const kernel *kn = &k_kernels[k];
    if (!((c.flags >> kn->need1) & 1u) || !((c.flags >> kn->need2) & 1u)) {
      if (!as_json) printf("%-18s %12s %12s  (not on this CPU)\n", kn->name, "-", "-");
      continue;
    }
    job jobs[1024];
    pthread_t tids[1024];
    for (int t = 0; t < threads; t++) {
      jobs[t] = (job){kn, seconds, threads > 1 || c.logical_cpus > 1 ? t % (c.logical_cpus > 0 ? c.logical_cpus : 1) : -1, 0};
      if (t > 0 && pthread_create(&tids[t], NULL, measure, &jobs[t]) != 0) {
        fprintf(stderr, "fma_peak: error: cannot start thread %d\n", t);
        return 1;
      }
    }
    measure(&jobs[0]);
    double total = jobs[0].rate;
    for (int t = 1; t < threads; t++) {
      pthread_join(tids[t], NULL);
      total += jobs[t].rate;
    }
    double per = total / threads / 1e9;
    if (as_json) {
      printf("%s\n  {\"kernel\": \"%s\", \"unit\": \"%s\", \"per_thread\": %.2f, \"total\": %.2f}", first ? "" : ",",
             kn->name, kn->unit, per, total / 1e9);
    } else {
      printf("%-18s %12.1f %12.1f  %s\n", kn->name, per, total / 1e9, kn->unit);
    }
    first = 0;
  }
  if (as_json) printf("\n]}\n");
  return 0;
}
