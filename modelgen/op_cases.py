"""Operator conformance cases: small single-op TFLite models over the operators of
src/ops/op_list.h, in float32 and each quantized form TFLite defines for the op
(uint8 asymmetric, int8 with per-channel weights, int16 symmetric activations),
with odd shapes, broadcasting, strides/dilations/padding, fused activations and
zero points at the edges of the quantized ranges.

cases() returns the list of casekit.Case; make_conformance.py writes them out and
runs TensorFlow Lite on them."""
import math
import struct

import opsc_cases
import sparse_cases
import seq_cases
import tflite_schema as S
from casekit import (OMIT, QRANGE, Case, Rng, T, broadcast, choose_qparams, conv_out, f32, single,
                     numel, seed_of)

F32, I32, I64, U8, I8, I16, BOOL = S.FLOAT32, S.INT32, S.INT64, S.UINT8, S.INT8, S.INT16, S.BOOL
DT = {"f32": F32, "u8": U8, "i8": I8, "i16": I16, "i32": I32, "i64": I64, "bool": BOOL}
QDT = ("u8", "i8", "i16")

_CASES = []


def add(case):
    _CASES.append(case)


def act(dt, shape, lo=-4.0, hi=4.0, **kw):
    """An activation tensor: float32 with values in [lo, hi], or quantized to cover it."""
    d = DT[dt]
    if d == F32:
        return T(F32, shape, lo=lo, hi=hi, **kw)
    if d in (U8, I8, I16):
        return T(d, shape, q=choose_qparams(d, lo, hi), **kw)
    return T(d, shape, **kw)


def same_q(t, shape=None, **kw):
    """A tensor with the dtype and quantization of t (for ops that keep the scale)."""
    return T(t.dtype, t.shape if shape is None else shape, q=t.q, **kw)


def i32c(values, shape=None):
    return T(I32, [len(values)] if shape is None else shape, const=list(values))


def qscale(t):
    return t.q[0] if t.q else 1.0


# ---------------------------------------------------------------- weights
def weights(rng, dt, shape, qdim, per_channel=True, wmax=1.0):
    """Constant filter. float: uniform [-wmax, wmax]. uint8 activations: uint8 per-tensor
    asymmetric weights. int8/int16 activations: int8 symmetric, per channel along qdim."""
    n = numel(shape)
    if dt == "f32":
        return T(F32, shape, const=[f32(rng.uniform(-wmax, wmax)) for _ in range(n)]), [1.0]
    if dt == "u8":
        scale = f32(2 * wmax / 255.0)
        zp = rng.randint(100, 156)
        return T(U8, shape, q=(scale, zp), const=[rng.randint(0, 255) for _ in range(n)]), [scale]
    channels = shape[qdim] if per_channel else 1
    scales = [f32(wmax / 127.0 * rng.uniform(0.3, 1.0)) for _ in range(channels)]
    vals = [rng.randint(-127, 127) for _ in range(n)]
    if n >= 2:
        vals[0], vals[-1] = -127, 127
    q = {"scale": scales, "zero_point": [0] * channels, "quantized_dimension": qdim if per_channel else 0}
    return T(I8, shape, q=q, const=vals), scales


def bias(rng, dt, n, in_scale, w_scales, bmax=1.0):
    vals = [rng.uniform(-bmax, bmax) for _ in range(n)]
    if dt == "f32":
        return T(F32, [n], const=[f32(v) for v in vals])
    scales = [f32(in_scale * ws) for ws in (w_scales if len(w_scales) == n else w_scales * n)]
    if len(w_scales) == 1:
        scales = scales[:1]
    bdt = I64 if dt == "i16" else I32
    q = [int(round(v / scales[i if len(scales) > 1 else 0])) for i, v in enumerate(vals)]
    return T(bdt, [n], q={"scale": scales, "zero_point": [0] * len(scales), "quantized_dimension": 0},
             const=q)


def out_for(dt, shape, std):
    """Output tensor whose quantized range covers about +-3 standard deviations."""
    return act(dt, shape, -3.0 * std, 3.0 * std)


# ---------------------------------------------------------------- conv family
def conv_cases():
    # (tag, in NHWC, out channels, kernel hw, stride hw, dilation hw, padding, activation)
    shapes = [
        ("3x3_same", [1, 5, 7, 3], 4, (3, 3), (1, 1), (1, 1), "SAME", "NONE"),
        ("3x3_valid_s2_relu", [1, 9, 8, 2], 3, (3, 3), (2, 2), (1, 1), "VALID", "RELU"),
        ("2x3_same_s2_relu6", [2, 6, 5, 3], 5, (2, 3), (2, 1), (1, 1), "SAME", "RELU6"),
        ("3x3_dil2_same", [1, 7, 7, 2], 3, (3, 3), (1, 1), (2, 2), "SAME", "NONE"),
        ("1x1_n1to1", [1, 4, 3, 5], 6, (1, 1), (1, 1), (1, 1), "VALID", "RELU_N1_TO_1"),
    ]
    for dt in ("f32", "u8", "i8", "i16"):
        for tag, ishape, oc, (kh, kw), (sh, sw), (dh, dw), pad, actf in shapes:
            if dt == "i16" and tag not in ("3x3_same", "3x3_valid_s2_relu"):
                continue
            if dt == "u8" and tag == "1x1_n1to1":
                continue
            name = "conv_2d_%s_%s" % (dt, tag)
            rng = Rng(seed_of(name))
            x = act(dt, ishape, -2.0, 2.0)
            w, ws = weights(rng, dt, [oc, kh, kw, ishape[3]], 0, wmax=0.5)
            b = bias(rng, dt, oc, qscale(x), ws, 0.5)
            oh = conv_out(ishape[1], kh, sh, dh, pad)
            ow = conv_out(ishape[2], kw, sw, dw, pad)
            k = kh * kw * ishape[3]
            y = out_for(dt, [ishape[0], oh, ow, oc], math.sqrt(k) * 1.15 * 0.29)
            # (an omitted bias is not covered: the classic TFLite CONV_2D rejects it and
            # LiteRT returns garbage for it)
            add(single(name, "CONV_2D", [x, w, b], [y],
                       {"padding": pad, "stride_w": sw, "stride_h": sh, "dilation_w_factor": dw,
                        "dilation_h_factor": dh, "fused_activation_function": actf}))
    # uint8 with zero points at the edges: input range [0, 6] (zp 0), output [-8, 0] (zp 255)
    rng = Rng(seed_of("conv_2d_u8_edge_zp"))
    x = T(U8, [1, 4, 4, 2], q=choose_qparams(U8, 0.0, 6.0))
    w, ws = weights(rng, "u8", [3, 2, 2, 2], 0, wmax=0.5)
    b = bias(rng, "u8", 3, qscale(x), ws)
    y = T(U8, [1, 3, 3, 3], q=choose_qparams(U8, -8.0, 0.0))
    add(single("conv_2d_u8_edge_zp", "CONV_2D", [x, w, b], [y],
               {"padding": "VALID", "stride_w": 1, "stride_h": 1}))
    # int8 with input zero point -128 and output zero point 127
    rng = Rng(seed_of("conv_2d_i8_edge_zp"))
    x = T(I8, [1, 4, 5, 3], q=choose_qparams(I8, 0.0, 3.0))
    w, ws = weights(rng, "i8", [2, 3, 3, 3], 0, wmax=0.5)
    b = bias(rng, "i8", 2, qscale(x), ws)
    y = T(I8, [1, 4, 5, 2], q=choose_qparams(I8, -6.0, 0.0))
    add(single("conv_2d_i8_edge_zp", "CONV_2D", [x, w, b], [y],
               {"padding": "SAME", "stride_w": 1, "stride_h": 1}))
    # int8 per-channel weights whose scales XNNPACK's delegate refuses (it wants every scale
    # normal and positive), so TFLite's builtin kernel runs the node: im2col and ruy, whose
    # multiplier rounds once. A negative scale (mcunet of mit-han-lab: folded negative batch-norm
    # gammas; the reader refused it) makes a negative multiplier, a zero scale (an all-zero
    # channel) a zero one.
    # 16x16x16 outputs: the two roundings differ on a few in a thousand
    for tag, chans in (("neg_channel_scale", {1: -1.0, 4: -1.0, 9: -1.0}),
                       ("zero_channel_scale", {2: 0.0})):
        name = "conv_2d_i8_%s" % tag
        rng = Rng(seed_of(name))
        cin, cout, k = 8, 16, 3 * 3 * 8
        x = act("i8", [1, 16, 16, cin], -2.0, 2.0)
        w, ws = weights(rng, "i8", [cout, 3, 3, cin], 0, wmax=0.5)
        ws = [s_ * chans.get(c, 1.0) for c, s_ in enumerate(ws)]
        w.q["scale"] = ws
        for c in (c for c, s_ in enumerate(ws) if s_ == 0.0):
            w.const[c * k:(c + 1) * k] = [0] * k
        b = bias(rng, "i8", cout, qscale(x), [s_ if s_ != 0.0 else 1.0 for s_ in ws], 0.5)
        b.q["scale"] = [f32(qscale(x) * s_) for s_ in ws]
        b.const = [0 if s_ == 0.0 else v for v, s_ in zip(b.const, ws)]
        y = out_for("i8", [1, 16, 16, cout], math.sqrt(k) * 1.15 * 0.29)
        add(single(name, "CONV_2D", [x, w, b], [y],
                   {"padding": "SAME", "stride_w": 1, "stride_h": 1, "fused_activation_function": "NONE"}))


def negative_scale_cases():
    """ops: per-channel int8 weights with negative scales (mcunet's converter) in the other
    per-channel operators: negative multipliers in TFLite's builtin kernels (XNNPACK refuses
    the nodes)."""
    name = "depthwise_conv_2d_i8_neg_channel_scale"
    rng = Rng(seed_of(name))
    x = act("i8", [1, 12, 12, 16], -2.0, 2.0)
    w, ws = weights(rng, "i8", [1, 3, 3, 16], 3, wmax=0.5)
    ws = [-s_ if c in (0, 5, 11) else s_ for c, s_ in enumerate(ws)]
    w.q["scale"] = ws
    b = bias(rng, "i8", 16, qscale(x), ws, 0.5)
    y = out_for("i8", [1, 12, 12, 16], 3 * 1.15 * 0.29)
    add(single(name, "DEPTHWISE_CONV_2D", [x, w, b], [y],
               {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1}))
    name = "fully_connected_i8_neg_channel_scale"
    rng = Rng(seed_of(name))
    x = act("i8", [64, 40], -2.0, 2.0)
    w, ws = weights(rng, "i8", [24, 40], 0, wmax=0.5)
    ws = [-s_ if c in (2, 7, 20) else s_ for c, s_ in enumerate(ws)]
    w.q["scale"] = ws
    b = bias(rng, "i8", 24, qscale(x), ws, 0.5)
    y = out_for("i8", [64, 24], math.sqrt(40) * 1.15 * 0.29)
    add(single(name, "FULLY_CONNECTED", [x, w, b], [y], {}))


def depthwise_cases():
    shapes = [
        ("3x3_same_m1", [1, 5, 6, 4], 1, (3, 3), (1, 1), (1, 1), "SAME", "NONE"),
        ("3x3_valid_s2_m2_relu", [1, 7, 7, 3], 2, (3, 3), (2, 2), (1, 1), "VALID", "RELU"),
        ("3x3_dil2_relu6", [2, 6, 6, 2], 1, (3, 3), (1, 1), (2, 2), "SAME", "RELU6"),
        ("5x3_same_s2_m3", [1, 9, 5, 2], 3, (5, 3), (2, 1), (1, 1), "SAME", "NONE"),
        # wider: runs of interior pixels in whole 8-channel steps and a tail (the WebAssembly
        # column-quad kernel's column reuse at stride 1 and 2, q8-dwconv-cols-wasmsimd.c)
        ("3x3_same_c20_relu6", [1, 6, 9, 20], 1, (3, 3), (1, 1), (1, 1), "SAME", "RELU6"),
        ("3x3_same_s2_c24", [1, 7, 10, 24], 1, (3, 3), (2, 2), (1, 1), "SAME", "NONE"),
        ("3x3_valid_s2_m3_c12_relu", [1, 8, 9, 4], 3, (3, 3), (2, 2), (1, 1), "VALID", "RELU"),
        # uint8 only: weight zero point 128, so that every w - zp is a signed byte (that kernel's
        # uint8 path; other zero points pack for the SIMD128 kernel)
        ("3x3_same_c24_wzp128", [1, 5, 11, 24], 1, (3, 3), (1, 1), (1, 1), "SAME", "RELU6"),
        # int16 only (i16x60): the fused int16x8 kernel past 32 taps (7x7 = 49, 11x11 = 121) and
        # with depth multipliers 2 and 3 (the input spread to the output channels)
        ("7x7_same_m2_c10", [1, 9, 10, 5], 2, (7, 7), (1, 1), (1, 1), "SAME", "NONE"),
        ("11x11_same_c12_relu6", [1, 12, 13, 12], 1, (11, 11), (1, 1), (1, 1), "SAME", "RELU6"),
        ("3x3_same_m2_c40", [1, 6, 7, 20], 2, (3, 3), (1, 1), (1, 1), "SAME", "NONE"),
        # int16 only (dw61): the fused kernel past 256 taps (1x300 temporal, 23x23 = 529 with
        # multiplier 2) and past 510 (1x600 with multiplier 3: int32 runs added in int64; VALID,
        # so every output pixel sums all 600 taps, and small, so that ops.test_empty_dims's
        # variants of 65 rows or batches stay well under its 2 s CPU bound under ASan)
        ("1x300_same_c20", [1, 1, 320, 20], 1, (1, 300), (1, 1), (1, 1), "SAME", "NONE"),
        ("23x23_same_m2_c6", [1, 24, 25, 3], 2, (23, 23), (1, 1), (1, 1), "SAME", "RELU6"),
        ("1x600_valid_s2_m3_c3", [1, 2, 620, 1], 3, (1, 600), (1, 2), (1, 1), "VALID", "NONE"),
    ]
    i16_tags = ("3x3_same_m1", "3x3_valid_s2_m2_relu", "5x3_same_s2_m3", "3x3_valid_s2_m3_c12_relu",
                "7x7_same_m2_c10", "11x11_same_c12_relu6", "3x3_same_m2_c40", "1x300_same_c20",
                "23x23_same_m2_c6", "1x600_valid_s2_m3_c3")
    for dt in ("f32", "u8", "i8", "i16"):
        for tag, ishape, mult, (kh, kw), (sh, sw), (dh, dw), pad, actf in shapes:
            if dt == "i16" and tag not in i16_tags:
                continue
            if dt != "i16" and tag in i16_tags[4:]:
                continue
            if tag.endswith("_wzp128") and dt != "u8":
                continue
            name = "depthwise_conv_2d_%s_%s" % (dt, tag)
            rng = Rng(seed_of(name))
            oc = ishape[3] * mult
            x = act(dt, ishape, -2.0, 2.0)
            w, ws = weights(rng, dt, [1, kh, kw, oc], 3, wmax=0.5)
            if tag.endswith("_wzp128"):
                w = T(U8, [1, kh, kw, oc], q=(ws[0], 128),
                      const=[rng.randint(0, 255) for _ in range(kh * kw * oc)])
            b = bias(rng, dt, oc, qscale(x), ws, 0.5)
            oh = conv_out(ishape[1], kh, sh, dh, pad)
            ow = conv_out(ishape[2], kw, sw, dw, pad)
            y = out_for(dt, [ishape[0], oh, ow, oc], math.sqrt(kh * kw) * 1.15 * 0.29)
            add(single(name, "DEPTHWISE_CONV_2D", [x, w, b], [y],
                       {"padding": pad, "stride_w": sw, "stride_h": sh, "depth_multiplier": mult,
                        "dilation_w_factor": dw, "dilation_h_factor": dh,
                        "fused_activation_function": actf}))


def transpose_conv_cases():
    shapes = [
        ("3x3_s2_same", [1, 3, 4, 3], 2, (3, 3), (2, 2), "SAME"),
        ("2x2_s2_valid", [1, 3, 3, 2], 3, (2, 2), (2, 2), "VALID"),
        ("3x3_s1_same", [1, 4, 5, 2], 2, (3, 3), (1, 1), "SAME"),
    ]
    for dt in ("f32", "u8", "i8", "i16"):
        for tag, ishape, oc, (kh, kw), (sh, sw), pad in shapes:
            if dt == "i16" and tag != "3x3_s2_same":
                continue
            name = "transpose_conv_%s_%s" % (dt, tag)
            rng = Rng(seed_of(name))
            if pad == "SAME":
                oh, ow = ishape[1] * sh, ishape[2] * sw
            else:
                oh, ow = (ishape[1] - 1) * sh + kh, (ishape[2] - 1) * sw + kw
            oshape = [ishape[0], oh, ow, oc]
            x = act(dt, ishape, -2.0, 2.0)
            w, ws = weights(rng, dt, [oc, kh, kw, ishape[3]], 0, wmax=0.5)
            b = bias(rng, dt, oc, qscale(x), ws, 0.5)
            y = out_for(dt, oshape, math.sqrt(ishape[3] * 2) * 1.15 * 0.29)
            ins = [i32c(oshape), w, x, b]
            if tag == "3x3_s1_same":
                ins = [i32c(oshape), w, x]  # no bias input
            add(single(name, "TRANSPOSE_CONV", ins, [y],
                       {"padding": pad, "stride_w": sw, "stride_h": sh}))
    # ops: a float TRANSPOSE_CONV whose output_shape is not a constant: TFLite's XNNPACK delegate
    # leaves it to the builtin kernel (TransposeConvV2: Eigen's GEMM makes each tap's dot
    # product, two sums over the channels below a multiple of 8 for pixels in blocks of 4, then
    # Col2im). The outputs' fractional parts at 2^-18 turn each ulp of that order into 1/8
    # (HiFi-GAN vocoders compute output_shape; the twelfth sweep's dynamic-range one was 0.0046
    # off at its output, its hybrid convolutions downstream turning the ulps into steps)
    for tag, ishape, oc, (kh, kw), (sh, sw), with_bias in (
            ("c21_p9_bias", [1, 3, 3, 21], 6, (3, 3), (2, 2), True),
            ("c64_p8", [1, 1, 8, 64], 5, (1, 16), (1, 8), False),
            ("c40_p7", [1, 1, 7, 40], 3, (1, 4), (1, 2), True),
            # Eigen's depth blocks above 816 channels (1024 -> 520, 2048 -> 688, 900 -> 456)
            ("c1024_p6_kc520", [1, 2, 3, 1024], 3, (2, 2), (2, 2), False),
            ("c2048_p5_kc688_bias", [1, 1, 5, 2048], 2, (1, 3), (1, 2), True),
            ("c900_p9_kc456_bias", [1, 3, 3, 900], 4, (2, 2), (2, 2), True),
            # one running sum: a matrix-vector product (1 tap x 1 channel) and Eigen's
            # coefficient-wise product (k + m + n < 20)
            ("m1_gemv_c100", [1, 2, 4, 100], 1, (1, 1), (1, 1), False),
            ("lazy_c10_p4_bias", [1, 1, 4, 10], 2, (1, 1), (1, 1), True)):
        name = "transpose_conv_f32_builtin_order_" + tag
        rng = Rng(seed_of(name))
        oshape = [ishape[0], ishape[1] * sh, ishape[2] * sw, oc]
        w, ws = weights(rng, "f32", [oc, kh, kw, ishape[3]], 0, wmax=0.5)
        tensors = {"os": T(I32, [4], values=oshape), "w": w, "x": act("f32", ishape, -1.0, 1.0),
                   "y": T(F32, oshape), "k": T(F32, [1], const=[262144.0]), "m": T(F32, oshape),
                   "f": T(F32, oshape), "fr": T(F32, oshape)}
        ins = ["os", "w", "x"]
        if with_bias:
            tensors["b"] = bias(rng, "f32", oc, 1.0, ws, 0.5)
            ins.append("b")
        case = Case(name, tensors,
                    [("TRANSPOSE_CONV", ins, ["y"], {"padding": "SAME", "stride_w": sw, "stride_h": sh}),
                     ("MUL", ["y", "k"], ["m"], {}), ("FLOOR", ["m"], ["f"], {}),
                     ("SUB", ["m", "f"], ["fr"], {})],
                    ["os", "x"], ["y", "fr"])
        case.engine = "tfweb"  # the outputs are dynamic in TFLite
        add(case)
    # ops: a float TRANSPOSE_CONV with a constant output_shape and constant weights runs in
    # LiteRT's XNNPACK delegate as a deconvolution (IGEMM: per output the bias, then the taps in
    # filter order, each tap's channels in order; under 8 output channels the 4x2c4
    # micro-kernel's four lanes by channel % 4). Strides 1-4 (subconvolutions, and stride >
    # kernel), kernels 2-5, channel tails, batch 2, bias / none, fused activations; the
    # fractional parts at 2^-18 as above (tfcc's former scatter order: 1-2 ulp, HiFi-GAN).
    # "builtin:": a shape the delegate refuses (ops/transpose_conv.c tconv_delegate_geom)
    for tag, ishape, oc, (kh, kw), (sh, sw), pad, with_bias, actf in (
            ("c4_k3_s2_ic13", [1, 4, 4, 13], 5, (3, 3), (2, 2), "SAME", True, "NONE"),
            ("c4_k2_s1_relu", [1, 5, 4, 6], 3, (2, 2), (1, 1), "VALID", False, "RELU"),
            ("n11_k5_s2_relu6", [1, 3, 4, 19], 11, (5, 5), (2, 2), "SAME", True, "RELU6"),
            ("n8_k4_s3_b2", [2, 3, 3, 8], 8, (4, 4), (3, 3), "VALID", True, "NONE"),
            ("n9_k2_s4_valid_nobias", [1, 3, 3, 10], 9, (2, 2), (4, 4), "VALID", False, "NONE"),
            ("n16_k1x16_s8", [1, 1, 6, 40], 16, (1, 16), (1, 8), "SAME", True, "NONE"),
            # SAME with a stride above the kernel: the delegate refuses it, the builtin runs
            ("builtin:n9_k2_s4_same_nobias", [1, 3, 3, 10], 9, (2, 2), (4, 4), "SAME", False,
             "NONE")):
        name = "transpose_conv_f32_xnnpack_order_" + tag
        if tag.startswith("builtin:"):
            name = "transpose_conv_f32_builtin_order_const_" + tag[len("builtin:"):]
        rng = Rng(seed_of(name))
        if pad == "SAME":
            oshape = [ishape[0], ishape[1] * sh, ishape[2] * sw, oc]
        else:
            oshape = [ishape[0], (ishape[1] - 1) * sh + kh, (ishape[2] - 1) * sw + kw, oc]
        w, ws = weights(rng, "f32", [oc, kh, kw, ishape[3]], 0, wmax=0.5)
        tensors = {"os": i32c(oshape), "w": w, "x": act("f32", ishape, -1.0, 1.0),
                   "y": T(F32, oshape), "k": T(F32, [1], const=[262144.0]), "m": T(F32, oshape),
                   "f": T(F32, oshape), "fr": T(F32, oshape)}
        ins = ["os", "w", "x"]
        if with_bias:
            tensors["b"] = bias(rng, "f32", oc, 1.0, ws, 0.5)
            ins.append("b")
        add(Case(name, tensors,
                 [("TRANSPOSE_CONV", ins, ["y"], {"padding": pad, "stride_w": sw, "stride_h": sh,
                                                  "fused_activation_function": actf}),
                  ("MUL", ["y", "k"], ["m"], {}), ("FLOOR", ["m"], ["f"], {}),
                  ("SUB", ["m", "f"], ["fr"], {})],
                 ["x"], ["y", "fr"]))
    # ops: an output_shape computed from constants (CONCATENATION of two constant halves, as a
    # Keras Conv1DTranspose export writes it): tfcc folds it at load, TFLite computes it at run
    # time, so the delegate refuses the node and the builtin kernel runs: the `folded` flag
    # keeps tfcc on the builtin order (XNNPACK's would differ here)
    name = "transpose_conv_f32_builtin_order_concat_shape"
    rng = Rng(seed_of(name))
    ishape, oc, oshape = [1, 3, 4, 12], 10, [1, 6, 8, 10]
    w, ws = weights(rng, "f32", [oc, 3, 3, 12], 0, wmax=0.5)
    tensors = {"h0": i32c(oshape[:2]), "h1": i32c(oshape[2:]), "os": T(I32, [4]), "w": w,
               "x": act("f32", ishape, -1.0, 1.0), "b": bias(rng, "f32", oc, 1.0, ws, 0.5),
               "y": T(F32, oshape), "k": T(F32, [1], const=[262144.0]), "m": T(F32, oshape),
               "f": T(F32, oshape), "fr": T(F32, oshape)}
    case = Case(name, tensors,
                [("CONCATENATION", ["h0", "h1"], ["os"], {"axis": 0}),
                 ("TRANSPOSE_CONV", ["os", "w", "x", "b"], ["y"],
                  {"padding": "SAME", "stride_w": 2, "stride_h": 2}),
                 ("MUL", ["y", "k"], ["m"], {}), ("FLOOR", ["m"], ["f"], {}),
                 ("SUB", ["m", "f"], ["fr"], {})],
                ["x"], ["y", "fr"])
    case.engine = "tfweb"  # the outputs are dynamic in TFLite (LiteRT.js leaves them unread)
    add(case)


def fully_connected_cases():
    # (tag, input shape, units, keep_num_dims, activation, bias)
    shapes = [
        ("2d", [3, 7], 5, False, "NONE", True),
        ("4d_flatten_relu", [2, 2, 3, 2], 4, False, "RELU", True),
        ("keep_dims_relu6", [2, 3, 6], 3, True, "RELU6", True),
        ("no_bias", [1, 9], 4, False, "NONE", False),
    ]
    for dt in ("f32", "u8", "i8", "i16"):
        for tag, ishape, units, keep, actf, has_bias in shapes:
            if dt == "i16" and tag not in ("2d", "no_bias"):
                continue
            name = "fully_connected_%s_%s" % (dt, tag)
            rng = Rng(seed_of(name))
            depth = ishape[-1] if keep else ishape[-1]
            if tag == "4d_flatten_relu":
                depth = 6  # [2,2,3,2] is read as 4 rows of 6
            rows = numel(ishape) // depth
            x = act(dt, ishape, -2.0, 2.0)
            w, ws = weights(rng, dt, [units, depth], 0, per_channel=False, wmax=0.5)
            b = bias(rng, dt, units, qscale(x), ws, 0.5) if has_bias else OMIT
            oshape = ishape[:-1] + [units] if keep else [rows, units]
            y = out_for(dt, oshape, math.sqrt(depth) * 1.15 * 0.29)
            add(single(name, "FULLY_CONNECTED", [x, w, b], [y],
                       {"fused_activation_function": actf, "keep_num_dims": keep}))
    # int8 per-channel weights
    name = "fully_connected_i8_per_channel"
    rng = Rng(seed_of(name))
    x = act("i8", [2, 8], -2.0, 2.0)
    w, ws = weights(rng, "i8", [5, 8], 0, per_channel=True, wmax=0.5)
    b = bias(rng, "i8", 5, qscale(x), ws, 0.5)
    add(single(name, "FULLY_CONNECTED", [x, w, b], [out_for("i8", [2, 5], 1.0)], {}))
    # ops: TFLite's FULLY_CONNECTED takes batches = input elements / weights columns, rounded
    # down, and never reads the remainder (a YAMNet transfer-learning export of the ninth sweep
    # flattens 64 embedding values for 320 columns: batch 0, then MEAN over no rows); tfcc
    # refused "not a multiple of 320 weights columns"
    for dt, ishape, units, depth in (("f32", [2, 7], 4, 4), ("i8", [3, 5], 3, 4), ("u8", [1, 11], 2, 4)):
        name = "fully_connected_%s_input_remainder" % dt
        rng = Rng(seed_of(name))
        x = act(dt, ishape, -2.0, 2.0)
        w, ws = weights(rng, dt, [units, depth], 0, per_channel=False, wmax=0.5)
        b = bias(rng, dt, units, qscale(x), ws, 0.5)
        y = out_for(dt, [numel(ishape) // depth, units], math.sqrt(depth) * 1.15 * 0.29)
        case = single(name, "FULLY_CONNECTED", [x, w, b], [y], {})
        case.engine = "tfweb"  # LiteRT's XNNPACK delegate fails to reshape it; its builtin runs it
        add(case)


def zero_size_constant_cases():
    # ops: RESHAPE to a scalar whose new shape is a constant of no elements with an empty data
    # vector, as the MLIR converter writes it (tfl_zero_size_constant of google-ai-edge/LiteRT
    # was refused: "not constant ... not produced")
    add(single("reshape_empty_const_shape_to_scalar", "RESHAPE",
               [T(F32, [1, 1, 1]), T(I32, [0], const=[])], [T(F32, [])]))
    add(single("reshape_i32_empty_const_shape_to_scalar", "RESHAPE",
               [T(I32, [1], lo=-50, hi=50), T(I32, [0], const=[])], [T(I32, [])]))
    # ops: the same new shape in a tensor that no operator writes and no buffer fills (older
    # converters give every tensor a buffer without data): it has no elements to read, TFLite
    # runs the model (classifier of google-ai-edge/LiteRT's pose estimation app was refused:
    # "not constant ... not produced")
    case = Case("reshape_unwritten_empty_shape_to_scalar",
                {"x": T(F32, [1, 1]), "s": T(I32, [0]), "y": T(F32, [])},
                [("RESHAPE", ["x", "s"], ["y"], {})], ["x"], ["y"])
    case.engine = "tfweb"  # a shape that is not constant makes the output dynamic in TFLite
    add(case)


def dynamic_operand_cases():
    # runtime: a node that reads a dynamic tensor and then, while running, needs the values of
    # two more operands one after the other (SLICE asks for begin, then size): the ninth sweep's
    # Keras LSTM exported as a WHILE loop (chanho6e1/Moody lstm_model) slices its loop state
    # with begin and size concatenated in the body; tfcc retried once and failed "SLICE: size
    # (tensor 42) is known only while running"
    case = Case("slice_dynamic_input_runtime_begin_size",
                {"x": T(F32, [24]), "shape": T(I32, [2], values=[4, 6]),
                 "r": T(F32, [4, 6]), "begin": T(I32, [2], values=[1, 2]),
                 "size": T(I32, [2], values=[2, 3]), "y": T(F32, [2, 3])},
                [("RESHAPE", ["x", "shape"], ["r"], {}),
                 ("SLICE", ["r", "begin", "size"], ["y"], {})],
                ["x", "shape", "begin", "size"], ["y"])
    case.engine = "tfweb"  # the outputs are dynamic in TFLite
    add(case)


def declared_dtype_cases():
    # format: TFLite's Prepare sets the output type of ADD (input 2's), MAXIMUM (input 1's),
    # comparisons (bool), ... whatever the file declares. LiteRT's testdata add_quantized(_int8)
    # declares its intermediate ADD output float32 (keeping the uint8 / int8 quantization) for
    # quantized inputs; tfcc refused "ADD: output dtype float32, expected uint8".
    for dt, q in (("u8", (0.0039220000617, 0)), ("i8", (0.0313725508749, -3))):
        x = T(DT[dt], [1, 4, 4, 3], q=q)
        add(Case("add_%s_intermediate_declared_f32" % dt,
                 {"x": x, "t": T(F32, [1, 4, 4, 3], q=q), "y": T(DT[dt], [1, 4, 4, 3], q=q)},
                 [("ADD", ["x", "x"], ["t"], {}), ("ADD", ["t", "x"], ["y"], {})], ["x"], ["y"]))
    # a comparison's output is bool whatever the file declares (an intermediate: the oracle reads
    # graph outputs with their declared type)
    add(Case("less_declared_i32_select_v2", {"a": act("f32", [3, 4]), "b": act("f32", [3, 4]),
                                             "c": T(I32, [3, 4]), "y": T(F32, [3, 4])},
             [("LESS", ["a", "b"], ["c"], {}), ("SELECT_V2", ["c", "a", "b"], ["y"], {})], ["a", "b"], ["y"]))

def batch_matmul_cases():
    # (tag, lhs shape, rhs shape, adj_x, adj_y, out shape)
    shapes = [
        ("2d", [3, 4], [4, 5], False, False, [3, 5]),
        ("batched_bcast", [2, 1, 3, 4], [3, 4, 2], False, False, [2, 3, 3, 2]),
        ("adj_y", [2, 3, 4], [2, 5, 4], False, True, [2, 3, 5]),
        ("adj_x", [2, 4, 3], [2, 4, 2], True, False, [2, 3, 2]),
    ]
    for dt in ("f32", "i8", "i16"):
        for tag, ls, rs, ax, ay, os_ in shapes:
            name = "batch_matmul_%s_%s" % (dt, tag)
            k = ls[-2] if ax else ls[-1]
            add(single(name, "BATCH_MATMUL",
                       [act(dt, ls, -2.0, 2.0), act(dt, rs, -1.0, 1.5)],
                       [out_for(dt, os_, math.sqrt(k) * 1.15 * 0.72)],
                       {"adj_x": ax, "adj_y": ay}))

    # int16 lhs with int8 rhs ("a16w8", the AI Edge Quantizer's static recipe; zero points 0):
    # constant rhs per tensor, and a run-time rhs
    for tag, ls, rs, ax, ay, os_ in shapes:
        name = "batch_matmul_i16_i8w_%s" % tag
        rng = Rng(seed_of(name + "/w"))
        w, _ = weights(rng, "i8", rs, len(rs) - 1, per_channel=False, wmax=1.5)
        k = ls[-2] if ax else ls[-1]
        add(single(name, "BATCH_MATMUL", [act("i16", ls, -2.0, 2.0), w],
                   [out_for("i16", os_, math.sqrt(k) * 1.15 * 0.72)], {"adj_x": ax, "adj_y": ay}))
    add(single("batch_matmul_i16_i8_runtime_rhs", "BATCH_MATMUL",
               [act("i16", [2, 3, 6], -2.0, 2.0), T(I8, [2, 6, 4], q=(f32(1.5 / 127), 0))],
               [out_for("i16", [2, 3, 4], math.sqrt(6) * 1.15 * 0.72)]))
    # ops: int16 x int8 with the rhs quantized per output column, as the AI Edge Quantizer writes
    # its einsums: TFLite's kernel takes the tensor's legacy single scale, which the interpreter
    # leaves 0 for a per-channel tensor, and outputs zeros; the reference is the product with one
    # multiplier per column (bmm_i16_i8_per_column_reference)
    for tag, ls, rs, ay in (("pc", [2, 5, 8], [8, 6], False), ("pc_adj_y", [3, 7], [5, 7], True)):
        name = "batch_matmul_i16_i8w_%s" % tag
        rng = Rng(seed_of(name + "/w"))
        w, _ = weights(rng, "i8", rs, len(rs) - (2 if ay else 1), per_channel=True, wmax=1.5)
        k = ls[-1]
        case = single(name, "BATCH_MATMUL", [act("i16", ls, -2.0, 2.0), w],
                      [out_for("i16", ls[:-1] + [rs[-2] if ay else rs[-1]], math.sqrt(k) * 0.6)],
                      {"adj_y": ay})
        case.reference = bmm_i16_i8_per_column_reference
        add(case)


def _quantize_multiplier(real):
    """tflite::QuantizeMultiplier: (Q0.31 multiplier, left shift)."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    qf = int(math.floor(abs(q) * (1 << 31) + 0.5)) * (1 if q >= 0 else -1)
    if qf == 1 << 31:
        qf //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return qf, shift


def _mbqm64(x, qm, shift):
    """tflite::MultiplyByQuantizedMultiplier(int64_t x, ...)."""
    reduced = (qm + (1 << 15)) >> 16 if qm < 0x7FFF0000 else 0x7FFF
    total = 15 - shift
    return (x * reduced + (1 << (total - 1))) >> total


def bmm_i16_i8_per_column_reference(case, feeds):
    """int16 lhs [..., M, K] (2-D rhs [K, N], or [N, K] with adj_y, per-column int8 scales):
    int64 sums, then column j's multiplier (double in_scale * w_scale[j] / out_scale) through
    TFLite's int64 MultiplyByQuantizedMultiplier, clamped to int16 (zero points 0)."""
    t = case.tensors
    lhs, w, out = t["in0"], t["in1"], t["out0"]
    adj_y = case.ops[0][3].get("adj_y", False)
    x = feeds[0][2]
    k = lhs.shape[-1]
    n = w.shape[0] if adj_y else w.shape[1]
    rows = len(x) // k
    s_in, s_out = lhs.quant()["scale"][0], out.quant()["scale"][0]
    mults = [_quantize_multiplier(float(s_in) * float(ws) / float(s_out)) for ws in w.quant()["scale"]]
    res = []
    for i in range(rows):
        for j in range(n):
            acc = sum(x[i * k + p] * w.const[(j * k + p) if adj_y else (p * n + j)] for p in range(k))
            acc = max(-(1 << 47), min((1 << 47) - 1, acc))
            res.append(max(-32768, min(32767, _mbqm64(acc, *mults[j]))))
    return [res]


# ---------------------------------------------------------------- pooling
def pool_cases():
    shapes = [
        ("2x2_s2_valid", [1, 6, 7, 3], (2, 2), (2, 2), "VALID", "NONE"),
        ("3x3_s2_same_relu", [2, 7, 5, 2], (3, 3), (2, 2), "SAME", "RELU"),
        ("3x2_s1_same_relu6", [1, 5, 4, 4], (3, 2), (1, 1), "SAME", "RELU6"),
    ]
    for op in ("AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D"):
        for dt in ("f32", "u8", "i8", "i16"):
            if op == "L2_POOL_2D" and dt != "f32":
                continue
            for tag, ishape, (fh, fw), (sh, sw), pad, actf in shapes:
                if dt == "i16" and tag == "3x2_s1_same_relu6":
                    continue
                name = "%s_%s_%s" % (op.lower(), dt, tag)
                x = act(dt, ishape, -3.0, 5.0)
                oshape = [ishape[0], conv_out(ishape[1], fh, sh, 1, pad),
                          conv_out(ishape[2], fw, sw, 1, pad), ishape[3]]
                y = same_q(x, oshape) if dt != "f32" else T(F32, oshape)
                add(single(name, op, [x], [y],
                           {"padding": pad, "stride_w": sw, "stride_h": sh, "filter_width": fw,
                            "filter_height": fh, "fused_activation_function": actf}))
    # CONV_2D -> PAD -> MAX_POOL_2D 3x3 / 2 VALID (ResNet's stem), which tfcc's fuse_pad folds
    # into the pool's padding where the conv's RELU / RELU6 proves it exact; asymmetric pads;
    # "noclamp": no activation, negative values under padding that takes part (not folded)
    for dt in ("f32", "u8", "i8", "i16"):
        for tag, pads, actf in (("relu", [1, 1, 1, 1], "RELU"), ("relu6_asym", [0, 2, 1, 0], "RELU6"),
                                ("noclamp", [1, 1, 1, 1], "NONE")):
            if dt in ("u8", "i16") and tag != "relu":
                continue
            name = "pad_max_pool_2d_%s_%s" % (dt, tag)
            rng = Rng(seed_of(name))
            x = act(dt, [1, 11, 9, 3], -2.0, 2.0)
            w, ws = weights(rng, dt, [4, 3, 3, 3], 0, wmax=0.5)
            b = bias(rng, dt, 4, qscale(x), ws, 0.5)
            c = out_for(dt, [1, 9, 7, 4], math.sqrt(27) * 1.15 * 0.29)
            p = same_q(c, [1, 9 + pads[0] + pads[1], 7 + pads[2] + pads[3], 4])
            y = same_q(c, [1, (p.shape[1] - 3) // 2 + 1, (p.shape[2] - 3) // 2 + 1, 4])
            t = {"x": x, "w": w, "b": b, "c": c, "p": p, "y": y,
                 "pads": i32c([0, 0] + pads + [0, 0], [4, 2])}
            ops = [("CONV_2D", ["x", "w", "b"], ["c"], {"padding": "VALID", "stride_w": 1, "stride_h": 1,
                                                        "fused_activation_function": actf}),
                   ("PAD", ["c", "pads"], ["p"], {}),
                   ("MAX_POOL_2D", ["p"], ["y"], {"padding": "VALID", "stride_w": 2, "stride_h": 2,
                                                  "filter_width": 3, "filter_height": 3})]
            add(Case(name, t, ops, ["x"], ["y"]))


# ---------------------------------------------------------------- elementwise binary
BIN_SHAPES = [
    ("same", [2, 3, 5], [2, 3, 5]),
    ("bcast_row", [2, 3, 5], [5]),
    ("bcast_4d", [2, 1, 3, 1], [1, 4, 1, 3]),
    ("scalar", [3, 4], []),
]


def binary_cases():
    ranges = {"ADD": ((-3, 3), (-2, 2), (-5, 5)), "SUB": ((-3, 3), (-2, 2), (-5, 5)),
              "MUL": ((-3, 3), (-2, 2), (-6, 6)), "DIV": ((-3, 3), (0.5, 2.5), (-6, 6)),
              "SQUARED_DIFFERENCE": ((-3, 3), (-2, 2), (0, 25)),
              "MAXIMUM": ((-3, 3), (-3, 3), (-3, 3)), "MINIMUM": ((-3, 3), (-3, 3), (-3, 3)),
              "POW": ((0.2, 3), (-2, 2), (0, 10)), "FLOOR_DIV": ((-9, 9), (0.5, 3), (-20, 20)),
              "FLOOR_MOD": ((-9, 9), (0.5, 3), (-3, 3))}
    dtypes = {"ADD": ("f32", "u8", "i8", "i16", "i32", "i64"), "SUB": ("f32", "u8", "i8", "i16", "i32", "i64"),
              "MUL": ("f32", "u8", "i8", "i16", "i32", "i64"), "DIV": ("f32", "u8", "i8", "i16", "i32"),
              "SQUARED_DIFFERENCE": ("f32", "i8", "i32"),
              "MAXIMUM": ("f32", "u8", "i8", "i16", "i32"), "MINIMUM": ("f32", "u8", "i8", "i16", "i32"),
              "POW": ("f32", "i32"), "FLOOR_DIV": ("f32", "i32"), "FLOOR_MOD": ("f32", "i32")}
    fused = ("ADD", "SUB", "MUL", "DIV")
    for op, dts in dtypes.items():
        (alo, ahi), (blo, bhi), (olo, ohi) = ranges[op]
        for dt in dts:
            for si, (tag, sa, sb) in enumerate(BIN_SHAPES):
                if dt in ("i16", "i64", "u8") and tag in ("bcast_4d",) and op not in fused:
                    continue
                actf = "NONE"
                if op in fused and dt not in ("i32", "i64"):
                    actf = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1")[si]
                name = "%s_%s_%s" % (op.lower(), dt, tag)
                oshape = broadcast(sa, sb)
                if dt in ("i32", "i64"):
                    a = T(DT[dt], sa, lo=int(alo) - 1, hi=int(ahi) + 1)
                    b = T(DT[dt], sb, lo=max(1, int(blo)), hi=int(bhi) + 2)
                    if op in ("ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE"):
                        b = T(DT[dt], sb, lo=-5, hi=5)
                    if op in ("FLOOR_DIV", "FLOOR_MOD") and si % 2 == 1:
                        b = T(DT[dt], sb, lo=-4, hi=-1)  # negative divisors
                    if op == "POW":
                        a, b = T(I32, sa, lo=-3, hi=3), T(I32, sb, lo=0, hi=4)
                    y = T(DT[dt], oshape)
                elif dt == "f32":
                    a, b, y = act(dt, sa, alo, ahi), act(dt, sb, blo, bhi), T(F32, oshape)
                else:
                    if op in ("MAXIMUM", "MINIMUM"):
                        a = act(dt, sa, alo, ahi)
                        b, y = same_q(a, sb), same_q(a, oshape)
                    else:
                        a, b, y = act(dt, sa, alo, ahi), act(dt, sb, blo, bhi), act(dt, oshape, olo, ohi)
                        if op == "DIV":  # divisors strictly above the zero point (no 0)
                            b = T(b.dtype, sb, q=b.q, lo=b.q[1] + 1, hi=QRANGE[b.dtype][1])
                opts = {}
                if op in fused:
                    opts["fused_activation_function"] = actf
                if op in ("ADD", "SUB") and dt == "i16":
                    opts["pot_scale_int16"] = False
                add(single(name, op, [a, b], [y], opts))
    # int16 ADD with power-of-two scales (pot_scale_int16 = true path); TFLite's Prepare needs
    # one input at the output scale (shift 0), so a shares it and b is finer
    a = T(I16, [2, 5], q=(2.0 ** -11, 0))
    b = T(I16, [2, 5], q=(2.0 ** -12, 0))
    add(single("add_i16_pot_scales", "ADD", [a, b], [T(I16, [2, 5], q=(2.0 ** -11, 0))],
               {"pot_scale_int16": True}))
    # uint8 ADD with zero points at both ends
    add(single("add_u8_edge_zp", "ADD",
               [T(U8, [3, 4], q=choose_qparams(U8, 0.0, 4.0)), T(U8, [3, 4], q=choose_qparams(U8, -4.0, 0.0))],
               [T(U8, [3, 4], q=choose_qparams(U8, -2.0, 2.0))], {}))
    # float ADD with a constant operand
    add(single("add_f32_const_operand", "ADD",
               [act("f32", [2, 3]), T(F32, [3], const=[0.5, -1.25, 3.0])], [T(F32, [2, 3])], {}))
    # ADD_N
    for dt in ("f32", "i32"):
        add(single("add_n_%s" % dt, "ADD_N", [T(DT[dt], [2, 3]), T(DT[dt], [2, 3]), T(DT[dt], [2, 3])],
                   [T(DT[dt], [2, 3])]))


def compare_cases():
    for op in ("EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL"):
        for dt in ("f32", "i32", "u8", "i8"):
            for tag, sa, sb in (BIN_SHAPES[0], BIN_SHAPES[2]):
                name = "%s_%s_%s" % (op.lower(), dt, tag)
                if dt == "f32":
                    # small integers so equality happens
                    a = T(F32, sa, values=[float(v % 5 - 2) for v in range(numel(sa))])
                    b = T(F32, sb, values=[float((v * 7) % 5 - 2) for v in range(numel(sb))])
                elif dt == "i32":
                    a, b = T(I32, sa, lo=-2, hi=2), T(I32, sb, lo=-2, hi=2)
                else:
                    # values near the zero point so that equal reals happen; the same
                    # scale for 'same', different scales for 'bcast_4d'
                    qa = choose_qparams(DT[dt], -2.0, 2.0)
                    qb = qa if tag == "same" else (qa[0] * 2, qa[1])
                    a = T(DT[dt], sa, q=qa, lo=qa[1] - 6, hi=qa[1] + 6)
                    b = T(DT[dt], sb, q=qb, lo=qb[1] - 3, hi=qb[1] + 3)
                add(single(name, op, [a, b], [T(BOOL, broadcast(sa, sb))]))
    for op in ("LOGICAL_AND", "LOGICAL_OR"):
        for tag, sa, sb in (BIN_SHAPES[0], BIN_SHAPES[2]):
            add(single("%s_bool_%s" % (op.lower(), tag), op, [T(BOOL, sa), T(BOOL, sb)],
                       [T(BOOL, broadcast(sa, sb))]))
    add(single("logical_not_bool", "LOGICAL_NOT", [T(BOOL, [3, 5])], [T(BOOL, [3, 5])]))
    for dt in ("f32", "i8", "i32"):
        x = act(dt, [2, 3, 4])
        add(single("select_%s" % dt, "SELECT", [T(BOOL, [2, 3, 4]), x, same_q(x)], [same_q(x)]))
        add(single("select_v2_%s_bcast" % dt, "SELECT_V2", [T(BOOL, [1, 3, 1]), same_q(x, [2, 1, 4]),
                                                             same_q(x, [3, 1])], [same_q(x, [2, 3, 4])]))


# ---------------------------------------------------------------- elementwise unary
def unary_cases():
    shape = [2, 3, 7]
    floats = {"ABS": (-4, 4), "CEIL": (-4, 4), "COS": (-6, 6), "EXP": (-5, 3), "FLOOR": (-4, 4),
              "LOG": (0.01, 20), "NEG": (-4, 4), "ROUND": (-4, 4), "RSQRT": (0.01, 20),
              "SIN": (-6, 6), "SQRT": (0, 20), "SQUARE": (-4, 4), "ELU": (-4, 4),
              "HARD_SWISH": (-5, 5), "LOGISTIC": (-8, 8), "RELU": (-4, 4), "RELU6": (-3, 9),
              "RELU_N1_TO_1": (-2, 2), "TANH": (-4, 4), "GELU": (-4, 4), "LEAKY_RELU": (-4, 4)}
    for op, (lo, hi) in floats.items():
        opts = {"alpha": 0.2} if op == "LEAKY_RELU" else None
        add(single("%s_f32" % op.lower(), op, [act("f32", shape, lo, hi)], [T(F32, shape)], opts))
    # ties for ROUND (half to even) and FLOOR/CEIL on exact integers
    ties = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -3.0, 3.0, 0.0, -0.0, 2.4999, -2.5001]
    for op in ("ROUND", "FLOOR", "CEIL"):
        add(single("%s_f32_ties" % op.lower(), op, [T(F32, [12], values=ties)], [T(F32, [12])]))
    # mend45: EXP, LOGISTIC and SOFTMAX (beta != 1: TFLite's builtin kernel) where x86-64 glibc's
    # FMA expf is 1 ulp off the plain build's (seq_cases.EXPF_FMA_PROBES, both signs; the softmax
    # exponents (x - max) * beta are the probes exactly); compared bit for bit by ops.test_seq_exact
    # The references come from tfweb, the classic interpreter's builtin kernels (LiteRT.js's EXP
    # is not std::exp: docs/kernels.md "The vector expf").
    probes = seq_cases.EXPF_FMA_PROBES + [-v for v in seq_cases.EXPF_FMA_PROBES]
    n = len(probes)
    rows = [v for p in seq_cases.EXPF_FMA_PROBES[:10] for v in (0.0, -2.0 * abs(p))]
    # lead49: EXP follows LiteRT in TFLITE mode (XNNPACK's exp in every model): its probe is a
    # twin, LiteRT's outputs here and the classic interpreter's in _builtin (REFERENCE mode,
    # std::exp), both bit for bit in ops.test_hybrid
    add(single("exp_f32_expf_probe", "EXP", [T(F32, [n], values=probes)], [T(F32, [n])]))
    c = single("exp_f32_expf_probe_builtin", "EXP", [T(F32, [n], values=probes)], [T(F32, [n])])
    c.engine = "tfweb"
    c.builtin_only = True
    add(c)
    for c in (single("logistic_f32_expf_probe", "LOGISTIC", [T(F32, [n], values=probes)], [T(F32, [n])]),
              single("softmax_f32_expf_probe_pos_beta", "SOFTMAX", [T(F32, [10, 2], values=rows)],
                     [T(F32, [10, 2])], {"beta": 0.5}),
              single("softmax_f32_expf_probe_neg_beta", "SOFTMAX", [T(F32, [10, 2], values=rows)],
                     [T(F32, [10, 2])], {"beta": -0.5})):
        c.engine = "tfweb"
        add(c)
    add(single("gelu_f32_approximate", "GELU", [act("f32", shape)], [T(F32, shape)], {"approximate": True}))
    add(single("leaky_relu_f32_alpha_gt1", "LEAKY_RELU", [act("f32", shape)], [T(F32, shape)], {"alpha": 1.5}))
    # integer unary
    add(single("abs_i32", "ABS", [T(I32, shape, lo=-100, hi=100)], [T(I32, shape)]))
    add(single("neg_i32", "NEG", [T(I32, shape, lo=-100, hi=100)], [T(I32, shape)]))
    add(single("neg_i64", "NEG", [T(I64, shape, lo=-100, hi=100)], [T(I64, shape)]))
    # no square_i32: TFLite's SQUARE is float32 only (tfweb fails Prepare; LiteRT.js fails
    # Invoke without reporting it and returns an untouched output buffer)
    # quantized unary: (op, dtypes, in range, out range or fixed (scale, zp) per dtype, options)
    fixed_logistic = {"u8": (1 / 256.0, 0), "i8": (1 / 256.0, -128), "i16": (1 / 32768.0, 0)}
    fixed_tanh = {"u8": (1 / 128.0, 128), "i8": (1 / 128.0, 0), "i16": (1 / 32768.0, 0)}
    quant = [
        ("ABS", ("i8", "i16"), (-4, 3), (0, 4), None),
        ("NEG", ("i8",), (-4, 3), (-3, 4), None),
        ("RSQRT", ("i8", "i16"), (0.0, 8.0), (0, 4), None),
        ("EXP", ("i8", "i16"), (-4, 1.5), (0, 4.5), None),
        ("LOG", ("i8", "i16"), (0.0, 8.0), (-5, 2.1), None),
        ("ELU", ("i8",), (-4, 4), (-1, 4), None),
        ("HARD_SWISH", ("u8", "i8"), (-5, 5), (-0.4, 5), None),
        ("LEAKY_RELU", ("u8", "i8", "i16"), (-4, 4), (-1, 4), {"alpha": 0.25}),
        ("RELU", ("u8", "i8", "i16"), (-4, 4), (0, 4), None),
        ("RELU6", ("u8", "i8"), (-3, 9), (0, 6), None),
        ("RELU_N1_TO_1", ("u8", "i8"), (-2, 2), (-1, 1), None),
        ("GELU", ("u8", "i8", "i16"), (-4, 4), (-0.2, 4), None),
        ("LOGISTIC", ("u8", "i8", "i16"), (-8, 8), fixed_logistic, None),
        ("TANH", ("u8", "i8", "i16"), (-4, 4), fixed_tanh, None),
    ]
    for op, dts, (ilo, ihi), orange, opts in quant:
        for dt in dts:
            x = act(dt, shape, ilo, ihi)
            if op == "RSQRT":  # TFLite fails Invoke on inputs below the zero point
                x.lo = x.q[1]
            if isinstance(orange, dict):
                y = T(DT[dt], shape, q=orange[dt])
            else:
                y = act(dt, shape, *orange)
            add(single("%s_%s" % (op.lower(), dt), op, [x], [y], opts))
    # ops: the XNNPACK delegate's 8-bit LOGISTIC table (sigmoid in double, ties to even); the
    # builtin float table gives 57.4999962 -> 57 for q = 21 here where XNNPACK gives 57.5 -> 58
    # (yolov8n-seg-int8 of EdgeFirstAI/tflite-rs: 1 LSB there, 26 after the network)
    add(single("logistic_i8_xnn_table_tie", "LOGISTIC", [T(I8, [16, 16], q=(0.09530800580978394, 34), values=list(range(-128, 128)))],
               [T(I8, [16, 16], q=(1.0 / 256, -128))]))
    # relu family keeping the input quantization (common in converted models)
    for dt in ("u8", "i8"):
        x = act(dt, shape, -4, 4)
        add(single("relu_%s_same_scale" % dt, "RELU", [x], [same_q(x)]))
        add(single("relu6_%s_same_scale" % dt, "RELU6", [x], [same_q(x)]))
    # PRELU: per-channel alpha broadcast over [N, H, W, C]
    for dt in ("f32", "u8", "i8", "i16"):  # i16: int8 alpha (16x8), as LiteRT reads it
        name = "prelu_%s" % dt
        rng = Rng(seed_of(name))
        alpha_f = [f32(rng.uniform(-0.5, 1.5)) for _ in range(4)]
        x = act(dt, [1, 3, 5, 4])
        if dt == "f32":
            alpha = T(F32, [1, 1, 4], const=alpha_f)
        else:
            adt = I8 if dt == "i16" else DT[dt]
            aq = choose_qparams(adt, -0.5, 1.5)
            alpha = T(adt, [1, 1, 4], q=aq, const=[max(QRANGE[adt][0], min(QRANGE[adt][1], int(round(v / aq[0])) + aq[1])) for v in alpha_f])
        y = T(F32, [1, 3, 5, 4]) if dt == "f32" else act(dt, [1, 3, 5, 4], -2.0, 6.0)
        add(single(name, "PRELU", [x, alpha], [y]))


def normalization_cases():
    shape = [2, 3, 6]
    add(single("softmax_f32", "SOFTMAX", [act("f32", shape, -5, 5)], [T(F32, shape)], {"beta": 1.0}))
    add(single("softmax_f32_beta", "SOFTMAX", [act("f32", [3, 10], -5, 5)], [T(F32, [3, 10])], {"beta": 0.37}))
    add(single("softmax_u8", "SOFTMAX", [act("u8", shape, -5, 5)], [T(U8, shape, q=(1 / 256.0, 0))], {"beta": 1.0}))
    add(single("softmax_i8", "SOFTMAX", [act("i8", shape, -5, 5)], [T(I8, shape, q=(1 / 256.0, -128))], {"beta": 1.0}))
    add(single("softmax_i8_beta", "SOFTMAX", [act("i8", [2, 9], -9, 5)], [T(I8, [2, 9], q=(1 / 256.0, -128))], {"beta": 0.5}))
    add(single("softmax_i16", "SOFTMAX", [act("i16", shape, -5, 5)], [T(I16, shape, q=(1 / 32768.0, 0))], {"beta": 1.0}))
    add(single("log_softmax_f32", "LOG_SOFTMAX", [act("f32", shape, -5, 5)], [T(F32, shape)]))
    add(single("log_softmax_u8", "LOG_SOFTMAX", [act("u8", shape, -5, 5)], [T(U8, shape, q=(16 / 256.0, 255))]))
    add(single("log_softmax_i8", "LOG_SOFTMAX", [act("i8", shape, -5, 5)], [T(I8, shape, q=(16 / 256.0, 127))]))
    add(single("l2_normalization_f32", "L2_NORMALIZATION", [act("f32", shape)], [T(F32, shape)]))
    add(single("l2_normalization_u8", "L2_NORMALIZATION", [act("u8", shape)], [T(U8, shape, q=(1 / 128.0, 128))]))
    add(single("l2_normalization_i8", "L2_NORMALIZATION", [act("i8", shape)], [T(I8, shape, q=(1 / 128.0, 0))]))


# ---------------------------------------------------------------- quantize / dequantize / cast
def conversion_cases():
    shape = [3, 7]
    for dt in QDT:
        add(single("dequantize_%s" % dt, "DEQUANTIZE", [act(dt, shape, -3.0, 5.0)], [T(F32, shape)]))
        add(single("quantize_f32_to_%s" % dt, "QUANTIZE", [act("f32", shape, -3.5, 5.5)],
                   [act(dt, shape, -3.0, 5.0)]))
    # float16 constant -> float32, added to a runtime input (a model without runtime inputs
    # is not evaluated reliably by the oracle)
    add(Case("dequantize_f16_const", {"c": T(S.FLOAT16, [5], const=[0.5, -1.25, 3.0, 65504.0, 1e-3]),
                                      "d": T(F32, [5]), "x": act("f32", [5]), "y": T(F32, [5])},
             [("DEQUANTIZE", ["c"], ["d"], {}), ("ADD", ["d", "x"], ["y"], {})], ["x"], ["y"]))
    # requantization
    for src, dst, srange, drange in (("i8", "i8", (-3, 5), (-1, 2)), ("u8", "u8", (-3, 5), (-6, 1)),
                                      ("u8", "i8", (-3, 5), (-3, 5)), ("i8", "u8", (-3, 5), (-3, 5)),
                                      ("i16", "i16", (-3, 5), (-8, 8)), ("i16", "i8", (-3, 5), (-2, 6)),
                                      ("i8", "i16", (-3, 5), (-6, 6))):
        add(single("quantize_%s_to_%s" % (src, dst), "QUANTIZE", [act(src, shape, *srange)],
                   [act(dst, shape, *drange)]))
    # int16 <-> int32 requantization (quantize.cc: quantized int32 model inputs / outputs);
    # int32 data spans ~2^25 so that the int16 / int8 outputs saturate at both ends
    add(single("quantize_i16_to_i32", "QUANTIZE", [act("i16", shape, -3, 5)],
               [T(I32, shape, q=(f32(1.0 / 3e5), 0))]))
    add(single("quantize_i16_to_i32_zp", "QUANTIZE", [act("i16", shape, -3, 5)],
               [T(I32, shape, q=(f32(7.0 / 3e4), -70000))]))
    # ops: int16 inputs with a non-zero zero point requantized to int8 / int32 (quantize.cc checks
    # zero points only for int16 -> int16; tflite-micro's keyword_scrambled has zero point -32768)
    i16_zp = T(I16, shape, q=(f32(1.0 / 4096), -32768))
    add(single("quantize_i16_zp_to_i8", "QUANTIZE", [i16_zp], [act("i8", shape, 0.0, 12.0)]))
    add(single("quantize_i16_zp_to_i32", "QUANTIZE", [i16_zp], [T(I32, shape, q=(f32(1.0 / 3e4), 7))]))
    add(single("quantize_f32_to_i16_zp", "QUANTIZE", [act("f32", shape, -1.0, 7.0)],
               [T(I16, shape, q=(f32(1.0 / 4096), -32768))]))
    i32_in = T(I32, shape, q=(f32(1.0 / 2 ** 20), 12345), lo=-(1 << 25), hi=1 << 25)
    add(single("quantize_i32_to_i16", "QUANTIZE", [i32_in], [act("i16", shape, -8, 8)]))
    add(single("quantize_i32_to_i8", "QUANTIZE", [i32_in], [act("i8", shape, -6, 20)]))
    casts = [("f32", "i32", (-50.0, 50.0)), ("i32", "f32", None), ("u8", "f32", None), ("i8", "f32", None),
             ("bool", "f32", None), ("f32", "bool", None), ("i32", "i64", None), ("i64", "i32", None),
             ("f32", "u8", (0.0, 255.0)), ("i32", "bool", None), ("i16", "i32", None)]
    for src, dst, rng_ in casts:
        x = T(DT[src], shape) if rng_ is None else T(DT[src], shape, lo=rng_[0], hi=rng_[1])
        if src in ("u8", "i8", "i16"):
            x = T(DT[src], shape)
        if src == "f32" and dst == "bool":
            x = T(F32, [8], values=[0.0, -0.0, 1.0, -2.5, 0.001, 3.0, 0.0, 1e-30])
            shape_o = [8]
        else:
            shape_o = shape
        add(single("cast_%s_to_%s" % (src, dst), "CAST", [x], [T(DT[dst], shape_o)],
                   {"in_data_type": DT[src], "out_data_type": DT[dst]}))


# ---------------------------------------------------------------- reductions
def reduce_cases():
    # (tag, input shape, axes, keep_dims, output shape)
    shapes = [
        ("hw_keep", [2, 4, 5, 3], [1, 2], True, [2, 1, 1, 3]),
        ("last", [3, 4, 5], [2], False, [3, 4]),
        ("neg_axis_dup", [3, 4, 5], [-1, 0, 2], False, [4]),
        ("all", [2, 3, 4], [0, 1, 2], True, [1, 1, 1]),
    ]
    ops = {"MEAN": ("f32", "u8", "i8", "i16", "i32"), "SUM": ("f32", "u8", "i8", "i16", "i32"),
           "REDUCE_MAX": ("f32", "u8", "i8", "i16", "i32"), "REDUCE_MIN": ("f32", "u8", "i8", "i16", "i32"),
           "REDUCE_PROD": ("f32", "i32", "i8")}
    # ops: int8 MEAN whose tensors carry no quantization (xmos/ai_tools test_mean_0): the XNNPACK
    # delegate refuses it, so TFLITE mode runs the builtin kernel (equal parameters: the integer
    # mean), where tfcc ran XNNPACK's arithmetic on a 0/0 scale (-128 everywhere). LiteRT.js's
    # current builtin turns the 0/0 multiplier into 0 (every output 0): the classic interpreter is
    # the reference.
    add(tfweb(single("mean_i8_unquantized_axis2", "MEAN", [T(I8, [1, 3, 11, 4]), i32c([2])],
                     [T(I8, [1, 3, 1, 4])], {"keep_dims": True})))
    for op, dts in ops.items():
        for dt in dts:
            for tag, ishape, axes, keep, oshape in shapes:
                if dt == "i16" and tag in ("neg_axis_dup",):
                    continue
                if op == "REDUCE_PROD" and dt != "f32" and tag != "last":
                    continue  # long integer products overflow or underflow to a constant
                name = "%s_%s_%s" % (op.lower(), dt, tag)
                count = numel(ishape) // numel(oshape)
                if dt == "f32":
                    lo, hi = (0.5, 1.5) if op == "REDUCE_PROD" else (-3.0, 3.0)
                    x, y = act(dt, ishape, lo, hi), T(F32, oshape)
                elif dt == "i32":
                    x = T(I32, ishape, lo=-3, hi=3) if op == "REDUCE_PROD" else T(I32, ishape, lo=-50, hi=50)
                    y = T(I32, oshape)
                else:
                    x = act(dt, ishape, -3.0, 3.0)
                    if op in ("REDUCE_MAX", "REDUCE_MIN"):
                        y = same_q(x, oshape)
                    elif op == "MEAN":
                        y = act(dt, oshape, -2.0, 2.5)
                    elif op == "SUM":
                        y = act(dt, oshape, -3.0 * math.sqrt(count), 3.0 * math.sqrt(count))
                    else:
                        x = act(dt, ishape, -1.2, 1.2)
                        y = act(dt, oshape, -1.5, 1.5)
                add(single(name, op, [x, i32c(axes)], [y], {"keep_dims": keep}))
    # int16 MEAN as LiteRT computes it (int16x8 twins, docs/model_sweep.md): QuantizedMeanOrSum's
    # folded multiplier through the int32 MultiplyByQuantizedMultiplier, the H,W mean included
    # (no int16 special case). MobileNetV2's global pool (n = 49, scales 1% apart; tfcc was 43
    # of 1,280 off with the classic interpreter's rescale-then-divide) and a long axis.
    add(single("mean_i16_hw_keep_wide", "MEAN",
               [act("i16", [1, 7, 7, 256], -0.6749, 0.6749), i32c([1, 2])],
               [act("i16", [1, 1, 1, 256], -0.67, 0.67)], {"keep_dims": True}))
    add(single("mean_i16_axis1_wide", "MEAN", [act("i16", [4, 50, 30], -3.0, 3.0), i32c([1])],
               [act("i16", [4, 30], -1.0, 1.0)], {"keep_dims": False}))
    for op in ("ARG_MAX", "ARG_MIN"):
        for dt in ("f32", "u8", "i8", "i32"):
            for axis, otype in ((1, I32), (-1, I64), (0, I32)):
                x = act(dt, [3, 4, 5]) if dt != "i32" else T(I32, [3, 4, 5], lo=-3, hi=3)
                oshape = [d for i, d in enumerate([3, 4, 5]) if i != axis % 3]
                add(single("%s_%s_axis%d_%s" % (op.lower(), dt, axis, S.DTYPE_NAME[otype]), op,
                           [x, i32c([axis], [1])], [T(otype, oshape)], {"output_type": otype}))


# ---------------------------------------------------------------- data movement
def shape_cases():
    for dt in ("f32", "u8", "i8", "i16", "i32", "bool"):
        x = act(dt, [2, 3, 4]) if dt not in ("i32", "bool") else T(DT[dt], [2, 3, 4])
        add(single("reshape_%s" % dt, "RESHAPE", [x, i32c([4, -1])], [same_q(x, [4, 6])],
                   {"new_shape": [4, 6]}))
        add(single("transpose_%s" % dt, "TRANSPOSE", [x, i32c([2, 0, 1])], [same_q(x, [4, 2, 3])]))
        add(single("tile_%s" % dt, "TILE", [x, i32c([2, 1, 3])], [same_q(x, [4, 3, 12])]))
        add(single("squeeze_%s" % dt, "SQUEEZE", [same_q(x, [1, 3, 1, 4])], [same_q(x, [3, 4])],
                   {"squeeze_dims": [0, -2]}))
        add(single("expand_dims_%s" % dt, "EXPAND_DIMS", [x, i32c([-1], [1])], [same_q(x, [2, 3, 4, 1])]))
        add(single("gather_%s_axis1" % dt, "GATHER", [x, T(I32, [2, 2], const=[2, 0, 1, 2])],
                   [same_q(x, [2, 2, 2, 4])], {"axis": 1}))
        add(single("concatenation_%s_axis1" % dt, "CONCATENATION",
                   [x, same_q(x, [2, 1, 4]), same_q(x, [2, 2, 4])], [same_q(x, [2, 6, 4])], {"axis": 1}))
        if dt == "bool":  # TFLite's PACK/UNPACK/SPLIT/SPLIT_V reject bool
            add(single("slice_%s" % dt, "SLICE", [x, i32c([1, 0, 1]), i32c([1, -1, 2])], [same_q(x, [1, 3, 2])]))
            add(single("broadcast_to_%s" % dt, "BROADCAST_TO", [same_q(x, [3, 1]), i32c([2, 3, 4])],
                       [same_q(x, [2, 3, 4])]))
            continue
        add(single("pack_%s_axis1" % dt, "PACK", [x, same_q(x)], [same_q(x, [2, 2, 3, 4])],
                   {"values_count": 2, "axis": 1}))
        add(single("unpack_%s_axis2" % dt, "UNPACK", [x], [same_q(x, [2, 3]) for _ in range(4)],
                   {"num": 4, "axis": 2}))
        add(single("slice_%s" % dt, "SLICE", [x, i32c([1, 0, 1]), i32c([1, -1, 2])], [same_q(x, [1, 3, 2])]))
        add(single("split_%s_axis2" % dt, "SPLIT", [i32c([2], []), x], [same_q(x, [2, 3, 2]), same_q(x, [2, 3, 2])],
                   {"num_splits": 2}))
        add(single("split_v_%s" % dt, "SPLIT_V", [x, i32c([1, -1]), i32c([-2], [])],
                   [same_q(x, [2, 1, 4]), same_q(x, [2, 2, 4])], {"num_splits": 2}))
        add(single("broadcast_to_%s" % dt, "BROADCAST_TO", [same_q(x, [3, 1]), i32c([2, 3, 4])],
                   [same_q(x, [2, 3, 4])]))
    # other transposes / gathers
    x = act("f32", [2, 3, 4, 5])
    add(single("transpose_f32_4d", "TRANSPOSE", [x, i32c([0, 3, 1, 2])], [T(F32, [2, 5, 3, 4])]))
    x5 = act("i8", [2, 1, 3, 2, 2])
    add(single("transpose_i8_5d", "TRANSPOSE", [x5, i32c([4, 2, 0, 3, 1])], [same_q(x5, [2, 3, 2, 2, 1])]))
    add(single("gather_f32_axis0_runtime_idx", "GATHER", [act("f32", [5, 3]), T(I32, [4], lo=0, hi=4)],
               [T(F32, [4, 3])], {"axis": 0}))
    add(single("gather_f32_batch_dims", "GATHER", [act("f32", [2, 4, 3]), T(I32, [2, 2], const=[3, 0, 1, 1])],
               [T(F32, [2, 2, 3])], {"axis": 1, "batch_dims": 1}))
    add(single("gather_i64_idx", "GATHER", [act("f32", [5, 2]), T(I64, [3], const=[4, 0, 2])],
               [T(F32, [3, 2])], {"axis": 0}))
    for dt in ("f32", "i8", "i32"):
        p = act(dt, [3, 4, 2]) if dt != "i32" else T(I32, [3, 4, 2])
        add(single("gather_nd_%s" % dt, "GATHER_ND", [p, T(I32, [3, 2], const=[0, 1, 2, 3, 1, 0])],
                   [same_q(p, [3, 2])]))
    add(single("concatenation_u8_rescale", "CONCATENATION",
               [act("u8", [2, 3], -1, 1), act("u8", [2, 2], -4, 2), act("u8", [2, 1], 0, 6)],
               [act("u8", [2, 6], -3, 3)], {"axis": -1}))
    add(single("concatenation_f32_axis0_relu", "CONCATENATION", [act("f32", [1, 3]), act("f32", [2, 3])],
               [T(F32, [3, 3])], {"axis": 0, "fused_activation_function": "RELU"}))
    # strided slice variants on [4, 5, 6]
    ss = [
        ("basic", [1, 0, 1], [3, 5, 6], [1, 2, 2], {}, [2, 3, 3]),
        ("neg_stride", [-1, 4, 5], [-5, -6, 0], [-1, -2, -2], {}, [4, 3, 3]),
        ("masks", [1, 1, 1], [3, 3, 3], [1, 1, 1], {"begin_mask": 5, "end_mask": 2}, [3, 4, 3]),
        ("shrink", [2, 0, 0], [3, 5, 6], [1, 1, 3], {"shrink_axis_mask": 1}, [5, 2]),
        ("offset", [0, 1, 2], [2, 3, 4], [1, 1, 1], {"offset": True}, [2, 3, 4]),
        ("new_axis", [0, 0, 0], [4, 5, 6], [1, 1, 1], {"new_axis_mask": 2, "begin_mask": 7, "end_mask": 7}, [4, 1, 5, 6]),
        ("ellipsis", [0, 1], [0, 5], [1, 2], {"ellipsis_mask": 1}, [4, 5, 2]),
    ]
    for dt in ("f32", "u8", "i8", "i16", "i32"):
        x = act(dt, [4, 5, 6]) if dt != "i32" else T(I32, [4, 5, 6])
        for tag, b, e, s, opts, oshape in ss:
            if dt not in ("f32", "i8") and tag not in ("basic", "neg_stride"):
                continue
            add(single("strided_slice_%s_%s" % (dt, tag), "STRIDED_SLICE", [x, i32c(b), i32c(e), i32c(s)],
                       [same_q(x, oshape)], opts))
    # padding
    for dt in ("f32", "u8", "i8", "i16", "i32"):
        x = act(dt, [1, 3, 4, 2], 0.5, 4.0) if dt != "i32" else T(I32, [1, 3, 4, 2])
        pads = T(I32, [4, 2], const=[0, 0, 1, 2, 2, 0, 0, 1])
        oshape = [1, 6, 6, 3]
        add(single("pad_%s" % dt, "PAD", [x, pads], [same_q(x, oshape)]))
        if dt == "i32":
            cv = T(I32, [], const=[-7])
        elif dt == "f32":
            cv = T(F32, [], const=[-1.5])
        else:
            cv = same_q(x, [], const=[QRANGE[DT[dt]][0] + 3])
        add(single("padv2_%s" % dt, "PADV2", [x, pads, cv], [same_q(x, oshape)]))
        for mode in ("REFLECT", "SYMMETRIC"):
            mp = T(I32, [4, 2], const=[0, 0, 2, 1, 1, 2, 0, 0])
            add(single("mirror_pad_%s_%s" % (dt, mode.lower()), "MIRROR_PAD", [x, mp],
                       [same_q(x, [1, 6, 7, 2])], {"mode": mode}))
    # space/depth/batch rearrangement
    for dt in ("f32", "u8", "i8"):
        x = act(dt, [1, 4, 6, 3])
        add(single("space_to_depth_%s" % dt, "SPACE_TO_DEPTH", [x], [same_q(x, [1, 2, 3, 12])], {"block_size": 2}))
        y = act(dt, [1, 2, 3, 8])
        add(single("depth_to_space_%s" % dt, "DEPTH_TO_SPACE", [y], [same_q(y, [1, 4, 6, 2])], {"block_size": 2}))
        add(single("space_to_batch_nd_%s" % dt, "SPACE_TO_BATCH_ND",
                   [same_q(x, [1, 3, 5, 2]), i32c([2, 2]), T(I32, [2, 2], const=[1, 0, 0, 1])],
                   [same_q(x, [4, 2, 3, 2])]))
        add(single("batch_to_space_nd_%s" % dt, "BATCH_TO_SPACE_ND",
                   [same_q(x, [4, 2, 3, 2]), i32c([2, 2]), T(I32, [2, 2], const=[1, 0, 0, 1])],
                   [same_q(x, [1, 3, 5, 2])]))
    # resize
    for op in ("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"):
        for dt in ("f32", "u8", "i8", "i16"):
            for tag, ac, hp, size in (("up", False, False, [5, 7]), ("align_corners", True, False, [5, 7]),
                                       ("half_pixel", False, True, [7, 3]), ("down", False, False, [2, 3])):
                if dt == "i16" and tag != "half_pixel":
                    continue
                x = act(dt, [1, 3, 4, 2])
                add(single("%s_%s_%s" % (op.lower(), dt, tag), op, [x, i32c(size)],
                           [same_q(x, [1] + size + [2])], {"align_corners": ac, "half_pixel_centers": hp}))
    # shape / fill / zeros_like / range
    for otype in (I32, I64):
        # SHAPE's output is fixed at prepare time; add a runtime input to it so the oracle
        # evaluates a real output (it returns garbage for a bare SHAPE output)
        add(Case("shape_%s" % S.DTYPE_NAME[otype],
                 {"x": act("f32", [2, 3, 5]), "s": T(otype, [3]), "z": T(otype, [3]), "y": T(otype, [3])},
                 [("SHAPE", ["x"], ["s"], {"out_type": otype}), ("ADD", ["s", "z"], ["y"], {})],
                 ["x", "z"], ["y"]))
    add(single("fill_f32", "FILL", [i32c([2, 3]), T(F32, [], lo=-2, hi=2)], [T(F32, [2, 3])]))
    add(single("fill_i32", "FILL", [i32c([3, 1, 2]), T(I32, [])], [T(I32, [3, 1, 2])]))
    add(single("zeros_like_f32", "ZEROS_LIKE", [act("f32", [2, 3])], [T(F32, [2, 3])]))
    add(single("zeros_like_i32", "ZEROS_LIKE", [T(I32, [4])], [T(I32, [4])]))
    # RANGE with constant operands, added to a runtime input so the model has one
    add(Case("range_i32", {"s": T(I32, [], const=[3]), "l": T(I32, [], const=[-6]), "d": T(I32, [], const=[-2]),
                           "r": T(I32, [5]), "x": T(I32, [5]), "y": T(I32, [5])},
             [("RANGE", ["s", "l", "d"], ["r"], {}), ("ADD", ["r", "x"], ["y"], {})], ["x"], ["y"]))
    add(Case("range_f32", {"s": T(F32, [], const=[0.5]), "l": T(F32, [], const=[3.0]), "d": T(F32, [], const=[0.75]),
                           "r": T(F32, [4]), "x": T(F32, [4]), "y": T(F32, [4])},
             [("RANGE", ["s", "l", "d"], ["r"], {}), ("ADD", ["r", "x"], ["y"], {})], ["x"], ["y"]))


# ---------------------------------------------------------------- detection
def _ssd_anchors(rows, cols, size):
    """Anchors [rows * cols, 4] (ycenter, xcenter, h, w) on a grid over [0, 1]^2."""
    out = []
    for r in range(rows):
        for c in range(cols):
            out += [(r + 0.5) / rows, (c + 0.5) / cols, size, size * 1.25]
    return out


def detection_cases():
    """TFLite_Detection_PostProcess: fast and regular NMS, float32 and uint8 inputs. Fast-NMS
    cases keep max_detections boxes above the score threshold (TFLite leaves the rows past
    the count unwritten in fast mode). No int8 case: TFLite's kernel returns an error for
    int8 inputs (the oracle then leaves the outputs unwritten); tfcc dequantizes int8 as uint8
    (tests/ops/test_detection.c compares it with the float path)."""
    import flexbuf
    n, classes = 24, 3
    anchors_f = _ssd_anchors(4, 6, 0.22)

    def opts(max_det, max_cpd, regular=False, dpc=None, score=0.05, iou=0.5, bg=True):
        o = {"max_detections": max_det, "max_classes_per_detection": max_cpd,
             "nms_score_threshold": score, "nms_iou_threshold": iou, "num_classes": classes,
             "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0, "w_scale": 5.0}
        if regular:
            o["use_regular_nms"] = True
        if dpc is not None:
            o["detections_per_class"] = dpc
        return flexbuf.map_bytes(o)

    def outs(rows):
        return [T(F32, [1, rows, 4]), T(F32, [1, rows]), T(F32, [1, rows]), T(F32, [1])]

    def f32_case(name, o, rows, enc_len=4, bg=True):
        ins = [T(F32, [1, n, enc_len], lo=-1.5, hi=1.5), T(F32, [1, n, classes + (1 if bg else 0)], lo=0.0, hi=1.0),
               T(F32, [n, 4], const=anchors_f)]
        add(single(name, "CUSTOM:TFLite_Detection_PostProcess", ins, outs(rows), o))

    f32_case("detect_postprocess_f32_fast", opts(6, 1), 6)
    f32_case("detect_postprocess_f32_fast_enc6", opts(5, 1), 5, enc_len=6)
    f32_case("detect_postprocess_f32_fast_2cls", opts(4, 2), 8)
    f32_case("detect_postprocess_f32_fast_nobg", opts(6, 1), 6, bg=False)
    f32_case("detect_postprocess_f32_regular", opts(7, 1, regular=True, dpc=3), 7)
    f32_case("detect_postprocess_f32_regular_iou", opts(10, 1, regular=True, dpc=4, score=0.3, iou=0.2), 10)
    # detections_per_class 0: the fast suppression never reads it (a converted SSD of the
    # twenty-eighth sweep batch stores 0 with fast NMS); the regular one fails its eval on it
    # ("num_detections_per_class > 0"), as tfcc's load does
    f32_case("detect_postprocess_f32_fast_dpc0", opts(6, 1, dpc=0), 6)
    # equal scores (half / eighth steps): the order of TFLite's partial sort (fast, all 3 classes
    # per box) and of
    # its stable merge across classes (regular) decide
    for name, o, rows, steps in (("detect_postprocess_f32_fast_ties", opts(5, 3, score=0.2), 15, 2),
                                 ("detect_postprocess_f32_regular_ties",
                                  opts(8, 1, regular=True, dpc=4, score=0.2), 8, 8)):
        rng = Rng(seed_of(name))
        sc = [rng.randint(0, steps) / float(steps) for _ in range(n * (classes + 1))]
        ins = [T(F32, [1, n, 4], lo=-1.5, hi=1.5), T(F32, [1, n, classes + 1], values=sc),
               T(F32, [n, 4], const=anchors_f)]
        add(single(name, "CUSTOM:TFLite_Detection_PostProcess", ins, outs(rows), o))
    # uint8, as SSD MobileNet: encodings and scores from the network, anchors constant
    aq = (f32(1.0 / 255.0), 0)
    anchors_q = [max(0, min(255, int(round(v / aq[0])))) for v in anchors_f]
    for tag, o, rows in (("fast", opts(6, 1), 6), ("regular", opts(6, 1, regular=True, dpc=2), 6)):
        ins = [T(U8, [1, n, 4], q=(0.05, 128)), T(U8, [1, n, classes + 1], q=(f32(1 / 256.0), 0)),
               T(U8, [n, 4], q=aq, const=anchors_q)]
        add(single("detect_postprocess_u8_" + tag, "CUSTOM:TFLite_Detection_PostProcess", ins,
                   outs(rows), o))


def nms_cases():
    """NON_MAX_SUPPRESSION_V4 / V5 with a constant max_output_size (outputs padded to it)."""
    n = 20

    def scalar_f(v):
        return T(F32, [], const=[v])

    for name, max_out, iou, score in (("nms_v4_f32", 6, 0.4, 0.1), ("nms_v4_f32_pad", 12, 0.3, 0.6)):
        ins = [T(F32, [n, 4], lo=0.0, hi=1.0), T(F32, [n], lo=0.0, hi=1.0), T(I32, [], const=[max_out]),
               scalar_f(iou), scalar_f(score)]
        add(single(name, "NON_MAX_SUPPRESSION_V4", ins, [T(I32, [max_out]), T(I32, [])]))
    # zero-area boxes: IoU 0 with everything, itself included, so a selected one that TFLite
    # puts back in its queue is selected again
    degenerate = [0.1, 0.1, 0.1, 0.5, 0.2, 0.2, 0.6, 0.6, 0.3, 0.3, 0.3, 0.3, 0.25, 0.25, 0.55, 0.6,
                  0.7, 0.1, 0.9, 0.1, 0.0, 0.0, 1.0, 1.0]
    add(single("nms_v4_f32_degenerate", "NON_MAX_SUPPRESSION_V4",
               [T(F32, [6, 4], values=degenerate), T(F32, [6], values=[0.9, 0.8, 0.7, 0.6, 0.5, 0.4]),
                T(I32, [], const=[8]), scalar_f(0.5), scalar_f(0.1)], [T(I32, [8]), T(I32, [])]))
    # equal scores (quarter steps): the order of TFLite's priority queue decides
    for name, v5 in (("nms_v4_f32_ties", False), ("nms_v5_f32_ties", True)):
        rng = Rng(seed_of(name))
        boxes = []
        for _ in range(24):
            y, x = rng.uniform(0, 0.8), rng.uniform(0, 0.8)
            boxes += [f32(y), f32(x), f32(y + rng.uniform(0.05, 0.3)), f32(x + rng.uniform(0.05, 0.3))]
        ins = [T(F32, [24, 4], values=boxes), T(F32, [24], values=[rng.randint(1, 4) / 4.0 for _ in range(24)]),
               T(I32, [], const=[10]), scalar_f(0.7 if v5 else 0.3), scalar_f(0.1)]
        outs = [T(I32, [10]), T(I32, [])]
        if v5:
            ins.append(scalar_f(0.4))
            outs.insert(1, T(F32, [10]))
        add(single(name, "NON_MAX_SUPPRESSION_V5" if v5 else "NON_MAX_SUPPRESSION_V4", ins, outs))
    for name, max_out, iou, score, sigma in (("nms_v5_f32_hard", 8, 0.5, 0.2, 0.0),
                                             ("nms_v5_f32_soft", 10, 0.9, 0.05, 0.5),
                                             ("nms_v5_f32_soft_pad", 16, 0.6, 0.3, 0.3)):
        ins = [T(F32, [n, 4], lo=0.0, hi=1.0), T(F32, [n], lo=0.0, hi=1.0), T(I32, [], const=[max_out]),
               scalar_f(iou), scalar_f(score), scalar_f(sigma)]
        add(single(name, "NON_MAX_SUPPRESSION_V5", ins,
                   [T(I32, [max_out]), T(F32, [max_out]), T(I32, [])]))


def fft_cases():
    """RFFT2D (fft_length constant, powers of two as TFLite requires; crop and zero-pad)
    followed by COMPLEX_ABS, REAL or IMAG: complex64 tensors are never model inputs or
    outputs here (the oracle's .npy I/O has no complex type)."""
    C64 = S.COMPLEX64
    for name, shape, fft, part in (("rfft2d_abs_f32", [2, 6, 16], [8, 16], "COMPLEX_ABS"),
                                   ("rfft2d_real_f32", [5, 12], [4, 16], "REAL"),
                                   ("rfft2d_imag_f32", [1, 3, 8, 8], [8, 8], "IMAG"),
                                   ("rfft2d_abs_f32_frames", [3, 400], [1, 512], "COMPLEX_ABS"),
                                   ("rfft2d_real_f32_1x1", [4, 1, 1], [1, 1], "REAL")):
        oshape = shape[:-2] + [fft[0], fft[1] // 2 + 1]
        add(Case(name, {"x": T(F32, shape, lo=-1.0, hi=1.0), "n": T(I32, [2], const=fft),
                        "c": T(C64, oshape), "y": T(F32, oshape)},
                 [("RFFT2D", ["x", "n"], ["c"], {}), (part, ["c"], ["y"], {})], ["x"], ["y"]))
    # YAMNet's spectrogram: 96 frames [96, 1, 512] at [1, 512], the complex64 result reshaped
    # to [96, 257], then its magnitude
    add(Case("rfft2d_yamnet_spectrogram",
             {"x": T(F32, [96, 1, 512], lo=-1.0, hi=1.0), "n": T(I32, [2], const=[1, 512]),
              "c": T(C64, [96, 1, 257]), "s": T(I32, [2], const=[96, 257]), "r": T(C64, [96, 257]),
              "y": T(F32, [96, 257])},
             [("RFFT2D", ["x", "n"], ["c"], {}), ("RESHAPE", ["c", "s"], ["r"], {}),
              ("COMPLEX_ABS", ["r"], ["y"], {})], ["x"], ["y"]))


def half_step_values(n, lo, hi):
    """n float32 values in [lo, hi], lo and hi included (the range of TFLite's asymmetric
    run-time quantization), the others at (k + 0.5) quantization steps from the zero point give
    or take a few ulps: where zp + x * (1 / scale), summed in float, lands on a half."""
    scale = f32((hi - lo) / 255.0)
    inv = f32(1.0 / scale)
    zp = int(math.floor(-128 - lo / ((hi - lo) / 255.0) + 0.5))
    vals = [f32(lo), f32(hi)]
    k = 0
    while len(vals) < n:
        base = (k * 7 % 250 - 120 + 0.5 - zp) / inv
        ulp = abs(base) * 2.0 ** -23
        vals.append(f32(base + ulp * ((k % 9) - 4)))
        k += 1
    return vals


def hybrid_cases():
    """Dynamic-range ("hybrid") quantization: float32 input and output, int8 constant weights
    (per-tensor or per-channel), float32 bias; TFLite quantizes the input at run time."""
    def hw(name, shape, qdim, per_channel):
        rng = Rng(seed_of(name + "/w"))
        w, _ = weights(rng, "i8", shape, qdim, per_channel=per_channel, wmax=0.5)
        return w

    def fbias(name, n):
        rng = Rng(seed_of(name + "/b"))
        return T(F32, [n], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(n)])

    def add_builtin(case):
        """A twin checked in REFERENCE mode against the classic interpreter (tfweb; outputs in
        tests/ops/hybrid_builtin, ops.test_hybrid)."""
        case.engine = "tfweb"
        case.builtin_only = True
        add(case)

    # (tag, in NHWC, out channels, kernel, stride, padding, activation, per-channel)
    convs = [
        ("pt_3x3_same", [1, 6, 7, 5], 6, 3, 1, "SAME", "NONE", False),
        ("pc_3x3_same_relu", [1, 6, 7, 5], 6, 3, 1, "SAME", "RELU", True),
        ("pt_3x3_valid_s2_b2", [2, 9, 8, 3], 4, 3, 2, "VALID", "NONE", False),
        ("pc_3x3_same_s2", [1, 9, 9, 4], 5, 3, 2, "SAME", "RELU6", True),
        ("pt_1x1", [1, 5, 6, 9], 7, 1, 1, "VALID", "NONE", False),
        ("pc_1x1_b2", [2, 4, 3, 8], 5, 1, 1, "SAME", "NONE", True),
        ("pt_1x1_s2", [1, 7, 6, 4], 6, 1, 2, "VALID", "NONE", False),
    ]
    for tag, ishape, oc, k, st, pad, actf, pc in convs:
        name = "conv_2d_hybrid_%s" % tag
        oh, ow = conv_out(ishape[1], k, st, 1, pad), conv_out(ishape[2], k, st, 1, pad)
        add(single(name, "CONV_2D",
                   [act("f32", ishape, -2.0, 3.0), hw(name, [oc, k, k, ishape[3]], 0, pc), fbias(name, oc)],
                   [T(F32, [ishape[0], oh, ow, oc])],
                   {"padding": pad, "stride_w": st, "stride_h": st, "fused_activation_function": actf}))
    # sweep62b: a NaN in a quantization group (a FULLY_CONNECTED row, a 1x1 convolution's pixel,
    # a KxK convolution's batch image): LiteRT's qd8 quantization gives the group a NaN scale,
    # so every output computed from it is NaN and the others are unchanged (a DTLN-aec file fed
    # negative magnitudes: LOG's NaN reached every row)
    def nan_values(name, shape, at):
        rng = Rng(seed_of(name + "/x"))
        v = [f32(rng.uniform(-2.0, 3.0)) for _ in range(numel(shape))]
        for i in at:
            v[i] = float("nan")
        return T(F32, shape, values=v)

    for tag, ishape, oc, k, st, pad, actf, at in [
            ("pc_1x1_b2_nan", [2, 4, 3, 8], 5, 1, 1, "SAME", "NONE", [5, 8 * 12 + 8 * 7 + 7]),
            ("pc_3x3_same_s2_nan", [2, 9, 9, 4], 5, 3, 2, "SAME", "RELU6", [5])]:
        name = "conv_2d_hybrid_%s" % tag
        oh, ow = conv_out(ishape[1], k, st, 1, pad), conv_out(ishape[2], k, st, 1, pad)
        add(single(name, "CONV_2D",
                   [nan_values(name, ishape, at), hw(name, [oc, k, k, ishape[3]], 0, True), fbias(name, oc)],
                   [T(F32, [ishape[0], oh, ow, oc])],
                   {"padding": pad, "stride_w": st, "stride_h": st, "fused_activation_function": actf}))
    name = "fully_connected_hybrid_pt_nan_rows"
    add(single(name, "FULLY_CONNECTED",
               [nan_values(name, [4, 20], [1, 59, 60]), hw(name, [6, 20], 0, False), fbias(name, 6)],
               [T(F32, [4, 6])], {"asymmetric_quantize_inputs": False}))
    # ops: grouped hybrid CONV_2D (filter input channels < input channels): an exported YOLO
    # licence-plate model of the eighth sweep has a 128-group 3x3 one (one channel per group)
    for tag, ishape, oc, fic, pc in [("grouped_pc_g4", [1, 6, 7, 4], 4, 1, True),
                                     ("grouped_pt_g2", [1, 5, 6, 6], 4, 3, False)]:
        name = "conv_2d_hybrid_%s" % tag
        add(single(name, "CONV_2D",
                   [act("f32", ishape, -2.0, 3.0), hw(name, [oc, 3, 3, fic], 0, pc), fbias(name, oc)],
                   [T(F32, ishape[:3] + [oc])],
                   {"padding": "SAME", "stride_w": 1, "stride_h": 1}))
    for tag, ishape, mult, st, pad in [("pc_3x3_same", [1, 7, 6, 4], 1, 1, "SAME"),
                                        ("pc_3x3_valid_m2_s2", [2, 8, 7, 3], 2, 2, "VALID")]:
        name = "depthwise_conv_2d_hybrid_%s" % tag
        oc = ishape[3] * mult
        oh, ow = conv_out(ishape[1], 3, st, 1, pad), conv_out(ishape[2], 3, st, 1, pad)
        add(single(name, "DEPTHWISE_CONV_2D",
                   [act("f32", ishape, -2.0, 3.0), hw(name, [1, 3, 3, oc], 3, True), fbias(name, oc)],
                   [T(F32, [ishape[0], oh, ow, oc])],
                   {"padding": pad, "stride_w": st, "stride_h": st, "depth_multiplier": mult}))
    # ops: inputs whose zero point + x / scale, summed in float as TFLite's
    # AsymmetricQuantizeFloats does, rounds to a half (and half of them the other way than
    # round(x / scale) + zp); 64 values so that vectors and tails both see some
    name = "depthwise_conv_2d_hybrid_pc_half_steps"
    add(single(name, "DEPTHWISE_CONV_2D",
               [T(F32, [1, 4, 8, 2], values=half_step_values(64, -1.0, 6.0)),
                hw(name, [1, 3, 3, 2], 3, True), fbias(name, 2)],
               [T(F32, [1, 4, 8, 2])],
               {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1}))
    for tag, ishape, units, pc, asym, opts in [
            ("pt", [3, 20], 6, False, False, {}),
            ("pt_asym", [3, 20], 6, False, True, {}),
            ("pc", [4, 33], 9, True, False, {"fused_activation_function": "RELU"}),
            ("pc_asym", [2, 33], 9, True, True, {}),
            ("pt_keep_dims", [2, 3, 16], 5, False, False, {"keep_num_dims": True})]:
        name = "fully_connected_hybrid_%s" % tag
        o = dict(opts)
        o["asymmetric_quantize_inputs"] = asym
        oshape = ishape[:-1] + [units] if o.get("keep_num_dims") else [numel(ishape) // ishape[-1], units]
        add(single(name, "FULLY_CONNECTED",
                   [act("f32", ishape, -2.0, 3.0), hw(name, [units, ishape[-1]], 0, pc), fbias(name, units)],
                   [T(F32, oshape)], o))
    # ops: a hybrid FULLY_CONNECTED whose input elements are not a multiple of the weights
    # columns (the YAMNet export above is hybrid): batches rounded down, as TFLite. LiteRT's
    # XNNPACK delegate fails to reshape it, so the classic interpreter's builtin kernel is the
    # only reference: checked bit for bit in REFERENCE mode (ops.test_hybrid), per tensor (that
    # build computes per-channel hybrid FULLY_CONNECTED wrongly, docs/quantization.md)
    for tag, ishape, units, depth, asym in (("pt", [1, 20], 3, 8, False), ("pt_asym", [3, 7], 5, 6, True)):
        name = "fully_connected_hybrid_input_remainder_%s" % tag
        case = single(name, "FULLY_CONNECTED",
                      [act("f32", ishape, -2.0, 3.0), hw(name, [units, depth], 0, False),
                       fbias(name, units)],
                      [T(F32, [numel(ishape) // depth, units])], {"asymmetric_quantize_inputs": asym})
        add_builtin(case)
    # ops: the hybrid format of TF 1.x's converters: symmetric int8 weight values in a tensor
    # typed uint8 (one scale, zero point 0); TFLite's builtin CONV_2D / FULLY_CONNECTED read the
    # bytes as int8 (XNNPACK takes no uint8 filter for a float node), the gunshot and UNet models
    # of the fifth sweep were refused ("hybrid float32 input with uint8 filter unsupported")
    for op, name, ishape, wshape, oshape, opts in [
            ("CONV_2D", "conv_2d_hybrid_legacy_u8", [1, 1, 40, 6], [8, 1, 9, 6], [1, 1, 40, 8],
             {"padding": "SAME", "stride_w": 1, "stride_h": 1, "fused_activation_function": "RELU"}),
            ("FULLY_CONNECTED", "fully_connected_hybrid_legacy_u8", [3, 24], [7, 24], [3, 7], {})]:
        rng = Rng(seed_of(name + "/w"))
        vals = [rng.randint(-127, 127) for _ in range(numel(wshape))]
        vals[0], vals[-1] = -127, 127
        w = T(U8, wshape, q=(f32(0.5 / 127.0), 0), const=[v & 0xFF for v in vals])
        add(single(name, op, [act("f32", ishape, -2.0, 3.0), w, fbias(name, wshape[0])],
                   [T(F32, oshape)], opts))
    # ops: blockwise-quantized int4 weights (QuantizationDetails BlockwiseQuantization, float16
    # scales per block of block_size along the input axis, symmetric), as the AI Edge converters
    # write LLM layers: TFLite's default build runs XNNPACK's qd8 x qb4w GEMM
    # (qwen_fc_blockwise_quantized of google-ai-edge/LiteRT was refused); a block size that is
    # not a multiple of 32 runs TFLite's builtin EvalBlockwise4Bit (asymmetric per-row input
    # quantization), which skips the fused activation: no activation in that case
    for tag, ishape, units, bs, use_bias, actf in [("bs32", [3, 64], 5, 32, True, "NONE"),
                                                   ("bs32_relu_nobias_rank3", [2, 2, 64], 7, 32, False, "RELU"),
                                                   ("bs16_builtin", [4, 48], 7, 16, True, "NONE")]:
        name = "fully_connected_blockwise_i4_%s" % tag
        rng = Rng(seed_of(name + "/w"))
        k = ishape[-1]
        wv = [rng.randint(-8, 7) for _ in range(units * k)]
        sv = [struct.unpack("<e", struct.pack("<e", 0.5 / 7 * rng.uniform(0.3, 1.0)))[0]
              for _ in range(units * (k // bs))]
        tensors = {"x": act("f32", ishape, -2.0, 3.0)}
        sidx = 2 + (1 if use_bias else 0) + 1  # x, w, [b], y, s
        tensors["w"] = T(S.INT4, [units, k], q={"blockwise": {"scales": sidx, "block_size": bs}}, const=wv)
        ins = ["x", "w"]
        if use_bias:
            tensors["b"] = fbias(name, units)
            ins.append("b")
        tensors["y"] = T(F32, [numel(ishape) // k, units])
        tensors["s"] = T(S.FLOAT16, [units, k // bs], const=sv)
        assert list(tensors).index("s") == sidx
        add(Case(name, tensors, [("FULLY_CONNECTED", ins, ["y"], {"fused_activation_function": actf})],
                 ["x"], ["y"]))
    # BATCH_MATMUL with a constant int8 rhs: TFLite runs it as a FULLY_CONNECTED
    for tag, lshape, rshape, pc, asym, adj_y in [
            ("pt", [2, 3, 8], [8, 5], False, False, False),
            ("pt_asym", [2, 3, 8], [8, 5], False, True, False),
            ("pc", [4, 7], [7, 6], True, False, False),
            ("pt_adj_y_rank3", [3, 9], [1, 5, 9], False, False, True)]:
        name = "batch_matmul_hybrid_%s" % tag
        n = rshape[-2] if adj_y else rshape[-1]
        w = hw(name, rshape, len(rshape) - 2 if adj_y else len(rshape) - 1, pc)
        out = ([1] if len(rshape) > len(lshape) else []) + lshape[:-1] + [n]
        add(single(name, "BATCH_MATMUL", [act("f32", lshape, -2.0, 3.0), w], [T(F32, out)],
                   {"adj_y": adj_y, "asymmetric_quantize_inputs": asym}))
    # BATCH_MATMUL with a constant int8 rhs that has batches: each lhs matrix against its
    # (broadcast) rhs matrix, the lhs quantized per row (DeepFilterNet's grouped linear layers,
    # lhs [8, 1, K] x rhs [8, K, N], were refused: AmbiqAI/DeepFilterNet_tf's
    # dfnet2_stateful_dynamic)
    for tag, lshape, rshape, out, asym, adj_y in [
            ("pt_asym_rhs_batched", [8, 1, 24], [8, 24, 6], [8, 1, 6], True, False),
            ("pt_rhs_batched_lhs_bcast", [2, 1, 3, 8], [4, 8, 5], [2, 4, 3, 5], False, False),
            ("pt_rhs_batched_adj_y_lhs_2d", [4, 16], [3, 5, 16], [3, 4, 5], False, True)]:
        name = "batch_matmul_hybrid_%s" % tag
        w = hw(name, rshape, len(rshape) - 2 if adj_y else len(rshape) - 1, False)
        add(single(name, "BATCH_MATMUL", [act("f32", lshape, -2.0, 3.0), w], [T(F32, out)],
                   {"adj_y": adj_y, "asymmetric_quantize_inputs": asym}))
    # Small hybrid networks: in TFLite's default build (XNNPACK) the float operators before a
    # hybrid node decide its run-time quantization to the last bit, so these outputs check
    # tfcc's XNNPACK-exact float CONV_2D and LOGISTIC (kernels/tflite-f32) in hybrid models.
    name = "hybrid_net_conv_silu_conv"
    rng = Rng(seed_of(name + "/wf"))
    wf = T(F32, [8, 3, 3, 3], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(8 * 27)])
    add(Case(name, {"x": act("f32", [1, 12, 12, 3], 0.0, 1.0), "wf": wf, "bf": fbias(name + "f", 8),
                    "c": T(F32, [1, 6, 6, 8]), "s": T(F32, [1, 6, 6, 8]), "m": T(F32, [1, 6, 6, 8]),
                    "wh": hw(name, [6, 3, 3, 8], 0, False), "bh": fbias(name, 6), "y": T(F32, [1, 6, 6, 6])},
             [("CONV_2D", ["x", "wf", "bf"], ["c"], {"padding": "SAME", "stride_w": 2, "stride_h": 2}),
              ("LOGISTIC", ["c"], ["s"], {}), ("MUL", ["c", "s"], ["m"], {}),
              ("CONV_2D", ["m", "wh", "bh"], ["y"], {"padding": "SAME", "stride_w": 1, "stride_h": 1})],
             ["x"], ["c", "s", "y"]))
    # ops: a float DEPTHWISE_CONV_2D (weights under 1024 elements stay float) before a hybrid
    # 1x1 CONV_2D, as in converted MobileNets: XNNPACK's depthwise order (taps column by column)
    name = "hybrid_net_dw_f32_conv"
    rng = Rng(seed_of(name + "/wd"))
    wd = T(F32, [1, 3, 3, 16], const=[f32(rng.uniform(-0.8, 0.8)) for _ in range(9 * 16)])
    add(Case(name, {"x": act("f32", [1, 9, 10, 16], -1.0, 3.0), "wd": wd, "bd": fbias(name + "d", 16),
                    "d": T(F32, [1, 9, 10, 16]), "wh": hw(name, [8, 1, 1, 16], 0, True), "bh": fbias(name, 8),
                    "y": T(F32, [1, 9, 10, 8])},
             [("DEPTHWISE_CONV_2D", ["x", "wd", "bd"], ["d"],
               {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1,
                "fused_activation_function": "RELU6"}),
              ("CONV_2D", ["d", "wh", "bh"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
             ["x"], ["d", "y"]))
    # ops: the inverted-residual pair of a hybrid MobileNetV2 whose weights stayed float (under
    # 1024 elements): float 1x1 CONV_2D -> float DEPTHWISE_CONV_2D -> hybrid 1x1 CONV_2D. Each
    # float node in XNNPACK's order; tfcc's fused EXPAND_DEPTHWISE_CONV_2D (pass
    # fuse_expand_dwconv) is not, so the pass leaves hybrid models alone in TFLITE mode
    # (mobilenet_v2_035_96_embedder of tensorflow/examples was 0.107 from LiteRT)
    name = "hybrid_net_expand_dw_conv"
    rng = Rng(seed_of(name + "/we"))
    we = T(F32, [24, 1, 1, 8], const=[f32(rng.uniform(-0.7, 0.7)) for _ in range(24 * 8)])
    wd = T(F32, [1, 3, 3, 24], const=[f32(rng.uniform(-0.8, 0.8)) for _ in range(9 * 24)])
    add(Case(name, {"x": act("f32", [1, 11, 10, 8], -1.0, 3.0), "we": we, "be": fbias(name + "e", 24),
                    "e": T(F32, [1, 11, 10, 24]), "wd": wd, "bd": fbias(name + "d", 24),
                    "d": T(F32, [1, 6, 5, 24]), "wh": hw(name, [8, 1, 1, 24], 0, True),
                    "bh": fbias(name, 8), "y": T(F32, [1, 6, 5, 8])},
             [("CONV_2D", ["x", "we", "be"], ["e"],
               {"padding": "VALID", "stride_w": 1, "stride_h": 1, "fused_activation_function": "RELU6"}),
              ("DEPTHWISE_CONV_2D", ["e", "wd", "bd"], ["d"],
               {"padding": "SAME", "stride_w": 2, "stride_h": 2, "depth_multiplier": 1,
                "fused_activation_function": "RELU6"}),
              ("CONV_2D", ["d", "wh", "bh"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
             ["x"], ["d", "y"]))
    # ref9: its _builtin twin (REFERENCE mode, per-tensor weights; the first pair with a PAD
    # before a VALID stride-2 depthwise, as Keras MobileNets write it): the classic
    # interpreter's delegate takes both float nodes of each pair (IGEMM and dwconv orders);
    # fuse_expand_dwconv fused them in REFERENCE mode and its kernel adds in another order
    # (semantic_segmentation_distillation's hybrid file was 0.18-0.46 from the classic
    # interpreter at its outputs)
    name = "hybrid_net_expand_dw_conv_builtin"
    rng = Rng(seed_of(name + "/we"))
    we = T(F32, [24, 1, 1, 8], const=[f32(rng.uniform(-0.7, 0.7)) for _ in range(24 * 8)])
    wd = T(F32, [1, 3, 3, 24], const=[f32(rng.uniform(-0.8, 0.8)) for _ in range(9 * 24)])
    we2 = T(F32, [16, 1, 1, 24], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(16 * 24)])
    wd2 = T(F32, [1, 3, 3, 16], const=[f32(rng.uniform(-0.8, 0.8)) for _ in range(9 * 16)])
    case = Case(name, {"x": act("f32", [1, 12, 10, 8], -1.0, 3.0), "we": we, "be": fbias(name + "e", 24),
                       "e": T(F32, [1, 12, 10, 24]), "pads": i32c([0, 0, 0, 1, 0, 1, 0, 0], [4, 2]),
                       "p": T(F32, [1, 13, 11, 24]), "wd": wd, "bd": fbias(name + "d", 24),
                       "d": T(F32, [1, 6, 5, 24]), "we2": we2, "be2": fbias(name + "e2", 16),
                       "e2": T(F32, [1, 6, 5, 16]), "wd2": wd2, "bd2": fbias(name + "d2", 16),
                       "d2": T(F32, [1, 6, 5, 16]), "wh": hw(name, [8, 1, 1, 16], 0, False),
                       "bh": fbias(name, 8), "y": T(F32, [1, 6, 5, 8])},
                [("CONV_2D", ["x", "we", "be"], ["e"],
                  {"padding": "VALID", "stride_w": 1, "stride_h": 1, "fused_activation_function": "RELU6"}),
                 ("PAD", ["e", "pads"], ["p"], {}),
                 ("DEPTHWISE_CONV_2D", ["p", "wd", "bd"], ["d"],
                  {"padding": "VALID", "stride_w": 2, "stride_h": 2, "depth_multiplier": 1,
                   "fused_activation_function": "RELU6"}),
                 ("CONV_2D", ["d", "we2", "be2"], ["e2"],
                  {"padding": "VALID", "stride_w": 1, "stride_h": 1, "fused_activation_function": "RELU6"}),
                 ("DEPTHWISE_CONV_2D", ["e2", "wd2", "bd2"], ["d2"],
                  {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1,
                   "fused_activation_function": "RELU6"}),
                 ("CONV_2D", ["d2", "wh", "bh"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
                ["x"], ["d", "d2", "y"])
    add_builtin(case)
    # ref9: a subgraph the classic interpreter leaves to its builtin kernels (a FILL whose dims
    # come from SHAPE makes a tensor dynamic, so its delegate declines the whole graph; mit-bih's
    # pq_model, 0.146 from the classic interpreter): float CONV_2D as im2col + Eigen's GEMM (even
    # and odd k apart within groups of 4 pixels, bias after: a 1x8 filter over one channel, a
    # 3x3 stride-2 one with K 27 and 30 pixels), SOFTMAX as Eigen's (exp, sum, times 1 / sum),
    # and a hybrid CONV_2D whose per-channel scales are all equal, which that conv.cc runs as
    # per-tensor with the tensor's legacy scale 0 (every output its bias)
    name = "hybrid_net_conv_eigen_builtin"
    rng = Rng(seed_of(name + "/wf"))
    wf = T(F32, [16, 1, 8, 1], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(16 * 8)])
    wg = T(F32, [5, 3, 3, 3], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(5 * 27)])
    wh = hw(name, [8, 1, 3, 16], 0, False)
    wh.q = dict(wh.q, scale=wh.q["scale"] * 8, zero_point=[0] * 8, quantized_dimension=0)
    case = Case(name, {"x": act("f32", [1, 1, 19, 1], -1.0, 1.0), "wf": wf, "bf": fbias(name + "f", 16),
                       "c": T(F32, [1, 1, 19, 16]), "s": T(I32, [4]), "one": T(F32, [], const=[1.0]),
                       "f": T(F32, [1, 1, 19, 16]), "m": T(F32, [1, 1, 19, 16]),
                       "sm": T(F32, [1, 1, 19, 16]), "wh": wh, "bh": fbias(name, 8),
                       "y": T(F32, [1, 1, 19, 8]),
                       "x2": act("f32", [1, 9, 11, 3], -1.0, 1.0), "wg": wg, "bg": fbias(name + "g", 5),
                       "g": T(F32, [1, 5, 6, 5])},
                [("CONV_2D", ["x", "wf", "bf"], ["c"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
                 ("SHAPE", ["c"], ["s"], {"out_type": I32}),
                 ("FILL", ["s", "one"], ["f"], {}),
                 ("MUL", ["c", "f"], ["m"], {}),
                 ("SOFTMAX", ["m"], ["sm"], {"beta": 1.0}),
                 ("CONV_2D", ["m", "wh", "bh"], ["y"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
                 ("CONV_2D", ["x2", "wg", "bg"], ["g"], {"padding": "SAME", "stride_w": 2, "stride_h": 2})],
                ["x", "x2"], ["c", "sm", "y", "g"])
    add_builtin(case)
    # ref9: DPCRN's GRU loops: a WHILE whose loop variable grows leaves the classic interpreter's
    # primary subgraph undelegated, and that interpreter then delegates no subgraph at all: a
    # float LOGISTIC in the primary subgraph and one in the loop body both run its builtin
    # (Eigen's) logistic, not the delegate's sigmoid; a hybrid FULLY_CONNECTED after them
    name = "hybrid_net_while_logistic_builtin"

    def while_grow_logistic(m, index):
        ci, cond = m.add_subgraph("cond")
        a, b = cond.add_tensor("i", I32, []), cond.add_tensor("n", I32, [])
        cond.add_tensor("t", F32, [1, 2], shape_signature=[1, -1])
        cond.add_tensor("s", F32, [4, 64])
        more = cond.add_tensor("more", BOOL, [])
        cond.add_op("LESS", [a, b], [more])
        cond.inputs, cond.outputs = [0, 1, 2, 3], [more]
        bi, body = m.add_subgraph("body")
        i, n = body.add_tensor("i", I32, []), body.add_tensor("n", I32, [])
        t = body.add_tensor("t", F32, [1, 2], shape_signature=[1, -1])
        sv = body.add_tensor("s", F32, [4, 64])
        one = body.add_tensor("one", I32, [], data=S.pack(I32, [1]))
        half = body.add_tensor("half", F32, [], data=S.pack(F32, [0.5]))
        i2, u = body.add_tensor("i2", I32, []), body.add_tensor("u", F32, [1, 2], shape_signature=[1, -1])
        t2 = body.add_tensor("t2", F32, [1, 4], shape_signature=[1, -1])
        s2 = body.add_tensor("s2", F32, [4, 64])
        body.add_op("ADD", [i, one], [i2])
        body.add_op("MUL", [t, half], [u])
        body.add_op("CONCATENATION", [t, u], [t2], {"axis": 1})
        body.add_op("LOGISTIC", [sv], [s2])
        body.inputs, body.outputs = [i, n, t, sv], [i2, n, t2, s2]
        m.add_op("WHILE", [index[k] for k in ("i0", "n", "x", "s")],
                 [index[k] for k in ("i_f", "n_f", "t_f", "sw")],
                 {"cond_subgraph_index": ci, "body_subgraph_index": bi})

    case = Case(name, {"x": act("f32", [1, 2], -1.0, 1.0), "s": act("f32", [4, 64], -9.0, 9.0),
                       "i0": i32c([0], []), "n": i32c([1], []), "i_f": T(I32, []), "n_f": T(I32, []),
                       "t_f": T(F32, [1, 2]), "sw": T(F32, [4, 64]), "sg": T(F32, [4, 64]),
                       "w": hw(name, [6, 64], 0, False), "b": fbias(name, 6), "y": T(F32, [4, 6])},
                [("LOGISTIC", ["s"], ["sg"], {}),
                 ("FULLY_CONNECTED", ["sg", "w", "b"], ["y"], {})],
                ["x", "s"], ["sg", "sw", "y"])
    case.extend = while_grow_logistic
    add_builtin(case)
    # ref9: POW by a one-element exponent within 1e-5 of an integer n >= 1 is TFLite's
    # IntegerPower (squares from the top bit, times x for odd steps), not powf: 1,085 of 4,096
    # apart for n = 3 (dpcrn_quant's POW by 2 on sweep23's input: one value); 0.5 stays powf
    # lead49: LiteRT computes the same (its delegate does not take POW): float_pow_int, TFLITE mode
    for name in ("float_pow_int", "float_pow_int_builtin"):
        case = Case(name, {"x": act("f32", [512], 0.01, 3.0), "e3": T(F32, [], const=[3.0]),
                           "e7": T(F32, [], const=[7.0]), "eh": T(F32, [], const=[0.5]),
                           "y3": T(F32, [512]), "y7": T(F32, [512]), "yh": T(F32, [512])},
                    [("POW", ["x", "e3"], ["y3"], {}), ("POW", ["x", "e7"], ["y7"], {}),
                     ("POW", ["x", "eh"], ["yh"], {})],
                    ["x"], ["y3", "y7", "yh"])
        if name.endswith("_builtin"):
            add_builtin(case)
        else:
            add(case)
    # ops: a hybrid CONV_2D behind a RESIZE to a size computed from SHAPE, its input declared
    # with shape [] as the converter writes it (the upsampling blocks of converted style-transfer
    # models): XNNPACK's delegate refuses the rank, the builtin kernel runs the convolution
    # (symmetric per-tensor input quantization); the same convolution on x runs as qd8
    name = "hybrid_net_dynamic_resize_conv"
    w3 = hw(name, [6, 3, 3, 4], 0, False)
    add(Case(name, {"x": act("f32", [1, 5, 6, 4], -1.0, 3.0), "s": T(I32, [4]), "hw": T(I32, [2]),
                    "two": i32c([2, 2]), "sz": T(I32, [2]), "u": T(F32, []),
                    "b0": i32c([1]), "e0": i32c([3]), "st": i32c([1]),
                    "w": w3, "b": fbias(name, 6),
                    "ys": T(F32, [1, 5, 6, 6]), "yd": T(F32, [1, 10, 12, 6])},
             [("CONV_2D", ["x", "w", "b"], ["ys"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
              ("SHAPE", ["x"], ["s"], {"out_type": I32}),
              ("STRIDED_SLICE", ["s", "b0", "e0", "st"], ["hw"], {}),
              ("MUL", ["hw", "two"], ["sz"], {}),
              ("RESIZE_NEAREST_NEIGHBOR", ["x", "sz"], ["u"], {}),
              ("CONV_2D", ["u", "w", "b"], ["yd"], {"padding": "SAME", "stride_w": 1, "stride_h": 1})],
             ["x"], ["ys", "yd"]))
    # ops: a float MEAN over the spatial axes (instance normalisation) before a hybrid CONV_2D:
    # XNNPACK multiplies the sum by 1.0f / n (63 pixels: not a power of two)
    name = "hybrid_net_mean_conv"
    add(Case(name, {"x": act("f32", [1, 7, 9, 16], -1.0, 3.0), "ax": i32c([1, 2]), "m": T(F32, [1, 1, 1, 16]),
                    "d": T(F32, [1, 7, 9, 16]), "w": hw(name, [5, 1, 1, 16], 0, False), "b": fbias(name, 5),
                    "y": T(F32, [1, 7, 9, 5])},
             [("MEAN", ["x", "ax"], ["m"], {"keep_dims": True}),
              ("SUB", ["x", "m"], ["d"], {}),
              ("CONV_2D", ["d", "w", "b"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
             ["x"], ["m", "y"]))
    # ops: a float HARD_SWISH before a hybrid CONV_2D (MobileNetV3 blocks): XNNPACK computes
    # min(max(x * (1/6) + 0.5, 0), 1) * x, the builtin kernel x * relu6(x + 3) / 6, an ulp
    # apart on ~30% of inputs (a hybrid MobileNetV3 U-Net of the eighth sweep: 3.5e-3 at its
    # output from its first HARD_SWISH)
    name = "hybrid_net_hswish_conv"
    add(Case(name, {"x": act("f32", [1, 12, 10, 16], -5.0, 5.0), "h": T(F32, [1, 12, 10, 16]),
                    "w": hw(name, [6, 1, 1, 16], 0, True), "b": fbias(name, 6), "y": T(F32, [1, 12, 10, 6])},
             [("HARD_SWISH", ["x"], ["h"], {}),
              ("CONV_2D", ["h", "w", "b"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
             ["x"], ["h", "y"]))
    # sweep20: float AVERAGE_POOL_2D before a hybrid CONV_2D (TwinLiteNet's input pyramid):
    # XNNPACK's unipass kernel sums the taps column by column in a fixed tree and multiplies
    # by 1.0f / (taps inside the image); the sequential sum divided by the count is an ulp
    # apart on ~20% of outputs (0.10 at TwinLiteNet's hybrid segmentation outputs)
    name = "hybrid_net_avgpool_conv"
    add(Case(name, {"x": act("f32", [1, 9, 11, 8], -2.0, 3.0),
                    "p1": T(F32, [1, 9, 11, 8]), "p2": T(F32, [1, 4, 5, 8]), "p3": T(F32, [1, 9, 11, 8]),
                    "w": hw(name, [6, 3, 3, 8], 0, True), "b": fbias(name, 6), "y": T(F32, [1, 9, 11, 6])},
             [("AVERAGE_POOL_2D", ["x"], ["p1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                   "filter_width": 3, "filter_height": 3}),
              ("AVERAGE_POOL_2D", ["x"], ["p2"], {"padding": "VALID", "stride_w": 2, "stride_h": 2,
                                                   "filter_width": 3, "filter_height": 3}),
              ("AVERAGE_POOL_2D", ["x"], ["p3"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                   "filter_width": 3, "filter_height": 2,
                                                   "fused_activation_function": "RELU6"}),
              ("CONV_2D", ["p1", "w", "b"], ["y"], {"padding": "SAME", "stride_w": 1, "stride_h": 1})],
             ["x"], ["p1", "p2", "p3", "y"]))
    # its _builtin twin (REFERENCE mode, per-tensor weights): the classic interpreter's XNNPACK
    # delegate takes the float AVERAGE_POOL_2D too (the same kernel) and leaves the hybrid
    # CONV_2D to the builtin kernel
    name = "hybrid_net_avgpool_conv_builtin"
    case = Case(name, {"x": act("f32", [1, 9, 11, 8], -2.0, 3.0),
                       "p1": T(F32, [1, 9, 11, 8]), "w": hw(name, [6, 3, 3, 8], 0, False),
                       "b": fbias(name, 6), "y": T(F32, [1, 9, 11, 6])},
                [("AVERAGE_POOL_2D", ["x"], ["p1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                      "filter_width": 3, "filter_height": 3}),
                 ("CONV_2D", ["p1", "w", "b"], ["y"], {"padding": "SAME", "stride_w": 1, "stride_h": 1})],
                ["x"], ["p1", "y"])
    add_builtin(case)
    # float CONV_2D before a hybrid CONV_2D in REFERENCE mode (TwinLiteNet's hybrid file, sweep20:
    # 0.104 from the classic interpreter): its XNNPACK delegate takes the float convolutions
    # (IGEMM order; fewer than 8 output channels the nr2 kernel) and leaves the hybrid CONV_2D to
    # the builtin kernel; tfcc's own order was ulps apart, quantization steps downstream
    name = "hybrid_net_conv_f32_conv_builtin"
    rng = Rng(seed_of(name + "/wf"))
    wf = T(F32, [16, 3, 3, 3], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(16 * 27)])
    wg = T(F32, [5, 3, 3, 16], const=[f32(rng.uniform(-0.3, 0.3)) for _ in range(5 * 9 * 16)])
    case = Case(name, {"x": act("f32", [1, 18, 22, 3], 0.0, 1.0), "wf": wf, "bf": fbias(name + "f", 16),
                       "c": T(F32, [1, 9, 11, 16]), "wg": wg, "bg": fbias(name + "g", 5),
                       "g": T(F32, [1, 9, 11, 5]),
                       "wh": hw(name, [6, 3, 3, 16], 0, False), "bh": fbias(name, 6),
                       "y": T(F32, [1, 9, 11, 6])},
                [("CONV_2D", ["x", "wf", "bf"], ["c"], {"padding": "SAME", "stride_w": 2, "stride_h": 2}),
                 ("CONV_2D", ["c", "wg", "bg"], ["g"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
                 ("CONV_2D", ["c", "wh", "bh"], ["y"], {"padding": "SAME", "stride_w": 1, "stride_h": 1})],
                ["x"], ["c", "g", "y"])
    add_builtin(case)
    # ops: float RESIZE_BILINEAR (half-pixel, align-corners, legacy) before a hybrid CONV_2D
    # (U-Net decoders): XNNPACK lerps t = tl + (tr - tl) * ax, b = bl + (br - bl) * ax,
    # t + (b - t) * ay; the builtin kernel sums the four weighted corners (the MobileNetV3
    # U-Net of the eighth sweep: 5.5e-5 at its output from its first RESIZE_BILINEAR)
    name = "hybrid_net_resize_bilinear_conv"
    add(Case(name, {"x": act("f32", [1, 5, 6, 8], -2.0, 3.0), "sz": i32c([9, 11]),
                    "rh": T(F32, [1, 9, 11, 8]), "ra": T(F32, [1, 9, 11, 8]), "rl": T(F32, [1, 9, 11, 8]),
                    "w": hw(name, [5, 1, 1, 8], 0, True), "b": fbias(name, 5), "y": T(F32, [1, 9, 11, 5])},
             [("RESIZE_BILINEAR", ["x", "sz"], ["rh"], {"half_pixel_centers": True}),
              ("RESIZE_BILINEAR", ["x", "sz"], ["ra"], {"align_corners": True}),
              ("RESIZE_BILINEAR", ["x", "sz"], ["rl"], {}),
              ("CONV_2D", ["rh", "w", "b"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
             ["x"], ["rh", "ra", "rl", "y"]))
    # ops: a float LOG before a hybrid FULLY_CONNECTED (spectrogram front ends: log-mel before
    # the hybrid convolutions of a YAMNet): LiteRT's XNNPACK delegate takes the LOG and runs
    # XNNPACK's f32-vlog rational-3-3 approximation, up to 33 ulp from a correctly rounded logf
    # (a hybrid YAMNet of the tenth sweep: 0.0083 at its scores from the LOG alone)
    name = "hybrid_net_log_fc"
    add(Case(name, {"x": act("f32", [64, 64], 1e-4, 90.0), "l": T(F32, [64, 64]),
                    "w": hw(name, [4, 64], 0, True), "b": fbias(name, 4), "y": T(F32, [64, 4])},
             [("LOG", ["x"], ["l"], {}), ("FULLY_CONNECTED", ["l", "w", "b"], ["y"], {})],
             ["x"], ["l", "y"]))
    # exact3: the _builtin twin (REFERENCE mode, per-tensor weights): the classic interpreter's
    # XNNPACK delegate takes the float LOGISTIC (XNNPACK's sigmoid, the bits LiteRT's has) and
    # leaves the hybrid FULLY_CONNECTED to the builtin kernel (the DTLN noise suppressors' gates)
    for name, pc in (("hybrid_net_logistic_fc", True), ("hybrid_net_logistic_fc_builtin", False)):
        case = Case(name, {"x": act("f32", [64, 64], -20.0, 20.0), "s": T(F32, [64, 64]),
                           "w": hw(name, [4, 64], 0, pc), "b": fbias(name, 4), "y": T(F32, [64, 4])},
                    [("LOGISTIC", ["x"], ["s"], {}), ("FULLY_CONNECTED", ["s", "w", "b"], ["y"], {})],
                    ["x"], ["s", "y"])
        if name.endswith("_builtin"):
            case.engine = "tfweb"
            case.builtin_only = True
        add(case)
    # sweep18: float TANH before a hybrid FULLY_CONNECTED (DTLN / GRU / LSTM models): LiteRT
    # runs XNNPACK's f32-vtanh rational 9/8 without FMA (checked by ops.test_hybrid in TFLITE
    # mode, on 1-4 threads: the _mt case is over the elementwise driver's inline limit); the
    # classic interpreter's builtin TANH is Eigen's fast rational (the _builtin twin, per-tensor
    # weights, REFERENCE mode). Inputs past both clamps (+-7.85, +-7.905).
    for name, shape, pc in (("hybrid_net_tanh_fc", [64, 64], True), ("hybrid_net_tanh_fc_mt", [40, 512], True),
                            ("hybrid_net_tanh_fc_builtin", [64, 64], False)):
        case = Case(name, {"x": act("f32", shape, -9.0, 9.0), "t": T(F32, shape),
                           "w": hw(name, [4, shape[1]], 0, pc), "b": fbias(name, 4),
                           "y": T(F32, [shape[0], 4])},
                    [("TANH", ["x"], ["t"], {}), ("FULLY_CONNECTED", ["t", "w", "b"], ["y"], {})],
                    ["x"], ["t", "y"])
        if name.endswith("_builtin"):
            case.engine = "tfweb"
            case.builtin_only = True
        add(case)
    # ops: float CONV_2Ds of one input and one output channel (YOLO26's attention positional
    # encoding: a 3x3 convolution per channel after a SPLIT into 1-channel tensors) before a
    # hybrid CONV_2D: XNNPACK runs such a convolution as its depthwise kernel (taps column by
    # column), not its IGEMM (rgl_yolo26n_int8 of the sixth sweep was 1 ulp off there, 0.04 at
    # the output); the 1x1 one is its vmulcaddc (bias + x * w, the same bits)
    def float_convs_hybrid(name, x_shape, c1, c2, hybrid_out, act2):
        """x -> float CONV_2D c1 (SAME) -> float CONV_2D c2 (1x1 VALID, act2) -> hybrid 3x3
        CONV_2D; c1 / c2: [out_c, fh, fw, in_c] filters, weights uniform in a seeded range."""
        rng = Rng(seed_of(name + "/w1"))
        w1 = T(F32, c1, const=[f32(rng.uniform(-0.8, 0.8)) for _ in range(numel(c1))])
        w2 = T(F32, c2, const=[f32(rng.uniform(0.5, 1.5)) for _ in range(numel(c2))])
        hw_shape = x_shape[:3]
        add(Case(name, {"x": act("f32", x_shape, -1.0, 3.0), "w1": w1, "b1": fbias(name + "1", c1[0]),
                        "c": T(F32, hw_shape + [c1[0]]), "w2": w2, "b2": fbias(name + "2", c2[0]),
                        "e": T(F32, hw_shape + [c2[0]]), "wh": hw(name, [hybrid_out, 3, 3, c2[0]], 0, True),
                        "bh": fbias(name, hybrid_out), "y": T(F32, hw_shape + [hybrid_out])},
                 [("CONV_2D", ["x", "w1", "b1"], ["c"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
                  ("CONV_2D", ["c", "w2", "b2"], ["e"],
                   {"padding": "VALID", "stride_w": 1, "stride_h": 1, "fused_activation_function": act2}),
                  ("CONV_2D", ["e", "wh", "bh"], ["y"], {"padding": "SAME", "stride_w": 1, "stride_h": 1})],
                 ["x"], ["c", "e", "y"]))
    # ops: float CONV_2Ds of one input and one output channel (YOLO26's attention positional
    # encoding: a 3x3 convolution per channel after a SPLIT into 1-channel tensors) before a
    # hybrid CONV_2D: XNNPACK runs such a convolution as its depthwise kernel (taps column by
    # column), not its IGEMM (rgl_yolo26n_int8 of the sixth sweep was 1 ulp off there); the 1x1
    # one is its vmulcaddc (bias + x * w, the same bits)
    float_convs_hybrid("hybrid_net_conv1x1ch_conv", [1, 13, 11, 1], [1, 3, 3, 1], [1, 1, 1, 1], 6, "RELU")
    # ops: float CONV_2Ds of fewer output channels than XNNPACK's IGEMM tile (8) before a hybrid
    # CONV_2D: XNNPACK takes its "nr2" kernel (4x2c4), four partial sums per output by input
    # channel modulo 4 (ocrdemo_ocr of the sixth sweep: its first 1x1 convolution, 3 -> 6
    # channels, was 1 ulp off LiteRT on 10% of the outputs, 0.0065 at the output)
    float_convs_hybrid("hybrid_net_conv_nr2_conv", [1, 11, 9, 7], [5, 3, 3, 7], [6, 1, 1, 5], 8, "RELU6")
    # exact1: a float FULLY_CONNECTED whose weights are computed while running (YOLO26n's
    # attention Q x K^T, rgl_yolo26n_int8 of the sixth sweep) in a hybrid model: XNNPACK's
    # delegate leaves it, LiteRT runs TFLite's builtin kernel, Eigen's GEBP: batches in groups
    # of 4 sum even and odd k apart over the depth rounded down to 8, then the rest; other
    # batches in order; depths over 816 in blocks (tfcc_fc_f32_eigen)
    # ref10: the classic interpreter's older delegate takes no run-time weights either, so its
    # builtin kernel runs the same order there (REFERENCE mode: the _builtin twins, per-tensor
    # hybrid weights, which that build's hybrid FULLY_CONNECTED computes right)
    def fc_runtime_weights_hybrid(name, m, k, builtin=False):
        rng = Rng(seed_of(name + "/s"))
        sc = T(F32, [1, k], const=[f32(rng.uniform(0.5, 1.5)) for _ in range(k)])
        case = Case(name, {"x": act("f32", [m, k], -1.0, 1.0), "sc": sc, "wr": T(F32, [m, k]),
                           "y": T(F32, [m, m]), "wh": hw(name, [3, m], 0, not builtin),
                           "bh": fbias(name, 3), "z": T(F32, [m, 3])},
                    [("MUL", ["x", "sc"], ["wr"], {}),
                     ("FULLY_CONNECTED", ["x", "wr", OMIT], ["y"], {}),
                     ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {})],
                    ["x"], ["y", "z"])
        add_builtin(case) if builtin else add(case)
    fc_runtime_weights_hybrid("hybrid_net_fc_runtime_weights", 10, 45)
    fc_runtime_weights_hybrid("hybrid_net_fc_runtime_weights_deep", 6, 1000)
    fc_runtime_weights_hybrid("hybrid_net_fc_runtime_weights_builtin", 10, 45, True)
    fc_runtime_weights_hybrid("hybrid_net_fc_runtime_weights_deep_builtin", 6, 1000, True)
    # sweep10: one unit or one batch is no GEBP: TFLite's Eigen backend takes it as a
    # matrix-vector product (cpu_backend_gemm_eigen.cc), each sum over the whole depth in order;
    # YOLOv8-seg / YOLO11 attention exported by onnx2tf (Q x K^T split into [100, 32] x [1, 32]
    # FULLY_CONNECTEDs; Quy-An/DQA_AutoCar best_int8 of the tenth sweep, 0.055 from LiteRT)
    def fc_runtime_weights_gemv(name, m, n, k):
        rng = Rng(seed_of(name + "/s"))
        sc = T(F32, [1, k], const=[f32(rng.uniform(0.5, 1.5)) for _ in range(k)])
        add(Case(name, {"x": act("f32", [m, k], -1.0, 1.0), "v": act("f32", [n, k], -1.0, 1.0),
                        "sc": sc, "wr": T(F32, [n, k]), "y": T(F32, [m, n]),
                        "wh": hw(name, [3, k], 0, True), "bh": fbias(name, 3),
                        "z": T(F32, [m, 3])},
                 [("MUL", ["v", "sc"], ["wr"], {}),
                  ("FULLY_CONNECTED", ["x", "wr", OMIT], ["y"], {}),
                  ("FULLY_CONNECTED", ["x", "wh", "bh"], ["z"], {})],
                 ["x", "v"], ["y", "z"]))
    fc_runtime_weights_gemv("hybrid_net_fc_runtime_weights_gemv_unit", 100, 1, 32)
    fc_runtime_weights_gemv("hybrid_net_fc_runtime_weights_gemv_unit_deep", 9, 1, 1000)
    fc_runtime_weights_gemv("hybrid_net_fc_runtime_weights_gemv_batch", 1, 10, 45)
    fc_runtime_weights_gemv("hybrid_net_fc_runtime_weights_gemv_batch_deep", 1, 6, 1000)
    # exact1: a float SOFTMAX (beta 1) in a hybrid model: XNNPACK's f32 softmax (its own exp,
    # one 4-lane sum, the tail pair and single added after the lanes, times 1 / sum); YOLO26n's
    # attention softmax of the sixth sweep
    for name, m, k in (("hybrid_net_softmax_fc", 6, 39), ("hybrid_net_softmax_fc_wide", 3, 402)):
        add(Case(name, {"x": act("f32", [m, k], -12.0, 6.0), "y": T(F32, [m, k]),
                        "wh": hw(name, [3, k], 0, True), "bh": fbias(name, 3), "z": T(F32, [m, 3])},
                 [("SOFTMAX", ["x"], ["y"], {"beta": 1.0}),
                  ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {})],
                 ["x"], ["y", "z"]))
    # exact2: the float operators of a small hybrid transformer (keyword_spotting_combined of
    # the eighth sweep, 0.0152 from LiteRT): XNNPACK's delegate runs them, so tfcc follows its
    # arithmetic in TFLITE mode. MEAN over trailing axes: f32-rsum (16 partial sums in four
    # 4-lane accumulators, folded (0 + 2) + (1 + 3), lanes (0 + 2) + (1 + 3), then a pair and a
    # single of the tail), times 1 / n; widths cover every tail
    for name, shape, axes in (("hybrid_net_mean_last_fc", [1, 5, 256], [2]),
                              ("hybrid_net_mean_last_fc_w102", [1, 6, 102], [-1]),
                              ("hybrid_net_mean_last_fc_w37", [2, 3, 37], [2]),
                              ("hybrid_net_mean_last_fc_w23", [1, 4, 23], [2]),
                              ("hybrid_net_mean_last_fc_w7", [1, 5, 7], [2]),
                              ("hybrid_net_mean_last2_fc", [1, 3, 4, 9], [2, 3])):
        k = shape[-1]
        mshape = shape[:len(shape) - len(axes)] + [1] * len(axes)
        add(Case(name, {"x": act("f32", shape, -3.0, 5.0), "ax": i32c(axes), "m": T(F32, mshape),
                        "wh": hw(name, [3, k], 0, True), "bh": fbias(name, 3),
                        "z": T(F32, shape[:-1] + [3])},
                 [("MEAN", ["x", "ax"], ["m"], {"keep_dims": True}),
                  ("FULLY_CONNECTED", ["x", "wh", "bh"], ["z"], {"keep_num_dims": True})],
                 ["x"], ["m", "z"]))
    # exact2: float BATCH_MATMUL (run-time operands, attention): XNNPACK's f32 GEMM, each output
    # 0 + a[k] * b[k] in k order, product and sum rounded apart (no FMA)
    for name, ash, bsh, opts in (("hybrid_net_bmm_fc", [2, 5, 37], [2, 37, 6], {}),
                                 ("hybrid_net_bmm_fc_adj_y", [2, 5, 37], [2, 6, 37], {"adj_y": True}),
                                 ("hybrid_net_bmm_fc_adj_x", [2, 37, 5], [2, 37, 6], {"adj_x": True}),
                                 ("hybrid_net_bmm_fc_bcast", [2, 1, 4, 19], [1, 3, 19, 5], {}),
                                 ("hybrid_net_bmm_fc_deep", [1, 3, 300], [1, 300, 4], {})):
        m = ash[-1] if opts.get("adj_x") else ash[-2]
        k = ash[-2] if opts.get("adj_x") else ash[-1]
        n = bsh[-2] if opts.get("adj_y") else bsh[-1]
        bat = [max(p, q) for p, q in zip(ash[:-2], bsh[:-2])]
        add(Case(name, {"a": act("f32", ash, -2.0, 2.0), "b": act("f32", bsh, -2.0, 2.0),
                        "y": T(F32, bat + [m, n]), "wh": hw(name, [3, n], 0, True),
                        "bh": fbias(name, 3), "z": T(F32, bat + [m, 3])},
                 [("BATCH_MATMUL", ["a", "b"], ["y"], dict(opts)),
                  ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {"keep_num_dims": True})],
                 ["a", "b"], ["y", "z"]))
    # exact2: float FULLY_CONNECTED with constant float weights (the converter leaves weights
    # under 1024 elements float, e.g. a classifier head before the SOFTMAX): XNNPACK's f32 GEMM,
    # its nr2 kernel (4 partial sums by k % 4) where xnn_use_nr2(8, 2, units) picks it (units
    # 6, 10, 17), else bias then k in order (units 8, 15, 16)
    for units, actf in ((6, "NONE"), (10, "RELU"), (17, "NONE"), (8, "RELU6"), (15, "NONE"), (16, "NONE")):
        name = "hybrid_net_fc_f32w_u%d" % units
        rng = Rng(seed_of(name + "/wf"))
        wf = T(F32, [units, 45], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(units * 45)])
        add(Case(name, {"x": act("f32", [5, 45], -2.0, 2.0), "wf": wf, "bf": fbias(name, units),
                        "y": T(F32, [5, units]), "wh": hw(name, [3, 45], 0, True),
                        "bh": fbias(name + "h", 3), "z": T(F32, [5, 3])},
                 [("FULLY_CONNECTED", ["x", "wf", "bf"], ["y"], {"fused_activation_function": actf}),
                  ("FULLY_CONNECTED", ["x", "wh", "bh"], ["z"], {})],
                 ["x"], ["y", "z"]))
    # exact2: float DEPTHWISE_CONV_2D of one input channel and a depth multiplier > 1: XNNPACK
    # makes it a one-group convolution (1 -> M channels) run by its IGEMM (taps row by row), or
    # its nr2 kernel below 8 outputs, not its dwconv (an IMU handwriting model of the eighth
    # sweep, 9.5e-7 at its first layer)
    for m_out, pad, actf in ((8, "SAME", "RELU"), (4, "SAME", "NONE"), (12, "VALID", "RELU6")):
        name = "hybrid_net_dw_mult%d_conv" % m_out
        rng = Rng(seed_of(name + "/wf"))
        wf = T(F32, [1, 3, 3, m_out], const=[f32(rng.uniform(-1.0, 1.0)) for _ in range(9 * m_out)])
        oh, ow = (9, 6) if pad == "SAME" else (7, 4)
        add(Case(name, {"x": act("f32", [1, 9, 6, 1], -2.0, 3.0), "wf": wf,
                        "bf": fbias(name, m_out), "d": T(F32, [1, oh, ow, m_out]),
                        "wh": hw(name, [5, 1, 1, m_out], 0, True), "bh": fbias(name + "h", 5),
                        "y": T(F32, [1, oh, ow, 5])},
                 [("DEPTHWISE_CONV_2D", ["x", "wf", "bf"], ["d"],
                   {"padding": pad, "stride_w": 1, "stride_h": 1, "depth_multiplier": m_out,
                    "fused_activation_function": actf}),
                  ("CONV_2D", ["d", "wh", "bh"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
                 ["x"], ["d", "y"]))
    # hybrid4: float DEPTHWISE_CONV_2D of several input channels and a depth multiplier > 1:
    # XNNPACK makes it a grouped convolution (in_c groups of 1 -> M), run by its IGEMM (bias,
    # then the taps row by row), not its dwconv (taps column by column)
    for name, c, m_out, pad, stride, actf in (("hybrid_net_dw_c3m4_conv", 3, 4, "SAME", 1, "NONE"),
                                              ("hybrid_net_dw_c5m2_conv", 5, 2, "VALID", 2, "RELU6"),
                                              ("hybrid_net_dw_c2m8_conv", 2, 8, "SAME", 2, "RELU")):
        rng = Rng(seed_of(name + "/wf"))
        oc = c * m_out
        wf = T(F32, [1, 3, 3, oc], const=[f32(rng.uniform(-1.0, 1.0)) for _ in range(9 * oc)])
        if pad == "SAME":
            oh, ow = (9 + stride - 1) // stride, (6 + stride - 1) // stride
        else:
            oh, ow = (9 - 3) // stride + 1, (6 - 3) // stride + 1
        add(Case(name, {"x": act("f32", [1, 9, 6, c], -2.0, 3.0), "wf": wf,
                        "bf": fbias(name, oc), "d": T(F32, [1, oh, ow, oc]),
                        "wh": hw(name, [5, 1, 1, oc], 0, True), "bh": fbias(name + "h", 5),
                        "y": T(F32, [1, oh, ow, 5])},
                 [("DEPTHWISE_CONV_2D", ["x", "wf", "bf"], ["d"],
                   {"padding": pad, "stride_w": stride, "stride_h": stride,
                    "depth_multiplier": m_out, "fused_activation_function": actf}),
                  ("CONV_2D", ["d", "wh", "bh"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
                 ["x"], ["d", "y"]))
    # exact2: float GELU: XNNPACK's f32 rational 12/10 interpolant (erf form; tanh form when
    # approximate), separate multiplies and adds
    for name, approx in (("hybrid_net_gelu_fc", False), ("hybrid_net_gelu_fc_approx", True)):
        add(Case(name, {"x": act("f32", [4, 33], -6.0, 6.0), "g": T(F32, [4, 33]),
                        "wh": hw(name, [3, 33], 0, True), "bh": fbias(name, 3), "z": T(F32, [4, 3])},
                 [("GELU", ["x"], ["g"], {"approximate": approx}),
                  ("FULLY_CONNECTED", ["g", "wh", "bh"], ["z"], {})],
                 ["x"], ["g", "z"]))
    # hybrid5: the same float operators on shapes over the threaded drivers' inline limits
    # (128 K multiply-adds; GELU 16 K elements, SOFTMAX 32 K), so that tfcc splits them across
    # its thread pool (outputs only: every sum in XNNPACK's order, the same bits at any count)
    for name, ash, bsh, opts in (("hybrid_net_bmm_fc_mt", [4, 49, 32], [4, 32, 49], {}),
                                 ("hybrid_net_bmm_fc_mt_adj_y", [4, 49, 32], [4, 49, 32], {"adj_y": True}),
                                 ("hybrid_net_bmm_fc_mt_bcast", [4, 50, 32], [1, 32, 40], {})):
        n = bsh[-2] if opts.get("adj_y") else bsh[-1]
        m = ash[-2]
        bat = [max(p, q) for p, q in zip(ash[:-2], bsh[:-2])]
        add(Case(name, {"a": act("f32", ash, -2.0, 2.0), "b": act("f32", bsh, -2.0, 2.0),
                        "y": T(F32, bat + [m, n]), "wh": hw(name, [3, n], 0, True),
                        "bh": fbias(name, 3), "z": T(F32, bat + [m, 3])},
                 [("BATCH_MATMUL", ["a", "b"], ["y"], dict(opts)),
                  ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {"keep_num_dims": True})],
                 ["a", "b"], ["y", "z"]))
    for name, b, units, actf in (("hybrid_net_fc_f32w_mt", 40, 150, "RELU"),
                                 ("hybrid_net_fc_f32w_mt_nr2", 48, 33, "NONE")):
        rng = Rng(seed_of(name + "/wf"))
        wf = T(F32, [units, 96], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(units * 96)])
        add(Case(name, {"x": act("f32", [b, 96], -2.0, 2.0), "wf": wf, "bf": fbias(name, units),
                        "y": T(F32, [b, units]), "wh": hw(name, [3, 96], 0, True),
                        "bh": fbias(name + "h", 3), "z": T(F32, [b, 3])},
                 [("FULLY_CONNECTED", ["x", "wf", "bf"], ["y"], {"fused_activation_function": actf}),
                  ("FULLY_CONNECTED", ["x", "wh", "bh"], ["z"], {})],
                 ["x"], ["y", "z"]))
    add(Case("hybrid_net_gelu_fc_mt", {"x": act("f32", [33, 512], -6.0, 6.0), "g": T(F32, [33, 512]),
                                       "wh": hw("hybrid_net_gelu_fc_mt", [3, 512], 0, True),
                                       "bh": fbias("hybrid_net_gelu_fc_mt", 3), "z": T(F32, [33, 3])},
             [("GELU", ["x"], ["g"], {"approximate": False}),
              ("FULLY_CONNECTED", ["g", "wh", "bh"], ["z"], {})],
             ["x"], ["g", "z"]))
    add(Case("hybrid_net_softmax_fc_mt", {"x": act("f32", [110, 300], -12.0, 6.0), "y": T(F32, [110, 300]),
                                          "wh": hw("hybrid_net_softmax_fc_mt", [3, 300], 0, True),
                                          "bh": fbias("hybrid_net_softmax_fc_mt", 3),
                                          "z": T(F32, [110, 3])},
             [("SOFTMAX", ["x"], ["y"], {"beta": 1.0}),
              ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {})],
             ["x"], ["y", "z"]))
    # gtcrn57: LiteRT's delegate runs the float nodes of every subgraph alike, so a model's
    # hybrid node anywhere puts the float nodes of all its subgraphs in XNNPACK's order (GTCRN-
    # Micro's dynamic-range LSTM loops: float-only WHILE bodies, FULLY_CONNECTED weights under
    # 1024 elements left float, 973 rows, between hybrid layers; tfcc ran them in its own order,
    # 0.0052 at the output). _float_body: the hybrid node in the primary subgraph after the
    # loop, a float-only body (two float FULLY_CONNECTED of 40 rows, ADD, LOGISTIC, a third
    # FULLY_CONNECTED back to the state); _hybrid_body: a float FULLY_CONNECTED of 40 rows in
    # the primary subgraph before the loop, the hybrid node (asymmetric_quantize_inputs, per
    # channel) in the body. The loop's results leave through a RESHAPE (LiteRT.js does not read
    # a WHILE output that is a model output). The _builtin twins (per-tensor weights, as the
    # classic interpreter computes them) check REFERENCE mode against that interpreter, whose
    # older delegate takes these float nodes in every subgraph alike too.
    def fconst(name, shape):
        rng = Rng(seed_of(name))
        return S.pack(F32, [f32(rng.uniform(-0.6, 0.6)) for _ in range(numel(shape))])

    def while_body_case(name, hybrid_in_body, builtin):
        rows = 40

        def extend(m, index):
            ci, cond = m.add_subgraph("cond")
            a, b = cond.add_tensor("i", I32, []), cond.add_tensor("n", I32, [])
            cond.add_tensor("h", F32, [rows, 4])
            cond.add_tensor("x", F32, [rows, 8])
            more = cond.add_tensor("more", BOOL, [])
            cond.add_op("LESS", [a, b], [more])
            cond.inputs, cond.outputs = [0, 1, 2, 3], [more]
            bi, body = m.add_subgraph("body")
            i, n = body.add_tensor("i", I32, []), body.add_tensor("n", I32, [])
            h, x = body.add_tensor("h", F32, [rows, 4]), body.add_tensor("x", F32, [rows, 8])
            one = body.add_tensor("one", I32, [], data=S.pack(I32, [1]))
            w1 = body.add_tensor("w1", F32, [16, 4], data=fconst(name + "/w1", [16, 4]))
            w2 = body.add_tensor("w2", F32, [16, 8], data=fconst(name + "/w2", [16, 8]))
            b2 = body.add_tensor("b2", F32, [16], data=fconst(name + "/b2", [16]))
            if hybrid_in_body:
                wq = hw(name + "/w3", [4, 16], 0, not builtin)
                w3 = body.add_tensor("w3", I8, [4, 16], data=S.pack(I8, wq.const), quant=wq.q)
            else:
                w3 = body.add_tensor("w3", F32, [4, 16], data=fconst(name + "/w3", [4, 16]))
            i2 = body.add_tensor("i2", I32, [])
            t1, t2 = body.add_tensor("t1", F32, [rows, 16]), body.add_tensor("t2", F32, [rows, 16])
            c, g = body.add_tensor("c", F32, [rows, 16]), body.add_tensor("g", F32, [rows, 16])
            h2 = body.add_tensor("h2", F32, [rows, 4])
            body.add_op("ADD", [i, one], [i2])
            body.add_op("FULLY_CONNECTED", [h, w1, -1], [t1], {})
            body.add_op("FULLY_CONNECTED", [x, w2, b2], [t2], {})
            body.add_op("ADD", [t1, t2], [c])
            body.add_op("LOGISTIC", [c], [g])
            body.add_op("FULLY_CONNECTED", [g, w3, -1], [h2],
                        {"asymmetric_quantize_inputs": True} if hybrid_in_body else {})
            body.inputs, body.outputs = [i, n, h, x], [i2, n, h2, x]
            m.add_op("WHILE", [index[k] for k in ("i0", "n", "h0", "x")],
                     [index[k] for k in ("i_f", "n_f", "h_f", "x_f")],
                     {"cond_subgraph_index": ci, "body_subgraph_index": bi})
            m.add_op("RESHAPE", [index["h_f"], index["shp"]], [index["hr"]], {})
            if not hybrid_in_body:
                m.add_op("FULLY_CONNECTED", [index["hr"], index["wh"], index["bh"]], [index["z"]], {})

        tensors = {"x": act("f32", [rows, 8], -1.0, 1.0), "s": act("f32", [rows, 6], -1.0, 1.0),
                   "i0": i32c([0], []), "n": i32c([3], []), "shp": i32c([rows, 4]),
                   "i_f": T(I32, []), "n_f": T(I32, []), "h_f": T(F32, [rows, 4]),
                   "x_f": T(F32, [rows, 8]), "hr": T(F32, [rows, 4])}
        rng = Rng(seed_of(name + "/w0"))
        # the loop's initial state: a float FULLY_CONNECTED of s (6 -> 4, 40 rows)
        tensors.update({"w0": T(F32, [4, 6], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(24)]),
                        "b0": fbias(name + "/b0", 4), "h0": T(F32, [rows, 4])})
        ops = [("FULLY_CONNECTED", ["s", "w0", "b0"], ["h0"], {})]
        outs = ["h0", "hr"]
        if not hybrid_in_body:
            tensors.update({"wh": hw(name + "/wh", [3, 4], 0, not builtin), "bh": fbias(name + "/bh", 3),
                            "z": T(F32, [rows, 3])})
            outs.append("z")
        case = Case(name, tensors, ops, ["x", "s"], outs)
        case.extend = extend
        if builtin:
            add_builtin(case)
        else:
            add(case)

    for builtin in (False, True):
        suffix = "_builtin" if builtin else ""
        while_body_case("hybrid_net_while_float_body" + suffix, False, builtin)
        while_body_case("hybrid_net_while_hybrid_body" + suffix, True, builtin)


def hybrid_float_probe_cases():
    """exact5: each float operator that real hybrid models put between hybrid nodes, feeding a
    hybrid FULLY_CONNECTED (so that one ulp of the float operator shows as a quantization step),
    twice: per-channel weights checked in TFLITE mode against LiteRT (hybrid_probe_<op>) and
    per-tensor weights checked in REFERENCE mode against the classic interpreter (tfweb,
    hybrid_probe_<op>_builtin, outputs in tests/ops/hybrid_builtin). Outputs: every float
    operator's, then the hybrid node's."""
    def hw(name, shape, per_channel):
        rng = Rng(seed_of(name + "/w"))
        w, _ = weights(rng, "i8", shape, 0, per_channel=per_channel, wmax=0.5)
        return w

    def fconst(name, shape, lo, hi):
        rng = Rng(seed_of(name))
        return T(F32, shape, const=[f32(rng.uniform(lo, hi)) for _ in range(numel(shape))])

    def probe(tag, tensors, ops, inputs, fouts):
        """ops: the float operators; fouts: their outputs (the last feeds the hybrid node)."""
        last = tensors[fouts[-1]].shape
        k = last[-1]
        for suffix, pc in (("", True), ("_builtin", False)):
            name = "hybrid_probe_" + tag + suffix
            t = dict(tensors)
            t["wh"] = hw(name, [3, k], pc)
            t["bh"] = fconst(name + "/bh", [3], -0.5, 0.5)
            t["z"] = T(F32, [numel(last) // k, 3])
            case = Case(name, t, ops + [("FULLY_CONNECTED", [fouts[-1], "wh", "bh"], ["z"], {})],
                        inputs, fouts + ["z"])
            if suffix:
                case.engine = "tfweb"
                case.builtin_only = True
            add(case)

    def dw(tag, xs, kk, stride, mult, pad, actf):
        c = xs[3]
        oc = c * mult
        oh, ow = conv_out(xs[1], kk, stride, 1, pad), conv_out(xs[2], kk, stride, 1, pad)
        probe(tag, {"x": act("f32", xs, -2.0, 3.0), "wf": fconst("probe_" + tag + "/wf", [1, kk, kk, oc], -1.0, 1.0),
                    "bf": fconst("probe_" + tag + "/bf", [oc], -0.5, 0.5), "d": T(F32, [1, oh, ow, oc])},
              [("DEPTHWISE_CONV_2D", ["x", "wf", "bf"], ["d"],
                {"padding": pad, "stride_w": stride, "stride_h": stride, "depth_multiplier": mult,
                 "fused_activation_function": actf})], ["x"], ["d"])

    dw("dw3_s1_m1", [1, 9, 10, 16], 3, 1, 1, "SAME", "RELU6")
    dw("dw3_s2_m1", [1, 11, 9, 24], 3, 2, 1, "SAME", "NONE")
    dw("dw3_s2_m1_valid", [1, 11, 9, 8], 3, 2, 1, "VALID", "RELU")
    dw("dw5_s1_m1", [1, 9, 10, 16], 5, 1, 1, "SAME", "NONE")
    dw("dw5_s2_m1", [1, 12, 11, 20], 5, 2, 1, "SAME", "RELU6")
    dw("dw3_s1_m2", [1, 8, 9, 6], 3, 1, 2, "SAME", "NONE")
    dw("dw5_s2_m2", [1, 10, 9, 4], 5, 2, 2, "VALID", "NONE")

    # sweep24: the filter a DEQUANTIZE of uint8 weights makes (TOCO's dynamic-range MobileNetV2
    # depthwise layers in a hybrid HED edge detector). XNNPACK's delegates unpack only float16
    # (LiteRT: also int8) DEQUANTIZEs into static weights and take static filters only, so both
    # builds run this node with the builtin kernel: bias first, taps row by row
    def dw_u8deq(tag, xs, kk, stride, pad, actf):
        c = xs[3]
        oh, ow = conv_out(xs[1], kk, stride, 1, pad), conv_out(xs[2], kk, stride, 1, pad)
        wq, _ = weights(Rng(seed_of("probe_" + tag + "/wq")), "u8", [1, kk, kk, c], 3)
        probe(tag, {"x": act("f32", xs, -2.0, 3.0), "wq": wq, "wf": T(F32, [1, kk, kk, c]),
                    "bf": fconst("probe_" + tag + "/bf", [c], -0.5, 0.5), "d": T(F32, [1, oh, ow, c])},
              [("DEQUANTIZE", ["wq"], ["wf"], {}),
               ("DEPTHWISE_CONV_2D", ["x", "wf", "bf"], ["d"],
                {"padding": pad, "stride_w": stride, "stride_h": stride, "depth_multiplier": 1,
                 "fused_activation_function": actf})], ["x"], ["d"])

    dw_u8deq("dw3_u8deq", [1, 12, 11, 24], 3, 1, "SAME", "RELU6")
    dw_u8deq("dw3_s2_u8deq", [1, 13, 10, 16], 3, 2, "SAME", "NONE")
    # FULLY_CONNECTED with constant float weights: units 6 (nr2 in LiteRT) and 16
    for units in (6, 16):
        tag = "fc_f32w_u%d" % units
        probe(tag, {"x": act("f32", [5, 45], -2.0, 2.0), "wf": fconst("probe_" + tag + "/wf", [units, 45], -0.5, 0.5),
                    "bf": fconst("probe_" + tag + "/bf", [units], -0.5, 0.5), "y": T(F32, [5, units])},
              [("FULLY_CONNECTED", ["x", "wf", "bf"], ["y"], {})], ["x"], ["y"])
    # exact9: float CONV_2D. XNNPACK's subgraph defines a 1x1 one of stride 1, no padding, one
    # group and in + out channels > 2 as a FULLY_CONNECTED (xnn_define_convolution_2d), whose
    # GEMM takes the nr2 kernel where xnn_use_nr2 says (12, 10, 20, 36 outputs; not 16); any
    # other convolution keeps its IGEMM, nr2 below 8 outputs only (the stride-2 and 3x3 probes).
    # The HED edge detector's 1x1 12 -> 12 (sweep24) was 0.0956 from LiteRT in tfcc's IGEMM order
    def conv(tag, xs, oc, kk, stride, actf="NONE"):
        oh, ow = conv_out(xs[1], kk, stride, 1, "SAME"), conv_out(xs[2], kk, stride, 1, "SAME")
        t = {"x": act("f32", xs, -2.0, 3.0), "wf": fconst("probe_" + tag + "/wf", [oc, kk, kk, xs[3]], -1.0, 1.0),
             "bf": fconst("probe_" + tag + "/bf", [oc], -0.5, 0.5), "c": T(F32, [1, oh, ow, oc])}
        probe(tag, t, [("CONV_2D", ["x", "wf", "bf"], ["c"], {"padding": "SAME", "stride_w": stride, "stride_h": stride,
                                                "fused_activation_function": actf})], ["x"], ["c"])

    conv("conv1_o12_i12", [1, 16, 14, 12], 12, 1, 1, actf="RELU6")
    conv("conv1_o10_i7", [1, 9, 11, 7], 10, 1, 1)
    conv("conv1_o20_i33", [1, 7, 8, 33], 20, 1, 1)
    conv("conv1_o36_i9", [1, 6, 7, 9], 36, 1, 1, actf="RELU")
    conv("conv1_o16_i12", [1, 9, 8, 12], 16, 1, 1)
    conv("conv1_o6_i5", [1, 9, 10, 5], 6, 1, 1)
    conv("conv1_o12_i1", [1, 9, 10, 1], 12, 1, 1)
    conv("conv1_o1_i9", [1, 9, 10, 9], 1, 1, 1)
    conv("conv1_o12_i12_s2", [1, 12, 11, 12], 12, 1, 2)
    conv("conv3_o12_i5", [1, 9, 8, 5], 12, 3, 1)
    probe("bmm", {"a": act("f32", [2, 5, 37], -2.0, 2.0), "b": act("f32", [2, 37, 6], -2.0, 2.0),
                  "y": T(F32, [2, 5, 6])},
          [("BATCH_MATMUL", ["a", "b"], ["y"], {})], ["a", "b"], ["y"])
    probe("softmax", {"x": act("f32", [6, 39], -12.0, 6.0), "y": T(F32, [6, 39])},
          [("SOFTMAX", ["x"], ["y"], {"beta": 1.0})], ["x"], ["y"])
    probe("mean_hw", {"x": act("f32", [1, 7, 9, 16], -1.0, 3.0), "ax": i32c([1, 2]), "m": T(F32, [1, 1, 1, 16])},
          [("MEAN", ["x", "ax"], ["m"], {"keep_dims": True})], ["x"], ["m"])
    # sweep23: the same MEAN in a graph that also holds a RESIZE to a size computed from SHAPE.
    # The classic interpreter makes that RESIZE's output dynamic while preparing, so its XNNPACK
    # delegate (static-sized tensors only) takes no node and the MEAN runs the builtin kernel
    # (sequential sum / n); a hybrid style transfer network was 0.073 from tfweb in REFERENCE mode
    probe("mean_hw_dynres", {"x": act("f32", [1, 24, 20, 16], -1.0, 3.0), "ax": i32c([1, 2]),
                             "s": T(I32, [4]), "hw": T(I32, [2]), "two": i32c([2, 2]), "sz": T(I32, [2]),
                             "b0": i32c([1]), "e0": i32c([3]), "st": i32c([1]),
                             "u": T(F32, [1, 48, 40, 16]), "m": T(F32, [1, 1, 1, 16])},
          [("SHAPE", ["x"], ["s"], {"out_type": I32}),
           ("STRIDED_SLICE", ["s", "b0", "e0", "st"], ["hw"], {}),
           ("MUL", ["hw", "two"], ["sz"], {}),
           ("RESIZE_NEAREST_NEIGHBOR", ["x", "sz"], ["u"], {}),
           ("MEAN", ["x", "ax"], ["m"], {"keep_dims": True})], ["x"], ["u", "m"])
    probe("mean_last", {"x": act("f32", [1, 6, 102], -3.0, 5.0), "ax": i32c([2]), "m": T(F32, [1, 6, 1]),
                        "s": T(F32, [1, 6, 102])},
          [("MEAN", ["x", "ax"], ["m"], {"keep_dims": True}), ("SUB", ["x", "m"], ["s"], {})],
          ["x"], ["m", "s"])
    probe("tanh", {"x": act("f32", [16, 64], -9.0, 9.0), "t": T(F32, [16, 64])},
          [("TANH", ["x"], ["t"], {})], ["x"], ["t"])
    probe("hswish", {"x": act("f32", [1, 12, 10, 16], -5.0, 5.0), "h": T(F32, [1, 12, 10, 16])},
          [("HARD_SWISH", ["x"], ["h"], {})], ["x"], ["h"])
    probe("gelu", {"x": act("f32", [4, 33], -6.0, 6.0), "g": T(F32, [4, 33])},
          [("GELU", ["x"], ["g"], {"approximate": False})], ["x"], ["g"])
    probe("add_bcast", {"x": act("f32", [1, 6, 7, 16], -2.0, 3.0), "c": fconst("probe_add/c", [16], -1.0, 1.0),
                        "r": act("f32", [1, 6, 1, 16], -1.0, 1.0), "a": T(F32, [1, 6, 7, 16]),
                        "y": T(F32, [1, 6, 7, 16])},
          [("ADD", ["x", "c"], ["a"], {}), ("ADD", ["a", "r"], ["y"], {"fused_activation_function": "RELU6"})],
          ["x", "r"], ["a", "y"])
    probe("mul_bcast", {"x": act("f32", [1, 6, 7, 16], -2.0, 3.0), "c": fconst("probe_mul/c", [16], -1.5, 1.5),
                        "r": act("f32", [1, 1, 1, 16], 0.0, 1.0), "a": T(F32, [1, 6, 7, 16]),
                        "y": T(F32, [1, 6, 7, 16])},
          [("MUL", ["x", "c"], ["a"], {}), ("MUL", ["a", "r"], ["y"], {})], ["x", "r"], ["a", "y"])
    probe("resize_bilinear", {"x": act("f32", [1, 5, 6, 8], -2.0, 3.0), "sz": i32c([9, 11]),
                              "rh": T(F32, [1, 9, 11, 8]), "ra": T(F32, [1, 9, 11, 8]), "rl": T(F32, [1, 9, 11, 8]),
                              "s": T(F32, [1, 9, 11, 8]), "y": T(F32, [1, 9, 11, 8])},
          [("RESIZE_BILINEAR", ["x", "sz"], ["rh"], {"half_pixel_centers": True}),
           ("RESIZE_BILINEAR", ["x", "sz"], ["ra"], {"align_corners": True}),
           ("RESIZE_BILINEAR", ["x", "sz"], ["rl"], {}),
           ("ADD", ["rh", "ra"], ["s"], {}), ("ADD", ["s", "rl"], ["y"], {})],
          ["x"], ["rh", "ra", "rl", "y"])
    for tag, xs, oc, kk, st, pad in (("tconv_k3_s2", [1, 4, 5, 12], 10, 3, 2, "SAME"),
                                     ("tconv_k2_s2_c5", [1, 4, 4, 8], 5, 2, 2, "VALID")):
        if pad == "SAME":
            os_ = [1, xs[1] * st, xs[2] * st, oc]
        else:
            os_ = [1, (xs[1] - 1) * st + kk, (xs[2] - 1) * st + kk, oc]
        probe(tag, {"os": i32c(os_), "w": fconst("probe_" + tag + "/w", [oc, kk, kk, xs[3]], -0.5, 0.5),
                    "x": act("f32", xs, -1.0, 1.0), "b": fconst("probe_" + tag + "/b", [oc], -0.5, 0.5),
                    "y": T(F32, os_)},
              [("TRANSPOSE_CONV", ["os", "w", "x", "b"], ["y"], {"padding": pad, "stride_w": st, "stride_h": st})],
              ["x"], ["y"])
    probe("concat", {"x": act("f32", [1, 5, 6, 8], -2.0, 3.0), "r": act("f32", [1, 5, 6, 4], -2.0, 3.0),
                     "y": T(F32, [1, 5, 6, 12])},
          [("CONCATENATION", ["x", "r"], ["y"], {"axis": 3})], ["x", "r"], ["y"])
    # AVERAGE_POOL_2D over 9 taps: XNNPACK's multipass order (a first pass of 9 taps, then 8 a pass)
    for tag, xs, kk, st, pad in (("avgpool5_same", [1, 9, 11, 8], 5, 1, "SAME"),
                                 ("avgpool5_s2_valid", [1, 11, 12, 8], 5, 2, "VALID"),
                                 ("avgpool7_same", [1, 10, 9, 8], 7, 1, "SAME"),
                                 ("avgpool7_valid", [1, 10, 12, 8], 7, 1, "VALID"),
                                 # the window is the whole input, unpadded: the classic
                                 # interpreter's older XNNPACK runs it as global average pooling
                                 ("avgpool_global7", [1, 7, 7, 16], 7, 1, "VALID"),
                                 ("avgpool_global3_same", [1, 3, 3, 8], 3, 3, "SAME")):
        oh, ow = conv_out(xs[1], kk, st, 1, pad), conv_out(xs[2], kk, st, 1, pad)
        probe(tag, {"x": act("f32", xs, -2.0, 3.0), "p": T(F32, [1, oh, ow, xs[3]])},
              [("AVERAGE_POOL_2D", ["x"], ["p"], {"padding": pad, "stride_w": st, "stride_h": st,
                                                   "filter_width": kk, "filter_height": kk})], ["x"], ["p"])
    # exact7: the float transcendental unaries, binaries and reductions of a hybrid model's float
    # part (the older delegate takes DIV, SQRT, LEAKY_RELU, PRELU; LOG, EXP, RSQRT, POW, SUM,
    # L2_NORMALIZATION and GELU stay with its builtin kernels)
    for tag, op, lo, hi, opts in (("log", "LOG", 0.001, 30.0, {}), ("exp", "EXP", -12.0, 7.0, {}),
                                  ("sqrt", "SQRT", 0.0, 30.0, {}), ("rsqrt", "RSQRT", 0.001, 30.0, {}),
                                  ("leaky_relu", "LEAKY_RELU", -4.0, 4.0, {"alpha": 0.2}),
                                  ("gelu_approx", "GELU", -6.0, 6.0, {"approximate": True})):
        probe(tag, {"x": act("f32", [8, 64], lo, hi), "y": T(F32, [8, 64])}, [(op, ["x"], ["y"], opts)], ["x"], ["y"])
    probe("pow", {"a": act("f32", [6, 40], 0.05, 4.0), "b": act("f32", [6, 40], -3.0, 3.0), "y": T(F32, [6, 40])},
          [("POW", ["a", "b"], ["y"], {})], ["a", "b"], ["y"])
    probe("div", {"a": act("f32", [6, 40], -4.0, 4.0), "b": act("f32", [1, 40], 0.3, 3.0), "y": T(F32, [6, 40])},
          [("DIV", ["a", "b"], ["y"], {})], ["a", "b"], ["y"])
    probe("prelu", {"x": act("f32", [1, 6, 7, 16], -3.0, 3.0), "al": fconst("probe_prelu/al", [16], -0.5, 0.5),
                    "y": T(F32, [1, 6, 7, 16])},
          [("PRELU", ["x", "al"], ["y"], {})], ["x"], ["y"])
    probe("l2norm", {"x": act("f32", [6, 77], -3.0, 3.0), "y": T(F32, [6, 77])},
          [("L2_NORMALIZATION", ["x"], ["y"], {})], ["x"], ["y"])
    probe("sum_last", {"x": act("f32", [1, 6, 102], -3.0, 5.0), "ax": i32c([2]), "m": T(F32, [1, 6, 1]),
                       "s": T(F32, [1, 6, 102])},
          [("SUM", ["x", "ax"], ["m"], {"keep_dims": True}), ("SUB", ["x", "m"], ["s"], {})], ["x"], ["m", "s"])
    for op in ("SUM", "MEAN"):
        tag = op.lower()
        probe(tag + "_mid", {"x": act("f32", [2, 37, 24], -3.0, 5.0), "ax": i32c([1]), "m": T(F32, [2, 24])},
              [(op, ["x", "ax"], ["m"], {"keep_dims": False})], ["x"], ["m"])
    probe("sum_hw", {"x": act("f32", [1, 7, 9, 16], -1.0, 3.0), "ax": i32c([1, 2]), "m": T(F32, [1, 1, 1, 16])},
          [("SUM", ["x", "ax"], ["m"], {"keep_dims": True})], ["x"], ["m"])
    # BATCH_MATMUL over Eigen's kc panels (K > 816 on the classic interpreter's builtin kernel)
    for kk in (817, 1024, 2000):
        probe("bmm_k%d" % kk, {"a": act("f32", [2, 6, kk], -2.0, 2.0), "b": act("f32", [2, kk, 7], -2.0, 2.0),
                               "y": T(F32, [2, 6, 7])},
              [("BATCH_MATMUL", ["a", "b"], ["y"], {})], ["a", "b"], ["y"])

def float_overflow_probe_cases():
    """exact8: float LOG (lead49: and EXP) over the whole float range, the DPCRN softplus LOG(ADD(EXP(x), 1)) where
    EXP overflows, and ADD / SUB / MUL / DIV on overflow, each twice: TFLITE mode against LiteRT
    (float_<tag>, whose delegate runs XNNPACK's f32-vlog and keeps inf) and REFERENCE mode
    against the classic interpreter (float_<tag>_builtin, tfweb: logf, a delegated ADD; outputs in
    tests/ops/hybrid_builtin). float_arith_overflow_dynres_builtin has a RESIZE to a computed
    size, which leaves the classic interpreter's whole graph to its builtin kernels: those clamp
    a float output with activation NONE to [-FLT_MAX, FLT_MAX]. Checked in ops.test_hybrid."""
    import struct

    def fbits(u):
        return struct.unpack("<f", struct.pack("<I", u & 0xffffffff))[0]

    rng = Rng(seed_of("float_log_range"))
    bits = []
    for e in range(256):  # every exponent (denormals, inf and NaN included), its seams and some mantissas
        for m in (0, 1, 0x400000, 0x7fffff, 0x3504f2, 0x3504f3, 0x3504f4) + tuple(rng.randint(0, (1 << 23) - 1) for _ in range(6)):
            bits.append((e << 23) | m)
    bits += [0x3f800000 + k for k in range(-160, 161)]  # around 1
    for k in range(-149, 128):  # x * sqrt2 crossing 2^k: x around 2^k / sqrt(2)
        b = struct.unpack("<I", struct.pack("<f", 2.0 ** k / 2.0 ** 0.5))[0]
        bits += [b + d for d in range(-3, 4) if 0 < b + d < 0x7f800000]
    bits += [0x80000000, 0xff800000, 0x80000001, 0x807fffff, 0xbf800000, 0xc2c80000, 0xff7fffff, 0xffc00000]
    bits += [rng.randint(0, 0x7f7fffff) | 0x80000000 for _ in range(16)]
    vals = [fbits(b) for b in bits]
    inf, nan, fmax = float("inf"), float("nan"), fbits(0x7f7fffff)
    sp = [0.0, 1.0, 20.0, 80.0, 88.0, 88.7, 88.72, 88.8, 89.0, 90.0, 100.0, 1000.0, 3500.0, inf, -inf, nan, -100.0, -0.0]
    a = [inf, -inf, fmax, -fmax, 3e38, nan, inf, 1.0, 2e38, -2e38, fmax, 1e20, 1e30, 0.0, 1.0, -1.0]
    b = [1.0, -1.0, fmax, -fmax, 3e38, 1.0, -inf, 2.0, 2e38, -2e38, -fmax, 1e20, 1e-10, 0.0, 0.0, 0.0]

    def arith(tensors, n):
        ops, outs = [], []
        for op, act in (("ADD", 0), ("SUB", 0), ("MUL", 0), ("DIV", 0), ("ADD", 1)):
            key = "%s%d" % (op.lower(), act)
            tensors[key] = T(F32, [n])
            ops.append((op, ["a", "b"], [key], {"fused_activation_function": act}))
            outs.append(key)
        return ops, outs

    for suffix in ("", "_builtin"):
        made = []
        n = len(vals)
        made.append(single("float_log_range" + suffix, "LOG", [T(F32, [n], values=vals)], [T(F32, [n])]))
        # lead49: EXP over the same range (TFLITE mode: XNNPACK's exp in every model, which
        # overflows to inf from 88.7, returns -NaN for a NaN and flushes denormal results to 0;
        # REFERENCE mode: std::exp)
        made.append(single("float_exp_range" + suffix, "EXP", [T(F32, [n], values=vals)], [T(F32, [n])]))
        xs = sp
        t = {"x": T(F32, [len(xs)], values=xs), "e": T(F32, [len(xs)]), "one": T(F32, [1], const=[1.0]),
             "s": T(F32, [len(xs)]), "l": T(F32, [len(xs)])}
        made.append(Case("float_softplus_overflow" + suffix, t,
                         [("EXP", ["x"], ["e"], {}), ("ADD", ["e", "one"], ["s"], {"fused_activation_function": 0}),
                          ("LOG", ["s"], ["l"], {})], ["x"], ["e", "s", "l"]))
        t = {"a": T(F32, [16], values=a), "b": T(F32, [16], const=b)}
        ops, outs = arith(t, 16)
        made.append(Case("float_arith_overflow" + suffix, t, ops, ["a"], outs))
        for c in made:
            if suffix:
                c.engine = "tfweb"
                c.builtin_only = True
            add(c)
    # a computed-size RESIZE (size a model input): the classic interpreter delegates nothing
    t = {"a": T(F32, [16], values=a), "b": T(F32, [16], const=b), "img": T(F32, [1, 2, 2, 1], const=[1, 2, 3, 4]),
         "size": T(I32, [2], values=[3, 3]), "r": T(F32, [1, 3, 3, 1])}
    ops, outs = arith(t, 16)
    c = Case("float_arith_overflow_dynres_builtin", t,
             [("RESIZE_NEAREST_NEIGHBOR", ["img", "size"], ["r"], {})] + ops, ["a", "size"], outs + ["r"])
    c.engine = "tfweb"
    c.builtin_only = True
    add(c)


def classic_dynamic_reshape_cases():
    """lead49: a RESHAPE whose shape is a computed tensor (PACK of constants; SHAPE ->
    STRIDED_SLICE -> PACK) makes the classic interpreter's reshape.cc output dynamic, and its
    XNNPACK delegate then takes no node of the subgraph: float LOGISTIC runs the builtin
    (Eigen's) logistic, the one on x too, which is on no path from the RESHAPE (the Nested U-Net
    speech enhancers of the twenty-third batch). REFERENCE mode against tfweb
    (tests/ops/hybrid_builtin, ops.test_hybrid); a constant shape stays delegated."""
    def c(v, shape=None):
        return T(I32, shape if shape is not None else [len(v)], const=v)
    x = lambda: T(F32, [1, 4, 64], lo=-8.0, hi=8.0)
    made = [
        Case("reshape_dyn_pack_logistic_builtin",
             {"x": x(), "a": c([1], []), "m1": c([256], []), "sh": T(I32, [2]), "y": T(F32, [1, 256]),
              "z": T(F32, [1, 256]), "z2": T(F32, [1, 4, 64])},
             [("LOGISTIC", ["x"], ["z2"], {}), ("PACK", ["a", "m1"], ["sh"], {"values_count": 2, "axis": 0}),
              ("RESHAPE", ["x", "sh"], ["y"], {}), ("LOGISTIC", ["y"], ["z"], {})], ["x"], ["z", "z2"]),
        Case("reshape_dyn_shape_slice_logistic_builtin",
             {"x": x(), "s": T(I32, [3]), "b": c([0]), "e": c([1]), "st": c([1]), "n": T(I32, []),
              "m1": c([256], []), "sh": T(I32, [2]), "y": T(F32, [1, 256]), "z": T(F32, [1, 256])},
             [("SHAPE", ["x"], ["s"], {"out_type": I32}),
              ("STRIDED_SLICE", ["s", "b", "e", "st"], ["n"], {"shrink_axis_mask": 1}),
              ("PACK", ["n", "m1"], ["sh"], {"values_count": 2, "axis": 0}), ("RESHAPE", ["x", "sh"], ["y"], {}),
              ("LOGISTIC", ["y"], ["z"], {})], ["x"], ["z"]),
        Case("reshape_const_logistic_builtin",
             {"x": x(), "sh": c([1, 256]), "y": T(F32, [1, 256]), "z": T(F32, [1, 256])},
             [("RESHAPE", ["x", "sh"], ["y"], {}), ("LOGISTIC", ["y"], ["z"], {})], ["x"], ["z"]),
    ]
    for case in made:
        case.engine = "tfweb"
        case.builtin_only = True
        add(case)



def classic_dynamic_tensor_cases():
    """ref10: the classic interpreter's dynamic-tensor rule beyond RESHAPE (src/ops/
    classic_dynamic.c, docs/quantization.md): an operator whose shape-deciding input is not a
    constant of the file (SHAPE of a static tensor, a PACK of constants, a model input) gets a
    dynamic output in that interpreter, and its XNNPACK delegate then takes no node of the
    subgraph: a float LOGISTIC on x, on no path from the operator, runs Eigen's logistic, and a
    hybrid subgraph's float CONV_2D im2col + Eigen's GEMM. A SLICE by a computed begin keeps its
    output static there (the delegate's sigmoid). REFERENCE mode against tfweb."""
    def c(v, shape=None):
        return T(I32, shape if shape is not None else [len(v)], const=v)

    def x():
        return T(F32, [1, 4, 64], lo=-8.0, hi=8.0)

    def lg(name, tensors, ops, inputs, outs):
        t = {"x": x(), "z2": T(F32, [1, 4, 64])}
        t.update(tensors)
        return Case(name, t, [("LOGISTIC", ["x"], ["z2"], {})] + ops, ["x"] + inputs, ["z2"] + outs)

    def pack(key, scalars):
        return ("PACK", scalars, [key], {"values_count": len(scalars), "axis": 0})

    sh = ("SHAPE", ["x"], ["s"], {"out_type": I32})
    made = [
        # STRIDED_SLICE ending at SHAPE(x): a run-time-shape model's slice to the full length
        lg("dyn_strided_slice_shape_end_logistic_builtin",
           {"s": T(I32, [3]), "b": c([0, 1, 0]), "st": c([1, 1, 1]), "y": T(F32, [1, 3, 64]),
            "z": T(F32, [1, 3, 64])},
           [sh, ("STRIDED_SLICE", ["x", "b", "s", "st"], ["y"], {}), ("LOGISTIC", ["y"], ["z"], {})], [], ["z"]),
        # PAD by paddings packed from constants (tfcc folds the PACK at load; TFLite does not)
        lg("dyn_pad_pack_logistic_builtin",
           {"p0": c([0, 0]), "p1": c([1, 2]), "p2": c([0, 0]), "p": T(I32, [3, 2]), "y": T(F32, [1, 7, 64]),
            "z": T(F32, [1, 7, 64])},
           [pack("p", ["p0", "p1", "p2"]), ("PAD", ["x", "p"], ["y"], {}), ("LOGISTIC", ["y"], ["z"], {})],
           [], ["z"]),
        # TRANSPOSE by a packed perm
        lg("dyn_transpose_pack_logistic_builtin",
           {"q0": c([0], []), "q1": c([2], []), "q2": c([1], []), "q": T(I32, [3]), "y": T(F32, [1, 64, 4])},
           [pack("q", ["q0", "q1", "q2"]), ("TRANSPOSE", ["x", "q"], ["y"], {})], [], ["y"]),
        # MEAN over an axis computed from SHAPE (the batch dimension plus one)
        lg("dyn_mean_shape_axis_logistic_builtin",
           {"s": T(I32, [3]), "b": c([0]), "e": c([1]), "st": c([1]), "a0": T(I32, [1]), "one": c([1]),
            "a": T(I32, [1]), "y": T(F32, [1, 4])},
           [sh, ("STRIDED_SLICE", ["s", "b", "e", "st"], ["a0"], {}), ("ADD", ["a0", "one"], ["a"], {}),
            ("MEAN", ["x", "a"], ["y"], {"keep_dims": False})], [], ["y"]),
        # BROADCAST_TO the SHAPE of another tensor
        lg("dyn_broadcast_to_shape_logistic_builtin",
           {"r": T(F32, [1, 1, 64], lo=-8.0, hi=8.0), "s": T(I32, [3]), "y": T(F32, [1, 4, 64]),
            "z": T(F32, [1, 4, 64])},
           [sh, ("BROADCAST_TO", ["r", "s"], ["y"], {}), ("LOGISTIC", ["y"], ["z"], {})], ["r"], ["z"]),
        # EXPAND_DIMS and SPLIT by an axis that is a model input, TILE by model-input multiples
        lg("dyn_expand_dims_input_axis_logistic_builtin",
           {"a": T(I32, [], values=[0]), "y": T(F32, [1, 1, 4, 64])},
           [("EXPAND_DIMS", ["x", "a"], ["y"], {})], ["a"], ["y"]),
        lg("dyn_split_input_axis_logistic_builtin",
           {"a": T(I32, [], values=[2]), "y": T(F32, [1, 4, 32]), "y2": T(F32, [1, 4, 32])},
           [("SPLIT", ["a", "x"], ["y", "y2"], {"num_splits": 2})], ["a"], ["y", "y2"]),
        lg("dyn_tile_input_logistic_builtin",
           {"m": T(I32, [3], values=[1, 2, 1]), "y": T(F32, [1, 8, 64])},
           [("TILE", ["x", "m"], ["y"], {})], ["m"], ["y"]),
        # control: SLICE by a computed begin (SHAPE(x) * 0) stays static, the graph delegated
        lg("slice_dyn_begin_logistic_builtin",
           {"s": T(I32, [3]), "zz": c([0, 0, 0]), "b": T(I32, [3]), "n": c([1, 2, 32]), "y": T(F32, [1, 2, 32])},
           [sh, ("MUL", ["s", "zz"], ["b"], {}), ("SLICE", ["x", "b", "n"], ["y"], {})], [], ["y"]),
    ]
    # a hybrid subgraph: TRANSPOSE by a packed perm, then a float 3x3 CONV_2D (im2col + Eigen's
    # GEMM where nothing is delegated, the delegate's IGEMM order otherwise) and a hybrid
    # FULLY_CONNECTED
    name = "hybrid_net_dyn_transpose_conv_builtin"
    rng = Rng(seed_of(name + "/wf"))
    wf = T(F32, [6, 3, 3, 5], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(6 * 45)])
    bf = T(F32, [6], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(6)])
    wq, _ = weights(Rng(seed_of(name + "/w")), "i8", [8, 6], 0, per_channel=False, wmax=0.5)
    bq = T(F32, [8], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(8)])
    made.append(Case(name, {"x": act("f32", [1, 6, 7, 5], -1.0, 1.0), "q0": c([0], []), "q1": c([2], []),
                            "q2": c([1], []), "q3": c([3], []), "q": T(I32, [4]), "t": T(F32, [1, 7, 6, 5]),
                            "wf": wf, "bf": bf, "g": T(F32, [1, 7, 6, 6]), "wq": wq, "bq": bq,
                            "y": T(F32, [42, 8])},
                     [pack("q", ["q0", "q1", "q2", "q3"]), ("TRANSPOSE", ["x", "q"], ["t"], {}),
                      ("CONV_2D", ["t", "wf", "bf"], ["g"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
                      ("FULLY_CONNECTED", ["g", "wq", "bq"], ["y"], {})], ["x"], ["g", "y"]))
    # ref10 (nutls_lstm's last ulps): float FULLY_CONNECTEDs of an undelegated hybrid subgraph
    # (a RESHAPE by a packed shape) run the builtin kernel: Eigen's GEBP order for 4 batches,
    # its GEMV (one sum in order) for one, and the activation range [-FLT_MAX, FLT_MAX] for
    # NONE (3e38 + 3e38 is FLT_MAX, NaN passes); a hybrid FULLY_CONNECTED beside them
    name = "hybrid_net_dyn_fc_f32_builtin"
    rng = Rng(seed_of(name + "/wf"))
    wa = T(F32, [24, 64], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(24 * 64)])
    wb = T(F32, [16, 40], const=[f32(rng.uniform(-0.6, 0.6)) for _ in range(16 * 40)])
    bb = T(F32, [16], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(16)])
    wc = T(F32, [3, 4], const=[1, 1, 0, 0, -1, -1, 0, 0, 0.5, 0.5, 1, 1])
    wq, _ = weights(Rng(seed_of(name + "/w")), "i8", [8, 64], 0, per_channel=False, wmax=0.5)
    nan = float("nan")
    made.append(Case(name, {"x": x(), "m1": c([4], []), "m2": c([64], []), "sh": T(I32, [2]),
                            "r": T(F32, [4, 64]), "wa": wa, "y1": T(F32, [4, 24]),
                            "x1": act("f32", [1, 40], -1.0, 1.0), "wb": wb, "bb": bb, "y2": T(F32, [1, 16]),
                            "xc": T(F32, [2, 4], values=[3e38, 3e38, 1.0, 2.0, nan, 1.0, 1.0, 1.0]), "wc": wc,
                            "y3": T(F32, [2, 3]), "wq": wq, "y4": T(F32, [4, 8])},
                     [pack("sh", ["m1", "m2"]), ("RESHAPE", ["x", "sh"], ["r"], {}),
                      ("FULLY_CONNECTED", ["r", "wa", OMIT], ["y1"], {}),
                      ("FULLY_CONNECTED", ["x1", "wb", "bb"], ["y2"], {}),
                      ("FULLY_CONNECTED", ["xc", "wc", OMIT], ["y3"], {}),
                      ("FULLY_CONNECTED", ["r", "wq", OMIT], ["y4"], {})],
                     ["x", "x1", "xc"], ["y1", "y2", "y3", "y4"]))
    # the same clamp in a float model the classic interpreter delegates nothing of (a RESIZE to
    # a size that is a model input), activations NONE and RELU
    made.append(Case("float_fc_overflow_dynres_builtin",
                     {"xc": T(F32, [2, 4], values=[3e38, 3e38, 1.0, 2.0, nan, 1.0, 1.0, 1.0]), "wc": wc,
                      "y3": T(F32, [2, 3]), "y5": T(F32, [2, 3]),
                      "img": T(F32, [1, 2, 2, 1], const=[1, 2, 3, 4]), "size": T(I32, [2], values=[3, 3]),
                      "r": T(F32, [1, 3, 3, 1])},
                     [("RESIZE_NEAREST_NEIGHBOR", ["img", "size"], ["r"], {}),
                      ("FULLY_CONNECTED", ["xc", "wc", OMIT], ["y3"], {}),
                      ("FULLY_CONNECTED", ["xc", "wc", OMIT], ["y5"], {"fused_activation_function": 1})],
                     ["xc", "size"], ["y3", "y5", "r"]))
    for case in made:
        case.engine = "tfweb"
        case.builtin_only = True
        add(case)

def classic_float_undelegated_cases():
    """ref11: float operators of a float model (no hybrid node) whose subgraph the classic
    interpreter delegates nothing of (a RESIZE_NEAREST_NEIGHBOR to a size that is a model input
    makes a tensor dynamic: docs/quantization.md "The dynamic-tensor rule"), so every node runs
    its builtin kernel there. REFERENCE mode against tfweb (float_dyn_<op>_builtin, outputs in
    tests/ops/hybrid_builtin, rows of ops.test_hybrid with tolerance 0). Outputs: the operators'
    then the RESIZE's."""
    def fconst(name, shape, lo, hi):
        rng = Rng(seed_of(name))
        return T(F32, shape, const=[f32(rng.uniform(lo, hi)) for _ in range(numel(shape))])

    def dyn(tag, tensors, ops, inputs, outs):
        name = "float_dyn_" + tag + "_builtin"
        t = {"img": T(F32, [1, 2, 2, 1], const=[1, 2, 3, 4]), "size": T(I32, [2], values=[3, 3]),
             "r": T(F32, [1, 3, 3, 1])}
        t.update(tensors)
        case = Case(name, t, [("RESIZE_NEAREST_NEIGHBOR", ["img", "size"], ["r"], {})] + ops,
                    inputs + ["size"], outs + ["r"])
        case.engine = "tfweb"
        case.builtin_only = True
        add(case)

    n = "float_dyn"
    # CONV_2D: 3x3 SAME (im2col), 1x1 stride 1 (the GEMM on the input), 5 output channels
    dyn("conv", {"x": act("f32", [1, 9, 11, 8], -2.0, 3.0), "w1": fconst(n + "/w1", [16, 3, 3, 8], -0.6, 0.6),
                 "b1": fconst(n + "/b1", [16], -0.5, 0.5), "y1": T(F32, [1, 9, 11, 16]),
                 "w2": fconst(n + "/w2", [10, 1, 1, 8], -0.6, 0.6), "b2": fconst(n + "/b2", [10], -0.5, 0.5),
                 "y2": T(F32, [1, 9, 11, 10]),
                 "w3": fconst(n + "/w3", [5, 3, 3, 8], -0.6, 0.6), "b3": fconst(n + "/b3", [5], -0.5, 0.5),
                 "y3": T(F32, [1, 5, 6, 5])},
        [("CONV_2D", ["x", "w1", "b1"], ["y1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
         ("CONV_2D", ["x", "w2", "b2"], ["y2"], {"padding": "VALID", "stride_w": 1, "stride_h": 1}),
         ("CONV_2D", ["x", "w3", "b3"], ["y3"], {"padding": "SAME", "stride_w": 2, "stride_h": 2,
                                                 "fused_activation_function": "RELU6"})],
        ["x"], ["y1", "y2", "y3"])
    # DEPTHWISE_CONV_2D: multiplier 1 3x3 SAME, multiplier 2 3x3 stride 2 VALID
    dyn("dwconv", {"x": act("f32", [1, 9, 11, 8], -2.0, 3.0), "w1": fconst(n + "/dw1", [1, 3, 3, 8], -1.0, 1.0),
                   "b1": fconst(n + "/db1", [8], -0.5, 0.5), "y1": T(F32, [1, 9, 11, 8]),
                   "w2": fconst(n + "/dw2", [1, 3, 3, 16], -1.0, 1.0), "b2": fconst(n + "/db2", [16], -0.5, 0.5),
                   "y2": T(F32, [1, 4, 5, 16])},
        [("DEPTHWISE_CONV_2D", ["x", "w1", "b1"], ["y1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                          "depth_multiplier": 1}),
         ("DEPTHWISE_CONV_2D", ["x", "w2", "b2"], ["y2"], {"padding": "VALID", "stride_w": 2, "stride_h": 2,
                                                          "depth_multiplier": 2})],
        ["x"], ["y1", "y2"])
    # FULLY_CONNECTED: 4 batches (Eigen's GEBP), 1 batch (its GEMV)
    dyn("fc", {"x": act("f32", [4, 40], -2.0, 2.0), "w1": fconst(n + "/fw1", [24, 40], -0.6, 0.6),
               "b1": fconst(n + "/fb1", [24], -0.5, 0.5), "y1": T(F32, [4, 24]),
               "x1": act("f32", [1, 40], -2.0, 2.0), "y2": T(F32, [1, 24])},
        [("FULLY_CONNECTED", ["x", "w1", "b1"], ["y1"], {}),
         ("FULLY_CONNECTED", ["x1", "w1", "b1"], ["y2"], {})],
        ["x", "x1"], ["y1", "y2"])
    dyn("tanh", {"x": act("f32", [4, 128], -8.0, 8.0), "y": T(F32, [4, 128])},
        [("TANH", ["x"], ["y"], {})], ["x"], ["y"])
    dyn("mean", {"x": act("f32", [1, 7, 9, 16], -2.0, 3.0), "a1": i32c([1, 2]), "y1": T(F32, [1, 1, 1, 16]),
                 "x2": act("f32", [4, 102], -2.0, 3.0), "a2": i32c([1]), "y2": T(F32, [4, 1])},
        [("MEAN", ["x", "a1"], ["y1"], {"keep_dims": True}), ("MEAN", ["x2", "a2"], ["y2"], {"keep_dims": True})],
        ["x", "x2"], ["y1", "y2"])
    dyn("avgpool", {"x": act("f32", [1, 9, 11, 8], -2.0, 3.0), "y1": T(F32, [1, 9, 11, 8]),
                    "y2": T(F32, [1, 2, 2, 8])},
        [("AVERAGE_POOL_2D", ["x"], ["y1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                             "filter_width": 3, "filter_height": 3}),
         ("AVERAGE_POOL_2D", ["x"], ["y2"], {"padding": "VALID", "stride_w": 4, "stride_h": 4,
                                             "filter_width": 5, "filter_height": 5})],
        ["x"], ["y1", "y2"])
    dyn("hswish", {"x": act("f32", [1, 12, 10, 16], -5.0, 5.0), "y": T(F32, [1, 12, 10, 16])},
        [("HARD_SWISH", ["x"], ["y"], {})], ["x"], ["y"])
    dyn("bmm", {"a": act("f32", [2, 6, 37], -2.0, 2.0), "b": act("f32", [2, 37, 7], -2.0, 2.0),
                "y": T(F32, [2, 6, 7])},
        [("BATCH_MATMUL", ["a", "b"], ["y"], {})], ["a", "b"], ["y"])
    dyn("gelu", {"x": act("f32", [512], -6.0, 6.0), "y": T(F32, [512]), "y2": T(F32, [512])},
        [("GELU", ["x"], ["y"], {}), ("GELU", ["x"], ["y2"], {"approximate": True})], ["x"], ["y", "y2"])
    dyn("resize_bilinear", {"x": act("f32", [1, 5, 6, 4], -2.0, 3.0), "s": i32c([9, 11]),
                            "y1": T(F32, [1, 9, 11, 4]), "y2": T(F32, [1, 9, 11, 4])},
        [("RESIZE_BILINEAR", ["x", "s"], ["y1"], {"half_pixel_centers": True}),
         ("RESIZE_BILINEAR", ["x", "s"], ["y2"], {"align_corners": True})],
        ["x"], ["y1", "y2"])
    dyn("softmax", {"x": act("f32", [6, 39], -6.0, 6.0), "y": T(F32, [6, 39])},
        [("SOFTMAX", ["x"], ["y"], {"beta": 1.0})], ["x"], ["y"])
    dyn("exp_log", {"x": act("f32", [256], -10.0, 10.0), "y": T(F32, [256]), "x2": act("f32", [256], 0.001, 30.0),
                    "y2": T(F32, [256])},
        [("EXP", ["x"], ["y"], {}), ("LOG", ["x2"], ["y2"], {})], ["x", "x2"], ["y", "y2"])
    dyn("sum_l2", {"x": act("f32", [4, 77], -2.0, 3.0), "a": i32c([1]), "y": T(F32, [4]),
                   "y2": T(F32, [4, 77])},
        [("SUM", ["x", "a"], ["y"], {"keep_dims": False}), ("L2_NORMALIZATION", ["x"], ["y2"], {})],
        ["x"], ["y", "y2"])

    # graph passes that change float bits (fuse_expand_dwconv: a 1x1 CONV_2D into its
    # DEPTHWISE_CONV_2D; fold_batch_norm: MUL / ADD by per-channel constants into the conv's
    # weights) must leave such a subgraph's float nodes alone: the builtin kernels run each node
    dyn("passes", {"x": act("f32", [1, 9, 11, 8], -2.0, 3.0), "we": fconst(n + "/we", [16, 1, 1, 8], -0.6, 0.6),
                   "be": fconst(n + "/be", [16], -0.5, 0.5), "e": T(F32, [1, 9, 11, 16]),
                   "wd": fconst(n + "/wd", [1, 3, 3, 16], -1.0, 1.0), "bd": fconst(n + "/bd", [16], -0.5, 0.5),
                   "y1": T(F32, [1, 9, 11, 16]),
                   "wc": fconst(n + "/wc", [12, 3, 3, 8], -0.6, 0.6), "bc": fconst(n + "/bc", [12], -0.5, 0.5),
                   "c": T(F32, [1, 9, 11, 12]), "s": fconst(n + "/s", [12], 0.5, 1.5), "m": T(F32, [1, 9, 11, 12]),
                   "t": fconst(n + "/t", [12], -0.5, 0.5), "y2": T(F32, [1, 9, 11, 12])},
        [("CONV_2D", ["x", "we", "be"], ["e"], {"padding": "VALID", "stride_w": 1, "stride_h": 1,
                                                "fused_activation_function": "RELU6"}),
         ("DEPTHWISE_CONV_2D", ["e", "wd", "bd"], ["y1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                          "depth_multiplier": 1}),
         ("CONV_2D", ["x", "wc", "bc"], ["c"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
         ("MUL", ["c", "s"], ["m"], {}), ("ADD", ["m", "t"], ["y2"], {})],
        ["x"], ["y1", "y2"])
    # overflow: the builtin kernels clamp activation NONE to [-FLT_MAX, FLT_MAX] (3e38 * 2 is
    # FLT_MAX, not inf; NaN passes)
    big = [3e38, -3e38, 1.0, 2.0, 3e38, 3e38, -1.0, 0.5] * 4
    big[5] = float("nan")
    dyn("overflow", {"x": T(F32, [1, 4, 4, 2], values=big),
                     "w1": T(F32, [1, 3, 3, 2], const=[2.0, 1.5] * 9), "b1": T(F32, [2], const=[0.5, -0.5]),
                     "y1": T(F32, [1, 4, 4, 2]),
                     "os": i32c([1, 8, 8, 3]), "w2": T(F32, [3, 3, 3, 2], const=[2.0, -1.5, 1.0] * 18),
                     "b2": T(F32, [3], const=[0.5, -0.5, 1.0]), "y2": T(F32, [1, 8, 8, 3])},
        [("DEPTHWISE_CONV_2D", ["x", "w1", "b1"], ["y1"], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                          "depth_multiplier": 1}),
         ("TRANSPOSE_CONV", ["os", "w2", "x", "b2"], ["y2"], {"padding": "SAME", "stride_w": 2, "stride_h": 2})],
        ["x"], ["y1", "y2"])


def simple_ops_cases():
    """SIGN, ATAN2, RELU_0_TO_1, BITWISE_XOR, RIGHT_SHIFT, REDUCE_ANY, REDUCE_ALL."""
    F64, U16, U32 = S.FLOAT64, S.UINT16, S.UINT32
    shape = [2, 3, 5]
    x = T(F32, shape, lo=-3, hi=3, values=None)
    add(single("sign_f32", "SIGN", [x], [T(F32, shape)]))
    add(single("sign_f32_zeros", "SIGN", [T(F32, [6], values=[0.0, -0.0, 1e-30, -1e-30, 5.0, -2.0])],
               [T(F32, [6])]))
    add(single("sign_f64", "SIGN", [T(F64, shape)], [T(F64, shape)]))
    add(single("sign_i32", "SIGN", [T(I32, shape, lo=-3, hi=3)], [T(I32, shape)]))
    add(single("atan2_f32", "ATAN2", [T(F32, shape), T(F32, shape)], [T(F32, shape)]))
    add(single("atan2_f32_zeros", "ATAN2", [T(F32, [4], values=[0.0, 0.0, -0.0, 1.0]),
                                            T(F32, [4], values=[0.0, -1.0, -1.0, 0.0])], [T(F32, [4])]))
    add(single("atan2_f64", "ATAN2", [T(F64, shape), T(F64, shape)], [T(F64, shape)]))
    add(single("relu_0_to_1_f32", "RELU_0_TO_1", [act("f32", shape, -2, 2)], [T(F32, shape)]))
    for dt in ("u8", "i8"):
        xi = act(dt, shape, -2, 2)
        add(single("relu_0_to_1_%s" % dt, "RELU_0_TO_1", [xi], [same_q(xi)]))
        add(single("relu_0_to_1_%s_rescale" % dt, "RELU_0_TO_1", [xi], [act(dt, shape, 0, 1)]))
    bit_dts = {"i8": I8, "u8": U8, "i16": I16, "u16": U16, "i32": I32, "u32": U32}
    rng_of = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767), "u16": (0, 65535),
              "i32": (-(1 << 31), (1 << 31) - 1), "u32": (0, (1 << 32) - 1)}
    bits = {"i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32}
    for tag, d in bit_dts.items():
        lo, hi = rng_of[tag]
        add(single("bitwise_xor_%s" % tag, "BITWISE_XOR", [T(d, shape, lo=lo, hi=hi), T(d, shape, lo=lo, hi=hi)],
                   [T(d, shape)]))
        add(single("bitwise_xor_%s_bcast" % tag, "BITWISE_XOR", [T(d, [2, 1, 5], lo=lo, hi=hi),
                                                             T(d, [3, 1], lo=lo, hi=hi)], [T(d, [2, 3, 5])]))
        slo = -3 if lo < 0 else 0
        add(single("right_shift_%s" % tag, "RIGHT_SHIFT", [T(d, shape, lo=lo, hi=hi),
                                                        T(d, shape, lo=slo, hi=bits[tag] + 3)], [T(d, shape)]))
        add(single("right_shift_%s_bcast" % tag, "RIGHT_SHIFT", [T(d, [2, 3, 5], lo=lo, hi=hi),
                                                              T(d, [5], lo=0, hi=bits[tag] - 1)], [T(d, [2, 3, 5])]))
    for op in ("REDUCE_ANY", "REDUCE_ALL"):
        for tag, shp, axes, keep, oshape in (("last", [3, 4, 5], [2], False, [3, 4]),
                                              ("keep", [3, 4, 5], [0, -1], True, [1, 4, 1]),
                                              ("all", [2, 3], [0, 1], False, [])):
            add(single("%s_bool_%s" % (op.lower(), tag), op, [T(BOOL, shp), i32c(axes)], [T(BOOL, oshape)],
                       {"keep_dims": keep}))
        pass
    for tag, shp, axes in (("f32_last", [2, 3, 5], [2]), ("f32_first", [4, 3], [0]),
                           ("f32_neg", [2, 3, 4], [-2])):
        add(single("reverse_v2_" + tag, "REVERSE_V2", [act("f32", shp), i32c(axes)], [T(F32, shp)]))
    for dt in ("u8", "i8", "i16", "i32", "i64", "bool"):
        xr = act(dt, [3, 4, 2]) if dt != "bool" else T(BOOL, [3, 4, 2])
        add(single("reverse_v2_%s" % dt, "REVERSE_V2", [xr, i32c([1])], [same_q(xr)]))
    # RANK's output is computed at prepare (persistent in TFLite): added to a runtime input
    for tag, t in (("f32_4d", act("f32", [2, 1, 3, 4])), ("i8_scalar", T(I8, [])), ("bool_1d", T(BOOL, [5]))):
        add(Case("rank_" + tag, {"x": t, "r": T(I32, []), "z": T(I32, [3]), "y": T(I32, [3])},
                 [("RANK", ["x"], ["r"], {}), ("ADD", ["r", "z"], ["y"], {})], ["x", "z"], ["y"]))
    for dt, d in (("f32", F32), ("i32", I32), ("i64", I64)):
        for tag, shp, axis, opts in (("", [3, 4, 5], 1, {}), ("_excl", [3, 4, 5], -1, {"exclusive": True}),
                                     ("_rev", [6, 4], 0, {"reverse": True}),
                                     ("_excl_rev", [2, 3, 7], 2, {"exclusive": True, "reverse": True})):
            xc = T(d, shp, lo=-100, hi=100) if d != F32 else T(F32, shp)
            add(single("cumsum_%s%s" % (dt, tag), "CUMSUM", [xc, T(I32, [], const=[axis])], [T(d, shp)], opts))
    for op in ("REDUCE_ANY", "REDUCE_ALL"):
        sparse = [i % 7 == 3 for i in range(12)]  # mostly false: rows all-false and mixed
        add(single("%s_bool_sparse" % op.lower(), op, [T(BOOL, [3, 4], values=sparse), i32c([1])],
                   [T(BOOL, [3])]))
        add(single("%s_bool_dense" % op.lower(), op, [T(BOOL, [3, 4], values=[not v for v in sparse]),
                                                      i32c([1])], [T(BOOL, [3])]))


# ---------------------------------------------------------------- opsa: indexing, segments, misc
def tfweb(case):
    """Reference from the classic interpreter (LiteRT.js does not read back dynamic outputs)."""
    case.engine = "tfweb"
    return case


def opsa_cases():
    F64 = S.FLOAT64
    plain = {"f32": F32, "i32": I32, "i64": I64, "i8": I8, "u8": U8, "i16": I16, "bool": BOOL}

    def vals(dt, n, rng):
        if dt == "bool":
            return [bool(rng.randint(0, 1)) for _ in range(n)]
        if dt == "f32":
            return [f32(rng.uniform(-3, 3)) for _ in range(n)]
        lo, hi = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767)}.get(dt, (-50, 50))
        return [rng.randint(lo, hi) for _ in range(n)]

    # ONE_HOT: indices in [-1, depth] (out-of-range -> an all-off row)
    for dt in ("f32", "i32", "i64", "i8", "u8", "bool"):
        d = plain[dt]
        q = choose_qparams(d, -1.0, 1.0) if dt in ("i8", "u8") else None
        on = T(d, [], q=q, const=[True] if dt == "bool" else [1.5] if dt == "f32" else [7])
        off = T(d, [], q=q, const=[False] if dt == "bool" else [-0.25] if dt == "f32" else [-3 if dt != "u8" else 3])
        add(single("one_hot_%s" % dt, "ONE_HOT", [T(I32, [3, 4], lo=-1, hi=5), T(I32, [], const=[5]), on, off],
                   [T(d, [3, 4, 5], q=q)], {"axis": -1}))
    on, off = T(F32, [], const=[2.0]), T(F32, [], const=[0.5])
    add(single("one_hot_f32_axis0", "ONE_HOT", [T(I32, [2, 3], lo=-1, hi=4), T(I32, [], const=[4]), on, off],
               [T(F32, [4, 2, 3])], {"axis": 0}))
    add(single("one_hot_f32_axis1_i64", "ONE_HOT", [T(I64, [2, 3], lo=-1, hi=4), T(I32, [], const=[4]), on, off],
               [T(F32, [2, 4, 3])], {"axis": 1}))
    add(single("one_hot_i32_runtime_values", "ONE_HOT",
                [T(I32, [5], lo=0, hi=3), T(I32, [], const=[3]), T(I32, [], values=[9]), T(I32, [], values=[-9])],
                [T(I32, [5, 3])], {"axis": -1}))
    add(tfweb(single("one_hot_f32_dyn_depth", "ONE_HOT",
                      [T(I32, [4], lo=0, hi=5), T(I32, [], values=[6]), on, off], [T(F32, [4, 6])], {"axis": -1})))

    # BUCKETIZE
    bounds = [-3.0, -1.0, 0.0, 0.5, 2.0, 2.0, 7.0]
    fixed = [-3.0, -1.0, 0.0, 0.5, 2.0, 7.0, -4.0, 8.0, 1.0, -0.0, 0.49, 6.99]
    add(single("bucketize_f32", "BUCKETIZE", [T(F32, [3, 4], values=fixed)], [T(I32, [3, 4])],
               {"boundaries": bounds}))
    add(single("bucketize_f32_random", "BUCKETIZE", [T(F32, [2, 3, 5], lo=-5, hi=9)], [T(I32, [2, 3, 5])],
               {"boundaries": bounds}))
    add(single("bucketize_f64", "BUCKETIZE", [T(F64, [12], values=fixed)], [T(I32, [12])],
               {"boundaries": bounds}))
    add(single("bucketize_i32", "BUCKETIZE", [T(I32, [4, 5], lo=-5, hi=9)], [T(I32, [4, 5])],
               {"boundaries": bounds}))
    add(single("bucketize_i64", "BUCKETIZE", [T(I64, [4, 5], lo=-5, hi=9)], [T(I32, [4, 5])],
               {"boundaries": bounds}))
    add(single("bucketize_f32_no_boundaries", "BUCKETIZE", [T(F32, [5])], [T(I32, [5])], {"boundaries": []}))

    # BROADCAST_ARGS
    for dt, d in (("i32", I32), ("i64", I64)):
        add(single("broadcast_args_%s" % dt, "BROADCAST_ARGS", [T(d, [4], values=[2, 1, 3, 1]), T(d, [2], values=[3, 5])],
                   [T(d, [4])]))
        add(single("broadcast_args_%s_ones" % dt, "BROADCAST_ARGS", [T(d, [3], values=[1, 4, 1]),
                                                                   T(d, [3], values=[6, 1, 1])], [T(d, [3])]))
    add(single("broadcast_args_i32_empty", "BROADCAST_ARGS", [T(I32, [0], values=[]), T(I32, [2], values=[3, 2])],
               [T(I32, [2])]))

    # SCATTER_ND (duplicate index tuples add up)
    pairs = [0, 1, 4, 3, 0, 1, 2, 0, 5, 2]
    for dt in ("f32", "u8", "i8", "i32", "i64"):
        d = plain[dt]
        rng = Rng(seed_of("scatter_nd_" + dt))
        add(single("scatter_nd_%s" % dt, "SCATTER_ND",
                   [T(I32, [5, 2], values=pairs), T(d, [5, 3], values=vals(dt, 15, rng)), i32c([6, 4, 3])],
                   [T(d, [6, 4, 3])]))
    add(single("scatter_nd_f32_full_index", "SCATTER_ND",
               [T(I32, [4, 3], values=[0, 0, 0, 1, 2, 1, 1, 2, 1, 0, 1, 0]), T(F32, [4]), i32c([2, 3, 2])],
               [T(F32, [2, 3, 2])]))
    add(single("scatter_nd_f32_batched_idx", "SCATTER_ND",
               [T(I32, [2, 2, 1], values=[3, 0, 1, 3]), T(F32, [2, 2, 4]), i32c([5, 4])], [T(F32, [5, 4])]))
    add(tfweb(single("scatter_nd_i32_dyn_shape", "SCATTER_ND",
                     [T(I32, [3, 1], values=[1, 0, 1]), T(I32, [3, 2]), T(I32, [2], values=[3, 2])], [T(I32, [3, 2])])))

    # DYNAMIC_UPDATE_SLICE (start indices clamped)
    for dt in ("f32", "i8", "i16", "i32", "i64", "bool"):
        d = plain[dt]
        q = choose_qparams(d, -2.0, 2.0) if dt in ("i8", "u8", "i16") else None
        add(single("dynamic_update_slice_%s" % dt, "DYNAMIC_UPDATE_SLICE",
                   [T(d, [4, 5, 3], q=q), T(d, [2, 3, 3], q=q), T(I32, [3], values=[1, 3, -2])],
                   [T(d, [4, 5, 3], q=q)]))
    add(single("dynamic_update_slice_f32_i64_start", "DYNAMIC_UPDATE_SLICE",
               [T(F32, [6, 4]), T(F32, [2, 1]), T(I64, [2], values=[7, 2])], [T(F32, [6, 4])]))
    add(single("dynamic_update_slice_f32_full", "DYNAMIC_UPDATE_SLICE",
               [T(F32, [3, 2]), T(F32, [3, 2]), T(I32, [2], values=[1, 1])], [T(F32, [3, 2])]))
    add(single("dynamic_update_slice_f32_1d", "DYNAMIC_UPDATE_SLICE",
               [T(F32, [9]), T(F32, [4]), T(I32, [1], values=[3])], [T(F32, [9])]))

    # EMBEDDING_LOOKUP
    ids = T(I32, [4], values=[2, 0, 4, 2])
    rng = Rng(seed_of("embedding_lookup"))
    add(single("embedding_lookup_f32", "EMBEDDING_LOOKUP", [ids, T(F32, [5, 3, 2])], [T(F32, [4, 3, 2])]))
    add(single("embedding_lookup_f32_const", "EMBEDDING_LOOKUP",
               [ids, T(F32, [5, 3], const=[f32(rng.uniform(-2, 2)) for _ in range(15)])], [T(F32, [4, 3])]))
    for dt in ("i8", "u8"):
        d = plain[dt]
        q = choose_qparams(d, -2.0, 2.0)
        tab = T(d, [5, 4], q=q, const=vals(dt, 20, rng))
        add(single("embedding_lookup_%s" % dt, "EMBEDDING_LOOKUP", [ids, tab], [T(d, [4, 4], q=q)]))
        # hybrid (float output): TFLite requires zero points 0
        htab = T(d, [5, 4], q=(f32(2.0 / 127), 0), const=vals(dt, 20, rng))
        add(single("embedding_lookup_%s_hybrid" % dt, "EMBEDDING_LOOKUP", [ids, htab], [T(F32, [4, 4])]))
    perrow = {"scale": [f32(0.01 * (i + 1)) for i in range(5)], "zero_point": [0] * 5, "quantized_dimension": 0}
    add(single("embedding_lookup_i8_hybrid_per_row", "EMBEDDING_LOOKUP",
               [ids, T(I8, [5, 3], q=perrow, const=vals("i8", 15, rng))], [T(F32, [4, 3])]))

    # SEGMENT_SUM
    seg = [0, 0, 1, 2, 2, 2]
    for dt in ("f32", "i32"):
        d = plain[dt]
        # TFLite makes the output dynamic unless data and ids are both constant
        add(tfweb(single("segment_sum_%s" % dt, "SEGMENT_SUM", [T(d, [6, 3]), i32c(seg)], [T(d, [3, 3])])))
        add(tfweb(single("segment_sum_%s_dyn_ids" % dt, "SEGMENT_SUM",
                         [T(d, [6, 2, 2]), T(I32, [6], values=[0, 1, 1, 1, 2, 3])], [T(d, [4, 2, 2])])))
    # UNSORTED_SEGMENT_*: empty segments keep the identity; negative ids are skipped
    useg = [3, -1, 0, 3, 1, 0, 3]
    for op in ("SUM", "PROD", "MAX", "MIN"):
        for dt in ("f32", "i32"):
            d = plain[dt]
            name = "unsorted_segment_%s_%s" % (op.lower(), dt)
            x = T(d, [7, 2, 3], lo=-3, hi=3) if dt == "f32" else T(d, [7, 2, 3], lo=-9, hi=9)
            add(single(name, "UNSORTED_SEGMENT_" + op, [x, i32c(useg), T(I32, [], const=[5])], [T(d, [5, 2, 3])]))
        add(tfweb(single("unsorted_segment_%s_f32_dyn" % op.lower(), "UNSORTED_SEGMENT_" + op,
                         [T(F32, [5, 2]), T(I32, [5], values=[1, 1, 0, 2, 1]), T(I32, [1], values=[4])],
                         [T(F32, [4, 2])])))

    # MATRIX_DIAG, MATRIX_SET_DIAG
    # (no bool cases: LiteRT.js cannot read bool outputs and tfweb's bool I/O is garbled)
    for dt in ("f32", "u8", "i8", "i16", "i32", "i64"):
        d = plain[dt]
        q = choose_qparams(d, -2.0, 2.0) if dt in ("i8", "u8", "i16") else None
        add(single("matrix_diag_%s" % dt, "MATRIX_DIAG", [T(d, [2, 3, 4], q=q)], [T(d, [2, 3, 4, 4], q=q)]))
        add(single("matrix_set_diag_%s" % dt, "MATRIX_SET_DIAG", [T(d, [2, 3, 5], q=q), T(d, [2, 3], q=q)],
                   [T(d, [2, 3, 5], q=q)]))
    add(single("matrix_diag_f32_1d", "MATRIX_DIAG", [T(F32, [5])], [T(F32, [5, 5])]))
    add(single("matrix_set_diag_f32_tall", "MATRIX_SET_DIAG", [T(F32, [4, 2]), T(F32, [2])], [T(F32, [4, 2])]))

    # REVERSE_SEQUENCE
    for dt in ("f32", "u8", "i16", "i32", "i64"):  # TFLite has no int8 kernel
        d = plain[dt]
        q = choose_qparams(d, -2.0, 2.0) if dt in ("i8", "u8", "i16") else None
        add(single("reverse_sequence_%s" % dt, "REVERSE_SEQUENCE", [T(d, [3, 5, 2], q=q), T(I32, [3], values=[2, 5, 0])],
                   [T(d, [3, 5, 2], q=q)], {"seq_dim": 1, "batch_dim": 0}))
    add(single("reverse_sequence_f32_seq0_batch2", "REVERSE_SEQUENCE", [T(F32, [4, 2, 3]), T(I64, [3], values=[4, 1, 3])],
               [T(F32, [4, 2, 3])], {"seq_dim": 0, "batch_dim": 2}))
    add(single("reverse_sequence_f32_4d", "REVERSE_SEQUENCE", [T(F32, [2, 3, 4, 2]), T(I32, [2], values=[3, 2])],
               [T(F32, [2, 3, 4, 2])], {"seq_dim": 2, "batch_dim": 0}))

    # SPARSE_TO_DENSE
    for dt in ("f32", "i32", "i64", "i8", "u8"):
        d = plain[dt]
        rng = Rng(seed_of("sparse_to_dense_" + dt))
        dv = [0.5] if dt == "f32" else [7]
        add(single("sparse_to_dense_%s" % dt, "SPARSE_TO_DENSE",
                   [T(I32, [4, 2], values=[0, 1, 2, 3, 1, 0, 2, 1]), i32c([3, 4]), T(d, [4], values=vals(dt, 4, rng)),
                    T(d, [], const=dv)], [T(d, [3, 4])], {"validate_indices": False}))
    add(single("sparse_to_dense_f32_scalar_value", "SPARSE_TO_DENSE",
               [T(I32, [3], values=[4, 0, 2]), i32c([6]), T(F32, [], values=[2.5]), T(F32, [], const=[-1.0])],
               [T(F32, [6])]))
    add(single("sparse_to_dense_f32_i64_idx", "SPARSE_TO_DENSE",
               [T(I64, [2, 3], values=[1, 0, 2, 0, 1, 1]), T(I64, [3], const=[2, 2, 3]), T(F32, [2]), T(F32, [], const=[0.0])],
               [T(F32, [2, 2, 3])]))

    # TOPK_V2 (ties: lower position first)
    for dt in ("f32", "u8", "i8", "i16", "i32", "i64"):
        d = plain[dt]
        q = choose_qparams(d, -2.0, 2.0) if dt in ("i8", "u8", "i16") else None
        x = T(d, [3, 9], q=q, lo=-4, hi=4) if dt in ("i32", "i64") else T(d, [3, 9], q=q, lo=0, hi=6) if dt == "u8" \
            else T(d, [3, 9], q=q, lo=-5, hi=5) if dt in ("i8", "i16") else T(F32, [3, 9])
        add(single("topk_v2_%s" % dt, "TOPK_V2", [x, T(I32, [], const=[4])], [T(d, [3, 4], q=q), T(I32, [3, 4])]))
    add(single("topk_v2_f32_ties", "TOPK_V2", [T(F32, [2, 6], values=[1, 3, 3, 2, 3, 1, 0, 0, 0, 0, 5, 0]),
                                               T(I32, [], const=[3])], [T(F32, [2, 3]), T(I32, [2, 3])]))
    add(single("topk_v2_f32_k_all_3d", "TOPK_V2", [T(F32, [2, 2, 5]), T(I32, [], const=[5])],
               [T(F32, [2, 2, 5]), T(I32, [2, 2, 5])]))
    add(tfweb(single("topk_v2_f32_dyn_k", "TOPK_V2", [T(F32, [3, 7]), T(I32, [], values=[2])],
                     [T(F32, [3, 2]), T(I32, [3, 2])])))

    # UNIQUE (the output is always dynamic in TFLite)
    for dt in ("f32", "u8", "i8", "i16", "i32"):
        d = plain[dt]
        v = [1.5, -2.0, 1.5, 0.0, 3.25, -2.0, -0.0, 9.0, 1.5] if dt == "f32" else [3, 1, 3, 0, 7, 1, 1, 9, 0]
        k = len(set(v)) if dt != "f32" else 5
        add(tfweb(single("unique_%s" % dt, "UNIQUE", [T(d, [9], values=v)], [T(d, [k]), T(I32, [9])],
                         {"idx_out_type": "int32"})))

    # LOCAL_RESPONSE_NORMALIZATION (float32 only)
    for tag, shp, o in (("r2", [1, 3, 4, 7], {"radius": 2, "bias": 1.0, "alpha": 0.5, "beta": 0.75}),
                        ("r1_beta1", [2, 2, 2, 5], {"radius": 1, "bias": 2.0, "alpha": 0.2, "beta": 1.0}),
                        ("r5_beta_half", [1, 2, 3, 6], {"radius": 5, "bias": 0.5, "alpha": 1.0, "beta": 0.5}),
                        ("r0", [1, 1, 3, 4], {"radius": 0, "bias": 1.0, "alpha": 1.0, "beta": 0.3})):
        add(single("local_response_normalization_f32_" + tag, "LOCAL_RESPONSE_NORMALIZATION", [T(F32, shp)],
                   [T(F32, shp)], o))

    # FAKE_QUANT (float32 only)
    for tag, o in (("8bit", {"min": -1.0, "max": 2.0, "num_bits": 8}),
                   ("4bit_nudged", {"min": 0.1, "max": 3.3, "num_bits": 4}),
                   ("16bit", {"min": -5.0, "max": 1.0, "num_bits": 16}),
                   ("2bit_neg", {"min": -3.0, "max": -0.5, "num_bits": 2})):
        add(single("fake_quant_f32_" + tag, "FAKE_QUANT", [T(F32, [3, 11], lo=-4, hi=4)], [T(F32, [3, 11])], o))

    # BITCAST
    add(single("bitcast_f32_to_i32", "BITCAST", [T(F32, [2, 3])], [T(I32, [2, 3])]))
    add(single("bitcast_i32_to_u8", "BITCAST", [T(I32, [2, 3], lo=-100000, hi=100000)], [T(U8, [2, 3, 4])]))
    add(single("bitcast_i8_to_i16", "BITCAST", [T(I8, [3, 2])], [T(I16, [3])]))
    add(single("bitcast_i64_to_f32", "BITCAST", [T(I64, [4], lo=-1000, hi=100000)], [T(F32, [4, 2])]))
    add(single("bitcast_u8_to_i64", "BITCAST", [T(U8, [2, 8])], [T(I64, [2])]))

    # RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL: TFLite's first invoke for fixed seeds
    for op, tag in (("RANDOM_UNIFORM", "random_uniform"), ("RANDOM_STANDARD_NORMAL", "random_standard_normal")):
        add(single(tag + "_f32", op, [i32c([3, 5])], [T(F32, [3, 5])], {"seed": 1, "seed2": 2}))
        add(single(tag + "_f32_odd", op, [i32c([7])], [T(F32, [7])], {"seed": -9, "seed2": 0}))
        add(single(tag + "_f32_seed_only", op, [i32c([2, 2, 3])], [T(F32, [2, 2, 3])], {"seed": 123456789012}))
        add(tfweb(single(tag + "_f32_dyn_shape", op, [T(I32, [2], values=[2, 9])], [T(F32, [2, 9])],
                         {"seed": 3, "seed2": 4})))
    lg = [0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 0.0, 0.1]
    add(single("multinomial_i64", "MULTINOMIAL", [T(F32, [2, 4], const=lg), T(I32, [], const=[9])], [T(I64, [2, 9])],
               {"seed": 5, "seed2": 11}))
    add(tfweb(single("multinomial_i32_runtime_logits", "MULTINOMIAL",
                     [T(F32, [3, 5], lo=-2, hi=2), T(I32, [], const=[6])], [T(I32, [3, 6])], {"seed": 8, "seed2": 1})))
    add(single("random_uniform_f32_seeds_64bit", "RANDOM_UNIFORM", [i32c([6])], [T(F32, [6])],
               {"seed": (3 << 32) - 5, "seed2": -(7 << 33) + 9}))
    add(single("multinomial_i32_nonfinite", "MULTINOMIAL",
               [T(F32, [1, 4], const=[float("-inf"), 0.0, float("nan"), 1.0]), T(I32, [], const=[12])],
               [T(I32, [1, 12])], {"seed": 2, "seed2": 3}))


def exact53_float_cases():
    """exact53: float GELU and RESIZE_BILINEAR where LiteRT's XNNPACK delegate takes them, in any
    model (before, tfcc ran XNNPACK's arithmetic for them in hybrid models only): GELU is its
    f32 rational 12/10 interpolant (the tanh form when approximate), RESIZE_BILINEAR its f32
    ibilinear lerps on its source coordinates. TFLITE mode against LiteRT, every output bit for
    bit in ops.test_hybrid. gelu_f32_quantize_i16 is an int16x8 twin's float GELU and the
    QUANTIZE after it (the transformer twin was 2 LSB off LiteRT there)."""
    def fbits(u):
        return struct.unpack("<f", struct.pack("<I", u & 0xffffffff))[0]

    def bits_of(x):
        return struct.unpack("<I", struct.pack("<f", x))[0]

    rng = Rng(seed_of("float_gelu_range"))
    vals = [f32(-12.0 + 0.00731 * i) for i in range(3284)]  # [-12, 12] densely
    for edge in (5.1158981323, 4.86115026, 5.1638283730):  # the two clamps (and the FMA build's)
        b = bits_of(f32(edge))
        vals += [fbits(b + d) for d in range(-3, 4)] + [-fbits(b + d) for d in range(-3, 4)]
    vals += [0.0, -0.0, fbits(1), fbits(0x80000001), fbits(0x007fffff), 1e-30, -1e-30, 1e-8, -1e-8,
             6.0, -6.0, 10.0, -10.0, 100.0, -100.0, 1e4, -1e4, 1e20, -1e20, 3e38, -3e38,
             fbits(0x7f7fffff), fbits(0xff7fffff), float("inf"), float("-inf"), float("nan"),
             fbits(0xffc00000)]  # NaNs pass with their sign (both engines' min / max)
    for _ in range(600):  # any exponent from 2^-30 to 2^30, both signs
        e = rng.randint(127 - 30, 127 + 30)
        vals.append(fbits((rng.randint(0, 1) << 31) | (e << 23) | rng.randint(0, (1 << 23) - 1)))
    n = len(vals)  # odd tails for every vector width
    if n % 16 == 0:
        vals.append(0.37)
        n += 1
    add(Case("float_gelu_range", {"x": T(F32, [n], values=vals), "y": T(F32, [n]), "y2": T(F32, [n])},
             [("GELU", ["x"], ["y"], {}), ("GELU", ["x"], ["y2"], {"approximate": True})], ["x"], ["y", "y2"]))
    # an int16x8 twin's float GELU feeding a QUANTIZE to int16 (scale 2^-13: 1 ulp of a GELU
    # output above 0.5 is 1/1024 LSB or more, so some of 16,384 elements round the other way)
    q = (2.0 ** -13, 0)
    add(Case("gelu_f32_quantize_i16", {"x": act("f32", [16, 1024], -3.9, 3.9), "g": T(F32, [16, 1024]),
                                       "g2": T(F32, [16, 1024]), "q": T(I16, [16, 1024], q=q),
                                       "q2": T(I16, [16, 1024], q=q)},
             [("GELU", ["x"], ["g"], {}), ("QUANTIZE", ["g"], ["q"], {}),
              ("GELU", ["x"], ["g2"], {"approximate": True}), ("QUANTIZE", ["g2"], ["q2"], {})],
             ["x"], ["q", "q2"]))
    # RESIZE_BILINEAR: up (odd factors, exactly 2x: TFLite's builtin has a 2x kernel, XNNPACK
    # does not), down, to 1x1, the same size; 21 channels (vector tails), two batches
    sizes = ([13, 17], [3, 4], [10, 12], [1, 1], [5, 6], [7, 9])
    for tag, ac, hp in (("half_pixel", False, True), ("align_corners", True, False), ("legacy", False, False),
                        ("align_half", True, True)):
        t = {"x": act("f32", [2, 5, 6, 21], -3.0, 3.0)}
        ops, outs = [], []
        for k, sz in enumerate(sizes):
            t["s%d" % k] = i32c(sz)
            t["y%d" % k] = T(F32, [2] + sz + [21])
            ops.append(("RESIZE_BILINEAR", ["x", "s%d" % k], ["y%d" % k],
                        {"align_corners": ac, "half_pixel_centers": hp}))
            outs.append("y%d" % k)
        add(Case("float_resize_bilinear_xnn_" + tag, t, ops, ["x"], outs))
    # one channel, a tall odd image down and up (DeepLab-like 33 -> 257 is in the twin test)
    t = {"x": act("f32", [1, 17, 3, 1], -3.0, 3.0), "s0": i32c([129, 5]), "s1": i32c([4, 11]),
         "y0": T(F32, [1, 129, 5, 1]), "y1": T(F32, [1, 4, 11, 1])}
    add(Case("float_resize_bilinear_xnn_c1", t,
             [("RESIZE_BILINEAR", ["x", "s0"], ["y0"], {"half_pixel_centers": True}),
              ("RESIZE_BILINEAR", ["x", "s1"], ["y1"], {"align_corners": True})], ["x"], ["y0", "y1"]))
    # a size the graph computes (SHAPE -> STRIDED_SLICE -> MUL; tfcc folds it at load): to
    # TFLite it is not a constant, so LiteRT's delegate leaves the node to the builtin kernel
    t = {"x": act("f32", [1, 5, 6, 8], -3.0, 3.0), "s": T(I32, [4]), "hw": T(I32, [2]), "two": i32c([2, 3]),
         "sz": T(I32, [2]), "b0": i32c([1]), "e0": i32c([3]), "st": i32c([1]),
         "y": T(F32, [1, 10, 18, 8]), "y2": T(F32, [1, 10, 18, 8])}
    add(Case("float_resize_bilinear_computed_size", t,
             [("SHAPE", ["x"], ["s"], {"out_type": I32}),
              ("STRIDED_SLICE", ["s", "b0", "e0", "st"], ["hw"], {}),
              ("MUL", ["hw", "two"], ["sz"], {}),
              ("RESIZE_BILINEAR", ["x", "sz"], ["y"], {"half_pixel_centers": True}),
              ("RESIZE_BILINEAR", ["x", "sz"], ["y2"], {})], ["x"], ["y", "y2"]))


def exact53_bmm_const_cases():
    """exact53: float BATCH_MATMUL whose rhs is a constant of the file, in a hybrid model (TFLITE
    mode: XNNPACK's GEMM order), before a hybrid FULLY_CONNECTED: tfcc transposes an adj_y rhs
    once at load instead of every run (the same bits); two rhs batches, a broadcast one."""
    def hw(name, shape):
        rng = Rng(seed_of(name + "/w"))
        w, _ = weights(rng, "i8", shape, 0, per_channel=True, wmax=0.5)
        return w

    def fconst(name, shape):
        rng = Rng(seed_of(name))
        return T(F32, shape, const=[f32(rng.uniform(-2.0, 2.0)) for _ in range(numel(shape))])

    for name, ash, bsh, opts in (("hybrid_net_bmm_const_rhs_fc", [2, 5, 37], [2, 37, 6], {}),
                                 ("hybrid_net_bmm_const_rhs_fc_adj_y", [2, 5, 37], [2, 6, 37], {"adj_y": True}),
                                 ("hybrid_net_bmm_const_rhs_fc_bcast_adj_y", [3, 4, 19], [1, 9, 19], {"adj_y": True})):
        n = bsh[-2] if opts.get("adj_y") else bsh[-1]
        m = ash[-2]
        bat = [max(p, q) for p, q in zip(ash[:-2], bsh[:-2])]
        add(Case(name, {"a": act("f32", ash, -2.0, 2.0), "b": fconst(name + "/b", bsh),
                        "y": T(F32, bat + [m, n]), "wh": hw(name, [3, n]),
                        "bh": T(F32, [3], const=[0.25, -0.5, 0.125]), "z": T(F32, bat + [m, 3])},
                 [("BATCH_MATMUL", ["a", "b"], ["y"], dict(opts)),
                  ("FULLY_CONNECTED", ["y", "wh", "bh"], ["z"], {"keep_num_dims": True})],
                 ["a"], ["y", "z"]))


def cache54_bmm_const_cases():
    """cache54: float BATCH_MATMUL whose rhs is a constant of the file in a float model: tfcc packs
    the rhs for its f32 GEMM once at load (every rhs batch), a block of the weights cache
    (TFCC_BLOCK_BMM_F32_GEMM, lifecycle.test_update_packed); two rhs batches, a broadcast adj_y
    one."""
    for name, ash, bsh, opts in (("batch_matmul_f32_const_rhs", [2, 5, 37], [2, 37, 6], {}),
                                 ("batch_matmul_f32_const_rhs_bcast_adj_y", [3, 4, 19], [1, 9, 19],
                                  {"adj_y": True})):
        rng = Rng(seed_of(name + "/b"))
        n = bsh[-2] if opts.get("adj_y") else bsh[-1]
        bat = [max(p, q) for p, q in zip(ash[:-2], bsh[:-2])]
        add(Case(name, {"a": act("f32", ash, -2.0, 2.0),
                        "b": T(F32, bsh, const=[f32(rng.uniform(-2.0, 2.0)) for _ in range(numel(bsh))]),
                        "y": T(F32, bat + [ash[-2], n])},
                 [("BATCH_MATMUL", ["a", "b"], ["y"], dict(opts))], ["a"], ["y"]))


def cases():
    if not _CASES:
        for gen in (conv_cases, negative_scale_cases, depthwise_cases, transpose_conv_cases, fully_connected_cases,
                    batch_matmul_cases, zero_size_constant_cases, dynamic_operand_cases, declared_dtype_cases, pool_cases, binary_cases, compare_cases, unary_cases,
                    normalization_cases, conversion_cases, reduce_cases, shape_cases,
                    detection_cases, nms_cases, fft_cases, hybrid_cases, hybrid_float_probe_cases, float_overflow_probe_cases, classic_dynamic_reshape_cases, classic_dynamic_tensor_cases, classic_float_undelegated_cases, simple_ops_cases,
                    opsa_cases, exact53_float_cases, exact53_bmm_const_cases, cache54_bmm_const_cases):
            gen()
        seq_cases.cases(add)  # sequence models, 3-D convolutions (opsb)
        opsc_cases.cases(add)  # StableHLO elementwise, LSH_PROJECTION, EMBEDDING_LOOKUP_SPARSE
        sparse_cases.cases(add)  # sparse constants: DENSIFY, sparse FULLY_CONNECTED weights
        names = [c.name for c in _CASES]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError("duplicate case names: %s" % sorted(dup))
    return list(_CASES)


if __name__ == "__main__":
    for c in cases():
        print(c.name, len(c.inputs), len(c.outputs), c.tolerance())
