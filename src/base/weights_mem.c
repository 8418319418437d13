/* Packed-weights memory in populated huge-page regions (contract in weights_mem.h). */
#include "base/weights_mem.h"

#include "base/private_map.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHUNK ((size_t)2 << 20) /* huge page: chunks are whole multiples of it */
#define HDR ((size_t)64)        /* block header, keeps the 64-byte alignment */

typedef struct chunk {
  size_t size; /* bytes mapped */
  size_t used; /* bytes handed out, from the chunk's start (this struct's HDR included) */
  size_t live; /* blocks not yet freed */
} chunk;

typedef struct block_hdr {
  chunk *c; /* NULL: from aligned_alloc */
} block_hdr;

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define USE_MAP 1 /* elsewhere (WebAssembly): aligned_alloc */
#else
#define USE_MAP 0
#endif

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static chunk *g_cur; /* the chunk blocks are cut from */
/* Empty 2 MiB chunks kept for the next load (a model replaced by another, a weight update):
 * their pages are resident already. At most SPARE_MAX (8 MiB). */
#define SPARE_MAX 4
static chunk *g_spare[SPARE_MAX];
static int g_n_spare;

/* An empty chunk: kept as a spare or unmapped. */
static void drop(chunk *c) {
  if (c->size == CHUNK && g_n_spare < SPARE_MAX) {
    c->used = HDR;
    c->live = 0;
    g_spare[g_n_spare++] = c;
  } else {
    munmap(c, c->size);
  }
}

/* A chunk of len bytes (a multiple of CHUNK), 2 MiB aligned, huge pages advised; NULL when out
 * of memory. Blocks are populated as they are cut (only the huge pages they reach). */
static chunk *map_chunk(size_t len) {
  uint8_t *p = tfcc_map_private(len, false);
  if (!p) return NULL;
#ifdef MADV_NOHUGEPAGE
  /* a chunk made for a block of more than 2 MiB: the block ends in its last huge page, whose
   * unused tail is given back when the chunk is retired. In 4 KiB pages from the start, that
   * splits nothing (see retire) and the tail is never resident */
  if (len > CHUNK) (void)madvise(p + len - CHUNK, CHUNK, MADV_NOHUGEPAGE);
#endif
  chunk *c = (chunk *)(void *)p;
  c->size = len;
  c->used = HDR;
  c->live = 0;
  return c;
}

/* c is no longer cut from: unmapped if empty, else its unused tail is given back where that
 * splits no huge page: from the next 4 KiB page in the 4 KiB-paged last huge page of a chunk
 * made for a large block, from the next huge page in a 2 MiB chunk (whose tail, under the size
 * of the block that did not fit, stays). Releasing part of a huge page splits it into 4 KiB
 * pages, and on a VM the first run then paid for every 4 KiB page of the packed weights in it
 * as for fresh memory (MobileNetV2 float: first run 26 ms of CPU instead of 7, ResNet-50 int8
 * 73 instead of 15; bench/README.md "First run"). */
static void retire(chunk *c) {
  if (c->live == 0) {
    drop(c);
    return;
  }
  const size_t pg = c->size > CHUNK ? tfcc_page_size() : CHUNK;
  const size_t from = (c->used + pg - 1) / pg * pg;
  if (from < c->size) (void)madvise((uint8_t *)c + from, c->size - from, MADV_DONTNEED);
  c->used = c->size;
}

void *tfcc_wmem_alloc(size_t bytes) {
  size_t need = (bytes + 63) / 64 * 64;
  if (need < bytes || need > SIZE_MAX / 2 - HDR - CHUNK) return NULL;
  need += HDR;
  if (!USE_MAP) {
    uint8_t *p = aligned_alloc(64, need);
    if (!p) return NULL;
    ((block_hdr *)(void *)p)->c = NULL;
    return p + HDR;
  }
  pthread_mutex_lock(&g_lock);
  chunk *c = g_cur;
  uint8_t *p;
  if (c && c->used + need <= c->size) {
    p = (uint8_t *)c + c->used;
    c->used += need;
    c->live++;
  } else {
    /* a new chunk of whole huge pages starting with this block; the chunk with more room
     * left stays current, the other one is retired */
    const size_t len = (HDR + need + CHUNK - 1) / CHUNK * CHUNK;
    c = len == CHUNK && g_n_spare ? g_spare[--g_n_spare] : map_chunk(len);
    if (!c) {
      pthread_mutex_unlock(&g_lock);
      return NULL;
    }
    p = (uint8_t *)c + c->used;
    c->used += need;
    c->live = 1;
    if (!g_cur || c->size - c->used > g_cur->size - g_cur->used) {
      if (g_cur) retire(g_cur);
      g_cur = c;
    } else {
      retire(c);
    }
  }
  ((block_hdr *)(void *)p)->c = c;
  pthread_mutex_unlock(&g_lock);
  /* one call for the block's pages (failing that, they fault on first touch) */
  const size_t pg = tfcc_page_size();
  const uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);
  const uintptr_t b = ((uintptr_t)p + need + pg - 1) & ~(uintptr_t)(pg - 1);
  (void)madvise((void *)a, (size_t)(b - a), MADV_POPULATE_WRITE);
  return p + HDR;
}

void tfcc_wmem_free(void *p) {
  if (!p) return;
  block_hdr *h = (block_hdr *)(void *)((uint8_t *)p - HDR);
  chunk *c = h->c;
  if (!c) {
    free(h);
    return;
  }
  pthread_mutex_lock(&g_lock);
  if (--c->live == 0) {
    if (c == g_cur)
      c->used = HDR; /* empty: cut from its start again */
    else
      drop(c);
  }
  pthread_mutex_unlock(&g_lock);
}
