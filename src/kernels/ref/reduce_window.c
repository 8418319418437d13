/* REDUCE_WINDOW: see reduce_window.h. */
#include "kernels/ref/reduce_window.h"

#include "kernels/ref/shlo_util.h"

/* One window walk per output element; COMBINE(acc, v) updates acc. The window's last
 * dimension is a row walked in a tight loop from its base offset, up to the first position
 * past the input (positions grow along it); the other dimensions step per row, and a row whose
 * position passes the input in one of them is skipped whole. The taps combined, and their
 * order, are those of a walk over every window position that skips the ones outside (a fuzz find:
 * 8.4 M taps of a window mostly past a small input took 3.5 s under ASan at 400 ns a tap). */
#define RW_LOOP(T, COMBINE) \
  { \
    const T *x = a->in; \
    T *o = a->out; \
    const int32_t rank = a->rank; \
    const int32_t *dims = a->dims, *out_dims = a->out_dims; \
    const int64_t *window = a->window, *strides = a->strides, *dilations = a->dilations; \
    const int64_t *istride = a->istride, n_out = a->n_out, n_win = a->n_win; \
    const int32_t last = rank - 1; \
    const int64_t row_len = window[last], n_rows = row_len > 0 ? n_win / row_len : 0; \
    int64_t oi[TFCC_MAX_DIMS] = {0}; \
    for (int64_t n = 0; n < n_out; n++) { \
      T acc = *(const T *)a->init; \
      int64_t wi[TFCC_MAX_DIMS] = {0}; \
      for (int64_t r = 0; r < n_rows; r++) { \
        int64_t src = 0; \
        bool inside = true; \
        for (int32_t k = 0; k < last; k++) { \
          const int64_t p = oi[k] * strides[k] + wi[k] * dilations[k]; \
          inside = inside && p < dims[k]; \
          src += p * istride[k]; \
        } \
        const int64_t p0 = oi[last] * strides[last], step = dilations[last]; \
        for (int64_t w = 0, p = p0; inside && w < row_len && p < dims[last]; w++, p += step) { \
          const T v = x[src + p]; \
          COMBINE; \
        } \
        for (int32_t k = last - 1; k >= 0; k--) { \
          if (++wi[k] < window[k]) break; \
          wi[k] = 0; \
        } \
      } \
      o[n] = acc; \
      for (int32_t k = rank - 1; k >= 0; k--) { \
        if (++oi[k] < out_dims[k]) break; \
        oi[k] = 0; \
      } \
    } \
    return true; \
  }

/* The six functions over T; ADD and MUL are the new acc. */
#define RW_SWITCH(T, ADD, MUL) \
  switch (a->fn) { \
    case TFCC_RW_ADD: RW_LOOP(T, acc = ADD) \
    case TFCC_RW_MUL: RW_LOOP(T, acc = MUL) \
    case TFCC_RW_MIN: RW_LOOP(T, acc = acc <= v ? acc : v) \
    case TFCC_RW_MAX: RW_LOOP(T, acc = acc >= v ? acc : v) \
    case TFCC_RW_ALL: RW_LOOP(T, acc = (T)(acc && v)) \
    case TFCC_RW_ANY: RW_LOOP(T, acc = (T)(acc || v)) \
  } \
  return false;

/* The walk's inputs. */
typedef struct rw_args {
  tfcc_rw_fn fn;
  const void *in, *init;
  void *out;
  const int32_t *dims, *out_dims;
  int32_t rank;
  const int64_t *window, *strides, *dilations;
  int64_t istride[TFCC_MAX_DIMS], n_out, n_win;
} rw_args;

/* One function per element type (rw_<T>), each the six walks over T: in one function the
 * sixty walks took gcc -O3 35 s to compile (the longest file of the build). Integers add and
 * multiply through unsigned U (wrapping). */
#define RW_DEF(T, U) \
  static __attribute__((noinline)) bool rw_##T(const rw_args *a) { \
    RW_SWITCH(T, (T)(U)((U)acc + (U)v), (T)(U)((uint64_t)(U)acc * (U)v)) \
  }
#define RW_DEF_FLOAT(T) \
  static __attribute__((noinline)) bool rw_##T(const rw_args *a) { RW_SWITCH(T, acc + v, acc * v) }
RW_DEF(int8_t, uint8_t)
RW_DEF(int16_t, uint16_t)
RW_DEF(int32_t, uint32_t)
RW_DEF(int64_t, uint64_t)
RW_DEF(uint8_t, uint8_t)
RW_DEF(uint16_t, uint16_t)
RW_DEF(uint32_t, uint32_t)
RW_DEF(uint64_t, uint64_t)
RW_DEF_FLOAT(float)
RW_DEF_FLOAT(double)
#define RW_CALL(T, U) return rw_##T(&a);
#define RW_CALL_FLOAT(T) return rw_##T(&a);

bool tfcc_ref_reduce_window_supported(tfcc_dtype dt) { return tfcc_shlo_numeric_dtype(dt); }

bool tfcc_ref_reduce_window(tfcc_rw_fn fn, tfcc_dtype dt, const void *in, const int32_t *dims,
                            int32_t rank, const int64_t *window, const int64_t *strides,
                            const int64_t *dilations, const void *init, const int32_t *out_dims,
                            void *out) {
  if (rank == 0) { /* one element: a window of one */
    static const int32_t one32[1] = {1};
    static const int64_t one64[1] = {1};
    return tfcc_ref_reduce_window(fn, dt, in, one32, 1, one64, one64, one64, init, one32, out);
  }
  rw_args a = {.fn = fn,
               .in = in,
               .init = init,
               .out = out,
               .dims = dims,
               .out_dims = out_dims,
               .rank = rank,
               .window = window,
               .strides = strides,
               .dilations = dilations,
               .n_out = 1,
               .n_win = 1};
  int64_t s = 1;
  for (int32_t k = 0; k < rank; k++) a.n_out *= out_dims[k];
  /* no window to walk; the window's size may pass int64 (windows that fit none of the input) */
  if (a.n_out == 0)
    return fn >= TFCC_RW_ADD && fn <= TFCC_RW_ANY && tfcc_ref_reduce_window_supported(dt);
  for (int32_t k = rank - 1; k >= 0; k--) {
    a.istride[k] = s;
    s *= dims[k];
    a.n_win *= window[k]; /* each window fits the input */
  }
  switch (dt) {
    TFCC_SHLO_NUMERIC_CASES(RW_CALL, RW_CALL_FLOAT)
    default: return false;
  }
}
