/* The once-only packing guard shared by the conv-family fast paths (f32_fast.h, q8_fast.h,
 * bf16_fast.h): weights are packed at the first prepare (which model load runs) under a mutex,
 * since sessions of one model may prepare concurrently; eval reads the result without locking
 * (an acquire load of the state). Lives in the operator's model-level params. */
#ifndef TFCC_OPS_PACK_ONCE_H
#define TFCC_OPS_PACK_ONCE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct tfcc_pack_once {
  pthread_mutex_t mu;
  bool mu_ok;
  atomic_int state; /* 0 not packed, 1 packed, 2 packing failed or not possible */
  const void *src;  /* the weights the packing read */
} tfcc_pack_once;

void tfcc_pack_once_init(tfcc_pack_once *o);
void tfcc_pack_once_destroy(tfcc_pack_once *o);

/* True, with the mutex held, when the caller is the one to pack (nothing tried yet): it packs
 * and then calls tfcc_pack_once_end. False when packing was tried already (by this or another
 * session; with other weights too: constants are model-level, never repacked under a running
 * session) or there is no mutex. */
bool tfcc_pack_once_begin(tfcc_pack_once *o);
/* Records the outcome for the weights at src and releases the mutex. */
void tfcc_pack_once_end(tfcc_pack_once *o, const void *src, bool packed);

/* The packing is done, for the weights at src (eval: no locking). */
static inline bool tfcc_pack_once_ready(const tfcc_pack_once *o, const void *src) {
  return atomic_load_explicit(&((tfcc_pack_once *)o)->state, memory_order_acquire) == 1 &&
         o->src == src;
}

#endif
