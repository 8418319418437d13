/* Parameters of the operators that a run reads at every node (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED): cut from the packed-weights memory (base/weights_mem.h: huge pages, blocks
 * one after another) rather than calloc'd. On the C heap each landed between the load's
 * temporaries and its node's per-channel quantization vectors, nearly one 4 KiB page per node,
 * and a run read ~40 such pages (bench/README.md, "tail4": build/bench/heap_trap). Zeroed. */
#ifndef TFCC_OPS_PARAMS_MEM_H
#define TFCC_OPS_PARAMS_MEM_H

#include <stddef.h>
#include <string.h>

#include "base/weights_mem.h"

static inline void *tfcc_params_calloc(size_t bytes) {
  void *p = tfcc_wmem_alloc(bytes);
  if (p) memset(p, 0, bytes);
  return p;
}
/* Frees params from tfcc_params_calloc (NULL: nothing). */
static inline void tfcc_params_free(void *p) { tfcc_wmem_free(p); }

#endif
