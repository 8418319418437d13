/* Memory for decrypted models: one private anonymous mapping per plaintext, transparent huge
 * pages where the kernel offers them (few page faults, few TLB entries), excluded from core
 * dumps (plaintext never reaches disk that way either), wiped before it is unmapped. */
#ifndef TFCC_CRYPTO_PLAIN_MEM_H
#define TFCC_CRYPTO_PLAIN_MEM_H

#include <stddef.h>

/* A zero-filled, page aligned (2 MiB aligned when >= 2 MiB), writable region of at least
 * size bytes (size may be 0); NULL when out of memory. */
void *tfcc_plain_alloc(size_t size);
/* Wipes size bytes and unmaps; p from tfcc_plain_alloc(size) or NULL. */
void tfcc_plain_free(void *p, size_t size);

#endif
