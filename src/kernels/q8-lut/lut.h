/* 256-entry byte table lookup out[i] = table[in[i]] for the 8-bit unary operators whose result
 * depends on the input byte alone (LOGISTIC, TANH, HARD_SWISH, RELU family, LEAKY_RELU on
 * int8/uint8): the operator fills the table once per model by running its reference kernel
 * on all 256 values, so the result is exact by construction. One file per ISA variant behind a
 * dispatch table; the vector variants look up 16 table rows with byte shuffles (PSHUFB) on
 * XOR-telescoped rows, in two halves selected by the index's top bit. */
#ifndef TFCC_KERNELS_Q8_LUT_LUT_H
#define TFCC_KERNELS_Q8_LUT_LUT_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

typedef void (*tfcc_q8_lut_fn)(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);

typedef struct tfcc_q8_lut_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q8_lut_fn fn;
} tfcc_q8_lut_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q8_lut, tfcc_q8_lut_kernel);

struct tfcc_threadpool;
/* n elements, split over pool for large tensors; out may equal in. */
void tfcc_q8_lut_run(struct tfcc_threadpool *pool, const tfcc_q8_lut_kernel *k,
                     const uint8_t table[256], const void *in, void *out, size_t n);

#define TFCC_Q8_LUT_DECL(name) \
  void name(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n)
TFCC_Q8_LUT_DECL(tfcc_q8_lut_avx512);
TFCC_Q8_LUT_DECL(tfcc_q8_lut_avx2);
TFCC_Q8_LUT_DECL(tfcc_q8_lut_neon);
TFCC_Q8_LUT_DECL(tfcc_q8_lut_scalar);

#endif
