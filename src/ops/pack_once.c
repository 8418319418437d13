/* Once-only packing guard; the contract is in pack_once.h. */
#include "ops/pack_once.h"

void tfcc_pack_once_init(tfcc_pack_once *o) {
  atomic_init(&o->state, 0);
  o->src = NULL;
  o->mu_ok = pthread_mutex_init(&o->mu, NULL) == 0;
}

void tfcc_pack_once_destroy(tfcc_pack_once *o) {
  if (o->mu_ok) pthread_mutex_destroy(&o->mu);
  o->mu_ok = false;
}

bool tfcc_pack_once_begin(tfcc_pack_once *o) {
  if (!o->mu_ok) return false;
  pthread_mutex_lock(&o->mu);
  if (atomic_load(&o->state) == 0) return true;
  pthread_mutex_unlock(&o->mu);
  return false;
}

void tfcc_pack_once_end(tfcc_pack_once *o, const void *src, bool packed) {
  if (packed) {
    o->src = src;
    atomic_store_explicit(&o->state, 1, memory_order_release);
  } else {
    atomic_store(&o->state, 2);
  }
  pthread_mutex_unlock(&o->mu);
}
