/* Constant PAD as one sequential pass over the output: each output byte is written once
 * (borders filled, input rows copied), instead of filling the whole output and copying the
 * input over it. Element-size generic (any dtype); bit-identical to tfcc_ref_pad_const. The
 * pool variant splits the output's leading dimensions over the threads. */
#ifndef TFCC_KERNELS_F32_COPY_PAD_H
#define TFCC_KERNELS_F32_COPY_PAD_H

#include <stddef.h>
#include <stdint.h>

/* before[d] >= 0; out_dims[d] = in_dims[d] + before[d] + after[d]; value is one element of
 * es bytes (es in 1..8); rank in 0..16. */
void tfcc_pad_const_fast(const void *in, int32_t rank, const int32_t *in_dims,
                         const int64_t *before, const int32_t *out_dims, const void *value,
                         size_t es, void *out);

struct tfcc_threadpool;
/* The same with the output cut into blocks of outer indices (the leading dimensions, flattened,
 * up to the first where there are at least 4 per thread) spread over the pool when it holds
 * at least TFCC_PAD_MIN_PARALLEL_BYTES; pool NULL or 1 thread: tfcc_pad_const_fast. Same
 * bytes either way. */
#define TFCC_PAD_MIN_PARALLEL_BYTES (256u * 1024u)
void tfcc_pad_const_fast_pool(struct tfcc_threadpool *pool, const void *in, int32_t rank,
                              const int32_t *in_dims, const int64_t *before,
                              const int32_t *out_dims, const void *value, size_t es, void *out);

#endif
