/* Which code reads the C heap during a run: `build/bench/heap_trap MODEL [--threads T]`
 * (Linux x86-64; issue 18 point 7, bench/README.md "tail4").
 *
 * Loads MODEL, makes one session with seeded inputs and outputs in their own mappings (not the
 * heap), runs it 3 times, then makes every page of the process's [heap] inaccessible and runs
 * once more: each first touch of a heap page faults, the handler records the page and the
 * faulting instruction and gives the page back its access. Printed: the heap's size, how many
 * of its pages the run touched, and per instruction (object file and offset, for
 * `addr2line -f -e FILE OFFSET`) how many pages it touched first. --model: the same for the
 * model's private copy of its file (the anonymous mapping of half the file's size to its size
 * + 2 MiB closest to its size) instead of the heap. --observer: with an op observer that does
 * nothing set (as run_tail's per-operator timing). The kernel's own reads of user memory (system calls)
 * are not seen; a run at 1 thread makes none. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "tfcc/tfcc.h"

#if defined(__linux__) && defined(__x86_64__)
#define MAXREC 8192
static uintptr_t g_lo, g_hi;
static uintptr_t g_page[MAXREC], g_ip[MAXREC];
static volatile int g_n;

static void on_segv(int sig, siginfo_t *si, void *uc) {
  const uintptr_t a = (uintptr_t)si->si_addr;
  if (a < g_lo || a >= g_hi) { /* not ours: the default action */
    signal(sig, SIG_DFL);
    return;
  }
  const uintptr_t pg = a & ~(uintptr_t)4095;
  if (g_n < MAXREC) {
    g_page[g_n] = pg;
    g_ip[g_n] = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    g_n++;
  }
  mprotect((void *)pg, 4096, PROT_READ | PROT_WRITE);
}

static size_t dist(size_t a, size_t b) { return a > b ? a - b : b - a; }

/* model_bytes 0: the [heap]; else the anonymous mapping closest in size of model_bytes / 2 to
 * model_bytes + 2 MiB (the model's private copy of its file). */
static int trap_range(size_t model_bytes, uintptr_t *lo, uintptr_t *hi) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return 0;
  char line[512];
  int ok = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long a, b, off, ino;
    char perm[8], dev[16], name[256] = "";
    if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %255s", &a, &b, perm, &off, dev, &ino, name) < 6)
      continue;
    if (!model_bytes ? strcmp(name, "[heap]") == 0
                     : name[0] == 0 && ino == 0 && b - a >= model_bytes / 2 &&
                           b - a <= model_bytes + ((size_t)2 << 20) &&
                           (!ok || dist(b - a, model_bytes) < dist(*hi - *lo, model_bytes)))
      *lo = a, *hi = b, ok = 1;
  }
  fclose(f);
  return ok;
}

static void *io_buffer(const tfcc_tensor_info *ti) {
  size_t n = ti->bytes ? ti->bytes : 1;
  uint8_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  for (size_t k = 0; k < n; k++) p[k] = (uint8_t)(k * 2654435761u >> 13);
  if (ti->dtype == TFCC_FLOAT32)
    for (size_t k = 0; k < n / 4; k++) ((float *)(void *)p)[k] = (float)(k % 2001) / 1000.0f - 1;
  return p;
}

static void observe(void *user, int32_t node, const char *name, uint64_t t0, uint64_t t1) {
  (void)user, (void)node, (void)name, (void)t0, (void)t1;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int threads = 1, model = 0, observer = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--model"))
      model = 1;
    else if (!strcmp(argv[i], "--observer"))
      observer = 1;
    else if (argv[i][0] != '-' && !path)
      path = argv[i];
    else
      path = NULL, i = argc;
  }
  if (!path) {
    fprintf(stderr, "usage: heap_trap MODEL [--threads T] [--model] [--observer]\n");
    return 2;
  }
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = threads;
  tfcc_runtime *rt = NULL;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK ||
      tfcc_model_load_file(rt, path, NULL, &m) != TFCC_OK ||
      tfcc_session_create(m, NULL, &s) != TFCC_OK) {
    fprintf(stderr, "heap_trap: %s: %s\n", path, tfcc_last_error());
    return 1;
  }
  enum { MAX_IO = 64 };
  const int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  if (ni > MAX_IO || no > MAX_IO) return 1;
  void *in[MAX_IO + 1] = {0}, *out[MAX_IO + 1] = {0};
  tfcc_tensor_info ti;
  for (int i = 0; i < ni; i++)
    if (tfcc_session_input_info(s, i, &ti) != TFCC_OK || !(in[i] = io_buffer(&ti))) return 1;
  for (int i = 0; i < no; i++)
    if (tfcc_session_output_info(s, i, &ti) != TFCC_OK || !(out[i] = io_buffer(&ti))) return 1;
  if (observer) tfcc_session_set_op_observer(s, observe, NULL);
  for (int i = 0; i < 3; i++)
    if (tfcc_session_run(s, (const void *const *)in, out) != TFCC_OK) return 1;
  size_t model_bytes = 0;
  if (model) {
    FILE *mf = fopen(path, "rb");
    if (mf && fseek(mf, 0, SEEK_END) == 0) model_bytes = (size_t)ftell(mf);
    if (mf) fclose(mf);
  }
  if (!trap_range(model ? (model_bytes ? model_bytes : 1) : 0, &g_lo, &g_hi)) {
    fprintf(stderr, "heap_trap: no %s mapping\n", model ? "model-copy" : "[heap]");
    return 1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  if (mprotect((void *)g_lo, g_hi - g_lo, PROT_NONE) != 0) return 1;
  const tfcc_status st = tfcc_session_run(s, (const void *const *)in, out);
  mprotect((void *)g_lo, g_hi - g_lo, PROT_READ | PROT_WRITE);
  if (st != TFCC_OK) return 1;
  const int n = g_n;
  printf("%s: %s %zu kB, %d pages touched by one run (%d kB)%s\n", path,
         model ? "model copy" : "heap", (size_t)(g_hi - g_lo) / 1024, n, n * 4,
         n >= MAXREC ? " (table full)" : "");
  /* per instruction: pages first touched */
  for (int i = 0; i < n; i++) {
    if (!g_ip[i]) continue;
    int c = 0;
    const uintptr_t ip = g_ip[i];
    for (int j = i; j < n; j++)
      if (g_ip[j] == ip) c++, g_ip[j] = j == i ? ip : 0;
    Dl_info d;
    if (dladdr((void *)ip, &d) && d.dli_fname)
      printf("%5d pages  %s 0x%lx\n", c, d.dli_fname, (unsigned long)(ip - (uintptr_t)d.dli_fbase));
    else
      printf("%5d pages  ip 0x%lx\n", c, (unsigned long)ip);
    g_ip[i] = 0;
  }
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  return 0;
}
#else
int main(void) {
  fprintf(stderr, "heap_trap: Linux x86-64 only\n");
  return 77;
}
#endif
