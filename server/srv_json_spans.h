/* KServe v2 JSON requests without a tree for the tensors: the byte spans of
 * root."inputs"[k]."data" (keys written without escapes), and a jansson load of the rest. */
#ifndef TFCC_SERVER_SRV_JSON_SPANS_H
#define TFCC_SERVER_SRV_JSON_SPANS_H

#include <jansson.h>
#include <stddef.h>

#define SRV_JSON_SPAN_MAX_DEPTH 64 /* deeper: no spans (jansson parses the whole request) */

typedef struct srv_json_span {
  size_t off, len; /* the value's bytes in the body */
  int input;       /* index in "inputs" */
} srv_json_span;

/* Spans in body order (at most max); -1 if the structure is not what the scan follows (then
 * parse the body with jansson as a whole, which names the error). */
int srv_json_find_spans(const char *body, size_t len, srv_json_span *spans, int max);
/* json_loadb of body with each span replaced by the number 0 (JSON_REJECT_DUPLICATES). */
json_t *srv_json_load_without_spans(const char *body, size_t len, const srv_json_span *spans, int n,
                                    json_error_t *je);

#endif
