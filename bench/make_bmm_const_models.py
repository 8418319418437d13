#!/usr/bin/env python3
"""Writes float32 BATCH_MATMUL models whose rhs is a constant of the file (exact53: tfcc packs
such an rhs for the GEMM once at load, and transposes an adj_y one once on the XNNPACK-order
path of hybrid models, where both were redone every run). Seeded values (modelgen's PRNG), so
the same command writes the same bytes. Standard library only (uses ../modelgen).

  bmm_const_128x256x256         lhs [1,128,256] x rhs [256,256] (one rhs for the batch)
  bmm_const_b4_64x64x64_adj_y   lhs [4,64,64] x rhs [4,64,64] adj_y (four rhs matrices)
  bmm_const_proj4_64x256        four constant-rhs projections of a [1,64,256] sequence
                                 (a transformer's Q, K, V, output as an einsum export writes
                                 them), chained by ADDs
  bmm_const_adj_y_hybrid        lhs [1,128,256] x rhs [256,256] adj_y, then a hybrid
                                 FULLY_CONNECTED (int8 weights): TFLITE mode's XNNPACK order

    python3 bench/make_bmm_const_models.py OUTDIR
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "modelgen"))
import casekit as K  # noqa: E402
import tflite_schema as S  # noqa: E402

F32, I8 = S.FLOAT32, S.INT8


def bmm_single(name, lsh, rsh, adj_y):
    rng = K.Rng(K.seed_of(name))
    n = rsh[-2] if adj_y else rsh[-1]
    bat = [max(a, b) for a, b in zip([1] * (len(rsh) - len(lsh)) + lsh[:-2], rsh[:-2])] or lsh[:-2]
    t = {"x": K.T(F32, lsh, name="input"),
         "w": K.T(F32, rsh, const=K.uniform_f32(rng, K.numel(rsh), (3.0 / lsh[-1]) ** 0.5), name="rhs"),
         "y": K.T(F32, bat + [lsh[-2], n], name="output")}
    return K.Case(name, t, [("BATCH_MATMUL", ["x", "w"], ["y"], {"adj_y": adj_y})], ["x"], ["y"])


def proj4(name, s, d):
    rng = K.Rng(K.seed_of(name))
    t = {"x": K.T(F32, [1, s, d], name="input")}
    ops, prev = [], "x"
    for i in range(4):
        t["w%d" % i] = K.T(F32, [d, d], const=K.uniform_f32(rng, d * d, (3.0 / d) ** 0.5), name="w%d" % i)
        t["p%d" % i] = K.T(F32, [1, s, d])
        t["a%d" % i] = K.T(F32, [1, s, d], name="output" if i == 3 else None)
        ops.append(("BATCH_MATMUL", [prev, "w%d" % i], ["p%d" % i], {}))
        ops.append(("ADD", ["p%d" % i, prev], ["a%d" % i], {}))
        prev = "a%d" % i
    return K.Case(name, t, ops, ["x"], [prev])


def hybrid(name):
    rng = K.Rng(K.seed_of(name))
    t = {"x": K.T(F32, [1, 128, 256], name="input"),
         "w": K.T(F32, [256, 256], const=K.uniform_f32(rng, 256 * 256, 0.1), name="rhs"),
         "y": K.T(F32, [1, 128, 256]),
         "wh": K.T(I8, [16, 256], const=[rng.randint(-127, 127) for _ in range(16 * 256)],
                   q={"scale": [0.004] * 16, "zero_point": [0] * 16, "quantized_dimension": 0}),
         "bh": K.T(F32, [16], const=K.uniform_f32(rng, 16, 0.1)),
         "z": K.T(F32, [1, 128, 16], name="output")}
    return K.Case(name, t, [("BATCH_MATMUL", ["x", "w"], ["y"], {"adj_y": True}),
                            ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {"keep_num_dims": True})],
                  ["x"], ["z"])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_bmm_const_models.py OUTDIR")
    K.write_models(sys.argv[1], [
        bmm_single("bmm_const_128x256x256", [1, 128, 256], [256, 256], False),
        bmm_single("bmm_const_b4_64x64x64_adj_y", [4, 64, 64], [4, 64, 64], True),
        proj4("bmm_const_proj4_64x256", 64, 256), hybrid("bmm_const_adj_y_hybrid")])


if __name__ == "__main__":
    main()
