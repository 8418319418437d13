/* Data-dependent faults of the indexing operators (opsa, issue 15) give a clear status naming
 * the cause, never a crash or an out-of-bounds access, and the session runs again afterwards.
 * Each check runs a committed conformance model (tests/ops/conformance) on inputs that break it:
 * indices out of range (EMBEDDING_LOOKUP, SCATTER_ND, SPARSE_TO_DENSE, UNSORTED_SEGMENT_*,
 * REVERSE_SEQUENCE: TFLite fails the invoke, or writes out of bounds where tfcc fails),
 * unsorted SEGMENT_SUM ids, a negative ONE_HOT depth, TOPK_V2 k above the row length, shapes
 * BROADCAST_ARGS cannot broadcast; and a BUCKETIZE model whose boundaries are not sorted.
 * sweep7: moe's expert indices outside -num_experts .. num_experts - 1 (LiteRT's delegate fails
 * the invoke: "expert index 4 is out of range"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

#define MAX_IO 4

typedef struct {
  const void *data;
  size_t bytes;
} feed;

/* Runs case `name` with the given inputs; returns the status and copies the message. */
static tfcc_status run_with(tfcc_runtime *rt, const char *name, const feed *in, int n_in, char *msg,
                            size_t cap) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", tfcc_test_source_dir(), name);
  tfcc_model *model = NULL;
  tfcc_session *sess = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &model);
  if (st == TFCC_OK) st = tfcc_session_create(model, NULL, &sess);
  msg[0] = 0;
  if (st != TFCC_OK) {
    snprintf(msg, cap, "%s", tfcc_last_error());
  } else {
    const void *ptrs[MAX_IO];
    for (int i = 0; i < n_in; i++) ptrs[i] = in[i].data;
    void *outs[MAX_IO] = {0}; /* NULL: dynamic outputs stay in the session */
    static unsigned char big[MAX_IO][4096];
    for (int i = 0; i < tfcc_session_output_count(sess) && i < MAX_IO; i++) {
      tfcc_tensor_info info;
      if (tfcc_session_output_info(sess, i, &info) == TFCC_OK && info.bytes <= sizeof big[i])
        outs[i] = big[i];
    }
    st = tfcc_session_run(sess, ptrs, (void *const *)outs);
    if (st != TFCC_OK) snprintf(msg, cap, "%s", tfcc_session_last_error(sess));
  }
  if (sess) tfcc_session_destroy(sess);
  if (model) tfcc_model_release(model);
  return st;
}

static void expect_error(tfcc_runtime *rt, const char *name, const feed *in, int n_in,
                         const char *phrase) {
  char msg[1024];
  tfcc_status st = run_with(rt, name, in, n_in, msg, sizeof msg);
  CHECKF(st != TFCC_OK, "%s: bad inputs ran without an error", name);
  CHECKF(strstr(msg, phrase) != NULL, "%s: message \"%s\" lacks \"%s\"", name, msg, phrase);
  printf("  %s: %s: %s\n", name, tfcc_status_str(st), msg);
}

static void expect_ok(tfcc_runtime *rt, const char *name, const feed *in, int n_in) {
  char msg[1024];
  tfcc_status st = run_with(rt, name, in, n_in, msg, sizeof msg);
  CHECKF(st == TFCC_OK, "%s: valid inputs failed: %s", name, msg);
}

int main(void) {
  char probe[1024];
  snprintf(probe, sizeof probe, "%s/tests/ops/conformance/cases.txt", tfcc_test_source_dir());
  FILE *f = fopen(probe, "r");
  if (!f) {
    printf("SKIP index errors: %s not found\n", probe);
    return TFCC_TEST_SKIP;
  }
  fclose(f);
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  tfcc_runtime *rt = NULL;
  CHECKF(tfcc_runtime_create(&ro, &rt) == TFCC_OK, "runtime: %s", tfcc_last_error());
  if (!rt) return tfcc_test_finish("index errors");

  float table[5 * 3 * 2] = {0}, upd[5 * 3] = {0}, vals4[4] = {0}, data52[5 * 2] = {0},
                      x352[3 * 5 * 2] = {0};
  float x37[3 * 7] = {0}, data622[6 * 2 * 2] = {0};
  { /* EMBEDDING_LOOKUP: id 5 of 5 rows, and -1 */
    int32_t ids[4] = {0, 5, 1, 2}, neg[4] = {0, 1, -1, 2}, good[4] = {4, 0, 0, 3};
    feed in[2] = {{ids, sizeof ids}, {table, sizeof table}};
    expect_error(rt, "embedding_lookup_f32", in, 2, "outside the table's rows");
    in[0].data = neg;
    expect_error(rt, "embedding_lookup_f32", in, 2, "outside the table's rows");
    in[0].data = good;
    expect_ok(rt, "embedding_lookup_f32", in, 2);
  }
  { /* SCATTER_ND into [6, 4, 3]: index (6, 0) and (0, -1) */
    int32_t idx[10] = {0, 1, 6, 0, 0, 1, 2, 0, 5, 2}, neg[10] = {0, 1, 0, -1, 0, 1, 2, 0, 5, 2};
    feed in[2] = {{idx, sizeof idx}, {upd, sizeof upd}};
    expect_error(rt, "scatter_nd_f32", in, 2, "falls outside the output");
    in[0].data = neg;
    expect_error(rt, "scatter_nd_f32", in, 2, "falls outside the output");
  }
  { /* SPARSE_TO_DENSE into [3, 4]: index (3, 0) */
    int32_t idx[8] = {0, 1, 2, 3, 3, 0, 2, 1};
    feed in[2] = {{idx, sizeof idx}, {vals4, sizeof vals4}};
    expect_error(rt, "sparse_to_dense_f32", in, 2, "outside [0, 3)");
  }
  { /* UNSORTED_SEGMENT_*: id 4 with num_segments 4; a negative num_segments */
    int32_t ids[5] = {1, 4, 0, 2, 1}, num[1] = {4}, good_ids[5] = {1, -1, 0, 3, 1},
            negnum[1] = {-2};
    feed in[3] = {{data52, sizeof data52}, {ids, sizeof ids}, {num, sizeof num}};
    expect_error(rt, "unsorted_segment_sum_f32_dyn", in, 3, "is not below num_segments 4");
    expect_error(rt, "unsorted_segment_max_f32_dyn", in, 3, "is not below num_segments 4");
    in[1].data = good_ids;
    expect_ok(rt, "unsorted_segment_min_f32_dyn", in, 3);
    in[2].data = negnum;
    expect_error(rt, "unsorted_segment_prod_f32_dyn", in, 3, "num_segments -2 is negative");
  }
  { /* SEGMENT_SUM: ids must start at 0 and grow by 0 or 1 */
    int32_t skip[6] = {0, 0, 2, 2, 3, 3}, start[6] = {1, 1, 1, 2, 2, 3};
    feed in[2] = {{data622, sizeof data622}, {skip, sizeof skip}};
    expect_error(rt, "segment_sum_f32_dyn_ids", in, 2, "grow by 0 or 1");
    in[1].data = start;
    expect_error(rt, "segment_sum_f32_dyn_ids", in, 2, "start at 0");
  }
  { /* ONE_HOT: negative depth */
    int32_t idx[4] = {0, 1, 2, 3}, depth[1] = {-1};
    feed in[2] = {{idx, sizeof idx}, {depth, sizeof depth}};
    expect_error(rt, "one_hot_f32_dyn_depth", in, 2, "depth -1 is negative");
  }
  { /* sweep7: moe (4 experts, 2 a token, model_dim 8) over 6 tokens: index 4, then -5 */
    float src[6 * 8] = {0}, w[6 * 2] = {0};
    int32_t idx[12] = {0, 1, 2, 3, 4, 0, 1, 1, 2, 2, 3, 3},
            neg[12] = {0, 1, -5, 3, 0, 0, 1, 1, 2, 2, 3, 3},
            good[12] = {0, 1, -4, 3, -1, 0, 1, 1, 2, 2, 3, 3};
    feed in[3] = {{src, sizeof src}, {w, sizeof w}, {idx, sizeof idx}};
    expect_error(rt, "moe_f32_gelu", in, 3, "expert index 4 is out of range (4 experts)");
    in[2].data = neg;
    expect_error(rt, "moe_f32_gelu", in, 3, "expert index -1 is out of range (4 experts)");
    in[2].data = good;
    expect_ok(rt, "moe_f32_gelu", in, 3);
  }
  { /* TOPK_V2: k = 8 for rows of 7, and k = -1 */
    int32_t k[1] = {8}, neg[1] = {-1};
    feed in[2] = {{x37, sizeof x37}, {k, sizeof k}};
    expect_error(rt, "topk_v2_f32_dyn_k", in, 2, "k = 8 outside [0, 7]");
    in[1].data = neg;
    expect_error(rt, "topk_v2_f32_dyn_k", in, 2, "k = -1 outside [0, 7]");
  }
  { /* BROADCAST_ARGS: [2, 1, 3, 1] with [4, 5] */
    int32_t a[4] = {2, 1, 3, 1}, b[2] = {4, 5};
    feed in[2] = {{a, sizeof a}, {b, sizeof b}};
    expect_error(rt, "broadcast_args_i32", in, 2, "shapes do not broadcast");
  }
  { /* REVERSE_SEQUENCE: a length above the sequence dimension (5), and a negative one */
    int32_t len[3] = {2, 6, 0}, neg[3] = {-1, 1, 1};
    feed in[2] = {{x352, sizeof x352}, {len, sizeof len}};
    expect_error(rt, "reverse_sequence_f32", in, 2, "seq_lengths[1] = 6 outside [0, 5]");
    in[1].data = neg;
    expect_error(rt, "reverse_sequence_f32", in, 2, "seq_lengths[0] = -1");
  }
  { /* BUCKETIZE: boundaries [-3, -1, 0, 0.5, 2, 2, 7] with the first and last swapped */
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ops/conformance/bucketize_f32.tflite",
             tfcc_test_source_dir());
    size_t size = 0;
    unsigned char *buf = tfcc_test_read_file(path, &size);
    CHECKF(buf != NULL, "cannot read %s", path);
    const float first = -3.0f, last = 7.0f, rest[5] = {-1.0f, 0.0f, 0.5f, 2.0f, 2.0f};
    unsigned char want[28];
    memcpy(want, &first, 4);
    memcpy(want + 4, rest, 20);
    memcpy(want + 24, &last, 4);
    size_t at = size;
    for (size_t i = 0; buf && i + sizeof want <= size; i++)
      if (memcmp(buf + i, want, sizeof want) == 0) at = i;
    CHECKF(at < size, "boundaries not found in %s", path);
    if (at < size) {
      memcpy(buf + at, &last, 4);
      memcpy(buf + at + 24, &first, 4);
      tfcc_model *model = NULL;
      tfcc_session *sess = NULL;
      tfcc_status st = tfcc_model_load_buffer(rt, buf, size, NULL, &model);
      if (st == TFCC_OK) st = tfcc_session_create(model, NULL, &sess);
      const char *msg = tfcc_last_error();
      CHECKF(st != TFCC_OK, "unsorted BUCKETIZE boundaries were accepted");
      CHECKF(msg && strstr(msg, "boundaries are not sorted (entry 0 is 7, entry 1 is -1)"),
             "message \"%s\"", msg ? msg : "");
      printf("  bucketize unsorted: %s: %s\n", tfcc_status_str(st), msg ? msg : "");
      if (sess) tfcc_session_destroy(sess);
      if (model) tfcc_model_release(model);
    }
    free(buf);
  }
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("index errors");
}
