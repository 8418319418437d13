#!/usr/bin/env python3
"""Writes the hostile models of the opsc operators (StableHLO, LSH_PROJECTION,
EMBEDDING_LOOKUP_SPARSE, DILATE): each names a fault and the words tfcc's load or session
error must contain (index.txt: "<file> <substring>"). tests/ops/test_opsc_hostile_models.c
loads them; tests/fuzz/make_corpus.sh seeds the fuzzer with them.

usage: python3 modelgen/make_opsc_hostile.py --out tests/ops/data/opsc_hostile"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flexbuf  # noqa: E402
import tflite_schema as S  # noqa: E402
import seq_cases  # noqa: E402
import sparse_tensor  # noqa: E402
import make_fuzz_seeds  # noqa: E402
from casekit import OMIT, T, single  # noqa: E402

F32, I32 = S.FLOAT32, S.INT32
EMPTY_2P93 = [0, (1 << 31) - 1, (1 << 31) - 1, (1 << 31) - 1]


def composite(index):
    m = S.Model(description="hostile composite")
    x = m.add_tensor("x", F32, [2])
    z = m.add_tensor("z", F32, [2])
    _, sg = m.add_subgraph("decomposition")
    a = sg.add_tensor("a", F32, [2])
    b = sg.add_tensor("b", F32, [2])
    sg.add_op("RELU", [a], [b])
    sg.inputs, sg.outputs = [a], [b]
    m.add_op("STABLEHLO_COMPOSITE", [x], [z], {"name": "bad", "decomposition_subgraph_index": index,
                                               "version": 1, "composite_attributes": flexbuf.map_bytes({})})
    m.inputs, m.outputs = [x], [z]
    return S.serialize(m)


def shlo_case(branches, index_dtype=I32, n_sub=2, sub_inputs=1):
    """ops: z = STABLEHLO_CASE(index, x) over n_sub RELU subgraphs (sub_inputs inputs each)."""
    m = S.Model(description="hostile stablehlo case")
    i = m.add_tensor("index", index_dtype, [])
    x = m.add_tensor("x", F32, [2])
    z = m.add_tensor("z", F32, [2])
    for k in range(n_sub):
        _, sg = m.add_subgraph("branch_%d" % k)
        ins = [sg.add_tensor("a%d" % j, F32, [2]) for j in range(sub_inputs)]
        b = sg.add_tensor("b", F32, [2])
        sg.add_op("RELU", [ins[0]], [b])
        sg.inputs, sg.outputs = ins, [b]
    m.add_op("STABLEHLO_CASE", [i, x], [z], {"branch_subgraph_indices": branches})
    m.inputs, m.outputs = [i, x], [z]
    return S.serialize(m)


def rng_bits(alg, n_state, bits_dtype, state_dtype=None):
    """ops: (state', bits) = STABLEHLO_RNG_BIT_GENERATOR(state)."""
    sd = S.UINT64 if state_dtype is None else state_dtype
    return one("STABLEHLO_RNG_BIT_GENERATOR", [T(sd, [n_state], const=[1] * n_state)],
               [T(sd, [n_state]), T(bits_dtype, [4])], {"algorithm": alg})


def gather(oshape, ishape, idt, out, offset, collapsed, smap, ivd, sizes):
    return one("STABLEHLO_GATHER", [T(F32, oshape), T(idt, ishape)], [T(F32, out)],
               {"offset_dims": offset, "collapsed_slice_dims": collapsed, "start_index_map": smap,
                "index_vector_dim": ivd, "slice_sizes": sizes})


def reduce_window(fn, win, strides):
    I64 = S.INT64
    return one("REDUCE_WINDOW", [T(F32, [4, 4]), T(F32, [], const=[0.0]), T(I64, [2], const=win),
                                 T(I64, [2], const=strides), T(I64, [2], const=[1, 1])], [T(F32, [3, 3])],
               {"reduce_function": fn})


def shlo_reduce_window(body_index, body_op, window, shape=(4, 4), out=(3, 3), **opts):
    m = S.Model(description="hostile stablehlo reduce_window")
    x = m.add_tensor("x", I32, list(shape))
    iv = m.add_tensor("init", I32, [], data=S.pack(I32, [0]))
    z = m.add_tensor("z", I32, list(out))
    _, sg = m.add_subgraph("body")
    a, b, c = (sg.add_tensor(k, I32, []) for k in ("a", "b", "c"))
    sg.add_op(body_op, [a, b], [c])
    sg.inputs, sg.outputs = [a, b], [c]
    m.add_op("STABLEHLO_REDUCE_WINDOW", [x, iv], [z], dict({"window_dimensions": window,
                                                            "body_subgraph_index": body_index}, **opts))
    m.inputs, m.outputs = [x], [z]
    return S.serialize(m)


def scatter(body_op, ushape, indices=None):
    """indices: constant int64 start indices [2, 1] (and x, u constant: the scatter is computed at
    load or prepare); None: all three are model inputs."""
    m = S.Model(description="hostile stablehlo scatter")
    const = indices is not None
    x = m.add_tensor("x", F32, [5, 3], data=S.pack(F32, [1.0] * 15) if const else None)
    i = m.add_tensor("i", S.INT64 if const else I32, [2, 1], data=S.pack(S.INT64, indices) if const else None)
    u = m.add_tensor("u", F32, ushape, data=S.pack(F32, [2.0] * 6) if const else None)
    z = m.add_tensor("z", F32, [5, 3])
    _, sg = m.add_subgraph("update_computation")
    a, b, c = (sg.add_tensor(k, F32, []) for k in ("a", "b", "c"))
    sg.add_op(body_op, [a, b], [c])
    sg.inputs, sg.outputs = [a, b], [c]
    m.add_op("STABLEHLO_SCATTER", [x, i, u], [z], {"update_window_dims": [1], "inserted_window_dims": [0],
                                                    "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1,
                                                    "update_computation_subgraph_index": 1})
    m.inputs, m.outputs = ([] if const else [x, i, u]), [z]
    return S.serialize(m)


def one(op, ins, outs, opts=None):
    return single("hostile", op, ins, outs, opts).build()[0]


def sparse_w(shape, dtype=F32, per_channel=False, **sparse):
    """review59: a constant, by default float32 1x4 block sparse along its last dimension (DENSE,
    CSR, DENSE); spfc60: other layouts (formats, block_map, block_size, traversal_order);
    sphy61: per_channel, one scale per row of quantized weights."""
    vals = [0.0 if (i // 4) % 3 else 0.5 for i in range(shape[0] * shape[1])]
    q = None
    if dtype != F32:
        vals, q = [int(v * 2) for v in vals], (0.5, 0)
    if dtype != F32 and per_channel:
        q = {"scale": [0.5] * shape[0], "zero_point": [0] * shape[0], "quantized_dimension": 0}
    layout = {"formats": [0, 1, 0], "block_map": [1], "block_size": [4]}
    layout.update(sparse)
    return T(dtype, shape, const=vals, sparse=layout, q=q)


def fc_sparse_budget():
    """review61: float32 random-sparse FULLY_CONNECTED weights [256, 1024] holding one value a
    row: a file of about 4 KiB whose dense weights (1 MiB) fit its load budget (64 times the
    file's size + 1 MiB) once. The reader charged them twice, as the dense form DENSIFY would
    make and again as FULLY_CONNECTED's expansion, and refused the model."""
    rows, cols = 256, 1024
    vals = [0.0] * (rows * cols)
    for r in range(rows):
        vals[r * cols + (r * 37) % cols] = 0.25
    w = T(F32, [rows, cols], const=vals,
          sparse={"formats": [0, 1], "index_types": sparse_tensor.IDX_U16})
    return one("FULLY_CONNECTED", [T(F32, [1, cols]), w, OMIT], [T(F32, [1, rows])])
def sparse_hybrid_fc(edit, enc_shape=(4, 32), shape=None):
    """fuzz61: a float32 FULLY_CONNECTED over int8 1x16 block-sparse weights of one scale
    (sparse hybrid, sphy61), encoded from enc_shape, declared shape (default enc_shape), its
    encoding then altered by edit(stored, sparsity) (returns the stored values)."""
    rows, cols = enc_shape
    vals = [(i % 7) - 3 if (i // 16) % 3 != 1 else 0 for i in range(rows * cols)]
    stored, sp = sparse_tensor.encode([rows, cols], vals, [0, 1, 0], block_map=[1], block_size=[16])
    stored = edit(stored, sp)
    shape = list(shape or enc_shape)
    m = S.Model(description="hostile sparse hybrid FULLY_CONNECTED")
    x = m.add_tensor("x", F32, [2, shape[1]])
    w = m.add_tensor("w", S.INT8, shape, data=S.pack(S.INT8, stored),
                     quant={"scale": [0.5], "zero_point": [0]}, sparsity=sp)
    y = m.add_tensor("y", F32, [2, shape[0]])
    m.add_op("FULLY_CONNECTED", [x, w], [y])
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def csr_indices(level, change):
    """An edit for sparse_hybrid_fc: level's CSR indices (type, list) replaced by change(list)."""
    def edit(stored, sp):
        t, idx = sp["dim_metadata"][level]["indices"]
        sp["dim_metadata"][level]["indices"] = (t, change(list(idx)))
        return stored
    return edit


def csr_segments(level, change):
    def edit(stored, sp):
        t, seg = sp["dim_metadata"][level]["segments"]
        sp["dim_metadata"][level]["segments"] = (t, change(list(seg)))
        return stored
    return edit


def dw_i16(in_shape, f_shape, out_shape, mult=1, stride_w=1, const_filter=True):
    """fuzz61: an int16x8 DEPTHWISE_CONV_2D (per-channel int8 filter, int64 bias), VALID; the
    filter a constant of repeating small values, or (const_filter False) a graph input."""
    oc = f_shape[3]
    fq = {"scale": [0.02] * oc, "zero_point": [0] * oc, "quantized_dimension": 3}
    n = f_shape[0] * f_shape[1] * f_shape[2] * oc
    f = T(S.INT8, f_shape, q=fq, const=[(i % 5) - 2 for i in range(n)] if const_filter else None)
    ins = [T(S.INT16, in_shape, q=(0.001, 0)), f,
           T(S.INT64, [oc], q={"scale": [0.00002] * oc, "zero_point": [0] * oc, "quantized_dimension": 0},
             const=[3] * oc)]
    return shape_only("DEPTHWISE_CONV_2D", ins, [T(S.INT16, out_shape, q=(0.01, 0))],
                      {"padding": "VALID", "stride_w": stride_w, "stride_h": 1, "depth_multiplier": mult,
                       "dilation_w_factor": 1, "dilation_h_factor": 1})


def sparse_graph_output():
    """review59: a sparse constant listed among the graph's outputs."""
    m = S.Model(description="hostile sparse output")
    vals, sp = sparse_tensor.encode([4, 8], [0.0 if (i // 4) % 3 else 0.5 for i in range(32)],
                                    [0, 1, 0], block_map=[1], block_size=[4])
    x = m.add_tensor("x", F32, [4, 8])
    y = m.add_tensor("y", F32, [4, 8])
    w = m.add_tensor("w", F32, [4, 8], data=S.pack(F32, vals), sparsity=sp)
    m.add_op("RELU", [x], [y])
    m.inputs, m.outputs = [x], [y, w]
    return S.serialize(m)


def densify_huge():
    """review59: 7 stored values of a [83886085, 7] float32 sparse tensor (row 0 of a CSR level
    over the rows): its dense form is 2.3 GB (the fuzzer's 1 KiB find)."""
    m = S.Model(description="hostile densify")
    rows = 83886085
    sp = {"traversal_order": [0, 1], "block_map": [],
          "dim_metadata": [{"format": 1, "dense_size": rows, "segments": (1, [0, 1]),
                            "indices": (1, [0])}, {"format": 0, "dense_size": 7}]}
    w = m.add_tensor("w", F32, [rows, 7], data=S.pack(F32, [0.5] * 7), sparsity=sp)
    y = m.add_tensor("y", F32, [rows, 7])
    m.add_op("DENSIFY", [w], [y])
    m.inputs, m.outputs = [], [y]
    return S.serialize(m)


def shape_only(op, ins, outs, opts=None):
    """one() for inputs too large to fill: no runtime values are drawn (only the model is
    written)."""
    for t in ins:
        if t is not OMIT and t.const is None:
            t.values = []
    return one(op, ins, outs, opts)


def detect_opts(max_det, regular, dpc, classes):
    return flexbuf.map_bytes({"max_detections": max_det, "max_classes_per_detection": 1,
                              "detections_per_class": dpc, "use_regular_nms": regular,
                              "nms_score_threshold": 0.0, "nms_iou_threshold": 0.5,
                              "num_classes": classes, "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0,
                              "w_scale": 5.0})


def detect_work(n, classes, max_det, regular, dpc):
    """fuzz53: TFLite_Detection_PostProcess over n boxes of `classes` classes (and a background
    column), its inputs graph inputs."""
    ins = [T(F32, [1, n, 4]), T(F32, [1, n, classes + 1]), T(F32, [n, 4])]
    outs = [T(F32, [1, max_det, 4]), T(F32, [1, max_det]), T(F32, [1, max_det]), T(F32, [1])]
    return shape_only("CUSTOM:TFLite_Detection_PostProcess", ins, outs, detect_opts(max_det, regular, dpc, classes))


def dynamic_pool_512():
    """fuzz53: RESHAPE of a [262144] input to the shape a second input gives, then a SAME
    average pooling with a 512 x 512 window: with the shape [1, 512, 512, 1] the pooling (whose
    shapes come with the data: a dynamic node, no estimate before the run) walks 6.9e10 taps.
    tests/ops/test_opsc_hostile_models.c runs it under tfcc_session_set_run_max_work."""
    m = S.Model(description="hostile dynamic pooling")
    x = m.add_tensor("x", F32, [512 * 512])
    shape = m.add_tensor("shape", I32, [4])
    r = m.add_tensor("r", F32, [1, 512, 512, 1])
    y = m.add_tensor("y", F32, [1, 512, 512, 1])
    m.add_op("RESHAPE", [x, shape], [r], {})
    m.add_op("AVERAGE_POOL_2D", [r], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1, "filter_width": 512,
                                           "filter_height": 512})
    m.inputs, m.outputs = [x, shape], [y]
    return S.serialize(m)


def moe(changes=(), gate_const=True, linear_n=24, src=(3, 4)):
    """sweep7: moe with 2 experts, 2 a token, model_dim 4, hidden_dim 3 over 3 tokens; changes:
    options replaced (None: removed; changes None: no options at all)."""
    o = {"num_experts": 2, "num_active_experts": 2, "model_dim": 4, "hidden_dim": 3, "weight_type": "fp32"}
    if changes is not None:
        for k, v in dict(changes).items():
            if v is None:
                o.pop(k)
            else:
                o[k] = v
    gate = T(F32, [3, 2, 4], const=[0.1] * 24) if gate_const else T(F32, [3, 2, 4])
    ins = [T(F32, list(src)), T(F32, [3, 2]), T(I32, [3, 2]), gate, T(F32, [3, 2, 4], const=[0.2] * 24),
           T(F32, [linear_n], const=[0.3] * linear_n), T(F32, [2], const=[1.0, 1.0])]
    return one("CUSTOM:moe", ins, [T(F32, list(src))], None if changes is None else flexbuf.map_bytes(o))


def blockwise_fc(block_size=32, scales_shape=(4, 2), scales_index=3, zero_points=-1, wdtype=S.INT4,
                 op="FULLY_CONNECTED"):
    """ops: FULLY_CONNECTED (or op, e.g. BATCH_MATMUL) with float input and blockwise-quantized
    weights [4, 64]."""
    m = S.Model(description="hostile blockwise FULLY_CONNECTED")
    x = m.add_tensor("x", F32, [1, 64])
    q = {"blockwise": {"scales": scales_index, "zero_points": zero_points, "block_size": block_size}}
    w = m.add_tensor("w", wdtype, [4, 64], data=S.pack(wdtype, [1] * 256), quant=q)
    y = m.add_tensor("y", F32, [1, 4])
    n = scales_shape[0] * scales_shape[1]
    m.add_tensor("s", S.FLOAT16, list(scales_shape), data=S.pack(S.FLOAT16, [0.01] * n))
    if op == "FULLY_CONNECTED":
        m.add_op(op, [x, w, -1], [y], {})
    else:
        m.add_op(op, [x, w], [y], {"adj_y": True})
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def bidi_lstm_aux(na=None, drop=None):
    """ops: BIDIRECTIONAL_SEQUENCE_LSTM with cross-linked auxiliary input (seq_cases), its
    auxiliary input of na features, or input `drop` (39-47) left out."""
    c = seq_cases.bidi_lstm_case("hostile_bidi_aux", 2, 3, 4, 5, 5, aux="cross", na=na)
    if drop is not None:
        c.ops[0][1][drop] = OMIT
    return c.build()[0]


def lstm_ln_scale(scale):
    """ops: a full-integer UNIDIRECTIONAL_SEQUENCE_LSTM with layer norm (seq_cases) whose gate 1
    layer-norm coefficients have quantization scale `scale`."""
    c = seq_cases.seq_lstm_case("hostile_lstm_ln_scale", "i8", 2, 3, 5, 6, 4, ln=True, proj=True)
    c.tensors["l1"].q = (scale, 0)
    return c.build()[0]


def lstm_cell_scale(log2, cifg=False):
    """sweep62b: a full-integer UNIDIRECTIONAL_SEQUENCE_LSTM (seq_cases) whose cell state has
    scale 2^log2."""
    c = seq_cases.seq_lstm_case("hostile_lstm_cell_scale", "i8", 2, 3, 5, 6, 6, cifg=cifg,
                                cell_log2=log2)
    return c.build()[0]


def svdf_out_quant(scale, zp):
    """fuzz53: a full-integer SVDF (seq_cases, 3 steps) whose outputs have quantization (scale, zp)."""
    c = seq_cases.svdf_case("hostile_svdf_out_quant", "i8", 2, 5, 4, 3, 1)
    for k, t in c.tensors.items():
        if k.startswith("y"):
            t.q = (scale, zp)
    return c.build()[0]


def bidi_rnn_aux(features=None, drop=None):
    """ops: BIDIRECTIONAL_SEQUENCE_RNN with cross-linked auxiliary input (seq_cases), its
    auxiliary input and weights of `features` features, or input `drop` (9-11) left out."""
    c = seq_cases.seq_rnn_case("hostile_bidi_rnn_aux", 2, 3, 4, 5, bidi=True, aux="cross")
    if features is not None:
        c.tensors["a"] = T(F32, [2, 3, features])
        for k in ("fa", "ba"):
            c.tensors[k] = T(F32, [5, features], const=[0.25] * (5 * features))
    if drop is not None:
        c.ops[0][1][drop] = OMIT
    return c.build()[0]


MODELS = [
    ("fc_blockwise_block_size", lambda: blockwise_fc(block_size=48),
     "block size 48 does not divide the 64 weights of a row"),
    ("fc_blockwise_scales_shape", lambda: blockwise_fc(scales_shape=(2, 4)),
     "scales tensor 3 (s) must be constant float16 or float32 [4, 2]"),
    ("fc_blockwise_scales_index", lambda: blockwise_fc(scales_index=9),
     "scales tensor 9 out of range (4 tensors)"),
    ("fc_blockwise_zero_points", lambda: blockwise_fc(zero_points=0),
     "blockwise quantization with zero points (tensor 0) unsupported"),
    ("fc_blockwise_block_size_0", lambda: blockwise_fc(block_size=0),
     "blockwise quantization without details or with block size 0"),
    ("fc_blockwise_int8_weights", lambda: blockwise_fc(wdtype=S.INT8),
     "blockwise-quantized weights tensor 1 (w) is int8 (TFLite's kernels take int4 only)"),
    ("bmm_blockwise_rhs", lambda: blockwise_fc(op="BATCH_MATMUL"),
     "input 1 is tensor 1 (w) with blockwise quantization, which runs only as FULLY_CONNECTED weights"),
    # format: TFLite's ADD Prepare gives its output the inputs' type (uint8), where a declared
    # float32 zero point of 300 does not fit
    ("add_declared_f32_zero_point_300", lambda: one("ADD", [T(S.UINT8, [4], q=(0.5, 3)), T(S.UINT8, [4], q=(0.5, 3))],
                                                    [T(F32, [4], q=(0.5, 300))]),
     "is declared float32 with zero point 300, outside uint8, the type TFLite's Prepare gives it"),
    ("composite_recursive", lambda: composite(0), "recursive subgraph calls"),
    ("composite_out_of_range", lambda: composite(7), "decomposition_subgraph_index 7 is out of range"),
    ("stablehlo_add_shapes", lambda: one("STABLEHLO_ADD", [T(F32, [2, 3]), T(F32, [3, 2])], [T(F32, [2, 3])]),
     "STABLEHLO_ADD: input 0 shape [2,3] and input 1 shape [3,2] differ"),
    ("stablehlo_shift_left_float", lambda: one("STABLEHLO_SHIFT_LEFT", [T(F32, [4]), T(F32, [4])], [T(F32, [4])]),
     "STABLEHLO_SHIFT_LEFT: input 0 dtype float32 is not supported"),
    ("stablehlo_pad_short_options", lambda: one("STABLEHLO_PAD", [T(F32, [2, 3]), T(F32, [], const=[0.0])],
                                                [T(F32, [3, 3])], {"edge_padding_low": [1], "edge_padding_high": [0],
                                                                   "interior_padding": [0]}),
     "StablehloPadOptions has 1/1/1 edge_padding_low/high/interior entries"),
    ("stablehlo_pad_negative_interior", lambda: one("STABLEHLO_PAD", [T(F32, [2]), T(F32, [], const=[0.0])],
                                                    [T(F32, [2])], {"edge_padding_low": [0], "edge_padding_high": [0],
                                                                    "interior_padding": [-1]}),
     "interior_padding[0] is -1"),
    ("embedding_lookup_sparse_combiner", lambda: one(
        "EMBEDDING_LOOKUP_SPARSE", [T(I32, [1], const=[0]), T(I32, [1, 1], const=[0]), T(I32, [1], const=[1]),
                                    T(F32, [1]), T(F32, [2, 2])], [T(F32, [2])], {"combiner": 5}),
     "EmbeddingLookupSparseOptions.combiner 5 out of range"),
    ("embedding_lookup_sparse_ids_dtype", lambda: one(
        "EMBEDDING_LOOKUP_SPARSE", [T(F32, [1]), T(I32, [1, 1], const=[0]), T(I32, [1], const=[1]),
                                    T(F32, [1]), T(F32, [2, 2])], [T(F32, [2])], {"combiner": 0}),
     "input 0 (ids) dtype float32, expected int32"),
    ("lsh_projection_unknown_type", lambda: one("LSH_PROJECTION", [T(F32, [2, 3], const=[0.0] * 6), T(I32, [4])],
                                                [T(I32, [2])], {"type": 0}),
     "LSHProjectionOptions.type 0 is not SPARSE (1) or DENSE (2)"),
    ("lsh_projection_weight_shape", lambda: one("LSH_PROJECTION", [T(F32, [2, 3], const=[0.0] * 6), T(I32, [4]),
                                                                   T(F32, [3])], [T(I32, [2])], {"type": 1}),
     "input 2 (weight) must be [4]"),
    ("dilate_padding_dtype", lambda: one("DILATE", [T(F32, [2, 2]), T(I32, [2], const=[2, 2]), T(I32, [], const=[0])],
                                         [T(F32, [3, 3])]),
     "input 2 (padding_value) dtype int32 differs from input 0 dtype float32"),
    ("stablehlo_gather_slice_too_big", lambda: gather([5, 4], [3, 1], I32, [3, 5], [1], [0], [0], 1, [1, 5]),
     "slice_sizes[1] = 5 outside [0, 4]"),
    ("stablehlo_gather_offset_dims_order", lambda: gather([6, 7], [2, 2], I32, [2, 2, 3], [2, 1], [], [0, 1], 1,
                                                          [2, 3]),
     "offset_dims (2 entries) must be 2 ascending output dimensions"),
    ("stablehlo_gather_float_indices", lambda: gather([5, 4], [3, 1], F32, [3, 4], [1], [0], [0], 1, [1, 4]),
     "input 1 (start_indices) dtype float32, expected int32 or int64"),
    ("stablehlo_gather_collapsed_size0", lambda: gather([5, 4], [3, 1], I32, [3, 4], [1], [0], [0], 1, [0, 4]),
     "collapsed dimension 0 has slice size 0 (must be 1)"),
    ("stablehlo_reduce_window_body_index", lambda: shlo_reduce_window(5, "STABLEHLO_ADD", [2, 2]),
     "body_subgraph_index 5 is out of range"),
    ("stablehlo_reduce_window_body_op", lambda: shlo_reduce_window(1, "STABLEHLO_SHIFT_LEFT", [2, 2]),
     "body subgraph 1's operator STABLEHLO_SHIFT_LEFT is not a reduction"),
    ("stablehlo_reduce_window_options_rank", lambda: shlo_reduce_window(1, "STABLEHLO_ADD", [2]),
     "do not match the input rank 2"),
    # fuzz52: the dilated input of [2, 2, 2] by 2^24 - 1 has 2^72 elements; its scratch size
    # wrapped to 0 bytes and the dilation wrote past it
    ("stablehlo_reduce_window_dilated_2p72", lambda: shlo_reduce_window(
        1, "STABLEHLO_ADD", [1, 1, 1], shape=(2, 2, 2), out=(2, 2, 2), window_strides=[(1 << 24) - 1] * 3,
        base_dilations=[(1 << 24) - 1] * 3),
     "STABLEHLO_REDUCE_WINDOW: dimension 2: the input dilated (16777216) or padded (16777216) passes 2^48"),
    # fuzz52: the kernel rescales by the scale's multiplier times 2^12: 1.2e18 asked for a left
    # shift of 2^43 (undefined; its multiplier saturates at 2^31), and 10000 x it for an int32 guard
    ("lstm_i8_layer_norm_scale_1e18", lambda: lstm_ln_scale(1.2e18),
     "layer-norm coefficients 21: scale 1.2e+18 is too large (2^31, the kernel shifts by at most 2^19)"),
    # sweep62b: below 2^-15 TFLite's ApplyTanh writes nothing and its output is the input gate's
    # scratch, which a CIFG LSTM never writes; below 2^-30 the cell update's shift is negative
    ("lstm_i8_cifg_cell_scale_2m17", lambda: lstm_cell_scale(-17, cifg=True),
     "cell state scale 2^-17 with CIFG: TFLite skips the cell tanh below 2^-15"),
    ("lstm_i8_cell_scale_2m31", lambda: lstm_cell_scale(-31), "cell state scale 2^-31 unsupported (2^-30..2^-9)"),
    ("lstm_i8_cell_scale_2m8", lambda: lstm_cell_scale(-8), "cell state scale 2^-8 unsupported (2^-30..2^-9)"),
    ("stablehlo_scatter_body_op", lambda: scatter("ADD", [2, 3]),
     "update computation subgraph 1's operator ADD is not supported"),
    ("stablehlo_scatter_updates_shape", lambda: scatter("STABLEHLO_ADD", [3, 3]),
     "updates dimension 0 (3) differs from indices dimension 0 (2)"),
    ("reduce_window_unsupported_fn", lambda: reduce_window(0, [2, 2], [1, 1]),
     "ReduceWindowOptions.reduce_function 0 is UNSUPPORTED"),
    ("reduce_window_zero_stride", lambda: reduce_window(1, [2, 2], [1, 0]), "window_strides[1] is 0"),
    # ops: STABLEHLO_CASE
    ("stablehlo_case_branch_out_of_range", lambda: shlo_case([1, 9]),
     "branch_subgraph_indices entry 9 is out of range"),
    ("stablehlo_case_recursive", lambda: shlo_case([1, 0]), "recursive subgraph calls"),
    ("stablehlo_case_no_branches", lambda: shlo_case([]), "branch_subgraph_indices is empty"),
    ("stablehlo_case_float_index", lambda: shlo_case([1, 2], index_dtype=F32),
     "STABLEHLO_CASE: the branch index must be one int32 (it is float32"),
    ("stablehlo_case_branch_inputs", lambda: shlo_case([1, 2], sub_inputs=2),
     "STABLEHLO_CASE: subgraph 1 has 2 inputs, the operator passes 1"),
    # ops: STABLEHLO_RNG_BIT_GENERATOR
    ("rng_bit_generator_threefry_state3", lambda: rng_bits(2, 3, I32),
     "THREEFRY takes a uint64[2] state (input 0 has 3 words)"),
    ("rng_bit_generator_state_dtype", lambda: rng_bits(1, 2, I32, state_dtype=S.INT64),
     "input 0 (initial_state) dtype int64, expected uint64"),
    ("rng_bit_generator_float_bits", lambda: rng_bits(1, 2, F32),
     "output 1 dtype float32, expected int32, uint32, int64 or uint64"),
    ("rng_bit_generator_algorithm", lambda: rng_bits(7, 2, I32),
     "StablehloRngBitGeneratorOptions.algorithm 7 out of range"),
    # ops: newer operator versions and their dtypes
    ("fully_connected_v15", lambda: versioned_fc(15), "FULLY_CONNECTED version 15 (tfcc implements up to version 14)"),
    # ops: run-time int4 tensors (GATHER / TRANSPOSE v7, QUANTIZE v4), int16 comparisons, versions
    ("gather_int8_const_to_int4", lambda: one("GATHER", [T(S.INT8, [4, 2], q=(0.5, 0), const=[1, -2, 30, -4, 5, -6, 7, -8]),
                                                         T(I32, [2], const=[0, 3])], [T(S.INT4, [2, 2], q=(0.5, 0))],
                                              {"_version": 7}),
     "GATHER: input 0 is a constant int8 tensor with value 30 at element 2, outside int4's [-8, 7]"),
    ("gather_int4_to_int8", lambda: one("GATHER", [T(S.INT4, [4, 2], q=(0.5, 0)), T(I32, [2], const=[0, 3])],
                                        [T(S.INT8, [2, 2], q=(0.5, 0))], {"_version": 7}),
     "GATHER: output 0 dtype int8, expected int4"),
    ("transpose_int4_to_float", lambda: one("TRANSPOSE", [T(S.INT4, [2, 3], q=(0.5, 0)), T(I32, [2], const=[1, 0])],
                                            [T(F32, [3, 2])], {"_version": 7}),
     "TRANSPOSE: output 0 dtype float32, expected int4"),
    ("quantize_int4_per_axis", lambda: one("QUANTIZE", [T(F32, [2, 3])],
                                           [T(S.INT4, [2, 3], q={"scale": [0.5, 0.25], "zero_point": [0, 0],
                                                                 "quantized_dimension": 0})], {"_version": 4}),
     "int4 output with per-axis quantization (2 scales) not supported"),
    ("quantize_int4_zero_point", lambda: one("QUANTIZE", [T(F32, [2, 3])], [T(S.INT4, [2, 3], q=(0.5, 9))],
                                             {"_version": 4}),
     "quantization zero point 0 is 9, outside int4 [-8, 7]"),
    ("quantize_int4_to_int8", lambda: one("QUANTIZE", [T(S.INT4, [2, 3], q=(0.5, 0))], [T(S.INT8, [2, 3], q=(0.5, 0))],
                                          {"_version": 4}),
     "input int4 with output int8 not supported"),
    ("equal_int16_quant_mixed", lambda: one("EQUAL", [T(S.INT16, [4], q=(0.01, 0)), T(S.INT16, [4])], [T(S.BOOL, [4])],
                                            {"_version": 5}),
     "EQUAL: input 1 has no quantization parameters but input 0 has"),
    ("concatenation_int4_int8_input", lambda: one("CONCATENATION", [T(S.INT4, [2, 2], q=(0.5, 0)),
                                                                   T(S.INT8, [2, 2], q=(0.5, 0))],
                                                  [T(S.INT4, [4, 2], q=(0.5, 0))], {"axis": 0, "_version": 5}),
     "CONCATENATION: input 1 dtype int8, expected int4"),
    ("dynamic_update_slice_int4_update", lambda: one(
        "DYNAMIC_UPDATE_SLICE", [T(S.INT4, [3, 3], q=(0.5, 0)), T(S.INT8, [1, 2], q=(0.5, 0), const=[3, 40]),
                                 T(I32, [2], const=[0, 0])], [T(S.INT4, [3, 3], q=(0.5, 0))], {"_version": 5}),
     "DYNAMIC_UPDATE_SLICE: update is a constant int8 tensor with value 40 at element 1"),
    ("add_f16_f32", lambda: one("ADD", [T(S.FLOAT16, [4], values=[1.0] * 4), T(F32, [4])], [T(S.FLOAT16, [4])], {"_version": 6}),
     "ADD: input 1 dtype float32, expected float16"),
    ("sub_f16", lambda: one("SUB", [T(S.FLOAT16, [4], values=[1.0] * 4), T(S.FLOAT16, [4], values=[2.0] * 4)], [T(S.FLOAT16, [4])]),
     "SUB: dtype float16 not supported"),
    ("sqrt_v3", lambda: one("SQRT", [T(F32, [4])], [T(F32, [4])], {"_version": 3}),
     "SQRT version 3 (tfcc implements up to version 2)"),
    ("dequantize_v10", lambda: one("DEQUANTIZE", [T(S.INT8, [4], q=(0.5, 0))], [T(F32, [4])], {"_version": 10}),
     "DEQUANTIZE version 10 (tfcc implements up to version 9)"),
    ("int4_buffer_short", lambda: int4_short(), "int4 needs 4"),
    ("cast_bf16_to_complex64", lambda: one("CAST", [T(S.BFLOAT16, [3], const=[1.0, 2.0, 3.0])], [T(S.COMPLEX64, [3])]),
     "CAST: bfloat16 to complex64 not supported"),
    ("stablehlo_add_f16_f32", lambda: one("STABLEHLO_ADD", [T(S.FLOAT16, [4], values=[1.0] * 4), T(F32, [4])],
                                          [T(S.FLOAT16, [4])]),
     "STABLEHLO_ADD: input 1 dtype float32 differs from input 0 dtype float16"),
    # types: malformed int2 / uint4 / float8 tensors and forms TFLite does not run
    ("int2_buffer_short", lambda: packed_short(S.INT2, bytes([0x1B])), "int2 needs 2"),
    ("uint4_buffer_short", lambda: packed_short(S.UINT4, bytes([0x12, 0x34])), "uint4 needs 3"),
    ("float8_buffer_short", lambda: float8_short(), "float8_e4m3fn needs 6"),
    ("int2_zero_point", lambda: one("DEQUANTIZE", [T(S.INT2, [4], q=(0.5, 2), const=[0, 1, -1, -2])], [T(F32, [4])],
                                    {"_version": 7}),
     "outside int2 [-2, 1]"),
    ("uint4_zero_point", lambda: one("QUANTIZE", [T(F32, [2, 3])], [T(S.UINT4, [2, 3], q=(0.5, 16))], {"_version": 5}),
     "outside uint4 [0, 15]"),
    ("quantize_uint4_per_axis", lambda: one("QUANTIZE", [T(F32, [2, 3])],
                                            [T(S.UINT4, [2, 3], q={"scale": [0.5, 0.25], "zero_point": [0, 0],
                                                                   "quantized_dimension": 0})], {"_version": 5}),
     "uint4 output with per-axis quantization (2 scales) not supported"),
    ("cast_int32_to_int2", lambda: one("CAST", [T(I32, [4])], [T(S.INT2, [4])], {"_version": 8}),
     "CAST: int32 to int2 not supported"),
    ("cast_uint4_to_int32", lambda: uint4_to_int32(), "CAST: uint4 to int32 not supported"),
    ("embedding_lookup_int2_output", lambda: one("EMBEDDING_LOOKUP", [T(I32, [2], const=[0, 1]),
                                                                     T(S.INT2, [2, 4], q=(0.5, 0))],
                                                 [T(S.INT2, [2, 4], q=(0.5, 0))], {"_version": 5}),
     "EMBEDDING_LOOKUP: int2 table with int2 output not supported"),
    ("gather_float8_to_float32", lambda: one("GATHER", [T(S.FLOAT8_E4M3FN, [4, 2]), T(I32, [2], const=[0, 3])],
                                             [T(F32, [2, 2])], {"_version": 8}),
     "GATHER: output 0 dtype float32, expected float8_e4m3fn"),
    ("padv2_float8_f32_value", lambda: one("PADV2", [T(S.FLOAT8_E5M2, [2, 2]), T(I32, [2, 2], const=[1, 0, 0, 1]),
                                                     T(F32, [], const=[0.0])], [T(S.FLOAT8_E5M2, [3, 3])],
                                           {"_version": 6}),
     "PADV2: constant_values dtype float32, expected float8_e5m2"),
    ("add_float8", lambda: one("ADD", [T(S.FLOAT8_E4M3FN, [4]), T(S.FLOAT8_E4M3FN, [4])], [T(S.FLOAT8_E4M3FN, [4])]),
     "float8_e4m3fn"),
    ("concatenation_float8_mixed", lambda: one("CONCATENATION", [T(S.FLOAT8_E4M3FN, [2, 2]), T(S.FLOAT8_E5M2, [2, 2])],
                                               [T(S.FLOAT8_E4M3FN, [4, 2])], {"axis": 0, "_version": 7}),
     "CONCATENATION: input 1 dtype float8_e5m2, expected float8_e4m3fn"),
    # ops: int2 / int4 FULLY_CONNECTED weights with a non-zero zero point (TFLite's Prepare refuses)
    ("fully_connected_int2_zero_point", lambda: packed_fc_zero_point(S.INT2),
     "weights tensor 1 (w) is int2 with zero point 1 at index 1 (TFLite runs int4 / int2 weights only with zero point 0)"),
    ("fully_connected_int4_zero_point", lambda: packed_fc_zero_point(S.INT4),
     "weights tensor 1 (w) is int4 with zero point 1 at index 1"),
    # fuzz53 (stage-5-like run, seed 55): a CONV_3D depth dilation of 1668505465: the effective
    # window (k - 1) * dilation + 1 overflowed int32 in prepare; refused as the 2-D geometry
    ("conv_3d_dilation_1668505465", lambda: one("CONV_3D", [T(F32, [1, 4, 4, 4, 1]), T(F32, [3, 1, 1, 1, 1], const=[1.0] * 3)],
                                                [T(F32, [1, 4, 4, 4, 1])],
                                                {"padding": "SAME", "stride_d": 1, "stride_w": 1, "stride_h": 1,
                                                 "dilation_d_factor": 1668505465, "dilation_w_factor": 1,
                                                 "dilation_h_factor": 1}),
     "CONV_3D: window positions (output 4 x 4 x 4, strides 1, 1, 1, dilations 1668505465, 1, 1) pass int32"),
    # fuzz53: a block_size whose square passes int32 (65536 * 65536 overflowed in prepare)
    ("depth_to_space_block_65536", lambda: one("DEPTH_TO_SPACE", [T(F32, [1, 1, 1, 4])], [T(F32, [1, 2, 2, 1])],
                                               {"block_size": 65536}),
     "DEPTH_TO_SPACE: block_size 65536 (1..46340: its square must fit int32)"),
    ("space_to_depth_block_46341", lambda: one("SPACE_TO_DEPTH", [T(F32, [1, 2, 2, 1])], [T(F32, [1, 1, 1, 4])],
                                               {"block_size": 46341}),
     "SPACE_TO_DEPTH: block_size 46341 (1..46340: its square must fit int32)"),
    # fuzz53: an SVDF of 65536 filters x 65536 memory slots (weights given as graph inputs): the
    # state's width 2^32 overflowed int32 in the shape check
    ("svdf_state_width_2p32", lambda: shape_only("SVDF", [T(F32, [1, 2]), T(F32, [65536, 2]), T(F32, [65536, 65536]),
                                                          T(F32, [65536]), T(F32, [1, 4], variable=True)],
                                                 [T(F32, [1, 65536])], {"rank": 1}),
     "state must be [1, 4294967296]"),
    # ops: AudioSpectrogram / Mfcc options TFLite's kernels cannot initialize with, wrong inputs
    ("audio_spectrogram_window_1", lambda: one("CUSTOM:AudioSpectrogram", [T(F32, [100, 1])], [T(F32, [1, 99, 2])],
                                               flexbuf.map_bytes({"window_size": 1, "stride": 1})),
     "custom options: window_size = 1, expected 2..16777216"),
    ("audio_spectrogram_no_options", lambda: one("CUSTOM:AudioSpectrogram", [T(F32, [100, 1])], [T(F32, [1, 1, 65])]),
     "no custom options (a FlexBuffer map of window_size, stride is required)"),
    ("audio_spectrogram_rank3", lambda: one("CUSTOM:AudioSpectrogram", [T(F32, [1, 100, 1])], [T(F32, [1, 1, 65])],
                                            flexbuf.map_bytes({"window_size": 64, "stride": 32})),
     "(CUSTOM:AudioSpectrogram): input rank 3, expected 2 (samples, channels)"),
    ("mfcc_dct_over_channels", lambda: one("CUSTOM:Mfcc", [T(F32, [1, 2, 33]), T(I32, [1], const=[8000])],
                                           [T(F32, [1, 2, 12])],
                                           flexbuf.map_bytes({"upper_frequency_limit": 4000, "lower_frequency_limit": 20,
                                                              "filterbank_channel_count": 10,
                                                              "dct_coefficient_count": 12})),
     "custom options: dct_coefficient_count = 12, expected 1..10"),
    ("mfcc_limits", lambda: one("CUSTOM:Mfcc", [T(F32, [1, 2, 33]), T(I32, [1], const=[8000])], [T(F32, [1, 2, 5])],
                                flexbuf.map_bytes({"upper_frequency_limit": 20.9, "lower_frequency_limit": 20,
                                                   "filterbank_channel_count": 10, "dct_coefficient_count": 5})),
     "frequency limits lower 20, upper 20 (need 0 <= lower < upper)"),
    ("mfcc_rate_float", lambda: one("CUSTOM:Mfcc", [T(F32, [1, 2, 33]), T(F32, [1], const=[8000.0])], [T(F32, [1, 2, 5])],
                                    flexbuf.map_bytes({"upper_frequency_limit": 4000, "lower_frequency_limit": 20,
                                                       "filterbank_channel_count": 10, "dct_coefficient_count": 5})),
     "(CUSTOM:Mfcc): sample rate: float32 with 1 elements, expected one int32"),
    # BIDIRECTIONAL_SEQUENCE_LSTM's auxiliary input: a feature count TFLite's lstm_eval.cc
    # steps through with the input's (out of bounds), partial weights, weights without the input
    ("bidi_lstm_aux_features", lambda: bidi_lstm_aux(na=3),
     "auxiliary input has 3 features, the input 4: TFLite steps through the auxiliary input"),
    ("bidi_lstm_aux_partial_weights", lambda: bidi_lstm_aux(drop=46),
     "5 of the 6 auxiliary forget, cell and output weights (41-43, 45-47) present: all or none"),
    ("bidi_lstm_aux_weights_no_input", lambda: bidi_lstm_aux(drop=39),
     "auxiliary weights without the auxiliary input (39)"),
    ("bidi_rnn_aux_features", lambda: bidi_rnn_aux(features=3),
     "auxiliary input has 3 features, the input 4: TFLite steps through the auxiliary input"),
    ("bidi_rnn_aux_fw_weights_only", lambda: bidi_rnn_aux(drop=11),
     "auxiliary weights: forward (10) and backward (11) both present or both absent"),
    ("bidi_rnn_aux_weights_no_input", lambda: bidi_rnn_aux(drop=9),
     "auxiliary weights without the auxiliary input (9)"),
    # aeq.hadamard_rotation without options, with a size TFLite divides by (0), a rank TFLite
    # reads past (1), a type its kernel rejects
    ("hadamard_no_options", lambda: one("CUSTOM:aeq.hadamard_rotation", [T(F32, [2, 8])], [T(F32, [2, 8])]),
     "no custom options (a FlexBuffer map of hadamard_size is required)"),
    ("hadamard_size_0", lambda: one("CUSTOM:aeq.hadamard_rotation", [T(F32, [2, 8])], [T(F32, [2, 8])],
                                    flexbuf.map_bytes({"hadamard_size": 0})),
     "custom options: hadamard_size = 0, expected 1..2147483647"),
    ("hadamard_rank1", lambda: one("CUSTOM:aeq.hadamard_rotation", [T(F32, [8])], [T(F32, [8])],
                                   flexbuf.map_bytes({"hadamard_size": 8})),
     "(CUSTOM:aeq.hadamard_rotation): input rank 1, expected at least 2"),
    ("hadamard_int8", lambda: one("CUSTOM:aeq.hadamard_rotation", [T(S.INT8, [2, 8], q=(0.5, 0))],
                                  [T(S.INT8, [2, 8], q=(0.5, 0))], flexbuf.map_bytes({"hadamard_size": 8})),
     "input int8, output int8: expected float32 (or int32) for both"),
    # sweep7: moe without options, with a key missing, with more active experts than experts,
    # with int8 weights and gelu_tanh (newer LiteRT only; the TFLite build here refuses them),
    # with weights not constant or of the wrong count, with src not a whole number of tokens
    ("moe_no_options", lambda: moe(None), "no custom options (a FlexBuffer map of num_experts"),
    ("moe_no_hidden_dim", lambda: moe(dict(hidden_dim=None)), "custom options: no 'hidden_dim'"),
    ("moe_active_above_experts", lambda: moe(dict(num_active_experts=3)),
     "custom options: num_active_experts = 3, expected 1..2"),
    ("moe_weight_type_bf16", lambda: moe(dict(weight_type="bf16")),
     "custom options: weight_type 'bf16' unsupported"),
    ("moe_int8_weights", lambda: moe(dict(weight_type="int8")),
     "moe with int8 weights and activation gelu: only fp32 weights and gelu"),
    ("moe_gelu_tanh", lambda: moe(dict(activation="gelu_tanh")),
     "moe with fp32 weights and activation gelu_tanh: only fp32 weights and gelu"),
    ("moe_gate_not_constant", lambda: moe(gate_const=False),
     "gate_weight (input 3): non-constant float32 with 24 values, expected constant float32 with 24"),
    ("moe_linear_count", lambda: moe(linear_n=20),
     "linear_weight (input 5): float32 with 20 values, expected constant float32 with 24"),
    ("moe_src_partial_token", lambda: moe(src=[3, 5]),
     "src of 15 values (model_dim 4), top_weights 6 and top_indices 6 values: expected tokens x 2"),
    # ops: NumericVerify without its options map (TFLite reads past the buffer), with the raw
    # float tolerance older converters wrote, with wrong operand types and counts
    ("numeric_verify_no_options", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [4], q=(0.5, 0)), T(F32, [4])],
                                              [T(F32, [4])]),
     "no custom options (a FlexBuffer map of tolerance, log_if_failed is required)"),
    ("numeric_verify_raw_float", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [4], q=(0.5, 0)), T(F32, [4])],
                                             [T(F32, [4])], b"\x00\x00\x80\x3f"),
     "(NumericVerify): custom options: flexbuffer root width 63 invalid for 4 bytes"),
    ("numeric_verify_input_f32", lambda: one("CUSTOM:NumericVerify", [T(F32, [4]), T(F32, [4])], [T(F32, [4])],
                                             flexbuf.map_bytes({"tolerance": 0.5})),
     "(CUSTOM:NumericVerify): input 0 dtype float32, expected uint8, int8, int16 or float16"),
    ("numeric_verify_ref_i8", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [4], q=(0.5, 0)), T(S.INT8, [4], q=(0.5, 0))],
                                          [T(F32, [4])], flexbuf.map_bytes({"tolerance": 0.5})),
     "reference int8, output float32: both must be float32"),
    ("numeric_verify_out_i8", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [4], q=(0.5, 0)), T(F32, [4])],
                                          [T(S.INT8, [4], q=(0.5, 0))], flexbuf.map_bytes({"tolerance": 0.5})),
     "reference float32, output int8: both must be float32"),
    ("numeric_verify_count", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [2, 3], q=(0.5, 0)), T(F32, [5])],
                                         [T(F32, [2, 3])], flexbuf.map_bytes({"tolerance": 0.5})),
     "reference has 5 elements, input 0 6: they must be equal"),
    ("numeric_verify_one_input", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [4], q=(0.5, 0))], [T(F32, [4])],
                                             flexbuf.map_bytes({"tolerance": 0.5})),
     "1 inputs and 1 outputs, expected 2 (quantized input, float reference) and 1"),
    ("numeric_verify_unquantized", lambda: one("CUSTOM:NumericVerify", [T(S.INT8, [4]), T(F32, [4])], [T(F32, [4])],
                                               flexbuf.map_bytes({"tolerance": 0.5})),
     "input 0 (int8) has no quantization parameters"),
    ("numeric_verify_i16_per_axis", lambda: one("CUSTOM:NumericVerify",
                                                [T(S.INT16, [2, 2], q={"scale": [0.5, 0.25], "zero_point": [0, 0],
                                                                       "quantized_dimension": 0}), T(F32, [2, 2])],
                                                [T(F32, [2, 2])], flexbuf.map_bytes({"tolerance": 0.5})),
     "int16 with per-axis quantization (2 scales)"),
    # i16twins: both TFLite builds refuse a quantized EXPAND_DIMS whose output scale or zero
    # point differs from the input's (expand_dims.cc Prepare); tfcc reinterpreted the values
    ("expand_dims_i16_scale", lambda: one("EXPAND_DIMS", [T(S.INT16, [2, 3], q=(0.5, 0)), T(I32, [], const=[0])],
                                          [T(S.INT16, [1, 2, 3], q=(0.25, 0))]),
     "EXPAND_DIMS: int16 output quantization (scale 0.25, zero point 0) differs from the input's (scale 0.5"),
    ("expand_dims_u8_zero_point", lambda: one("EXPAND_DIMS", [T(S.UINT8, [2, 3], q=(0.5, 128)), T(I32, [], const=[0])],
                                              [T(S.UINT8, [1, 2, 3], q=(0.5, 120))]),
     "(scale 0.5, zero point 120) differs from the input's (scale 0.5, zero point 128); TFLite requires them equal"),
    # fuzz56: empty tensors whose nonzero dimensions multiply past int64 ([0, 2^31 - 1, 2^31 - 1,
    # 2^31 - 1]: 0 elements, 2^93 after the 0) overflowed int64 in ADD's broadcast walk, CUMSUM's
    # inner extent and the 16x8 FULLY_CONNECTED's batch count at load; a shape's nonzero
    # dimensions may multiply to 2^56 at most (TFCC_SHAPE_SPAN_MAX), in the file (the reader) ...
    ("add_empty_2p93", lambda: shape_only("ADD", [T(F32, EMPTY_2P93), T(F32, EMPTY_2P93)], [T(F32, EMPTY_2P93)]),
     "shape [0,2147483647,2147483647,2147483647] has too many elements"),
    ("fc_i16_empty_2p93", lambda: shape_only(
        "FULLY_CONNECTED", [T(S.INT16, EMPTY_2P93[:3] + [16], q=(0.01, 0)),
                            T(S.INT8, [4, 16], q=(0.02, 0), const=[1, -2, 3, -4] * 16),
                            T(S.INT64, [4], q=(0.0002, 0), const=[5] * 4)],
        [T(S.INT16, [0, 4], q=(0.05, 0))]),
     "shape [0,2147483647,2147483647,16] has too many elements"),
    # ... and as an operator's output (here BROADCAST_TO's, from its shape operand)
    ("broadcast_to_empty_2p93", lambda: one("BROADCAST_TO", [T(F32, [1]), T(I32, [4], const=EMPTY_2P93)],
                                            [T(F32, [0])]),
     "shape [0,2147483647,2147483647,2147483647] is too large"),
    # review59: a sparse tensor holds its stored values only; DENSIFY alone reads it
    # spfc60: FULLY_CONNECTED reads sparse weights in the layouts TFLite's kernel takes only
    ("fc_sparse_weights_2x2", lambda: one("FULLY_CONNECTED", [T(F32, [2, 8]), sparse_w(
        [4, 8], formats=[0, 1, 0, 0], block_map=[0, 1], block_size=[2, 2]), OMIT], [T(F32, [2, 4])]),
     "sparse weights tensor 1 (in1) have blocks other than 1 x N along dimension 1"),
    ("fc_sparse_weights_colmajor", lambda: one("FULLY_CONNECTED", [T(F32, [2, 8]), sparse_w(
        [4, 8], formats=[0, 1], block_map=[], block_size=[], traversal_order=[1, 0]), OMIT],
        [T(F32, [2, 4])]),
     "sparse weights tensor 1 (in1) have a traversal order other than 0, 1, ..."),
    # sphy61: per-tensor sparse hybrid weights load (ACCEPTED, conformance sparse_fc_hybrid_*);
    # TFLite's sparse hybrid kernel reads the tensor's one scale, which per-channel weights lack
    ("fc_sparse_weights_hybrid_per_channel", lambda: one("FULLY_CONNECTED", [T(F32, [2, 32]), sparse_w(
        [4, 32], S.INT8, per_channel=True, block_size=[16]), OMIT], [T(F32, [2, 4])]),
     "sparse weights tensor 1 (in1) have hybrid (float input) weights with other than one scale"),
    ("fc_sparse_weights_hybrid_u8", lambda: one("FULLY_CONNECTED", [T(F32, [2, 32]), sparse_w(
        [4, 32], S.UINT8, block_size=[16]), OMIT], [T(F32, [2, 4])]),
     "sparse weights tensor 1 (in1) have float input with sparse weights other than int8"),
    ("fc_sparse_weights_i8_b1x4", lambda: one("FULLY_CONNECTED", [T(S.INT8, [2, 8], q=(0.5, 0)), sparse_w(
        [4, 8], S.INT8), OMIT], [T(S.INT8, [2, 4], q=(1.0, 0))]),
     "sparse weights tensor 1 (in1) have int8 blocks other than 1x16"),
    ("fc_sparse_weights_as_input", lambda: one("FULLY_CONNECTED", [sparse_w([4, 8]), T(F32, [4, 8]), OMIT],
                                               [T(F32, [4, 4])]),
     "operator 0 (FULLY_CONNECTED): input 0 is sparse tensor 0 (in0); only DENSIFY and"),
    ("add_sparse_operand", lambda: one("ADD", [T(F32, [4, 8]), sparse_w([4, 8])], [T(F32, [4, 8])]),
     "operator 0 (ADD): input 1 is sparse tensor 1 (in1); only DENSIFY and"),
    ("sparse_graph_output", lambda: sparse_graph_output(),
     "output 1 is sparse tensor 2 (w); only DENSIFY and FULLY_CONNECTED's weights read"),
    ("densify_huge_dense_form", lambda: densify_huge(),
     "tensor 0 (w): the dense form of a sparse tensor (587202595 elements)"),
    # fuzz61: sparse hybrid weights (sphy61) whose encoding lies, refused by the reader before
    # FULLY_CONNECTED expands them: a block index past the row (2 of 2 blocks; 255), a 1x16 block
    # that does not divide the 40 columns, one stored value short, a segment past the indices
    ("fc_sparse_hybrid_block_past_row", lambda: sparse_hybrid_fc(csr_indices(1, lambda i: i[:-1] + [2])),
     "tensor 1 (w): sparsity level 1: index 4 = 2 out of range [0,2)"),
    ("fc_sparse_hybrid_block_index_255", lambda: sparse_hybrid_fc(csr_indices(1, lambda i: [255] + i[1:])),
     "tensor 1 (w): sparsity level 1: index 0 = 255 out of range [0,2)"),
    ("fc_sparse_hybrid_block_not_dividing", lambda: sparse_hybrid_fc(lambda st, sp: st, (4, 48), (4, 40)),
     "tensor 1 (w): sparsity block size 16 does not divide dimension 1 (40)"),
    ("fc_sparse_hybrid_short_values", lambda: sparse_hybrid_fc(lambda st, sp: st[:-1]),
     "tensor 1 (w): buffer 1 holds 79 bytes, its sparsity encodes 80 int8 values (80 bytes)"),
    ("fc_sparse_hybrid_segment_past_indices",
     lambda: sparse_hybrid_fc(csr_segments(1, lambda s: s[:-1] + [s[-1] + 1])),
     "tensor 1 (w): sparsity level 1: last segment 6, 5 indices"),
    # fuzz62: a variable tensor (an RNN's hidden state) whose initial value is the bias's buffer
    # (both TFLite engines refuse a variable tensor with a buffer too)
    ("var_state_shares_const_buffer", make_fuzz_seeds.alias_rnn_state,
     "tensor 4 (h): variable tensor with a constant buffer 3"),
]


def packed_fc_zero_point(dtype):
    """An int8 FULLY_CONNECTED whose int2 / int4 per-channel weights have zero point 1 in channel 1."""
    m = S.Model(description="FULLY_CONNECTED packed weights zero point")
    x = m.add_tensor("x", S.INT8, [1, 4], quant={"scale": [0.1], "zero_point": [0]})
    data = bytes([0x1B, 0x1B]) if dtype == S.INT2 else bytes([0x12, 0x34, 0x56, 0x71])
    w = m.add_tensor("w", dtype, [2, 4], data=data,
                     quant={"scale": [0.1, 0.2], "zero_point": [0, 1], "quantized_dimension": 0})
    y = m.add_tensor("y", S.INT8, [1, 2], quant={"scale": [0.1], "zero_point": [0]})
    m.add_op("FULLY_CONNECTED", [x, w], [y], version=14 if dtype == S.INT2 else 10)
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def versioned_fc(version):
    """A FULLY_CONNECTED naming a version above tfcc's range (ops)."""
    m = S.Model(description="FULLY_CONNECTED v%d" % version)
    x = m.add_tensor("x", F32, [1, 4])
    w = m.add_tensor("w", F32, [2, 4], data=S.pack(F32, [0.5] * 8))
    y = m.add_tensor("y", F32, [1, 2])
    m.add_op("FULLY_CONNECTED", [x, w], [y], version=version)
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def int4_short():
    """An int4 weight whose buffer holds fewer bytes than its packed elements (ops)."""
    m = S.Model(description="short int4 buffer")
    x = m.add_tensor("x", S.INT8, [1, 4], quant={"scale": [0.1], "zero_point": [0]})
    w = m.add_tensor("w", S.INT4, [2, 4], data=bytes([0x12, 0x34]), quant={"scale": [0.1], "zero_point": [0]})
    y = m.add_tensor("y", S.INT8, [1, 2], quant={"scale": [0.1], "zero_point": [0]})
    m.add_op("FULLY_CONNECTED", [x, w], [y])
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def packed_short(dtype, data):
    """An int2 / uint4 weight whose buffer holds fewer bytes than its packed elements (types)."""
    m = S.Model(description="short packed buffer")
    shape = [2, 4] if dtype == S.INT2 else [2, 3]
    w = m.add_tensor("w", dtype, shape, data=data,
                     quant={"scale": [0.1], "zero_point": [0 if dtype == S.INT2 else 8]})
    y = m.add_tensor("y", F32, shape)
    m.add_op("DEQUANTIZE", [w], [y], version=7 if dtype == S.INT2 else 8)
    m.inputs, m.outputs = [], [y]
    return S.serialize(m)


def float8_short():
    """A float8 constant of 6 elements with 5 bytes (types)."""
    m = S.Model(description="short float8 buffer")
    w = m.add_tensor("w", S.FLOAT8_E4M3FN, [2, 3], data=bytes([0x38] * 5))
    y = m.add_tensor("y", F32, [2, 3])
    m.add_op("DEQUANTIZE", [w], [y], version=9)
    m.inputs, m.outputs = [], [y]
    return S.serialize(m)


def uint4_to_int32():
    """A run-time uint4 tensor (QUANTIZE v5) cast to int32: TFLite casts uint4 to float32 only."""
    m = S.Model(description="CAST uint4 to int32")
    x = m.add_tensor("x", F32, [4])
    q = m.add_tensor("q", S.UINT4, [4], quant={"scale": [0.5], "zero_point": [0]})
    y = m.add_tensor("y", I32, [4])
    m.add_op("QUANTIZE", [x], [q], version=5)
    m.add_op("CAST", [q], [y], version=8)
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


def versioned(op, dtype, version, extra_const=None):
    """A one-operator model naming a version the standard resolver registers (accepted.txt)."""
    m = S.Model(description="operator version %s v%d" % (op, version))
    x = m.add_tensor("x", dtype, [2, 3])
    ins = [x]
    if extra_const is not None:
        ins.append(m.add_tensor("k", I32, [len(extra_const)], data=S.pack(I32, extra_const)))
    y = m.add_tensor("y", dtype, [2, 3])
    m.add_op(op, ins, [y], version=version)
    m.inputs, m.outputs = [x], [y]
    return S.serialize(m)


# models that must load: operator versions TFLite's resolver registers, in dtypes tfcc runs
ACCEPTED = [
    # spfc60: float32 1x4 block-sparse FULLY_CONNECTED weights without a bias (review59 refused
    # them; the layouts TFLite's kernel takes load now, conformance sparse_fc_* check the values)
    ("fc_sparse_weights_1x4", lambda: one("FULLY_CONNECTED", [T(F32, [2, 8]), sparse_w([4, 8]), OMIT],
                                          [T(F32, [2, 4])])),
    # sphy61: 1x16 int8 sparse weights of one scale under a float32 input (sparse hybrid), refused
    # before; no bias
    ("fc_sparse_weights_hybrid", lambda: one("FULLY_CONNECTED", [T(F32, [2, 32]), sparse_w(
        [4, 32], S.INT8, block_size=[16]), OMIT], [T(F32, [2, 4])])),
    ("fc_sparse_weights_budget", fc_sparse_budget),
    # fuzz61: int16x8 DEPTHWISE_CONV_2D at the fused kernel's most taps (65536: the per-thread
    # work area planned at prepare) and one past it (the per-tap path), and a run-time filter of
    # 1 x 2^20 taps; on the probe's inputs all three equal TFLite (LiteRT.js) bit for bit
    ("dw_i16_taps_65536", lambda: dw_i16([1, 1, 65536, 1], [1, 1, 65536, 1], [1, 1, 1, 1])),
    ("dw_i16_taps_65537", lambda: dw_i16([1, 1, 65537, 1], [1, 1, 65537, 1], [1, 1, 1, 1])),
    ("dw_i16_runtime_filter_2p20", lambda: dw_i16([1, 1, 1 << 20, 1], [1, 1, 1 << 20, 1], [1, 1, 1, 1],
                                                  const_filter=False)),
    # fuzz52: an output_shape of height 0 (an empty output): the uint8 kernel cleared its 0 bytes
    # of int64 accumulators at a NULL scratch (undefined; scratch of 0 bytes now points at the
    # empty tensors' address). The test runs each accepted model once.
    ("transpose_conv_u8_output_height_0", lambda: one(
        "TRANSPOSE_CONV", [T(I32, [4], const=[1, 0, 8, 2]), T(S.UINT8, [2, 3, 3, 3], q=(0.0039, 154), const=[128] * 54),
                           T(S.UINT8, [1, 3, 4, 3], q=(0.0157, 127)), T(I32, [2], q=(6.15e-5, 0), const=[0, 0])],
        [T(S.UINT8, [1, 0, 8, 2], q=(0.0192, 127))], {"padding": "SAME", "stride_w": 2, "stride_h": 2})),
    # fuzz53: the same with every input constant: computed by the load's constant folding
    # (passes/fold_constants.c), whose scratch of 0 bytes was NULL
    ("transpose_conv_u8_const_output_height_0", lambda: one(
        "TRANSPOSE_CONV", [T(I32, [4], const=[1, 0, 8, 2]), T(S.UINT8, [2, 3, 3, 3], q=(0.0039, 154), const=[128] * 54),
                           T(S.UINT8, [1, 3, 4, 3], q=(0.0157, 127), const=[130] * 36),
                           T(I32, [2], q=(6.15e-5, 0), const=[0, 0])],
        [T(S.UINT8, [1, 0, 8, 2], q=(0.0192, 127))], {"padding": "SAME", "stride_w": 2, "stride_h": 2})),
    # fuzz53: an int8 CONV_2D of an empty input (height 0) in 2^31 - 1 batches, per-channel
    # filter scales with negative ones (the reference kernel runs it): it walked every batch of
    # its empty output (10 s under ASan for 2^28 in fuzz_model_run)
    ("conv_2d_i8_empty_2p31_batches", lambda: one(
        "CONV_2D", [T(S.INT8, [(1 << 31) - 1, 0, 16, 8], q=(0.5, 0)),
                    T(S.INT8, [16, 3, 3, 8], q={"scale": [0.003, -0.003] * 8, "zero_point": [0] * 16,
                                                "quantized_dimension": 0}, const=[1, 2, 3, 4] * 288),
                    T(I32, [16], q={"scale": [0.0015, -0.0015] * 8, "zero_point": [0] * 16,
                                    "quantized_dimension": 0}, const=[0] * 16)],
        [T(S.INT8, [(1 << 31) - 1, 0, 16, 16], q=(1.0, 0))], {"padding": "SAME", "stride_w": 1, "stride_h": 1})),
    # fuzz53 (stage-5-like run, seed 55): a CONV_3D_TRANSPOSE whose input [1, 33554435, 67108864,
    # 0, 3] is empty: the reference walked its 2.3e15 empty rows (past the fuzzer's 20 s)
    ("conv_3d_transpose_empty_input", lambda: one(
        "CONV_3D_TRANSPOSE", [T(I32, [5], const=[1, 4, 4, 5, 2]), T(F32, [2, 3, 2, 2, 3], const=[0.5] * 72),
                              T(F32, [1, 33554435, 67108864, 0, 3]), T(F32, [2], const=[0.25, -0.25])],
        [T(F32, [1, 4, 4, 5, 2])], {"padding": "VALID", "stride_d": 1, "stride_w": 1, "stride_h": 1,
                                    "dilation_d_factor": 1, "dilation_w_factor": 1, "dilation_h_factor": 1})),
    # fuzz60 (seed 60012): a CONV_3D_TRANSPOSE with a depth stride of 2013265921: the reference's
    # input position times the stride (2 * 2013265921) passed int32 (UBSan); now int64, every
    # tap past the first depth lies outside the output
    ("conv_3d_transpose_stride_2p31", lambda: one(
        "CONV_3D_TRANSPOSE", [T(I32, [5], const=[1, 4, 4, 5, 2]), T(F32, [2, 3, 2, 2, 3], const=[0.5] * 72),
                              T(F32, [1, 3, 2, 9, 3]), T(F32, [2], const=[0.25, -0.25])],
        [T(F32, [1, 4, 4, 5, 2])], {"padding": "VALID", "stride_d": 2013265921, "stride_w": 1, "stride_h": 1,
                                    "dilation_d_factor": 1, "dilation_w_factor": 1, "dilation_h_factor": 1})),
    # fuzz54 (reading): an int16 RESIZE_BILINEAR of an image with 0 channels to 2^20 x 2^20: an
    # empty output, whose 2^40 pixels the reference kernel walked (killed after 10 s in Release);
    # also int8 in REFERENCE mode and the nearest-neighbour reference
    ("resize_bilinear_i16_empty_depth", lambda: shape_only(
        "RESIZE_BILINEAR", [T(S.INT16, [1, 1, 1, 0], q=(0.5, 0)), T(I32, [2], const=[1 << 20, 1 << 20])],
        [T(S.INT16, [1, 1 << 20, 1 << 20, 0], q=(0.5, 0))])),
    # fuzz54 (a sweep of empty tensors with 2^40 rows): each walked its empty rows one by one
    # (killed after 5 s in Release, every ISA cap, both modes): PACK (its row copies, which
    # UNPACK / SPLIT share), REVERSE_SEQUENCE of rows of 0 elements, CUMSUM along an empty axis
    ("pack_empty_rows_2p40", lambda: shape_only(
        "PACK", [T(F32, [1 << 20, 1 << 20, 0]), T(F32, [1 << 20, 1 << 20, 0])], [T(F32, [1 << 20, 1 << 20, 2, 0])],
        {"values_count": 2, "axis": 2})),
    ("reverse_sequence_empty_rows_2p40", lambda: shape_only(
        "REVERSE_SEQUENCE", [T(F32, [1 << 20, 1 << 20, 0]), T(I32, [1 << 20])], [T(F32, [1 << 20, 1 << 20, 0])],
        {"seq_dim": 1, "batch_dim": 0})),
    ("cumsum_empty_axis_2p40", lambda: shape_only(
        "CUMSUM", [T(F32, [1 << 20, 0, 1 << 20]), T(I32, [], const=[1])], [T(F32, [1 << 20, 0, 1 << 20])])),
    # fuzz52: start indices near the int64 ends (skipped: outside the operand); their position
    # plus the window index, times the stride, overflowed int64 (fuzz_model_run's
    # stablehlo_scatter_i64idx_add_f32 with input bytes as indices)
    ("stablehlo_scatter_index_int64_ends", lambda: scatter("STABLEHLO_ADD", [2, 3],
                                                           indices=[(1 << 63) - 1, -(1 << 63)])),
    # fuzz52: windows of 2^31 - 1 that fit none of the input: an empty output, and the window's
    # size (2^93) is never taken (it overflowed int64 in the kernel)
    ("reduce_window_empty_huge_window", lambda: one(
        "REDUCE_WINDOW", [T(F32, [1, 1, 1], const=[1.0]), T(F32, [], const=[0.0]),
                          T(S.INT64, [3], const=[(1 << 31) - 1] * 3), T(S.INT64, [3], const=[1] * 3),
                          T(S.INT64, [3], const=[1] * 3)], [T(F32, [0, 0, 0])], {"reduce_function": 1})),
    # format: graph outputs declared with another type than TFLite's Prepare gives them (it
    # overwrites the declared one: a uint8 ADD, a bool GREATER); tfcc outputs that type
    ("add_u8_output_declared_f32", lambda: one("ADD", [T(S.UINT8, [4], q=(0.5, 3)), T(S.UINT8, [4], q=(0.5, 3))],
                                               [T(F32, [4], q=(0.5, 3))])),
    ("greater_output_declared_i32", lambda: one("GREATER", [T(F32, [4]), T(F32, [4])], [T(I32, [4])])),
    ("reverse_v2_int8_v3", lambda: versioned("REVERSE_V2", S.INT8, 3, [1])),
    ("reverse_v2_bool_v2", lambda: versioned("REVERSE_V2", S.BOOL, 2, [0])),
    ("sign_int32_v2", lambda: versioned("SIGN", I32, 2)),
    # ops: a constant int4 GATHER (unpacked to int8 at load, copied into the int4 output), and an
    # int4 model input and output (one value per byte in tfcc's API)
    ("gather_int4_output", lambda: one("GATHER", [T(S.INT4, [4, 2], q=(0.5, 0), const=[1, -2, 3, -4, 5, -6, 7, -8]),
                                                  T(I32, [2], const=[0, 3])], [T(S.INT4, [2, 2], q=(0.5, 0))],
                                       {"_version": 7})),
    ("not_equal_int16_raw_v4", lambda: one("NOT_EQUAL", [T(S.INT16, [6]), T(S.INT16, [6])], [T(S.BOOL, [6])],
                                           {"_version": 4})),
    ("transpose_int4_io_v7", lambda: one("TRANSPOSE", [T(S.INT4, [2, 3], q=(0.5, 0)), T(I32, [2], const=[1, 0])],
                                         [T(S.INT4, [3, 2], q=(0.5, 0))], {"_version": 7})),
    # types: int2 / uint4 / float8 model inputs and outputs (one value / byte per element)
    ("cast_float32_int2_io_v8", lambda: one("CAST", [T(F32, [5])], [T(S.INT2, [5])], {"_version": 8})),
    ("dequantize_uint4_input_v8", lambda: one("DEQUANTIZE", [T(S.UINT4, [5], q=(0.5, 8))], [T(F32, [5])],
                                              {"_version": 8})),
    ("gather_float8_io_v8", lambda: one("GATHER", [T(S.FLOAT8_E5M2, [4, 2]), T(I32, [2], const=[0, 3])],
                                        [T(S.FLOAT8_E5M2, [2, 2])], {"_version": 8})),
    # fuzz53: an int8 SVDF whose output scale of 1e-30 gives a saturated rescale (-2147483647 for
    # an odd bias) to which the output zero point -5 was added in int32 (overflow, undefined; as
    # TFLite's int32 expression it wraps)
    ("svdf_i8_output_scale_1e-30", lambda: svdf_out_quant(1e-30, -5)),
    # fuzz62: constants sharing one buffer (FULLY_CONNECTED packs it, ADD reads it in place; two
    # int8 FULLY_CONNECTED read it under other scales), a subgraph listing a constant and an
    # input among its outputs, a signature of a subgraph nothing calls
    ("alias_fc_weights_add_operand", make_fuzz_seeds.alias_fc_add),
    ("alias_fc_i8_weights_two_scales", make_fuzz_seeds.alias_fc_i8),
    ("alias_outputs_const_and_input", make_fuzz_seeds.alias_output_const),
    ("signature_of_uncalled_subgraph", make_fuzz_seeds.sig_second_subgraph),
]


# Operators whose work the file's shapes and options make quadratic in the input: each model
# must load, and the tfcc_op_info.macs of its operator 0 must be the figure given (what the
# operator's eval walks; a caller bounding a run's work, as fuzz_model_run does, reads it).
# work.txt: "<file> <macs>"; tests/ops/test_opsc_hostile_models.c checks them (fuzz52).
I64 = S.INT64
WORK = [
    # SAME pooling of 512 x 512 with a 512 x 512 window: each output walks the image
    ("work_average_pool_512_same", lambda: one("AVERAGE_POOL_2D", [T(F32, [1, 512, 512, 1])], [T(F32, [1, 512, 512, 1])],
                                               {"padding": "SAME", "stride_w": 1, "stride_h": 1, "filter_width": 512,
                                                "filter_height": 512}),
     512 * 512 * 512 * 512),
    # the window is clipped to the image: 4 x 4 of a window of 2^30 x 2^30
    ("work_max_pool_window_2p30", lambda: one("MAX_POOL_2D", [T(F32, [2, 4, 4, 3])], [T(F32, [2, 4, 4, 3])],
                                              {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                               "filter_width": 1 << 30, "filter_height": 1 << 30}),
     2 * 4 * 4 * 3 * 16),
    ("work_lrn_depth_65536", lambda: one("LOCAL_RESPONSE_NORMALIZATION", [T(F32, [1, 1, 2, 65536])],
                                         [T(F32, [1, 1, 2, 65536])],
                                         {"radius": 1 << 20, "bias": 1.0, "alpha": 1.0, "beta": 0.5}),
     2 * 65536 * 65536),
    ("work_reduce_window_half", lambda: one("REDUCE_WINDOW", [T(F32, [100000]), T(F32, [], const=[0.0]),
                                                              T(I64, [1], const=[50000]), T(I64, [1], const=[1]),
                                                              T(I64, [1], const=[1])], [T(F32, [50001])],
                                            {"reduce_function": 1}),
     50001 * 50000),
    ("work_stablehlo_reduce_window_half", lambda: shlo_reduce_window(
        1, "STABLEHLO_ADD", [40000, 2], shape=(80000, 2), out=(40001, 1)), 40001 * 40000 * 2),
    # every item's bytes hashed once per seed: seeds from the graph's input, [4096, 32] of them
    ("work_lsh_projection_seeds_input", lambda: one("LSH_PROJECTION", [T(F32, [4096, 32]), T(S.UINT8, [2048, 1024])],
                                                    [T(I32, [4096])], {"type": 1}),
     4096 * 32 * 2048 * (1024 + 4)),
    ("work_nms_200000", lambda: one("NON_MAX_SUPPRESSION_V4", [T(F32, [200000, 4]), T(F32, [200000]),
                                                                T(I32, [], const=[150000]), T(F32, [], const=[1.0]),
                                                                T(F32, [], const=[0.0])], [T(I32, [150000]), T(I32, [])]),
     200000 * 150000),
    # fuzz53: the suppression's IoUs, regular (per class, keeping detections_per_class) and
    # fast (one pass keeping max_detections), plus every score read and every box decoded
    ("work_detect_regular_20000", lambda: detect_work(20000, 10, 100, True, 20000),
     20000 * 11 + 20000 + 10 * (20000 * 20000 + 2 * 20000 + 100)),
    ("work_detect_fast_20000", lambda: detect_work(20000, 10, 20000, False, 100),
     20000 * 11 + 20000 + 20000 * 20000 + 20000 * 10 * 1),
    # an Mfcc of 32,768 filterbank channels and DCT coefficients on a constant spectrogram row:
    # its cosine table (2^30 entries, 8.6 GB of scratch) was computed at load, where nothing
    # bounds the time or memory; now the node is left to the run (and its estimate reported)
    ("work_mfcc_const_32768", lambda: one("CUSTOM:Mfcc", [T(F32, [1, 1, 33], const=[1.0] * 33),
                                                          T(I32, [1], const=[8000])], [T(F32, [1, 1, 32768])],
                                          flexbuf.map_bytes({"upper_frequency_limit": 4000,
                                                             "lower_frequency_limit": 20,
                                                             "filterbank_channel_count": 32768,
                                                             "dct_coefficient_count": 32768})),
     2 * 32768 * 32768 + 33 + 32768),
    ("work_audio_spectrogram_2p20", lambda: shape_only("CUSTOM:AudioSpectrogram", [T(F32, [1 << 20, 2])],
                                                       [T(F32, [2, 1 + ((1 << 20) - 1000) // 10, 513])],
                                                       flexbuf.map_bytes({"window_size": 1000, "stride": 10})),
     2 * (1 + ((1 << 20) - 1000) // 10) * (1000 + 1024 + 513 * 11)),
    # both directions' gate products over 100 x 100 steps
    ("work_bidi_lstm_100x100", lambda: seq_cases.bidi_lstm_case("work_bidi", 100, 100, 4, 5, 5).build()[0],
     2 * 4 * 5 * (4 + 5) * 100 * 100),
]


# The kernel operator 0 must run with (kernels.txt: "<file> <kernel>", "!ref": any packed
# kernel); tests/ops/test_opsc_hostile_models.c runs each once with profiling on.
def dw_u8_dilated(dil_w, stride_w, in_w, out_w):
    q = (0.0156862754, 127)
    return one("DEPTHWISE_CONV_2D", [T(S.UINT8, [1, 4, in_w, 2], q=q),
                                     T(S.UINT8, [1, 3, 3, 2], q=(0.02, 128), const=[130, 126, 140, 120, 128, 129] * 3),
                                     T(I32, [2], q=(0.0156862754 * 0.02, 0), const=[5, -7])],
               [T(S.UINT8, [1, 4, out_w, 2], q=(0.05, 120))],
               {"padding": "SAME", "stride_w": stride_w, "stride_h": 1, "depth_multiplier": 1,
                "dilation_w_factor": dil_w, "dilation_h_factor": 1})


def dw_hybrid_dilated(dil_w, stride_w, in_w, out_w):
    """A hybrid DEPTHWISE_CONV_2D (float input, int8 per-channel filter, float bias), its
    window dilated along the width."""
    q = {"scale": [0.02, 0.03], "zero_point": [0, 0], "quantized_dimension": 3}
    return one("DEPTHWISE_CONV_2D", [T(F32, [1, 4, in_w, 2]),
                                     T(S.INT8, [1, 3, 3, 2], q=q, const=[3, -5, 12, -8, 0, 1] * 3),
                                     T(F32, [2], const=[0.5, -0.25])],
               [T(F32, [1, 4, out_w, 2])],
               {"padding": "SAME", "stride_w": stride_w, "stride_h": 1, "depth_multiplier": 1,
                "dilation_w_factor": dil_w, "dilation_h_factor": 1})


KERNELS = [
    # fuzz53's find: dilation 258 at filter width 3 and stride 1536, one output column: the
    # packed row kernels built all 517 columns of the span for 3 taps (35 s under ASan on the
    # fuzzer's [1026, 1030, 6, 2] input); such a sparse window runs the reference kernel
    ("kernel_dw_u8_dilation_258", lambda: dw_u8_dilated(258, 1536, 6, 1), "ref"),
    # an ordinary dilated depthwise keeps the packed kernel
    ("kernel_dw_u8_dilation_2", lambda: dw_u8_dilated(2, 1, 16, 16), "!ref"),
    # fuzz54: the hybrid depthwise's row path (the same AVX512-VNNI row kernels, float output)
    # took the same sparse window; it runs the vector kernel, which walks the taps only
    ("kernel_dw_hybrid_dilation_258", lambda: dw_hybrid_dilated(258, 1536, 6, 1), "!hybrid-dwconv-avx512vnni"),
    # an ordinary dilated hybrid depthwise keeps a vector kernel (the row kernel on AVX512-VNNI)
    ("kernel_dw_hybrid_dilation_2", lambda: dw_hybrid_dilated(2, 1, 16, 16), "!hybrid-dwconv"),
]


def write_list(out, fname, header, entries):
    """Each (name, make, figure) as out/<name>.tflite, listed in out/fname as "<name>.tflite
    figure" (figure None: the name alone) under the header line the tests skip."""
    with open(os.path.join(out, fname), "w") as idx:
        idx.write("# %s: modelgen/make_opsc_hostile.py\n" % header)
        for name, make, figure in entries:
            with open(os.path.join(out, name + ".tflite"), "wb") as f:
                f.write(make())
            idx.write("%s.tflite%s\n" % (name, "" if figure is None else " %s" % figure))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    write_list(args.out, "index.txt", "<file> <words the load or session error must contain>", MODELS)
    write_list(args.out, "accepted.txt", "<file>: models that must load and prepare",
               [(name, make, None) for name, make in ACCEPTED])
    write_list(args.out, "work.txt", "<file> <macs of operator 0>", WORK)
    write_list(args.out, "kernels.txt", "<file> <kernel of operator 0, or !ref>", KERNELS)
    with open(os.path.join(args.out, "dynamic_pool_512.tflite"), "wb") as f:
        f.write(dynamic_pool_512())
    print("%d hostile models written to %s" % (len(MODELS), args.out))


if __name__ == "__main__":
    main()
