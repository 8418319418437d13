/* Counts the allocations a stretch of a test program makes: every malloc, calloc, realloc,
 * aligned_alloc, posix_memalign and memalign of glibc, interposed by this header (include it in
 * one file of one test program only). Under AddressSanitizer / ThreadSanitizer (their own
 * allocators) and outside glibc nothing is interposed and TEST_ALLOC_COUNTED is 0. */
#ifndef TFCC_TEST_ALLOC_COUNT_H
#define TFCC_TEST_ALLOC_COUNT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define TEST_ALLOC_NO_COUNT 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__GLIBC__)
#define TEST_ALLOC_NO_COUNT 1
#endif

static atomic_long test_alloc_calls;
static atomic_bool test_alloc_counting;

#ifndef TEST_ALLOC_NO_COUNT
#define TEST_ALLOC_COUNTED 1
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static void test_alloc_note(void) {
  if (atomic_load_explicit(&test_alloc_counting, memory_order_relaxed))
    atomic_fetch_add_explicit(&test_alloc_calls, 1, memory_order_relaxed);
}
void *malloc(size_t n) {
  test_alloc_note();
  return __libc_malloc(n);
}
void *calloc(size_t a, size_t b) {
  test_alloc_note();
  return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n) {
  test_alloc_note();
  return __libc_realloc(p, n);
}
void *aligned_alloc(size_t align, size_t n) {
  test_alloc_note();
  return __libc_memalign(align, n);
}
void *memalign(size_t align, size_t n) {
  test_alloc_note();
  return __libc_memalign(align, n);
}
int posix_memalign(void **out, size_t align, size_t n) {
  test_alloc_note();
  void *p = __libc_memalign(align, n);
  if (!p) return 12; /* ENOMEM */
  *out = p;
  return 0;
}
#else
#define TEST_ALLOC_COUNTED 0
#endif

/* Starts counting (from 0). */
static inline void test_alloc_begin(void) {
  atomic_store(&test_alloc_calls, 0);
  atomic_store(&test_alloc_counting, true);
}
/* Stops counting; returns the allocations made since test_alloc_begin. */
static inline long test_alloc_end(void) {
  atomic_store(&test_alloc_counting, false);
  return atomic_load(&test_alloc_calls);
}

#endif
