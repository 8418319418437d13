/* STABLEHLO_RNG_BIT_GENERATOR (TFLite stablehlo_rng_bit_generator.cc, StableHLO spec
 * "rng_bit_generator"): input 0 the initial state (uint64, rank 1: [2] for THREEFRY, [2] or [3]
 * for PHILOX and DEFAULT, which is Philox as in TFLite); output 0 the new state (uint64, the
 * input's shape), output 1 the random bits (int32, uint32, int64 or uint64, the shape stored in
 * the model). StablehloRngBitGeneratorOptions.algorithm picks the generator. The bits fill the
 * output's bytes as 32-bit words (kernels/ref/rng_bits.h). */
#include "kernels/ref/rng_bits.h"
#include "ops/shape_ops_util.h"

#define OP "STABLEHLO_RNG_BIT_GENERATOR"

static tfcc_status rng_bits_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st;
  tfcc_tensor *state;
  if ((st = tfcc_so_open(ctx, OP, 1, 1, 2, &state))) return st;
  TFCC_OP_CHECK(ctx, state->dtype == TFCC_UINT64, TFCC_ERR_DTYPE,
                OP ": input 0 (initial_state) dtype %s, expected uint64",
                tfcc_dtype_name(state->dtype));
  TFCC_OP_CHECK(ctx, state->rank == 1, TFCC_ERR_SHAPE,
                OP ": input 0 (initial_state) must have rank 1 (it has %d)", (int)state->rank);
  const int32_t alg = ctx->node->opts.rng_bits.algorithm;
  TFCC_OP_CHECK(ctx, alg >= TFCC_RNG_DEFAULT && alg <= TFCC_RNG_THREEFRY, TFCC_ERR_INVALID_MODEL,
                OP ": algorithm %d is not DEFAULT (0), PHILOX (1) or THREEFRY (2)", (int)alg);
  const int32_t n = state->dims[0];
  if (alg == TFCC_RNG_THREEFRY)
    TFCC_OP_CHECK(ctx, n == 2, TFCC_ERR_SHAPE,
                  OP ": THREEFRY takes a uint64[2] state (input 0 has %d words)", (int)n);
  else
    TFCC_OP_CHECK(ctx, n == 2 || n == 3, TFCC_ERR_SHAPE,
                  OP ": %s takes a uint64[2] or uint64[3] state (input 0 has %d words)",
                  alg == TFCC_RNG_PHILOX ? "PHILOX" : "DEFAULT (Philox)", (int)n);
  tfcc_tensor *key = ctx->out[0], *bits = ctx->out[1];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, key, TFCC_UINT64))) return st;
  TFCC_OP_CHECK(ctx,
                bits->dtype == TFCC_INT32 || bits->dtype == TFCC_UINT32 ||
                    bits->dtype == TFCC_INT64 || bits->dtype == TFCC_UINT64,
                TFCC_ERR_DTYPE, OP ": output 1 dtype %s, expected int32, uint32, int64 or uint64",
                tfcc_dtype_name(bits->dtype));
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t k = 0; k < bits->rank; k++) {
    TFCC_OP_CHECK(ctx, bits->dims[k] >= 0, TFCC_ERR_SHAPE,
                  OP ": output 1 dimension %d is %d (a static shape is needed)", (int)k,
                  (int)bits->dims[k]);
    dims[k] = bits->dims[k];
  }
  if ((st = tfcc_so_set_shape(ctx, OP, bits, bits->rank, dims))) return st;
  int64_t kd = n;
  return tfcc_so_set_shape(ctx, OP, key, 1, &kd);
}

static tfcc_status rng_bits_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *state = ctx->in[0];
  tfcc_tensor *bits = ctx->out[1];
  tfcc_ref_rng_bits(ctx->node->opts.rng_bits.algorithm, state->data, state->dims[0],
                    ctx->out[0]->data, bits->data, (int64_t)(bits->bytes / sizeof(uint32_t)));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_stablehlo_rng_bit_generator = {
    .name = OP, .prepare = rng_bits_prepare, .eval = rng_bits_eval};
