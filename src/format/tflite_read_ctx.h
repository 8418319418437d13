/* State shared by the parts of the TFLite loader (private to src/format). */
#ifndef TFCC_FORMAT_TFLITE_READ_CTX_H
#define TFCC_FORMAT_TFLITE_READ_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "format/fb.h"
#include "format/fb_verify.h"
#include "ir/ir.h"

/* One entry of Model.buffers, resolved. */
typedef struct tfl_buffer {
  const uint8_t *data; /* inside the file, or NULL if empty */
  size_t size;
  void *aligned; /* graph-owned 16-byte-aligned copy, made on first misaligned use */
  bool empty;    /* a data vector of 0 bytes (a zero-size constant's buffer) */
} tfl_buffer;

typedef struct tfl_opcode {
  int32_t builtin;
  int32_t version;
  const char *custom_code; /* graph-owned, or NULL */
} tfl_opcode;

typedef struct tfl_ctx {
  const uint8_t *file;
  size_t size;        /* whole file (external buffers may lie past the FlatBuffer) */
  tfcc_fb_table root; /* root.len: the FlatBuffer-addressable part */
  tfcc_graph *g;
  tfcc_err *err;
  size_t budget; /* bytes the loader may still allocate or scan (see tfl_charge) */
  uint32_t n_buffers;
  tfl_buffer *buffers; /* buffers[0] always empty: see buffer0 */
  /* Buffer 0 as the file holds it. The schema makes it the empty sentinel: TFLite's model
   * reader gives a tensor of buffer 0 no data whatever it holds, so buffers[0] is cleared;
   * metadata reads it as TFLite does, and the dataflow check says when it was not empty. */
  tfl_buffer buffer0;
  uint32_t n_opcodes;
  tfl_opcode *opcodes;
  tfcc_fbv_peek_fn peek; /* tfcc_tflite_read_peek: buffers' lengths, or NULL */
  void *peek_user;
  const int32_t *zeros; /* n_zeros zero points of 0: every all-zero zero_point array shares it */
  uint32_t n_zeros;
} tfl_ctx;

/* Takes n units off the load budget: allocations and repeated scans are charged, so a small
 * file whose tables are shared many times over cannot make the loader allocate or work
 * beyond a fixed multiple of the file size. */
tfcc_status tfl_charge(tfl_ctx *c, size_t n, const char *what);
/* Zeroed graph memory for count elements of elem bytes, charged to the budget. */
tfcc_status tfl_alloc(tfl_ctx *c, size_t count, size_t elem, size_t align, void **out,
                      const char *what);
/* tfl_alloc of memory whose count * elem bytes were charged already (tfl_charge where the need
 * was found: a sparse tensor's dense form, charged when its sparsity is read and allocated
 * once its readers are known); only the bookkeeping overhead is charged here. */
tfcc_status tfl_alloc_charged(tfl_ctx *c, size_t count, size_t elem, size_t align, void **out,
                              const char *what);
/* [data, data + bytes) of the file was copied or expanded into the graph and is read no more
 * (tfcc_graph.copied: the runtime gives its pages back). */
tfcc_status tfl_note_copied(tfl_ctx *c, const uint8_t *data, size_t bytes);
/* Copy of a string into graph memory ("" for NULL). */
tfcc_status tfl_strdup(tfl_ctx *c, const char *s, uint32_t len, const char **out);

/* Reads subgraph index si (table t) into *sg. */
tfcc_status tfl_read_subgraph(tfl_ctx *c, const tfcc_fb_table *t, int32_t si, tfcc_ir_subgraph *sg);
/* Reads tensor ti of subgraph si (table t) into *tensor. */
tfcc_status tfl_read_tensor(tfl_ctx *c, const tfcc_fb_table *t, int32_t si, int32_t ti,
                            tfcc_ir_tensor *tensor);
/* Reads operator ni of a subgraph (tensor count n_tensors) into *node. */
tfcc_status tfl_read_operator(tfl_ctx *c, const tfcc_fb_table *t, int32_t ni, int32_t n_tensors,
                              tfcc_ir_node *node);
/* review59 / spfc60: a sparse constant is read by DENSIFY, or as FULLY_CONNECTED's weights in a
 * layout TFLite's kernel takes (then expanded to its dense form here); any other
 * reader, or a sparse subgraph output, is refused (tflite_sparse_uses.c). */
tfcc_status tfl_resolve_sparse_uses(tfl_ctx *c, int32_t si, tfcc_ir_subgraph *sg);
/* Checks that operators only read tensors that exist before them and produce each tensor
 * once (the TFLite verifier's subgraph consistency rules). */
tfcc_status tfl_check_dataflow(tfl_ctx *c, const tfcc_ir_subgraph *sg);
/* Sets the output dtypes that TFLite's kernels set in Prepare whatever the file declares (ADD's
 * output takes its inputs' type, a comparison's is bool, ...), in execution order. */
tfcc_status tfl_prepare_output_dtypes(tfl_ctx *c, tfcc_ir_subgraph *sg);

#endif
