/* UNIDIRECTIONAL_SEQUENCE_LSTM through the operator (init -> prepare -> eval -> release, as a
 * session runs it): with constant weights the first prepare builds the fast plan and eval runs
 * it; the result must equal the operator run without init (the reference kernel) byte for byte
 * (int8x8->16) or within float rounding, at every ISA level this CPU has, in both quant modes,
 * twice in a row (state carried over), and with weights that are not constant (reference
 * fallback). The kernel the operator reports is checked too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "fb_test_builder.h"
#include "format/tflite_options.h"
#include "ops/op.h"
#include "test_harness.h"

/* The node's options from a hand-built options table, read as the model loader reads them. */
static tfcc_status read_opts(tfcc_ir_node *node, uint8_t type, tfcc_fb_table t, tfcc_err *err) {
  return tfl_read_options(node->builtin, type, &t, &node->opts, err);
}

static uint32_t rng = 2024u;
static int32_t rndi(int32_t lo, int32_t hi) {
  rng = rng * 1664525u + 1013904223u;
  return lo + (int32_t)((rng >> 8) % (uint32_t)(hi - lo + 1));
}

typedef struct qstore {
  tfcc_quant q;
  float s;
  int32_t z;
} qstore;

static const tfcc_quant k_noq = {0, 0, NULL, NULL};

typedef struct op_case {
  bool is_int, cifg, peep, proj, time_major;
  int32_t nb, nt, ni, nc, no;
} op_case;

/* Everything one configuration needs; tensors point into the arrays. */
typedef struct world {
  tfcc_tensor t[24], out, tmp[5];
  tfcc_tensor *in[24], *tmpp[5];
  qstore qx, qw, qh, qc, qp, qhid;
  void *data[24];
  void *y;
  uint8_t opt[256];
  tfcc_ir_node node;
} world;

static void *rnd_data(tfcc_dtype dt, size_t n) {
  size_t es = tfcc_dtype_size(dt);
  void *p = malloc(es * n + 16);
  for (size_t i = 0; i < n; i++) {
    if (dt == TFCC_FLOAT32)
      ((float *)p)[i] = (float)rndi(-1000, 1000) / 1500.f;
    else if (dt == TFCC_INT8)
      ((int8_t *)p)[i] = (int8_t)rndi(-127, 127);
    else if (dt == TFCC_INT16)
      ((int16_t *)p)[i] = (int16_t)rndi(-12000, 12000);
    else if (dt == TFCC_INT32)
      ((int32_t *)p)[i] = rndi(-30000, 30000);
  }
  return p;
}

static const tfcc_quant *mkq(qstore *q, float s, int32_t z) {
  q->s = s;
  q->z = z;
  q->q.count = 1;
  q->q.axis = 0;
  q->q.scale = &q->s;
  q->q.zero_point = &q->z;
  return &q->q;
}

static void mk(world *w, int idx, tfcc_dtype dt, int rank, int d0, int d1, int d2,
               const tfcc_quant *q, bool is_const) {
  tfcc_tensor *t = &w->t[idx];
  memset(t, 0, sizeof *t);
  t->dtype = dt;
  t->rank = rank;
  t->dims[0] = d0;
  t->dims[1] = d1;
  t->dims[2] = d2;
  size_t n = (size_t)d0 * (rank > 1 ? d1 : 1) * (rank > 2 ? d2 : 1);
  t->data = w->data[idx] = rnd_data(dt, n);
  t->bytes = n * tfcc_dtype_size(dt);
  t->quant = q ? q : &k_noq;
  t->is_const = t->known = is_const;
  w->in[idx] = t;
}

static void build(world *w, const op_case *c, bool consts) {
  memset(w, 0, sizeof *w);
  const tfcc_dtype wdt = c->is_int ? TFCC_INT8 : TFCC_FLOAT32,
                   bdt = c->is_int ? TFCC_INT32 : TFCC_FLOAT32;
  const bool q = c->is_int;
  int d0 = c->time_major ? c->nt : c->nb, d1 = c->time_major ? c->nb : c->nt;
  mk(w, 0, wdt, 3, d0, d1, c->ni, q ? mkq(&w->qx, 0.02f, -3) : NULL, false);
  for (int g = 0; g < 4; g++) {
    if (g == 0 && c->cifg) continue;
    mk(w, 1 + g, wdt, 2, c->nc, c->ni, 0, q ? mkq(&w->qw, 0.004f, 0) : NULL, consts);
    mk(w, 5 + g, wdt, 2, c->nc, c->no, 0, q ? &w->qw.q : NULL, consts);
    mk(w, 12 + g, bdt, 1, c->nc, 0, 0, NULL, consts);
    if (c->peep && g != 2)
      mk(w, 9 + (g == 3 ? 2 : g), q ? TFCC_INT16 : TFCC_FLOAT32, 1, c->nc, 0, 0,
         q ? mkq(&w->qp, 0.5f / 32767, 0) : NULL, consts);
  }
  if (c->proj) {
    mk(w, 16, wdt, 2, c->no, c->nc, 0, q ? &w->qw.q : NULL, consts);
    mk(w, 17, bdt, 1, c->no, 0, 0, NULL, consts);
  }
  mk(w, 18, wdt, 2, c->nb, c->no, 0, q ? mkq(&w->qh, 1.f / 128, 2) : NULL, false);
  mk(w, 19, q ? TFCC_INT16 : TFCC_FLOAT32, 2, c->nb, c->nc, 0,
     q ? mkq(&w->qc, 1.f / 2048, 0) : NULL, false);
  w->t[18].is_variable = w->t[19].is_variable = true;
  memset(&w->out, 0, sizeof w->out);
  w->out.dtype = wdt;
  w->out.quant = q ? &w->qh.q : &k_noq;
  w->y = malloc(tfcc_dtype_size(wdt) * (size_t)c->nb * c->nt * c->no + 16);
  w->out.data = w->y;
  for (int i = 0; i < 5; i++) {
    memset(&w->tmp[i], 0, sizeof w->tmp[i]);
    w->tmp[i].dtype = TFCC_INT16;
    w->tmp[i].quant = q ? &w->qc.q : &k_noq;
    w->tmpp[i] = &w->tmp[i];
  }
  w->tmp[4].dtype = TFCC_INT8;
  w->tmp[4].quant = q ? mkq(&w->qhid, 1.f / 128, -2) : &k_noq;
  tfb_field f[4] = {{.field = 0, .kind = TFB_U8, .i = 4},
                    {.field = 1, .kind = TFB_F32, .f = 0.f},
                    {.field = 2, .kind = TFB_F32, .f = 0.f},
                    {.field = 3, .kind = TFB_U8, .i = c->time_major}};
  w->node.builtin = TFCC_OP_UNIDIRECTIONAL_SEQUENCE_LSTM;
  tfcc_err err = {0};
  tfcc_status st = read_opts(&w->node, 0, tfb_build(w->opt, sizeof w->opt, f, 4), &err);
  CHECKF(st == TFCC_OK, "LSTM options: %s", err.msg);
}

static void drop(world *w) {
  for (int i = 0; i < 24; i++) free(w->data[i]);
  free(w->y);
}

/* One op run (twice, the state carrying over); init when with_init. Output, h, c in *res. */
static tfcc_status run(world *w, const op_case *c, bool with_init, tfcc_isa isa, int quant_compat,
                       const char **kernel, uint8_t *res, size_t *res_n) {
  const tfcc_op_def *def = tfcc_op_lookup(TFCC_OP_UNIDIRECTIONAL_SEQUENCE_LSTM);
  tfcc_err err = {0};
  void *params = NULL;
  tfcc_status st = TFCC_OK;
  if (with_init && def->init) {
    tfcc_init_ctx ic;
    memset(&ic, 0, sizeof ic);
    ic.node = &w->node;
    ic.err = &err;
    ic.isa = isa;
    ic.ks = tfcc_kernel_set_for(isa);
    ic.quant_compat = quant_compat;
    st = def->init(&ic);
    params = ic.params;
  }
  tfcc_tensor *outs[1] = {&w->out};
  tfcc_op_ctx ctx = {.node = &w->node,
                     .params = params,
                     .in = w->in,
                     .n_in = 24,
                     .out = outs,
                     .n_out = 1,
                     .tmp = c->is_int ? w->tmpp : NULL,
                     .n_tmp = c->is_int ? 5 : 0,
                     .err = &err,
                     .isa = isa,
                     .ks = tfcc_kernel_set_for(isa)};
  size_t off = 0;
  for (int r = 0; r < 2 && st == TFCC_OK; r++) {
    st = def->prepare(&ctx);
    if (st != TFCC_OK) break;
    *kernel = def->kernel ? def->kernel(&ctx) : "ref";
    void *scratch = aligned_alloc(64, (ctx.scratch_bytes + 64) & ~(size_t)63);
    memset(scratch, 0x5A, ctx.scratch_bytes);
    ctx.scratch = scratch;
    st = def->eval(&ctx);
    free(scratch);
    const size_t es = c->is_int ? 1 : 4;
    const size_t ny = (size_t)c->nb * c->nt * c->no * es;
    memcpy(res + off, w->y, ny);
    off += ny;
  }
  memcpy(res + off, w->t[18].data, w->t[18].bytes);
  off += w->t[18].bytes;
  memcpy(res + off, w->t[19].data, w->t[19].bytes);
  off += w->t[19].bytes;
  *res_n = off;
  if (st != TFCC_OK) fprintf(stderr, "lstm op: %s\n", err.msg);
  if (params) def->release ? def->release(params) : free(params);
  return st;
}

static void check_case(const op_case *c) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  const size_t cap =
      4 * ((size_t)2 * c->nb * c->nt * c->no + (size_t)c->nb * (c->no + 2 * c->nc)) + 64;
  uint8_t *want = malloc(cap), *got = malloc(cap);
  for (int consts = 0; consts < 2; consts++)
    for (int isa = 0; isa < TFCC_ISA_COUNT_; isa++) {
      if (!tfcc_isa_level_fits((tfcc_isa)isa, best)) continue;
      for (int qc = 0; qc < 2; qc++) {
        world w;
        rng = 99u + (uint32_t)(c->nc * 7 + c->ni);
        build(&w, c, consts);
        /* Saved state: both runs start from the same h and c. */
        void *h0 = malloc(w.t[18].bytes), *c0 = malloc(w.t[19].bytes);
        memcpy(h0, w.t[18].data, w.t[18].bytes);
        memcpy(c0, w.t[19].data, w.t[19].bytes);
        const char *kref = NULL, *kfast = NULL;
        size_t nw = 0, ng = 0;
        CHECK(run(&w, c, false, (tfcc_isa)isa, qc, &kref, want, &nw) == TFCC_OK);
        memcpy(w.t[18].data, h0, w.t[18].bytes);
        memcpy(w.t[19].data, c0, w.t[19].bytes);
        CHECK(run(&w, c, true, (tfcc_isa)isa, qc, &kfast, got, &ng) == TFCC_OK);
        CHECK(nw == ng);
        CHECKF(strcmp(kref, "ref") == 0, "without init: kernel %s", kref);
        /* The int8 fast path needs a SIMD variant; the float one runs at every level. */
        const bool fast = consts == 1 && (!c->is_int || isa != TFCC_ISA_GENERIC);
        CHECKF((strcmp(kfast, "ref") != 0) == fast, "consts %d isa %s: kernel %s", consts,
               tfcc_isa_name((tfcc_isa)isa), kfast);
        if (c->is_int) {
          CHECKF(memcmp(want, got, nw) == 0,
                 "int8 lstm isa %s qc %d consts %d nc %d: fast != reference",
                 tfcc_isa_name((tfcc_isa)isa), qc, consts, (int)c->nc);
        } else {
          /* a plain loop: gcc 12's aarch64 vectorizer fails on an fmax reduction here */
          double worst = 0;
          for (size_t i = 0; i < nw / 4; i++) {
            const double d = fabs((double)((float *)want)[i] - ((float *)got)[i]);
            if (d > worst) worst = d;
          }
          CHECKF(worst < 2e-5, "float lstm isa %s consts %d nc %d: max diff %g",
                 tfcc_isa_name((tfcc_isa)isa), consts, (int)c->nc, worst);
        }
        free(h0), free(c0);
        drop(&w);
      }
    }
  free(want), free(got);
}

int main(void) {
  static const op_case cases[] = {
      {true, false, false, false, false, 1, 28, 28, 20, 20},
      {true, true, true, true, true, 2, 5, 7, 19, 11},
      {true, false, true, false, false, 3, 4, 33, 37, 37},
      {false, false, false, false, false, 1, 28, 28, 20, 20},
      {false, true, true, true, true, 2, 40, 7, 19, 11},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
  return tfcc_test_finish("lstm_op_fast");
}
