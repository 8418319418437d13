/* The operator contract.
 *
 * Each operator lives in one file src/ops/<name>.c that defines one
 *     TFCC_OP_DEFINE(tfcc_op_<name>, "NAME", init, prepare, eval, ...);   (below)
 * (or writes the const tfcc_op_def tfcc_op_<name> out, where a macro makes its tables)
 * listed in src/ops/op_list.h. Its three steps:
 *   init     once per model: read the node's options and constant inputs, compute what does
 *            not depend on input shapes (fixed-point multipliers, prepacked weights) into
 *            *params. Optional.
 *   prepare  per session, each time input shapes change: check dtypes and shapes, set the
 *            output shapes, ask for scratch bytes. No data of non-constant inputs is read,
 *            except where tensor->known says the data is available (constant or folded).
 *   eval     compute. No allocation, no I/O, no logging. May return an error for
 *            data-dependent faults (e.g. an index out of range), as TFLite does.
 * Kernels proper (src/kernels/) see pointers, shapes and parameters only.
 *
 * Options: an operator reads its options from the node's typed struct, never from the model
 * file: ctx->node->opts.<kind> (ir/op_options.h), e.g. ctx->node->opts.conv.stride_w,
 * ctx->node->opts.reshape.new_shape. The TFLite reader (src/format/tflite_options.c) fills it
 * at load, verified and with the schema's defaults; graph passes may edit it (a fused
 * activation, an explicit padding). An operator file includes nothing from src/format and
 * calls no tfcc_fb_* function. A new options kind: see docs/format.md, "Operator options". */
#ifndef TFCC_OPS_OP_H
#define TFCC_OPS_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/run_budget.h"
#include "ir/ir.h"
#include "kernels/kernel_set.h"
#include "ops/packed_store.h"

/* tfcc_init_ctx.winograd (the value is the weights cache identity's "w" field). */
enum { TFCC_WINO_OFF = 0, TFCC_WINO_STORED = 1, TFCC_WINO_OTF = 2 };

/* A tensor as operators see it during prepare and eval. */
typedef struct tfcc_tensor {
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_RANK];
  void *data;              /* eval: valid; prepare: valid only if known */
  size_t bytes;            /* elements x dtype size (set by the session from dims) */
  const tfcc_quant *quant; /* never NULL (count 0 when not quantized) */
  bool is_const;           /* constant data from the model */
  bool known;              /* data available at prepare time (constant or folded) */
  bool is_variable;        /* stateful tensor (persistent across runs) */
  bool dynamic;            /* shape known only during run (depends on data known then): sized
                               by the session at run, outside the arena */
  int32_t index;           /* tensor index in the subgraph */
} tfcc_tensor;

typedef struct tfcc_init_ctx {
  const tfcc_graph *graph;
  const tfcc_ir_subgraph *sg;
  const tfcc_ir_node *node;
  int32_t node_index;
  void *params; /* out: operator parameters (malloc'ed; freed by op->release or free) */
  tfcc_err *err;
  tfcc_isa isa;                  /* kernel dispatch level for this model (CPU's best, capped) */
  const tfcc_kernel_set *ks;     /* the kernels chosen at that level (kernels/kernel_set.h) */
  const struct tfcc_logger *log; /* runtime's logger for init/prepare notes (may be NULL) */
  int quant_compat;              /* tfcc_quant_compat of the model (0 = TFLite as it runs by
                               default, i.e. XNNPACK arithmetic where it applies) */
  int precision;                 /* tfcc_precision of the model (float conv/FC: f32 or bf16) */
  /* float32 3x3 CONV_2D may use Winograd (model option disable_winograd / env TFCC_WINOGRAD):
   * TFCC_WINO_OFF, TFCC_WINO_STORED (transformed filter stored), TFCC_WINO_OTF (transformed
   * per panel from the GEMM's packing, on the fly) */
  int winograd;
  tfcc_packed_store *store; /* packed weight blocks of a weights cache, or NULL (packed_store.h) */
} tfcc_init_ctx;

/* The key of this node's packed block `block` (TFCC_BLOCK_*) in the init context's store. */
static inline tfcc_packed_key tfcc_init_block_key(const tfcc_init_ctx *ctx, uint32_t block) {
  tfcc_packed_key k = {ctx->store, ctx->node_index, block};
  return k;
}

/* Input / output i of the init context's node as the model declares it: its IR tensor, or NULL
 * when omitted (-1) or out of range. */
static inline const tfcc_ir_tensor *tfcc_init_ir_tensor(const tfcc_init_ctx *ctx,
                                                        const int32_t *ids, int32_t n, int32_t i) {
  if (!ctx->sg || i < 0 || i >= n) return NULL;
  const int32_t t = ids[i];
  return t >= 0 && t < ctx->sg->n_tensors ? &ctx->sg->tensors[t] : NULL;
}
static inline const tfcc_ir_tensor *tfcc_init_ir_input(const tfcc_init_ctx *ctx, int32_t i) {
  return ctx->node ? tfcc_init_ir_tensor(ctx, ctx->node->inputs, ctx->node->n_inputs, i) : NULL;
}
static inline const tfcc_ir_tensor *tfcc_init_ir_output(const tfcc_init_ctx *ctx, int32_t i) {
  return ctx->node ? tfcc_init_ir_tensor(ctx, ctx->node->outputs, ctx->node->n_outputs, i) : NULL;
}

typedef struct tfcc_op_ctx {
  const tfcc_ir_node *node;
  int32_t node_index;
  const void *params; /* from init (NULL if the op has no init) */
  tfcc_tensor **in;   /* in[i] is NULL for an omitted optional input */
  int32_t n_in;
  tfcc_tensor **out;
  int32_t n_out;
  tfcc_tensor **tmp; /* intermediates (e.g. LSTM), may be NULL */
  int32_t n_tmp;
  /* prepare: set scratch_bytes to the scratch this node needs during eval.
   * eval: scratch points to scratch_bytes of 64-byte aligned memory (contents undefined). */
  void *scratch;
  size_t scratch_bytes;
  struct tfcc_threadpool *pool; /* may be NULL: run single-threaded */
  tfcc_err *err;
  tfcc_isa isa; /* kernel dispatch level (CPU's best, capped by TFCC_ISA / options) */
  /* the kernels chosen once at that level: eval runs ctx->ks->f32_vbinary etc., never a
   * per-call lookup (kernels/kernel_set.h) */
  const tfcc_kernel_set *ks;
  const struct tfcc_logger *log; /* prepare only (e.g. KERNEL_FALLBACK); may be NULL */
  /* prepare: bit k set (TFCC_OP_NEEDS_DATA) when the output shapes depend on the data of input
   * k, which is not known yet. The session then prepares the node again during each run, with
   * those inputs' data available and marked known for prepare and eval (a dynamic node). */
  uint32_t needs_data;
  /* prepare during a run (run_time: a dynamic node prepared again in each run), for operators
   * that need working memory to find their output shapes from the data (UNIQUE counting the
   * distinct values): prepare_mem holds prepare_mem_bytes (64-byte aligned, may be NULL when 0),
   * the node's memory that the session keeps across runs and hands to eval as its scratch.
   * When it is too small, prepare sets scratch_bytes to what it needs and returns through
   * TFCC_OP_NEEDS_MEMORY; the session grows the memory and prepares again, so a run allocates
   * only when a larger size than before is needed, as dynamic tensors do. At load (run_time
   * false: the plan, constant folding) prepare may allocate what it frees before returning. */
  bool run_time;
  bool needs_memory; /* out: set by TFCC_OP_NEEDS_MEMORY */
  void *prepare_mem;
  size_t prepare_mem_bytes;
  /* The session's run state (runtime/run_state.h): resource variables, CALL_ONCE flags, the
   * run budget and what operators that run subgraphs need to plan them. NULL only in graph
   * passes (where no operator that reads it is ever folded). */
  struct tfcc_run_state *rs;
  /* The run's deadline and cancellation (base/run_budget.h), for operators whose own loops can
   * run long: check it with tfcc_run_budget_check between passes. NULL where no run is
   * (graph passes, constant folding at load). */
  tfcc_run_budget *budget;
  /* Per-plan operator state: op->state_bytes of memory zeroed when the session's plan is built
   * (session creation, resize_input) and kept across runs (RANDOM_*: TFLite's generator), or
   * set by prepare (operators that run subgraphs keep their subgraphs' plans here) and released
   * by the op's release_state when the plan is freed. */
  void *state;
} tfcc_op_ctx;

/* For the operators' macs and kernel probes (run on a prepared node, outside eval): a copy of
 * an op context whose errors go to its own holder, not to the session's message. */
typedef struct tfcc_op_quiet {
  tfcc_op_ctx ctx;
  tfcc_err err;
} tfcc_op_quiet;

/* Fills *q from ctx (its error cleared) and gives its context. */
static inline tfcc_op_ctx *tfcc_op_quiet_ctx(const tfcc_op_ctx *ctx, tfcc_op_quiet *q) {
  q->ctx = *ctx;
  q->err = (tfcc_err){0};
  q->ctx.err = &q->err;
  return &q->ctx;
}

/* The same into *c with its errors to *e; false when ctx has no params or lacks one of its
 * first n_in inputs (nothing to probe). */
static inline bool tfcc_op_probe_ctx(const tfcc_op_ctx *ctx, int32_t n_in, tfcc_err *e,
                                     tfcc_op_ctx *c) {
  if (!ctx->params || ctx->n_in < n_in) return false;
  for (int32_t i = 0; i < n_in; i++)
    if (!ctx->in[i]) return false;
  *c = *ctx;
  *e = (tfcc_err){0};
  c->err = e;
  return true;
}

typedef struct tfcc_op_def {
  const char *name;
  tfcc_status (*init)(tfcc_init_ctx *ctx); /* optional */
  void (*release)(void *params);           /* optional; default free(params) */
  tfcc_status (*prepare)(tfcc_op_ctx *ctx);
  tfcc_status (*eval)(tfcc_op_ctx *ctx);
  /* Optional: multiply-accumulates at the current shapes, for inspect/bench. */
  int64_t (*macs)(const tfcc_op_ctx *ctx);
  /* Optional: name of the kernel prepare chose ("f32-gemm-6x16-avx2"); default "ref". */
  const char *(*kernel)(const tfcc_op_ctx *ctx);
  /* The memory plan may give output 0 the buffer of an input of the same byte size whose last
   * use is this node (in-place): the kernel reads element i of every input before it writes
   * element i of the output, and nothing else. */
  bool inplace_ok;
  /* Output 0 is input 0's bytes unchanged (RESHAPE, SQUEEZE, EXPAND_DIMS): the memory plan
   * may make it a view of input 0 and skip the node at run. */
  bool output_is_view;
  /* prepare and eval read only the inputs' shapes, never their data (SHAPE): the session
   * computes the output at prepare time even when the inputs' data is not known. */
  bool reads_shapes_only;
  /* Bytes of per-session state (ctx->state); a node with state is never computed at prepare
   * time or folded at load (each run continues it). */
  size_t state_bytes;
  /* Reads or writes session state (resource variables) or runs subgraphs: never computed at
   * load or prepare time, even when all its inputs are known. */
  bool stateful;
  /* Releases ctx->state (optional). */
  void (*release_state)(void *state);
  /* Optional: bytes the operator holds itself for outputs it sizes in eval (custom operators'
   * tfcc_custom_output_resize buffers, kept in ctx->state); the session counts them with its
   * dynamic tensors (tfcc_exec_plan.dyn_bytes). Never decreases while the state lives. */
  size_t (*dynamic_bytes)(const tfcc_op_ctx *ctx);
} tfcc_op_def;

/* Defines an operator: `const tfcc_op_def sym` with its display name and its steps (init may be
 * NULL), then its other fields, if any, as designated initializers after eval:
 *     TFCC_OP_DEFINE(tfcc_op_moe, "moe", init, prepare, eval);
 *     TFCC_OP_DEFINE(tfcc_op_conv_2d, "CONV_2D", conv_init, conv_prepare, conv_eval,
 *                    .release = conv_release, .macs = conv_macs, .kernel = conv_kernel);
 * One line per operator file instead of the struct written out field by field (the same tail in
 * every file). eval opens the variable arguments, so that they are never empty (C11). */
#define TFCC_OP_DEFINE(sym, op_name, init_fn, prepare_fn, ...) \
  const tfcc_op_def sym = { \
      .name = (op_name), .init = (init_fn), .prepare = (prepare_fn), .eval = __VA_ARGS__}

/* Operator for a builtin code (NULL if tfcc has none). */
const tfcc_op_def *tfcc_op_lookup(int32_t builtin);
/* Operator for a custom operator's custom_code ("TFLite_Detection_PostProcess"), or NULL. */
const tfcc_op_def *tfcc_op_custom(const char *name);
/* Highest version of builtin `builtin` that its operator implements (1 when it implements only
 * the first). A model naming a newer version is refused at load. */
int32_t tfcc_op_max_version(int32_t builtin);
/* Operator for a tfcc-internal code (TFCC_OP_INTERNAL_FIRST_ and up, set by graph passes), or
 * NULL. Kept apart from tfcc_op_lookup so that a model file cannot name one. */
const tfcc_op_def *tfcc_op_internal(int32_t code);

/* For the callers of operators (executor, constant folder), in ops/op_tensor.c: computes
 * t->bytes from dtype and dims; error for dtypes without a fixed size (a resource handle counts
 * 4 bytes: the int32 resource id). */
tfcc_status tfcc_tensor_update_bytes(tfcc_tensor *t, tfcc_err *err);

/* Operator display name for messages ("CONV_2D", "CUSTOM:Foo"). */
const char *tfcc_node_op_name(const tfcc_ir_node *n);

/* Convenience for operator code. */
static inline int64_t tfcc_tensor_elements(const tfcc_tensor *t) {
  int64_t n = 1;
  for (int32_t i = 0; i < t->rank; i++) n *= t->dims[i];
  return n;
}

/* Sets out's shape (rank, dims). Returns TFCC_OK or a shape error if rank > TFCC_MAX_RANK. */
static inline tfcc_status tfcc_tensor_set_shape(tfcc_tensor *t, int32_t rank, const int32_t *dims,
                                                tfcc_err *err) {
  if (rank < 0 || rank > TFCC_MAX_RANK)
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "output rank %d exceeds %d", (int)rank, TFCC_MAX_RANK);
  t->rank = rank;
  for (int32_t i = 0; i < rank; i++) t->dims[i] = dims[i];
  return TFCC_OK;
}

/* Marks the input of ctx that is t as needed at prepare (see tfcc_op_ctx.needs_data). */
static inline void tfcc_op_mark_needs_data(tfcc_op_ctx *ctx, const tfcc_tensor *t) {
  for (int32_t k = 0; k < ctx->n_in && k < 32; k++)
    if (ctx->in[k] == t) ctx->needs_data |= 1u << k;
}

/* prepare: returns TFCC_ERR_UNSUPPORTED with the message, and asks the session for the data of
 * input tensor t (not known yet): the session defers this node to run time. A caller that
 * cannot defer reports the message. */
#define TFCC_OP_NEEDS_DATA(ctx, t, ...) \
  (tfcc_op_mark_needs_data((ctx), (t)), tfcc_err_set((ctx)->err, TFCC_ERR_UNSUPPORTED, __VA_ARGS__))

/* prepare during a run: returns TFCC_ERR_NO_MEMORY and asks the session for `bytes` of
 * prepare_mem (see tfcc_op_ctx.run_time); a caller that cannot provide it reports the message. */
#define TFCC_OP_NEEDS_MEMORY(ctx, bytes, ...) \
  ((ctx)->scratch_bytes = (bytes), (ctx)->needs_memory = true, \
   tfcc_err_set((ctx)->err, TFCC_ERR_NO_MEMORY, __VA_ARGS__))

/* Common messages. */
#define TFCC_OP_CHECK(ctx, cond, code, ...) \
  do { \
    if (!(cond)) return tfcc_err_set((ctx)->err, (code), __VA_ARGS__); \
  } while (0)

#endif
