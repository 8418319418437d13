#include "passes/pass_manager.h"

#include <string.h>
#include <time.h>

#include "ops/hybrid.h"
#include "passes/passes.h"

static const tfcc_pass_info k_passes[] = {
    /* Constants first, so float16 / sparse weights are plain float32 constants for the rest. */
    {"fold_constants", TFCC_PASS_FOLD_CONSTANTS, tfcc_pass_fold_constants},
    /* No-ops next: they would hide producer/consumer pairs from the fusions. */
    {"drop_noops", TFCC_PASS_DROP_NOOPS, tfcc_pass_drop_noops},
    /* Batch norm before activations: conv -> MUL -> ADD -> RELU becomes conv -> RELU, then conv. */
    {"fold_batch_norm", TFCC_PASS_FOLD_BATCH_NORM, tfcc_pass_fold_batch_norm},
    {"fuse_pad", TFCC_PASS_FUSE_PAD, tfcc_pass_fuse_pad},
    {"fuse_activation", TFCC_PASS_FUSE_ACTIVATION, tfcc_pass_fuse_activation},
    /* After fuse_activation: it needs the activations already fused into the convolutions. */
    {"fuse_expand_dwconv", TFCC_PASS_FUSE_EXPAND_DWCONV, tfcc_pass_fuse_expand_dwconv},
    /* Residual ADDs last: the conv's batch norm is folded (activation NONE) and the RELU after
     * the ADD is already the ADD's fused activation, which moves to the conv with it. */
    {"fuse_residual_add", TFCC_PASS_FUSE_RESIDUAL_ADD, tfcc_pass_fuse_residual_add},
};

const tfcc_pass_info *tfcc_pass_list(int32_t *count) {
  if (count) *count = (int32_t)(sizeof k_passes / sizeof k_passes[0]);
  return k_passes;
}

tfcc_status tfcc_pass_parse(const char *names, uint32_t *mask) {
  if (!names || !mask) return TFCC_ERR_INVALID_ARG;
  uint32_t bits = 0;
  for (const char *p = names; *p;) {
    const char *end = strchr(p, ',');
    const size_t len = end ? (size_t)(end - p) : strlen(p);
    uint32_t bit = len == 3 && strncmp(p, "all", 3) == 0 ? TFCC_PASS_ALL : 0;
    for (size_t i = 0; !bit && i < sizeof k_passes / sizeof k_passes[0]; i++)
      if (strlen(k_passes[i].name) == len && strncmp(p, k_passes[i].name, len) == 0)
        bit = k_passes[i].bit;
    if (!bit) return TFCC_ERR_INVALID_ARG;
    bits |= bit;
    p += len + (end != NULL);
  }
  *mask |= bits;
  return TFCC_OK;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Subgraph 0 and the subgraphs of signatures get their input shapes from a session (resized
 * only where the signature allows); the others from the operator that runs them. */
static bool is_entry(const tfcc_graph *g, int32_t s) {
  if (s == 0) return true;
  for (int32_t k = 0; k < g->n_signatures; k++)
    if (g->signatures[k].subgraph == s) return true;
  return false;
}

tfcc_status tfcc_run_passes(tfcc_graph *g, uint32_t disabled, tfcc_isa isa, const tfcc_logger *log,
                            int quant_compat, tfcc_err *err) {
  int32_t n;
  const tfcc_pass_info *list = tfcc_pass_list(&n);
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    if (g->subgraphs[s].unrunnable) continue; /* operators unbound: never prepared or run */
    tfcc_pass_ctx ctx = {g, &g->subgraphs[s], isa, err, log, quant_compat, !is_entry(g, s)};
    for (int32_t i = 0; i < n; i++) {
      if (disabled & list[i].bit) {
        if (s == 0)
          tfcc_log(log, TFCC_LOG_DEBUG, TFCC_TAG_MODEL_LOAD, "pass %s: disabled", list[i].name);
        continue;
      }
      int32_t changed = 0;
      double t0 = now_ms();
      tfcc_status st = list[i].run(&ctx, &changed);
      if (st != TFCC_OK) return s == 0 ? st : tfcc_err_prefix(err, "subgraph %d", (int)s);
      if (s == 0 || changed)
        tfcc_log(log, TFCC_LOG_DEBUG, TFCC_TAG_MODEL_LOAD,
                 "pass %s: subgraph %d: %d change%s in %.3f ms", list[i].name, (int)s, (int)changed,
                 changed == 1 ? "" : "s", now_ms() - t0);
    }
  }
  /* after every subgraph's passes: a WHILE's body is read by its caller's answer */
  for (int32_t s = 0; s < g->n_subgraphs; s++)
    if (!g->subgraphs[s].unrunnable) tfcc_classic_undelegated_note(g, &g->subgraphs[s]);
  tfcc_hybrid_in_model_note(g); /* one answer for the model (every subgraph's) */
  return TFCC_OK;
}
