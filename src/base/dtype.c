#include "tfcc/tfcc.h"

static const struct {
  const char *name;
  size_t size;
} k_dtypes[TFCC_DTYPE_COUNT_] = {
    [TFCC_FLOAT32] = {"float32", 4},
    [TFCC_FLOAT16] = {"float16", 2},
    [TFCC_INT32] = {"int32", 4},
    [TFCC_UINT8] = {"uint8", 1},
    [TFCC_INT64] = {"int64", 8},
    [TFCC_STRING] = {"string", 0},
    [TFCC_BOOL] = {"bool", 1},
    [TFCC_INT16] = {"int16", 2},
    [TFCC_COMPLEX64] = {"complex64", 8},
    [TFCC_INT8] = {"int8", 1},
    [TFCC_FLOAT64] = {"float64", 8},
    [TFCC_COMPLEX128] = {"complex128", 16},
    [TFCC_UINT64] = {"uint64", 8},
    [TFCC_RESOURCE] = {"resource", 0},
    [TFCC_VARIANT] = {"variant", 0},
    [TFCC_UINT32] = {"uint32", 4},
    [TFCC_UINT16] = {"uint16", 2},
    [TFCC_INT4] = {"int4", 1},
    [TFCC_BFLOAT16] = {"bfloat16", 2},
    [TFCC_INT2] = {"int2", 1},
    [TFCC_UINT4] = {"uint4", 1},
    [TFCC_FLOAT8_E4M3FN] = {"float8_e4m3fn", 1},
    [TFCC_FLOAT8_E5M2] = {"float8_e5m2", 1},
};

const char *tfcc_dtype_name(tfcc_dtype t) {
  if ((unsigned)t >= TFCC_DTYPE_COUNT_) return "unknown";
  return k_dtypes[t].name;
}

size_t tfcc_dtype_size(tfcc_dtype t) {
  if ((unsigned)t >= TFCC_DTYPE_COUNT_) return 0;
  return k_dtypes[t].size;
}

const char *tfcc_version(void) { return "0.1.0"; }
