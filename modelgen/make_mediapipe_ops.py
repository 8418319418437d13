"""A test model of MediaPipe's custom operators (examples/mediapipe_ops) and its reference outputs
(tests/models/data/mediapipe_ops).

TensorFlow Lite cannot be the oracle here (its builds do not register these operators), so the
references are computed by this script with NumPy, written from MediaPipe's kernels'
semantics (mediapipe/util/tflite/operations/{max_pool_argmax,max_unpooling,
transpose_conv_bias}.cc) independently of the C code:
  MaxPoolingWithArgmax2D   SAME/VALID windows (TensorFlow's output sizes and leading padding),
                           the first maximum in row-major window order, the fused activation;
                           indices = position in the window (y * filter_w + x) + 0.1 as float32
  MaxUnpooling2D           output = input x filter size; each value written where its index
                           says (input y * stride - pad + k / filter_w, ...), the rest 0
  Convolution2DTransposeBias  OHWI weights, bias first, SAME = total padding
                           max(0, f - (in - 1) % s - 1) with half of it leading
The model: x [1,7,9,3] -> MaxPoolingWithArgmax2D (2x2 / 2, SAME) -> MaxUnpooling2D -> ADD 0.5
-> Convolution2DTransposeBias (3x3 / 2, SAME) -> y; x -> MaxPoolingWithArgmax2D (3x3 / 2,
VALID, RELU6) -> p2, i2; x -> Convolution2DTransposeBias (2x3 / (2,1), VALID) -> t2. The input
takes few distinct values, so windows hold ties (the first maximum wins).

    /usr/bin/python3 modelgen/make_mediapipe_ops.py --out tests/models/data/mediapipe_ops

Writes mediapipe_ops.tflite, in0.npy, out<i>.npy (outputs in the model's order),
mediapipe_unknown_op.tflite (a custom operator nobody registers), keep_positive.tflite (a custom
operator with a run-time-shaped output, keep_positive_model) and mediapipe_bad_<tag>.tflite
(MaxPoolingWithArgmax2D with hostile options: too short, padding 0, stride 0). Needs NumPy for the
references (Debian's /usr/bin/python3 has it); the model itself is built with modelgen only.
"""
import argparse
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import casekit  # noqa: E402
import npy  # noqa: E402
import tflite_schema as T  # noqa: E402
from tflite_schema import FLOAT32  # noqa: E402

SAME, VALID = 1, 2
ACT_NONE, ACT_RELU6 = 0, 3


def pool_options(padding, stride_hw, filter_hw, activation):
    """TfLitePoolParams as MediaPipe's converter stores it: padding, stride_width, stride_height,
    filter_width, filter_height, activation, computed padding (4 ints, left 0)."""
    return struct.pack("<10i", padding, stride_hw[1], stride_hw[0], filter_hw[1], filter_hw[0], activation,
                       0, 0, 0, 0)


def tconv_options(padding, stride_hw):
    """TfLiteTransposeConvParams: padding, stride_width, stride_height."""
    return struct.pack("<3i", padding, stride_hw[1], stride_hw[0])


# ---------------------------------------------------------------- references (NumPy)
def out_size(n, f, s, padding):
    return (n + s - 1) // s if padding == SAME else (n - f + s) // s


def lead_pad(stride, n_in, f, n_out):
    return max(0, ((n_out - 1) * stride + f - n_in) // 2)


def ref_argmax_pool(x, f, s, padding, act):
    n, h, w, c = x.shape
    oh, ow = out_size(h, f[0], s[0], padding), out_size(w, f[1], s[1], padding)
    ph, pw = lead_pad(s[0], h, f[0], oh), lead_pad(s[1], w, f[1], ow)
    y = np.zeros((n, oh, ow, c), np.float32)
    idx = np.zeros((n, oh, ow, c), np.float32)
    for b in range(n):
        for oy in range(oh):
            for ox in range(ow):
                y0, x0 = oy * s[0] - ph, ox * s[1] - pw
                ys = [k for k in range(f[0]) if 0 <= y0 + k < h]
                xs = [k for k in range(f[1]) if 0 <= x0 + k < w]
                for ch in range(c):
                    # window values in row-major order; argmax picks the first maximum
                    win = np.array([[x[b, y0 + fy, x0 + fx, ch] for fx in xs] for fy in ys])
                    flat = int(np.argmax(win))
                    fy, fx = ys[flat // len(xs)], xs[flat % len(xs)]
                    v = win.max()
                    if act == ACT_RELU6:
                        v = min(max(v, 0.0), 6.0)
                    y[b, oy, ox, ch] = v
                    idx[b, oy, ox, ch] = np.float32(fy * f[1] + fx) + np.float32(0.1)
    return y, idx


def ref_unpool(x, idx, f, s):
    n, h, w, c = x.shape
    oh, ow = h * f[0], w * f[1]
    ph, pw = lead_pad(s[0], oh, f[0], h), lead_pad(s[1], ow, f[1], w)
    y = np.zeros((n, oh, ow, c), np.float32)
    for b in range(n):
        for iy in range(h):
            for ix in range(w):
                for ch in range(c):
                    k = int(idx[b, iy, ix, ch])
                    oy, ox = iy * s[0] - ph + k // f[1], ix * s[1] - pw + k % f[1]
                    if 0 <= oy < oh and 0 <= ox < ow:
                        y[b, oy, ox, ch] = x[b, iy, ix, ch]
    return y


def ref_tconv(x, wt, bias, s, padding):
    """float64 scatter of every input pixel through the OHWI filter, plus the bias."""
    n, h, w, _ = x.shape
    oc, fh, fw, _ = wt.shape
    pth = max(0, fh - (h - 1) % s[0] - 1) if padding == SAME else 0
    ptw = max(0, fw - (w - 1) % s[1] - 1) if padding == SAME else 0
    oh, ow = s[0] * (h - 1) + fh - pth, s[1] * (w - 1) + fw - ptw
    full = np.zeros((n, s[0] * (h - 1) + fh, s[1] * (w - 1) + fw, oc), np.float64)
    for iy in range(h):
        for ix in range(w):
            # [n, ic] x [oc, fh, fw, ic] -> [n, fh, fw, oc]
            contrib = np.einsum("bi,ohwi->bhwo", x[:, iy, ix, :].astype(np.float64), wt.astype(np.float64))
            full[:, iy * s[0]:iy * s[0] + fh, ix * s[1]:ix * s[1] + fw, :] += contrib
    y = full[:, pth // 2:pth // 2 + oh, ptw // 2:ptw // 2 + ow, :] + bias.astype(np.float64)
    return y.astype(np.float32)


# ---------------------------------------------------------------- the model
def build(rng):
    x_shape = [1, 7, 9, 3]
    # few distinct values: ties inside pooling windows
    x = np.array([(rng.next_u64() % 9) * 0.75 - 3.0 for _ in range(int(np.prod(x_shape)))],
                 np.float32).reshape(x_shape)
    w1 = np.array([rng.uniform(-1, 1) for _ in range(4 * 3 * 3 * 3)], np.float32).reshape(4, 3, 3, 3)
    b1 = np.array([rng.uniform(-1, 1) for _ in range(4)], np.float32)
    w2 = np.array([rng.uniform(-1, 1) for _ in range(5 * 2 * 3 * 3)], np.float32).reshape(5, 2, 3, 3)
    b2 = np.array([rng.uniform(-1, 1) for _ in range(5)], np.float32)
    half = np.float32(0.5)

    p1, i1 = ref_argmax_pool(x, (2, 2), (2, 2), SAME, ACT_NONE)
    u1 = ref_unpool(p1, i1, (2, 2), (2, 2))
    a1 = u1 + half
    y = ref_tconv(a1, w1, b1, (2, 2), SAME)
    p2, i2 = ref_argmax_pool(x, (3, 3), (2, 2), VALID, ACT_RELU6)
    t2 = ref_tconv(x, w2, b2, (2, 1), VALID)

    m = T.Model(description="tfcc modelgen: MediaPipe custom operators")

    def tensor(name, arr, const=False):
        return m.add_tensor(name, FLOAT32, list(arr.shape),
                            data=T.pack(FLOAT32, arr.ravel().tolist()) if const else None)

    tx = tensor("x", x)
    tp1, ti1, tu1 = tensor("pool1", p1), tensor("pool1_idx", i1), tensor("unpool1", u1)
    th, ta1 = tensor("half", np.array([half]).reshape([1]), True), tensor("unpool1_plus_half", a1)
    tw1, tb1, ty = tensor("w1", w1, True), tensor("b1", b1, True), tensor("y", y)
    tp2, ti2 = tensor("pool2", p2), tensor("pool2_idx", i2)
    tw2, tb2, tt2 = tensor("w2", w2, True), tensor("b2", b2, True), tensor("t2", t2)
    m.add_op("CUSTOM", [tx], [tp1, ti1], custom_code="MaxPoolingWithArgmax2D",
             custom_options=pool_options(SAME, (2, 2), (2, 2), ACT_NONE))
    m.add_op("CUSTOM", [tp1, ti1], [tu1], custom_code="MaxUnpooling2D",
             custom_options=pool_options(SAME, (2, 2), (2, 2), ACT_NONE))
    m.add_op("ADD", [tu1, th], [ta1], {"fused_activation_function": 0})
    m.add_op("CUSTOM", [ta1, tw1, tb1], [ty], custom_code="Convolution2DTransposeBias",
             custom_options=tconv_options(SAME, (2, 2)))
    m.add_op("CUSTOM", [tx], [tp2, ti2], custom_code="MaxPoolingWithArgmax2D",
             custom_options=pool_options(VALID, (2, 2), (3, 3), ACT_RELU6))
    m.add_op("CUSTOM", [tx, tw2, tb2], [tt2], custom_code="Convolution2DTransposeBias",
             custom_options=tconv_options(VALID, (2, 1)))
    m.inputs = [tx]
    m.outputs = [tp1, ti1, tu1, ty, tp2, ti2, tt2]
    return m, [x], [p1, i1, u1, y, p2, i2, t2]


def unknown_op_model():
    m = T.Model(description="tfcc modelgen: an unregistered custom operator")
    a = m.add_tensor("a", FLOAT32, [2])
    b = m.add_tensor("b", FLOAT32, [2])
    m.add_op("CUSTOM", [a], [b], custom_code="MyUnregisteredOp", custom_options=b"\x01\x02")
    m.inputs, m.outputs = [a], [b]
    return m


def keep_positive_model():
    """A custom operator whose output shape depends on input values (tests/examples/
    test_custom_dynamic.c registers it): x [8] -> KeepPositive -> p (the positive values, a
    dynamic tensor) -> ADD 1 -> y; KeepPositive of a constant -> q (with the fold pass on, a node
    of constant inputs whose output is still sized while running)."""
    m = T.Model(description="tfcc modelgen: a custom operator with a run-time-shaped output")
    x = m.add_tensor("x", FLOAT32, [8])
    p = m.add_tensor("p", FLOAT32, [8])
    one = m.add_tensor("one", FLOAT32, [1], data=T.pack(FLOAT32, [1.0]))
    y = m.add_tensor("y", FLOAT32, [8])
    c = m.add_tensor("c", FLOAT32, [5], data=T.pack(FLOAT32, [-1.0, 2.0, 0.0, 3.5, -4.0]))
    q = m.add_tensor("q", FLOAT32, [5])
    m.add_op("CUSTOM", [x], [p], custom_code="KeepPositive")
    m.add_op("ADD", [p, one], [y], {"fused_activation_function": 0})
    m.add_op("CUSTOM", [c], [q], custom_code="KeepPositive")
    m.inputs, m.outputs = [x], [p, y, q]
    return m


def bad_options_model(options):
    """MaxPoolingWithArgmax2D with hostile options (too short, padding 0, ...)."""
    m = T.Model(description="tfcc modelgen: MaxPoolingWithArgmax2D with bad options")
    x = m.add_tensor("x", FLOAT32, [1, 4, 4, 1])
    y = m.add_tensor("y", FLOAT32, [1, 2, 2, 1])
    i = m.add_tensor("i", FLOAT32, [1, 2, 2, 1])
    m.add_op("CUSTOM", [x], [y, i], custom_code="MaxPoolingWithArgmax2D", custom_options=options)
    m.inputs, m.outputs = [x], [y, i]
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    m, ins, outs = build(casekit.Rng(20261202))
    with open(os.path.join(args.out, "mediapipe_ops.tflite"), "wb") as f:
        f.write(T.serialize(m))
    for i, a in enumerate(ins):
        npy.save(os.path.join(args.out, "in%d.npy" % i), "float32", list(a.shape), a.ravel().tolist())
    for i, a in enumerate(outs):
        npy.save(os.path.join(args.out, "out%d.npy" % i), "float32", list(a.shape), a.ravel().tolist())
    with open(os.path.join(args.out, "mediapipe_unknown_op.tflite"), "wb") as f:
        f.write(T.serialize(unknown_op_model()))
    with open(os.path.join(args.out, "keep_positive.tflite"), "wb") as f:
        f.write(T.serialize(keep_positive_model()))
    hostile = {"short": struct.pack("<2i", SAME, 2), "padding0": pool_options(0, (2, 2), (2, 2), ACT_NONE),
               "stride0": pool_options(SAME, (0, 2), (2, 2), ACT_NONE)}
    for tag, opts in hostile.items():
        with open(os.path.join(args.out, "mediapipe_bad_%s.tflite" % tag), "wb") as f:
            f.write(T.serialize(bad_options_model(opts)))


if __name__ == "__main__":
    main()
