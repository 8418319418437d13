/* Resource variables (TensorFlow Lite's var_handle.cc, read_variable.cc, assign_variable.cc):
 * VAR_HANDLE gives the resource id of its (container, shared_name), numbered at load; the
 * variables themselves are session state (run_state.h) that lives across runs and subgraphs,
 * until tfcc_session_reset_state. A variable takes the dtype and shape of its first
 * assignment; a later assignment of another dtype or shape is an error. */
#include <stdlib.h>
#include <string.h>

#include "ops/op.h"
#include "runtime/run_state.h"

static tfcc_status var_handle_prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 0 && ctx->n_out == 1, TFCC_ERR_INVALID_MODEL,
                "VAR_HANDLE: takes no input and gives one output");
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, o->dtype == TFCC_RESOURCE || o->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                "VAR_HANDLE: output is %s, must be a resource", tfcc_dtype_name(o->dtype));
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(o) == 1, TFCC_ERR_SHAPE,
                "VAR_HANDLE: output must hold one handle");
  return TFCC_OK;
}

static tfcc_status var_handle_eval(tfcc_op_ctx *ctx) {
  *(int32_t *)ctx->out[0]->data = ctx->node->opts.var_handle.resource_id;
  return TFCC_OK;
}

/* The variable a resource tensor names. */
static tfcc_status var_of(tfcc_op_ctx *ctx, const char *op, tfcc_resource_var **v, int32_t *id) {
  const tfcc_tensor *h = ctx->in[0];
  TFCC_OP_CHECK(ctx, ctx->rs, TFCC_ERR_UNSUPPORTED, "%s: resource variables need a session", op);
  TFCC_OP_CHECK(
      ctx,
      h && (h->dtype == TFCC_RESOURCE || h->dtype == TFCC_INT32) && tfcc_tensor_elements(h) == 1,
      TFCC_ERR_INVALID_MODEL, "%s: input 0 must be one resource handle", op);
  *id = *(const int32_t *)h->data;
  TFCC_OP_CHECK(ctx, *id >= 0 && *id < ctx->rs->n_vars, TFCC_ERR_RUNTIME,
                "%s: resource id %d is not a variable of this model (%d variables)", op, (int)*id,
                (int)ctx->rs->n_vars);
  *v = &ctx->rs->vars[*id];
  return TFCC_OK;
}

static tfcc_status read_variable_prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 1 && ctx->n_out == 1 && ctx->in[0], TFCC_ERR_INVALID_MODEL,
                "READ_VARIABLE: takes one resource handle and gives one output");
  /* The output keeps the shape the model file gives it; eval checks the variable has it. */
  return TFCC_OK;
}

static tfcc_status read_variable_eval(tfcc_op_ctx *ctx) {
  tfcc_resource_var *v = NULL;
  int32_t id = 0;
  tfcc_status st = var_of(ctx, "READ_VARIABLE", &v, &id);
  if (st != TFCC_OK) return st;
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, v->set, TFCC_ERR_STATE,
                "READ_VARIABLE: variable %d (%.*s) is read before it is assigned", (int)id,
                (int)v->name_len, v->name);
  if (v->dtype != o->dtype || v->rank != o->rank ||
      memcmp(v->dims, o->dims, sizeof(int32_t) * (size_t)o->rank) != 0) {
    char a[96], b[96];
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "READ_VARIABLE: variable %d (%.*s) holds %s %s, the output is %s %s",
                        (int)id, (int)v->name_len, v->name, tfcc_dtype_name(v->dtype),
                        tfcc_shape_str(v->rank, v->dims, a, sizeof a), tfcc_dtype_name(o->dtype),
                        tfcc_shape_str(o->rank, o->dims, b, sizeof b));
  }
  if (v->bytes) memcpy(o->data, v->mem, v->bytes);
  return TFCC_OK;
}

static tfcc_status assign_variable_prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 2 && ctx->n_out == 0 && ctx->in[0] && ctx->in[1],
                TFCC_ERR_INVALID_MODEL,
                "ASSIGN_VARIABLE: takes a resource handle and a value, gives nothing");
  return TFCC_OK;
}

static tfcc_status assign_variable_eval(tfcc_op_ctx *ctx) {
  tfcc_resource_var *v = NULL;
  int32_t id = 0;
  tfcc_status st = var_of(ctx, "ASSIGN_VARIABLE", &v, &id);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *x = ctx->in[1];
  if (!v->set) { /* the first assignment fixes dtype and shape (and allocates, once) */
    if (!v->mem || v->cap < x->bytes) {
      size_t want = (x->bytes + 63) & ~(size_t)63;
      void *m = aligned_alloc(64, want ? want : 64);
      TFCC_OP_CHECK(ctx, m, TFCC_ERR_NO_MEMORY,
                    "ASSIGN_VARIABLE: out of memory for variable %d (%zu bytes)", (int)id,
                    x->bytes);
      free(v->mem);
      v->mem = m;
      v->cap = want ? want : 64;
    }
    v->dtype = x->dtype;
    v->rank = x->rank;
    memcpy(v->dims, x->dims, sizeof v->dims);
    v->bytes = x->bytes;
    v->set = true;
  } else if (v->dtype != x->dtype || v->rank != x->rank ||
             memcmp(v->dims, x->dims, sizeof(int32_t) * (size_t)x->rank) != 0) {
    char a[96], b[96];
    return tfcc_err_set(
        ctx->err, TFCC_ERR_SHAPE,
        "ASSIGN_VARIABLE: variable %d (%.*s) holds %s %s, the value assigned is %s %s", (int)id,
        (int)v->name_len, v->name, tfcc_dtype_name(v->dtype),
        tfcc_shape_str(v->rank, v->dims, a, sizeof a), tfcc_dtype_name(x->dtype),
        tfcc_shape_str(x->rank, x->dims, b, sizeof b));
  }
  if (x->bytes) memmove(v->mem, x->data, x->bytes);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_var_handle = {
    .name = "VAR_HANDLE", .prepare = var_handle_prepare, .eval = var_handle_eval};
const tfcc_op_def tfcc_op_read_variable = {.name = "READ_VARIABLE",
                                           .prepare = read_variable_prepare,
                                           .eval = read_variable_eval,
                                           .stateful = true};
const tfcc_op_def tfcc_op_assign_variable = {.name = "ASSIGN_VARIABLE",
                                             .prepare = assign_variable_prepare,
                                             .eval = assign_variable_eval,
                                             .stateful = true};
