#!/usr/bin/env python3
"""Seeds for fuzz_weight_update (tests/fuzz/fuzz_weight_update.c, fuzz63): each file is a base
model and an update of it, framed as the target reads them (4 bytes little-endian base size,
a flags byte, 3 zero bytes, the base, the update). Bases: float32 and int8 FULLY_CONNECTED,
two int8 FULLY_CONNECTED through an int8 intermediate, an int8 CONV_2D, constants sharing one
buffer, a FULLY_CONNECTED reading 1x4 block-sparse weights itself; updates: new weights (taken),
the same bytes, and one change each of what "same graph" covers (docs/lifecycle.md) or leaves
free: a constant's shape, dtype, quantization (scales, zero points, per-tensor / per-channel),
an input's or the intermediate's quantization, sparsity (dense <-> sparse, another block
pattern), the buffer count (extra unused buffers, constants sharing or splitting a buffer), a
missing bias. With --control-flow DIR, the pairs of modelgen/make_cf_variants.py's files there
(while_counter, signatures and their variants).

usage: python3 modelgen/make_update_seeds.py --out DIR [--control-flow DIR]"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_schema as S  # noqa: E402
from casekit import Rng, f32, seed_of  # noqa: E402
import sparse_tensor  # noqa: E402
from make_fuzz_seeds import alias_fc_add  # noqa: E402

F32, I8, I32 = S.FLOAT32, S.INT8, S.INT32


def fvals(name, n, bound=0.5):
    rng = Rng(seed_of(name))
    return [f32(rng.uniform(-bound, bound)) for _ in range(n)]


def ivals(name, n, lo=-127, hi=127):
    rng = Rng(seed_of(name))
    return [rng.randint(lo, hi) for _ in range(n)]


def fc_f32(wseed="fc_f32/w", wshape=(32, 64), wdtype=F32, bias=True, extra_buffers=0,
           sparse=None):
    m = S.Model(description="fuzz63: float32 FULLY_CONNECTED")
    x = m.add_tensor("x", F32, [1, 64])
    n = wshape[0] * wshape[1]
    if wdtype == I8:  # hybrid: int8 weights of one scale
        w = m.add_tensor("w", I8, list(wshape), data=S.pack(I8, ivals(wseed, n)),
                         quant=dict(scale=[0.004], zero_point=[0]))
    elif sparse is not None:
        vals = [v if (i // 4) % 3 == 0 else 0.0 for i, v in enumerate(fvals(wseed, n))]
        stored, sp = sparse_tensor.encode(list(wshape), vals, **sparse)
        w = m.add_tensor("w", F32, list(wshape), data=S.pack(F32, stored), sparsity=sp)
    else:
        w = m.add_tensor("w", F32, list(wshape), data=S.pack(F32, fvals(wseed, n)))
    b = m.add_tensor("b", F32, [32], data=S.pack(F32, fvals(wseed + "/b", 32))) if bias else -1
    y = m.add_tensor("y", F32, [1, 32])
    m.add_op("FULLY_CONNECTED", [x, w, b], [y], {"fused_activation_function": 1})
    m.inputs, m.outputs = [x], [y]
    m.extra_buffers = [S.pack(F32, fvals("extra%d" % i, 4)) for i in range(extra_buffers)]
    return S.serialize(m)


B1x4 = {"formats": [sparse_tensor.DENSE, sparse_tensor.CSR, sparse_tensor.DENSE],
        "block_map": [1], "block_size": [4], "index_types": sparse_tensor.IDX_U8}
B1x4_U16 = dict(B1x4, index_types=sparse_tensor.IDX_U16)


def fc_sparse(wseed="fc_sparse/w", sparse=B1x4):
    return fc_f32(wseed, sparse=sparse)


def fc_i8(wseed="fc_i8/w", wscale=None, wzp=None, per_channel=True, xq=(0.05, 3), yq=(0.1, 1),
          bseed="fc_i8/b"):
    m = S.Model(description="fuzz63: int8 FULLY_CONNECTED, per-channel weights")
    units, k = 32, 64
    x = m.add_tensor("x", I8, [2, k], quant=dict(scale=[xq[0]], zero_point=[xq[1]]))
    ws = wscale or [f32(0.002 + 0.0001 * i) for i in range(units)]
    if per_channel:
        wq = dict(scale=ws, zero_point=wzp or [0] * units, quantized_dimension=0)
        bs = [f32(xq[0] * s) for s in ws]
        bq = dict(scale=bs, zero_point=[0] * units, quantized_dimension=0)
    else:
        wq = dict(scale=[ws[0]], zero_point=[(wzp or [0])[0]])
        bq = dict(scale=[f32(xq[0] * ws[0])], zero_point=[0])
    w = m.add_tensor("w", I8, [units, k], data=S.pack(I8, ivals(wseed, units * k)), quant=wq)
    b = m.add_tensor("b", I32, [units], data=S.pack(I32, ivals(bseed, units, -2000, 2000)),
                     quant=bq)
    y = m.add_tensor("y", I8, [2, units], quant=dict(scale=[yq[0]], zero_point=[yq[1]]))
    m.add_op("FULLY_CONNECTED", [x, w, b], [y], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def fc_i8_chain(wseed="chain/w", hq=(0.08, -4)):
    m = S.Model(description="fuzz63: two int8 FULLY_CONNECTED through an int8 intermediate")
    x = m.add_tensor("x", I8, [1, 64], quant=dict(scale=[0.05], zero_point=[0]))
    w1 = m.add_tensor("w1", I8, [48, 64], data=S.pack(I8, ivals(wseed + "1", 48 * 64)),
                      quant=dict(scale=[0.003], zero_point=[0]))
    h = m.add_tensor("h", I8, [1, 48], quant=dict(scale=[hq[0]], zero_point=[hq[1]]))
    w2 = m.add_tensor("w2", I8, [16, 48], data=S.pack(I8, ivals(wseed + "2", 16 * 48)),
                      quant=dict(scale=[0.005], zero_point=[0]))
    y = m.add_tensor("y", I8, [1, 16], quant=dict(scale=[0.07], zero_point=[5]))
    m.add_op("FULLY_CONNECTED", [x, w1, -1], [h], {"fused_activation_function": 1})
    m.add_op("FULLY_CONNECTED", [h, w2, -1], [y], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def conv_i8(wseed="conv_i8/w", wq_scale=0.01, fshape=(16, 3, 3, 8)):
    m = S.Model(description="fuzz63: int8 CONV_2D")
    x = m.add_tensor("x", I8, [1, 6, 6, 8], quant=dict(scale=[0.04], zero_point=[-2]))
    n = fshape[0] * fshape[1] * fshape[2] * fshape[3]
    w = m.add_tensor("w", I8, list(fshape), data=S.pack(I8, ivals(wseed, n)),
                     quant=dict(scale=[f32(wq_scale * (1 + 0.1 * i)) for i in range(16)],
                                zero_point=[0] * 16, quantized_dimension=0))
    b = m.add_tensor("b", I32, [16], data=S.pack(I32, ivals(wseed + "/b", 16, -500, 500)),
                     quant=dict(scale=[f32(0.04 * wq_scale * (1 + 0.1 * i)) for i in range(16)],
                                zero_point=[0] * 16, quantized_dimension=0))
    y = m.add_tensor("y", I8, [1, 6, 6, 16], quant=dict(scale=[0.09], zero_point=[3]))
    m.add_op("CONV_2D", [x, w, b], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1})
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def alias(shared=True, wseed="alias/w"):
    """FULLY_CONNECTED's weights and an ADD operand: one buffer (shared) or two equal-sized
    buffers with other values (the buffer count one more)."""
    return alias_fc_add(32, wseed, shared)


def frame(base, update, flags=0):
    return struct.pack("<I", len(base)) + bytes([flags, 0, 0, 0]) + base + update


def pairs():
    f = fc_f32()
    i8 = fc_i8()
    ch = fc_i8_chain()
    cv = conv_i8()
    sp = fc_sparse()
    al = alias(True)
    yield "fc_f32_new_weights", f, fc_f32("fc_f32/w2")
    yield "fc_f32_same", f, f
    yield "fc_f32_w_shape", f, fc_f32(wshape=(64, 32))
    yield "fc_f32_w_hybrid_i8", f, fc_f32(wdtype=I8)
    yield "fc_f32_no_bias", f, fc_f32(bias=False)
    yield "fc_f32_extra_buffers", f, fc_f32("fc_f32/w2", extra_buffers=3)
    yield "fc_f32_w_sparse", f, fc_sparse("fc_f32/w")
    yield "fc_sparse_new_values", sp, fc_sparse("fc_sparse/w2")
    yield "fc_sparse_u16_indices", sp, fc_sparse(sparse=B1x4_U16)
    yield "fc_sparse_to_dense", sp, fc_f32("fc_sparse/w")
    yield "fc_i8_new_weights", i8, fc_i8("fc_i8/w2", bseed="fc_i8/b2")
    yield "fc_i8_w_scales", i8, fc_i8(wscale=[f32(0.004 + 0.0003 * i) for i in range(32)])
    yield "fc_i8_w_zero_points", i8, fc_i8(wzp=[i % 3 for i in range(32)])
    yield "fc_i8_per_tensor", i8, fc_i8(per_channel=False)
    yield "fc_i8_input_quant", i8, fc_i8(xq=(0.06, 3))
    yield "fc_i8_output_quant", i8, fc_i8(yq=(0.2, 1))
    yield "fc_i8_chain_new_weights", ch, fc_i8_chain("chain/w2")
    yield "fc_i8_chain_h_quant", ch, fc_i8_chain(hq=(0.02, 17))
    yield "conv_i8_new_weights", cv, conv_i8("conv_i8/w2", 0.02)
    yield "conv_i8_w_shape", cv, conv_i8(fshape=(16, 1, 9, 8))
    yield "alias_split", al, alias(False)
    yield "alias_join", alias(False), al
    yield "alias_new_weights", al, alias(True, "alias/w2")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--control-flow")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    seeds = [(n, frame(b, u, fl)) for fl in (0, 7) for n, b, u in
             [(n + ("_f7" if fl else ""), b, u) for n, b, u in pairs()]]
    if a.control_flow:
        cf = [("while_counter", "while_counter.w2"), ("while_counter", "while_counter.body_shape"),
              ("signatures", "signatures.w3"), ("signatures", "signatures.flex_decode"),
              ("signatures", "signatures.bad_decode"),
              ("signatures.flex_decode", "signatures.flex_decode.w3")]
        for base, upd in cf:
            pb, pu = (os.path.join(a.control_flow, n + ".tflite") for n in (base, upd))
            if os.path.exists(pb) and os.path.exists(pu):
                with open(pb, "rb") as fb, open(pu, "rb") as fu:
                    b, u = fb.read(), fu.read()
                seeds.append(("cf_" + upd, frame(b, u, 4)))
    for name, data in seeds:
        with open(os.path.join(a.out, "upd_" + name), "wb") as f:
            f.write(data)
    print("%d update seeds in %s" % (len(seeds), a.out))


if __name__ == "__main__":
    main()
