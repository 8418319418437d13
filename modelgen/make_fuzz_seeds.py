#!/usr/bin/env python3
"""Seed models for fuzz_model_run (tests/fuzz/make_corpus.sh) that the conformance cases do not
give it: single operators whose constant weights hold whole 4 KiB pages, so that a load from a
file (TFCC_FUZZ_LOAD=file) packs them and gives those pages back (runtime/const_release.h), and
whose shapes a resize (TFCC_FUZZ_RESIZE=1) can make grouped, batched or wider. One per packing
of the code landed in stops 56-57: the float32 / int8 / 16x8 CONV_2D (grouped after the
release: lifecycle.test_grouped_release), a float32 CONV_2D for precision bf16 (its packing
gives the filter back too), the fused int16x8 depthwise (kernels/q16-dwconv), a hybrid
depthwise of depth multiplier 2 (the int32 widened filter, weights-cache block 22), int8 /
int16 / 16x8 BATCH_MATMUL with a constant rhs (kernels/q16-bmm), a hybrid BATCH_MATMUL with a
batched int8 rhs whose lhs batches gather (fuzz57), FULLY_CONNECTED in float32 / int8 / 16x8 /
hybrid, a float32 TRANSPOSE_CONV, and (review59) a DENSIFY of 1x4 block-sparse weights whose
dense form fills pages (weights-cache block 23) feeding a FULLY_CONNECTED. Each file is under
64 KiB (fuzz_model_run's -max_len).

usage: python3 modelgen/make_fuzz_seeds.py --out DIR"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_schema as S  # noqa: E402
from casekit import Rng, T, f32, seed_of, single, write_models_main  # noqa: E402
from op_cases import act, bias, out_for, qscale, weights  # noqa: E402
import sparse_cases  # noqa: E402

F32 = S.FLOAT32


def wts(name, dt, shape, qdim, per_channel=True):
    return weights(Rng(seed_of(name + "/w")), dt, shape, qdim, per_channel=per_channel, wmax=0.5)


def fbias(name, n):
    rng = Rng(seed_of(name + "/b"))
    return T(F32, [n], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(n)])


def qbias(name, dt, n, x, ws):
    return bias(Rng(seed_of(name + "/b")), dt, n, qscale(x), ws, 0.5)


def conv(name, dt, ishape, oc, k, fic=None, hybrid=False):
    fic = fic or ishape[3]
    x = act("f32" if hybrid else dt, ishape, -2.0, 2.0)
    w, ws = wts(name, "i8" if hybrid else dt, [oc, k, k, fic], 0)
    b = fbias(name, oc) if dt == "f32" or hybrid else qbias(name, dt, oc, x, ws)
    y = T(F32, ishape[:3] + [oc]) if hybrid else out_for(dt, ishape[:3] + [oc], math.sqrt(k * k * fic) * 0.3)
    return single(name, "CONV_2D", [x, w, b], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1})


def depthwise(name, dt, ishape, mult, hybrid=False):
    oc = ishape[3] * mult
    x = act("f32" if hybrid else dt, ishape, -2.0, 2.0)
    w, ws = wts(name, "i8" if hybrid else dt, [1, 3, 3, oc], 3)
    b = fbias(name, oc) if dt == "f32" or hybrid else qbias(name, dt, oc, x, ws)
    y = T(F32, ishape[:3] + [oc]) if hybrid else out_for(dt, ishape[:3] + [oc], 3 * 0.3)
    return single(name, "DEPTHWISE_CONV_2D", [x, w, b], [y],
                  {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": mult})


def fully_connected(name, dt, batch, k, units, hybrid=False):
    x = act("f32" if hybrid else dt, [batch, k], -2.0, 2.0)
    w, ws = wts(name, "i8" if hybrid else dt, [units, k], 0)
    b = fbias(name, units) if dt == "f32" or hybrid else qbias(name, dt, units, x, ws)
    y = T(F32, [batch, units]) if hybrid else out_for(dt, [batch, units], math.sqrt(k) * 0.3)
    return single(name, "FULLY_CONNECTED", [x, w, b], [y], {})


def batch_matmul(name, xdt, wdt, lshape, rshape, hybrid=False):
    x = act(xdt, lshape, -2.0, 2.0)
    w, _ = wts(name, wdt, rshape, len(rshape) - 1, per_channel=False)
    batch = [max(a, b) for a, b in zip([1] * (len(rshape) - len(lshape)) + lshape[:-2],
                                       [1] * (len(lshape) - len(rshape)) + rshape[:-2])]
    oshape = batch + [lshape[-2], rshape[-1]]
    y = T(F32, oshape) if hybrid else out_for(xdt, oshape, math.sqrt(lshape[-1]) * 0.3)
    return single(name, "BATCH_MATMUL", [x, w], [y], {"adj_x": False, "adj_y": False})


def transpose_conv(name, ishape, oc, k):
    rng = Rng(seed_of(name + "/w"))
    n = oc * k * k * ishape[3]
    w = T(F32, [oc, k, k, ishape[3]], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(n)])
    oshape = [ishape[0], ishape[1] * 2, ishape[2] * 2, oc]
    os_ = T(S.INT32, [4], const=oshape)
    return single(name, "TRANSPOSE_CONV", [os_, w, act("f32", ishape, -2.0, 2.0)], [T(F32, oshape)],
                  {"padding": "SAME", "stride_w": 2, "stride_h": 2})


def cases():
    return [
        conv("fz_conv_f32_c32", "f32", [1, 4, 4, 32], 32, 3),  # 36 KiB filter (bf16 too)
        conv("fz_conv_i8_c64", "i8", [1, 4, 4, 64], 32, 3),
        conv("fz_conv_i16_c64", "i16", [1, 4, 4, 64], 32, 3),
        conv("fz_conv_f32_grouped", "f32", [1, 4, 4, 64], 32, 3, fic=32),
        conv("fz_conv_hybrid_c64", "f32", [1, 4, 4, 64], 32, 3, hybrid=True),
        depthwise("fz_dw_f32_c1024", "f32", [1, 3, 3, 1024], 1),
        depthwise("fz_dw_i16_c1024", "i16", [1, 3, 3, 1024], 1),
        depthwise("fz_dw_i8_c1024", "i8", [1, 3, 3, 1024], 1),
        depthwise("fz_dw_hybrid_m2", "f32", [1, 3, 3, 1024], 2, hybrid=True),
        fully_connected("fz_fc_f32", "f32", 3, 96, 96),
        fully_connected("fz_fc_i8", "i8", 3, 192, 96),
        fully_connected("fz_fc_i16", "i16", 3, 192, 96),
        fully_connected("fz_fc_hybrid", "f32", 3, 192, 96, hybrid=True),
        batch_matmul("fz_bmm_f32_const", "f32", "f32", [2, 3, 96], [2, 96, 48]),
        batch_matmul("fz_bmm_i8_const", "i8", "i8", [2, 3, 128], [2, 128, 64]),
        batch_matmul("fz_bmm_i16_i8w", "i16", "i8", [2, 3, 128], [2, 128, 64]),
        batch_matmul("fz_bmm_hybrid_batched", "f32", "i8", [5, 2, 3, 128], [2, 128, 64], hybrid=True),
        transpose_conv("fz_tconv_f32", [1, 3, 3, 32], 16, 3),
        sparse_cases.fc_case("fz_densify_f32_b1x4_fc", [64, 96], {**sparse_cases.B1x4, "index_types": sparse_cases.IDX_U16}),
    ]


# ---------------------------------------------------------------- fuzz62: raw multi-part seeds
# Models the single-operator cases above cannot be: a signature of a subgraph nothing calls
# (fuzz_model_run gives each signature a session), and constants sharing one buffer (a weights
# tensor that one node packs and another reads in place; two int8 FULLY_CONNECTED on one buffer
# under other scales; a variable tensor whose initial value is a constant's buffer).
def fbytes(name, n, bound=0.5):
    rng = Rng(seed_of(name))
    return S.pack(F32, [f32(rng.uniform(-bound, bound)) for _ in range(n)])


def sig_second_subgraph():
    m = S.Model(description="fuzz62: a signature of subgraph 1, which nothing calls")
    x = m.add_tensor("x", F32, [1, 64])
    w = m.add_tensor("w", F32, [32, 64], data=fbytes("sig/w", 32 * 64))
    y = m.add_tensor("y", F32, [1, 32])
    m.add_op("FULLY_CONNECTED", [x, w, -1], [y], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x], [y]
    si, sg = m.add_subgraph("second")
    a = sg.add_tensor("a", F32, [2, 64])
    c = sg.add_tensor("c", F32, [64, 64], data=fbytes("sig/c", 64 * 64))
    t = sg.add_tensor("t", F32, [2, 64])
    b = sg.add_tensor("b", F32, [2, 64])
    sg.add_op("FULLY_CONNECTED", [a, c, -1], [t], {"fused_activation_function": 1})
    sg.add_op("MUL", [t, a], [b], {"fused_activation_function": 0})
    sg.inputs, sg.outputs = [a], [b]
    m.signatures = [("serving_default", 0, [x], [y]), ("second", si, [a], [b]),
                    ("second_again", si, [a], [t])]
    return S.serialize(m)


def alias_fc_add(n=64, wseed="alias/w", shared=True):
    """shared=False (make_update_seeds.py): the ADD operand a buffer of its own, other values."""
    m = S.Model(description="fuzz62: FULLY_CONNECTED's weights buffer also an ADD operand")
    x = m.add_tensor("x", F32, [1, n])
    w = m.add_tensor("w", F32, [n, n], data=fbytes(wseed, n * n))
    x2 = m.add_tensor("x2", F32, [n, n])
    if shared:
        w2 = m.add_tensor("w_again", F32, [n, n])
        m.tensors[w2].buffer_of = (0, w)
    else:
        w2 = m.add_tensor("w_again", F32, [n, n], data=fbytes(wseed + "2", n * n))
    y1 = m.add_tensor("y1", F32, [1, n])
    y2 = m.add_tensor("y2", F32, [n, n])
    m.add_op("FULLY_CONNECTED", [x, w, -1], [y1], {"fused_activation_function": 0})
    m.add_op("ADD", [x2, w2], [y2], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x, x2], [y1, y2]
    return S.serialize(m)


def alias_fc_i8():
    m = S.Model(description="fuzz62: two int8 FULLY_CONNECTED on one weights buffer, other scales")
    rng = Rng(seed_of("alias_i8/w"))
    wdata = S.pack(S.INT8, [rng.randint(-127, 127) for _ in range(64 * 64)])
    x = m.add_tensor("x", S.INT8, [1, 64], quant=dict(scale=[0.05], zero_point=[3]))
    w = m.add_tensor("w", S.INT8, [64, 64], data=wdata, quant=dict(scale=[0.01], zero_point=[0]))
    x2 = m.add_tensor("x2", S.INT8, [2, 64], quant=dict(scale=[0.02], zero_point=[-5]))
    w2 = m.add_tensor("w_again", S.INT8, [64, 64], quant=dict(scale=[0.004], zero_point=[0]))
    m.tensors[w2].buffer_of = (0, w)
    y1 = m.add_tensor("y1", S.INT8, [1, 64], quant=dict(scale=[0.1], zero_point=[1]))
    y2 = m.add_tensor("y2", S.INT8, [2, 64], quant=dict(scale=[0.03], zero_point=[-2]))
    m.add_op("FULLY_CONNECTED", [x, w, -1], [y1], {"fused_activation_function": 0})
    m.add_op("FULLY_CONNECTED", [x2, w2, -1], [y2], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x, x2], [y1, y2]
    return S.serialize(m)


def alias_rnn_state():
    m = S.Model(description="fuzz62: an RNN whose hidden state variable starts from the bias buffer")
    x = m.add_tensor("x", F32, [1, 8])
    w = m.add_tensor("w", F32, [8, 8], data=fbytes("rnn/w", 64))
    r = m.add_tensor("r", F32, [8, 8], data=fbytes("rnn/r", 64))
    b = m.add_tensor("b", F32, [8], data=fbytes("rnn/b", 8))
    h = m.add_tensor("h", F32, [1, 8], is_variable=True)
    m.tensors[h].buffer_of = (0, b)
    y = m.add_tensor("y", F32, [1, 8])
    m.add_op("RNN", [x, w, r, b, h], [y], {"fused_activation_function": 4})
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def alias_output_const():
    m = S.Model(description="fuzz62: subgraph outputs a constant and an input")
    x = m.add_tensor("x", F32, [2, 4])
    c = m.add_tensor("c", F32, [2, 4], data=fbytes("oc/c", 8))
    y = m.add_tensor("y", F32, [2, 4])
    m.add_op("ADD", [x, c], [y], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x], [y, c, x, y]
    return S.serialize(m)


RAW_SEEDS = [
    ("fz_sig_second_subgraph", sig_second_subgraph),
    ("fz_alias_fc_add", alias_fc_add),
    ("fz_alias_fc_i8", alias_fc_i8),
    ("fz_alias_rnn_state", alias_rnn_state),
    ("fz_alias_output_const", alias_output_const),
]


def main():
    write_models_main(cases)
    out = sys.argv[sys.argv.index("--out") + 1]
    for name, make in RAW_SEEDS:
        path = os.path.join(out, name + ".tflite")
        with open(path, "wb") as f:
            f.write(make())
        print("wrote", path)


if __name__ == "__main__":
    main()
