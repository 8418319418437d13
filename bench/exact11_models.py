#!/usr/bin/env python3
"""Small models of the exact paths whose constant-weight layouts exact11 moved from every run to
init (docs/quantization.md, "exact11"): written with modelgen, for `tfcc bench` / cpu_ab.py.

  python3 bench/exact11_models.py --out DIR

- eigen_conv_ref.tflite (run with --quant-compat reference): float CONV_2Ds of a hybrid subgraph
  the classic interpreter's delegate declines (a FILL whose dims come from SHAPE), so REFERENCE
  mode runs its builtin im2col + Eigen GEMM (tfcc_eigen_conv_f32): 3x3 64 -> 64 on 8x8 and 1x1
  256 -> 256 on 4x4 (the filter was transposed to [K][out_c] on every run), then a hybrid 1x1.
- fc_tail.tflite (TFLITE mode): XNNPACK-order float layers of a hybrid model on the nr2 kernel's
  narrow last block: FULLY_CONNECTED 256 -> 36 on 4 rows (below the stack copy's 8 rows: the
  old kernel before) and 1x1 CONV_2D 64 -> 20 on 8x8 pixels (the block copied per call before),
  then a hybrid FULLY_CONNECTED.
- fc_eigen_ref.tflite (--quant-compat reference): a float FULLY_CONNECTED 256 -> 256 on 4 rows
  of a hybrid subgraph left undelegated (a RESHAPE by a PACK of constants): the builtin Eigen
  order on constant weights (each 16-unit panel was transposed into scratch on every call).
Standard library only (modelgen)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modelgen"))
import tflite_schema as S  # noqa: E402
from casekit import Case, Rng, T, f32, seed_of, write_models  # noqa: E402
from op_cases import act, weights  # noqa: E402

F32, I32 = S.FLOAT32, S.INT32


def fconst(name, shape, lim=0.5):
    rng = Rng(seed_of(name))
    n = 1
    for d in shape:
        n *= d
    return T(F32, shape, const=[f32(rng.uniform(-lim, lim)) for _ in range(n)])


def hyb(name, shape, qdim):
    return weights(Rng(seed_of(name)), "i8", shape, qdim, per_channel=True, wmax=0.5)[0]


def eigen_conv_ref():
    n = "exact11_eigen_conv_ref"
    conv = {"padding": "SAME", "stride_w": 1, "stride_h": 1}
    t = {"x": act("f32", [1, 8, 8, 64], -1.0, 1.0), "w1": fconst(n + "w1", [64, 3, 3, 64], 0.1),
         "b1": fconst(n + "b1", [64]), "c1": T(F32, [1, 8, 8, 64]), "s": T(I32, [4]),
         "one": T(F32, [], const=[1.0]), "f": T(F32, [1, 8, 8, 64]), "m": T(F32, [1, 8, 8, 64]),
         "wh": hyb(n + "wh", [8, 1, 1, 64], 0), "bh": fconst(n + "bh", [8]),
         "y": T(F32, [1, 8, 8, 8]),
         "x2": act("f32", [1, 4, 4, 256], -1.0, 1.0), "w2": fconst(n + "w2", [256, 1, 1, 256], 0.1),
         "b2": fconst(n + "b2", [256]), "c2": T(F32, [1, 4, 4, 256])}
    ops = [("CONV_2D", ["x", "w1", "b1"], ["c1"], dict(conv, fused_activation_function="RELU")),
           ("SHAPE", ["c1"], ["s"], {"out_type": I32}),
           ("FILL", ["s", "one"], ["f"], {}),
           ("MUL", ["c1", "f"], ["m"], {}),
           ("CONV_2D", ["m", "wh", "bh"], ["y"], conv),
           ("CONV_2D", ["x2", "w2", "b2"], ["c2"], conv)]
    return Case("eigen_conv_ref", t, ops, ["x", "x2"], ["y", "c2"])


def fc_tail():
    n = "exact11_fc_tail"
    t = {"x": act("f32", [4, 256], -1.0, 1.0), "wf": fconst(n + "wf", [36, 256], 0.1),
         "bf": fconst(n + "bf", [36]), "y": T(F32, [4, 36]),
         "wh": hyb(n + "wh", [8, 36], 0), "bh": fconst(n + "bh", [8]), "z": T(F32, [4, 8]),
         "p": act("f32", [1, 8, 8, 64], -1.0, 1.0), "wc": fconst(n + "wc", [20, 1, 1, 64], 0.2),
         "bc": fconst(n + "bc", [20]), "c": T(F32, [1, 8, 8, 20])}
    ops = [("FULLY_CONNECTED", ["x", "wf", "bf"], ["y"], {"fused_activation_function": "RELU"}),
           ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {}),
           ("CONV_2D", ["p", "wc", "bc"], ["c"],
            {"padding": "VALID", "stride_w": 1, "stride_h": 1})]
    return Case("fc_tail", t, ops, ["x", "p"], ["z", "c"])


def fc_eigen_ref():
    n = "exact11_fc_eigen_ref"
    t = {"x": act("f32", [4, 256], -1.0, 1.0), "m1": T(I32, [], const=[4]),
         "m2": T(I32, [], const=[256]), "sh": T(I32, [2]), "r": T(F32, [4, 256]),
         "wa": fconst(n + "wa", [256, 256], 0.1), "ba": fconst(n + "ba", [256]),
         "y": T(F32, [4, 256]), "wq": hyb(n + "wq", [8, 256], 0), "bq": fconst(n + "bq", [8]),
         "z": T(F32, [4, 8])}
    ops = [("PACK", ["m1", "m2"], ["sh"], {"values_count": 2, "axis": 0}),
           ("RESHAPE", ["x", "sh"], ["r"], {}),
           ("FULLY_CONNECTED", ["r", "wa", "ba"], ["y"], {}),
           ("FULLY_CONNECTED", ["r", "wq", "bq"], ["z"], {})]
    return Case("fc_eigen_ref", t, ops, ["x"], ["y", "z"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    write_models(a.out, (eigen_conv_ref(), fc_tail(), fc_eigen_ref()))


if __name__ == "__main__":
    main()
