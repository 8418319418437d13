#include "ops/q8_fast.h"

#include <stdint.h>
#include <string.h>

void tfcc_q8_fast_init(tfcc_q8_fast *f) {
  memset(f, 0, sizeof *f);
  tfcc_pack_once_init(&f->once);
  atomic_init(&f->logged, false);
}

void tfcc_q8_fast_free(tfcc_q8_fast *f) {
  if (!f) return;
  if (!f->borrowed) tfcc_q8_packed_free(&f->packed);
  f->borrowed = false;
  tfcc_q8_dw_packed_free(&f->dw); /* an adopted block (the weights cache's) is not freed */
  tfcc_pack_once_destroy(&f->once);
}

static bool const_data(const tfcc_tensor *t) { return (t->is_const || t->known) && t->data; }

const char *tfcc_q8_fast_refuse(const tfcc_tensor *in, const tfcc_tensor *w,
                                const tfcc_tensor *bias, const tfcc_conv_requant *r) {
  if (in->dtype != TFCC_INT8 && in->dtype != TFCC_UINT8) return "not an 8-bit node";
  if (w->dtype != in->dtype) return "weights dtype differs from the input's";
  if (!const_data(w) || (bias && (bias->dtype != TFCC_INT32 || !const_data(bias))))
    return "weights or bias are not constant";
  if (r->single_round) return "ruy's single-rounding requantization (reference kernel)";
  const int32_t zp = -r->input_offset;
  if (in->dtype == TFCC_INT8 ? (zp < -128 || zp > 127) : (zp < 0 || zp > 255))
    return "input zero point outside the storage type";
  return NULL;
}

const tfcc_q8_packed *tfcc_q8_fast_pack(tfcc_q8_fast *f, tfcc_isa isa, struct tfcc_threadpool *pool,
                                        bool is_signed, int64_t rows, int32_t n, int32_t kdim,
                                        const void *src, const int32_t *bias,
                                        const tfcc_conv_requant *r) {
  if (!tfcc_q8_fast_get(f, src) && tfcc_pack_once_begin(&f->once)) {
    const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_select_for(isa, rows, kdim, n);
    const size_t bytes = tfcc_q8_pack_layout(k, is_signed, n, kdim, r, &f->packed);
    const void *hit = bytes ? tfcc_packed_get(&f->key, bytes) : NULL;
    if (hit) f->packed.w = (uint8_t *)(uintptr_t)hit; /* read only: kernels never write it */
    bool ok = hit || tfcc_q8_pack_pool(pool, k, is_signed, n, kdim, src, bias, r, &f->packed);
    if (!hit && ok) tfcc_packed_put(&f->key, f->packed.w, bytes);
    f->borrowed = hit != NULL;
    tfcc_pack_once_end(&f->once, src, ok);
  }
  return tfcc_q8_fast_get(f, src);
}

/* The depthwise packing is one self-describing block whose size follows from the shapes
 * (kernels/q8-dwconv/dwconv.h): taken from the weights cache as it is, with no packing and
 * without reading the filter, or packed and offered to it. */
const tfcc_q8_dw_packed *tfcc_q8_fast_pack_dw(tfcc_q8_fast *f, tfcc_isa isa, bool is_signed,
                                              int32_t c, int32_t fh, int32_t fw, const void *src,
                                              const int32_t *bias, const tfcc_conv_requant *r) {
  if (!tfcc_q8_fast_get_dw(f, src) && tfcc_pack_once_begin(&f->once)) {
    const tfcc_q8_dw_kernel *k = tfcc_q8_dw_select(isa);
    const size_t bytes = tfcc_q8_dw_block_bytes(k, is_signed, c, fh, fw, r);
    const void *hit = bytes ? tfcc_packed_get(&f->key, bytes) : NULL;
    bool ok = hit && tfcc_q8_dw_adopt(k, is_signed, c, fh, fw, r, hit, bytes, &f->dw);
    /* a block the header refuses (a cache of another build's layout): packed here and used,
     * not offered (the cache already holds the node's block) */
    if (!ok) ok = tfcc_q8_dw_pack(k, is_signed, c, fh, fw, src, bias, r, &f->dw);
    if (ok && !hit) tfcc_packed_put(&f->key, tfcc_q8_dw_block(&f->dw), f->dw.block_bytes);
    tfcc_pack_once_end(&f->once, src, ok);
  }
  return tfcc_q8_fast_get_dw(f, src);
}
