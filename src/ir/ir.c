/* Graph IR storage (arena allocation, strings, free) and shape helpers (element counts, text);
 * the contract is in ir.h. */
#include "ir/ir.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Graph memory comes in chunks carved in order (a load makes ~1,100 allocations for MobileNetV2
 * int8: quantization arrays, names, node lists); an allocation of more than a quarter chunk has
 * a block of its own. Chunks come from calloc: memory fresh from the system is not written to
 * zero it, so a page is first touched when the reader fills it (on the test VM a fresh page
 * costs ~10 us at its first touch; before, each allocation was a malloc'd header beside an
 * aligned_alloc'd and memset block: 1/5 of MobileNetV2 int8's warm-load heap was that
 * overhead). The list's head is the chunk being carved. */
#define CHUNK ((size_t)16 << 10)

struct tfcc_graph_block {
  tfcc_graph_block *next;
  size_t used, cap; /* bytes of data carved, bytes of data in the block */
};

static tfcc_graph_block *new_block(size_t cap) {
  if (cap > SIZE_MAX - sizeof(tfcc_graph_block) - 64) return NULL;
  /* the data after the header, 64-byte aligned (calloc aligns to 16) */
  tfcc_graph_block *b = calloc(1, sizeof *b + 64 + cap);
  if (!b) return NULL;
  b->cap = cap;
  return b;
}

static uint8_t *block_data(tfcc_graph_block *b) {
  return (uint8_t *)(((uintptr_t)b + sizeof *b + 63) & ~(uintptr_t)63);
}

void *tfcc_graph_alloc(tfcc_graph *g, size_t bytes, size_t align) {
  if (align < sizeof(void *)) align = sizeof(void *);
  if (align > 64 || (align & (align - 1))) return NULL;
  if (bytes == 0) bytes = 1;
  tfcc_graph_block *h = g->blocks;
  if (h && h->used <= h->cap) {
    const size_t at = (h->used + align - 1) & ~(align - 1);
    if (at <= h->cap && bytes <= h->cap - at) {
      h->used = at + bytes;
      return block_data(h) + at;
    }
  }
  if (bytes > CHUNK / 4) { /* a block of its own, behind the chunk being carved */
    tfcc_graph_block *b = new_block(bytes);
    if (!b) return NULL;
    b->used = bytes;
    if (h) {
      b->next = h->next;
      h->next = b;
    } else {
      g->blocks = b;
    }
    return block_data(b);
  }
  tfcc_graph_block *b = new_block(CHUNK);
  if (!b) return NULL;
  b->used = bytes;
  b->next = g->blocks;
  g->blocks = b;
  return block_data(b);
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
    free(b);
    b = n;
  }
  memset(g, 0, sizeof *g);
}

int64_t tfcc_shape_elements(int32_t rank, const int32_t *dims) {
  int64_t nonzero = 1; /* the product of the nonzero dimensions, at most TFCC_SHAPE_SPAN_MAX */
  bool empty = false;
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] == 0) {
      empty = true;
      continue;
    }
    if (nonzero > TFCC_SHAPE_SPAN_MAX / dims[i]) return -1;
    nonzero *= dims[i];
  }
  return empty ? 0 : nonzero;
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
