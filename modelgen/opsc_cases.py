"""Conformance cases of the operators added by the opsc work (the rest of the standard
resolver's builtins): the StableHLO elementwise operators, LSH_PROJECTION and
EMBEDDING_LOOKUP_SPARSE. Called from op_cases.cases() with its add()."""
import flexbuf
import tflite_schema as S
from casekit import T, single

F32, F64, I32, I64, U8, I8, I16, BOOL = (S.FLOAT32, S.FLOAT64, S.INT32, S.INT64, S.UINT8,
                                         S.INT8, S.INT16, S.BOOL)
U16, U32 = S.UINT16, S.UINT32


def stablehlo_elementwise_cases(add):
    """STABLEHLO_ADD / MULTIPLY / MAXIMUM / MINIMUM / AND / SHIFT_LEFT: same-shape inputs, no
    broadcasting; integer results wrap (full-range inputs)."""
    shape = [2, 3, 5]
    arith_dts = {"f32": (F32, None), "f64": (F64, None), "i8": (I8, None), "i16": (I16, None),
                 "i32": (I32, (-(1 << 31), (1 << 31) - 1)), "i64": (I64, (-(1 << 40), 1 << 40)),
                 "u8": (U8, None), "u16": (U16, None), "u32": (U32, None)}
    for op in ("STABLEHLO_ADD", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_MINIMUM"):
        for tag, (d, rng) in arith_dts.items():
            lo, hi = rng if rng else (None, None)
            add(single("%s_%s" % (op.lower(), tag), op, [T(d, shape, lo=lo, hi=hi),
                                                          T(d, shape, lo=lo, hi=hi)], [T(d, shape)]))
        add(single("%s_f32_rank0" % op.lower(), op, [T(F32, []), T(F32, [])], [T(F32, [])]))
    nan, inf = float("nan"), float("inf")
    for op in ("STABLEHLO_MAXIMUM", "STABLEHLO_MINIMUM"):
        add(single("%s_f32_nan" % op.lower(), op,
                   [T(F32, [6], values=[nan, 1.0, nan, -inf, 0.0, -0.0]),
                    T(F32, [6], values=[1.0, nan, nan, inf, -0.0, 0.0])], [T(F32, [6])]))
    for tag, d in (("bool", BOOL), ("i8", I8), ("i16", I16), ("i32", I32), ("u8", U8), ("u16", U16),
                   ("u32", U32)):
        lo, hi = ((-(1 << 31), (1 << 31) - 1) if d == I32 else (None, None))
        add(single("stablehlo_and_%s" % tag, "STABLEHLO_AND", [T(d, shape, lo=lo, hi=hi),
                                                             T(d, shape, lo=lo, hi=hi)], [T(d, shape)]))
    add(single("stablehlo_and_i64", "STABLEHLO_AND", [T(I64, shape, lo=-(1 << 40), hi=1 << 40),
                                                      T(I64, shape, lo=-(1 << 40), hi=1 << 40)],
               [T(I64, shape)]))
    for tag, d, bits in (("i8", I8, 8), ("i16", I16, 16), ("i32", I32, 32)):
        lo, hi = ((-(1 << 31), (1 << 31) - 1) if d == I32 else (None, None))
        # shifts past the dtype's width act on the value promoted to 32 bits
        add(single("stablehlo_shift_left_%s" % tag, "STABLEHLO_SHIFT_LEFT",
                   [T(d, shape, lo=lo, hi=hi), T(d, shape, lo=0, hi=min(bits + 4, 31))], [T(d, shape)]))




def lsh_projection_cases(add):
    """LSH_PROJECTION: key lengths 4 + item bytes cover every branch of farmhash's
    Fingerprint64 (4-7, 8-16, 17-32, 33-64 and > 64 bytes); with and without weights."""
    for tag, d, shape in (("u8", U8, [5, 1]), ("i32", I32, [6]), ("i32x2", I32, [4, 2]),
                          ("f32x4", F32, [3, 4]), ("f32x10", F32, [3, 10]), ("i8x70", I8, [2, 70]),
                          ("f32x40", F32, [3, 5, 8])):
        for typ, tname in ((1, "sparse"), (2, "dense")):
            nh, nb = 3, 4
            hash_t = T(F32, [nh, nb], lo=-10.0, hi=10.0)
            out = T(I32, [nh] if typ == 1 else [nh * nb])
            add(single("lsh_projection_%s_%s" % (tname, tag), "LSH_PROJECTION", [hash_t, T(d, shape)], [out],
                       {"type": typ}))
            w = T(F32, [shape[0]], lo=-2.0, hi=2.0)
            add(single("lsh_projection_%s_%s_weighted" % (tname, tag), "LSH_PROJECTION",
                       [T(F32, [nh, nb], lo=-10.0, hi=10.0), T(d, shape), w], [out], {"type": typ}))
    add(single("lsh_projection_sparse_f32_16bits", "LSH_PROJECTION",
               [T(F32, [2, 16], lo=-5.0, hi=5.0), T(F32, [4, 3])], [T(I32, [2])], {"type": 1}))


def embedding_lookup_sparse_cases(add):
    """EMBEDDING_LOOKUP_SPARSE: the three combiners over 1-, 2- and 3-column indices, params of
    rank 2 and 3, sorted ids and a bucket revisited (TFLite closes a bucket on every change)."""
    combiners = {"sum": 0, "mean": 1, "sqrtn": 2}
    # (tag, ids, indices rows, dense_shape, params shape)
    sets = (("2d", [1, 3, 0, 1], [[0, 0], [0, 1], [1, 0], [2, 3]], [3, 4], [5, 6]),
            ("3d", [0, 2, 2, 4, 1], [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 2, 0], [1, 2, 1]], [2, 3, 2], [5, 3, 2]),
            ("1col", [2, 0, 1], [[0], [1], [2]], [3], [4, 3]),
            ("revisit", [0, 1, 2], [[0, 0], [1, 0], [0, 1]], [2, 2], [3, 4]))
    for tag, ids, ix, ds, pshape in sets:
        n, r = len(ids), len(ds)
        lead = ds[:-1]
        oshape = lead + pshape[1:]
        for cname, cval in combiners.items():
            case = single("embedding_lookup_sparse_%s_%s" % (cname, tag), "EMBEDDING_LOOKUP_SPARSE",
                          [T(I32, [n], const=ids), T(I32, [n, r], const=[v for row in ix for v in row]),
                           T(I32, [r], const=ds), T(F32, [n], lo=0.25, hi=2.0), T(F32, pshape)],
                          [T(F32, oshape)], {"combiner": cval})
            case.engine = "tfweb"  # TFLite makes the output dynamic: LiteRT.js does not read it back
            add(case)


def dilate_cases(add):
    """DILATE: interior padding with a padding value, 1-4 dimensions, factors of 1 mixed in,
    several dtypes (bytes copied)."""
    def odim(shape, f):
        return [(d - 1) * k + 1 for d, k in zip(shape, f)]
    for tag, d, shape, f in (("f32_2d", F32, [3, 3], [2, 3]), ("f32_1d", F32, [5], [3]),
                             ("i32_3d", I32, [2, 3, 4], [1, 2, 1]), ("i8_4d", I8, [2, 2, 3, 2], [2, 1, 3, 2]),
                             ("u8_ones", U8, [3, 4], [1, 1]), ("f32_trailing", F32, [2, 3, 2], [3, 1, 1]),
                             ("i64_2d", I64, [3, 2], [2, 2])):
        pad = {F32: [0.5], I32: [-7], I8: [-128], U8: [255], I64: [1 << 40]}[d]
        add(single("dilate_%s" % tag, "DILATE", [T(d, shape), T(I32, [len(shape)], const=f),
                                                 T(d, [], const=pad)], [T(d, odim(shape, f))]))


def stablehlo_pad_cases(add):
    """STABLEHLO_PAD: edge padding (positive and negative: cropping), interior padding, both,
    several dtypes (bytes copied). An all-empty result is a unit test (test_stablehlo_pad.c):
    LiteRT.js cannot hand back an empty output."""
    def odim(shape, lo, hi, it):
        d = [(s - 1) * (i + 1) + 1 + a + b for s, a, b, i in zip(shape, lo, hi, it)]
        return [0] * len(d) if min(d) <= 0 else d
    for tag, d, shape, lo, hi, it in (
            ("f32_edge", F32, [3, 4], [1, 0], [2, 3], [0, 0]),
            ("f32_interior", F32, [3, 3], [0, 0], [0, 0], [1, 2]),
            ("f32_mixed", F32, [2, 3, 4], [1, -1, 2], [-1, 2, 0], [2, 1, 1]),
            ("i32_crop", I32, [5, 6], [-2, -1], [-1, -3], [0, 0]),
            ("i8_crop_interior", I8, [4, 5], [-3, -2], [-2, -4], [2, 1]),
            ("u8_1d", U8, [7], [3], [2], [1]),
            ("i64_4d", I64, [2, 2, 3, 2], [0, 1, 0, 1], [1, 0, 1, 0], [1, 0, 0, 2])):
        pad = {F32: [0.25], I32: [-7], I8: [-128], U8: [255], I64: [1 << 40]}[d]
        add(single("stablehlo_pad_%s" % tag, "STABLEHLO_PAD", [T(d, shape), T(d, [], const=pad)],
                   [T(d, odim(shape, lo, hi, it))],
                   {"edge_padding_low": lo, "edge_padding_high": hi, "interior_padding": it}))



class CompositeCase:
    """STABLEHLO_COMPOSITE over a decomposition subgraph (subgraph 1): main graph
    z = COMPOSITE(x, y); the decomposition computes ops on its own inputs (a, b)."""

    def __init__(self, name, dtype, shape, decomposition, note=""):
        self.name, self.dtype, self.shape, self.decomposition = name, dtype, shape, decomposition
        self.inputs, self.outputs, self.note = ["x", "y"], ["z"], note
        self.tensors = {"x": T(dtype, shape), "y": T(dtype, shape), "z": T(dtype, shape)}

    def tolerance(self):
        return "float" if self.dtype in (F32, F64) else "exact"

    def build(self):
        from casekit import Rng, seed_of
        m = S.Model(description="tfcc conformance case " + self.name)
        x = m.add_tensor("x", self.dtype, self.shape)
        y = m.add_tensor("y", self.dtype, self.shape)
        z = m.add_tensor("z", self.dtype, self.shape)
        idx, sg = m.add_subgraph("decomposition")
        names = {}
        for key in ("a", "b") + tuple(k for _, _, outs in self.decomposition for k in outs):
            if key not in names:
                names[key] = sg.add_tensor(key, self.dtype, self.shape)
        for op, ins, outs in self.decomposition:
            sg.add_op(op, [names[k] for k in ins], [names[k] for k in outs])
        sg.inputs = [names["a"], names["b"]]
        sg.outputs = [names[self.decomposition[-1][2][0]]]
        m.add_op("STABLEHLO_COMPOSITE", [x, y], [z],
                 {"name": "tfcc.test_composite", "decomposition_subgraph_index": idx, "version": 1,
                  "composite_attributes": flexbuf.map_bytes({"k": 1})})
        m.inputs, m.outputs = [x, y], [z]
        rng = Rng(seed_of(self.name))
        feeds = [(S.DTYPE_NAME[self.dtype], self.shape, self.tensors[k].random_values(rng)) for k in ("x", "y")]
        return S.serialize(m), feeds


def stablehlo_composite_cases(add):
    """STABLEHLO_COMPOSITE: the decomposition subgraph runs on the operator's inputs."""
    add(CompositeCase("stablehlo_composite_f32_add_mul", F32, [2, 3],
                      [("ADD", ["a", "b"], ["t"]), ("MUL", ["t", "a"], ["u"])]))
    add(CompositeCase("stablehlo_composite_i32_shlo", I32, [4],
                      [("STABLEHLO_MULTIPLY", ["a", "b"], ["t"]), ("STABLEHLO_MAXIMUM", ["t", "a"], ["u"])]))


class StablehloCaseCase:
    """STABLEHLO_CASE (ops): main graph z = CASE(index, x, y) over branch subgraphs that each
    compute ops on their own inputs (a, b); order lists the subgraphs in branch order (a
    permutation of 1..n, so the branch list maps indices to subgraphs). The int32 index is a
    model input: values outside [0, n) select the last branch (StableHLO; TFLite's kernel)."""

    def __init__(self, name, dtype, shape, branches, index, order=None, index_shape=(), const_index=False):
        self.name, self.dtype, self.shape, self.branches = name, dtype, shape, branches
        self.index, self.order = index, order or list(range(1, len(branches) + 1))
        self.index_shape, self.const_index = list(index_shape), const_index
        self.inputs = (["x", "y"] if const_index else ["index", "x", "y"])
        self.outputs, self.note = ["z"], ""
        self.tensors = {"index": T(I32, self.index_shape), "x": T(dtype, shape), "y": T(dtype, shape),
                        "z": T(dtype, shape)}

    def tolerance(self):
        return "float" if self.dtype in (F32, F64) else "exact"

    def build(self):
        from casekit import Rng, seed_of
        m = S.Model(description="tfcc conformance case " + self.name)
        i = m.add_tensor("index", I32, self.index_shape,
                         data=S.pack(I32, [self.index]) if self.const_index else None)
        x = m.add_tensor("x", self.dtype, self.shape)
        y = m.add_tensor("y", self.dtype, self.shape)
        z = m.add_tensor("z", self.dtype, self.shape)
        subs = [m.add_subgraph("branch_%d" % k)[1] for k in range(len(self.branches))]
        for pos, sub_index in enumerate(self.order):  # subgraph sub_index runs branch pos
            sg, ops = subs[sub_index - 1], self.branches[pos]
            names = {}
            for key in ("a", "b") + tuple(k for _, _, outs in ops for k in outs):
                if key not in names:
                    names[key] = sg.add_tensor(key, self.dtype, self.shape)
            for op, ins, outs in ops:
                sg.add_op(op, [names[k] for k in ins], [names[k] for k in outs])
            sg.inputs = [names["a"], names["b"]]
            sg.outputs = [names[ops[-1][2][0]] if ops else names["a"]]
        m.add_op("STABLEHLO_CASE", [i, x, y], [z], {"branch_subgraph_indices": self.order})
        m.inputs, m.outputs = ([x, y] if self.const_index else [i, x, y]), [z]
        rng = Rng(seed_of(self.name))
        feeds = [] if self.const_index else [("int32", self.index_shape, [self.index])]
        feeds += [(S.DTYPE_NAME[self.dtype], self.shape, self.tensors[k].random_values(rng)) for k in ("x", "y")]
        return S.serialize(m), feeds


def stablehlo_case_cases(add):
    """STABLEHLO_CASE: each branch of three chosen by index (branch list not in subgraph order),
    an index past the end and a negative one (the last branch), a branch that returns its input
    unchanged, an integer case, a [1]-shaped index."""
    three = [[("ADD", ["a", "b"], ["t"])],
             [("MUL", ["a", "b"], ["t"]), ("SUB", ["t", "a"], ["u"])],
             [("MAXIMUM", ["a", "b"], ["t"])]]
    for idx, tag in ((0, "0"), (1, "1"), (2, "2"), (7, "past_end"), (-1, "negative")):
        add(StablehloCaseCase("stablehlo_case_f32_index_%s" % tag, F32, [2, 3], three, idx, order=[2, 3, 1]))
    add(StablehloCaseCase("stablehlo_case_f32_passthrough", F32, [4], [three[0], []], 1))
    # a constant index: only its branch is planned
    add(StablehloCaseCase("stablehlo_case_f32_const_index", F32, [2, 3], three, 1, order=[3, 1, 2],
                          const_index=True))
    ints = [[("STABLEHLO_MULTIPLY", ["a", "b"], ["t"])], [("STABLEHLO_MINIMUM", ["a", "b"], ["t"])]]
    add(StablehloCaseCase("stablehlo_case_i32_index_1", I32, [3, 2], ints, 1, index_shape=[1]))
    add(StablehloCaseCase("stablehlo_case_i32_index_0", I32, [3, 2], ints, 0, index_shape=[1]))


def stablehlo_rng_bit_generator_cases(add):
    """STABLEHLO_RNG_BIT_GENERATOR (ops): DEFAULT / PHILOX / THREEFRY over their state sizes
    (Philox u64[2] or u64[3], ThreeFry u64[2]), int32/uint32/int64/uint64 outputs whose word
    counts leave a partial last block, a counter about to carry into its second word. The
    oracle's .npy I/O has no uint64, so the state is a constant and a second generator runs on
    the first one's new state: both bit outputs are the model's, which checks the new state."""
    from casekit import Case
    U64 = S.UINT64
    full = 0xFFFFFFFFFFFFFFFF
    states = {"s2": [0x0123456789ABCDEF, 0xFEDCBA9876543210], "s3": [7, 0xFFFFFFFE00000001, 0xDEADBEEFCAFEF00D],
              "carry": [0x9E3779B97F4A7C15, 0x00000000FFFFFFFE], "zero": [0, 0], "ones": [full, full]}
    for alg, aname, sizes in ((0, "default", ("s2", "s3")), (1, "philox", ("s2", "s3", "carry", "zero")),
                              (2, "threefry", ("s2", "carry", "zero", "ones"))):
        for st in sizes:
            for tag, d, shape in (("u32", U32, [3, 5]), ("i32", I32, [7]), ("i64", I64, [5])):
                if st != "s2" and tag not in ("i32", "i64"):
                    continue
                state = states[st]
                n = len(state)
                tensors = {"state": T(U64, [n], const=state), "s1": T(U64, [n]), "s2": T(U64, [n]),
                           "bits1": T(d, shape), "bits2": T(d, [2])}
                ops = [("STABLEHLO_RNG_BIT_GENERATOR", ["state"], ["s1", "bits1"], {"algorithm": alg}),
                       ("STABLEHLO_RNG_BIT_GENERATOR", ["s1"], ["s2", "bits2"], {"algorithm": alg})]
                add(Case("stablehlo_rng_bit_generator_%s_%s_%s" % (aname, st, tag), tensors, ops, [],
                         ["bits1", "bits2"]))

def stablehlo_gather_cases(add):
    """STABLEHLO_GATHER: row gathers, 2-D index vectors, uncollapsed slices, index_vector_dim 0
    and last, offset dimensions before the batch ones, int64 indices; index values outside the
    operand (clamped by the operator's semantics)."""
    def g(name, d, oshape, ishape, idt, out, offset, collapsed, smap, ivd, sizes):
        add(single("stablehlo_gather_" + name, "STABLEHLO_GATHER",
                   [T(d, oshape), T(idt, ishape, lo=-2, hi=7)], [T(d, out)],
                   {"offset_dims": offset, "collapsed_slice_dims": collapsed, "start_index_map": smap,
                    "index_vector_dim": ivd, "slice_sizes": sizes}))
    g("rows_f32", F32, [5, 4], [3, 1], I32, [3, 4], [1], [0], [0], 1, [1, 4])
    g("points_f32", F32, [4, 5, 3], [2, 2], I32, [2, 3], [1], [0, 1], [0, 1], 1, [1, 1, 3])
    g("windows_i32", I32, [6, 7], [2, 2], I32, [2, 2, 3], [1, 2], [], [0, 1], 1, [2, 3])
    g("ivd0_i8", I8, [5, 6], [2, 3], I32, [3, 2], [1], [0], [1, 0], 0, [1, 2])
    g("offset_first_i64idx", I32, [4, 5], [3, 1], I64, [4, 3], [0], [1], [1], 1, [4, 1])
    g("batch2_u8", U8, [6, 5], [2, 3, 1], I32, [2, 3, 2, 5], [2, 3], [], [0], 2, [2, 5])
    g("implicit_ivd_f32", F32, [5, 4], [3], I32, [3, 4], [1], [0], [0], 1, [1, 4])


def reduce_window_cases(add):
    """REDUCE_WINDOW (code 205): the six functions over 1- to 4-D inputs, strides and dilations,
    a non-identity init value, strides that leave a partial last window (dropped, as current
    TFLite sizes the output)."""
    fns = {"add": 1, "mul": 2, "min": 3, "max": 4, "all": 5, "any": 6}

    def odim(n, w, st, dl):
        dw = (w - 1) * dl + 1
        return 0 if n < dw else (n - dw) // st + 1

    def rw(name, d, shape, win, st, dl, fn, init, lo=None, hi=None):
        out = [odim(n, w, a, b) for n, w, a, b in zip(shape, win, st, dl)]
        add(single("reduce_window_" + name, "REDUCE_WINDOW",
                   [T(d, shape, lo=lo, hi=hi), T(d, [], const=[init]), T(I64, [len(shape)], const=win),
                    T(I64, [len(shape)], const=st), T(I64, [len(shape)], const=dl)],
                   [T(d, out)], {"reduce_function": fns[fn]}))
    rw("add_f32", F32, [4, 5], [2, 2], [1, 1], [1, 1], "add", 0.0)
    rw("add_f32_init", F32, [3, 6], [2, 3], [1, 3], [1, 1], "add", 1.5)
    rw("max_f32_dilated", F32, [7, 9], [3, 2], [2, 2], [1, 2], "max", float("-inf"))
    rw("min_i8", I8, [2, 5, 6], [1, 2, 3], [1, 1, 3], [1, 2, 1], "min", 127)
    rw("mul_i32", I32, [6, 4], [2, 2], [2, 2], [1, 1], "mul", 1, -3, 3)
    rw("any_u8", U8, [5, 5], [2, 2], [1, 1], [1, 1], "any", 0, 0, 1)
    rw("all_i32", I32, [2, 3, 4, 5], [1, 2, 2, 2], [1, 1, 2, 3], [1, 1, 1, 1], "all", 1, 0, 1)
    rw("max_i16_1d", I16, [11], [3], [2], [2], "max", -32768)
    rw("add_f64_3d", F64, [3, 4, 5], [2, 2, 2], [1, 2, 1], [2, 1, 2], "add", 0.0)
    rw("add_f32_partial", F32, [5, 7], [2, 3], [2, 2], [1, 1], "add", 0.0)
    rw("max_f32_partial_dilated", F32, [8, 6], [2, 2], [3, 4], [2, 1], "max", float("-inf"))
    rw("add_i64_wrap", I64, [4, 4], [2, 2], [2, 2], [1, 1], "add", 0, -(1 << 62), 1 << 62)



class ReduceWindowBodyCase:
    """STABLEHLO_REDUCE_WINDOW over x with a constant init value; the body subgraph (1) holds one
    operator on scalars, which names the reduction."""

    def __init__(self, name, dtype, shape, init, body_op, opts, out, lo=None, hi=None):
        self.name, self.dtype, self.shape, self.init, self.body_op = name, dtype, shape, init, body_op
        self.opts, self.note = opts, ""
        self.inputs, self.outputs = ["x"], ["z"]
        self.tensors = {"x": T(dtype, shape, lo=lo, hi=hi), "z": T(dtype, out)}

    def tolerance(self):
        return "float" if self.dtype in (F32, F64) else "exact"

    def build(self):
        from casekit import Rng, seed_of
        m = S.Model(description="tfcc conformance case " + self.name)
        x = m.add_tensor("x", self.dtype, self.shape)
        iv = m.add_tensor("init", self.dtype, [], data=S.pack(self.dtype, [self.init]))
        z = m.add_tensor("z", self.dtype, self.tensors["z"].shape)
        idx, sg = m.add_subgraph("body")
        a, b, c = (sg.add_tensor(k, self.dtype, []) for k in ("a", "b", "c"))
        sg.add_op(self.body_op, [a, b], [c])
        sg.inputs, sg.outputs = [a, b], [c]
        m.add_op("STABLEHLO_REDUCE_WINDOW", [x, iv], [z], dict(self.opts, body_subgraph_index=idx))
        m.inputs, m.outputs = [x], [z]
        rng = Rng(seed_of(self.name))
        return S.serialize(m), [(S.DTYPE_NAME[self.dtype], self.shape, self.tensors["x"].random_values(rng))]


def stablehlo_reduce_window_cases(add):
    """STABLEHLO_REDUCE_WINDOW: each body operator (StableHLO and TFLite forms), strides, window
    and base dilations, positive and negative padding."""
    def out_shape(shape, o):
        r = len(shape)
        st = o.get("window_strides", [1] * r)
        bd = o.get("base_dilations", [1] * r)
        wd = o.get("window_dilations", [1] * r)
        pd = o.get("padding", [0] * (2 * r))
        res = []
        for k in range(r):
            d2 = (shape[k] - 1) * bd[k] + 1 + pd[2 * k] + pd[2 * k + 1]
            dw = (o["window_dimensions"][k] - 1) * wd[k] + 1
            res.append(0 if d2 < dw else (d2 - dw) // st[k] + 1)
        return res

    def rw(name, d, shape, init, body, o, lo=None, hi=None):
        add(ReduceWindowBodyCase("stablehlo_reduce_window_" + name, d, shape, init, body, o, out_shape(shape, o),
                                 lo, hi))
    rw("add_f32", F32, [4, 5], 0.0, "STABLEHLO_ADD", {"window_dimensions": [2, 2]})
    rw("max_f32_pool", F32, [1, 6, 6, 2], float("-inf"), "STABLEHLO_MAXIMUM",
       {"window_dimensions": [1, 3, 3, 1], "window_strides": [1, 2, 2, 1], "padding": [0, 0, 1, 1, 1, 1, 0, 0]})
    rw("add_f32_dilations", F32, [5, 4], 0.5, "ADD",
       {"window_dimensions": [2, 3], "window_strides": [2, 1], "base_dilations": [2, 1], "window_dilations": [1, 2],
        "padding": [1, 0, 0, 2]})
    rw("min_i32_crop", I32, [7, 6], 1 << 30, "STABLEHLO_MINIMUM",
       {"window_dimensions": [2, 2], "window_strides": [1, 2], "padding": [-1, -2, 1, -1]}, -100, 100)
    rw("mul_i8", I8, [3, 6], 1, "MUL", {"window_dimensions": [1, 3], "window_strides": [1, 3]}, -3, 3)
    rw("and_i32", I32, [4, 4], 1, "STABLEHLO_AND", {"window_dimensions": [2, 2]}, 0, 1)
    rw("maximum_u8", U8, [2, 3, 5], 0, "MAXIMUM", {"window_dimensions": [1, 2, 2], "base_dilations": [1, 2, 1]})
    rw("minimum_f64", F64, [6], 100.0, "MINIMUM", {"window_dimensions": [3], "window_strides": [2],
                                                   "padding": [2, 1]})



class ScatterCase:
    """STABLEHLO_SCATTER(operand, indices, updates) with an update computation subgraph (1) that
    holds no operator (the update replaces) or one StableHLO operator on scalars."""

    def __init__(self, name, dtype, oshape, idt, ishape, ushape, body_op, opts, ihi, ulo=None, uhi=None):
        self.name, self.dtype, self.body_op, self.opts = name, dtype, body_op, opts
        self.note, self.inputs, self.outputs = "", ["x", "i", "u"], ["z"]
        # index values in [0, ihi]: past-the-end targets are skipped (TFLite writes below 0)
        self.tensors = {"x": T(dtype, oshape, lo=ulo, hi=uhi), "i": T(idt, ishape, lo=0, hi=ihi),
                        "u": T(dtype, ushape, lo=ulo, hi=uhi), "z": T(dtype, oshape)}

    def tolerance(self):
        return "float" if self.dtype in (F32, F64) else "exact"

    def build(self):
        from casekit import Rng, seed_of
        m = S.Model(description="tfcc conformance case " + self.name)
        idx = {k: m.add_tensor(k, t.dtype, t.shape) for k, t in self.tensors.items()}
        gi, sg = m.add_subgraph("update_computation")
        a, b = sg.add_tensor("a", self.dtype, []), sg.add_tensor("b", self.dtype, [])
        if self.body_op:
            c = sg.add_tensor("c", self.dtype, [])
            sg.add_op(self.body_op, [a, b], [c])
            sg.inputs, sg.outputs = [a, b], [c]
        else:
            sg.inputs, sg.outputs = [a, b], [b]
        m.add_op("STABLEHLO_SCATTER", [idx["x"], idx["i"], idx["u"]], [idx["z"]],
                 dict(self.opts, update_computation_subgraph_index=gi))
        m.inputs, m.outputs = [idx["x"], idx["i"], idx["u"]], [idx["z"]]
        rng = Rng(seed_of(self.name))
        feeds = [(S.DTYPE_NAME[self.tensors[k].dtype], self.tensors[k].shape,
                  self.tensors[k].random_values(rng)) for k in self.inputs]
        return S.serialize(m), feeds


def stablehlo_scatter_cases(add):
    """STABLEHLO_SCATTER: replace, add (repeated targets accumulate in order), max, min, mul;
    row and point scatters, windows, index_vector_dim 0, int64 indices, targets past the end."""
    def sc(name, d, oshape, idt, ishape, ushape, body, uwd, iwd, sd, ivd, ihi, lo=None, hi=None):
        add(ScatterCase("stablehlo_scatter_" + name, d, oshape, idt, ishape, ushape, body,
                        {"update_window_dims": uwd, "inserted_window_dims": iwd,
                         "scatter_dims_to_operand_dims": sd, "index_vector_dim": ivd}, ihi, lo, hi))
    sc("rows_update_f32", F32, [5, 3], I32, [2, 1], [2, 3], None, [1], [0], [0], 1, 5)
    sc("rows_add_i32", I32, [4, 3], I32, [6, 1], [6, 3], "STABLEHLO_ADD", [1], [0], [0], 1, 3, -50, 50)
    sc("points_max_f32", F32, [4, 5], I32, [7, 2], [7], "STABLEHLO_MAXIMUM", [], [0, 1], [0, 1], 1, 4)
    sc("window_min_i8", I8, [6, 4], I32, [2, 1], [2, 3, 4], "STABLEHLO_MINIMUM", [1, 2], [], [0], 1, 4)
    sc("ivd0_mul_u8", U8, [5, 4], I32, [1, 3], [3, 4], "STABLEHLO_MULTIPLY", [1], [0], [0], 0, 5, 0, 3)
    sc("i64idx_add_f32", F32, [3, 4, 2], I64, [2, 2, 2], [2, 2, 2], "STABLEHLO_ADD", [2], [0, 1], [0, 1], 2, 3)


def cases(add):
    stablehlo_elementwise_cases(add)
    lsh_projection_cases(add)
    embedding_lookup_sparse_cases(add)
    dilate_cases(add)
    stablehlo_pad_cases(add)
    stablehlo_composite_cases(add)
    stablehlo_gather_cases(add)
    reduce_window_cases(add)
    stablehlo_reduce_window_cases(add)
    stablehlo_scatter_cases(add)
    stablehlo_case_cases(add)  # ops
    stablehlo_rng_bit_generator_cases(add)  # ops
    import version_cases  # ops: higher operator versions
    version_cases.cases(add)
    import type_cases  # types: int2 / uint4 / float8 tensors
    type_cases.cases(add)
