/* Portable body of the Winograd tile transforms (transforms.h), included once per ISA variant
 * with TFCC_WINO_ISA (name suffix) and TFCC_WINO_VW (floats per vector: 16, 8, 4 or 1). The
 * arithmetic is written on GCC/Clang vector types, so each file's -m flags give full-width
 * vectors; channels past the last whole vector run the same code on plain floats.
 *
 * F(2x2,3x3) (Lavin & Gray), interpolation points 0, 1, -1:
 *   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]     A^T = [1 1 1 0; 0 1 -1 -1]
 * F(4x4,3x3), points 0, 1, -1, 2, -2:
 *   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0;
 *          0 4 0 -5 0 1]
 *   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1]
 * Filter transform U = G g G^T, F(2x2): G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1];
 * F(4x4): G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1].
 * Each 2-D transform is the 1-D one down the columns, then along the rows. */
#include <string.h>

#include "kernels/f32-winograd/transforms.h"

#define WINO_CAT_(a, b) a##b
#define WINO_CAT(a, b) WINO_CAT_(a, b)
#define WINO_NAME(f) WINO_CAT(WINO_CAT(tfcc_wino_, f), WINO_CAT(_, TFCC_WINO_ISA))

#if TFCC_WINO_VW > 1
typedef float wino_v __attribute__((vector_size(TFCC_WINO_VW * 4)));
typedef int wino_vi __attribute__((vector_size(TFCC_WINO_VW * 4)));
#else
typedef float wino_v;
#endif

static inline wino_v wv_ld(const float *p) {
  wino_v v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void wv_st(float *p, wino_v v) { memcpy(p, &v, sizeof v); }
static inline float ws_ld(const float *p) { return *p; }
static inline void ws_st(float *p, float v) { *p = v; }
#if TFCC_WINO_VW > 1
/* (C has no vector ?:) lanes below lo take lo, then lanes above hi take hi. */
static inline wino_v wv_clamp(wino_v x, wino_v lo, wino_v hi) {
  const wino_vi below = x < lo;
  x = (wino_v)(((wino_vi)x & ~below) | ((wino_vi)lo & below));
  const wino_vi above = x > hi;
  return (wino_v)(((wino_vi)x & ~above) | ((wino_vi)hi & above));
}
#endif
static inline float ws_clamp(float x, float lo, float hi) {
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}

/* 1-D transforms on values of type T (vector or float). */
#define IN2(d0, d1, d2, d3, r0, r1, r2, r3) \
  r0 = d0 - d2; \
  r1 = d1 + d2; \
  r2 = d2 - d1; \
  r3 = d1 - d3
#define OUT2(m0, m1, m2, m3, o0, o1) \
  o0 = m0 + m1 + m2; \
  o1 = m1 - m2 - m3
#define IN4(T, d0, d1, d2, d3, d4, d5, r0, r1, r2, r3, r4, r5) \
  do { \
    const T t1_ = d4 - d2 * 4.0f, t2_ = d3 - d1 * 4.0f; \
    const T t3_ = d4 - d2, t4_ = (d3 - d1) * 2.0f; \
    r0 = d4 + d0 * 4.0f - d2 * 5.0f; \
    r1 = t1_ + t2_; \
    r2 = t1_ - t2_; \
    r3 = t3_ + t4_; \
    r4 = t3_ - t4_; \
    r5 = d5 + d1 * 4.0f - d3 * 5.0f; \
  } while (0)
#define OUT4(T, m0, m1, m2, m3, m4, m5, o0, o1, o2, o3) \
  do { \
    const T a_ = m1 + m2, b_ = m1 - m2; \
    const T c_ = m3 + m4, d_ = m3 - m4; \
    o0 = m0 + a_ + c_; \
    o1 = b_ + d_ * 2.0f; \
    o2 = a_ + c_ * 4.0f; \
    o3 = b_ + d_ * 8.0f + m5; \
  } while (0)

/* Filter rows: 3 taps to n positions (G g). */
#define FILT2(T, g0, g1, g2, r0, r1, r2, r3) \
  do { \
    const T s_ = (g0 + g2) * 0.5f, h_ = g1 * 0.5f; \
    r0 = g0; \
    r1 = s_ + h_; \
    r2 = s_ - h_; \
    r3 = g2; \
  } while (0)
#define FILT4(T, g0, g1, g2, r0, r1, r2, r3, r4, r5) \
  do { \
    const T s_ = (g0 + g2) * (-1.0f / 6), h_ = g1 * (-1.0f / 6); \
    const T p_ = g0 * (1.0f / 24) + g2 * (1.0f / 6), q_ = g1 * (1.0f / 12); \
    r0 = g0 * 0.25f; \
    r1 = s_ + h_; \
    r2 = s_ - h_; \
    r3 = p_ + q_; \
    r4 = p_ - q_; \
    r5 = g2; \
  } while (0)

/* n values to q, q + ps, q + 2 ps, ... */
#define WINO_ST4(ST, q, r0, r1, r2, r3) \
  ST(q, r0); \
  ST(q + ps, r1); \
  ST(q + 2 * ps, r2); \
  ST(q + 3 * ps, r3)
#define WINO_ST6(ST, q, r0, r1, r2, r3, r4, r5) \
  WINO_ST4(ST, q, r0, r1, r2, r3); \
  ST(q + 4 * ps, r4); \
  ST(q + 5 * ps, r5)

/* One group of channels at offset c: T is wino_v or float, LD/ST/CL its load/store/clamp. */
#define IN_F2_BODY(T, LD, ST) \
  do { \
    T t[4][4]; \
    for (int j = 0; j < 4; j++) { \
      const float *p = d + (size_t)j * C + c; \
      const T d0 = LD(p), d1 = LD(p + rs), d2 = LD(p + 2 * rs), d3 = LD(p + 3 * rs); \
      IN2(d0, d1, d2, d3, t[0][j], t[1][j], t[2][j], t[3][j]); \
    } \
    for (int i = 0; i < 4; i++) { \
      T r0, r1, r2, r3; \
      IN2(t[i][0], t[i][1], t[i][2], t[i][3], r0, r1, r2, r3); \
      float *q = v + (size_t)(i * 4) * ps + c; \
      WINO_ST4(ST, q, r0, r1, r2, r3); \
    } \
  } while (0)

#define OUT_F2_BODY(T, LD, ST, CL, B, LO, HI) \
  do { \
    T s[2][4]; \
    for (int j = 0; j < 4; j++) { \
      const float *p = m + (size_t)j * ps + c; \
      const T m0 = LD(p), m1 = LD(p + 4 * ps), m2 = LD(p + 8 * ps), m3 = LD(p + 12 * ps); \
      OUT2(m0, m1, m2, m3, s[0][j], s[1][j]); \
    } \
    for (int r = 0; r < 2; r++) { \
      T o0, o1; \
      OUT2(s[r][0], s[r][1], s[r][2], s[r][3], o0, o1); \
      float *q = y + (size_t)r * rs + c; \
      ST(q, CL(o0 + B, LO, HI)); \
      ST(q + cs, CL(o1 + B, LO, HI)); \
    } \
  } while (0)

#define IN_F4_BODY(T, LD, ST) \
  do { \
    T t[6][6]; \
    for (int j = 0; j < 6; j++) { \
      const float *p = d + (size_t)j * C + c; \
      const T d0 = LD(p), d1 = LD(p + rs), d2 = LD(p + 2 * rs), d3 = LD(p + 3 * rs); \
      const T d4 = LD(p + 4 * rs), d5 = LD(p + 5 * rs); \
      IN4(T, d0, d1, d2, d3, d4, d5, t[0][j], t[1][j], t[2][j], t[3][j], t[4][j], t[5][j]); \
    } \
    for (int i = 0; i < 6; i++) { \
      T r0, r1, r2, r3, r4, r5; \
      IN4(T, t[i][0], t[i][1], t[i][2], t[i][3], t[i][4], t[i][5], r0, r1, r2, r3, r4, r5); \
      float *q = v + (size_t)(i * 6) * ps + c; \
      WINO_ST6(ST, q, r0, r1, r2, r3, r4, r5); \
    } \
  } while (0)

#define OUT_F4_BODY(T, LD, ST, CL, B, LO, HI) \
  do { \
    T s[4][6]; \
    for (int j = 0; j < 6; j++) { \
      const float *p = m + (size_t)j * ps + c; \
      const T m0 = LD(p), m1 = LD(p + 6 * ps), m2 = LD(p + 12 * ps); \
      const T m3 = LD(p + 18 * ps), m4 = LD(p + 24 * ps), m5 = LD(p + 30 * ps); \
      OUT4(T, m0, m1, m2, m3, m4, m5, s[0][j], s[1][j], s[2][j], s[3][j]); \
    } \
    for (int r = 0; r < 4; r++) { \
      T o0, o1, o2, o3; \
      OUT4(T, s[r][0], s[r][1], s[r][2], s[r][3], s[r][4], s[r][5], o0, o1, o2, o3); \
      float *q = y + (size_t)r * rs + c; \
      ST(q, CL(o0 + B, LO, HI)); \
      ST(q + cs, CL(o1 + B, LO, HI)); \
      ST(q + 2 * cs, CL(o2 + B, LO, HI)); \
      ST(q + 3 * cs, CL(o3 + B, LO, HI)); \
    } \
  } while (0)

/* G's rows (positions a) of F(2x2) and F(4x4). */
static const float wino_g2[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
static const float wino_g4[6][3] = {{0.25f, 0, 0},
                                    {-1.0f / 6, -1.0f / 6, -1.0f / 6},
                                    {-1.0f / 6, 1.0f / 6, -1.0f / 6},
                                    {1.0f / 24, 1.0f / 12, 1.0f / 6},
                                    {1.0f / 24, -1.0f / 12, 1.0f / 6},
                                    {0, 0, 1}};

/* Row a of U (positions a * n .. a * n + n - 1) for one group of output channels at offset o of
 * one input channel's row (offset r): (G g)[a] down the taps' columns (COL: all three taps of
 * a column, or only the top or bottom one where G's row a is zero elsewhere: F(2x2) rows 0
 * and 3, F(4x4) rows 0 and 5), then G along it (OUT: n positions). */
#define FILT_COL_ALL(T, LD, kx) \
  (LD(taps[kx] + r + o) * g0 + LD(taps[3 + kx] + r + o) * g1 + LD(taps[6 + kx] + r + o) * g2)
#define FILT_COL_TOP(T, LD, kx) (LD(taps[kx] + r + o) * g0)
#define FILT_COL_BOT(T, LD, kx) (LD(taps[6 + kx] + r + o) * g2)
#define FILT_OUT_F2(T, ST, t, q) \
  do { \
    T r0, r1, r2, r3; \
    FILT2(T, t[0], t[1], t[2], r0, r1, r2, r3); \
    WINO_ST4(ST, q, r0, r1, r2, r3); \
  } while (0)
#define FILT_OUT_F4(T, ST, t, q) \
  do { \
    T r0, r1, r2, r3, r4, r5; \
    FILT4(T, t[0], t[1], t[2], r0, r1, r2, r3, r4, r5); \
    WINO_ST6(ST, q, r0, r1, r2, r3, r4, r5); \
  } while (0)
#define FILT_ROW_BODY(T, LD, ST, COL, OUT) \
  do { \
    const T t[3] = {COL(T, LD, 0), COL(T, LD, 1), COL(T, LD, 2)}; \
    OUT(T, ST, t, u + r + o); \
  } while (0)

/* The channel walk of an input (IN) and an output (OUT) transform, for F(2x2) and F(4x4):
 * whole vectors, then the channels left one float at a time. */
#if TFCC_WINO_VW > 1
#define WINO_IN_VEC(IN) \
  for (; c + TFCC_WINO_VW <= C; c += TFCC_WINO_VW) IN(wino_v, wv_ld, wv_st);
#define WINO_FILT_VEC(COL, OUT) \
  for (; o + TFCC_WINO_VW <= NR; o += TFCC_WINO_VW) FILT_ROW_BODY(wino_v, wv_ld, wv_st, COL, OUT);
#define WINO_OUT_VEC(OUT) \
  const wino_v vlo = (wino_v){0} + lo, vhi = (wino_v){0} + hi; \
  for (; c + TFCC_WINO_VW <= C; c += TFCC_WINO_VW) { \
    const wino_v b = wv_ld(bias + c); \
    OUT(wino_v, wv_ld, wv_st, wv_clamp, b, vlo, vhi); \
  }
#else
#define WINO_IN_VEC(IN)
#define WINO_FILT_VEC(COL, OUT)
#define WINO_OUT_VEC(OUT)
#endif
#define WINO_TRANSFORMS(f, IN, OUT) \
  void WINO_NAME(in_##f)(const float *d, size_t rs, size_t C, float *v, size_t ps) { \
    size_t c = 0; \
    WINO_IN_VEC(IN) \
    for (; c < C; c++) IN(float, ws_ld, ws_st); \
  } \
  void WINO_NAME(out_##f)(const float *m, size_t ps, size_t C, const float *bias, float lo, \
                          float hi, float *y, size_t rs, size_t cs) { \
    size_t c = 0; \
    WINO_OUT_VEC(OUT) \
    for (; c < C; c++) { \
      const float b = bias[c]; \
      OUT(float, ws_ld, ws_st, ws_clamp, b, lo, hi); \
    } \
  }

WINO_TRANSFORMS(f2, IN_F2_BODY, OUT_F2_BODY)
WINO_TRANSFORMS(f4, IN_F4_BODY, OUT_F4_BODY)

/* The channel walk of a filter row: whole vectors of output channels, then one at a time. */
#define WINO_FILT_LOOP(COL, OUT) \
  for (size_t r = 0; r < count * NR; r += NR) { \
    size_t o = 0; \
    WINO_FILT_VEC(COL, OUT) \
    for (; o < NR; o++) FILT_ROW_BODY(float, ws_ld, ws_st, COL, OUT); \
  }
#define WINO_FILT_ROWS(OUT) \
  if (g1 == 0 && g2 == 0) { \
    WINO_FILT_LOOP(FILT_COL_TOP, OUT) \
  } else if (g0 == 0 && g1 == 0) { \
    WINO_FILT_LOOP(FILT_COL_BOT, OUT) \
  } else { \
    WINO_FILT_LOOP(FILT_COL_ALL, OUT) \
  }

void WINO_NAME(filt)(const float *const *taps, size_t count, size_t NR, int n, int a, float *u,
                     size_t ps) {
  const float *ga = n == 4 ? wino_g2[a] : wino_g4[a];
  const float g0 = ga[0], g1 = ga[1], g2 = ga[2];
  if (n == 4) {
    WINO_FILT_ROWS(FILT_OUT_F2)
  } else {
    WINO_FILT_ROWS(FILT_OUT_F4)
  }
}
