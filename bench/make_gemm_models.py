#!/usr/bin/env python3
"""Writes GEMM-shaped single-operator float32 models for bench/gemm_bench.sh.

A 1x1 CONV_2D with stride 1 on NHWC is a GEMM: M = H*W, K = in channels, N = out channels.
FULLY_CONNECTED with batch 1 is a GEMV. Weights are seeded uniform values (modelgen's PRNG), so
the same command writes the same bytes. Standard library only (uses ../modelgen).

    python3 bench/make_gemm_models.py OUTDIR
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "modelgen"))
import casekit as K  # noqa: E402
import tflite_schema as S  # noqa: E402

# name: (H, W, Cin, Cout) for 1x1 conv; FC: (batch, in, out)
CONVS = [
    ("conv1x1_56x56_64to256", 56, 56, 64, 256),
    ("conv1x1_56x56_256to256", 56, 56, 256, 256),
    ("conv1x1_28x28_512to128", 28, 28, 512, 128),
    ("conv1x1_14x14_1024to256", 14, 14, 1024, 256),
    ("conv1x1_7x7_2048to512", 7, 7, 2048, 512),
    ("conv1x1_7x7_320to1280", 7, 7, 320, 1280),
]
FCS = [
    ("fc_1x1024to1024", 1, 1024, 1024),
    ("fc_64x1024to1024", 64, 1024, 1024),
]


def conv(name, h, w, cin, cout):
    rng = K.Rng(K.seed_of(name))
    x = K.T(S.FLOAT32, [1, h, w, cin], name="input")
    wt = K.T(S.FLOAT32, [cout, 1, 1, cin], const=K.uniform_f32(rng, cout * cin, (3.0 / cin) ** 0.5), name="weights")
    b = K.T(S.FLOAT32, [cout], const=K.uniform_f32(rng, cout, 0.1), name="bias")
    y = K.T(S.FLOAT32, [1, h, w, cout], name="output")
    return K.single(name, "CONV_2D", [x, wt, b], [y],
                    {"padding": "VALID", "stride_w": 1, "stride_h": 1, "fused_activation_function": "NONE"})


def fc(name, batch, n_in, n_out):
    rng = K.Rng(K.seed_of(name))
    x = K.T(S.FLOAT32, [batch, n_in], name="input")
    wt = K.T(S.FLOAT32, [n_out, n_in], const=K.uniform_f32(rng, n_out * n_in, (3.0 / n_in) ** 0.5), name="weights")
    b = K.T(S.FLOAT32, [n_out], const=K.uniform_f32(rng, n_out, 0.1), name="bias")
    y = K.T(S.FLOAT32, [batch, n_out], name="output")
    return K.single(name, "FULLY_CONNECTED", [x, wt, b], [y], {"fused_activation_function": "NONE"})


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_gemm_models.py OUTDIR")
    K.write_models(sys.argv[1], [conv(*c) for c in CONVS] + [fc(*f) for f in FCS],
                   keep_existing=True)


if __name__ == "__main__":
    main()
