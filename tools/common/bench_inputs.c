#include "bench_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double unit(uint64_t *s) {
  return (double)(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);
}

static uint16_t f32_to_f16(float f) {
  union {
    float f;
    uint32_t u;
  } v = {f};
  uint32_t sign = (v.u >> 16) & 0x8000u, exp = (v.u >> 23) & 0xffu, man = v.u & 0x7fffffu;
  if (exp < 113) return (uint16_t)sign; /* tiny: flush to zero (values here are in [-1, 1)) */
  return (uint16_t)(sign | ((exp - 112) << 10) | (man >> 13));
}

int bench_fill_random(const tfcc_tensor_info *info, void *data, uint64_t seed) {
  size_t n = 1;
  for (int32_t d = 0; d < info->rank; d++) n *= (size_t)(info->dims[d] > 0 ? info->dims[d] : 0);
  uint64_t s = seed;
  switch (info->dtype) {
    case TFCC_FLOAT32: {
      float *p = (float *)data;
      for (size_t i = 0; i < n; i++) p[i] = (float)(unit(&s) * 2.0 - 1.0);
      return 0;
    }
    case TFCC_FLOAT64: {
      double *p = (double *)data;
      for (size_t i = 0; i < n; i++) p[i] = unit(&s) * 2.0 - 1.0;
      return 0;
    }
    case TFCC_FLOAT16: {
      uint16_t *p = (uint16_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = f32_to_f16((float)(unit(&s) * 2.0 - 1.0));
      return 0;
    }
    case TFCC_INT8: {
      int8_t *p = (int8_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = (int8_t)(int)(splitmix64(&s) & 0xff);
      return 0;
    }
    case TFCC_UINT8: {
      uint8_t *p = (uint8_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(splitmix64(&s) & 0xff);
      return 0;
    }
    case TFCC_INT16: {
      int16_t *p = (int16_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = (int16_t)(int)(splitmix64(&s) & 0xffff);
      return 0;
    }
    case TFCC_INT32: {
      int32_t *p = (int32_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = (int32_t)(splitmix64(&s) & 1);
      return 0;
    }
    case TFCC_INT64: {
      int64_t *p = (int64_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = (int64_t)(splitmix64(&s) & 1);
      return 0;
    }
    case TFCC_BOOL: {
      uint8_t *p = (uint8_t *)data;
      for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(splitmix64(&s) & 1);
      return 0;
    }
    default: return -1;
  }
}

static int same_dims(const tfcc_tensor_info *info, const npy_array *a) {
  if (info->rank != a->rank) return 0;
  for (int32_t d = 0; d < a->rank; d++)
    if (info->dims[d] != a->dims[d]) return 0;
  return 1;
}

static int resizable(const tfcc_tensor_info *info, const npy_array *a) {
  if (info->rank != a->rank) return 0;
  int dynamic = 0;
  for (int32_t d = 0; d < info->rank; d++) {
    if (info->signature[d] == -1)
      dynamic = 1;
    else if (info->dims[d] != a->dims[d])
      return 0;
  }
  return dynamic;
}

void bench_free_inputs(void **buffers, int n) {
  if (!buffers) return;
  for (int i = 0; i < n; i++) free(buffers[i]);
  free(buffers);
}

int bench_make_inputs(tfcc_session *s, const char *const *specs, int n_specs, uint64_t seed,
                      void ***buffers, int *n_out, char *err, size_t err_size) {
  int n = tfcc_session_input_count(s), next = 0, rc = -1;
  char shape[160], want[160];
  *buffers = NULL;
  *n_out = 0;
  void **bufs = (void **)calloc((size_t)n + 1, sizeof *bufs);
  npy_array *files = (npy_array *)calloc((size_t)n + 1, sizeof *files);
  if (!bufs || !files) {
    snprintf(err, err_size, "out of memory");
    goto done;
  }
  for (int k = 0; k < n_specs; k++) {
    const char *spec = specs[k], *path = spec, *eq = strchr(spec, '=');
    int index = -1;
    if (eq && eq != spec) {
      char name[1024];
      size_t len = (size_t)(eq - spec);
      if (len < sizeof name) {
        memcpy(name, spec, len);
        name[len] = '\0';
        if (tfcc_session_find_input(s, name, &index) == TFCC_OK)
          path = eq + 1;
        else
          index = -1;
      }
    }
    if (index < 0) {
      while (next < n && files[next].data) next++;
      if (next >= n) {
        snprintf(err, err_size, "'%s': the model has only %d input%s", spec, n, n == 1 ? "" : "s");
        goto done;
      }
      index = next++;
    }
    if (files[index].data) {
      snprintf(err, err_size, "input %d is given twice ('%s')", index, spec);
      goto done;
    }
    if (npy_read_file(path, &files[index], err, err_size) != 0) goto done;
    tfcc_tensor_info info;
    tfcc_session_input_info(s, index, &info);
    npy_array *a = &files[index];
    int same = same_dims(&info, a);
    if (a->dtype != info.dtype || (!same && !resizable(&info, a))) {
      npy_shape_str(a->rank, a->dims, shape, sizeof shape);
      npy_shape_str(info.rank, info.dims, want, sizeof want);
      snprintf(err, err_size, "input %d (%s): file has %s %s, model wants %s %s", index, info.name,
               tfcc_dtype_name(a->dtype), shape, tfcc_dtype_name(info.dtype), want);
      goto done;
    }
    if (!same) {
      tfcc_status st = tfcc_session_resize_input(s, index, a->rank, a->dims);
      if (st != TFCC_OK) {
        snprintf(err, err_size, "input %d (%s): cannot resize to %s: %s", index, info.name,
                 npy_shape_str(a->rank, a->dims, shape, sizeof shape), tfcc_session_last_error(s));
        goto done;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    bufs[i] = malloc(info.bytes ? info.bytes : 1);
    if (!bufs[i]) {
      snprintf(err, err_size, "out of memory (%zu bytes for input %d)", info.bytes, i);
      goto done;
    }
    if (files[i].data && files[i].bytes != info.bytes) {
      snprintf(err, err_size, "input %d (%s): file holds %zu bytes, tensor needs %zu", i, info.name,
               files[i].bytes, info.bytes);
      goto done;
    }
    if (files[i].data) {
      memcpy(bufs[i], files[i].data, info.bytes);
    } else if (bench_fill_random(&info, bufs[i], seed + (uint64_t)i) != 0) {
      snprintf(err, err_size, "input %d (%s): no random data for dtype %s (give -i FILE.npy)", i,
               info.name, tfcc_dtype_name(info.dtype));
      goto done;
    }
  }
  *buffers = bufs;
  *n_out = n;
  bufs = NULL;
  rc = 0;
done:
  if (files)
    for (int i = 0; i < n; i++) npy_free(&files[i]);
  free(files);
  bench_free_inputs(bufs, n);
  return rc;
}
