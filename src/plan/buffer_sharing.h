/* Buffer sharing: which tensors of one subgraph may use the same arena bytes, and the rules for
 * it (views, in-place outputs). The executor (runtime/exec_plan.c) builds the lifetimes as it
 * prepares the nodes, asks these rules node by node, then plans one arena buffer per group
 * (plan/arena_plan.h).
 *
 * Groups are a union-find over tensor indices: group[i] is -2 for a tensor that gets no arena
 * buffer (constant, folded, dynamic, bound to the caller, empty), else a parent (roots point to
 * themselves). A group's root carries its lifetime: producer = the first node that writes any
 * member, last_use = the last node that reads one (node indices in execution order). */
#ifndef TFCC_PLAN_BUFFER_SHARING_H
#define TFCC_PLAN_BUFFER_SHARING_H

#include <stdbool.h>
#include <stdint.h>

#include "ops/op.h"

typedef struct tfcc_buffer_groups {
  int32_t *group;    /* [n_tensors] */
  int32_t *producer; /* [n_tensors] */
  int32_t *last_use; /* [n_tensors] */
} tfcc_buffer_groups;

/* The root of t's group (t must be in the arena: group[t] >= 0). */
int32_t tfcc_buffer_group_root(tfcc_buffer_groups *g, int32_t t);

/* View rule: an operator whose output is its input's bytes (op->output_is_view: RESHAPE and
 * the like) with one output of input 0's byte size shares input 0's buffer; the node is then
 * skipped at run. True when c's output joined its input's group. */
bool tfcc_share_view(tfcc_buffer_groups *g, const tfcc_op_ctx *c);

/* In-place rule: output 0 of an operator that declares op->inplace_ok (one output, no
 * intermediates) takes the buffer of an input of the same shape and dtype whose group is read
 * for the last time by this node (`node`, so no later reader sees it overwritten) and that no
 * other input of the node shares. Apply in execution order, after every view. True when it
 * joined. */
bool tfcc_share_in_place(tfcc_buffer_groups *g, const tfcc_op_ctx *c, int32_t node);

#endif
