"""Conformance cases of the operator versions the newest standard resolver registers above what
tfcc accepted before (ops work): run-time int4 tensors (QUANTIZE v4, DEQUANTIZE v6, GATHER v7,
TRANSPOSE v7), quantized int16 EQUAL v5 / NOT_EQUAL v4, SQRT v2, FULLY_CONNECTED v12 (hybrid per-channel), int4 weights (FULLY_CONNECTED v10/v13, CONV_2D and
DEPTHWISE_CONV_2D v7, EMBEDDING_LOOKUP v4, DEQUANTIZE v6, CAST v6), int32 bias with int16
activations (quantized_bias_type: CONV_2D v8, FULLY_CONNECTED v11, TRANSPOSE_CONV v5), and the
new dtypes of CAST v7 (bfloat16), PAD/PADV2 v5 and GATHER_ND v5 (bool), RSQRT v3 (int16),
DYNAMIC_UPDATE_SLICE v4 (int16). Called from opsc_cases.cases() with its add()."""
import flexbuf
import tflite_schema as S
from casekit import Case, Rng, T, choose_qparams, f32, numel, seed_of, single

F32, I32, I64, I8, I16, BOOL = S.FLOAT32, S.INT32, S.INT64, S.INT8, S.INT16, S.BOOL
I4, BF16 = S.INT4, S.BFLOAT16
INT32_BIAS = 2  # TensorType INT32 for quantized_bias_type


def w4(rng, shape, qdim, per_channel=True, wmax=0.5):
    """Constant int4 weights (-8..7, both ends present), symmetric, per channel along qdim."""
    n = numel(shape)
    ch = shape[qdim] if per_channel else 1
    scales = [f32(wmax / 7.0 * rng.uniform(0.3, 1.0)) for _ in range(ch)]
    vals = [rng.randint(-8, 7) for _ in range(n)]
    vals[0], vals[-1] = -8, 7
    q = {"scale": scales, "zero_point": [0] * ch, "quantized_dimension": qdim if per_channel else 0}
    return T(I4, shape, q=q, const=vals), scales


def w8(rng, shape, qdim, wmax=0.5):
    ch = shape[qdim]
    scales = [f32(wmax / 127.0 * rng.uniform(0.3, 1.0)) for _ in range(ch)]
    vals = [rng.randint(-127, 127) for _ in range(numel(shape))]
    return T(I8, shape, q={"scale": scales, "zero_point": [0] * ch, "quantized_dimension": qdim},
             const=vals), scales


def qbias(rng, n, in_scale, w_scales, dtype, bmax=0.5):
    scales = [f32(in_scale * w_scales[i if len(w_scales) > 1 else 0]) for i in range(n)]
    if len(w_scales) == 1:
        scales = scales[:1]
    vals = [int(round(rng.uniform(-bmax, bmax) / scales[i if len(scales) > 1 else 0])) for i in range(n)]
    return T(dtype, [n], q={"scale": scales, "zero_point": [0] * len(scales), "quantized_dimension": 0},
             const=vals)


def qact(d, shape, lo, hi):
    return T(d, shape, q=choose_qparams(d, lo, hi))


def int4_weight_cases(add):
    # FULLY_CONNECTED int8 x int4 per channel (v10), int16 x int4 (v13, int64 bias)
    for tag, d, bdt, ver in (("i8_w4", I8, I32, 10), ("i16_w4", I16, I64, 13)):
        name = "fully_connected_%s" % tag
        rng = Rng(seed_of(name))
        x = qact(d, [3, 9], -2.0, 2.0)
        w, ws = w4(rng, [5, 9], 0, per_channel=(d == I8))
        b = qbias(rng, 5, x.q[0], ws, bdt)
        add(single(name, "FULLY_CONNECTED", [x, w, b], [qact(d, [3, 5], -3.0, 3.0)], {"_version": ver}))
    # FULLY_CONNECTED v12: hybrid (float32 input) with per-channel int8 weights
    name = "fully_connected_hybrid_pc_v12"
    rng = Rng(seed_of(name))
    w, _ = w8(rng, [4, 8], 0)
    add(single(name, "FULLY_CONNECTED", [T(F32, [2, 8], lo=-2.0, hi=2.0), w,
                                         T(F32, [4], const=[f32(rng.uniform(-0.5, 0.5)) for _ in range(4)])],
               [T(F32, [2, 4])], {"_version": 12}))
    # CONV_2D / DEPTHWISE_CONV_2D int8 x int4 per channel (v7)
    name = "conv_2d_i8_w4"
    rng = Rng(seed_of(name))
    x = qact(I8, [1, 5, 6, 3], -2.0, 2.0)
    w, ws = w4(rng, [4, 3, 3, 3], 0)
    b = qbias(rng, 4, x.q[0], ws, I32)
    add(single(name, "CONV_2D", [x, w, b], [qact(I8, [1, 5, 6, 4], -3.0, 3.0)],
               {"padding": "SAME", "stride_w": 1, "stride_h": 1, "_version": 7}))
    name = "depthwise_conv_2d_i8_w4"
    rng = Rng(seed_of(name))
    x = qact(I8, [1, 5, 5, 4], -2.0, 2.0)
    w, ws = w4(rng, [1, 3, 3, 4], 3)
    b = qbias(rng, 4, x.q[0], ws, I32)
    add(single(name, "DEPTHWISE_CONV_2D", [x, w, b], [qact(I8, [1, 3, 3, 4], -3.0, 3.0)],
               {"padding": "VALID", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1, "_version": 7}))
    # EMBEDDING_LOOKUP over an int4 table, per row (v4): float output
    rng = Rng(seed_of("embedding_lookup_w4"))
    tab, _ = w4(rng, [5, 6], 0)
    add(single("embedding_lookup_w4_per_row", "EMBEDDING_LOOKUP", [T(I32, [4], values=[2, 0, 4, 2]), tab],
               [T(F32, [4, 6])], {"_version": 4}))
    # CAST int4 -> float32 (v6). (DEQUANTIZE v6: int4_runtime_cases)
    rng = Rng(seed_of("cast_w4"))
    add(single("cast_w4_f32", "CAST", [T(I4, [2, 7], const=[rng.randint(-8, 7) for _ in range(14)])],
               [T(F32, [2, 7])], {"_version": 6}))


def int32_bias_cases(add):
    """int16 activations, int8 weights, int32 bias (quantized_bias_type = INT32)."""
    name = "fully_connected_i16_bias32"
    rng = Rng(seed_of(name))
    x = qact(I16, [2, 8], -2.0, 2.0)
    w, ws = w8(rng, [4, 8], 0)
    b = qbias(rng, 4, x.q[0], ws, I32)
    add(single(name, "FULLY_CONNECTED", [x, w, b], [qact(I16, [2, 4], -3.0, 3.0)],
               {"quantized_bias_type": INT32_BIAS, "_version": 11}))
    name = "conv_2d_i16_bias32"
    rng = Rng(seed_of(name))
    x = qact(I16, [1, 4, 5, 2], -2.0, 2.0)
    w, ws = w8(rng, [3, 3, 3, 2], 0)
    b = qbias(rng, 3, x.q[0], ws, I32)
    add(single(name, "CONV_2D", [x, w, b], [qact(I16, [1, 4, 5, 3], -3.0, 3.0)],
               {"padding": "SAME", "stride_w": 1, "stride_h": 1, "quantized_bias_type": INT32_BIAS, "_version": 8}))
    # ungrouped: conv.cc's optimized 16x8 kernel (ruy, one rounding); grouped: the reference
    # kernel (int32 MultiplyByQuantizedMultiplier, two roundings). 1x1 convolutions as
    # AmbiqAI's neuralSPOT mut_model_data (1 LSB off, 47 at its output)
    for name, xs, ws_, os_, act in [("conv_2d_i16_bias32_1x1_relu", [1, 16, 16, 3], [8, 1, 1, 3], [1, 16, 16, 8], "RELU"),
                                    ("conv_2d_i16_bias32_1x1_grouped", [1, 16, 16, 4], [8, 1, 1, 2], [1, 16, 16, 8], "NONE")]:
        rng = Rng(seed_of(name))
        x = qact(I16, xs, -400.0, 400.0)
        w, ws = w8(rng, ws_, 0)
        b = qbias(rng, ws_[0], x.q[0], ws, I32, bmax=200.0)
        add(single(name, "CONV_2D", [x, w, b], [qact(I16, os_, -450.0, 450.0)],
                   {"padding": "VALID", "stride_w": 1, "stride_h": 1, "fused_activation_function": act,
                    "quantized_bias_type": INT32_BIAS, "_version": 8}))
    name = "transpose_conv_i16_bias32"
    rng = Rng(seed_of(name))
    x = qact(I16, [1, 3, 3, 2], -2.0, 2.0)
    w, ws = w8(rng, [3, 3, 3, 2], 0)
    b = qbias(rng, 3, x.q[0], ws, I32)
    add(single(name, "TRANSPOSE_CONV", [T(I32, [4], const=[1, 6, 6, 3]), w, x, b],
               [qact(I16, [1, 6, 6, 3], -3.0, 3.0)],
               {"padding": "SAME", "stride_w": 2, "stride_h": 2, "quantized_bias_type": INT32_BIAS, "_version": 5}))


def zero_scale_cases(add):
    """A per-tensor scale of 0 on an all-zero int16 constant that QUANTIZE requantizes (TFLite's
    quantizer writes it: AmbiqAI's neuralSPOT mut_model_data, CONCATENATION inputs): multiplier
    0, the output's zero point (tfcc refused the file at load)."""
    name = "quantize_i16_zero_scale_const_concat"
    x = qact(I16, [1, 4, 3], -3.0, 3.0)
    c = T(I16, [1, 4, 2], q={"scale": [0.0], "zero_point": [0]}, const=[0] * 8)
    add(Case(name, {"x": x, "c": c, "cq": T(I16, [1, 4, 2], q=x.q), "y": T(I16, [1, 4, 5], q=x.q)},
             [("QUANTIZE", ["c"], ["cq"], {}), ("CONCATENATION", ["cq", "x"], ["y"], {"axis": 2})],
             ["x"], ["y"]))
    # the product of such a constant (MUL: multiplier 0) gets a denormal scale (2^-141, as
    # AmbiqAI's nnse / nnsp LSTM `sequential/lstm/lstm_cell/mul`), read by an int16 ADD whose
    # input multiplier QuantizeMultiplier flushes to 0 (tfcc refused the files at load)
    name = "mul_add_i16_zero_scale_const_denormal"
    x = qact(I16, [1, 12], -1.0, 1.0)
    y = qact(I16, [1, 12], -0.98, 0.98)
    c = T(I16, [1, 12], q={"scale": [0.0], "zero_point": [0]}, const=[0] * 12)
    add(Case(name, {"x": x, "y": y, "c": c, "m": T(I16, [1, 12], q={"scale": [2.0 ** -141], "zero_point": [0]}),
                    "o": qact(I16, [1, 12], -1.3, 1.3)},
             [("MUL", ["x", "c"], ["m"], {}), ("ADD", ["m", "y"], ["o"], {"pot_scale_int16": False})],
             ["x", "y"], ["o"]))
    # gtcrn57: SUB takes the same general path as ADD (sub.cc PrepareGeneralSubOp: the input
    # multiplier s / (2 * max(s1, s2)) flushed to 0 by QuantizeMultiplier): the denormal product
    # as SUB's input 1 (y - m) and input 0 (m - y), int16 (pot_scale_int16 false) and int8
    name = "mul_sub_i16_zero_scale_const_denormal"
    x = qact(I16, [1, 12], -1.0, 1.0)
    y = qact(I16, [1, 12], -0.98, 0.98)
    c = T(I16, [1, 12], q={"scale": [0.0], "zero_point": [0]}, const=[0] * 12)
    add(Case(name, {"x": x, "y": y, "c": c, "m": T(I16, [1, 12], q={"scale": [2.0 ** -141], "zero_point": [0]}),
                    "o": qact(I16, [1, 12], -1.3, 1.3), "p": qact(I16, [1, 12], -1.1, 1.1)},
             [("MUL", ["x", "c"], ["m"], {}), ("SUB", ["y", "m"], ["o"], {"pot_scale_int16": False}),
              ("SUB", ["m", "y"], ["p"], {"pot_scale_int16": False})],
             ["x", "y"], ["o", "p"]))
    name = "mul_sub_i8_zero_scale_const_denormal"
    x = qact(I8, [2, 9], -1.0, 1.0)
    y = qact(I8, [2, 9], -0.9, 0.7)
    c = T(I8, [2, 9], q={"scale": [0.0], "zero_point": [3]}, const=[3] * 18)
    add(Case(name, {"x": x, "y": y, "c": c, "m": T(I8, [2, 9], q={"scale": [2.0 ** -140], "zero_point": [-5]}),
                    "o": qact(I8, [2, 9], -1.2, 1.0), "p": qact(I8, [2, 9], -0.8, 1.1)},
             [("MUL", ["x", "c"], ["m"], {}), ("SUB", ["y", "m"], ["o"], {}), ("SUB", ["m", "y"], ["p"], {})],
             ["x", "y"], ["o", "p"]))


def dtype_cases(add):
    # CAST v7: bfloat16 <-> float32 / int32 (bfloat16 values exact: 8 significant bits)
    bf = [1.0, -2.5, 0.15625, 3.0e5, -7.0e-3, 65280.0, 0.0, -0.0, 1.5e-38, 3.3895314e38]
    bf = [f32(v) for v in bf]
    add(single("cast_bf16_f32", "CAST", [T(BF16, [10], const=bf)], [T(F32, [10])], {"_version": 7}))
    add(single("cast_bf16_i32", "CAST", [T(BF16, [6], const=[1.0, -2.5, 129.0, -300.0, 0.75, 65280.0])],
               [T(I32, [6])], {"_version": 7}))
    # float32 -> bfloat16 -> float32 (round to nearest even, NaN kept) through an input
    vals = [1.0, 1.00390625, 1.01171875, -1.0078125, 3.14159265, 1e-40, -6.5e4, 3.4e38, 0.1, -0.2]
    add(_chain("cast_f32_bf16_f32", F32, [10], [f32(v) for v in vals], BF16))
    add(_chain("cast_i32_bf16_f32", I32, [6], [1, -3, 257, 65535, -1 << 20, 12345], BF16))
    # PAD / PADV2 v5, GATHER_ND v5: bool
    pads = T(I32, [2, 2], const=[1, 0, 2, 1])
    add(single("pad_bool", "PAD", [T(BOOL, [2, 3]), pads], [T(BOOL, [3, 6])], {"_version": 5}))
    add(single("padv2_bool", "PADV2", [T(BOOL, [2, 3]), pads, T(BOOL, [], const=[True])], [T(BOOL, [3, 6])],
               {"_version": 5}))
    add(single("gather_nd_bool", "GATHER_ND", [T(BOOL, [3, 4]), T(I32, [2, 2], const=[2, 1, 0, 3])],
               [T(BOOL, [2])], {"_version": 5}))
    # RSQRT v3 (int16, symmetric; inputs above the zero point), DYNAMIC_UPDATE_SLICE v4 (int16)
    add(single("rsqrt_i16_v3", "RSQRT", [T(I16, [2, 7], q=(f32(8.0 / 32767), 0), lo=1, hi=32767)],
               [T(I16, [2, 7], q=(f32(4.0 / 32767), 0))], {"_version": 3}))
    q = choose_qparams(I16, -2.0, 2.0)
    add(single("dynamic_update_slice_i16_v4", "DYNAMIC_UPDATE_SLICE",
               [T(I16, [4, 3], q=q), T(I16, [2, 2], q=q), T(I32, [2], values=[1, 2])], [T(I16, [4, 3], q=q)],
               {"_version": 4}))


def stablehlo_f16_cases(add):
    """STABLEHLO_ADD / MULTIPLY / MAXIMUM / MINIMUM in float16 (TFLite's kernels take Eigen::half):
    values exact in half precision, sums and products that round, overflow to infinity, NaN."""
    import struct
    rng = Rng(seed_of("stablehlo_f16"))

    def h(v):
        return struct.unpack("<e", struct.pack("<e", v))[0]
    n = 30
    a = [h(rng.uniform(-60.0, 60.0)) for _ in range(n)]
    b = [h(rng.uniform(-60.0, 60.0)) for _ in range(n)]
    a[:6] = [h(60000.0), h(-65504.0), float("nan"), 1.0, h(0.1), -0.0]
    b[:6] = [h(60000.0), h(-65504.0), 2.0, float("nan"), h(0.2), 0.0]
    for op in ("STABLEHLO_ADD", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_MINIMUM"):
        add(single("%s_f16" % op.lower(), op, [T(S.FLOAT16, [5, 6], values=a), T(S.FLOAT16, [5, 6], values=b)],
                   [T(S.FLOAT16, [5, 6])]))


def _chain(name, d, shape, values, mid):
    """x -> CAST(mid) -> CAST(float32): a bfloat16 intermediate seen through float32."""
    from casekit import Case
    tensors = {"x": T(d, shape, values=values), "m": T(mid, shape), "y": T(F32, shape)}
    ops = [("CAST", ["x"], ["m"], {"_version": 7}), ("CAST", ["m"], ["y"], {"_version": 7})]
    return Case(name, tensors, ops, ["x"], ["y"])


def _q4_chain(name, x, q4, ops, out_shape, extra=None):
    """x (float32) -> QUANTIZE (v4, int4) -> ops over int4 tensors -> DEQUANTIZE (v6) -> y: a
    run-time int4 tensor seen through float32 (the oracle reads no int4 outputs). ops: list of
    (op, [extra input keys], output shape, options); extra: key -> T."""
    from casekit import Case
    tensors = {"x": x, "q0": T(I4, x.shape, q=q4), "y": T(F32, out_shape)}
    tensors.update(extra or {})
    chain = [("QUANTIZE", ["x"], ["q0"], {"_version": 4})]
    last = "q0"
    for i, (op, more, shape, opts) in enumerate(ops):
        key = "q%d" % (i + 1)
        tensors[key] = T(I4, shape, q=q4)
        chain.append((op, [last] + more, [key], opts))
        last = key
    chain.append(("DEQUANTIZE", [last], ["y"], {"_version": 6}))
    return Case(name, tensors, chain, ["x"], ["y"])


def _const4_plus_x(name, c, mid_ops, out_shape):
    """A constant int4 tensor c through mid_ops, DEQUANTIZE (v6), then ADD with a float32 input
    of zeros (a model with no run-time input makes LiteRT.js's XNNPACK setup fail and hand back
    unwritten memory, see docs/operators.md)."""
    from casekit import Case
    tensors = {"c": c, "d": T(F32, out_shape), "x": T(F32, out_shape, values=[0.0] * numel(out_shape)),
               "y": T(F32, out_shape)}
    chain, last = [], "c"
    for i, (op, more, shape, opts, extra) in enumerate(mid_ops):
        key = "m%d" % i
        tensors[key] = T(I4, shape, q=c.q)
        tensors.update(extra)
        chain.append((op, [last] + more, [key], opts))
        last = key
    chain += [("DEQUANTIZE", [last], ["d"], {"_version": 6}), ("ADD", ["d", "x"], ["y"], {})]
    return Case(name, tensors, chain, ["x"], ["y"])


def int4_runtime_cases(add):
    """Run-time int4 tensors (tfcc: one value per byte): QUANTIZE v4, DEQUANTIZE v6, GATHER v7,
    TRANSPOSE v7, and constant int4 tensors into DEQUANTIZE / GATHER / TRANSPOSE. GATHER's
    slices have an even number of elements: TFLite's int4 GATHER copies packed bytes and
    leaves odd slices unwritten."""
    rng = Rng(seed_of("int4_runtime"))
    q4 = (f32(0.25), -2)
    # QUANTIZE float32 -> int4 -> DEQUANTIZE: values past both ends, halves (round away from 0)
    vals = [f32(rng.uniform(-3.0, 3.0)) for _ in range(30)]
    vals[:8] = [-9.0, 9.0, 0.125, -0.125, 0.375, -0.625, 1.375, f32(-2.5)]
    add(_q4_chain("quantize_f32_i4_v4", T(F32, [5, 6], values=vals), q4, [], [5, 6]))
    add(_q4_chain("quantize_f32_i4_zp0_v4", T(F32, [2, 9], lo=-2.5, hi=2.5), (f32(0.3), 0), [], [2, 9]))
    # GATHER v7: axis 0 (slices of 6), axis 1 with int64 indices (slices of 4), batch_dims 1
    x = T(F32, [4, 6], lo=-2.5, hi=2.5)
    add(_q4_chain("gather_i4_axis0_v7", x, q4,
                  [("GATHER", ["ix"], [5, 6], {"axis": 0, "_version": 7})], [5, 6],
                  {"ix": T(I32, [5], const=[3, 0, 2, 2, 1])}))
    x = T(F32, [2, 3, 4], lo=-2.5, hi=2.5)
    add(_q4_chain("gather_i4_axis1_i64_v7", x, q4,
                  [("GATHER", ["ix"], [2, 2, 2, 4], {"axis": 1, "_version": 7})], [2, 2, 2, 4],
                  {"ix": T(I64, [2, 2], const=[2, 0, 1, 1])}))
    x = T(F32, [2, 3, 2], lo=-2.5, hi=2.5)
    add(_q4_chain("gather_i4_batch_dims_v7", x, q4,
                  [("GATHER", ["ix"], [2, 2, 2], {"axis": 1, "batch_dims": 1, "_version": 7})], [2, 2, 2],
                  {"ix": T(I32, [2, 2], const=[2, 0, 1, 1])}))
    # TRANSPOSE v7 (TFLite unpacks, transposes, packs: any shape)
    x = T(F32, [2, 3, 5], lo=-2.5, hi=2.5)
    add(_q4_chain("transpose_i4_v7", x, q4,
                  [("TRANSPOSE", ["perm"], [5, 2, 3], {"_version": 7})], [5, 2, 3],
                  {"perm": T(I32, [3], const=[2, 0, 1])}))
    x = T(F32, [2, 1, 2, 4], lo=-2.5, hi=2.5)
    add(_q4_chain("transpose_i4_4d_then_gather_v7", x, q4,
                  [("TRANSPOSE", ["perm"], [2, 2, 4, 1], {"_version": 7}),
                   ("GATHER", ["ix"], [2, 2, 4, 1], {"axis": 1, "_version": 7})], [2, 2, 4, 1],
                  {"perm": T(I32, [4], const=[2, 0, 3, 1]), "ix": T(I32, [2], const=[1, 0])}))
    # constant int4 tensors: DEQUANTIZE per tensor and per channel, GATHER, TRANSPOSE
    vals = [rng.randint(-8, 7) for _ in range(14)]
    vals[0], vals[1] = -8, 7
    add(_const4_plus_x("dequantize_i4_const_v6", T(I4, [2, 7], q=(f32(0.25), -1), const=vals), [], [2, 7]))
    c, _ = w4(rng, [3, 4], 0)
    add(_const4_plus_x("dequantize_i4_const_per_channel_v6", c, [], [3, 4]))
    c = T(I4, [5, 4], q=(f32(0.5), 1), const=[rng.randint(-8, 7) for _ in range(20)])
    add(_const4_plus_x("gather_i4_const_v7", c,
                       [("GATHER", ["gi"], [3, 4], {"axis": 0, "_version": 7},
                         {"gi": T(I32, [3], const=[4, 0, 4])})], [3, 4]))
    c = T(I4, [3, 5], q=(f32(0.5), 1), const=[rng.randint(-8, 7) for _ in range(15)])
    add(_const4_plus_x("transpose_i4_const_v7", c,
                       [("TRANSPOSE", ["tp"], [5, 3], {"_version": 7},
                         {"tp": T(I32, [2], const=[1, 0])})], [5, 3]))


def copy_version_cases(add):
    """Copying operators over the newest resolver's dtypes: int4 (SLICE v7, CONCATENATION v5,
    DYNAMIC_UPDATE_SLICE v5), float16 (SLICE v8, CONCATENATION v6, TRANSPOSE v9), bfloat16
    (TRANSPOSE v8, DYNAMIC_UPDATE_SLICE v6; through CASTs, the oracle reads no bfloat16) and
    TRANSPOSE v8's ranks above 6."""
    from casekit import Case
    rng = Rng(seed_of("copy_versions"))
    q4 = (f32(0.25), -2)
    add(_q4_chain("slice_i4_v7", T(F32, [3, 5], lo=-2.5, hi=2.5), q4,
                  [("SLICE", ["b", "sz"], [2, 3], {"_version": 7})], [2, 3],
                  {"b": T(I32, [2], const=[1, 1]), "sz": T(I32, [2], const=[2, 3])}))
    add(_q4_chain("concatenation_i4_v5", T(F32, [2, 3], lo=-2.5, hi=2.5), q4,
                  [("CONCATENATION", ["k"], [2, 5], {"axis": 1, "_version": 5})], [2, 5],
                  {"k": T(I4, [2, 2], q=q4, const=[-8, 7, 3, -1])}))
    add(_q4_chain("dynamic_update_slice_i4_v5", T(F32, [3, 4], lo=-2.5, hi=2.5), q4,
                  [("DYNAMIC_UPDATE_SLICE", ["u", "at"], [3, 4], {"_version": 5})], [3, 4],
                  {"u": T(I4, [2, 2], q=q4, const=[-8, 7, 5, -3]), "at": T(I32, [2], const=[1, 3])}))
    h = [f32(rng.uniform(-8.0, 8.0)) for _ in range(30)]
    import struct
    h = [struct.unpack("<e", struct.pack("<e", v))[0] for v in h]
    F16 = S.FLOAT16
    add(single("slice_f16_v8", "SLICE", [T(F16, [5, 6], values=h), T(I32, [2], const=[1, 2]),
                                         T(I32, [2], const=[3, -1])], [T(F16, [3, 4])], {"_version": 8}))
    add(single("concatenation_f16_v6", "CONCATENATION", [T(F16, [5, 6], values=h), T(F16, [5, 2], values=h[:10])],
               [T(F16, [5, 8])], {"axis": 1, "_version": 6}))
    add(single("transpose_f16_v9", "TRANSPOSE", [T(F16, [2, 3, 5], values=h), T(I32, [3], const=[2, 0, 1])],
               [T(F16, [5, 2, 3])], {"_version": 9}))
    add(single("unpack_f16_v5", "UNPACK", [T(F16, [3, 4], values=h[:12])], [T(F16, [3]) for _ in range(4)],
               {"num": 4, "axis": 1, "_version": 5}))
    dims7 = [2, 1, 3, 1, 2, 2, 1]
    add(single("transpose_rank7_v8", "TRANSPOSE", [T(F32, dims7), T(I32, [7], const=[6, 4, 2, 0, 1, 3, 5])],
               [T(F32, [1, 2, 3, 2, 1, 1, 2])], {"_version": 8}))
    # bfloat16 through CAST v7 (float32 values exact in bfloat16)
    bvals = [float(rng.randint(-64, 64)) / 8.0 for _ in range(12)]
    t = {"x": T(F32, [3, 4], values=bvals), "b": T(BF16, [3, 4]), "p": T(I32, [2], const=[1, 0]),
         "bt": T(BF16, [4, 3]), "y": T(F32, [4, 3])}
    add(Case("transpose_bf16_v8", t, [("CAST", ["x"], ["b"], {"_version": 7}),
                                      ("TRANSPOSE", ["b", "p"], ["bt"], {"_version": 8}),
                                      ("CAST", ["bt"], ["y"], {"_version": 7})], ["x"], ["y"]))
    t = {"x": T(F32, [3, 4], values=bvals), "b": T(BF16, [3, 4]), "u": T(BF16, [1, 2], const=[2.5, -0.125]),
         "at": T(I32, [2], const=[2, 1]), "bu": T(BF16, [3, 4]), "y": T(F32, [3, 4])}
    add(Case("dynamic_update_slice_bf16_v6", t, [("CAST", ["x"], ["b"], {"_version": 7}),
                                                 ("DYNAMIC_UPDATE_SLICE", ["b", "u", "at"], ["bu"], {"_version": 6}),
                                                 ("CAST", ["bu"], ["y"], {"_version": 7})], ["x"], ["y"]))


def f16_arith_cases(add):
    """ADD v6 / MUL v8 in float16 (TFLite's half type: float32 arithmetic, rounded to half):
    sums and products that round, overflow to infinity, NaN, fused activations, broadcasting."""
    import struct
    rng = Rng(seed_of("f16_arith"))

    def h(v):
        return struct.unpack("<e", struct.pack("<e", v))[0]
    F16 = S.FLOAT16
    a = [h(rng.uniform(-60.0, 60.0)) for _ in range(24)]
    b = [h(rng.uniform(-60.0, 60.0)) for _ in range(24)]
    a[:6] = [h(60000.0), h(-65504.0), float("nan"), 1.0, h(0.1), -0.0]
    b[:6] = [h(60000.0), h(-65504.0), 2.0, h(1e-4), h(0.2), 0.0]
    for op, ver in (("ADD", 6), ("MUL", 8)):
        low = op.lower()
        add(single("%s_f16_v%d" % (low, ver), op, [T(F16, [4, 6], values=a), T(F16, [4, 6], values=b)],
                   [T(F16, [4, 6])], {"_version": ver}))
        # no NaN or -0 through a fused activation: LiteRT's default build hands back a negative
        # NaN and +0 there, tfcc what the reference kernel's min(max(x, lo), hi) gives (the NaN
        # itself, -0): docs/operators.md
        a_fin = [v if v == v and not (v == 0 and str(v).startswith("-")) else h(3.0) for v in a]
        add(single("%s_f16_relu6_bcast_v%d" % (low, ver), op, [T(F16, [4, 6], values=a_fin), T(F16, [1, 6], values=b[6:12])],
                   [T(F16, [4, 6])], {"fused_activation_function": "RELU6", "_version": ver}))


def compare_sqrt_cases(add):
    """EQUAL v5 / NOT_EQUAL v4: quantized int16, rescaled as comparisons.cc's ComparisonQuantized
    (values a few steps apart compare equal where the rescaled values round together);
    unquantized int16 EQUAL compares raw values. SQRT v2: int8 / int16."""
    rng = Rng(seed_of("compare_i16"))
    a = [rng.randint(-40, 40) for _ in range(24)] + [32767, -32768, 32767, 0, 100, -100]
    b = [v + rng.randint(-3, 3) for v in a[:24]] + [32767, -32768, 32700, 0, 150, -150]
    b = [max(-32768, min(32767, v)) for v in b]
    qa, qb = (f32(1.0e-3), 0), (f32(1.5e-3), 0)
    for op, ver in (("EQUAL", 5), ("NOT_EQUAL", 4)):
        low = op.lower()
        add(single("%s_i16_q_v%d" % (low, ver), op, [T(I16, [5, 6], q=qa, values=a), T(I16, [5, 6], q=qb, values=b)],
                   [T(BOOL, [5, 6])], {"_version": ver}))
        add(single("%s_i16_q_same_scale_v%d" % (low, ver), op,
                   [T(I16, [5, 6], q=qa, values=a), T(I16, [5, 6], q=qa, values=b)], [T(BOOL, [5, 6])],
                   {"_version": ver}))
        add(single("%s_i16_q_bcast_v%d" % (low, ver), op,
                   [T(I16, [5, 6], q=(f32(0.01), 3), values=a), T(I16, [1, 6], q=(f32(0.02), -1), values=b[:6])],
                   [T(BOOL, [5, 6])], {"_version": ver}))
    add(single("equal_i16_raw_v5", "EQUAL", [T(I16, [5, 6], values=a), T(I16, [5, 6], values=b)],
               [T(BOOL, [5, 6])], {"_version": 5}))
    add(single("sqrt_i8_v2", "SQRT", [T(I8, [3, 7], q=(f32(0.05), -128), lo=-128, hi=127)],
               [T(I8, [3, 7], q=(f32(0.02), -128))], {"_version": 2}))
    add(single("sqrt_i16_v2", "SQRT", [T(I16, [3, 7], q=(f32(8.0 / 32767), 0), lo=0, hi=32767)],
               [T(I16, [3, 7], q=(f32(3.0 / 32767), 0))], {"_version": 2}))


def audio_cases(add):
    """AudioSpectrogram and Mfcc (custom operators every standard resolver registers): windows
    of a power of two and not (zero-padded FFT), both magnitude settings, a spectrogram -> Mfcc
    chain, a Mfcc whose upper limit lies past Nyquist (TFLite's filterbank then outputs zeros).
    LiteRT.js fails on these models (memory access out of bounds), so the classic interpreter
    makes the references; it keeps the spectrogram's state from one channel to the next (more
    frames than Prepare sized: it refuses 2 channels), which the current kernel re-initializes,
    so the cases have one channel (tfcc follows the current kernel)."""
    F32 = S.FLOAT32

    def spec(window, stride, sq):
        return flexbuf.map_bytes({"window_size": window, "stride": stride, "magnitude_squared": sq})

    def mfcc(up, lo, ch, dct):
        return flexbuf.map_bytes({"upper_frequency_limit": up, "lower_frequency_limit": lo,
                                  "filterbank_channel_count": ch, "dct_coefficient_count": dct})

    def tf(c):
        c.engine = "tfweb"
        add(c)
    tf(single("audio_spectrogram_sq", "CUSTOM:AudioSpectrogram", [T(F32, [1000, 1], lo=-1.0, hi=1.0)],
              [T(F32, [1, 6, 129])], spec(256, 128, True)))
    tf(single("audio_spectrogram_sqrt_pad", "CUSTOM:AudioSpectrogram", [T(F32, [600, 1], lo=-1.0, hi=1.0)],
              [T(F32, [1, 6, 129])], spec(200, 75, False)))
    t = {"wav": T(F32, [1600, 1], lo=-1.0, hi=1.0), "spec": T(F32, [1, 11, 129]),
         "rate": T(S.INT32, [1], const=[16000]), "y": T(F32, [1, 11, 13])}
    tf(Case("audio_spectrogram_mfcc", t,
            [("CUSTOM:AudioSpectrogram", ["wav"], ["spec"], spec(256, 128, True)),
             ("CUSTOM:Mfcc", ["spec", "rate"], ["y"], mfcc(4000, 20, 40, 13))], ["wav"], ["y"]))
    tf(single("mfcc_direct", "CUSTOM:Mfcc", [T(F32, [2, 5, 65], lo=0.0, hi=4.0), T(S.INT32, [1], const=[16000])],
              [T(F32, [2, 5, 12])], mfcc(7600, 125, 20, 12)))
    tf(single("mfcc_past_nyquist", "CUSTOM:Mfcc", [T(F32, [1, 3, 33], lo=0.0, hi=4.0), T(S.INT32, [1], const=[8000])],
              [T(F32, [1, 3, 10])], mfcc(7000, 20, 10, 10)))


def numeric_verify_cases(add):
    """NumericVerify (a custom operator every standard resolver registers): dequantized input -
    float reference, for uint8 / int8 / int16 (any zero point), int8 per-axis and float16
    inputs; with log_if_failed and tolerance >= 0.1 the run fails past tolerance x scale (the
    cases here pass; tests/ops/test_numeric_verify.c runs the failing one). LiteRT.js registers
    it too but reads back zeros (its output lies in the persistent arena): the classic
    interpreter makes the references."""
    F32, F16 = S.FLOAT32, S.FLOAT16

    def nv(**o):
        return flexbuf.map_bytes(o)

    def tf(c):
        c.engine = "tfweb"
        add(c)
    tf(single("numeric_verify_i8_stats", "CUSTOM:NumericVerify",
              [T(S.INT8, [2, 3, 4], q=(f32(0.05), 3)), T(F32, [2, 3, 4], lo=-1.0, hi=1.0)],
              [T(F32, [2, 3, 4])], nv(tolerance=0.0, log_if_failed=False)))
    tf(single("numeric_verify_u8_checked", "CUSTOM:NumericVerify",
              [T(S.UINT8, [4, 5], q=(f32(0.02), 128)), T(F32, [4, 5], lo=-1.0, hi=1.0)],
              [T(F32, [4, 5])], nv(tolerance=200.0, log_if_failed=True)))
    tf(single("numeric_verify_i16_zp", "CUSTOM:NumericVerify",
              [T(S.INT16, [3, 7], q=(f32(0.001), 5)), T(F32, [21], lo=-30.0, hi=30.0)],
              [T(F32, [3, 7])], nv(tolerance=0.05, log_if_failed=True)))
    tf(single("numeric_verify_i8_per_axis", "CUSTOM:NumericVerify",
              [T(S.INT8, [3, 4], q={"scale": [f32(0.1), f32(0.02), f32(0.05)], "zero_point": [0, 0, 0],
                                    "quantized_dimension": 0}),
               T(F32, [3, 4], lo=-2.0, hi=2.0)],
              [T(F32, [3, 4])], nv(tolerance=0.09, log_if_failed=True)))
    tf(single("numeric_verify_f16_const", "CUSTOM:NumericVerify",
              [T(F16, [2, 3], const=[0.5, -1.25, 3.0e-5, 65504.0, -0.0, 2.0]), T(F32, [2, 3], lo=-1.0, hi=1.0)],
              [T(F32, [2, 3])], nv(tolerance=0.0)))
    tf(single("numeric_verify_no_keys", "CUSTOM:NumericVerify",
              [T(S.INT8, [5], q=(f32(0.5), -2)), T(F32, [5])], [T(F32, [5])], nv()))


def hadamard_cases(add):
    """aeq.hadamard_rotation (a custom operator every standard resolver registers, kernels/
    hadamard_rotation.cc; the AI Edge Quantizer's rotation of activations): each run of
    hadamard_size values along the last dimension goes through a normalized fast Walsh-Hadamard
    transform; values past the last whole run are copied. Rank 2 [features, size] and rank 3
    [batch, features, size]; a size that does not divide the last dimension, and one that is not
    a power of two (TFLite then copies the input); int32, whose bits TFLite's kernel transforms
    as float32 (subnormals, the largest finite float, -0x7FFFFFF0 a subnormal of sign -)."""
    F32 = S.FLOAT32

    def h(n):
        return flexbuf.map_bytes({"hadamard_size": n})
    add(single("hadamard_rotation_r2", "CUSTOM:aeq.hadamard_rotation", [T(F32, [3, 16], lo=-2.0, hi=2.0)],
               [T(F32, [3, 16])], h(16)))
    add(single("hadamard_rotation_r3_chunks", "CUSTOM:aeq.hadamard_rotation", [T(F32, [2, 3, 64], lo=-4.0, hi=4.0)],
               [T(F32, [2, 3, 64])], h(8)))
    add(single("hadamard_rotation_tail", "CUSTOM:aeq.hadamard_rotation", [T(F32, [2, 20], lo=-1.0, hi=1.0)],
               [T(F32, [2, 20])], h(8)))
    add(single("hadamard_rotation_not_pow2", "CUSTOM:aeq.hadamard_rotation", [T(F32, [2, 12], lo=-1.0, hi=1.0)],
               [T(F32, [2, 12])], h(6)))
    add(single("hadamard_rotation_i32_bits", "CUSTOM:aeq.hadamard_rotation",
               [T(S.INT32, [2, 8], values=[1, 3, 7, 1 << 24, 0x3F800000, -0x40800000, 123456, 0,
                                            0x7F7FFFFF, 5, 9, -0x7FFFFFF0, 0x00400000, 2, 1 << 30, 11])],
               [T(S.INT32, [2, 8])], h(8)))
    add(single("hadamard_rotation_size1", "CUSTOM:aeq.hadamard_rotation", [T(F32, [4, 5], lo=-1.0, hi=1.0)],
               [T(F32, [4, 5])], h(1)))


def xnn_delegate_fail_cases(add):
    """A model TFLite's XNNPACK delegate fails on as a whole: a uint8 CONV_2D (whose XNNPACK and
    builtin requantizations differ on some outputs), then a RESIZE_BILINEAR whose output
    quantization differs from its input's: the delegate takes it, XNNPACK's subgraph definition
    refuses it, TFLite restores its original plan and every node runs the builtin kernels (tfcc:
    REFERENCE arithmetic for the model). LiteRT.js refuses such a model: the classic interpreter
    makes the reference."""
    U8 = S.UINT8
    for dt, tag in ((U8, "u8"), (I8, "i8")):
        name = "xnn_delegate_fails_resize_requant_" + tag
        rng = Rng(seed_of(name))
        zp = 128 if dt == U8 else 0
        # input and filter scale 2^-6, conv output 2^-5: the multiplier is exactly 2^-7, so an
        # accumulator of 64 mod 128 is a tie, which XNNPACK rounds to even and the builtin
        # kernel away from zero
        xq, cq, yq = (f32(2.0 ** -6), zp), (f32(2.0 ** -5), zp), choose_qparams(dt, -5.0, 7.0)
        ws, wzp = f32(2.0 ** -6), zp
        lo, hi = zp - 20, zp + 20
        t = {"x": T(dt, [1, 8, 8, 8], q=xq),
             "w": T(dt, [16, 3, 3, 8], q=(ws, wzp), const=[rng.randint(lo, hi) for _ in range(16 * 72)]),
             "b": T(I32, [16], q=(f32(xq[0] * ws), 0), const=[64 * rng.randint(-40, 40) for _ in range(16)]),
             "c": T(dt, [1, 8, 8, 16], q=cq),
             "sz": T(I32, [2], const=[12, 12]),
             "y": T(dt, [1, 12, 12, 16], q=yq)}
        c = Case(name, t, [("CONV_2D", ["x", "w", "b"], ["c"], {"padding": "SAME", "stride_w": 1, "stride_h": 1}),
                           ("RESIZE_BILINEAR", ["c", "sz"], ["y"], {})], ["x"], ["c", "y"])
        c.engine = "tfweb"
        add(c)
    # ops: the same failure from a requantization scale of 256 or more (input scale * filter
    # scale / output scale): the partitioner takes the int8 CONV_2D, XNNPACK's operator creation
    # refuses it ("failed to create XNNPACK runtime"), every node runs the builtin kernels, here
    # the ADD before it, whose XNNPACK and builtin roundings differ on some outputs (osnet_ain
    # of the sixth sweep: a 1x1 CONV_2D at 7237)
    name = "xnn_delegate_fails_conv_requant_256_i8"
    rng = Rng(seed_of(name))
    aq, bq, hq = choose_qparams(I8, -3.0, 3.0), choose_qparams(I8, -1.7, 2.2), choose_qparams(I8, -4.3, 4.9)
    ws = [f32(rng.uniform(0.3, 1.0) / 127.0) for _ in range(4)]
    t = {"a": T(I8, [1, 16, 16, 8], q=aq), "bb": T(I8, [1, 16, 16, 8], q=bq), "h": T(I8, [1, 16, 16, 8], q=hq),
         "w": T(I8, [4, 1, 1, 8], q={"scale": ws, "zero_point": [0] * 4, "quantized_dimension": 0},
                const=[rng.randint(-127, 127) for _ in range(32)]),
         "b": T(I32, [4], q={"scale": [f32(hq[0] * w) for w in ws], "zero_point": [0] * 4, "quantized_dimension": 0},
                const=[rng.randint(-500, 500) for _ in range(4)]),
         "y": T(I8, [1, 16, 16, 4], q=(f32(hq[0] * max(ws) / 1000.0), 0))}
    c = Case(name, t, [("ADD", ["a", "bb"], ["h"], {}),
                       ("CONV_2D", ["h", "w", "b"], ["y"], {"padding": "VALID", "stride_w": 1, "stride_h": 1})],
             ["a", "bb"], ["h", "y"])
    c.engine = "tfweb"
    add(c)


def _delegate_failing_conv(t, rng, dt=None):
    """Adds to tensors t a 1x1 CONV_2D whose requantization scale is 1000 (XNNPACK's operator
    creation refuses it: the delegate fails as a whole, TFLite runs every node with its builtin
    kernels, tfcc its builtin arithmetic) on its own input "fh"; returns the op and its I/O keys."""
    dt = dt or I8
    zp = 128 if dt == S.UINT8 else 0
    t["fh"] = T(dt, [1, 4, 4, 8], q=(f32(0.05), zp))
    t["fw"] = T(dt, [4, 1, 1, 8], q=(f32(0.9 / 127), zp), const=[zp + rng.randint(-127, 127) for _ in range(32)])
    t["fb"] = T(I32, [4], q=(f32(0.05 * 0.9 / 127), 0), const=[rng.randint(-500, 500) for _ in range(4)])
    t["fz"] = T(dt, [1, 4, 4, 4], q=(f32(0.05 * 0.9 / 127 / 1000.0), zp))
    return ("CONV_2D", ["fh", "fw", "fb"], ["fz"], {"padding": "VALID", "stride_w": 1, "stride_h": 1}), "fh", "fz"


def builtin_mean_quantize_cases(add):
    """exact1: TFLite's builtin 8-bit MEAN and float -> 8/16-bit QUANTIZE, as the classic
    interpreter runs them after its XNNPACK delegate failed (a CONV_2D beside them with a
    requantization scale of 1000; LiteRT.js refuses such models: the classic interpreter makes
    the reference). MEAN over H,W of a 4-D keep_dims input (optimized_integer_ops::Mean /
    optimized_ops::Mean): raw sums times the multiplier of in_scale / (n * out_scale), plus the
    output zero point minus the input zero point's share rounded on its own (OSNet-ain's
    instance normalisation, Tomvdsch/Models, first with its scales); other quantized MEANs
    (QuantizedMeanOrSum): round(mean * scale - in_zp * scale) half away from zero, inputs that
    land on ties; QUANTIZE (optimized_ops::AffineQuantize): round(x / (double)scale), inputs
    (k + 0.5) * scale whose float quotient rounds to the tie."""
    U8 = S.UINT8
    for name, dt, shape, axes, keep, iq, oq in (
            ("xnn_delegate_fails_mean_hw_i8", I8, [1, 16, 8, 64], [1, 2], True,
             (0.017936810851097107, 8), (0.009502910077571869, 14)),
            ("xnn_delegate_fails_mean_hw_i8_zp", I8, [1, 8, 16, 48], [2, 1], True,
             (0.005467281211167574, -2), (0.0013255712110549212, 22)),
            ("xnn_delegate_fails_mean_hw_u8", U8, [1, 9, 7, 24], [1, 2], True, (0.02, 133), (0.013, 120)),
            ("xnn_delegate_fails_mean_i8_ties", I8, [64, 2, 8], [1], False, (0.5, 3), (0.5, 0)),
            ("xnn_delegate_fails_mean_i8_ties_scaled", I8, [64, 4, 8], [1], False, (0.7, 9), (0.2, -1)),
            ("xnn_delegate_fails_mean_hw_i8_nokeep", I8, [1, 9, 7, 24], [1, 2], False, (0.02, 5), (0.013, -7))):
        rng = Rng(seed_of(name))
        red = [a % len(shape) for a in axes]
        oshape = [1 if d in red else n for d, n in enumerate(shape)] if keep else \
            [n for d, n in enumerate(shape) if d not in red]
        t = {"x": T(dt, shape, q=(f32(iq[0]), iq[1])), "ax": T(I32, [len(axes)], const=axes),
             "y": T(dt, oshape, q=(f32(oq[0]), oq[1]))}
        conv, fi, fo = _delegate_failing_conv(t, rng, dt)
        c = Case(name, t, [("MEAN", ["x", "ax"], ["y"], {"keep_dims": keep}), conv], ["x", fi], ["y", fo])
        c.engine = "tfweb"
        add(c)
    for name, dt, scale, zp in (("xnn_delegate_fails_quantize_ties_i8", I8, 0.01865844801068306, -14),
                                ("xnn_delegate_fails_quantize_ties_u8", U8, 0.0371, 120),
                                ("xnn_delegate_fails_quantize_ties_i16", I16, 0.0007391, 0)):
        rng = Rng(seed_of(name))
        sc = f32(scale)
        vals = [f32((k + 0.5) * sc) for k in range(-100, 100)]
        t = {"x": T(F32, [1, len(vals)], values=vals), "y": T(dt, [1, len(vals)], q=(sc, zp))}
        conv, fi, fo = _delegate_failing_conv(t, rng, U8 if dt == U8 else I8)
        c = Case(name, t, [("QUANTIZE", ["x"], ["y"], {}), conv], ["x", fi], ["y", fo])
        c.engine = "tfweb"
        add(c)


def moe_cases(add):
    """sweep7: moe, LiteRT's mixture-of-experts operator (the XNNPACK delegate's custom "moe",
    moe_delegate_kernel.cc; ai-edge-quantizer's single_moe_multiaxis): tokens routed to
    num_active_experts experts each (negative indices count from the end, an expert chosen twice
    by a token counts twice), gelu gate, float32 weights (the TFLite build here refuses int8 /
    int4 weights and gelu_tanh: tests/ops/data/opsc_hostile). Weight row out x num_experts + e is
    expert e's row out; the output has src's shape (rank 3 and 2)."""
    F32, I32 = S.FLOAT32, S.INT32

    def opts(e, k, d, h, act=None):
        o = {"num_experts": e, "num_active_experts": k, "model_dim": d, "hidden_dim": h,
             "weight_type": "fp32", "renormalized_top_weights": True}
        if act:
            o["activation"] = act
        return flexbuf.map_bytes(o)

    for name, e, k, d, h, src, act, idx in (
            ("moe_f32_gelu", 4, 2, 8, 6, [2, 3, 8], None, None),
            ("moe_f32_top1", 3, 1, 4, 8, [5, 4], "gelu", None),
            ("moe_f32_repeat_expert", 5, 3, 6, 4, [1, 3, 6], "gelu", [4, 4, -1, 0, 2, -5, -3, 1, 1])):
        rng = Rng(seed_of(name))
        tokens = numel(src) // d

        def fw(shape, amp):
            return T(F32, shape, const=[f32(rng.uniform(-amp, amp)) for _ in range(numel(shape))])
        ins = [T(F32, src, lo=-2.0, hi=2.0), T(F32, [tokens, k], lo=0.0, hi=1.0),
               T(I32, [tokens, k], lo=-e, hi=e - 1, values=idx),
               fw([h, e, d], 0.5), fw([h, e, d], 0.5), fw([d, e, h], 0.5),
               T(F32, [e], const=[f32(rng.uniform(0.5, 1.5)) for _ in range(e)])]
        add(single(name, "CUSTOM:moe", ins, [T(F32, src)], opts(e, k, d, h, act)))


def _tie_rows(rows, n, zp):
    """rows of n values whose sums past n * zp are (base + 1/2) * n, base from -rows/2: ties."""
    vals = []
    for r in range(rows):
        base = r - rows // 2  # (base + 1/2) * n: half the row one above base
        vals += [zp + base + 1] * (n // 2) + [zp + base] * (n - n // 2)
    return vals


def xnn_mean_sum_ties_cases(add):
    """sweep16: 8-bit MEAN and SUM as LiteRT.js runs them (its XNNPACK delegate) add the output
    zero point in float before rounding half to even, so that with an odd zero point every tie
    goes the other way than when the zero point is added after (tfcc's TFLITE mode did that:
    1 LSB on 4 of 128 outputs of a license-plate model's spatial attention, noahzhy/KR_LPR_TF
    tiny_lpr_uint8, 31 LSB after its softmax). Inputs land on ties: each row's sum minus
    n * in_zp is (k + 1/2) * n for MEAN (k from -8 to 7), any odd value for the SUM at scale
    ratio 1/2; one case per path (last axis, all but the batch, 4-D H,W, uint8, SUM)."""
    U8 = S.UINT8

    for name, dt, rows, n, zp in (("xnn_mean_i8_ties_odd_zp", I8, 16, 64, -109),
                                  ("xnn_mean_i8_ties_even_zp", I8, 16, 64, -108),
                                  ("xnn_mean_u8_ties_odd_zp", U8, 16, 32, 131)):
        t = {"x": T(dt, [rows, n], q=(f32(0.0135868), zp), values=_tie_rows(rows, n, zp)),
             "ax": T(I32, [1], const=[1]), "y": T(dt, [rows], q=(f32(0.0135868), zp))}
        add(Case(name, t, [("MEAN", ["x", "ax"], ["y"], {"keep_dims": False})], ["x"], ["y"]))
    # 4-D mean over H and W (keep_dims): channel c's 16 values sum to (c - 8 + 1/2) * 16 past zp
    hw = []
    for h in range(4):
        for w in range(4):
            for c in range(16):
                hw.append(-109 + (c - 8) + (1 if h * 4 + w < 8 else 0))
    t = {"x": T(I8, [1, 4, 4, 16], q=(f32(0.02), -109), values=hw), "ax": T(I32, [2], const=[1, 2]),
         "y": T(I8, [1, 1, 1, 16], q=(f32(0.02), -109))}
    add(Case("xnn_mean_hw_i8_ties_odd_zp", t, [("MEAN", ["x", "ax"], ["y"], {"keep_dims": True})],
             ["x"], ["y"]))
    # SUM at in_scale / out_scale = 1/2: every odd sum past the input zero point is a tie
    rng = Rng(seed_of("xnn_sum_i8_ties_odd_zp"))
    t = {"x": T(I8, [32, 4], q=(f32(0.5), 3), values=[rng.randint(-40, 40) for _ in range(128)]),
         "ax": T(I32, [1], const=[1]), "y": T(I8, [32, 1], q=(f32(1.0), -7))}
    add(Case("xnn_sum_i8_ties_odd_zp", t, [("SUM", ["x", "ax"], ["y"], {"keep_dims": True})],
             ["x"], ["y"]))


def xnn_mean_sum_near_ties_cases(add):
    """sweep net58: LiteRT.js's XNNPACK 8-bit MEAN / SUM compute sum * scale + (zo - n * zi *
    scale) in float (the input zero point folded into a float bias), not (sum - n * zi) * scale
    + zo: where the product lands within a float step of a half, the two round apart (a
    streaming action recogniser, Jiwon-Park/on-device-action-recognition model.int8.fallback:
    1 LSB in its squeeze-excite MEAN over [1, 1, 11, 11, 184], then 26 at its outputs). Each row
    of n values sums to one of the listed sums, found by searching every sum of the scales'
    range for those where the two formulas differ (MEAN over the last axis; over H, W of a
    5-D tensor with the real model's quantization; SUM)."""
    def rows(sums, n):
        vals = []
        for a in sums:
            q, rem = divmod(a, n)
            vals += [q + 1] * rem + [q] * (n - rem)
        return vals

    for name, op, n, qi, qo, sums in (
            ("xnn_mean_i8_near_ties_n290", "MEAN", 290, (f32(0.47039157152175903), 96),
             (f32(0.02125430479645729), -6), [26510, 26890, 27650, 28030, 28790]),
            ("xnn_mean_i8_near_ties_n294", "MEAN", 294, (f32(0.5179450511932373), 102),
             (f32(0.024563385173678398), 101),
             [26816, 27304, 27792, 28280, 28768, 29256, 29744, 30232]),
            ("xnn_mean_i8_near_ties_n59", "MEAN", 59, (f32(0.928266167640686), -116),
             (f32(0.041594769805669785), -82), [-6306]),
            ("xnn_sum_i8_near_ties_n2", "SUM", 2, (f32(0.08744219690561295), 35),
             (f32(0.2291588932275772), -73), [108]),
            ("xnn_sum_i8_near_ties_n5", "SUM", 5, (f32(0.13008417189121246), 75),
             (f32(0.3266346752643585), 30), [547])):
        m = len(sums)
        t = {"x": T(I8, [m, n], q=qi, values=rows(sums, n)), "ax": T(I32, [1], const=[1]),
             "y": T(I8, [m, 1], q=qo)}
        add(Case(name, t, [(op, ["x", "ax"], ["y"], {"keep_dims": True})], ["x"], ["y"]))
    # the real model's MEAN: H, W of [1, 1, 11, 11, C]; channel 0 sums to -15344 (the tie),
    # the others to sums around it
    sums = [-15344] + [-15344 + 37 * c for c in range(1, 16)]
    vals = rows(sums, 121)  # [C, 121] -> [1, 1, 11, 11, C]
    hw = [vals[c * 121 + k] for k in range(121) for c in range(16)]
    t = {"x": T(I8, [1, 1, 11, 11, 16], q=(f32(0.31811854243278503), -127), values=hw),
         "ax": T(I32, [2], const=[2, 3]),
         "y": T(I8, [1, 1, 1, 1, 16], q=(f32(0.02418815717101097), -117))}
    add(Case("xnn_mean_5d_hw_i8_near_tie", t, [("MEAN", ["x", "ax"], ["y"], {"keep_dims": True})],
             ["x"], ["y"]))


def xnn_declined_reduce_cases(add):
    """act59: TFLite's XNNPACK delegate takes a MEAN / SUM only with an axis tensor of rank 0
    or 1 holding at least one axis (VisitReduceNode: CheckAxesTensorShape, num_reduction_axes >
    0); a 2-D or empty axis tensor, which the builtin kernels accept, leaves the node to
    LiteRT's builtin kernel: SUM rounds half away from zero (not XNNPACK's half to even with the
    zero point in float), 8-bit MEAN takes QuantizedMeanOrSum's integer multiplier (not the
    classic interpreter's float formula or equal-scale division). Ties as in
    xnn_mean_sum_ties_cases; one rescaled MEAN on random inputs."""
    U8 = S.UINT8

    rng = Rng(seed_of("xnn_declined_sum_axes_2d_i8_ties"))
    t = {"x": T(I8, [64, 4], q=(f32(0.5), 3), values=[rng.randint(-60, 79) for _ in range(256)]),
         "ax": T(I32, [1, 1], const=[1]), "y": T(I8, [64, 1], q=(f32(1.0), -7))}
    add(Case("xnn_declined_sum_axes_2d_i8_ties", t,
             [("SUM", ["x", "ax"], ["y"], {"keep_dims": True})], ["x"], ["y"]))
    rng = Rng(seed_of("xnn_declined_sum_axes_empty_i8_ties"))
    t = {"x": T(I8, [16, 8], q=(f32(0.5), 3), values=[rng.randint(-60, 79) for _ in range(128)]),
         "ax": T(I32, [0], const=[]), "y": T(I8, [16, 8], q=(f32(1.0), -7))}
    add(Case("xnn_declined_sum_axes_empty_i8_ties", t,
             [("SUM", ["x", "ax"], ["y"], {"keep_dims": True})], ["x"], ["y"]))
    for name, dt, rows, n, zp in (("xnn_declined_mean_axes_2d_i8_ties", I8, 16, 64, -109),
                                  ("xnn_declined_mean_axes_2d_u8_ties", U8, 16, 32, 131)):
        t = {"x": T(dt, [rows, n], q=(f32(0.0135868), zp), values=_tie_rows(rows, n, zp)),
             "ax": T(I32, [1, 1], const=[1]), "y": T(dt, [rows, 1], q=(f32(0.0135868), zp))}
        add(Case(name, t, [("MEAN", ["x", "ax"], ["y"], {"keep_dims": True})], ["x"], ["y"]))
    t = {"x": T(I8, [256, 37], q=(f32(0.0421), -5), lo=-128, hi=127),
         "ax": T(I32, [1, 1], const=[1]), "y": T(I8, [256, 1], q=(f32(0.0193), 11))}
    add(Case("xnn_declined_mean_axes_2d_i8_scaled", t,
             [("MEAN", ["x", "ax"], ["y"], {"keep_dims": True})], ["x"], ["y"]))


def xnn_resize_both_flags_cases(add):
    """sweep16: RESIZE_BILINEAR with align_corners and half_pixel_centers both set (noahzhy/SALPR,
    a float32 license-plate model): TFLite's builtin kernel refuses the pair, the XNNPACK
    delegate takes the node and tests align_corners first, so LiteRT.js resizes with aligned
    corners; tfcc's TFLITE mode does the same (REFERENCE mode keeps the refusal). float32 and
    int8 (same input and output quantization: the delegate's 8-bit path)."""
    for name, dt in (("xnn_resize_bilinear_align_and_half_f32", F32),
                     ("xnn_resize_bilinear_align_and_half_i8", I8)):
        q = (f32(0.05), -3) if dt == I8 else None
        t = {"x": T(dt, [1, 3, 5, 4], q=q), "sz": T(I32, [2], const=[6, 9]),
             "y": T(dt, [1, 6, 9, 4], q=q)}
        add(Case(name, t, [("RESIZE_BILINEAR", ["x", "sz"], ["y"],
                            {"align_corners": True, "half_pixel_centers": True})], ["x"], ["y"]))


def cases(add):
    xnn_delegate_fail_cases(add)
    builtin_mean_quantize_cases(add)
    xnn_mean_sum_ties_cases(add)
    xnn_mean_sum_near_ties_cases(add)
    xnn_declined_reduce_cases(add)
    xnn_resize_both_flags_cases(add)
    moe_cases(add)
    hadamard_cases(add)
    numeric_verify_cases(add)
    audio_cases(add)
    int4_weight_cases(add)
    int4_runtime_cases(add)
    copy_version_cases(add)
    f16_arith_cases(add)
    compare_sqrt_cases(add)
    int32_bias_cases(add)
    zero_scale_cases(add)
    dtype_cases(add)
    stablehlo_f16_cases(add)
