/* SHA-256 block functions (kernels/hash): every variant this CPU runs against FIPS 180-4's
 * example digests and against the portable C on random data of every length 0-300 and some
 * long ones, fed whole and in random pieces (the digest's buffering between calls). */
#include <stdlib.h>
#include <string.h>

#include "kernels/hash/sha256.h"
#include "kernel_variants.h"
#include "test_harness.h"

static void hex_of(tfcc_sha256_blocks_fn fn, const void *p, size_t n, char hex[65]) {
  uint8_t d[32];
  tfcc_sha256_with(fn, p, n, d);
  tfcc_sha256_hex(d, hex);
}

static void test_variant(const tfcc_sha256_kernel *k) {
  char hex[65];
  /* FIPS 180-4 examples (one block, two blocks) and the empty message */
  hex_of(k->fn, "abc", 3, hex);
  CHECKF(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
         "%s abc: %s", k->name, hex);
  static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  hex_of(k->fn, two, strlen(two), hex);
  CHECKF(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
         "%s 2 blocks: %s", k->name, hex);
  hex_of(k->fn, "", 0, hex);
  CHECKF(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
         "%s empty: %s", k->name, hex);
  /* against the portable C: every length 0-300, then long ones, from odd addresses */
  const size_t cap = 70000;
  uint8_t *buf = malloc(cap + 1);
  CHECK(buf != NULL);
  if (!buf) return;
  uint32_t s = 12345;
  for (size_t i = 0; i < cap + 1; i++) {
    s = s * 1664525u + 1013904223u;
    buf[i] = (uint8_t)(s >> 24);
  }
  static const size_t longs[] = {511, 512, 513, 4096, 65535, 65536, 69999};
  int bad = 0;
  for (size_t t = 0; t < 301 + sizeof longs / sizeof longs[0]; t++) {
    const size_t n = t < 301 ? t : longs[t - 301];
    uint8_t a[32], b[32];
    tfcc_sha256_with(tfcc_sha256_blocks_portable, buf + 1, n, a);
    tfcc_sha256_with(k->fn, buf + 1, n, b);
    bad += memcmp(a, b, 32) != 0;
    /* the same bytes in pieces of 1-130 bytes */
    tfcc_sha256_ctx c;
    tfcc_sha256_init_with(&c, k->fn);
    for (size_t off = 0; off < n;) {
      s = s * 1664525u + 1013904223u;
      size_t piece = 1 + (s >> 24) % 130;
      if (piece > n - off) piece = n - off;
      tfcc_sha256_update(&c, buf + 1 + off, piece);
      off += piece;
    }
    tfcc_sha256_final(&c, b);
    bad += memcmp(a, b, 32) != 0;
  }
  CHECKF(bad == 0, "%s: %d digests differ from the portable C", k->name, bad);
  free(buf);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  int ran = 0;
  TFCC_EACH_VARIANT_IF(
      tfcc_sha256, k, best,
      tfcc_isa_level_fits(k->isa, best) &&
          (k->feature < 0 || tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature))) {
    printf("%s: tested\n", k->name);
    test_variant(k);
    ran++;
  }
  CHECK(ran >= 1);
  /* what the runtime uses is one of them */
  const tfcc_sha256_kernel *chosen = tfcc_sha256_select(best);
  printf("chosen: %s\n", chosen->name);
  uint8_t a[32], b[32];
  tfcc_sha256_fast("abc", 3, a);
  tfcc_sha256("abc", 3, b);
  CHECK(memcmp(a, b, 32) == 0);
  return tfcc_test_finish("sha256");
}
