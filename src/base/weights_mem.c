/* Packed-weights memory in populated huge-page regions (contract in weights_mem.h). */
#include "base/weights_mem.h"

#include "base/private_map.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE ((size_t)2 << 20)      /* huge page: regions are cut and given back in whole ones */
#define RESERVE ((size_t)256 << 20) /* address space of a region (untouched: costs nothing) */
#define NHP (RESERVE / HUGE)        /* huge pages a region counts blocks in */
#define HDR ((size_t)64)
/* a block's share of the fresh huge page it ends in below which that page stays in 4 KiB ones */
#define TAIL_MIN ((size_t)1 << 20)
/* tfcc_wmem_trim: a smaller unused tail keeps its huge page (under 1 MiB resident for nothing;
 * split, the last blocks' 4 KiB pages stalled the runs: bench/README.md, branch tail2) */
#define TRIM_MIN ((size_t)1 << 20)
/* tfcc_wmem_alloc_spare remakes a trimmed huge page whole only when its blocks reach this far
 * into it (a load's last packed weights, read by every run); a page of a few operator params
 * (a load from a warm weights cache, whose blocks lie in the cache's mapping) stays in 4 KiB
 * pages: whole, it made ResNet-50 int8's peak 1.9 MiB larger, over its floor. */
#define SPARE_REBUILD_MIN ((size_t)512 << 10)
/* tfcc_wmem_small_first: the largest first block that puts a process's first region's first
 * huge page in 4 KiB pages (an operator's params are a few hundred bytes) */
#define SMALL_MAX ((size_t)64 << 10)

typedef struct region {
  size_t size;               /* bytes reserved */
  size_t committed;          /* bytes readable and writable, from the start (whole huge pages) */
  size_t used;               /* bytes handed out, from the start (this header included) */
  size_t live;               /* blocks not yet freed */
  uint32_t hp_live[NHP];     /* blocks with bytes in each huge page (the first NHP of them) */
  uint8_t hp_small[NHP];     /* huge pages put in 4 KiB pages (a block's tail, trim) */
  const void *hp_owner[NHP]; /* the thread that cut every block of a huge page, else MIXED */
  /* split by tfcc_wmem_trim with every block in it cut by the trimming thread (its packing
   * over) and none cut since: the first spare block remakes it one huge page (no writer left) */
  uint8_t hp_sealed[NHP];
  uint8_t hp_spare[NHP]; /* holds spare blocks (written by their sessions: never rebuilt) */
} region;

#define MIXED ((const void *)&g_mixed) /* hp_owner: blocks of several threads */

#define RHDR ((sizeof(region) + 63) / 64 * 64) /* the region's header, before its first block */

typedef struct block_hdr {
  region *c;   /* NULL: from aligned_alloc */
  size_t need; /* bytes of the block, header included */
} block_hdr;

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define USE_MAP 1 /* elsewhere (WebAssembly): aligned_alloc */
#else
#define USE_MAP 0
#endif

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static const char g_mixed;
static _Thread_local char t_self;  /* its address names the calling thread (hp_owner) */
static _Thread_local bool t_small; /* tfcc_wmem_small_first */
static _Thread_local bool t_cut;   /* the thread cut a block since its last tfcc_wmem_trim */
static region *g_cur;              /* the region blocks are cut from */

/* len bytes (a multiple of HUGE) of address space, 2 MiB aligned, inaccessible until committed
 * (so that strict overcommit charges only what is committed), huge pages advised (but for the
 * first one with small_first: tfcc_wmem_small_first); NULL when there is no room. */
static region *reserve(size_t len, bool small_first) {
  const size_t over = len + HUGE;
  if (over < len) return NULL;
  uint8_t *raw = mmap(NULL, over, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uint8_t *p = (uint8_t *)(((uintptr_t)raw + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
  if (p > raw) munmap(raw, (size_t)(p - raw));
  if (raw + over > p + len) munmap(p + len, (size_t)(raw + over - (p + len)));
  if (mprotect(p, HUGE, PROT_READ | PROT_WRITE) != 0) {
    munmap(p, len);
    return NULL;
  }
  /* the first huge page in 4 KiB pages: advised before the header's write faults it in */
#ifdef MADV_NOHUGEPAGE
  small_first = small_first && madvise(p, HUGE, MADV_NOHUGEPAGE) == 0;
#else
  small_first = false;
#endif
#ifdef MADV_HUGEPAGE
  (void)madvise(p + (small_first ? HUGE : 0), len - (small_first ? HUGE : 0), MADV_HUGEPAGE);
#endif
  region *c = (region *)(void *)p;
  c->size = len;
  c->committed = HUGE;
  c->used = RHDR;
  c->live = 0;
  for (size_t k = 0; k < NHP; k++) c->hp_live[k] = 0, c->hp_small[k] = 0, c->hp_owner[k] = NULL;
  memset(c->hp_sealed, 0, sizeof c->hp_sealed);
  memset(c->hp_spare, 0, sizeof c->hp_spare);
  c->hp_small[0] = small_first;
  return c;
}

/* Huge page k of c, in 4 KiB pages and wholly cut, remade one huge page: a fresh huge page,
 * populated elsewhere as the packing's are, gets a copy of it and is moved over it (mremap
 * replaces the mapping under the address-space lock, so a thread reading it meanwhile reads
 * the old page or the new one, never a hole). Its blocks must be written: the caller cut them
 * all (hp_owner) and its packing is over. false: not done (out of memory or address space). */
static bool rebuild_huge(region *c, size_t k) {
#if USE_MAP && defined(MREMAP_FIXED) && defined(MADV_POPULATE_WRITE)
  uint8_t *at = (uint8_t *)c + k * HUGE;
  uint8_t *raw =
      mmap(NULL, 2 * HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return false;
  uint8_t *p = (uint8_t *)(((uintptr_t)raw + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
  if (p > raw) munmap(raw, (size_t)(p - raw));
  if (raw + 2 * HUGE > p + HUGE) munmap(p + HUGE, (size_t)(raw + 2 * HUGE - (p + HUGE)));
  if (mprotect(p, HUGE, PROT_READ | PROT_WRITE) != 0 || madvise(p, HUGE, MADV_HUGEPAGE) != 0 ||
      madvise(p, HUGE, MADV_POPULATE_WRITE) != 0) {
    munmap(p, HUGE);
    return false;
  }
  memcpy(p, at, HUGE);
  if (mremap(p, HUGE, HUGE, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
    munmap(p, HUGE);
    return false;
  }
  return true;
#else
  (void)c, (void)k;
  return false;
#endif
}

/* The huge pages of c put in 4 KiB pages while blocks were cut from them, now wholly cut (below
 * upto) and in use, made huge pages again: in 4 KiB pages they cost every run TLB misses and,
 * on a VM that shadows page tables, stalls of milliseconds in the operators whose weights lie
 * there (bench/README.md, "The tail at 1 thread"); split, they kept the load's peak at the
 * floor, which is over once they are full. With rebuild (the end of a load), those whose blocks
 * the calling thread cut are rebuilt at once (rebuild_huge: a fresh huge page and a copy, about
 * as much as packing them); the others (blocks of another thread's load, which may still be
 * writing them) are advised as huge pages, for khugepaged to collapse in the background
 * (~30 s here: a process that runs only seconds, a benchmark, would run on 4 KiB pages). Not
 * MADV_COLLAPSE: 1-20 ms each on the shared VM (synchronous compaction). */
static void restore_huge(region *c, size_t upto, bool rebuild) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  for (size_t k = 0; k < NHP && (k + 1) * HUGE <= upto; k++) {
    if (!c->hp_small[k] || c->hp_live[k] == 0) continue;
    if (!(rebuild && c->hp_owner[k] == &t_self && rebuild_huge(c, k)))
      (void)madvise((uint8_t *)c + k * HUGE, HUGE, MADV_HUGEPAGE);
    c->hp_small[k] = 0;
  }
#else
  (void)c, (void)upto, (void)rebuild;
#endif
}

/* Adds d (+1 or -1) to the block counts of the huge pages [off, off + len) of c reaches. */
static void count_pages(region *c, size_t off, size_t len, int d) {
  for (size_t k = off / HUGE; k <= (off + len - 1) / HUGE && k < NHP; k++) {
    c->hp_live[k] = (uint32_t)((int64_t)c->hp_live[k] + d);
    if (d > 0) c->hp_owner[k] = !c->hp_owner[k] || c->hp_owner[k] == &t_self ? &t_self : MIXED;
    if (d > 0) c->hp_sealed[k] = 0; /* a new block: its writer may be writing it */
  }
}

/* Gives back the whole huge pages of c from byte from (a multiple of HUGE) to its committed
 * end (no block in them). */
static void give_back_from(region *c, size_t from) {
  if (from < c->committed) (void)madvise((uint8_t *)c + from, c->committed - from, MADV_DONTNEED);
}

/* c is no longer cut from: unmapped if empty, else the address space it never committed is
 * returned and its untouched committed huge pages given back. The huge page its last block
 * ends in stays whole (weights_mem.h: only tfcc_wmem_trim splits a huge page). */
static void retire(region *c) {
  if (c->live == 0) {
    munmap(c, c->size);
    return;
  }
  const size_t end = (c->used + HUGE - 1) / HUGE * HUGE;
  restore_huge(c, c->used, false);
  give_back_from(c, end);
  if (end < c->size) munmap((uint8_t *)c + end, c->size - end);
  c->size = c->committed = c->used = end;
}

/* Cuts the block [off, off + need) of region c (g_lock held; released here), then asks for its
 * pages after the first in one call (failing that, they fault on first touch; for a spare
 * block, pages that trim gave back are populated again): the header's write has faulted in the
 * first, so a block within one 4 KiB page (an operator's params, a warm load's every block:
 * tfcc_wmem_small_first) costs no system call (was one each: 22 for MobileNetV2 f32). Returns
 * the caller's bytes. */
static void *cut_block(region *c, size_t off, size_t need, bool populate) {
  t_cut = true;
  c->used = off + need;
  c->live++;
  count_pages(c, off, need, 1);
  uint8_t *p = (uint8_t *)c + off;
  block_hdr *h = (block_hdr *)(void *)p;
  h->c = c;
  h->need = need;
  pthread_mutex_unlock(&g_lock);
  const size_t pg = tfcc_page_size();
  const uintptr_t a = ((uintptr_t)p & ~(uintptr_t)(pg - 1)) + pg; /* after the header's page */
  const uintptr_t b = ((uintptr_t)p + need + pg - 1) & ~(uintptr_t)(pg - 1);
  if (populate && b > a) (void)madvise((void *)a, (size_t)(b - a), MADV_POPULATE_WRITE);
  return p + HDR;
}

static void *wmem_alloc(size_t bytes, bool populate) {
  size_t need = (bytes + 63) / 64 * 64;
  if (need < bytes || need > SIZE_MAX / 2 - RHDR - HUGE) return NULL;
  need += HDR;
  if (!USE_MAP) {
    uint8_t *p = aligned_alloc(64, need);
    if (!p) return NULL;
    ((block_hdr *)(void *)p)->c = NULL;
    return p + HDR;
  }
  pthread_mutex_lock(&g_lock);
  region *c = g_cur;
  if (!c || c->used + need > c->size) {
    /* a new region; blocks follow each other across its huge pages, so that only the huge
     * page being cut from holds unused bytes */
    const size_t min = (RHDR + need + HUGE - 1) / HUGE * HUGE;
    const bool small = t_small && !g_cur && need <= SMALL_MAX;
    c = reserve(min > RESERVE ? min : RESERVE, small);
    if (!c && min < RESERVE) c = reserve(min, small); /* short of address space */
    if (!c) {
      pthread_mutex_unlock(&g_lock);
      return NULL;
    }
    if (g_cur) retire(g_cur);
    g_cur = c;
  }
  const size_t off = c->used, end = off + need;
#ifdef MADV_NOHUGEPAGE
  /* A block reaching into a fresh huge page it fills less than TAIL_MIN of: that huge page in
   * 4 KiB pages, so that populating the block makes only its own pages resident (the rest
   * stays free until later blocks are cut from it). During a load the tail of a large block
   * was up to 2 MiB of resident, unused memory at the very moment of the load's peak (a
   * large filter's source and its packing both resident): ResNet-18 f32's 9 MiB 3x3 filters. */
  if (end > c->committed && end % HUGE != 0 && end % HUGE < TAIL_MIN && need >= HUGE &&
      madvise((uint8_t *)c + end / HUGE * HUGE, HUGE, MADV_NOHUGEPAGE) == 0 && end / HUGE < NHP)
    c->hp_small[end / HUGE] = 1;
#endif
  if (end > c->committed) {
    const size_t to = (end + HUGE - 1) / HUGE * HUGE;
    if (mprotect((uint8_t *)c + c->committed, to - c->committed, PROT_READ | PROT_WRITE) != 0) {
      pthread_mutex_unlock(&g_lock);
      return NULL;
    }
    c->committed = to;
  }
  return cut_block(c, off, need, populate);
}

void *tfcc_wmem_alloc(size_t bytes) { return wmem_alloc(bytes, true); }

void *tfcc_wmem_alloc_unpopulated(size_t bytes) { return wmem_alloc(bytes, false); }

void tfcc_wmem_populate(void *p, size_t bytes) {
#if USE_MAP && defined(MADV_POPULATE_WRITE)
  const size_t pg = tfcc_page_size();
  const uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);
  const uintptr_t b = ((uintptr_t)p + bytes + pg - 1) & ~(uintptr_t)(pg - 1);
  if (bytes && b > a) (void)madvise((void *)a, (size_t)(b - a), MADV_POPULATE_WRITE);
#else
  (void)p, (void)bytes;
#endif
}

void *tfcc_wmem_alloc_spare(size_t bytes, bool rewhole) {
  if (!USE_MAP) return NULL;
  size_t need = (bytes + 63) / 64 * 64;
  if (need < bytes || need > HUGE) return NULL;
  need += HDR;
  pthread_mutex_lock(&g_lock);
  region *c = g_cur;
  /* within the huge page being cut from (committed, holding a block already) */
  const size_t off = c ? c->used : 0, end = off + need;
  if (!c || off % HUGE == 0 || end > (off + HUGE - 1) / HUGE * HUGE || end > c->committed ||
      off / HUGE >= NHP) {
    pthread_mutex_unlock(&g_lock);
    return NULL;
  }
  /* The load's trim split this page (its unused part given back); a session's tables now fill
   * part of it and its runs read them and the weights there: one huge page again, resident
   * whole (2 MiB less what trim left: after the load's peak, so the peak does not grow), read
   * without 4 KiB page walks (bench/README.md, sessplan). Only once: blocks of the first
   * spare's writer are in it from then on. */
  const size_t k = off / HUGE;
  if (rewhole && c->hp_small[k] && c->hp_sealed[k] && off - k * HUGE >= SPARE_REBUILD_MIN &&
      rebuild_huge(c, k))
    c->hp_small[k] = 0;
  c->hp_sealed[k] = 0;
  c->hp_spare[k] = 1;
  return cut_block(c, off, need, true);
}

void tfcc_wmem_free(void *p) {
  if (!p) return;
  block_hdr *h = (block_hdr *)(void *)((uint8_t *)p - HDR);
  region *c = h->c;
  if (!c) {
    free(h);
    return;
  }
  pthread_mutex_lock(&g_lock);
  const size_t off = (size_t)((uint8_t *)h - (uint8_t *)c), need = h->need;
  count_pages(c, off, need, -1);
  if (--c->live == 0) {
    if (c == g_cur && !c->hp_small[0]) { /* empty: cut from its start again, its first huge
                                          * page kept (not one in 4 KiB pages: a later load's
                                          * packing would populate it page by page) */
      give_back_from(c, HUGE);
      c->used = RHDR;
      for (size_t k = 0; k < NHP; k++) c->hp_owner[k] = NULL;
      memset(c->hp_sealed, 0, sizeof c->hp_sealed);
      memset(c->hp_spare, 0, sizeof c->hp_spare);
    } else {
      if (c == g_cur) g_cur = NULL;
      munmap(c, c->size);
    }
  } else {
    /* the block's whole huge pages no other block uses and none will be cut from (the first
     * one holds the region's header) */
    for (size_t k = off / HUGE; k <= (off + need - 1) / HUGE && k < NHP; k++)
      if (k > 0 && c->hp_live[k] == 0 && (k + 1) * HUGE <= c->used)
        (void)madvise((uint8_t *)c + k * HUGE, HUGE, MADV_DONTNEED);
  }
  pthread_mutex_unlock(&g_lock);
}

void tfcc_wmem_small_first(bool on) { t_small = on; }

size_t tfcc_wmem_trim(const void **small) {
  size_t small_len = 0;
  if (small) *small = NULL;
  if (!USE_MAP) return 0;
  pthread_mutex_lock(&g_lock);
  region *c = g_cur;
  if (c && c->live) {
    restore_huge(c, c->used, true);
    const size_t pg = tfcc_page_size();
    const size_t from = (c->used + pg - 1) / pg * pg, end = (c->used + HUGE - 1) / HUGE * HUGE;
    if (end - from >= TRIM_MIN && end <= c->committed) {
#ifdef MADV_NOHUGEPAGE
      /* khugepaged would collapse it back into a whole resident huge page */
      if (madvise((uint8_t *)c + end - HUGE, HUGE, MADV_NOHUGEPAGE) == 0 && end / HUGE - 1 < NHP)
        c->hp_small[end / HUGE - 1] = 1;
#endif
      (void)madvise((uint8_t *)c + from, end - from, MADV_DONTNEED);
      const size_t k = end / HUGE - 1; /* every block in it ours, our packing over */
      if (k < NHP && c->hp_owner[k] == &t_self && !c->hp_spare[k]) {
        c->hp_sealed[k] = 1;
        /* named only when this packing cut the last block: a load that cut none would
         * name another load's page, which that model's free could give back */
        if (t_cut) {
          if (small) *small = (uint8_t *)c + k * HUGE;
          small_len = c->used - k * HUGE;
        }
      }
    } else if (end <= c->committed && end / HUGE - 1 < NHP) {
      /* kept whole: one huge page again if a block's tail left it in 4 KiB pages */
      const size_t k = end / HUGE - 1;
      if (c->hp_small[k] && c->hp_live[k] && c->hp_owner[k] == &t_self && rebuild_huge(c, k))
        c->hp_small[k] = 0;
    }
  }
  t_cut = false;
  pthread_mutex_unlock(&g_lock);
  return small_len;
}
