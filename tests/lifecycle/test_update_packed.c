/* exact11: float layouts the exact (TFLite-order) paths pack once at init instead of per run
 * (ops/packed_layouts.h) follow the weights: REFERENCE mode's Eigen-order CONV_2D filter
 * transposed to [K][out_c] (block TFCC_BLOCK_EIGEN_CONV), its Eigen-order FULLY_CONNECTED
 * weights in 16-unit panels (TFCC_BLOCK_FC_EIGEN) and the XNNPACK-order FC kernel's narrow last
 * block (TFCC_BLOCK_XNN_FC_TAIL; FULLY_CONNECTED and the FC-order 1x1 CONV_2D, 8- and 16-lane
 * variants). At every ISA cap, for conformance models of the repository:
 * - a weight update (file, then buffer back) and a run give the bits of a fresh load of the new
 *   weights, without a cache;
 * - with a cache: the cold load writes the block, a warm load takes every block (no miss) with
 *   the same bits, an update to other weights refuses the stale cache and writes one holding
 *   the block again, and a load of those weights takes it, with their fresh load's bits.
 * cache54: the same for the 16x8 CONV_2D's q16-gemm filter packing (TFCC_BLOCK_Q16_GEMM; the
 * variant changes the int8 filter too) and a constant float32 BATCH_MATMUL rhs, packed for the
 * f32 GEMM (TFCC_BLOCK_BMM_F32_GEMM, a float model) or transposed for the XNNPACK-order path
 * (TFCC_BLOCK_BMM_F32_T, a hybrid model in TFLITE mode), and hybrid CONV_2D / FULLY_CONNECTED
 * / BATCH_MATMUL's q8 packing with its column sums (TFCC_BLOCK_HYB_Q8); the warm load takes
 * every block (nothing packed), and a cache made at avx2 is refused at sse4. cache55: the hybrid
 * DEPTHWISE_CONV_2D's q8 row-kernel packing (TFCC_BLOCK_HYB_DW), where the CPU has that kernel
 * (AVX512-VNNI, cap avx512): a cache made there is refused at avx2. cache56: the LSTM plans'
 * blocks (UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM), float32 (TFCC_BLOCK_F32_LSTM, every cap) and
 * full-integer (TFCC_BLOCK_Q8_LSTM, where the q8-lstm family has a SIMD variant: not at
 * generic, where the reference kernel runs and nothing is packed); the 16x8 FULLY_CONNECTED's
 * q16-gemm packing (TFCC_BLOCK_Q16_GEMM, as CONV_2D's) and tiny int8 FULLY_CONNECTED layers'
 * q8-fc-small packing (TFCC_BLOCK_Q8_FC_SMALL); hybrid models' XNNPACK-order float convolution
 * packings (TFCC_BLOCK_XNN_CONV; an FC-order 1x1 CONV_2D's panels, TFCC_BLOCK_XNN_FC). cache57:
 * a hybrid DEPTHWISE_CONV_2D's filter widened to int32 (TFCC_BLOCK_HYB_DW32; not where the row
 * kernel takes the layer) and, at precision bf16, CONV_2D / FULLY_CONNECTED weights packed for
 * the bf16 GEMM (TFCC_BLOCK_BF16_GEMM, where a bf16 kernel runs: its cache refused at avx2).
 * cache58: the per-channel requantization tables of quantized conv-family nodes
 * (TFCC_BLOCK_REQUANT: int8 CONV_2D in XNNPACK's and the builtin arithmetic, 16x8
 * FULLY_CONNECTED, int16 x int8 BATCH_MATMUL per column; TFCC_BLOCK_REQUANT_DW: the fused int8
 * expand + depthwise node's second set, in a model of the shared set) and the 16x8
 * DEPTHWISE_CONV_2D's q16-dwconv packing (TFCC_BLOCK_Q16_DW). Every case's warm load takes
 * every block of its cache: with these, an int8 model's warm load computes no table. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/tflite_reader.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-lstm/lstm.h"
#include "ops/packed_store.h"
#include "runtime/internal.h"
#include "runtime/weights_cache.h"
#include "lifecycle_util.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

#define OUT_CAP (1u << 20)

static char g_dir[256];

static void log_fn(void *user, tfcc_log_level level, const char *tag, const char *msg) {
  (void)user, (void)level, (void)tag, (void)msg;
}

typedef struct pcase {
  const char *file;
  tfcc_quant_compat qc;
  uint32_t block;
  bool wide_only; /* the block exists only where an 8- or 16-lane variant runs */
  bool int8_too;  /* the variant changes int8 constants too (the block packs int8 weights) */
  bool dw_rows;   /* the block exists only where the q8 depthwise has a row kernel (VNNI);
                     TFCC_BLOCK_HYB_DW32: only where it has none */
} pcase;

/* A copy of the model with every float32 constant changed (scaled, shifted), integers kept
 * (shapes of RESHAPEs, int8 weights): the same graph. */
static uint8_t *float_variant(const uint8_t *model, size_t size, bool int8_too) {
  tfcc_graph g;
  memset(&g, 0, sizeof g);
  tfcc_err err = {0};
  if (tfcc_tflite_read(model, size, &g, &err) != TFCC_OK) return NULL;
  uint8_t *out = malloc(size);
  if (out) {
    memcpy(out, model, size);
    const tfcc_ir_subgraph *sg = &g.subgraphs[0];
    for (int32_t i = 0; i < sg->n_tensors; i++) {
      const tfcc_ir_tensor *t = &sg->tensors[i];
      const uint8_t *d = t->data;
      if (!d || d < model || d + t->data_bytes > model + size) continue;
      if (int8_too && t->dtype == TFCC_INT8) { /* w -> 3w + 1, wrapped, never -128 */
        for (size_t k = 0; k < t->data_bytes; k++) {
          int v = (int8_t)d[k] * 3 + 1;
          v = ((v + 128) % 255 + 255) % 255 - 127;
          out[(d - model) + k] = (uint8_t)(int8_t)v;
        }
        continue;
      }
      if (t->dtype != TFCC_FLOAT32) continue;
      for (size_t k = 0; k + 4 <= t->data_bytes; k += 4) {
        float v;
        memcpy(&v, d + k, 4);
        v = v * -1.25f + 0.125f;
        memcpy(out + (d - model) + k, &v, 4);
      }
    }
  }
  tfcc_graph_free(&g);
  return out;
}

static tfcc_model *load(tfcc_runtime *rt, const char *path, const char *cache, const pcase *pc) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  mo.quant_compat = pc->qc;
  if (pc->block == TFCC_BLOCK_BF16_GEMM) mo.precision = TFCC_PRECISION_BF16;
  tfcc_model *m = NULL;
  if (tfcc_model_load_file(rt, path, &mo, &m) != TFCC_OK)
    fprintf(stderr, "load %s: %s\n", path, tfcc_last_error());
  return m;
}

/* Every output of one run on the lifecycle tests' fixed inputs, end to end (malloc'ed). */
static uint8_t *run_all(tfcc_model *m, size_t *n) {
  uint8_t *out = malloc(OUT_CAP);
  if (out && lc_run_outputs(m, out, OUT_CAP, n, NULL)) return out;
  free(out);
  return NULL;
}

static bool same(tfcc_model *m, const uint8_t *want, size_t n) {
  size_t got_n = 0;
  uint8_t *got = run_all(m, &got_n);
  const bool ok = got && got_n == n && memcmp(got, want, n) == 0;
  free(got);
  return ok;
}

static tfcc_wcache_stats cur_stats(tfcc_model *m) {
  tfcc_wcache_stats s;
  tfcc_weights *w = atomic_load(&m->weights);
  tfcc_wcache_get_stats(w == &m->gen0 ? m->wcache : w->wcache, &s);
  return s;
}

/* Blocks with id `block` in the cache file at path. */
static uint32_t blocks_in(const char *path, uint32_t block) {
  size_t n = 0;
  uint8_t *p = tfcc_test_read_file(path, &n);
  uint32_t count = 0;
  if (p && n > sizeof(tfcc_wc_header)) {
    tfcc_wc_header h;
    memcpy(&h, p, sizeof h);
    for (uint32_t i = 0; i < h.n_blocks && sizeof h + (i + 1) * sizeof(tfcc_wc_entry) <= n; i++) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(p, i, &e);
      count += e.block == block;
    }
  }
  free(p);
  return count;
}

/* The block exists only at cap avx512 (the q8 depthwise's row kernel, the bf16 GEMM): its cache
 * is made there and refused at avx2 (else made at avx2, refused at sse4). */
static bool avx512_only(const pcase *pc) {
  return (pc->dw_rows && pc->block != TFCC_BLOCK_HYB_DW32) || pc->block == TFCC_BLOCK_BF16_GEMM;
}

/* The model packs block pc->block at this kernel level. */
static bool wants_block(const pcase *pc, tfcc_isa isa, const char *cap) {
  const tfcc_q8_dw_kernel *dwk = tfcc_q8_dw_select(isa);
  switch (pc->block) {
    case TFCC_BLOCK_Q8_LSTM: return tfcc_q8_lstm_select(isa)->isa != TFCC_ISA_GENERIC;
    case TFCC_BLOCK_BF16_GEMM: return tfcc_bf16_gemm_select(isa) != NULL;
    /* widened where the row kernel does not take the layer (depth multiplier 1: no row kernel) */
    case TFCC_BLOCK_HYB_DW32: return !pc->dw_rows || !(dwk && dwk->row_s);
    default: break;
  }
  if (pc->dw_rows) return dwk && dwk->row_s;
  return !pc->wide_only || strcmp(cap, "avx2") == 0 || strcmp(cap, "avx512") == 0;
}

/* The cache at `cache` (written at another cap) loaded at cap `other`: refused and rewritten
 * (where `other` has blocks), the output that of a load at `other` without a cache. */
static void foreign(const pcase *pc, const char *path, const char *cache, const char *other) {
  tfcc_runtime *rt = lc_runtime(other, log_fn);
  if (!rt) return;
  size_t nr = 0;
  tfcc_model *m = load(rt, path, NULL, pc);
  uint8_t *ref = m ? run_all(m, &nr) : NULL;
  tfcc_model_release(m);
  m = load(rt, path, cache, pc);
  const tfcc_wcache_stats st = m ? cur_stats(m) : (tfcc_wcache_stats){0};
  CHECKF(st.rejected && st.hits == 0 && (st.written > 0 || pc->wide_only || avx512_only(pc)),
         "%s: a cache of another cap loaded at %s: rejected %d, %u hits, %u written", pc->file,
         other, (int)st.rejected, st.hits, st.written);
  CHECKF(ref && m && same(m, ref, nr), "%s: foreign cache at %s: output differs", pc->file, other);
  tfcc_model_release(m);
  free(ref);
  tfcc_runtime_destroy(rt);
}

static void test_case(const pcase *pc, const char *cap) {
  tfcc_runtime *rt = lc_runtime(cap, log_fn);
  if (!rt) return; /* cap above the CPU */
  char src[4096], pa[600], pb[600], cache[600];
  if (strncmp(pc->file, "shared:", 7) == 0) { /* a model of the shared set */
    const char *dir = tfcc_test_shared_dir();
    if (!dir) { /* skip noted by the harness */
      tfcc_runtime_destroy(rt);
      return;
    }
    snprintf(src, sizeof src, "%s/models/%s", dir, pc->file + 7);
  } else
    snprintf(src, sizeof src, "%s/tests/ops/conformance/%s", tfcc_test_source_dir(), pc->file);
  const char *name = strchr(pc->file, ':') ? strchr(pc->file, ':') + 1 : pc->file;
  snprintf(pa, sizeof pa, "%s/a_%s_%s", g_dir, cap, name);
  snprintf(pb, sizeof pb, "%s/b_%s_%s", g_dir, cap, name);
  snprintf(cache, sizeof cache, "%s/%s_%u_%s.wc", g_dir, cap, (unsigned)pc->block, name);
  size_t n = 0, na = 0, nb = 0;
  uint8_t *a = tfcc_test_read_file(src, &n), *b = a ? float_variant(a, n, pc->int8_too) : NULL;
  uint8_t *ref_a = NULL, *ref_b = NULL;
  CHECKF(b && lc_write_file(pa, a, n) && lc_write_file(pb, b, n), "%s: files", pc->file);
  if (!b) goto done;
  /* the references: fresh loads of A and of B, no cache */
  tfcc_model *m = load(rt, pa, NULL, pc);
  ref_a = run_all(m, &na);
  tfcc_model_release(m);
  m = load(rt, pb, NULL, pc);
  ref_b = run_all(m, &nb);
  tfcc_model_release(m);
  CHECKF(ref_a && ref_b && na == nb && memcmp(ref_a, ref_b, na) != 0,
         "%s at %s: no reference outputs, or the variant's are the same", pc->file, cap);
  if (!ref_a || !ref_b || na != nb) goto done;

  /* updates without a cache: file to B, buffer back to A */
  m = load(rt, pa, NULL, pc);
  CHECK(m && same(m, ref_a, na));
  CHECKF(m && tfcc_model_update_weights(m, pb) == TFCC_OK && same(m, ref_b, nb),
         "%s at %s: update to B: not B's fresh-load output", pc->file, cap);
  CHECKF(m && tfcc_model_update_weights_buffer(m, a, n) == TFCC_OK && same(m, ref_a, na),
         "%s at %s: buffer update back to A: not A's fresh-load output", pc->file, cap);
  tfcc_model_release(m);

  /* the cache: cold (written, with the block), warm (taken), update (rewritten), load of B */
  const bool want_block = wants_block(pc, rt->isa, cap);
  unlink(cache);
  m = load(rt, pa, cache, pc);
  CHECK(m && same(m, ref_a, na));
  tfcc_wcache_stats st = m ? cur_stats(m) : (tfcc_wcache_stats){0};
  /* a model without any block at this cap (the FC-order 1x1 of 4-lane variants) writes none */
  const bool blocks = st.written > 0;
  CHECKF(blocks || !want_block, "%s at %s: cold load wrote no cache", pc->file, cap);
  tfcc_model_release(m);
  CHECKF(want_block ? blocks_in(cache, pc->block) > 0 : blocks_in(cache, pc->block) == 0,
         "%s at %s: %u blocks %u in the cold cache, expected %s", pc->file, cap,
         blocks_in(cache, pc->block), (unsigned)pc->block, want_block ? "some" : "none");
  m = load(rt, pa, cache, pc);
  st = m ? cur_stats(m) : (tfcc_wcache_stats){0};
  CHECKF(!blocks || (st.hits > 0 && st.misses == 0 && st.written == 0 && !st.rejected),
         "%s at %s: warm load: %u hits %u misses %u written", pc->file, cap, st.hits, st.misses,
         st.written);
  CHECKF(m && same(m, ref_a, na), "%s at %s: warm output differs", pc->file, cap);
  CHECKF(!want_block || st.hits >= blocks_in(cache, pc->block),
         "%s at %s: warm load took %u blocks, the file holds %u of block %u", pc->file, cap,
         st.hits, blocks_in(cache, pc->block), (unsigned)pc->block);
  const bool only512 = avx512_only(pc);
  if (want_block && strcmp(cap, only512 ? "avx512" : "avx2") == 0)
    foreign(pc, pa, cache, only512 ? "avx2" : "sse4");
  CHECK(m && tfcc_model_update_weights(m, pb) == TFCC_OK);
  if (m) tfcc_weights_join_writer(m);
  st = m ? cur_stats(m) : (tfcc_wcache_stats){0};
  CHECKF(!blocks || (st.rejected && st.hits == 0 && st.written > 0),
         "%s at %s: update to B: rejected %d, %u hits, %u written", pc->file, cap, (int)st.rejected,
         st.hits, st.written);
  CHECKF(m && same(m, ref_b, nb), "%s at %s: update to B with a cache: output differs", pc->file,
         cap);
  tfcc_model_release(m);
  CHECK(want_block ? blocks_in(cache, pc->block) > 0 : blocks_in(cache, pc->block) == 0);
  m = load(rt, pb, cache, pc);
  st = m ? cur_stats(m) : (tfcc_wcache_stats){0};
  CHECKF(!blocks || (st.hits > 0 && st.misses == 0 && !st.rejected),
         "%s at %s: load of B with the update's cache: %u hits %u misses", pc->file, cap, st.hits,
         st.misses);
  CHECKF(m && same(m, ref_b, nb), "%s at %s: load of B with its cache: output differs", pc->file,
         cap);
  tfcc_model_release(m);
done:
  tfcc_runtime_destroy(rt);
  free(a), free(b), free(ref_a), free(ref_b);
}

int main(void) {
  snprintf(g_dir, sizeof g_dir, "/tmp/tfcc_uppacked_XXXXXX");
  if (!mkdtemp(g_dir)) return 1;
  static const pcase cases[] = {
      /* REFERENCE mode: the builtin-order convolutions (1x8 over 1 channel, 3x3 stride 2) */
      {"hybrid_net_conv_eigen_builtin.tflite", TFCC_QUANT_COMPAT_REFERENCE, TFCC_BLOCK_EIGEN_CONV,
       false, false, false},
      /* TFLITE mode: the FC-order 1x1 CONV_2D (20 outputs: a 4-unit last block, K 33) */
      {"hybrid_probe_conv1_o20_i33.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_XNN_FC_TAIL, true,
       false, false},
      /* TFLITE mode: FULLY_CONNECTED of 17 units (a 1-unit last block) */
      {"hybrid_net_fc_f32w_u17.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_XNN_FC_TAIL, true,
       false, false},
      /* REFERENCE mode: builtin-order FULLY_CONNECTEDs of constant weights (4 and 2 rows) */
      {"hybrid_net_dyn_fc_f32_builtin.tflite", TFCC_QUANT_COMPAT_REFERENCE, TFCC_BLOCK_FC_EIGEN,
       false, false, false},
      /* cache54: 16x8 CONV_2D on q16-gemm (int16 input, int8 filter; int32 bias) */
      {"conv_2d_i16_3x3_same.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q16_GEMM, false, true,
       false},
      {"conv_2d_i16_bias32.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q16_GEMM, false, true,
       false},
      /* cache54: constant float32 BATCH_MATMUL rhs packed for the f32 GEMM (two rhs batches; a
       * broadcast adj_y one) */
      {"batch_matmul_f32_const_rhs.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_BMM_F32_GEMM,
       false, false, false},
      {"batch_matmul_f32_const_rhs_bcast_adj_y.tflite", TFCC_QUANT_COMPAT_TFLITE,
       TFCC_BLOCK_BMM_F32_GEMM, false, false, false},
      /* cache54: the adj_y rhs of a hybrid model's float BATCH_MATMUL transposed for the
       * XNNPACK-order path (TFLITE mode) */
      {"hybrid_net_bmm_const_rhs_fc_adj_y.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_BMM_F32_T,
       false, false, false},
      /* cache54: hybrid GEMM ops' q8 packing and column sums (TFCC_BLOCK_HYB_Q8): CONV_2D (qd8),
       * a grouped one (the filter spread at a cold load only), FULLY_CONNECTED (REFERENCE mode,
       * asymmetric), BATCH_MATMUL (the rhs transposed at a cold load only) */
      {"conv_2d_hybrid_pc_3x3_same_relu.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_HYB_Q8, false,
       true, false},
      {"conv_2d_hybrid_grouped_pc_g4.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_HYB_Q8, false,
       true, false},
      {"fully_connected_hybrid_pt_asym.tflite", TFCC_QUANT_COMPAT_REFERENCE, TFCC_BLOCK_HYB_Q8,
       false, true, false},
      {"batch_matmul_hybrid_pt.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_HYB_Q8, false, true,
       false},
      /* cache55: a hybrid DEPTHWISE_CONV_2D's row-kernel packing (TFCC_BLOCK_HYB_DW, where the
       * q8 depthwise has a row kernel: AVX512-VNNI), per-channel, both arithmetics */
      {"depthwise_conv_2d_hybrid_pc_3x3_same.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_HYB_DW,
       false, true, true},
      {"depthwise_conv_2d_hybrid_pc_half_steps.tflite", TFCC_QUANT_COMPAT_REFERENCE,
       TFCC_BLOCK_HYB_DW, false, true, true},
      /* cache56: the float LSTM plan (time-major, peephole, projection, clips, odd sizes; CIFG
       * with 70 cells; the one-step LSTM builtin) */
      {"unidirectional_sequence_lstm_f32_wide_tm.tflite", TFCC_QUANT_COMPAT_TFLITE,
       TFCC_BLOCK_F32_LSTM, false, false, false},
      {"unidirectional_sequence_lstm_f32_wide_cifg.tflite", TFCC_QUANT_COMPAT_TFLITE,
       TFCC_BLOCK_F32_LSTM, false, false, false},
      {"lstm_f32_peephole_proj_clip.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_F32_LSTM, false,
       false, false},
      /* cache56: the integer LSTM plan (projection, time-major; peephole, projection and clips
       * of the LSTM builtin; CIFG) */
      {"unidirectional_sequence_lstm_i8_proj_tm.tflite", TFCC_QUANT_COMPAT_TFLITE,
       TFCC_BLOCK_Q8_LSTM, false, true, false},
      {"lstm_i8_peephole_proj_clip.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q8_LSTM, false,
       true, false},
      {"lstm_i8_cifg_peephole.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q8_LSTM, false, true,
       false},
      /* cache56: the 16x8 FULLY_CONNECTED's q16-gemm packing (3 batches: packed at init) */
      {"fully_connected_i16_2d.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q16_GEMM, false, true,
       false},
      {"fully_connected_i16_bias32.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q16_GEMM, false,
       true, false},
      /* cache56: tiny int8 FULLY_CONNECTED layers' q8-fc-small packing (TFLITE mode; REFERENCE
       * mode without a bias; per-channel) */
      {"fully_connected_i8_2d.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q8_FC_SMALL, false,
       true, false},
      {"fully_connected_i8_no_bias.tflite", TFCC_QUANT_COMPAT_REFERENCE, TFCC_BLOCK_Q8_FC_SMALL,
       false, true, false},
      {"fully_connected_i8_per_channel.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q8_FC_SMALL,
       false, true, false},
      /* cache56: hybrid models' XNNPACK-order float packings: a CONV_2D's IGEMM filter, a
       * DEPTHWISE_CONV_2D of one input channel (multiplier 8) packed so (TFCC_BLOCK_XNN_CONV),
       * and an FC-order 1x1 CONV_2D's panels (TFCC_BLOCK_XNN_FC) */
      {"hybrid_net_conv_nr2_conv.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_XNN_CONV, false,
       false, false},
      {"hybrid_net_dw_mult8_conv.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_XNN_CONV, false,
       false, false},
      {"hybrid_probe_conv1_o12_i12.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_XNN_FC, false,
       false, false},
      /* cache57: a hybrid DEPTHWISE_CONV_2D's filter widened to int32 (TFCC_BLOCK_HYB_DW32):
       * depth multiplier 1 where the row kernel does not run (dw_rows: no block where it does),
       * and multiplier 2 (every cap) */
      {"depthwise_conv_2d_hybrid_pc_3x3_same.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_HYB_DW32,
       false, true, true},
      {"depthwise_conv_2d_hybrid_pc_3x3_valid_m2_s2.tflite", TFCC_QUANT_COMPAT_REFERENCE,
       TFCC_BLOCK_HYB_DW32, false, true, false},
      /* cache57: precision bf16: CONV_2D and FULLY_CONNECTED weights packed for the bf16 GEMM
       * (TFCC_BLOCK_BF16_GEMM, where a bf16 kernel runs: avx512 with AVX512-BF16) */
      {"conv_2d_f32_3x3_same.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_BF16_GEMM, false, false,
       false},
      {"fully_connected_f32_2d.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_BF16_GEMM, false,
       false, false},
      /* cache58: per-channel requantization tables: an int8 CONV_2D in XNNPACK's arithmetic
       * (scales in the block) and in the builtin one with a negative channel scale, a 16x8
       * FULLY_CONNECTED per channel, an int16 x int8 BATCH_MATMUL per column */
      {"conv_2d_i8_3x3_same.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_REQUANT, false, true,
       false},
      {"conv_2d_i8_neg_channel_scale.tflite", TFCC_QUANT_COMPAT_REFERENCE, TFCC_BLOCK_REQUANT,
       false, true, false},
      {"fully_connected_i16_bias32.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_REQUANT, false,
       true, false},
      {"batch_matmul_i16_i8w_pc.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_REQUANT, false, true,
       false},
      /* cache58: the fused int8 expand + depthwise pairs of MobileNetV1 (the depthwise's set) */
      {"shared:person_detect_int8.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_REQUANT_DW, false,
       true, false},
      /* cache58: the 16x8 DEPTHWISE_CONV_2D's q16-dwconv packing, and its tables */
      {"depthwise_conv_2d_i16_3x3_same_m1.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_Q16_DW,
       false, true, false},
      {"depthwise_conv_2d_i16_3x3_same_m1.tflite", TFCC_QUANT_COMPAT_TFLITE, TFCC_BLOCK_REQUANT,
       false, true, false}};
  const char *caps[] = {"generic", "sse4", "avx2", "avx512"};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) test_case(&cases[c], caps[i]);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
  return tfcc_test_finish("test_update_packed");
}
