/* The CUDA backend's plan (src/cuda/cuda_plan.c), host code only, so it runs without a GPU:
 * which nodes of real models go to the GPU and which fall back (with the reason), and that the
 * plan is sound: every value a GPU step reads is on the device when it runs (a constant, or put
 * there by an earlier step or copy), every value a CPU node reads is on the host, the graph
 * outputs come down, and device buffers alive at the same time never overlap; every shared
 * model is planned in both precisions. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_plan.h"
#include "ops/op.h"
#include "runtime/internal.h"
#include "test_harness.h"

static tfcc_device_services services(void) {
  tfcc_device_services sv = {0};
  sv.arena_plan = tfcc_arena_plan;
  sv.op_name = tfcc_node_op_name;
  return sv;
}

/* Replays the actions and checks residency; returns the number of GPU steps. */
static int32_t check_plan(const char *what, const tfcc_exec_plan *p, const tfcc_cuda_plan *cp) {
  const int32_t nt = p->n_tensors;
  bool *dev = calloc((size_t)nt, 1), *host = calloc((size_t)nt, 1);
  for (int32_t t = 0; t < nt; t++) host[t] = true; /* refined below */
  for (int32_t e = 0; e < p->n_nodes; e++) {
    const tfcc_exec_node *en = &p->nodes[e];
    if (en->folded || en->view) continue;
    for (int32_t k = 0; k < en->ctx.n_out; k++) host[en->ctx.out[k]->index] = false;
  }
  int32_t gpu = 0;
  for (int32_t a = 0; a < cp->n_actions; a++) {
    const tfcc_ga *ga = &cp->actions[a];
    if (ga->kind == TFCC_GA_H2D) {
      CHECKF(host[ga->index], "%s: action %d copies up tensor %d, which the host lacks", what,
             (int)a, (int)ga->index);
      dev[ga->index] = true;
    } else if (ga->kind == TFCC_GA_D2H) {
      const int32_t r = cp->tensors[ga->index].root;
      CHECKF(dev[r], "%s: action %d copies down tensor %d, which the device lacks", what, (int)a,
             (int)ga->index);
      host[r] = true;
    } else if (ga->kind == TFCC_GA_GPU) {
      const tfcc_gs *s = &cp->steps[ga->index];
      const tfcc_exec_node *en = &p->nodes[s->en];
      for (int32_t k = 0; k < en->ctx.n_in; k++) {
        const tfcc_tensor *x = en->ctx.in[k];
        if (!x || x->dtype != TFCC_FLOAT32) continue;
        const int32_t r = cp->tensors[x->index].root;
        CHECKF(cp->tensors[x->index].dev_const || dev[r],
               "%s: node %d (%s) reads tensor %d before the device has it", what, (int)en->node,
               tfcc_node_op_name(en->ctx.node), (int)x->index);
        if (!cp->tensors[x->index].dev_const)
          CHECKF(cp->tensors[r].buf >= 0, "%s: tensor %d has no device buffer", what,
                 (int)x->index);
      }
      const int32_t r = cp->tensors[s->out].root;
      CHECKF(cp->tensors[r].buf >= 0, "%s: output %d has no device buffer", what, (int)s->out);
      dev[r] = true, host[r] = false;
      gpu++;
    } else {
      const tfcc_exec_node *en = &p->nodes[ga->index];
      for (int32_t k = 0; k < en->ctx.n_in; k++) {
        const tfcc_tensor *x = en->ctx.in[k];
        if (!x || x->is_const) continue;
        CHECKF(host[cp->tensors[x->index].root],
               "%s: CPU node %d (%s) reads tensor %d before the host has it", what, (int)en->node,
               tfcc_node_op_name(en->ctx.node), (int)x->index);
      }
      for (int32_t k = 0; k < en->ctx.n_out; k++) {
        const int32_t r = cp->tensors[en->ctx.out[k]->index].root;
        host[r] = true, dev[r] = false;
      }
    }
  }
  for (int32_t i = 0; i < p->sg->n_outputs; i++) {
    const int32_t t = p->sg->outputs[i];
    if (p->tensors[t].is_const || p->tensors[t].known) continue;
    CHECKF(host[cp->tensors[t].root], "%s: output %d never reaches the host", what, (int)i);
  }
  /* device buffers alive at the same time do not overlap */
  for (int32_t i = 0; i < cp->n_bufs; i++)
    for (int32_t j = i + 1; j < cp->n_bufs; j++) {
      const tfcc_plan_buffer *x = &cp->bufs[i], *y = &cp->bufs[j];
      if (x->last < y->first || y->last < x->first) continue;
      const bool apart = x->offset + x->size <= y->offset || y->offset + y->size <= x->offset;
      CHECKF(apart, "%s: device buffers %d and %d overlap while both live", what, (int)i, (int)j);
    }
  for (int32_t i = 0; i < cp->n_bufs; i++)
    CHECK(cp->bufs[i].offset + cp->bufs[i].size <= cp->arena_bytes);
  free(dev);
  free(host);
  return gpu;
}

/* Loads shared model `file`, plans a session on the CPU, then the device plan in dt. */
static void plan_model(const char *dir, const char *file, tfcc_gpu_dtype dt, int32_t min_gpu,
                       const char *must_fall_back) {
  char path[1024];
  snprintf(path, sizeof path, "%s/models/%s", dir, file);
  tfcc_runtime *rt = NULL;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disabled_passes = TFCC_PASS_FUSE_EXPAND_DWCONV; /* as a device runtime loads it */
  CHECKF(tfcc_model_load_file(rt, path, &mo, &m) == TFCC_OK, "%s: %s", file, tfcc_last_error());
  if (!m) {
    tfcc_runtime_destroy(rt);
    return;
  }
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK);
  tfcc_cuda_plan cp;
  tfcc_err err = {0};
  tfcc_device_services sv = services();
  tfcc_status st = tfcc_cuda_plan_build(&cp, &s->plan, dt, &sv, &err);
  CHECKF(st == TFCC_OK, "%s: %s", file, err.msg);
  if (st == TFCC_OK) {
    int32_t gpu = check_plan(file, &s->plan, &cp);
    CHECK(gpu == cp.n_gpu_nodes);
    CHECKF(cp.n_gpu_nodes >= min_gpu,
           "%s: %d nodes on the GPU, expected at least %d (falls back: %s)", file,
           (int)cp.n_gpu_nodes, (int)min_gpu, cp.fallback ? cp.fallback : "none");
    if (must_fall_back && !must_fall_back[0]) { /* anything may fall back */
    } else if (must_fall_back)
      CHECKF(cp.fallback && strstr(cp.fallback, must_fall_back),
             "%s: expected '%s' among the fallbacks, got '%s'", file, must_fall_back,
             cp.fallback ? cp.fallback : "");
    else
      CHECKF(!cp.fallback, "%s: unexpected fallbacks: %s", file, cp.fallback);
    if (dt != TFCC_GPU_F32 && cp.n_gpu_nodes) CHECK(cp.staging_bytes > 0);
    if (getenv("TFCC_TEST_VERBOSE") && cp.fallback)
      printf("%s: CPU nodes: %s\n", file, cp.fallback);
    printf("%s (%s): %d GPU / %d CPU nodes, %d actions, arena %.2f MiB\n", file,
           dt == TFCC_GPU_F32 ? "fp32" : "fp16", (int)cp.n_gpu_nodes, (int)cp.n_cpu_nodes,
           (int)cp.n_actions, (double)cp.arena_bytes / 1048576.0);
    tfcc_cuda_plan_free(&cp);
  }
  tfcc_session_destroy(s);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
}

/* Every shared model: the plan is sound in both precisions, whatever goes where. */
static void plan_every_model(const char *dir) {
  char mdir[1024];
  snprintf(mdir, sizeof mdir, "%s/models", dir);
  DIR *d = opendir(mdir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l <= 7 || strcmp(de->d_name + l - 7, ".tflite") != 0) continue;
    plan_model(dir, de->d_name, TFCC_GPU_F32, 0, "");
    plan_model(dir, de->d_name, TFCC_GPU_F16, 0, "");
  }
  if (d) closedir(d);
}

int main(void) {
  const char *dir = tfcc_test_shared_dir();
  if (dir) {
    /* float DeepLab v3: every node on the GPU (convolutions, depthwise, pools, resize, concat) */
    plan_model(dir, "deeplabv3_257_float.tflite", TFCC_GPU_F32, 40, NULL);
    plan_model(dir, "deeplabv3_257_float.tflite", TFCC_GPU_F16, 40, NULL);
    /* a quantized SSD: the post-processing custom operator and int8 nodes stay on the CPU */
    plan_model(dir, "ssd_mobilenet_v1_detect_quant.tflite", TFCC_GPU_F32, 0,
               "TFLite_Detection_PostProcess");
    /* hybrid layers and the spectrogram on the CPU, float depthwise layers on the GPU */
    plan_model(dir, "yamnet_hybrid_rfft.tflite", TFCC_GPU_F32, 8, "RFFT2D");
    /* an LSTM: the recurrent node on the CPU, what surrounds it on the GPU */
    plan_model(dir, "mnist_lstm_float.tflite", TFCC_GPU_F32, 1, "LSTM");
    plan_every_model(dir);
  }
  return tfcc_test_finish("cuda.test_cuda_plan");
}
