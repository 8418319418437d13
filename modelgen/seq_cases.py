"""Conformance cases of the sequence-model operators (LSTM, RNN, SVDF families) and the 3-D
convolutions. State tensors are variable tensors (zero at the start of a run); the recurrence
is exercised by chaining two or three steps of an operator over the same state in one model,
or by sequences. TFLite's LiteRT engine rejects variable tensors: make_conformance.py runs these
cases with the classic interpreter (engine tfweb)."""
import math
import struct

import tflite_schema as S
from casekit import OMIT, Case, Rng, T, choose_qparams, f32, numel, seed_of

F32, I32, I8, I16 = S.FLOAT32, S.INT32, S.INT8, S.INT16

# cases whose reference needs the classic interpreter (variable tensors)
TFWEB_PREFIXES = ("lstm_", "unidirectional_sequence_lstm_", "bidirectional_sequence_", "unidirectional_sequence_rnn_", "rnn_", "svdf_")


def fconst(rng, shape, wmax=0.5):
    return T(F32, shape, const=[f32(rng.uniform(-wmax, wmax)) for _ in range(numel(shape))])


def qconst(rng, dt, shape, scale, lo, hi):
    return T(dt, shape, q=(f32(scale), 0), const=[rng.randint(lo, hi) for _ in range(numel(shape))])


# ---------------------------------------------------------------- LSTM
def lstm_tensors(name, dt, nb, ni, nc, no, cifg=False, peep=False, proj=False, ln=False,
                 hybrid=False, asym=False, cell_log2=-11):
    """The 24 inputs of an LSTM (lstm::full order) keyed w0..w3, r0..r3, p0/p1/p3, b0..b3,
    pw, pb, h, c, l0..l3 (OMIT where absent), plus tensors and intermediates (int8)."""
    rng = Rng(seed_of(name + "/weights"))
    t, keys, inter = {}, [], []
    q = dt == "i8"
    in_q = choose_qparams(I8, -2.0, 2.0) if q else None
    h_q = choose_qparams(I8, -1.0, 1.0) if q else None
    ws = 0.5 / 127.0

    def weight(key, shape):
        if q or hybrid:
            t[key] = qconst(rng, I8, shape, ws * rng.uniform(0.5, 1.0), -127, 127)
        else:
            t[key] = fconst(rng, shape)
        return key

    def vec(key, n, kind):
        if kind == "bias" and q:
            t[key] = T(I32, [n], q=(f32(in_q[0] * t["w3"].q[0]), 0),
                       const=[rng.randint(-2000, 2000) for _ in range(n)])
        elif kind == "peep" and q:
            t[key] = qconst(rng, I16, [n], 0.5 / 32767, -32767, 32767)
        elif kind == "peep" and hybrid:
            t[key] = qconst(rng, I8, [n], 0.5 / 127, -127, 127)
        elif kind == "ln" and q:
            t[key] = qconst(rng, I16, [n], 1.0 / 16384, 8000, 24000)
        elif kind == "ln":
            t[key] = T(F32, [n], const=[f32(rng.uniform(0.5, 1.5)) for _ in range(n)])
        else:
            t[key] = fconst(rng, [n])
        return key

    x_key = "x"
    keys.append(x_key)
    for g in range(4):
        keys.append(OMIT if (g == 0 and cifg) else weight("w%d" % g, [nc, ni]))
    for g in range(4):
        keys.append(OMIT if (g == 0 and cifg) else weight("r%d" % g, [nc, no]))
    for g in (0, 1, 3):
        keys.append(vec("p%d" % g, nc, "peep") if peep and not (g == 0 and cifg) else OMIT)
    for g in range(4):
        keys.append(OMIT if (g == 0 and cifg) else vec("b%d" % g, nc, "bias"))
    if proj:
        keys.append(weight("pw", [no, nc]))
        if q:
            t["pb"] = T(I32, [no], q=(f32(h_q[0] * t["pw"].q[0]), 0),
                        const=[rng.randint(-500, 500) for _ in range(no)])
            keys.append("pb")
        else:
            keys.append(vec("pb", no, "proj_bias"))
    else:
        keys += [OMIT, OMIT]
    t["h"] = T(I8 if q else F32, [nb, no], q=h_q, variable=True)
    t["c"] = T(I16 if q else F32, [nb, nc], q=(2.0 ** cell_log2, 0) if q else None, variable=True)
    keys += ["h", "c"]
    for g in range(4):
        keys.append(vec("l%d" % g, nc, "ln") if ln and not (g == 0 and cifg) else OMIT)
    if q:
        for g in range(4):
            t["i%d" % g] = T(I16, [1], q=(f32(2.0 ** -12 if not ln else 1.0 / 4096 * (1 + g / 8.0)), 0))
            inter.append("i%d" % g)
        t["i4"] = T(I8, [1], q=(f32(1.0 / 128), -3) if proj else h_q)
        inter.append("i4")
    return t, keys, inter, in_q, h_q


def lstm_case(name, dt, nb, ni, nc, no, steps=2, opts=None, **kw):
    t, keys, inter, in_q, h_q = lstm_tensors(name, dt, nb, ni, nc, no, **kw)
    q = dt == "i8"
    ops, ins, outs = [], [], []
    for s in range(steps):
        xk, yk = "x%d" % s, "y%d" % s
        t[xk] = T(I8, [nb, ni], q=in_q) if q else T(F32, [nb, ni], lo=-2.0, hi=2.0)
        t[yk] = T(I8, [nb, no], q=h_q) if q else T(F32, [nb, no])
        op_in = [xk] + keys[1:]
        ops.append(("LSTM", op_in, [yk], dict(opts or {"fused_activation_function": "TANH"}))
                   + ((inter,) if inter else ()))
        ins.append(xk)
        outs.append(yk)
    return Case(name, t, ops, ins, outs)


def seq_lstm_case(name, dt, nb, nt, ni, nc, no, time_major=False, opts=None, **kw):
    """UNIDIRECTIONAL_SEQUENCE_LSTM over nt steps (the same tensors as lstm_case)."""
    t, keys, inter, in_q, h_q = lstm_tensors(name, dt, nb, ni, nc, no, **kw)
    q = dt == "i8"
    xs = [nt, nb, ni] if time_major else [nb, nt, ni]
    ys = [nt, nb, no] if time_major else [nb, nt, no]
    t["x"] = T(I8, xs, q=in_q) if q else T(F32, xs, lo=-2.0, hi=2.0)
    t["y"] = T(I8, ys, q=h_q) if q else T(F32, ys)
    o = dict(opts or {"fused_activation_function": "TANH"})
    o["time_major"] = time_major
    return Case(name, t, [("UNIDIRECTIONAL_SEQUENCE_LSTM", keys, ["y"], o) + ((inter,) if inter else ())],
                ["x"], ["y"])


def lstm_act_probe_case(name, wi, bi, wo, bo, n=2048, vals=None, runtime_w=False):
    """exact3: one step of a one-cell float UNIDIRECTIONAL_SEQUENCE_LSTM over n batch rows whose
    input is the gates' pre-activation (weights 0 or 1, recurrent weights 0, zero states), so
    the output shows the cell's sigmoid and tanh on n chosen values: wi/bi, wo/bo pick the input
    and output gates (weight 0 with bias 30: a gate of exactly 1). Inputs span the activations'
    branches: |x| < 0.0004 (tanh(x) = x), below -9, the clamps near +-7.9, past 88.7 (exp
    overflows) and both signs of zero. mend44: vals, exactly these inputs instead; runtime_w,
    the four input weights as model inputs (tfcc then runs its reference cell, not the plan)."""
    def c(v):
        return T(F32, [1, 1], const=[float(v)])

    def w(v):
        return T(F32, [1, 1], values=[float(v)]) if runtime_w else c(v)

    def b(v):
        return T(F32, [1], const=[float(v)])

    rng = Rng(seed_of(name))
    if vals is not None:
        vals, n = list(vals), len(vals)
    else:
        vals = [0.0, -0.0, 1e-30, -1e-30, 3.9e-4, -3.9e-4, 4.0e-4, -4.0e-4, 7.9, -7.9, 7.95, -7.95, 9.0, -9.0,
                -9.5, 16.7, -16.7, 88.8, -88.8, 95.0, -95.0, 120.0, -120.0]
    while len(vals) < n:
        k = len(vals) % 4
        if k == 0:
            vals.append(f32(rng.uniform(-20.0, 20.0)))
        elif k == 1:
            vals.append(f32(rng.uniform(-3.0, 3.0)))
        elif k == 2:
            vals.append(f32((1.0 if rng.uniform(-1, 1) > 0 else -1.0) * 10.0 ** rng.uniform(-8.0, 0.0)))
        else:
            vals.append(f32(rng.uniform(-100.0, 100.0)))
    t = {"x": T(F32, [n, 1, 1], values=vals[:n]), "y": T(F32, [n, 1, 1]),
         "w0": w(wi), "w1": w(1), "w2": w(1), "w3": w(wo), "r0": c(0), "r1": c(0), "r2": c(0), "r3": c(0),
         "b0": b(bi), "b1": b(0), "b2": b(0), "b3": b(bo),
         "h": T(F32, [n, 1], variable=True), "c": T(F32, [n, 1], variable=True)}
    keys = ["x", "w0", "w1", "w2", "w3", "r0", "r1", "r2", "r3", OMIT, OMIT, OMIT, "b0", "b1", "b2", "b3",
            OMIT, OMIT, "h", "c", OMIT, OMIT, OMIT, OMIT]
    return Case(name, t, [("UNIDIRECTIONAL_SEQUENCE_LSTM", keys, ["y"],
                           {"fused_activation_function": "TANH", "time_major": False})],
                ["x", "w0", "w1", "w2", "w3"] if runtime_w else ["x"], ["y"])


def _f32_steps(x, k):
    """the float k steps of 1 ulp from float x (k < 0: toward -inf for positive x)"""
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", b + k))[0]


# mend44: the two floats where x86-64 glibc's FMA build of expf rounds 1 ulp away from the plain
# build (glibc without FMA, musl, Emscripten's musl that the classic TFLite Web interpreter links;
# docs/kernels.md "The vector expf"), each with its neighbours, and the expf thresholds
EXPF_FMA_PROBES = [_f32_steps(float.fromhex(h), k) for h in ("-0x1.f8cbb2p+5", "0x1.04845ep+5")
                   for k in (-2, -1, 0, 1, 2)] + [float.fromhex("0x1.62e42ep6"), float.fromhex("-0x1.9fe368p6"),
                                                   -60.0, -63.0, -64.0, 30.0, 33.0]


def lstm_cases(add):
    # exact3: the float cell's activations are Eigen's logistic and fast tanh (TFLite's
    # tensor_utils): h = sigmoid(x) tanh(tanh(x)) (a) and tanh(sigmoid(x) tanh(x)) (b), bit for
    # bit with the classic interpreter (tests/ops/test_seq_exact.c); a long, wide sequence with
    # odd sizes, time-major over 2 batches, peephole, projection and clipping (the fast plan's
    # chunking, row padding and gathered rows)
    add(lstm_act_probe_case("unidirectional_sequence_lstm_f32_act_probe_a", 0, 30, 1, 0))
    add(lstm_act_probe_case("unidirectional_sequence_lstm_f32_act_probe_b", 1, 0, 0, 30))
    # mend44: the sigmoid at the floats where glibc's FMA expf differs from the plain build's
    add(lstm_act_probe_case("unidirectional_sequence_lstm_f32_act_probe_expf", 0, 30, 1, 0,
                            vals=EXPF_FMA_PROBES))
    add(lstm_act_probe_case("unidirectional_sequence_lstm_f32_act_probe_expf_ref", 0, 30, 1, 0,
                            vals=EXPF_FMA_PROBES, runtime_w=True))
    add(seq_lstm_case("unidirectional_sequence_lstm_f32_wide_tm", "f32", 2, 40, 37, 33, 21, time_major=True,
                      peep=True, proj=True, opts={"fused_activation_function": "TANH", "cell_clip": 1.5,
                                                  "proj_clip": 0.8}))
    add(seq_lstm_case("unidirectional_sequence_lstm_f32_wide_cifg", "f32", 1, 35, 64, 70, 70, cifg=True))
    # int8 cases start from an output state equal to its zero point (-1 here), as TFLite
    # resets int8 variable tensors; a state of raw 0 shifted the first outputs by 1 LSB.
    # The time-major peephole case with n_output < n_cell and 3 batch rows checks TFLite's
    # flat-buffer peephole reach (kernels/ref/lstm_quant.c).
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_basic", "i8", 2, 3, 5, 4, 4))
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_proj_tm", "i8", 2, 3, 5, 6, 3, time_major=True,
                      proj=True))
    add(seq_lstm_case("unidirectional_sequence_lstm_f32_peephole_proj", "f32", 2, 4, 5, 6, 3, peep=True,
                      proj=True))
    tanh = {"fused_activation_function": "TANH"}
    add(lstm_case("lstm_f32_basic", "f32", 2, 5, 4, 4))
    add(lstm_case("lstm_f32_one_step_b3", "f32", 3, 6, 5, 5, steps=1))
    add(lstm_case("lstm_f32_peephole_proj_clip", "f32", 2, 5, 6, 3, steps=3, peep=True, proj=True,
                  opts=dict(tanh, cell_clip=0.6, proj_clip=0.4)))
    add(lstm_case("lstm_f32_cifg_peephole", "f32", 2, 4, 5, 5, cifg=True, peep=True))
    add(lstm_case("lstm_f32_layer_norm_proj", "f32", 2, 5, 6, 4, ln=True, proj=True, peep=True))
    add(lstm_case("lstm_f32_cifg_layer_norm", "f32", 1, 3, 4, 4, cifg=True, ln=True))
    add(lstm_case("lstm_f32_relu", "f32", 2, 4, 3, 3, opts={"fused_activation_function": "RELU"}))
    add(lstm_case("lstm_i8_peephole_proj_clip", "i8", 1, 6, 8, 4, peep=True, proj=True,
                  opts=dict(tanh, cell_clip=0.5, proj_clip=0.5)))

    add(seq_lstm_case("unidirectional_sequence_lstm_hybrid_basic", "f32", 2, 3, 5, 4, 4, hybrid=True))
    add(seq_lstm_case("unidirectional_sequence_lstm_hybrid_asym_proj", "f32", 2, 3, 5, 6, 3, hybrid=True,
                      proj=True, peep=True, opts={"fused_activation_function": "TANH",
                                                  "asymmetric_quantize_inputs": True}))
    add(lstm_case("lstm_hybrid_basic", "f32", 2, 5, 4, 4, hybrid=True))
    add(lstm_case("lstm_hybrid_peephole_proj", "f32", 2, 5, 6, 3, steps=3, hybrid=True, peep=True,
                  proj=True))
    add(lstm_case("lstm_hybrid_asym_cifg", "f32", 2, 4, 5, 5, hybrid=True, cifg=True,
                  opts=dict(tanh, asymmetric_quantize_inputs=True)))
    add(lstm_case("lstm_hybrid_layer_norm", "f32", 2, 5, 6, 6, hybrid=True, ln=True))
    add(lstm_case("lstm_i8_basic", "i8", 2, 5, 4, 4))
    add(lstm_case("lstm_i8_proj", "i8", 2, 5, 6, 3, steps=3, proj=True))
    add(lstm_case("lstm_i8_cifg_peephole", "i8", 2, 4, 5, 5, cifg=True, peep=True))
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_b1", "i8", 1, 3, 5, 4, 4))
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_layer_norm_proj", "i8", 2, 3, 5, 6, 4, ln=True,
                      proj=True))
    add(lstm_case("lstm_i8_layer_norm_proj", "i8", 2, 5, 6, 4, ln=True, proj=True))
    add(lstm_case("lstm_i8_cifg_layer_norm", "i8", 2, 4, 8, 8, steps=3, cifg=True, ln=True))
    add(lstm_case("lstm_i8_peephole_proj_b3", "i8", 3, 5, 6, 3, steps=2, peep=True, proj=True))
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_layer_norm_peephole_tm", "i8", 3, 4, 6, 8, 5,
                      time_major=True, ln=True, peep=True, proj=True,
                      opts={"fused_activation_function": "TANH", "cell_clip": 0.8}))
    # sweep62b: a cell state scale below 2^-15 (a real int8 LSTM has 2^-17): TFLite's
    # ApplyTanh(15 + cell_scale) has no case for negative integer bits and writes nothing, so
    # the hidden state is the output gate times the input gate's scratch (kernels/ref/lstm.h)
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_cell_2m17", "i8", 2, 5, 6, 8, 8, cell_log2=-17))
    add(seq_lstm_case("unidirectional_sequence_lstm_i8_cell_2m16_peephole_proj_tm", "i8", 3, 4, 5, 8, 5,
                      time_major=True, peep=True, proj=True, cell_log2=-16,
                      opts={"fused_activation_function": "TANH", "cell_clip": 0.2}))
    add(lstm_case("lstm_i8_cell_2m20_layer_norm", "i8", 2, 5, 6, 6, steps=3, ln=True, cell_log2=-20))


def bidi_lstm_case(name, nb, nt, ni, nc, no, time_major=True, merge=False, hybrid=False, opts=None,
                   aux=None, na=None, **kw):
    """BIDIRECTIONAL_SEQUENCE_LSTM: two directions with their own weights and states. aux:
    None; "bw" (an auxiliary input and no auxiliary weights: the backward cell reads it instead
    of x, TFLite's non-stacking mode); "cross" (auxiliary input and, per direction and gate,
    auxiliary weights [nc, ni] (no input gate's with CIFG): both cells add them,
    tf.contrib.rnn.stack_bidirectional_rnn's cross links). The auxiliary input has x's shape:
    for "bw" TFLite's Prepare checks the backward weights against x's features; for "cross"
    lstm_eval.cc steps through the auxiliary input by x's row length (input_step), so only
    n_aux == n_input reads the right rows (tfcc refuses other sizes; na sets it for hostile
    models)."""
    na = ni if na is None else na
    fw, fk, _, _, _ = lstm_tensors(name + "/fw", "f32", nb, ni, nc, no, hybrid=hybrid, **kw)
    bw, bk, _, _, _ = lstm_tensors(name + "/bw", "f32", nb, ni, nc, no, hybrid=hybrid, **kw)
    t = {}
    for pre, src in (("f_", fw), ("b_", bw)):
        for k, v in src.items():
            t[pre + k] = v
    key = lambda pre, k: k if k == OMIT else pre + k
    keys = ["x"] + [key("f_", k) for k in fk[1:18]] + [key("b_", k) for k in bk[1:18]]
    keys += ["f_h", "f_c", "b_h", "b_c"]
    ins = ["x"]
    if aux is None:
        keys += [OMIT] * 9
    else:
        t["a"] = T(F32, [nt, nb, na] if time_major else [nb, nt, na], lo=-2.0, hi=2.0)
        keys.append("a")
        ins.append("a")
        rng = Rng(seed_of(name + "/aux"))
        for pre in ("f_", "b_"):
            for g in range(4):
                if aux == "bw" or (g == 0 and kw.get("cifg")):
                    keys.append(OMIT)
                    continue
                k = pre + "aw%d" % g
                t[k] = (qconst(rng, I8, [nc, na], 0.5 / 127.0 * rng.uniform(0.5, 1.0), -127, 127) if hybrid
                        else fconst(rng, [nc, na]))
                keys.append(k)
    xs = [nt, nb, ni] if time_major else [nb, nt, ni]
    t["x"] = T(F32, xs, lo=-2.0, hi=2.0)
    ysh = ([nt, nb] if time_major else [nb, nt]) + [2 * no if merge else no]
    t["y"] = T(F32, ysh)
    outs = ["y"]
    if not merge:
        t["y2"] = T(F32, ysh)
        outs.append("y2")
    o = dict(opts or {"fused_activation_function": "TANH"})
    o["time_major"] = time_major
    o["merge_outputs"] = merge
    return Case(name, t, [("BIDIRECTIONAL_SEQUENCE_LSTM", keys, outs, o)], ins, outs)


def bidi_lstm_cases(add):
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32", 2, 3, 4, 5, 5))
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32_merge_batch_major", 2, 4, 3, 4, 4, time_major=False,
                       merge=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32_peephole_proj", 1, 3, 4, 6, 3, peep=True, proj=True,
                       opts={"fused_activation_function": "TANH", "cell_clip": 0.7, "proj_clip": 0.5}))
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32_cifg", 2, 3, 4, 5, 5, cifg=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_hybrid", 2, 3, 4, 5, 5, hybrid=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_hybrid_merge_proj", 2, 3, 5, 6, 3, hybrid=True, merge=True,
                       proj=True, peep=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32_aux_bw", 2, 3, 4, 5, 5, aux="bw"))
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32_aux_cross_merge", 2, 3, 4, 5, 5, aux="cross", merge=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_f32_aux_cross_cifg_bm", 2, 3, 4, 5, 5, aux="cross", cifg=True,
                       time_major=False))
    add(bidi_lstm_case("bidirectional_sequence_lstm_hybrid_aux_bw", 2, 3, 4, 5, 5, aux="bw", hybrid=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_hybrid_aux_cross", 2, 3, 4, 5, 5, aux="cross", hybrid=True))
    add(bidi_lstm_case("bidirectional_sequence_lstm_hybrid_aux_cross_asym", 2, 3, 4, 5, 5, aux="cross", hybrid=True,
                       opts={"fused_activation_function": "TANH", "asymmetric_quantize_inputs": True}))
    add(bidi_lstm_case("bidirectional_sequence_lstm_hybrid_asym_batch_major", 2, 3, 4, 5, 5, hybrid=True,
                       time_major=False, opts={"fused_activation_function": "TANH",
                                               "asymmetric_quantize_inputs": True}))


# ---------------------------------------------------------------- SVDF
def svdf_case(name, dt, nb, ni, nf, nm, rank, steps=3, act="RELU", bias=True, asym=False,
              wrap=False):
    """wrap (int8): a state scale of 2^-16, so the state saturates, full-range time weights and
    biases near the int32 limits: the time sums and the bias sums overflow int32 and wrap, as a
    real keyword spotter's (pico-tflmicro-rs' keyword_scrambled_model_data) do in TFLite."""
    rng = Rng(seed_of(name + "/weights"))
    nu = nf // rank
    t = {}
    if dt == "i8":
        in_q = choose_qparams(I8, -2.0, 2.0)
        out_q = choose_qparams(I8, -3.0, 3.0)
        t["wf"] = qconst(rng, I8, [nf, ni], 0.5 / 127, -127, 127)
        t["wt"] = qconst(rng, I16, [nf, nm], 0.5 / 32767, -32767, 32767)
        s_scale = 2.0 ** (-16 if wrap else -10)
        if bias:
            lim = 2140000000 if wrap else 3000
            t["b"] = T(I32, [nu], q=(f32(s_scale * t["wt"].q[0]), 0),
                       const=[rng.randint(-lim, lim) for _ in range(nu)])
        t["s"] = T(I16, [nb, nf * nm], q=(f32(s_scale), 0), variable=True)
    else:
        hyb = dt == "hybrid"
        t["wf"] = qconst(rng, I8, [nf, ni], 0.5 / 127, -127, 127) if hyb else fconst(rng, [nf, ni])
        t["wt"] = qconst(rng, I8, [nf, nm], 0.6 / 127, -127, 127) if hyb else fconst(rng, [nf, nm], 0.6)
        if bias:
            t["b"] = fconst(rng, [nu], 0.3)
        t["s"] = T(F32, [nb, nf * nm], variable=True)
    ops, ins, outs = [], [], []
    for k in range(steps):
        xk, yk = "x%d" % k, "y%d" % k
        t[xk] = T(I8, [nb, ni], q=in_q) if dt == "i8" else T(F32, [nb, ni], lo=-2.0, hi=2.0)
        t[yk] = T(I8, [nb, nu], q=out_q) if dt == "i8" else T(F32, [nb, nu])
        o = {"rank": rank, "fused_activation_function": act}
        if asym:
            o["asymmetric_quantize_inputs"] = True
        ops.append(("SVDF", [xk, "wf", "wt", "b" if bias else OMIT, "s"], [yk], o))
        ins.append(xk)
        outs.append(yk)
    return Case(name, t, ops, ins, outs)


def svdf_cases(add):
    add(svdf_case("svdf_f32_rank1", "f32", 2, 5, 4, 3, 1))
    add(svdf_case("svdf_f32_rank2_none", "f32", 2, 4, 6, 4, 2, act="NONE"))
    add(svdf_case("svdf_f32_nobias_tanh", "f32", 1, 3, 4, 5, 2, act="TANH", bias=False))
    add(svdf_case("svdf_hybrid_rank1", "hybrid", 2, 5, 4, 3, 1))
    add(svdf_case("svdf_hybrid_rank2_asym", "hybrid", 3, 6, 6, 4, 2, act="NONE", asym=True))
    add(svdf_case("svdf_i8_rank1", "i8", 2, 5, 4, 3, 1))
    add(svdf_case("svdf_i8_rank2", "i8", 2, 6, 6, 4, 2, steps=4))
    add(svdf_case("svdf_i8_nobias_b1", "i8", 1, 7, 3, 5, 1, bias=False))
    add(svdf_case("svdf_i8_wrap", "i8", 2, 8, 6, 6, 2, steps=4, wrap=True))


# ---------------------------------------------------------------- exactness (issue 15 point 6)
def fc_runtime_weights_cases(add):
    """FULLY_CONNECTED whose int8 weights are a run-time tensor (attention's Q x K^T written as
    FULLY_CONNECTED), weights zero point non-zero: TFLite runs its builtin kernel (XNNPACK does
    not take run-time int8 weights)."""
    for tag, b, k, n, wzp, bias, ys in (("", 16, 40, 24, 3, False, 0.9), ("_bias", 8, 33, 17, -7, True, 0.9),
                                         ("_zp0", 12, 64, 12, 0, False, 0.9),
                                         ("_wide", 32, 64, 48, 11, False, 0.9),
                                         ("_mult_0p07", 32, 16, 48, 5, False, 0.03),
                                         ("_mult_0p3", 16, 8, 40, -9, True, 0.0066)):
        name = "fully_connected_i8_runtime_weights" + tag
        rng = Rng(seed_of(name))
        xq, wq, yq = (f32(0.05), -3), (f32(0.04), wzp), (f32(ys), 6)
        t = [T(I8, [b, k], q=xq), T(I8, [n, k], q=wq)]
        if bias:
            t.append(T(I32, [n], q=(f32(xq[0] * wq[0]), 0), const=[rng.randint(-400, 400) for _ in range(n)]))
        ins = t
        from casekit import single
        add(single(name, "FULLY_CONNECTED", ins, [T(I8, [b, n], q=yq)]))


# ---------------------------------------------------------------- 3-D convolutions
def conv3d_cases(add):
    from casekit import conv_out, single
    # (tag, input NDHWC, out_c, kernel dhw, strides dhw, dilations dhw, padding, activation, bias)
    convs = [
        ("valid", [1, 4, 5, 6, 2], 3, (2, 3, 3), (1, 1, 1), (1, 1, 1), "VALID", "NONE", True),
        ("same_relu", [2, 3, 4, 5, 3], 4, (3, 3, 3), (1, 1, 1), (1, 1, 1), "SAME", "RELU", True),
        ("same_s2", [1, 5, 6, 7, 2], 3, (3, 2, 3), (2, 2, 1), (1, 1, 1), "SAME", "RELU6", True),
        ("valid_dil", [1, 6, 5, 6, 2], 2, (2, 2, 2), (1, 1, 1), (2, 1, 2), "VALID", "NONE", False),
        ("same_1x1x1", [1, 3, 3, 3, 4], 5, (1, 1, 1), (1, 1, 1), (1, 1, 1), "SAME", "NONE", True),
    ]
    for tag, ish, oc, k, st, dl, pad, actf, hasb in convs:
        name = "conv_3d_f32_" + tag
        rng = Rng(seed_of(name))
        osh = [ish[0]] + [conv_out(ish[1 + i], k[i], st[i], dl[i], pad) for i in range(3)] + [oc]
        ins = [T(F32, ish, lo=-2.0, hi=2.0), fconst(rng, list(k) + [ish[4], oc])]
        if hasb:
            ins.append(fconst(rng, [oc], 0.5))
        add(single(name, "CONV_3D", ins, [T(F32, osh)],
                   {"padding": pad, "stride_d": st[0], "stride_h": st[1], "stride_w": st[2],
                    "dilation_d_factor": dl[0], "dilation_h_factor": dl[1], "dilation_w_factor": dl[2],
                    "fused_activation_function": actf}))
    # CONV_3D_TRANSPOSE: (tag, input NDHWC, out_c, kernel, strides, padding, output dhw, bias)
    trs = [
        ("same_s2", [1, 2, 3, 3, 2], 3, (3, 3, 3), (2, 2, 2), "SAME", (4, 6, 6), True),
        ("valid_s1", [1, 3, 2, 4, 3], 2, (2, 3, 2), (1, 1, 1), "VALID", (4, 4, 5), True),
        ("valid_s2_b2", [2, 2, 2, 3, 1], 2, (3, 3, 3), (2, 2, 2), "VALID", (5, 5, 7), False),
        ("same_s1_relu", [1, 3, 3, 3, 2], 2, (3, 3, 3), (1, 1, 1), "SAME", (3, 3, 3), True),
    ]
    for tag, ish, oc, k, st, pad, od, hasb in trs:
        name = "conv_3d_transpose_f32_" + tag
        rng = Rng(seed_of(name))
        osh = [ish[0]] + list(od) + [oc]
        ins = [T(I32, [5], const=osh), fconst(rng, list(k) + [oc, ish[4]]), T(F32, ish, lo=-2.0, hi=2.0)]
        if hasb:
            ins.append(fconst(rng, [oc], 0.5))
        add(single(name, "CONV_3D_TRANSPOSE", ins, [T(F32, osh)],
                   {"padding": pad, "stride_d": st[0], "stride_h": st[1], "stride_w": st[2],
                    "fused_activation_function": "RELU" if "relu" in tag else "NONE"}))


# ---------------------------------------------------------------- hybrid TRANSPOSE_CONV
def transpose_conv_hybrid_cases(add):
    """float32 input, int8 weights (per-tensor or per-output-channel), float32 bias: LiteRT
    quantizes the input per image, asymmetric (the classic interpreter rejects the model)."""
    from casekit import single
    # (tag, input NHWC, out_c, kernel, stride, padding, output hw, per-channel, activation)
    for tag, ish, oc, k, st, pad, ohw, pc, actf in (
            ("pt_same_s2", [1, 3, 3, 2], 3, 3, 2, "SAME", (6, 6), False, "NONE"),
            ("pc_valid_s1", [1, 4, 5, 3], 4, 3, 1, "VALID", (6, 7), True, "NONE"),
            ("pc_same_s2_b2_relu", [2, 4, 3, 4], 5, 3, 2, "SAME", (8, 6), True, "RELU"),
            ("pt_valid_s2", [1, 3, 4, 2], 2, 2, 2, "VALID", (6, 8), False, "NONE")):
        name = "transpose_conv_hybrid_" + tag
        rng = Rng(seed_of(name))
        n = oc * k * k * ish[3]
        scales = [f32(0.5 / 127 * rng.uniform(0.4, 1.0)) for _ in range(oc if pc else 1)]
        w = T(I8, [oc, k, k, ish[3]], q={"scale": scales, "zero_point": [0] * len(scales),
                                         "quantized_dimension": 0},
              const=[rng.randint(-127, 127) for _ in range(n)])
        osh = [ish[0], ohw[0], ohw[1], oc]
        add(single(name, "TRANSPOSE_CONV", [T(I32, [4], const=osh), w, T(F32, ish, lo=-2.0, hi=3.0),
                                            fconst(rng, [oc], 0.5)], [T(F32, osh)],
                   {"padding": pad, "stride_w": st, "stride_h": st, "fused_activation_function": actf}))


# ---------------------------------------------------------------- RNN family
def rnn_cell(t, rng, prefix, ni, nu, nb, hybrid):
    """W, R, bias, hidden state of one RNN cell keyed prefix+w/r/b/h."""
    def weight(shape):
        if hybrid:
            return qconst(rng, I8, shape, 0.6 / 127 * rng.uniform(0.5, 1.0), -127, 127)
        return fconst(rng, shape, 0.6)
    t[prefix + "w"] = weight([nu, ni])
    t[prefix + "r"] = weight([nu, nu])
    t[prefix + "b"] = fconst(rng, [nu], 0.3)
    t[prefix + "h"] = T(F32, [nb, nu], variable=True)
    return [prefix + "w", prefix + "r", prefix + "b", prefix + "h"]


def rnn_case(name, nb, ni, nu, steps=2, hybrid=False, act="TANH", asym=False):
    rng = Rng(seed_of(name + "/weights"))
    t = {}
    cell = rnn_cell(t, rng, "", ni, nu, nb, hybrid)
    ops, ins, outs = [], [], []
    for s in range(steps):
        xk, yk = "x%d" % s, "y%d" % s
        t[xk] = T(F32, [nb, ni], lo=-2.0, hi=2.0)
        t[yk] = T(F32, [nb, nu])
        o = {"fused_activation_function": act}
        if asym:
            o["asymmetric_quantize_inputs"] = True
        ops.append(("RNN", [xk] + cell, [yk], o))
        ins.append(xk)
        outs.append(yk)
    return Case(name, t, ops, ins, outs)


def seq_rnn_case(name, nb, nt, ni, nu, time_major=False, hybrid=False, act="TANH", asym=False,
                 bidi=False, merge=False, aux=None):
    """aux (bidi): None; "cross" (auxiliary input of x's shape and forward / backward weights
    [nu, ni]: both cells add them); "bw" (auxiliary input without weights: TFLite's backward
    cell reads it with time-major input, and reads x with batch-major input)."""
    rng = Rng(seed_of(name + "/weights"))
    t = {}
    keys = ["x"] + rnn_cell(t, rng, "f", ni, nu, nb, hybrid)
    xs = [nt, nb, ni] if time_major else [nb, nt, ni]
    ins = ["x"]
    if bidi:
        keys += rnn_cell(t, rng, "b", ni, nu, nb, hybrid)
        if aux is None:
            keys += [OMIT, OMIT, OMIT]
        else:
            t["a"] = T(F32, xs, lo=-2.0, hi=2.0)
            ins.append("a")
            keys.append("a")
            for k in ("fa", "ba"):
                if aux == "cross":
                    t[k] = (qconst(rng, I8, [nu, ni], 0.6 / 127 * rng.uniform(0.5, 1.0), -127, 127) if hybrid
                            else fconst(rng, [nu, ni], 0.6))
                    keys.append(k)
                else:
                    keys.append(OMIT)
    t["x"] = T(F32, xs, lo=-2.0, hi=2.0)
    ysh = ([nt, nb] if time_major else [nb, nt]) + [2 * nu if merge else nu]
    t["y"] = T(F32, ysh)
    outs = ["y"]
    if bidi and not merge:  # TFLite sizes the backward output batch-major, whatever the layout
        t["y2"] = T(F32, [nb, nt, nu])
        outs.append("y2")
    o = {"time_major": time_major, "fused_activation_function": act}
    if asym:
        o["asymmetric_quantize_inputs"] = True
    if bidi:
        o["merge_outputs"] = merge
    op = "BIDIRECTIONAL_SEQUENCE_RNN" if bidi else "UNIDIRECTIONAL_SEQUENCE_RNN"
    return Case(name, t, [(op, keys, outs, o)], ins, outs)


def _round_away(v):
    return math.copysign(math.floor(abs(v) + 0.5), v)


def _sym_quant(row):
    """tensor_utils::SymmetricQuantizeFloats: int8 values and their scale (float32)."""
    r = f32(max(abs(min(row)), abs(max(row))))
    if r == 0:
        return [0] * len(row), 1.0
    inv = f32(127.0 / r)
    return [int(max(-127, min(127, _round_away(f32(v * inv))))) for v in row], f32(r / 127.0)


_EIGEN_TANH_A = [f32(v) for v in (4.89352455891786e-03, 6.37261928875436e-04, 1.48572235717979e-05,
                                  5.12229709037114e-08, -8.60467152213735e-11, 2.00018790482477e-13,
                                  -2.76076847742355e-16)]
_EIGEN_TANH_B = [f32(v) for v in (4.89352518554385e-03, 2.26843463243900e-03, 1.18534705686654e-04,
                                  1.19825839466702e-06)]


def eigen_tanh(x):
    """Eigen's fast rational tanh in float32 as TFLite's builtin kernels run it (tensor_utils'
    ApplyTanhToVector; kernels/ref/activation.c, tfcc_tanh_f32_eigen): x where |x| < 0.0004, else
    x clamped to +-7.90531, odd numerator to x^13 over even denominator to x^6, each product and
    sum rounded to float32 (a float64 operation on float32 values, rounded once, is the float32
    operation's correctly rounded result)."""
    if abs(x) < f32(0.0004):
        return x
    mx = f32(7.90531110763549805)
    x = min(max(x, -mx), mx)
    x2 = f32(x * x)
    p = _EIGEN_TANH_A[6]
    for a in reversed(_EIGEN_TANH_A[:6]):
        p = f32(f32(x2 * p) + a)
    p = f32(x * p)
    q = _EIGEN_TANH_B[3]
    for b in reversed(_EIGEN_TANH_B[:3]):
        q = f32(f32(x2 * q) + b)
    return f32(p / q)


def bidi_rnn_hybrid_tm_reference(case, feeds):
    """ops: the outputs of a hybrid, symmetric, merged, time-major BIDIRECTIONAL_SEQUENCE_RNN
    (tanh, no aux input) as TFLite's EvalHybrid computes them, in plain Python: the time-major
    branch runs the whole sequence max_time times (an outer loop over t around both cells) with
    the hidden states carried across the passes; each step quantizes every batch row and the
    hidden state symmetrically, accumulates in int32 and scales by the row scale times the
    weight scale. Used where the classic interpreter cannot be the reference (docs/operators.md)."""
    t = case.tensors
    x = feeds[0][2]
    nt, nb, ni = t["x"].shape
    nu = t["fw"].shape[0]
    out = [0.0] * (nt * nb * 2 * nu)

    def cell(p):
        return (t[p + "w"].const, t[p + "w"].q[0], t[p + "r"].const, t[p + "r"].q[0], t[p + "b"].const)

    hid = {"f": [[0.0] * nu for _ in range(nb)], "b": [[0.0] * nu for _ in range(nb)]}

    def step(p, s, off):
        w, ws, r, rs, b = cell(p)
        rows = [[x[(s * nb + k) * ni + i] for i in range(ni)] for k in range(nb)]
        acc = [[f32(b[u]) for u in range(nu)] for _ in range(nb)]
        if any(v != 0 for row in rows for v in row):
            for k in range(nb):
                q, sc = _sym_quant(rows[k])
                sc = f32(sc * ws)
                for u in range(nu):
                    dot = sum(w[u * ni + i] * q[i] for i in range(ni))
                    acc[k][u] = f32(acc[k][u] + f32(dot * sc))
        h = hid[p]
        if any(v != 0 for row in h for v in row):
            for k in range(nb):
                q, sc = _sym_quant(h[k])
                sc = f32(sc * rs)
                for u in range(nu):
                    dot = sum(r[u * nu + j] * q[j] for j in range(nu))
                    acc[k][u] = f32(acc[k][u] + f32(dot * sc))
        for k in range(nb):
            hk = [eigen_tanh(v) for v in acc[k]]
            hid[p][k] = hk
            for u in range(nu):
                out[(s * nb + k) * 2 * nu + off + u] = hk[u]

    for _ in range(nt):  # TFLite's outer loop
        for s in range(nt):
            step("f", s, 0)
        for s in range(nt - 1, -1, -1):
            step("b", s, nu)
    return [out]


def rnn_cases(add):
    # BIDIRECTIONAL_SEQUENCE_RNN hybrid, symmetric, merge_outputs, time-major: the classic
    # interpreter's batch 1 saturates; its reference is bidi_rnn_hybrid_tm_reference (TFLite's
    # EvalHybrid in Python), which tfcc and the interpreter's batch 0 match (docs/operators.md).
    add(rnn_case("rnn_f32_tanh", 2, 5, 4))
    add(rnn_case("rnn_f32_relu_3steps", 3, 4, 6, steps=3, act="RELU"))
    add(rnn_case("rnn_f32_none_b1", 1, 7, 3, act="NONE"))
    add(rnn_case("rnn_hybrid_tanh", 2, 5, 4, hybrid=True))
    add(rnn_case("rnn_hybrid_asym_relu", 3, 6, 5, steps=3, hybrid=True, asym=True, act="RELU"))
    for tag, kw in (("f32", {}), ("hybrid", {"hybrid": True}), ("hybrid_asym", {"hybrid": True, "asym": True})):
        add(seq_rnn_case("unidirectional_sequence_rnn_%s" % tag, 2, 4, 5, 6, **kw))
        add(seq_rnn_case("unidirectional_sequence_rnn_%s_time_major" % tag, 3, 3, 4, 5, time_major=True, **kw))
        add(seq_rnn_case("bidirectional_sequence_rnn_%s" % tag, 2, 4, 5, 3, bidi=True, **kw))
        case = seq_rnn_case("bidirectional_sequence_rnn_%s_merge_tm" % tag, 2, 3, 4, 5, bidi=True,
                            merge=True, time_major=True, **kw)
        if tag == "hybrid":  # the classic interpreter saturates batch 1 here: reference in Python
            case.reference = bidi_rnn_hybrid_tm_reference
        add(case)
        add(seq_rnn_case("bidirectional_sequence_rnn_%s_tm" % tag, 3, 2, 4, 3, bidi=True, time_major=True, **kw))
    add(seq_rnn_case("unidirectional_sequence_rnn_f32_relu6", 2, 5, 3, 4, act="RELU6"))
    # the auxiliary input (cross links, or the backward cell's input)
    for tag, kw in (("f32", {}), ("hybrid", {"hybrid": True}), ("hybrid_asym", {"hybrid": True, "asym": True})):
        add(seq_rnn_case("bidirectional_sequence_rnn_%s_aux_cross" % tag, 2, 3, 4, 5, bidi=True, aux="cross", **kw))
        add(seq_rnn_case("bidirectional_sequence_rnn_%s_aux_cross_tm" % tag, 2, 3, 4, 5, bidi=True, aux="cross",
                         time_major=True, **kw))
    add(seq_rnn_case("bidirectional_sequence_rnn_f32_aux_cross_merge", 2, 3, 4, 5, bidi=True, aux="cross",
                     merge=True))
    add(seq_rnn_case("bidirectional_sequence_rnn_f32_aux_bw_tm", 2, 3, 4, 5, bidi=True, aux="bw", time_major=True))
    add(seq_rnn_case("bidirectional_sequence_rnn_f32_aux_bw", 2, 3, 4, 5, bidi=True, aux="bw"))
    add(seq_rnn_case("bidirectional_sequence_rnn_hybrid_aux_bw_tm", 2, 3, 4, 5, bidi=True, aux="bw", time_major=True,
                     hybrid=True))


def cases(add):
    lstm_cases(add)
    bidi_lstm_cases(add)
    rnn_cases(add)
    svdf_cases(add)
    fc_runtime_weights_cases(add)
    conv3d_cases(add)
    transpose_conv_hybrid_cases(add)
