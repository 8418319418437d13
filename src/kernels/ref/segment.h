/* Segment reductions: SEGMENT_SUM and UNSORTED_SEGMENT_{SUM,PROD,MAX,MIN} (TFLite reference
 * SegmentSum / UnsortedSegmentRef). Data is float32 or int32 (int32 wraps). */
#ifndef TFCC_KERNELS_REF_SEGMENT_H
#define TFCC_KERNELS_REF_SEGMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

typedef enum tfcc_segment_op {
  TFCC_SEGMENT_SUM = 0,
  TFCC_SEGMENT_PROD,
  TFCC_SEGMENT_MAX,
  TFCC_SEGMENT_MIN
} tfcc_segment_op;

/* out[num_segments][inner] starts at the op's identity (0, 1, lowest, highest); then row i of
 * in[n_ids][inner] is combined into out[ids[i]] in order. Rows with a negative id are skipped
 * (as TFLite); an id >= num_segments is the caller's check. */
void tfcc_ref_segment_reduce(tfcc_segment_op op, tfcc_dtype dtype, const void *in,
                             const int32_t *ids, int64_t n_ids, int64_t inner, int64_t num_segments,
                             void *out);

#endif
