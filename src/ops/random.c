/* RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL (TFLite random_ops.cc): TFLite's Philox
 * generator (kernels/ref/philox.h) seeded with RandomOptions (seed, seed2), each cut to its low
 * 32 bits and sign-extended as TFLite's int params do, so that equal seeds give TFLite's numbers;
 * both 0 pick a nondeterministic seed, as TFLite. The generator is
 * per-session operator state: seeded at the first run after the session's plan is built
 * (creation, resize_input: TFLite re-seeds in Prepare) and continued by every later run.
 * RANDOM_*: input shape (int32 1-D; known at prepare or the output is dynamic), float32 output
 * uniform in [0, 1) or standard normal. MULTINOMIAL: inputs logits float32 [batch, classes > 0],
 * num_samples int32 scalar >= 0; output int32 or int64 [batch, num_samples] of class indices
 * drawn from softmax(logits) (non-finite logits never drawn). */
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "kernels/ref/philox.h"
#include "ops/shape_ops_util.h"

typedef struct random_state {
  tfcc_philox rng;
  int seeded;
} random_state;

static int64_t sext32(int64_t v) {
  const uint32_t lo = (uint32_t)(uint64_t)v;
  return lo >= 0x80000000u ? (int64_t)lo - (INT64_C(1) << 32) : (int64_t)lo;
}

static tfcc_philox *generator(tfcc_op_ctx *ctx) {
  random_state *s = ctx->state;
  if (!s->seeded) {
    /* TFLite keeps the seeds in ints (TfLiteRandomParams): the low 32 bits, sign-extended */
    uint64_t a = (uint64_t)sext32(ctx->node->opts.random.seed),
             b = (uint64_t)sext32(ctx->node->opts.random.seed2);
    if (a == 0 && b == 0) { /* nondeterministic, as TFLite's std::random_device seeding */
      static _Atomic uint64_t calls;
      a = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)s ^
          atomic_fetch_add(&calls, 1);
      b = (uint64_t)clock() * 0xBF58476D1CE4E5B9u ^ (a >> 29);
    }
    tfcc_philox_init(&s->rng, a, b);
    s->seeded = 1;
  }
  return &s->rng;
}

static tfcc_status random_prepare(tfcc_op_ctx *ctx, const char *op) {
  tfcc_tensor *shape;
  tfcc_status st = tfcc_so_open(ctx, op, 1, 1, 1, &shape);
  if (st) return st;
  TFCC_OP_CHECK(ctx, shape->dtype == TFCC_INT32 && shape->rank == 1, TFCC_ERR_SHAPE,
                "%s: shape must be int32 1-D (%s rank %d)", op, tfcc_dtype_name(shape->dtype),
                (int)shape->rank);
  TFCC_OP_CHECK(ctx, ctx->out[0]->dtype == TFCC_FLOAT32, TFCC_ERR_UNSUPPORTED,
                "%s: output dtype %s (float32 only, as TFLite)", op,
                tfcc_dtype_name(ctx->out[0]->dtype));
  int64_t dims[TFCC_MAX_RANK], n;
  if ((st = tfcc_so_read_ints(ctx, op, "shape (input 0)", shape, dims, TFCC_MAX_RANK, &n)))
    return st;
  return tfcc_so_set_shape(ctx, op, ctx->out[0], (int32_t)n, dims);
}

static tfcc_status uniform_prepare(tfcc_op_ctx *ctx) {
  return random_prepare(ctx, "RANDOM_UNIFORM");
}
static tfcc_status normal_prepare(tfcc_op_ctx *ctx) {
  return random_prepare(ctx, "RANDOM_STANDARD_NORMAL");
}

static tfcc_status uniform_eval(tfcc_op_ctx *ctx) {
  tfcc_ref_random_uniform_f32(generator(ctx), ctx->out[0]->data, tfcc_tensor_elements(ctx->out[0]));
  return TFCC_OK;
}

static tfcc_status normal_eval(tfcc_op_ctx *ctx) {
  tfcc_ref_random_normal_f32(generator(ctx), ctx->out[0]->data, tfcc_tensor_elements(ctx->out[0]));
  return TFCC_OK;
}

#define MN "MULTINOMIAL"

static tfcc_status multinomial_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *logits, *num;
  tfcc_status st = tfcc_so_open(ctx, MN, 2, 2, 1, &logits);
  if (st || (st = tfcc_so_input(ctx, 1, MN, &num))) return st;
  TFCC_OP_CHECK(ctx, logits->dtype == TFCC_FLOAT32 && logits->rank == 2, TFCC_ERR_SHAPE,
                MN ": logits must be float32 [batch, classes] (%s rank %d)",
                tfcc_dtype_name(logits->dtype), (int)logits->rank);
  TFCC_OP_CHECK(ctx, logits->dims[1] > 0, TFCC_ERR_SHAPE, MN ": logits have no classes");
  TFCC_OP_CHECK(ctx, num->dtype == TFCC_INT32 && num->rank == 0, TFCC_ERR_SHAPE,
                MN ": num_samples must be an int32 scalar (%s rank %d)",
                tfcc_dtype_name(num->dtype), (int)num->rank);
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, out->dtype == TFCC_INT32 || out->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                MN ": output dtype %s, expected int32 or int64", tfcc_dtype_name(out->dtype));
  if (!num->known || !num->data)
    return TFCC_OP_NEEDS_DATA(ctx, num, MN ": the output size depends on num_samples (tensor %d)",
                              (int)num->index);
  const int32_t s = *(const int32_t *)num->data;
  TFCC_OP_CHECK(ctx, s >= 0, TFCC_ERR_INVALID_ARG, MN ": num_samples %d is negative", (int)s);
  ctx->scratch_bytes = sizeof(double) * (size_t)logits->dims[1];
  const int32_t dims[2] = {logits->dims[0], s};
  return tfcc_tensor_set_shape(out, 2, dims, ctx->err);
}

static tfcc_status multinomial_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *logits = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  tfcc_ref_multinomial(generator(ctx), logits->data, logits->dims[0], logits->dims[1], out->dims[1],
                       out->data, out->dtype == TFCC_INT64 ? 8 : 4, ctx->scratch);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_random_uniform = {.name = "RANDOM_UNIFORM",
                                            .prepare = uniform_prepare,
                                            .eval = uniform_eval,
                                            .state_bytes = sizeof(random_state)};
const tfcc_op_def tfcc_op_random_standard_normal = {.name = "RANDOM_STANDARD_NORMAL",
                                                    .prepare = normal_prepare,
                                                    .eval = normal_eval,
                                                    .state_bytes = sizeof(random_state)};
const tfcc_op_def tfcc_op_multinomial = {.name = MN,
                                         .prepare = multinomial_prepare,
                                         .eval = multinomial_eval,
                                         .state_bytes = sizeof(random_state)};
