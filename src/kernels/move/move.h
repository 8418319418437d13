/* Fast N-d strided copies for the data-movement operators (TRANSPOSE, SLICE, STRIDED_SLICE):
 * the same contract and the same bytes as tfcc_ref_copy_nd (kernels/ref/copy.h), its
 * reference twin, for elements of 1, 2, 4 or 8 bytes (any other size: the reference).
 *
 * A copy is first planned (tfcc_move_plan_make, a few dozen integer operations, nothing
 * allocated): dimensions of size 1 are dropped, adjacent dimensions that stay adjacent in both
 * the input and the output are merged (one dimension of their product), and an innermost
 * dimension that is contiguous in both becomes the copied unit (a "run" of bytes). Then one of:
 *   runs       every unit is one fixed-size move (1..64 bytes) or memcpy; a copy that collapses
 *              to one run (SLICE of leading rows) is a single memcpy;
 *   transpose  the output's innermost dimension has a stride in the input and some other
 *              dimension is contiguous in the input (the last-two-axes swap, NHWC <-> NCHW):
 *              blocked 2-D transposes of 16 x 16 element tiles, loads of one tile column
 *              reused from cache while its row of stores fills whole lines;
 *   strided    anything else: element moves along the innermost dimension.
 * The transpose form changes the order of the writes and is chosen only when the output is
 * dense (every element written once, as TRANSPOSE / SLICE / STRIDED_SLICE write it), so the
 * result is the reference's in every case. Input and output must not overlap.
 *
 * Portable C: fixed-size memcpy and element loops compile to vector moves on every target;
 * nothing depends on the ISA. */
#ifndef TFCC_KERNELS_MOVE_MOVE_H
#define TFCC_KERNELS_MOVE_MOVE_H

#include <stddef.h>
#include <stdint.h>

#define TFCC_MOVE_MAX_RANK 16

typedef enum {
  TFCC_MOVE_NONE = 0,  /* nothing to copy (a dimension of size 0) */
  TFCC_MOVE_RUNS,      /* contiguous runs of `unit` bytes */
  TFCC_MOVE_TRANSPOSE, /* 2-D tiles over dimensions tj (input-contiguous) and rank - 1 */
  TFCC_MOVE_STRIDED,   /* single elements, strided on both sides */
  TFCC_MOVE_REFERENCE, /* element size other than 1, 2, 4, 8: tfcc_ref_copy_nd */
} tfcc_move_kind;

typedef struct tfcc_move_plan {
  tfcc_move_kind kind;
  int32_t rank; /* collapsed rank (for RUNS: without the run's dimension) */
  int32_t tj;   /* TRANSPOSE: the dimension whose input stride is one element */
  size_t es;    /* element bytes */
  size_t unit;  /* RUNS: bytes of one run; otherwise es */
  int64_t dims[TFCC_MOVE_MAX_RANK];
  int64_t in_bytes[TFCC_MOVE_MAX_RANK]; /* strides in bytes */
  int64_t out_bytes[TFCC_MOVE_MAX_RANK];
} tfcc_move_plan;

/* Plans the copy that tfcc_ref_copy_nd(rank, dims, ., ., in_strides, ., ., out_strides, es)
 * makes (rank <= 16; strides in elements, possibly 0 or negative). */
void tfcc_move_plan_make(tfcc_move_plan *p, int32_t rank, const int32_t *dims,
                         const int64_t *in_strides, const int64_t *out_strides, size_t es);

/* Runs a plan: the copy from in + in_off elements to out + out_off elements. */
void tfcc_move_run(const tfcc_move_plan *p, const void *in, int64_t in_off, void *out,
                   int64_t out_off);

/* Plan and run: a drop-in for tfcc_ref_copy_nd, with its arguments and its result. */
void tfcc_move_copy_nd(int32_t rank, const int32_t *dims, const void *in, int64_t in_off,
                       const int64_t *in_strides, void *out, int64_t out_off,
                       const int64_t *out_strides, size_t es);

/* Kernel name of a plan for the profile: "move-runs", "move-transpose", "move-strided", "ref". */
const char *tfcc_move_kind_name(const tfcc_move_plan *p);

#endif
