#!/usr/bin/env python3
"""Writes the CONV_2D models of lifecycle.test_grouped_release: one float32, one int8 and one
16x8 convolution whose filter (3x3, 64 input channels, 16 output channels) holds whole 4 KiB
pages, so that a load from a file packs it and gives those pages back. The test then resizes
the input to 128 channels (a grouped convolution, which reads the raw filter).

usage: python3 modelgen/make_grouped_release.py --out tests/ops/data/grouped_release"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_schema as S  # noqa: E402
from casekit import T, single, write_models_main  # noqa: E402

F32, I8, I16, I32, I64 = S.FLOAT32, S.INT8, S.INT16, S.INT32, S.INT64
OC, FH, FW, C, H, W = 16, 3, 3, 64, 6, 6
OPTS = {"padding": "SAME", "stride_w": 1, "stride_h": 1}


def w8(n):
    return [((i * 37 + 11) % 255) - 127 for i in range(n)]


def cases():
    n = OC * FH * FW * C
    wq = {"scale": [0.01 + 0.0005 * i for i in range(OC)], "zero_point": [0] * OC,
          "quantized_dimension": 0}
    bq = lambda s_in: {"scale": [s_in * (0.01 + 0.0005 * i) for i in range(OC)],  # noqa: E731
                       "zero_point": [0] * OC, "quantized_dimension": 0}
    bias = [(i * 131) % 2001 - 1000 for i in range(OC)]
    f32 = single("conv_f32", "CONV_2D", [
        T(F32, [1, H, W, C]),
        T(F32, [OC, FH, FW, C], const=[((i * 7) % 13 - 6) * 0.01 for i in range(n)]),
        T(F32, [OC], const=[0.125 * (i % 3) for i in range(OC)])], [T(F32, [1, H, W, OC])], OPTS)
    i8 = single("conv_i8", "CONV_2D", [
        T(I8, [1, H, W, C], q=(0.05, 3)), T(I8, [OC, FH, FW, C], q=wq, const=w8(n)),
        T(I32, [OC], q=bq(0.05), const=bias)], [T(I8, [1, H, W, OC], q=(0.1, -2))], OPTS)
    i16 = single("conv_i16", "CONV_2D", [
        T(I16, [1, H, W, C], q=(0.05, 0)), T(I8, [OC, FH, FW, C], q=wq, const=w8(n)),
        T(I64, [OC], q=bq(0.05), const=bias)], [T(I16, [1, H, W, OC], q=(0.1, 0))], OPTS)
    return [f32, i8, i16]


if __name__ == "__main__":
    write_models_main(cases)
