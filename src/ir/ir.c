/* Graph IR storage (arena allocation, strings, free) and shape helpers (element counts, text);
 * the contract is in ir.h. */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tfcc_graph_block {
  tfcc_graph_block *next;
  void *mem;
};

void *tfcc_graph_alloc(tfcc_graph *g, size_t bytes, size_t align) {
  if (align < sizeof(void *)) align = sizeof(void *);
  if (bytes == 0) bytes = 1;
  tfcc_graph_block *b = malloc(sizeof *b);
  if (!b) return NULL;
  size_t rounded = (bytes + align - 1) / align * align;
  if (rounded < bytes) {
    free(b);
    return NULL;
  }
  b->mem = aligned_alloc(align, rounded);
  if (!b->mem) {
    free(b);
    return NULL;
  }
  memset(b->mem, 0, rounded);
  b->next = g->blocks;
  g->blocks = b;
  return b->mem;
}

char *tfcc_graph_strdup(tfcc_graph *g, const char *s, size_t len) {
  char *d = tfcc_graph_alloc(g, len + 1, 1);
  if (!d) return NULL;
  if (len) memcpy(d, s, len);
  d[len] = 0;
  return d;
}

void tfcc_graph_free(tfcc_graph *g) {
  if (!g) return;
  tfcc_graph_block *b = g->blocks;
  while (b) {
    tfcc_graph_block *n = b->next;
    free(b->mem);
    free(b);
    b = n;
  }
  memset(g, 0, sizeof *g);
}

int64_t tfcc_shape_elements(int32_t rank, const int32_t *dims) {
  int64_t n = 1;
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] && n > INT64_MAX / dims[i]) return -1;
    n *= dims[i];
  }
  return n;
}

const char *tfcc_shape_str(int32_t rank, const int32_t *dims, char *buf, size_t len) {
  size_t o = 0;
  if (len == 0) return buf;
  buf[0] = 0;
  o += (size_t)snprintf(buf + o, len - o, "[");
  for (int32_t i = 0; i < rank && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, i ? ",%d" : "%d", (int)dims[i]);
  if (o < len) snprintf(buf + o, len - o, "]");
  return buf;
}
