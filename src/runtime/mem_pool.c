#include "runtime/mem_pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL */
#endif

#define HUGE_PAGE (2u << 20)
#define ALIGN 64

enum { KIND_HEAP, KIND_PAGES, KIND_THP, KIND_HUGETLB, KIND_POOL };

typedef struct pool_block {
  size_t offset, size;
  bool used;
} pool_block;

struct tfcc_mem_pool {
  pthread_mutex_t mu;
  bool huge_pages;
  uint8_t *base;
  size_t size;
  int base_kind;
  pool_block *blocks; /* sorted by offset, covering [0, size) */
  int n_blocks, cap_blocks;
};

/* Transparent huge pages (Linux): mappings laid out for them. Not under Emscripten, whose
 * anonymous mappings are heap blocks: no huge pages there, and munmap cannot give back part of
 * one (the alignment below would free the whole block under the arena). */
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define THP_ALIGN 1
#else
#define THP_ALIGN 0
#endif

/* An arena of 512 KiB or more is a mapping of its own (zero without being written), and one of
 * 1 MiB or more (the whole arena under 2 MiB) takes a whole huge page for it (TAIL_MIN below).
 * Before branch load10 the limits were 1 MiB, under which arenas came from the heap zeroed by
 * memset: MobileNetV2 int8's 0.8 MB arena was 203 first touches at every session creation,
 * about a third of a warm load's CPU on the test VM, and mapped in 4 KiB pages it would be as
 * many first touches in the first run (bench/README.md "load10"; since mem61 it is in 4 KiB
 * pages again, populated at session creation in one call by the default prefault). Smaller arenas still come from
 * the heap; under Emscripten (mappings are heap blocks, no huge pages) from 1 MiB as before. */
#if THP_ALIGN
#define MAP_MIN (HUGE_PAGE / 4)
#else
#define MAP_MIN (HUGE_PAGE / 2)
#endif

/* A mapped arena's last part of 1 MiB or more (the part past its last whole huge page) is
 * mapped as a whole huge page too: one first touch (zeroing 2 MiB) instead of one per 4 KiB, at
 * most 1 MiB more resident, never more than the part itself. A smaller last part stays in 4 KiB
 * pages: the default prefault populates them at session creation in one call
 * (tfcc_arena_mem_prefault), so the first run faults none. Branch first18 had the limit at
 * 128 KiB (ResNet-18 f32's 244 KiB last part took 61 faults in every first run, before the
 * prefault was the default), which held up to 1.9 MiB more per session resident in every
 * process: MobileNetV2 int8's 0.8 MB arena took 2 MiB, ResNet-50 f32's 7.2 MB 8 MiB. With
 * 1 MiB, on the test VM (warm cache, 7 interleaved rounds, docs/bench.md "mem61"): peak RSS
 * 11.7 -> 10.4 MB and 116.1 -> 114.9 MB, load CPU 2.56 -> 3.00 ms (minima 2.41 / 2.47) and
 * 3.71 -> 3.78, the runs' CPU unchanged. */
#define TAIL_MIN (HUGE_PAGE / 2)

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Maps bytes of anonymous memory, with huge pages where possible. */
static void *map_region(size_t bytes, bool huge_pages, size_t *mapped, int *kind) {
#ifdef MAP_HUGETLB
  if (huge_pages) {
    size_t n = round_up(bytes, HUGE_PAGE);
    void *p =
        mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
    if (p != MAP_FAILED) {
      *mapped = n;
      *kind = KIND_HUGETLB;
      return p;
    }
  }
#endif
  size_t n = round_up(bytes, 4096);
  /* 2 MiB aligned when it holds a huge page: transparent huge pages back only the aligned 2 MiB
   * ranges inside a mapping, so at an address chosen by mmap a 5 MiB arena had one or two of
   * them and up to 4 MiB of 4 KiB pages (a source of latency tail on a VM, docs/bench.md
   * "The latency tail at 1 thread"); aligned, all of it but the last n % 2 MiB. Nothing more
   * is resident: the over-reservation is unmapped untouched. */
  const size_t over = THP_ALIGN && n >= HUGE_PAGE ? n + HUGE_PAGE - 4096 : n;
  uint8_t *raw = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uint8_t *p = raw;
  if (over > n) {
    p = (uint8_t *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + over > p + n) munmap(p + n, (size_t)(raw + over - (p + n)));
  }
  *mapped = n;
  *kind = KIND_PAGES;
#ifdef MADV_HUGEPAGE
  if (n >= HUGE_PAGE && madvise(p, n, MADV_HUGEPAGE) == 0) *kind = KIND_THP;
#endif
  return p;
}

tfcc_status tfcc_mem_pool_create(size_t reserve, bool huge_pages, tfcc_mem_pool **out,
                                 tfcc_err *err) {
  *out = NULL;
  tfcc_mem_pool *p = calloc(1, sizeof *p);
  if (!p) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "memory pool: out of memory");
  pthread_mutex_init(&p->mu, NULL);
  p->huge_pages = huge_pages;
  if (reserve) {
    size_t mapped = 0;
    p->base = map_region(reserve, huge_pages, &mapped, &p->base_kind);
    if (!p->base) {
      free(p);
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "memory pool: cannot map %zu bytes", reserve);
    }
    p->size = mapped;
    p->cap_blocks = 16;
    p->blocks = calloc((size_t)p->cap_blocks, sizeof *p->blocks);
    if (!p->blocks) {
      munmap(p->base, p->size);
      free(p);
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "memory pool: out of memory");
    }
    p->blocks[0] = (pool_block){0, p->size, false};
    p->n_blocks = 1;
  }
  *out = p;
  return TFCC_OK;
}

void tfcc_mem_pool_destroy(tfcc_mem_pool *p) {
  if (!p) return;
  if (p->base) munmap(p->base, p->size);
  free(p->blocks);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* First fit inside the reserved region; returns the offset or SIZE_MAX. */
static size_t pool_take(tfcc_mem_pool *p, size_t bytes) {
  for (int i = 0; i < p->n_blocks; i++) {
    pool_block *b = &p->blocks[i];
    if (b->used || b->size < bytes) continue;
    if (b->size > bytes) {
      if (p->n_blocks == p->cap_blocks) {
        pool_block *nb = realloc(p->blocks, sizeof *nb * (size_t)p->cap_blocks * 2);
        if (!nb) return SIZE_MAX;
        p->blocks = nb;
        p->cap_blocks *= 2;
        b = &p->blocks[i];
      }
      memmove(&p->blocks[i + 2], &p->blocks[i + 1], sizeof *b * (size_t)(p->n_blocks - i - 1));
      p->blocks[i + 1] = (pool_block){b->offset + bytes, b->size - bytes, false};
      p->n_blocks++;
      b->size = bytes;
    }
    b->used = true;
    return b->offset;
  }
  return SIZE_MAX;
}

static void pool_give(tfcc_mem_pool *p, size_t offset) {
  for (int i = 0; i < p->n_blocks; i++) {
    if (p->blocks[i].offset != offset) continue;
    p->blocks[i].used = false;
    /* merge with free neighbours */
    if (i + 1 < p->n_blocks && !p->blocks[i + 1].used) {
      p->blocks[i].size += p->blocks[i + 1].size;
      memmove(&p->blocks[i + 1], &p->blocks[i + 2],
              sizeof *p->blocks * (size_t)(p->n_blocks - i - 2));
      p->n_blocks--;
    }
    if (i > 0 && !p->blocks[i - 1].used) {
      p->blocks[i - 1].size += p->blocks[i].size;
      memmove(&p->blocks[i], &p->blocks[i + 1], sizeof *p->blocks * (size_t)(p->n_blocks - i - 1));
      p->n_blocks--;
    }
    return;
  }
}

tfcc_status tfcc_arena_mem_alloc(tfcc_mem_pool *pool, size_t bytes, tfcc_arena_mem *out,
                                 tfcc_err *err) {
  memset(out, 0, sizeof *out);
  out->size = bytes;
  if (bytes == 0) return TFCC_OK;
  size_t need = round_up(bytes, ALIGN);
  if (pool && pool->base) {
    pthread_mutex_lock(&pool->mu);
    size_t off = pool_take(pool, need);
    pthread_mutex_unlock(&pool->mu);
    if (off != SIZE_MAX) {
      out->ptr = pool->base + off;
      memset(out->ptr, 0, need);
      out->kind = KIND_POOL;
      return TFCC_OK;
    }
  }
  if (need >= MAP_MIN || (pool && pool->huge_pages)) {
    /* a last part of TAIL_MIN or more on a whole huge page: in 4 KiB pages the arena of the
     * int8 ResNets (1.5-1.7 MiB) stalled their runs on a VM (docs/bench.md, "The latency tail
     * at 1 thread"), and every first run took a fault per 4 KiB of it */
    const size_t map = THP_ALIGN && need % HUGE_PAGE >= TAIL_MIN ? round_up(need, HUGE_PAGE) : need;
    out->ptr = map_region(map, pool && pool->huge_pages, &out->mapped, &out->kind);
    if (out->ptr) return TFCC_OK;
  } else {
    out->ptr = aligned_alloc(ALIGN, need);
    if (out->ptr) {
      memset(out->ptr, 0, need);
      out->kind = KIND_HEAP;
      return TFCC_OK;
    }
  }
  return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "cannot allocate an arena of %zu bytes", bytes);
}

void tfcc_arena_mem_free(tfcc_mem_pool *pool, tfcc_arena_mem *m) {
  if (!m->ptr) return;
  switch (m->kind) {
    case KIND_POOL:
      pthread_mutex_lock(&pool->mu);
      pool_give(pool, (size_t)((uint8_t *)m->ptr - pool->base));
      pthread_mutex_unlock(&pool->mu);
      break;
    case KIND_HEAP: free(m->ptr); break;
    default: munmap(m->ptr, m->mapped); break;
  }
  memset(m, 0, sizeof *m);
}

void tfcc_arena_mem_prefault(const tfcc_arena_mem *m) {
  if (!m->ptr) return;
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  /* one call instead of a fault per page: a 4 MiB arena on 4 KiB pages 2.6 -> 1.5 ms CPU on the
   * test VM, on two huge pages 0.5 -> 0.3 ms (docs/bench.md, "mem61") */
  if (m->kind != KIND_HEAP && m->kind != KIND_POOL && m->mapped &&
      madvise(m->ptr, m->mapped, MADV_POPULATE_WRITE) == 0)
    return;
#endif
  memset(m->ptr, 0, round_up(m->size, ALIGN));
}

const char *tfcc_arena_mem_kind(const tfcc_arena_mem *m) {
  static const char *const names[] = {"heap", "pages", "thp", "hugetlb", "pool"};
  return (unsigned)m->kind < 5 ? names[m->kind] : "?";
}
