/* SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, DEPTH_TO_SPACE and SPACE_TO_DEPTH as kernels/move copies,
 * byte for byte against their references, on random shapes:
 *  - the kernels tfcc_move_space_to_batch / tfcc_move_batch_to_space against
 *    tfcc_ref_space_to_batch / tfcc_ref_batch_to_space: blocks 1..4, paddings / crops 0..5 per
 *    side (crops past whole rows too), batch 0..3, channels 1..9, element sizes 1, 2, 3, 4, 8,
 *    the bytes past the output untouched;
 *  - the operators through tfcc's op code (rank 3 and 4, float32 / int8 / int16 / int64 with a
 *    zero point for the padding) against the reference kernels' results;
 *  - DEPTH_TO_SPACE / SPACE_TO_DEPTH operators against their definition written as loops. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/move/space_batch.h"
#include "kernels/ref/pad.h"
#include "shape_test_util.h"
#include "test_harness.h"

static uint32_t rng = 777u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t irand(int32_t lo, int32_t hi) {
  return lo + (int32_t)(urand() % (uint32_t)(hi - lo + 1));
}
static void randomize(uint8_t *buf, size_t n) {
  for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)urand();
}

static const size_t k_sizes[] = {1, 2, 3, 4, 8};

static void test_kernels(void) {
  for (int k = 0; k < 4000; k++) {
    const size_t es = k_sizes[k % 5];
    const int32_t bh = irand(1, 4), bw = irand(1, 4),
                  B = irand(0, 3) == 0 ? irand(0, 1) : irand(1, 3);
    const int32_t C = irand(1, 9);
    /* space_to_batch: space [B, H, W, C], pads so that H + pads divides by bh */
    int32_t H = irand(0, 12), W = irand(0, 12);
    int32_t top = irand(0, 5), left = irand(0, 5);
    int32_t bot = irand(0, 5), right = irand(0, 5);
    while ((H + top + bot) % bh) bot++;
    while ((W + left + right) % bw) right++;
    const int32_t sp[4] = {B, H, W, C};
    const int32_t bt[4] = {B * bh * bw, (H + top + bot) / bh, (W + left + right) / bw, C};
    const size_t sn = (size_t)B * H * W * C * es, bn = (size_t)bt[0] * bt[1] * bt[2] * C * es;
    uint8_t *x = malloc(sn + 1), *a = malloc(bn + 16), *b = malloc(bn + 16);
    randomize(x, sn);
    const uint8_t pad = (uint8_t)urand();
    memset(a, 0x5a, bn + 16);
    memset(b, 0x5a, bn + 16);
    tfcc_ref_space_to_batch(x, sp, bt, bh, bw, top, left, pad, es, a);
    tfcc_move_space_to_batch(x, sp, bt, bh, bw, top, left, pad, es, b);
    CHECKF(memcmp(a, b, bn + 16) == 0,
           "SPACE_TO_BATCH space [%d %d %d %d] block %dx%d pads %d/%d/%d/%d es %zu differs", B, H,
           W, C, bh, bw, top, bot, left, right, es);
    /* batch_to_space of a random batched tensor: crops up to the whole padded extent */
    const int32_t th = irand(0, 6), tw = irand(0, 6);
    const int32_t ct = irand(0, 5), cl = irand(0, 5);
    const int32_t ch = th * bh - ct - irand(0, 5), cw = tw * bw - cl - irand(0, 5);
    if (ch >= 0 && cw >= 0) {
      const int32_t bi[4] = {B * bh * bw, th, tw, C};
      const int32_t so[4] = {B, ch, cw, C};
      const size_t in_n = (size_t)bi[0] * th * tw * C * es, on = (size_t)B * ch * cw * C * es;
      uint8_t *y = malloc(in_n + 1), *c = malloc(on + 16), *d = malloc(on + 16);
      randomize(y, in_n);
      memset(c, 0x33, on + 16);
      memset(d, 0x33, on + 16);
      tfcc_ref_batch_to_space(y, bi, so, bh, bw, ct, cl, es, c);
      tfcc_move_batch_to_space(y, bi, so, bh, bw, ct, cl, es, d);
      CHECKF(
          memcmp(c, d, on + 16) == 0,
          "BATCH_TO_SPACE batched [%d %d %d %d] block %dx%d crop top %d left %d -> [%d %d] es %zu "
          "differs",
          bi[0], th, tw, C, bh, bw, ct, cl, ch, cw, es);
      free(y);
      free(c);
      free(d);
    }
    free(x);
    free(a);
    free(b);
  }
}

static uint8_t opt_buf[256];
static char msg[256];

static void test_space_batch_ops(void) {
  static const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_INT8, TFCC_INT16, TFCC_INT64};
  for (int k = 0; k < 400; k++) {
    const tfcc_dtype dt = dts[k % 4];
    const size_t es = tfcc_dtype_size(dt);
    const bool rank3 = k % 3 == 0;
    const int32_t m = rank3 ? 1 : 2;
    const int32_t B = irand(1, 2), H = irand(1, 10), W = rank3 ? 1 : irand(1, 10), C = irand(1, 6);
    int32_t block[2] = {irand(1, 3), rank3 ? 1 : irand(1, 3)};
    int32_t pads[4] = {irand(0, 3), irand(0, 3), rank3 ? 0 : irand(0, 3), rank3 ? 0 : irand(0, 3)};
    while ((H + pads[0] + pads[1]) % block[0]) pads[1]++;
    while ((W + pads[2] + pads[3]) % block[1]) pads[3]++;
    const int32_t sp[4] = {B, H, W, C};
    const int32_t bt[4] = {B * block[0] * block[1], (H + pads[0] + pads[1]) / block[0],
                           (W + pads[2] + pads[3]) / block[1], C};
    const size_t sn = (size_t)B * H * W * C * es, bn = (size_t)bt[0] * bt[1] * bt[2] * C * es;
    uint8_t *x = malloc(sn), *want = malloc(bn), *back = malloc(sn);
    randomize(x, sn);
    oh_qparam qi, qo;
    const int32_t zp = dt == TFCC_INT8 ? irand(-128, 127) : 0;
    tfcc_ref_space_to_batch(x, sp, bt, block[0], block[1], pads[0], pads[2], (uint8_t)zp, es, want);
    const int32_t sdims3[3] = {B, H, C}, sdims4[4] = {B, H, W, C};
    tfcc_tensor ti = st_tensor(dt, m + 2, rank3 ? sdims3 : sdims4, x);
    ti.known = ti.is_const = false;
    tfcc_tensor tb = st_tensor(TFCC_INT32, 1, (int32_t[]){m}, block);
    int32_t pairs[4] = {pads[0], pads[1], pads[2], pads[3]};
    tfcc_tensor tp = st_tensor(TFCC_INT32, 2, (int32_t[]){m, 2}, pairs);
    tfcc_tensor o = st_output(dt);
    if (dt == TFCC_INT8) {
      st_quant(&ti, &qi, 0.5f, zp);
      st_quant(&o, &qo, 0.5f, zp);
    }
    tfcc_tensor *in[] = {&ti, &tb, &tp}, *out[] = {&o};
    tfcc_fb_table none = {0};
    CHECKF(st_run(TFCC_OP_SPACE_TO_BATCH_ND, none, in, 3, out, 1, msg, sizeof msg) == TFCC_OK, "%s",
           msg);
    CHECKF(o.bytes == bn && memcmp(o.data, want, bn) == 0,
           "SPACE_TO_BATCH_ND rank %d dtype %d [%d %d %d %d] block %dx%d differs", (int)(m + 2),
           (int)dt, B, H, W, C, block[0], block[1]);
    /* and back: BATCH_TO_SPACE_ND with the paddings as crops gives the input */
    tfcc_tensor tbt = o;
    tbt.known = tbt.is_const = false;
    tfcc_tensor o2 = st_output(dt);
    if (dt == TFCC_INT8) st_quant(&o2, &qo, 0.5f, zp);
    tfcc_tensor *in2[] = {&tbt, &tb, &tp}, *out2[] = {&o2};
    CHECKF(st_run(TFCC_OP_BATCH_TO_SPACE_ND, none, in2, 3, out2, 1, msg, sizeof msg) == TFCC_OK,
           "%s", msg);
    tfcc_ref_batch_to_space(o.data, bt, sp, block[0], block[1], pads[0], pads[2], es, back);
    CHECKF(o2.bytes == sn && memcmp(o2.data, back, sn) == 0 && memcmp(back, x, sn) == 0,
           "BATCH_TO_SPACE_ND rank %d dtype %d [%d %d %d %d] block %dx%d differs", (int)(m + 2),
           (int)dt, B, H, W, C, block[0], block[1]);
    st_free(&o);
    st_free(&o2);
    st_free(&ti);
    st_free(&tb);
    st_free(&tp);
    free(x);
    free(want);
    free(back);
  }
}

static void test_depth_space_ops(void) {
  static const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_INT8, TFCC_INT16, TFCC_INT64, TFCC_UINT8};
  for (int k = 0; k < 500; k++) {
    const tfcc_dtype dt = dts[k % 5];
    const size_t es = tfcc_dtype_size(dt);
    const int32_t bs = irand(1, 4), B = irand(1, 2), H = irand(1, 7), W = irand(1, 7);
    const int32_t Co = irand(1, 9), C = Co * bs * bs;
    const size_t n = (size_t)B * H * W * C * es;
    uint8_t *x = malloc(n), *want = malloc(n);
    randomize(x, n);
    /* DEPTH_TO_SPACE: out[b, h*bs+i, w*bs+j, c] = in[b, h, w, (i*bs + j)*Co + c] */
    const int32_t OH = H * bs, OW = W * bs;
    for (int32_t b = 0; b < B; b++)
      for (int32_t y = 0; y < OH; y++)
        for (int32_t xx = 0; xx < OW; xx++)
          for (int32_t c = 0; c < Co; c++) {
            const size_t o = (((size_t)b * OH + y) * OW + xx) * Co + c;
            const size_t i =
                (((size_t)b * H + y / bs) * W + xx / bs) * C + ((y % bs) * bs + xx % bs) * Co + c;
            memcpy(want + o * es, x + i * es, es);
          }
    tfcc_tensor ti = st_tensor(dt, 4, (int32_t[]){B, H, W, C}, x);
    ti.known = ti.is_const = false;
    tfcc_tensor o = st_output(dt);
    tfcc_tensor *in[] = {&ti}, *out[] = {&o};
    tfb_field f[] = {{.field = 0, .kind = TFB_I32, .i = bs}};
    tfcc_fb_table t = tfb_build(opt_buf, sizeof opt_buf, f, 1);
    CHECKF(st_run(TFCC_OP_DEPTH_TO_SPACE, t, in, 1, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
    CHECKF(o.bytes == n && memcmp(o.data, want, n) == 0,
           "DEPTH_TO_SPACE dtype %d [%d %d %d %d] block %d differs", (int)dt, B, H, W, C, bs);
    /* SPACE_TO_DEPTH of that output is the input again (its definition is the inverse map) */
    tfcc_tensor t2 = st_tensor(dt, 4, (int32_t[]){B, OH, OW, Co}, want);
    t2.known = t2.is_const = false;
    tfcc_tensor o2 = st_output(dt);
    tfcc_tensor *in2[] = {&t2}, *out2[] = {&o2};
    CHECKF(st_run(TFCC_OP_SPACE_TO_DEPTH, t, in2, 1, out2, 1, msg, sizeof msg) == TFCC_OK, "%s",
           msg);
    CHECKF(o2.bytes == n && memcmp(o2.data, x, n) == 0,
           "SPACE_TO_DEPTH dtype %d [%d %d %d %d] block %d differs", (int)dt, B, OH, OW, Co, bs);
    st_free(&ti);
    st_free(&t2);
    st_free(&o);
    st_free(&o2);
    free(x);
    free(want);
  }
}

int main(void) {
  test_kernels();
  test_space_batch_ops();
  test_depth_space_ops();
  return tfcc_test_finish("ops.test_move_ops");
}
