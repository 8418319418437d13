/* The C library's expf in its plain build (expf.h). */
#include "kernels/ref/expf.h"

#include <math.h>
#include <string.h>

/* 2^(j / 32) rounded to double (from 60-digit decimals), its bits minus j << 47 (the C library's
 * expf table, the same numbers). */
const uint64_t tfcc_expf_tab[32] = {
    0x3ff0000000000000u, 0x3fefd9b0d3158574u, 0x3fefb5586cf9890fu, 0x3fef9301d0125b51u,
    0x3fef72b83c7d517bu, 0x3fef54873168b9aau, 0x3fef387a6e756238u, 0x3fef1e9df51fdee1u,
    0x3fef06fe0a31b715u, 0x3feef1a7373aa9cbu, 0x3feedea64c123422u, 0x3feece086061892du,
    0x3feebfdad5362a27u, 0x3feeb42b569d4f82u, 0x3feeab07dd485429u, 0x3feea47eb03a5585u,
    0x3feea09e667f3bcdu, 0x3fee9f75e8ec5f74u, 0x3feea11473eb0187u, 0x3feea589994cce13u,
    0x3feeace5422aa0dbu, 0x3feeb737b0cdc5e5u, 0x3feec49182a3f090u, 0x3feed503b23e255du,
    0x3feee89f995ad3adu, 0x3feeff76f2fb5e47u, 0x3fef199bdd85529cu, 0x3fef3720dcef9069u,
    0x3fef5818dcfba487u, 0x3fef7c97337b9b5fu, 0x3fefa4afa2a490dau, 0x3fefd0765b6e4540u,
};

float tfcc_expf_ref(float x) {
  if (x != x) return x + x;
  if (x > 0x1.62e42ep6f) return INFINITY;
  if (x < -0x1.9fe368p6f) return 0.0f;
  const double shift = 0x1.8p52;
  const double z = (double)x * 0x1.71547652b82fep+5; /* 32 / ln 2 */
  const double ks = z + shift;                       /* k in the low bits */
  uint64_t ki;
  memcpy(&ki, &ks, sizeof ki);
  const double kd = ks - shift;
  const double r = z - kd;
  const uint64_t tb = tfcc_expf_tab[ki & 31] + (ki << 47);
  double s;
  memcpy(&s, &tb, sizeof s);
  const double c0r = r * (0x1.c6af84b912394p-5 / 32768.0);
  const double p = c0r + 0x1.ebfce50fac4f3p-3 / 1024.0;
  const double r2 = r * r;
  const double c2r = r * (0x1.62e42ff0c52d6p-1 / 32.0);
  const double q = c2r + 1.0;
  const double pr2 = p * r2;
  const double y = pr2 + q;
  const double ys = y * s;
  return (float)ys;
}
