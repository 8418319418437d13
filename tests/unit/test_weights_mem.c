/* Packed-weights memory (base/weights_mem.h): aligned, writable blocks cut one after the other
 * across huge pages (a block that does not fit what is left of a huge page no longer leaves
 * that rest resident and unused), the whole huge pages of freed blocks given back while other
 * blocks live, live blocks untouched by it; a huge page left in 4 KiB pages by a large block's
 * tail is one huge page again after the load's trim, its bytes unchanged; spare blocks
 * (tfcc_wmem_alloc_spare) only from the free part of the huge page being cut from; a warm
 * cache's load (tfcc_wmem_small_first) makes only its params' 4 KiB pages resident. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/weights_mem.h"
#include "test_harness.h"

#define MIB ((size_t)1 << 20)
#define HP ((uintptr_t)2 << 20)
#define N 6
#define BLOCK (3 * MIB / 2)

/* Resident bytes of the whole huge pages [a, b) (a, b multiples of HP); 0 where unmapped. */
static size_t resident(uintptr_t a, uintptr_t b) {
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t r = 0;
  unsigned char v[512];
  for (uintptr_t p = a; p < b; p += HP) {
    const size_t n = HP / pg <= sizeof v ? HP / pg : sizeof v;
    if (mincore((void *)p, n * pg, v) != 0) continue; /* not mapped: nothing resident */
    for (size_t i = 0; i < n; i++) r += (v[i] & 1) ? pg : 0;
  }
  return r;
}

static int filled(const uint8_t *p, size_t n, uint8_t x) {
  for (size_t i = 0; i < n; i += 4093)
    if (p[i] != x) return 0;
  return p[n - 1] == x;
}

/* The VmFlags of the mapping holding a ("hg": huge pages advised, "nh": not) and its
 * AnonHugePages in kB into *huge; 0 when /proc/self/smaps does not say. */
static int vm_flags(uintptr_t a, char *flags, size_t cap, long *huge) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return 0;
  char line[512];
  int in = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
      in = a >= lo && a < hi;
      continue;
    }
    if (in && sscanf(line, "AnonHugePages: %ld kB", huge) == 1) continue;
    if (in && !strncmp(line, "VmFlags:", 8)) {
      snprintf(flags, cap, "%s", line + 8);
      found = 1;
      break;
    }
  }
  fclose(f);
  return found;
}

/* tfcc_wmem_small_first (a warm cache's load: operators' params only): the process's first
 * region's first huge page in 4 KiB pages, only the blocks' pages resident, the trim gives the
 * rest back, the bytes stay; once freed the region is gone and the next one, without the hint,
 * is in huge pages again. */
static void small_first_page(void) {
  enum { NB = 24, SZ = 1500 };
  uint8_t *b[NB];
  tfcc_wmem_small_first(true);
  for (int i = 0; i < NB; i++) {
    b[i] = tfcc_wmem_alloc(SZ);
    CHECK(b[i] != NULL);
    if (!b[i]) return;
    memset(b[i], 0x40 + i, SZ);
  }
  tfcc_wmem_small_first(false);
  const uintptr_t page = (uintptr_t)b[0] & ~(HP - 1);
  char fl[256] = "";
  long huge = -1;
  CHECK(vm_flags(page, fl, sizeof fl, &huge) && strstr(fl, " nh") != NULL && huge == 0);
  /* 24 blocks of 1.5 kB + the region's header: 11 pages or so, not 2 MiB */
  CHECKF(resident(page, page + HP) <= ((size_t)64 << 10), "%zu bytes resident",
         resident(page, page + HP));
  tfcc_wmem_trim(NULL);
  CHECK(resident(page, page + HP) <= ((size_t)64 << 10));
  for (int i = 0; i < NB; i++) CHECK(filled(b[i], SZ, (uint8_t)(0x40 + i)));
  for (int i = 0; i < NB; i++) tfcc_wmem_free(b[i]);
  uint8_t *c = tfcc_wmem_alloc(SZ); /* a new region: huge pages advised again */
  CHECK(c != NULL);
  if (!c) return;
  memset(c, 0x5a, SZ);
  CHECK(vm_flags((uintptr_t)c, fl, sizeof fl, &huge) && strstr(fl, " hg") != NULL &&
        strstr(fl, " nh") == NULL);
  CHECK(filled(c, SZ, 0x5a));
  tfcc_wmem_free(c); /* the region stays, its first huge page kept: the tests below take it */
}

/* A large block whose tail fills 256 KiB of a fresh huge page (left in 4 KiB pages, so that the
 * load's peak holds only the block's own pages), small blocks filling the rest of that page:
 * after tfcc_wmem_trim the page is advised huge again, rebuilt as one huge page where the
 * kernel has one, and every block reads what was written. */
static void tail_page_rebuilt(void) {
  uint8_t *a = tfcc_wmem_alloc(64 << 10);
  CHECK(a != NULL);
  if (!a) return;
  const uintptr_t a_end = (uintptr_t)a + (64 << 10);
  const uintptr_t t = ((a_end + HP - 1) & ~(HP - 1)) + 2 * HP; /* the huge page the tail is in */
  const size_t nb = (size_t)(t + (256 << 10) - a_end - 64);    /* a block header is 64 bytes */
  uint8_t *b = tfcc_wmem_alloc(nb);
  CHECK(b != NULL && (uintptr_t)b + nb == t + (256 << 10));
  if (!b || (uintptr_t)b + nb != t + (256 << 10)) return;
  char fl[256] = "";
  long huge = -1;
  CHECK(vm_flags(t, fl, sizeof fl, &huge) && strstr(fl, " nh") != NULL);
  const size_t nc = HP - (256 << 10) - 2 * 64 - 1000;
  uint8_t *c = tfcc_wmem_alloc(nc), *d = tfcc_wmem_alloc(200 << 10); /* d ends past the page */
  CHECK(c && d && (uintptr_t)d > t + HP - 2048 && (uintptr_t)d < t + HP);
  if (!c || !d) return;
  memset(a, 0x21, 64 << 10);
  memset(b, 0x22, nb);
  memset(c, 0x23, nc);
  memset(d, 0x24, 200 << 10);
  tfcc_wmem_trim(NULL);
  CHECK(vm_flags(t, fl, sizeof fl, &huge) && strstr(fl, " nh") == NULL && strstr(fl, " hg"));
  /* huge pages where the region before it got them (the rebuilt page is a mapping of its own) */
  long before = 0;
  char fl2[256];
  CHECK(vm_flags(t - HP, fl2, sizeof fl2, &before));
  CHECK(before == 0 || huge == 2048);
  CHECK(filled(a, 64 << 10, 0x21) && filled(b, nb, 0x22) && filled(c, nc, 0x23) &&
        filled(d, 200 << 10, 0x24));
  CHECK(filled(b + (t - (uintptr_t)b), 256 << 10, 0x22));
  tfcc_wmem_free(a);
  tfcc_wmem_free(b);
  tfcc_wmem_free(c);
  tfcc_wmem_free(d);
}

/* Spare blocks: cut right after the last block, inside its huge page, never from a new one. */
static void spare_blocks(void) {
  uint8_t *a = tfcc_wmem_alloc(100000);
  CHECK(a != NULL);
  if (!a) return;
  memset(a, 0x61, 100000);
  const uintptr_t page_end = ((uintptr_t)a + HP) & ~(HP - 1);
  uint8_t *s = tfcc_wmem_alloc_spare(30000, true);
  /* after a (100032 bytes) and s's 64-byte header, in a's huge page */
  CHECK(s != NULL && (uintptr_t)s == (uintptr_t)a + 100032 + 64 && (uintptr_t)s % 64 == 0);
  if (!s) return;
  memset(s, 0x62, 30000);
  CHECK(tfcc_wmem_alloc_spare(HP, true) == NULL); /* larger than a huge page */
  /* what is left of the page: one byte more does not fit, exactly that does */
  const size_t room = (size_t)(page_end - ((uintptr_t)s + 30016)) - 64;
  CHECK(tfcc_wmem_alloc_spare(room + 1, true) == NULL);
  uint8_t *t = tfcc_wmem_alloc_spare(room, true);
  CHECK(t != NULL && (uintptr_t)t + room == page_end);
  if (t) memset(t, 0x63, room);
  CHECK(tfcc_wmem_alloc_spare(64, true) == NULL); /* the page is full: no new huge page for it */
  uint8_t *u = tfcc_wmem_alloc(64);               /* a plain block takes the next one */
  CHECK(u != NULL && (uintptr_t)u >= page_end);
  CHECK(filled(a, 100000, 0x61) && filled(s, 30000, 0x62) && (!t || filled(t, room, 0x63)));
  tfcc_wmem_free(s);
  tfcc_wmem_free(t);
  tfcc_wmem_free(u);
  CHECK(filled(a, 100000, 0x61));
  tfcc_wmem_free(a);
}

/* A load's last huge page split by its trim (more than 1 MiB unused) is one huge page again
 * once a spare block (a session's tables) is cut from it, the load's bytes unchanged, where the
 * load's blocks reach 512 KiB into it; a page of a few small blocks stays split. */
static void spare_rewholes_trimmed_page(void) {
  char fl[256] = "";
  long huge = -1;
  /* a page of a few small blocks (a warm cache's load: params only) stays in 4 KiB pages */
  uint8_t *p = tfcc_wmem_alloc(100000);
  CHECK(p != NULL);
  if (!p) return;
  tfcc_wmem_trim(NULL);
  uint8_t *ps = tfcc_wmem_alloc_spare(4000, true);
  CHECK(ps != NULL && vm_flags((uintptr_t)p, fl, sizeof fl, &huge) && strstr(fl, " nh") != NULL);
  tfcc_wmem_free(ps);
  tfcc_wmem_free(p);
  /* the last 700 kB of a load's weights, a session without prefault: the page stays split */
  uint8_t *b = tfcc_wmem_alloc(700000);
  CHECK(b != NULL);
  if (!b) return;
  const uintptr_t bpage = (uintptr_t)b & ~(HP - 1);
  /* the trim names what it left in 4 KiB pages: the page's start to the block's end (a
   * session's creation reads those pages, runtime/session.c) */
  const void *small = NULL;
  const size_t small_len = tfcc_wmem_trim(&small);
  const size_t b_end = (size_t)((uintptr_t)b + (700000 + 63) / 64 * 64 - bpage);
  CHECKF((uintptr_t)small == bpage && small_len == b_end, "trim: %p + %zu, want %p + %zu", small,
         small_len, (void *)bpage, b_end);
  /* again, nothing cut since: none named (a load that packs nothing names no other's page) */
  CHECK(tfcc_wmem_trim(&small) == 0 && small == NULL);
  uint8_t *bs = tfcc_wmem_alloc_spare(40000, false);
  CHECK(bs != NULL && ((uintptr_t)bs & ~(HP - 1)) == bpage);
  CHECK(vm_flags(bpage, fl, sizeof fl, &huge) && strstr(fl, " nh") != NULL);
  tfcc_wmem_free(bs);
  tfcc_wmem_free(b);
  /* the same with prefault: rebuilt */
  uint8_t *a = tfcc_wmem_alloc(700000);
  CHECK(a != NULL);
  if (!a) return;
  memset(a, 0x71, 700000);
  const uintptr_t page = (uintptr_t)a & ~(HP - 1);
  CHECK((uintptr_t)a + 700000 - page >= ((size_t)512 << 10));
  /* 1.3 MiB unused: given back, the page in 4 KiB pages */
  CHECK(tfcc_wmem_trim(NULL) == (uintptr_t)a + (700000 + 63) / 64 * 64 - page);
  CHECK(vm_flags(page, fl, sizeof fl, &huge) && strstr(fl, " nh") != NULL);
  uint8_t *s = tfcc_wmem_alloc_spare(40000, true);
  CHECK(s != NULL && ((uintptr_t)s & ~(HP - 1)) == page);
  if (s) memset(s, 0x72, 40000);
  CHECK(vm_flags(page, fl, sizeof fl, &huge) && strstr(fl, " nh") == NULL && strstr(fl, " hg"));
  CHECK(filled(a, 700000, 0x71) && (!s || filled(s, 40000, 0x72)));
  uint8_t *s2 = tfcc_wmem_alloc_spare(1000, true); /* the page is whole: no second rebuild needed */
  CHECK(s2 != NULL && ((uintptr_t)s2 & ~(HP - 1)) == page);
  if (s2) memset(s2, 0x73, 1000);
  CHECK(filled(a, 700000, 0x71) && (!s || filled(s, 40000, 0x72)) &&
        (!s2 || filled(s2, 1000, 0x73)));
  tfcc_wmem_free(s2);
  tfcc_wmem_free(s);
  tfcc_wmem_free(a);
}

int main(void) {
#if defined(__linux__)
  small_first_page();  /* first: the process's first region */
  tail_page_rebuilt(); /* then: the rule applies to fresh huge pages of a region */
  uint8_t *b[N];
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < N; i++) {
    b[i] = tfcc_wmem_alloc(BLOCK);
    CHECK(b[i] != NULL);
    if (!b[i]) return tfcc_test_finish("weights_mem");
    CHECK((uintptr_t)b[i] % 64 == 0);
    memset(b[i], 0x10 + i, BLOCK);
    if ((uintptr_t)b[i] < lo) lo = (uintptr_t)b[i];
    if ((uintptr_t)b[i] + BLOCK > hi) hi = (uintptr_t)b[i] + BLOCK;
  }
  lo &= ~(HP - 1);
  hi = (hi + HP - 1) & ~(HP - 1);
  /* 9 MiB of blocks: they follow each other (one region), so at most the huge page being cut
   * from holds unused bytes. Cut from 2 MiB chunks each 1.5 MiB block took a chunk of its own
   * and, with transparent huge pages, 12 MiB were resident. */
  CHECK(hi - lo <= N * BLOCK + 2 * HP);
  CHECK(resident(lo, hi) <= N * BLOCK + HP);
  /* blocks 1..N-2 freed while 0 and N-1 live: the huge pages only they used are given back */
  for (int i = 1; i < N - 1; i++) tfcc_wmem_free(b[i]);
  const uintptr_t in_a = ((uintptr_t)b[0] + BLOCK + HP - 1) & ~(HP - 1);
  const uintptr_t in_b = (uintptr_t)b[N - 1] & ~(HP - 1);
  if (b[N - 1] > b[0] && in_a < in_b) CHECK(resident(in_a, in_b) == 0);
  CHECK(filled(b[0], BLOCK, 0x10) && filled(b[N - 1], BLOCK, 0x10 + N - 1));
  /* a block larger than a huge page, a small one, then everything freed and cut again */
  uint8_t *big = tfcc_wmem_alloc(5 * MIB + 123), *small = tfcc_wmem_alloc(100);
  CHECK(big && small && (uintptr_t)big % 64 == 0 && (uintptr_t)small % 64 == 0);
  if (big) memset(big, 0x7f, 5 * MIB + 123);
  if (small) memset(small, 0x55, 100);
  CHECK(big && filled(big, 5 * MIB + 123, 0x7f) && small && filled(small, 100, 0x55));
  CHECK(filled(b[0], BLOCK, 0x10) && filled(b[N - 1], BLOCK, 0x10 + N - 1));
  tfcc_wmem_free(b[0]);
  tfcc_wmem_free(b[N - 1]);
  tfcc_wmem_free(big);
  tfcc_wmem_free(small);
  tfcc_wmem_free(NULL);
  uint8_t *again = tfcc_wmem_alloc(0);
  CHECK(again != NULL && (uintptr_t)again % 64 == 0);
  tfcc_wmem_free(again);
  /* the end of a load: the unused tail of the huge page being cut from is given back, the
   * blocks in it stay, and later blocks are cut from it again */
  uint8_t *x = tfcc_wmem_alloc(100000);
  CHECK(x != NULL);
  if (x) {
    memset(x, 0x33, 100000);
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    const uintptr_t from = ((uintptr_t)x + 100000 + pg - 1) & ~(uintptr_t)(pg - 1);
    const uintptr_t to = ((uintptr_t)x + HP) & ~(HP - 1);
    tfcc_wmem_trim(NULL);
    unsigned char v[512];
    size_t res = 0;
    if (to - from >= ((size_t)256 << 10) && mincore((void *)from, to - from, v) == 0)
      for (size_t i = 0; i < (to - from) / pg && i < sizeof v; i++) res += v[i] & 1;
    CHECK(res == 0);
    CHECK(filled(x, 100000, 0x33));
    uint8_t *y = tfcc_wmem_alloc(5000);
    CHECK(y != NULL);
    if (y) {
      memset(y, 0x44, 5000);
      CHECK(filled(y, 5000, 0x44) && filled(x, 100000, 0x33));
    }
    tfcc_wmem_free(y);
    tfcc_wmem_free(x);
  }
  spare_blocks();
  spare_rewholes_trimmed_page();
#endif
  return tfcc_test_finish("weights_mem");
}
