/* How the GEMM drivers (f32-gemm, q8-gemm, bf16-gemm) cut one product into thread-pool tasks:
 * row tiles (MR rows each) in row chunks, times column panels (NR columns each) in column
 * blocks; task t covers row chunk t / n_blocks and column block t % n_blocks. Plain
 * arithmetic; the drivers run the tasks with tfcc_threadpool_run. */
#ifndef TFCC_KERNELS_GEMM_SPLIT_H
#define TFCC_KERNELS_GEMM_SPLIT_H

#include <stddef.h>

#include "base/threadpool.h"

typedef struct tfcc_gemm_split {
  size_t tiles_per_task, m_chunks;   /* row tiles per task, row chunks */
  size_t panels_per_block, n_blocks; /* column panels per block, column blocks */
} tfcc_gemm_split;

/* The tasks of a split: row chunks x column blocks. */
static inline size_t tfcc_gemm_split_tasks(const tfcc_gemm_split *s) {
  return s->m_chunks * s->n_blocks;
}

/* What task `task` of split s covers (row chunk task / n_blocks, column block task % n_blocks):
 * row tiles [t0, t1) of m_tiles and column panels [p0, p1) of n_panels. */
typedef struct tfcc_gemm_range {
  size_t t0, t1, p0, p1;
} tfcc_gemm_range;

static inline tfcc_gemm_range tfcc_gemm_task_range(const tfcc_gemm_split *s, size_t m_tiles,
                                                   size_t n_panels, size_t task) {
  const size_t mc = task / s->n_blocks, nb = task % s->n_blocks;
  tfcc_gemm_range r;
  r.t0 = mc * s->tiles_per_task;
  r.t1 = r.t0 + s->tiles_per_task < m_tiles ? r.t0 + s->tiles_per_task : m_tiles;
  r.p0 = nb * s->panels_per_block;
  r.p1 = r.p0 + s->panels_per_block < n_panels ? r.p0 + s->panels_per_block : n_panels;
  return r;
}

/* The threads an m x n x k product runs on: 1, with *pool set to NULL (run inline), below
 * min_macs multiply-adds (waking workers costs more than it saves). */
static inline size_t tfcc_gemm_threads(struct tfcc_threadpool **pool, size_t m, size_t n, size_t k,
                                       double min_macs) {
  if ((double)m * (double)n * (double)k < min_macs) {
    *pool = NULL;
    return 1;
  }
  return (size_t)tfcc_threadpool_size(*pool);
}

/* tiles_per_task row tiles per task, and the row chunks that makes. */
static inline void tfcc_gemm_split_rows(tfcc_gemm_split *s, size_t m_tiles, size_t tiles_per_task) {
  s->tiles_per_task = tiles_per_task;
  s->m_chunks = (m_tiles + tiles_per_task - 1) / tiles_per_task;
}

/* m_chunks row chunks and n_blocks column blocks, as even as the tiles and panels allow. */
static inline tfcc_gemm_split tfcc_gemm_split_counts(size_t m_tiles, size_t n_panels,
                                                     size_t m_chunks, size_t n_blocks) {
  tfcc_gemm_split s;
  s.panels_per_block = (n_panels + n_blocks - 1) / n_blocks;
  s.n_blocks = (n_panels + s.panels_per_block - 1) / s.panels_per_block;
  tfcc_gemm_split_rows(&s, m_tiles, (m_tiles + m_chunks - 1) / m_chunks);
  return s;
}

/* Column blocks of ppb panels (a cache-sized block: clamped to [1, n_panels]); with threads > 1
 * about 4 tasks per thread: as many row chunks as that takes, and when the rows are too few,
 * finer column blocks. */
static inline tfcc_gemm_split tfcc_gemm_split_blocks(size_t m_tiles, size_t n_panels, size_t ppb,
                                                     size_t threads) {
  if (ppb < 1) ppb = 1;
  if (ppb > n_panels) ppb = n_panels;
  size_t n_blocks = (n_panels + ppb - 1) / ppb;
  size_t m_chunks = 1;
  if (threads > 1) {
    const size_t target = 4 * threads;
    m_chunks = (target + n_blocks - 1) / n_blocks;
    if (m_chunks > m_tiles) m_chunks = m_tiles;
    if (m_chunks * n_blocks < target) { /* few rows: split the columns finer */
      size_t want = (target + m_chunks - 1) / m_chunks;
      if (want > n_panels) want = n_panels;
      ppb = (n_panels + want - 1) / want;
      n_blocks = (n_panels + ppb - 1) / ppb;
    }
  }
  tfcc_gemm_split s;
  s.panels_per_block = ppb;
  s.n_blocks = n_blocks;
  tfcc_gemm_split_rows(&s, m_tiles, (m_tiles + m_chunks - 1) / m_chunks);
  return s;
}

#endif
