"""Conformance cases of sparse constant tensors (SparsityParameters, modelgen/sparse_tensor.py):
DENSIFY feeding FULLY_CONNECTED / CONV_2D / ADD / DEQUANTIZE as the converter emits it (block
sparse 1x4, 4x1, 2x2 and 1x16, random sparse CSR in row- and column-major traversal,
dense-sparse-sparse rank 3; uint8, uint16 and int32 segments / indices; float32, float16, int8
values). Called from op_cases.cases().

FULLY_CONNECTED reading sparse weights itself (no DENSIFY; sparse_fc_*, spfc60): TFLite's
builtin kernel computes the FULLY_CONNECTED of the dense weights, but both engines of the oracle
run the operator on the stored values as if dense and return garbage (up to 8e22 off float32
1x4 / random sparse, 176 LSB off int8 1x16), so the reference outputs are TFLite's for the
DENSIFY twin of the same weights on the same inputs (Case.reference_twin; int8 on tfweb, whose
builtin kernel runs the twin). LiteRT.js also gets DENSIFY of float16 wrong
(3.1e4 off) and cannot delegate DENSIFY -> int8 FULLY_CONNECTED: those cases use tfweb, whose
outputs match a NumPy reference from the dense values."""
from casekit import Case, Rng, T, f32, numel, seed_of
from sparse_tensor import CSR, DENSE, IDX_I32, IDX_U16, IDX_U8
import tflite_schema as S

F32, F16, I8, I32 = S.FLOAT32, S.FLOAT16, S.INT8, S.INT32


def _sparse_values(name, shape, block_map=(), block_size=(), keep=0.4, quant=None):
    """Dense float values with whole blocks (block_map / block_size) zero, the rest of the
    kept blocks random (an element of a kept block may be zero too). quant: an int8 scale
    list per row (symmetric, narrow range): the values are returned quantized."""
    rng = Rng(seed_of(name + "/w"))
    rank = len(shape)
    bs = [1] * rank
    for d, b in zip(block_map, block_size):
        bs[d] = b
    keep_block = {}
    vals = []
    for flat in range(numel(shape)):
        idx, rem = [], flat
        for d in range(rank - 1, -1, -1):
            idx.insert(0, rem % shape[d])
            rem //= shape[d]
        blk = tuple(i // b for i, b in zip(idx, bs))
        if blk not in keep_block:
            keep_block[blk] = rng.uniform() < keep
        v = f32(rng.uniform(-1.0, 1.0)) if keep_block[blk] and rng.uniform() > 0.1 else 0.0
        if quant is not None:
            v = max(-127, min(127, int(round(v / quant[idx[0]])))) if v else 0
        vals.append(v)
    return vals


def _block(formats, block_map, block_size, index_types=IDX_U8, order=None):
    d = {"formats": formats, "block_map": block_map, "block_size": block_size,
         "index_types": index_types}
    if order is not None:
        d["traversal_order"] = order
    return d


def fc_case(name, wshape, sparse, batch=3, quant=False, f16=False, direct=False, seed_name=None,
            hybrid=None):
    """FULLY_CONNECTED (x [batch, k] . W [units, k]^T + b) whose W is sparse, through DENSIFY
    (and DEQUANTIZE for float16); direct: FULLY_CONNECTED reads W itself, and the reference is
    TFLite's for the DENSIFY twin. Weights and bias are drawn from seed_name (default name).
    hybrid: a dict of FULLY_CONNECTED options (asymmetric_quantize_inputs, fused_activation_function)
    for a float32 input and int8 weights of one scale (dynamic-range quantization, sphy61)."""
    if direct:
        case = fc_case(name, wshape, sparse, batch, quant, seed_name=seed_name or name, hybrid=hybrid)
        twin = fc_case(name, wshape, sparse, batch, quant, seed_name=seed_name or name, hybrid=hybrid)
        case.tensors.pop("wd")
        case.ops = [("FULLY_CONNECTED", ["x", "w", "b"], ["y"], dict(hybrid or {}))]
        case.reference_twin = lambda: twin.build()[0]
        case.builtin_only = False  # constant (densified) weights: listed in cases.txt
        return case
    seed_name = seed_name or name
    units, k = wshape
    rng = Rng(seed_of(seed_name + "/b"))
    tensors = {}
    ops = []
    if hybrid is not None:
        wsc = f32(1.0 / 127.0 * rng.uniform(0.3, 1.0))
        vals = _sparse_values(seed_name, wshape, sparse["block_map"], sparse["block_size"],
                              quant=[wsc] * units)
        tensors["x"] = T(F32, [batch, k], lo=-2.0, hi=2.0)
        tensors["w"] = T(I8, wshape, const=vals, sparse=sparse, q=(wsc, 0))
        tensors["b"] = T(F32, [units], const=[f32(rng.uniform(-1, 1)) for _ in range(units)])
        tensors["y"] = T(F32, [batch, units])
    elif quant:
        wsc = [f32(1.0 / 127.0 * rng.uniform(0.3, 1.0)) for _ in range(units)]
        xq = (f32(4.0 / 255.0), -1)
        vals = _sparse_values(seed_name, wshape, sparse["block_map"], sparse["block_size"], quant=wsc)
        tensors["x"] = T(I8, [batch, k], q=xq)
        tensors["w"] = T(I8, wshape, const=vals, sparse=sparse,
                         q={"scale": wsc, "zero_point": [0] * units, "quantized_dimension": 0})
        bsc = [f32(xq[0] * s) for s in wsc]
        tensors["b"] = T(I32, [units], const=[int(round(rng.uniform(-1, 1) / s)) for s in bsc],
                         q={"scale": bsc, "zero_point": [0] * units, "quantized_dimension": 0})
        tensors["y"] = T(I8, [batch, units], q=(f32(6.0 / 255.0), 2))
    else:
        vals = _sparse_values(seed_name, wshape, sparse["block_map"], sparse["block_size"])
        tensors["x"] = T(F32, [batch, k], lo=-2.0, hi=2.0)
        tensors["w"] = T(F16 if f16 else F32, wshape, const=vals, sparse=sparse)
        tensors["b"] = T(F32, [units], const=[f32(rng.uniform(-1, 1)) for _ in range(units)])
        tensors["y"] = T(F32, [batch, units])
    tensors["wd"] = T(tensors["w"].dtype, wshape, q=tensors["w"].q)
    ops.append(("DENSIFY", ["w"], ["wd"], {}))
    w = "wd"
    if f16:
        tensors["wf"] = T(F32, wshape)
        ops.append(("DEQUANTIZE", ["wd"], ["wf"], {}))
        w = "wf"
    ops.append(("FULLY_CONNECTED", ["x", w, "b"], ["y"], dict(hybrid or {})))
    case = Case(name, tensors, ops, ["x"], ["y"])
    if f16 or quant or hybrid is not None:
        case.engine = "tfweb"  # LiteRT.js: float16 DENSIFY wrong, int8 (hybrid too) not delegated
    if hybrid is not None:
        # tfweb's builtin hybrid kernel made the output: kept in tests/ops/hybrid_builtin and
        # checked by ops.test_hybrid in both modes, not listed in cases.txt (a hybrid node needs
        # constant weights, so it loads only with the constant folder on)
        case.builtin_only = True
    return case


def _add_case(name, shape, sparse, keep=0.5):
    """ADD(x, DENSIFY(W)): the densified layout element by element (keep 0: W all zeros, no
    stored values, an empty buffer)."""
    vals = _sparse_values(name, shape, sparse["block_map"], sparse["block_size"], keep=keep)
    tensors = {"x": T(F32, shape, lo=-2.0, hi=2.0), "w": T(F32, shape, const=vals, sparse=sparse),
               "wd": T(F32, shape), "y": T(F32, shape)}
    return Case(name, tensors, [("DENSIFY", ["w"], ["wd"], {}), ("ADD", ["x", "wd"], ["y"], {})],
                ["x"], ["y"])


def _conv_case(name):
    """CONV_2D 1x1 whose [8, 1, 1, 16] filter is 1x4 block sparse along the input channels."""
    shape = [8, 1, 1, 16]
    sparse = _block([DENSE, DENSE, DENSE, CSR, DENSE], [3], [4])
    rng = Rng(seed_of(name + "/b"))
    tensors = {"x": T(F32, [1, 3, 3, 16], lo=-2.0, hi=2.0),
               "w": T(F32, shape, const=_sparse_values(name, shape, [3], [4]), sparse=sparse),
               "wd": T(F32, shape), "b": T(F32, [8], const=[f32(rng.uniform(-1, 1)) for _ in range(8)]),
               "y": T(F32, [1, 3, 3, 8])}
    return Case(name, tensors, [("DENSIFY", ["w"], ["wd"], {}),
                                ("CONV_2D", ["x", "wd", "b"], ["y"],
                                 {"padding": "VALID", "stride_w": 1, "stride_h": 1})], ["x"], ["y"])


B1x4 = _block([DENSE, CSR, DENSE], [1], [4])


def cases(add):
    # DENSIFY, as the converter writes sparse weights for operators without sparse kernels
    add(fc_case("densify_f32_b1x4_fc", [8, 16], B1x4))
    add(fc_case("densify_f32_b4x1_fc", [16, 8], _block([DENSE, CSR, DENSE], [0], [4])))
    add(fc_case("densify_f32_b1x4_u16_fc", [6, 40],
                 _block([DENSE, CSR, DENSE], [1], [4], [None, (IDX_U16, IDX_U16), None])))
    add(fc_case("densify_f32_b2x2_i32_fc", [6, 8],
                 _block([DENSE, CSR, DENSE, DENSE], [0, 1], [2, 2], IDX_I32)))
    add(fc_case("densify_f16_b1x4_fc", [8, 16], B1x4, f16=True))
    add(fc_case("densify_i8_b1x16_fc", [4, 64], _block([DENSE, CSR, DENSE], [1], [16]), quant=True))
    # sphy61: DENSIFY's int8 output as hybrid weights: a run-time tensor to the delegate (LiteRT.js
    # fails to delegate it), builtin hybrid arithmetic in tfweb and tfcc's both modes
    add(fc_case("densify_i8_b1x16_hybrid_fc", [12, 48], _block([DENSE, CSR, DENSE], [1], [16]),
                hybrid={}))
    add(fc_case("densify_i8_b1x16_hybrid_asym_fc", [12, 48], _block([DENSE, CSR, DENSE], [1], [16]),
                hybrid={"asymmetric_quantize_inputs": True}))
    add(_add_case("densify_f32_dss_add", [3, 4, 5],
                  _block([DENSE, CSR, CSR], [], [], [None, (IDX_U16, IDX_U8), (IDX_I32, IDX_U8)])))
    add(_add_case("densify_f32_csr_add", [6, 10], _block([DENSE, CSR], [], [])))
    add(_add_case("densify_f32_csr_colmajor_add", [6, 10], _block([DENSE, CSR], [], [], IDX_I32,
                                                               order=[1, 0])))
    add(_add_case("densify_f32_sparse_sparse_add", [5, 7], _block([CSR, CSR], [], [], IDX_U16)))
    add(_conv_case("densify_f32_b1x4_conv_2d"))
    add(_add_case("densify_f32_all_zero_add", [4, 8], B1x4, keep=0.0))
    # spfc60: FULLY_CONNECTED reading sparse weights itself, in the layouts TFLite's kernel takes
    add(fc_case("sparse_fc_f32_b1x4", [8, 16], B1x4, direct=True))
    add(fc_case("sparse_fc_f32_b1x4_u16", [6, 40], _block([DENSE, CSR, DENSE], [1], [4],
                                                          [None, (IDX_U16, IDX_U16), None]), direct=True))
    add(fc_case("sparse_fc_f32_csr", [6, 10], _block([DENSE, CSR], [], []), batch=5, direct=True))
    add(fc_case("sparse_fc_i8_b1x16", [4, 64], _block([DENSE, CSR, DENSE], [1], [16]), quant=True,
                direct=True))
    add(fc_case("sparse_fc_i8_b1x16_wide", [33, 96], _block([DENSE, CSR, DENSE], [1], [16]),
                batch=2, quant=True, direct=True))
    # 2,048 outputs: the builtin kernel's fixed-point requantization, not the delegate's float one
    add(fc_case("sparse_fc_i8_b1x16_large", [128, 256], _block([DENSE, CSR, DENSE], [1], [16],
                                                               [None, (IDX_U16, IDX_U16), None]),
                batch=16, quant=True, direct=True))
    # sphy61: sparse int8 weights of one scale under a float32 input (TFLite's sparse hybrid
    # kernel); the reference is TFLite's dense hybrid kernel on the DENSIFY twin, whose arithmetic
    # is the sparse kernel's for symmetric inputs (asymmetric: the zero point's term is subtracted
    # in float there, in int32 here; float tolerance)
    add(fc_case("sparse_fc_hybrid_b1x16", [4, 64], _block([DENSE, CSR, DENSE], [1], [16]),
                direct=True, hybrid={}))
    add(fc_case("sparse_fc_hybrid_b1x16_asym_relu", [33, 96], _block([DENSE, CSR, DENSE], [1], [16]),
                batch=2, direct=True, hybrid={"asymmetric_quantize_inputs": True,
                                              "fused_activation_function": "RELU"}))
    add(fc_case("sparse_fc_hybrid_b1x16_large", [128, 256], _block([DENSE, CSR, DENSE], [1], [16],
                                                                   [None, (IDX_U16, IDX_U16), None]),
                batch=16, direct=True, hybrid={}))
