/* Reads NumPy .npy files for tests; the contract is in npy_load.h. */
#include "npy_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"

static int descr_dtype(const char *d, tfcc_dtype *t) {
  static const struct {
    const char *s;
    tfcc_dtype t;
  } map[] = {{"<f4", TFCC_FLOAT32}, {"<f2", TFCC_FLOAT16}, {"<i4", TFCC_INT32},
             {"|u1", TFCC_UINT8},   {"<i8", TFCC_INT64},   {"|b1", TFCC_BOOL},
             {"<i2", TFCC_INT16},   {"|i1", TFCC_INT8},    {"<f8", TFCC_FLOAT64},
             {"<u2", TFCC_UINT16},  {"<u4", TFCC_UINT32},  {"<u8", TFCC_UINT64}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strncmp(d, map[i].s, 3) == 0) {
      *t = map[i].t;
      return 0;
    }
  return -1;
}

int test_npy_load(const char *path, test_npy *out) {
  memset(out, 0, sizeof *out);
  size_t size = 0;
  uint8_t *f = tfcc_test_read_file(path, &size);
  if (!f) {
    fprintf(stderr, "%s: cannot read\n", path);
    return -1;
  }
  if (size < 10 || memcmp(f, "\x93NUMPY", 6) != 0) goto bad;
  size_t hlen, hoff;
  if (f[6] == 1) {
    hlen = (size_t)f[8] | (size_t)f[9] << 8;
    hoff = 10;
  } else {
    if (size < 12) goto bad;
    hlen = (size_t)f[8] | (size_t)f[9] << 8 | (size_t)f[10] << 16 | (size_t)f[11] << 24;
    hoff = 12;
  }
  if (hoff + hlen > size) goto bad;
  char *h = malloc(hlen + 1);
  if (!h) goto bad;
  memcpy(h, f + hoff, hlen);
  h[hlen] = 0;
  char *d = strstr(h, "'descr':"), *fo = strstr(h, "'fortran_order':"), *sh = strstr(h, "'shape':");
  if (!d || !fo || !sh || strstr(fo, "True") == fo + 17) {
    free(h);
    goto bad;
  }
  d = strchr(d + 8, '\'');
  if (!d || descr_dtype(d + 1, &out->dtype) != 0) {
    free(h);
    goto bad;
  }
  sh = strchr(sh, '(');
  if (!sh) {
    free(h);
    goto bad;
  }
  sh++;
  while (*sh && *sh != ')') {
    while (*sh == ' ' || *sh == ',') sh++;
    if (*sh == ')') break;
    if (out->rank >= TFCC_MAX_DIMS) {
      free(h);
      goto bad;
    }
    out->dims[out->rank++] = (int32_t)strtol(sh, &sh, 10);
  }
  free(h);
  size_t n = 1;
  for (int32_t i = 0; i < out->rank; i++) n *= (size_t)out->dims[i];
  out->bytes = n * tfcc_dtype_size(out->dtype);
  if (hoff + hlen + out->bytes > size) goto bad;
  out->data = malloc(out->bytes ? out->bytes : 1);
  if (!out->data) goto bad;
  memcpy(out->data, f + hoff + hlen, out->bytes);
  free(f);
  return 0;
bad:
  fprintf(stderr, "%s: not a supported .npy file\n", path);
  free(f);
  return -1;
}

void test_npy_free(test_npy *a) {
  free(a->data);
  a->data = NULL;
}
