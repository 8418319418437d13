/* Reads a NumPy .npy file (little-endian, C order) for tests. */
#ifndef TFCC_TEST_NPY_LOAD_H
#define TFCC_TEST_NPY_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

typedef struct test_npy {
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_DIMS];
  void *data; /* malloc'ed */
  size_t bytes;
} test_npy;

/* 0 on success; on failure prints why and returns -1. */
int test_npy_load(const char *path, test_npy *out);
void test_npy_free(test_npy *a);

#endif
