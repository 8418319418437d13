/* One direction of BIDIRECTIONAL_SEQUENCE_LSTM run by the sequence LSTM's code
 * (unidirectional_sequence_lstm.c): d is a context whose inputs are in the 24-input
 * UNIDIRECTIONAL_SEQUENCE_LSTM order and whose node carries the (bidirectional) LSTM options;
 * float32 or hybrid only. */
#ifndef TFCC_OPS_LSTM_DIRECTION_H
#define TFCC_OPS_LSTM_DIRECTION_H

#include <stdbool.h>

#include "ops/op.h"

/* A direction's auxiliary input (TFLite's cross links, tf.contrib.rnn.stack_bidirectional_rnn):
 * float32 [.., .., n_aux] in the main input's layout, and per gate its weights [n_cell, n_aux]
 * (w[0] NULL for CIFG), whose products are added after the main input's. */
typedef struct tfcc_lstm_aux {
  const tfcc_tensor *x;
  const tfcc_tensor *w[4];
} tfcc_lstm_aux;

/* Checks the direction (aux NULL: none); its scratch bytes and output features. */
tfcc_status tfcc_lstm_direction_prepare(tfcc_op_ctx *d, const tfcc_lstm_aux *aux,
                                        size_t *scratch_bytes, int32_t *n_output);
/* The direction's work estimate (its gate products over the sequence; 0 when it does not
 * prepare). */
int64_t tfcc_lstm_direction_macs(const tfcc_op_ctx *d, const tfcc_lstm_aux *aux);
/* Runs the sequence (backward: from its last step) writing each step's n_output features at
 * out + row * out_stride + out_offset (row in the input's layout). d->scratch: the bytes
 * prepare asked for. */
tfcc_status tfcc_lstm_direction_eval(tfcc_op_ctx *d, const tfcc_lstm_aux *aux, bool backward,
                                     float *out, int32_t out_stride, int32_t out_offset);

#endif
