/* Float32 FULLY_CONNECTED in the order of TensorFlow Lite's builtin kernel through Eigen's GEBP
 * (kernels/ref/fully_connected.h, tfcc_fc_f32_eigen: what LiteRT runs for run-time weights in
 * hybrid models), vectorised across output units: each lane is one unit and forms its sum in
 * exactly the reference's order (4-batch groups keep an even-k and an odd-k sum over the depth
 * block rounded down to 8, add them, then the rest in order; other batches in order; depth
 * blocks of tfcc_fc_eigen_kc joined left to right; then + bias, clamp), so every variant gives
 * the reference's bits. One body (fc_eigen_body.h) over the f32v primitives, built per ISA. */
#ifndef TFCC_KERNELS_HYBRID_FC_EIGEN_H
#define TFCC_KERNELS_HYBRID_FC_EIGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/dispatch_table.h"
#include "kernels/ref/fully_connected.h"

/* The widest variant's lanes: the scratch holds one panel of this many units over the depth. */
#define TFCC_FC_EIGEN_MAX_LANES 16

/* Scratch bytes of one call for depth `accum` (the weights of one panel of units, transposed);
 * tfcc_fc_eigen_run needs this per thread. */
static inline size_t tfcc_fc_eigen_scratch_bytes(int32_t accum) {
  return accum > 0 ? (size_t)accum * TFCC_FC_EIGEN_MAX_LANES * sizeof(float) : 0;
}

/* out[b][u] = act(sum_k in[b][k] * w[u][k] + bias[u]) for the units [u_begin, u_end) of every
 * batch (weights [units, accum] row-major, bias may be NULL). gemv: in the order of
 * Eigen's matrix-vector product (tfcc_fc_f32_eigen_gemv: every batch one sum over the whole
 * depth in order, no 4-batch groups, no depth blocks), else GEBP's (tfcc_fc_f32_eigen); scratch:
 * tfcc_fc_eigen_scratch_bytes(d->accum) bytes, float-aligned. A unit's result does not depend
 * on the range it is computed in. wp: w packed once by tfcc_fc_eigen_pack (exact11; read where
 * u_begin is a multiple of TFCC_FC_EIGEN_MAX_LANES, scratch then unused), or NULL: each panel
 * transposed into scratch per call. The same bits either way. */
typedef void (*tfcc_fc_eigen_fn)(const tfcc_fc_dims *d, bool gemv, const float *in, const float *w,
                                 const float *wp, const float *bias, float act_min, float act_max,
                                 float *out, float *scratch, int32_t u_begin, int32_t u_end);

/* Constant weights w [units][accum] as panels of TFCC_FC_EIGEN_MAX_LANES units, [accum][lanes]
 * each, zero past the last unit (every variant reads its lanes of a panel's row): the floats
 * (0: units <= 0 or accum <= 0) and the fill. */
size_t tfcc_fc_eigen_packed_floats(int32_t units, int32_t accum);
void tfcc_fc_eigen_pack(const float *w, int32_t units, int32_t accum, float *wp);

typedef struct tfcc_fc_eigen_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_fc_eigen_fn fn;
} tfcc_fc_eigen_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_fc_eigen, tfcc_fc_eigen_kernel);

#define TFCC_FC_EIGEN_DECL(name) \
  void name(const tfcc_fc_dims *d, bool gemv, const float *in, const float *w, const float *wp, \
            const float *bias, float act_min, float act_max, float *out, float *scratch, \
            int32_t u_begin, int32_t u_end)
TFCC_FC_EIGEN_DECL(tfcc_fc_eigen_avx512);
TFCC_FC_EIGEN_DECL(tfcc_fc_eigen_avx2);
TFCC_FC_EIGEN_DECL(tfcc_fc_eigen_sse4);
TFCC_FC_EIGEN_DECL(tfcc_fc_eigen_neon);
TFCC_FC_EIGEN_DECL(tfcc_fc_eigen_wasmsimd);
TFCC_FC_EIGEN_DECL(tfcc_fc_eigen_scalar);

struct tfcc_threadpool;
/* The whole layer on the pool: pieces of whole 16-unit panels, one per thread at most, each
 * thread its own scratch (scratch: tfcc_threadpool_size(pool) x
 * tfcc_fc_eigen_scratch_bytes(d->accum) bytes); small layers inline. */
void tfcc_fc_eigen_run(struct tfcc_threadpool *pool, const tfcc_fc_eigen_kernel *k,
                       const tfcc_fc_dims *d, bool gemv, const float *in, const float *w,
                       const float *wp, const float *bias, float act_min, float act_max, float *out,
                       float *scratch);

#endif
