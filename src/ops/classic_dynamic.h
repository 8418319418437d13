/* Which nodes TensorFlow Lite's classic interpreter gives a dynamic output while preparing them
 * (docs/quantization.md, "The dynamic-tensor rule"): REFERENCE mode's test for a subgraph the
 * classic interpreter's XNNPACK delegate takes no node of (ops/hybrid.c). */
#ifndef TFCC_OPS_CLASSIC_DYNAMIC_H
#define TFCC_OPS_CLASSIC_DYNAMIC_H

#include <stdbool.h>

#include "ir/ir.h"

/* Whether the classic interpreter's Prepare of node n of sg makes an output dynamic
 * (SetTensorToDynamic): an input that decides the output's shape is not a constant of the file
 * (computed while running, a model input, or folded by tfcc at load: constant folding does not
 * happen there, and a SHAPE of a static tensor is computed too), or the output's size depends
 * on the values (UNIQUE). A node a graph pass removed counts as well. */
bool tfcc_classic_output_dynamic(const tfcc_ir_subgraph *sg, const tfcc_ir_node *n);

#endif
