/* Tensors of an inference request and their JSON / binary codecs, independent of sessions
 * (so the fuzzer can drive them with a made-up model signature).
 *
 * KServe v2 datatypes: BOOL UINT8 UINT16 UINT32 UINT64 INT8 INT16 INT32 INT64 FP16 FP32 FP64
 * BF16; int2 / int4 tensors travel as INT8, uint4 as UINT8, float8 as UINT8 raw bytes (one value
 * per byte, as the Python binding holds them). BYTES (string tensors) is refused with a 400 naming the input: the library loads no
 * model with string tensors (docs/server.md). */
#ifndef TFCC_SERVER_SRV_TENSOR_H
#define TFCC_SERVER_SRV_TENSOR_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "srv_buf.h"
#include "srv_config.h"
#include "tfcc/tfcc.h"

/* One model input or output as the server sees it. */
typedef struct srv_io {
  char name[256];
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_DIMS];
  int32_t sig[TFCC_MAX_DIMS]; /* -1: dynamic */
} srv_io;

typedef struct srv_sig {
  srv_io in[SRV_MAX_IO], out[SRV_MAX_IO];
  int n_in, n_out;
} srv_sig;

typedef struct srv_tensor {
  int set;
  int32_t rank;
  int32_t dims[TFCC_MAX_DIMS];
  size_t bytes;
  const void *data; /* into the request body (binary) or owned */
  void *owned;
} srv_tensor;

/* A parsed request: one tensor per model input (in model order) and the outputs wanted. */
typedef struct srv_request {
  char id[256];
  srv_tensor in[SRV_MAX_IO];
  int want[SRV_MAX_IO];   /* output i requested */
  int binary[SRV_MAX_IO]; /* output i returned as binary data */
  int any_binary;
  int row_format;       /* TF Serving "instances" (predictions per instance) */
  int tfs_named_inputs; /* TF Serving "inputs" given as an object */
  size_t input_bytes;   /* elements x dtype size of the inputs parsed so far */
  size_t max_bytes;     /* server.max_request_mb in bytes (0: no bound), for the run */
} srv_request;

void srv_request_init(srv_request *r, int n_out);
void srv_request_free(srv_request *r);

const char *srv_v2_dtype(tfcc_dtype t);               /* NULL if none */
/* The dtype a tensor's values travel as: int8 for int2 / int4, uint8 for uint4 and float8 (raw
 * bytes), the tensor's own dtype otherwise. */
tfcc_dtype srv_wire_dtype(tfcc_dtype t);
int srv_v2_parse_dtype(const char *s, tfcc_dtype *t); /* 0 or -1 */

/* Shape check: shape must equal io's dims except where io's signature is -1. 0 or -1 (err). */
int srv_shape_check(const srv_io *io, int32_t rank, const int32_t *dims, char *err, size_t n);

/* Flattens nested JSON arrays of numbers/bools into dst (count elements of dtype).
 * Returns 0 or -1 with err ("input 'x': element 7: 300 is out of range for uint8"). */
int srv_json_fill(const json_t *data, tfcc_dtype dtype, void *dst, size_t count, const char *what,
                  char *err, size_t n);
/* The same from JSON text p[0..len) (a "data" value), parsed straight into dst without building
 * a tree: 0, -1 with err (the messages of srv_json_fill), or 1 when the text holds something
 * other than numbers, true/false and arrays, or is not valid JSON: then parse it with jansson
 * and srv_json_fill for the exact message. */
int srv_json_fill_text(const char *p, size_t len, tfcc_dtype dtype, void *dst, size_t count,
                       const char *what, char *err, size_t n);
/* Shape implied by nested arrays (TF Serving); -1 if ragged or too deep. */
int srv_json_shape(const json_t *v, int32_t *rank, int32_t *dims, char *err, size_t n,
                   const char *what);

/* Writes count elements as a flat JSON array ("[1,2,3]"). Floats as %.9g (exact for float32). */
void srv_write_flat(srv_buf *b, tfcc_dtype dtype, const void *data, size_t count);
/* Writes a nested array of the given shape (rank 0: a scalar). */
void srv_write_nested(srv_buf *b, tfcc_dtype dtype, const void *data, int32_t rank,
                      const int32_t *dims);

size_t srv_elements(int32_t rank, const int32_t *dims);

/* KServe v2 infer request: body = JSON header (json_len bytes; json_len == len when there is
 * no binary data) followed by binary tensors. Returns 0, or an HTTP status (400) with err. */
int srv_kserve_parse(const char *body, size_t len, size_t json_len, const srv_sig *sig,
                     size_t max_bytes, srv_request *r, char *err, size_t n);
/* TF Serving predict request ({"instances": ...} or {"inputs": ...}). 0 or 400 with err.
 * Both: 413 when the inputs need more than max_bytes (elements x dtype size; 0 = no bound). */
int srv_tfs_parse(const char *body, size_t len, const srv_sig *sig, size_t max_bytes,
                  srv_request *r, char *err, size_t n);
/* srv_tfs_parse in its two steps, for a caller that reads the parsed body (its signature_name) before
 * choosing sig: the JSON parse (0, *root to json_decref; or 400 naming the JSON error), then the
 * inputs from root (r initialized for sig; 0, 400 or 413 with err, r freed on an error). */
int srv_tfs_load(const char *body, size_t len, json_t **root, char *err, size_t n);
int srv_tfs_fill(const json_t *root, const srv_sig *sig, size_t max_bytes, srv_request *r,
                 char *err, size_t n);

#endif
