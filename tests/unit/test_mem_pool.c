/* Arena memory: pool carving, reuse after free, fallback when the pool is full, huge-page
 * paths (a mapped arena 2 MiB aligned, its last part of 128 KiB or more a whole huge page),
 * zero-filled and aligned memory. */
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
  tfcc_arena_mem_free(NULL, &h);
  /* from 512 KiB to 1 MiB (MobileNetV2 int8's 0.8 MB): mapped, zero without a memset (on Linux
   * a whole huge page, 2 MiB aligned), also where the heap held written memory before */
  scribble(832000);
  tfcc_arena_mem m;
  CHECK(tfcc_arena_mem_alloc(NULL, 832000, &m, NULL) == TFCC_OK && all_zero(m.ptr, m.size));
  CHECK(strcmp(tfcc_arena_mem_kind(&m), "heap") != 0);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  CHECK((uintptr_t)m.ptr % (2u << 20) == 0);
#endif
  tfcc_arena_mem_free(NULL, &m);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  /* over 2 MiB, a last part of 128 KiB or more on a whole huge page (ResNet-18 f32's 6.2 MB
   * arena: 61 faults of 4 KiB in every first run before), a smaller one in 4 KiB pages */
  CHECK(tfcc_arena_mem_alloc(NULL, (2u << 20) + (244u << 10), &m, NULL) == TFCC_OK &&
        all_zero(m.ptr, m.size));
  CHECK((uintptr_t)m.ptr % (2u << 20) == 0 && m.mapped == (4u << 20));
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
  return tfcc_test_finish("mem_pool");
}
