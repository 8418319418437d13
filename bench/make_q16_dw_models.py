#!/usr/bin/env python3
"""Writes int16x8 DEPTHWISE_CONV_2D models (int16 activations, int8 per-channel weights, int64
biases, as the converter's 16x8 quantizer makes them) for the q16-dwconv kernels' A/B (i16x60):
depth multipliers above 1 and windows of more than 32 taps, which ran the per-tap kernel before
and run the fused kernel since (the input spread to the output channels in scratch; up to 256
taps). Seeded values (modelgen's PRNG), so the same command writes the same bytes. Standard
library only (uses ../modelgen).

  q16_dw_m2_chain   [1,112,112,16]: 3x3 m2 -> 32 ch, 3x3 stride 2 m2 -> 64 ch (56x56),
                     3x3 m2 -> 128 ch, 3x3 stride 2 m2 -> 256 ch (28x28)
  q16_dw_7x7        [1,56,56,96]: two 7x7 depthwise layers (49 taps), ReLU6 between
  q16_dw_7x7_m2     [1,56,56,48]: 7x7 m2 -> 96 ch, then 5x5 m2 -> 192 ch
  (dw61: past 256 taps, which ran the per-tap kernel before and run the fused kernel since,
  past 255 tap pairs in int32 runs added in int64)
  q16_dw_1x300      [1,1,400,64]: a 1x300 temporal layer (audio), then 1x31
  q16_dw_17x17      [1,32,32,64]: two 17x17 layers (289 taps), ReLU6 between
  q16_dw_31x31_m2   [1,28,28,24]: 31x31 m2 -> 48 ch (961 taps, RepLKNet-like)

    python3 bench/make_q16_dw_models.py OUTDIR
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "modelgen"))
import casekit as K  # noqa: E402
import op_cases as O  # noqa: E402


def dw_chain(name, ishape, layers):
    """layers: (multiplier, kernel, stride, activation) each, SAME padding; kernel k (k x k) or
    (kh, kw)."""
    rng = K.Rng(K.seed_of(name))
    t = {"x": O.act("i16", ishape, -2.0, 2.0)}
    ops, prev, shape = [], "x", list(ishape)
    for i, (mult, k, s, actf) in enumerate(layers):
        kh, kw = k if isinstance(k, tuple) else (k, k)
        oc = shape[3] * mult
        w, ws = O.weights(rng, "i16", [1, kh, kw, oc], 3, wmax=0.5)
        b = O.bias(rng, "i16", oc, O.qscale(t[prev]), ws, 0.5)
        shape = [1, K.conv_out(shape[1], kh, s, 1, "SAME"), K.conv_out(shape[2], kw, s, 1, "SAME"),
                 oc]
        y = O.out_for("i16", shape, math.sqrt(kh * kw) * 1.15 * 0.29)
        t["w%d" % i], t["b%d" % i], t["y%d" % i] = w, b, y
        ops.append(("DEPTHWISE_CONV_2D", [prev, "w%d" % i, "b%d" % i], ["y%d" % i],
                    {"padding": "SAME", "stride_w": s, "stride_h": s, "depth_multiplier": mult,
                     "dilation_w_factor": 1, "dilation_h_factor": 1,
                     "fused_activation_function": actf}))
        prev = "y%d" % i
    return K.Case(name, t, ops, ["x"], [prev])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cases = [
        dw_chain("q16_dw_m2_chain", [1, 112, 112, 16],
                 [(2, 3, 1, "RELU6"), (2, 3, 2, "RELU6"), (2, 3, 1, "RELU6"), (2, 3, 2, "NONE")]),
        dw_chain("q16_dw_7x7", [1, 56, 56, 96], [(1, 7, 1, "RELU6"), (1, 7, 1, "NONE")]),
        dw_chain("q16_dw_7x7_m2", [1, 56, 56, 48], [(2, 7, 1, "RELU6"), (2, 5, 1, "NONE")]),
        dw_chain("q16_dw_1x300", [1, 1, 400, 64], [(1, (1, 300), 1, "RELU6"), (1, (1, 31), 1, "NONE")]),
        dw_chain("q16_dw_17x17", [1, 32, 32, 64], [(1, 17, 1, "RELU6"), (1, 17, 1, "NONE")]),
        dw_chain("q16_dw_31x31_m2", [1, 28, 28, 24], [(2, 31, 1, "NONE")]),
    ]
    K.write_models(sys.argv[1], cases)


if __name__ == "__main__":
    main()
