/* Arena memory: pool carving, reuse after free, fallback when the pool is full, huge-page
 * paths (a mapped arena 2 MiB aligned, its last part of 1 MiB or more a whole huge page),
 * zero-filled and aligned memory, every page resident after tfcc_arena_mem_prefault. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/mem_pool.h"
#include "test_harness.h"

static int all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>

/* Pages of [p, p + n) resident (mincore), or -1 when it cannot tell. */
static long resident_pages(const void *p, size_t n) {
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  const uintptr_t lo = (uintptr_t)p / pg * pg, hi = ((uintptr_t)p + n + pg - 1) / pg * pg;
  unsigned char *v = malloc((hi - lo) / pg);
  if (!v || mincore((void *)lo, hi - lo, v) != 0) {
    free(v);
    return -1;
  }
  long r = 0;
  for (size_t i = 0; i < (hi - lo) / pg; i++) r += v[i] & 1;
  free(v);
  return r;
}

/* tfcc_arena_mem_prefault makes every page of an arena resident and leaves it zero: a mapping
 * of its own (4 KiB pages past the last huge page, a whole huge page, a small arena of the
 * heap) and an arena of a pool. */
static void check_prefault(tfcc_mem_pool *pool, size_t bytes) {
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  tfcc_arena_mem m;
  CHECK(tfcc_arena_mem_alloc(pool, bytes, &m, NULL) == TFCC_OK);
  tfcc_arena_mem_prefault(&m);
  const long want =
      (long)((((uintptr_t)m.ptr + bytes + pg - 1) / pg * pg - (uintptr_t)m.ptr / pg * pg) / pg);
  CHECKF(resident_pages(m.ptr, bytes) == want, "%zu bytes (%s): %ld of %ld pages resident", bytes,
         tfcc_arena_mem_kind(&m), resident_pages(m.ptr, bytes), want);
  CHECK(all_zero(m.ptr, bytes));
  tfcc_arena_mem_free(pool, &m);
}
#endif

/* Heap memory of n bytes written and freed: an allocation after it may get it back dirty. */
static void scribble(size_t n) {
  volatile unsigned char *d = malloc(n);
  if (!d) return;
  for (size_t i = 0; i < n; i++) d[i] = 0x5a;
  free((void *)d);
}

int main(void) {
  for (int huge = 0; huge <= 1; huge++) {
    tfcc_mem_pool *pool = NULL;
    CHECK(tfcc_mem_pool_create(1 << 20, huge, &pool, NULL) == TFCC_OK);
    tfcc_arena_mem a, b, c, d;
    CHECK(tfcc_arena_mem_alloc(pool, 300000, &a, NULL) == TFCC_OK);
    CHECK(tfcc_arena_mem_alloc(pool, 500000, &b, NULL) == TFCC_OK);
    CHECK(strcmp(tfcc_arena_mem_kind(&a), "pool") == 0 &&
          strcmp(tfcc_arena_mem_kind(&b), "pool") == 0);
    CHECK((uintptr_t)a.ptr % 64 == 0 && (uintptr_t)b.ptr % 64 == 0);
    CHECK(all_zero(a.ptr, a.size) && all_zero(b.ptr, b.size));
    CHECK((uint8_t *)b.ptr >= (uint8_t *)a.ptr + 300000 ||
          (uint8_t *)a.ptr >= (uint8_t *)b.ptr + 500000);
    memset(a.ptr, 0xab, a.size);
    /* Too big for what is left: falls back to its own mapping. */
    CHECK(tfcc_arena_mem_alloc(pool, 600000, &c, NULL) == TFCC_OK);
    CHECK(strcmp(tfcc_arena_mem_kind(&c), "pool") != 0);
    tfcc_arena_mem_free(pool, &c);
    /* Freed space is reused and zeroed again. */
    tfcc_arena_mem_free(pool, &a);
    CHECK(tfcc_arena_mem_alloc(pool, 200000, &d, NULL) == TFCC_OK);
    CHECK(strcmp(tfcc_arena_mem_kind(&d), "pool") == 0 && all_zero(d.ptr, d.size));
    tfcc_arena_mem_free(pool, &d);
    tfcc_arena_mem_free(pool, &b);
    /* Everything merged back: the whole reserve fits again. */
    CHECK(tfcc_arena_mem_alloc(pool, 1 << 20, &a, NULL) == TFCC_OK);
    CHECK(strcmp(tfcc_arena_mem_kind(&a), "pool") == 0);
    tfcc_arena_mem_free(pool, &a);
    tfcc_mem_pool_destroy(pool);
  }
  /* No pool: small arenas from the heap, large ones mapped (THP where the system allows). */
  tfcc_arena_mem s, l, z;
  CHECK(tfcc_arena_mem_alloc(NULL, 1000, &s, NULL) == TFCC_OK &&
        strcmp(tfcc_arena_mem_kind(&s), "heap") == 0);
  CHECK(tfcc_arena_mem_alloc(NULL, 8u << 20, &l, NULL) == TFCC_OK && all_zero(l.ptr, 4096));
  CHECK(strcmp(tfcc_arena_mem_kind(&l), "heap") != 0);
  CHECK(tfcc_arena_mem_alloc(NULL, 0, &z, NULL) == TFCC_OK && z.ptr == NULL);
  /* from 1 MiB to 2 MiB: one whole huge page, 2 MiB aligned, not 4 KiB pages of the heap */
  tfcc_arena_mem h;
  CHECK(tfcc_arena_mem_alloc(NULL, 1536u << 10, &h, NULL) == TFCC_OK && all_zero(h.ptr, h.size));
  CHECK(strcmp(tfcc_arena_mem_kind(&h), "heap") != 0 && (uintptr_t)h.ptr % (2u << 20) == 0);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  CHECK(h.mapped == (2u << 20));
#endif
  tfcc_arena_mem_free(NULL, &h);
  /* from 512 KiB to 1 MiB (MobileNetV2 int8's 0.8 MB): mapped, zero without a memset, also
   * where the heap held written memory before; in 4 KiB pages (a whole huge page held 1.2 MiB
   * more resident in every process) */
  scribble(832000);
  tfcc_arena_mem m;
  CHECK(tfcc_arena_mem_alloc(NULL, 832000, &m, NULL) == TFCC_OK && all_zero(m.ptr, m.size));
  CHECK(strcmp(tfcc_arena_mem_kind(&m), "heap") != 0);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  CHECK(m.mapped == 832000u / 4096 * 4096 + 4096);
#endif
  tfcc_arena_mem_free(NULL, &m);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  /* over 2 MiB: 2 MiB aligned, a last part of 1 MiB or more on a whole huge page, a smaller one
   * in 4 KiB pages (ResNet-50 f32's 7.2 MB arena: 6 MiB and 0.9 MiB, not 8 MiB) */
  CHECK(tfcc_arena_mem_alloc(NULL, (2u << 20) + (1100u << 10), &m, NULL) == TFCC_OK &&
        all_zero(m.ptr, m.size));
  CHECK((uintptr_t)m.ptr % (2u << 20) == 0 && m.mapped == (4u << 20));
  tfcc_arena_mem_free(NULL, &m);
  CHECK(tfcc_arena_mem_alloc(NULL, 7225344, &m, NULL) == TFCC_OK && all_zero(m.ptr, m.size));
  CHECK((uintptr_t)m.ptr % (2u << 20) == 0 && m.mapped == 7225344);
  tfcc_arena_mem_free(NULL, &m);
  CHECK(tfcc_arena_mem_alloc(NULL, (2u << 20) + (64u << 10), &m, NULL) == TFCC_OK &&
        all_zero(m.ptr, m.size));
  CHECK((uintptr_t)m.ptr % (2u << 20) == 0 && m.mapped == (2u << 20) + (64u << 10));
  tfcc_arena_mem_free(NULL, &m);
#endif
  /* under 512 KiB: the heap, zeroed */
  scribble(400000);
  CHECK(tfcc_arena_mem_alloc(NULL, 400000, &m, NULL) == TFCC_OK && all_zero(m.ptr, m.size) &&
        strcmp(tfcc_arena_mem_kind(&m), "heap") == 0);
  tfcc_arena_mem_free(NULL, &m);
  tfcc_arena_mem_free(NULL, &s);
  tfcc_arena_mem_free(NULL, &l);
  tfcc_arena_mem_free(NULL, &z);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  check_prefault(NULL, 1000);                       /* heap */
  check_prefault(NULL, 832000);                     /* one huge page */
  check_prefault(NULL, (2u << 20) + (64u << 10));   /* a huge page and 4 KiB pages */
  check_prefault(NULL, (6u << 20) + (1000u << 10)); /* ResNet-50 f32's 7.2 MB */
  tfcc_mem_pool *pp = NULL;
  CHECK(tfcc_mem_pool_create(4u << 20, false, &pp, NULL) == TFCC_OK);
  check_prefault(pp, 600000); /* carved from a pool */
  tfcc_mem_pool_destroy(pp);
  tfcc_arena_mem e = {0};
  tfcc_arena_mem_prefault(&e); /* an empty arena: nothing */
#endif
  return tfcc_test_finish("mem_pool");
}
