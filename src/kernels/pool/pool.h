/* Fast 2-D pooling (MAX_POOL_2D, AVERAGE_POOL_2D) of NHWC float32 / uint8 / int8 / int16 tensors,
 * vectorised over channels, one file per ISA variant behind a dispatch table. Results are
 * bit-identical to the reference kernels (kernels/ref/pool.c): the window is clipped to the
 * image; taps are visited in the same order (row by row), so float sums are the same; max
 * keeps the reference's `v > m ? v : m` from the lowest value (a NaN input is skipped); the
 * quantized average rounds half away from zero, computed as trunc((acc +- n/2) / n) in float,
 * which is exact while |acc| + n/2 < 2^24 (tfcc_pool_fast_ok limits the window to 65535
 * taps, 511 for int16). L2 pooling stays on the reference kernel. */
#ifndef TFCC_KERNELS_POOL_POOL_H
#define TFCC_KERNELS_POOL_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

typedef struct tfcc_pool_job {
  const tfcc_conv_geom *g; /* in_c == out_c; dilation unused */
  bool is_avg;             /* else max */
  tfcc_dtype dt;           /* float32, uint8, int8, int16 */
  const void *in;
  void *out;
  float flo, fhi;   /* float32: activation range */
  int32_t qlo, qhi; /* uint8/int8/int16: quantized activation range */
} tfcc_pool_job;

/* Output rows [row0, row1) with row = batch * out_h + oy. */
typedef void (*tfcc_pool_fn)(const tfcc_pool_job *j, int32_t row0, int32_t row1);

typedef struct tfcc_pool_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_pool_fn fn;
} tfcc_pool_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_pool, tfcc_pool_kernel);
bool tfcc_pool_usable(const tfcc_pool_kernel *k, tfcc_isa isa);

/* Whether the fast kernels take this pooling (else use the reference kernel). */
bool tfcc_pool_fast_ok(const tfcc_conv_geom *g, bool is_avg, tfcc_dtype dt);

struct tfcc_threadpool;
/* Runs the job, output rows split over the pool when the layer is large enough. */
void tfcc_pool_run(struct tfcc_threadpool *pool, const tfcc_pool_kernel *k, const tfcc_pool_job *j);

#define TFCC_POOL_DECL(name) void name(const tfcc_pool_job *j, int32_t row0, int32_t row1)
TFCC_POOL_DECL(tfcc_pool_avx512);
TFCC_POOL_DECL(tfcc_pool_avx2);
TFCC_POOL_DECL(tfcc_pool_sse4);
TFCC_POOL_DECL(tfcc_pool_neon);
TFCC_POOL_DECL(tfcc_pool_wasmsimd);
TFCC_POOL_DECL(tfcc_pool_scalar);

#endif
