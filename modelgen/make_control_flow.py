"""Control-flow, resource-variable and signature test models (tests/models/data/control_flow).

For each case: <case>.tflite, its inputs per run <case>[.<sig>].r<run>.in<i>.npy, and what
TensorFlow Lite computed for the same sequence of runs on one interpreter (state carried from
run to run), <case>[.<sig>].r<run>.out<i>.npy, made with run_ref_seq.mjs (engine litert).
cases.txt: "case <name> <signature> <runs> <inputs> <outputs> <engine>" lines, and "hostile <name>
<load|run> <status> <words of the expected message>" lines for malformed models (no reference:
tfcc must refuse them with that status and message).

    python3 modelgen/make_control_flow.py --out tests/models/data/control_flow
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import casekit  # noqa: E402
import npy  # noqa: E402
import tflite_schema as T  # noqa: E402
from tflite_schema import BOOL, FLOAT32, INT32, RESOURCE  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def const(g, name, dtype, shape, values):
    return g.add_tensor(name, dtype, shape, data=T.pack(dtype, values))


# ---------------------------------------------------------------- models
def while_counter():
    """WHILE i < n: i += 1; acc = acc * 1.5 + 0.25 (the counter limit is an input)."""
    m = T.Model("WHILE with a counter")
    n = m.add_tensor("n", INT32, [])
    x = m.add_tensor("x", FLOAT32, [3])
    i0 = const(m, "i0", INT32, [], [0])
    i_f = m.add_tensor("i_final", INT32, [])
    n_f = m.add_tensor("n_final", INT32, [])
    acc = m.add_tensor("acc", FLOAT32, [3])
    ci, cond = m.add_subgraph("cond")
    a, b, _ = (cond.add_tensor("i", INT32, []), cond.add_tensor("n", INT32, []), cond.add_tensor("x", FLOAT32, [3]))
    r = cond.add_tensor("more", BOOL, [])
    cond.add_op("LESS", [a, b], [r])
    cond.inputs, cond.outputs = [0, 1, 2], [r]
    bi, body = m.add_subgraph("body")
    i, nn, xx = body.add_tensor("i", INT32, []), body.add_tensor("n", INT32, []), body.add_tensor("x", FLOAT32, [3])
    one = const(body, "one", INT32, [], [1])
    k = const(body, "k", FLOAT32, [], [1.5])
    c = const(body, "c", FLOAT32, [], [0.25])
    i2, t, x2 = body.add_tensor("i2", INT32, []), body.add_tensor("t", FLOAT32, [3]), body.add_tensor("x2", FLOAT32, [3])
    body.add_op("ADD", [i, one], [i2])
    body.add_op("MUL", [xx, k], [t])
    body.add_op("ADD", [t, c], [x2])
    body.inputs, body.outputs = [i, nn, xx], [i2, nn, x2]
    m.add_op("WHILE", [i0, n, x], [i_f, n_f, acc], {"cond_subgraph_index": ci, "body_subgraph_index": bi})
    m.inputs, m.outputs = [n, x], [acc, i_f]
    runs = [[(INT32, [], [v]), (FLOAT32, [3], [0.5, -1.0, 2.0])] for v in (0, 3, 7)]
    return m, runs


def while_grow():
    """WHILE i < n: i += 1; t = concat(t, t * 0.5): the loop variable doubles in width."""
    m = T.Model("WHILE with a growing loop variable")
    n = m.add_tensor("n", INT32, [])
    x = m.add_tensor("x", FLOAT32, [1, 2])
    i0 = const(m, "i0", INT32, [], [0])
    i_f, n_f = m.add_tensor("i_final", INT32, []), m.add_tensor("n_final", INT32, [])
    t_f = m.add_tensor("t_final", FLOAT32, [1, 2], shape_signature=[1, -1])
    ci, cond = m.add_subgraph("cond")
    a, b = cond.add_tensor("i", INT32, []), cond.add_tensor("n", INT32, [])
    cond.add_tensor("t", FLOAT32, [1, 2], shape_signature=[1, -1])
    r = cond.add_tensor("more", BOOL, [])
    cond.add_op("LESS", [a, b], [r])
    cond.inputs, cond.outputs = [0, 1, 2], [r]
    bi, body = m.add_subgraph("body")
    i, nn = body.add_tensor("i", INT32, []), body.add_tensor("n", INT32, [])
    t = body.add_tensor("t", FLOAT32, [1, 2], shape_signature=[1, -1])
    one = const(body, "one", INT32, [], [1])
    half = const(body, "half", FLOAT32, [], [0.5])
    i2 = body.add_tensor("i2", INT32, [])
    u = body.add_tensor("u", FLOAT32, [1, 2], shape_signature=[1, -1])
    t2 = body.add_tensor("t2", FLOAT32, [1, 4], shape_signature=[1, -1])
    body.add_op("ADD", [i, one], [i2])
    body.add_op("MUL", [t, half], [u])
    body.add_op("CONCATENATION", [t, u], [t2], {"axis": 1})
    body.inputs, body.outputs = [i, nn, t], [i2, nn, t2]
    m.add_op("WHILE", [i0, n, x], [i_f, n_f, t_f], {"cond_subgraph_index": ci, "body_subgraph_index": bi})
    m.inputs, m.outputs = [n, x], [t_f, i_f]
    runs = [[(INT32, [], [v]), (FLOAT32, [1, 2], [1.0, -3.0])] for v in (0, 1, 3)]
    return m, runs


def while_fused():
    """WHILE i < n: i += 1; x = relu(x + a * b) - c, with a * b a constant expression: the graph
    passes fold a * b and fuse the RELU into the ADD inside the body subgraph."""
    m = T.Model("WHILE whose body the graph passes rewrite")
    n = m.add_tensor("n", INT32, [])
    x = m.add_tensor("x", FLOAT32, [3])
    i0 = const(m, "i0", INT32, [], [0])
    i_f, n_f = m.add_tensor("i_final", INT32, []), m.add_tensor("n_final", INT32, [])
    acc = m.add_tensor("acc", FLOAT32, [3])
    ci, cond = m.add_subgraph("cond")
    a, b = cond.add_tensor("i", INT32, []), cond.add_tensor("n", INT32, [])
    cond.add_tensor("x", FLOAT32, [3])
    r = cond.add_tensor("more", BOOL, [])
    cond.add_op("LESS", [a, b], [r])
    cond.inputs, cond.outputs = [0, 1, 2], [r]
    bi, body = m.add_subgraph("body")
    i, nn, xx = body.add_tensor("i", INT32, []), body.add_tensor("n", INT32, []), body.add_tensor("x", FLOAT32, [3])
    one = const(body, "one", INT32, [], [1])
    ka, kb = const(body, "a", FLOAT32, [], [0.5]), const(body, "b", FLOAT32, [], [3.0])
    c = const(body, "c", FLOAT32, [], [0.75])
    i2, k = body.add_tensor("i2", INT32, []), body.add_tensor("k", FLOAT32, [])
    y, yr, x2 = (body.add_tensor("y", FLOAT32, [3]), body.add_tensor("y_relu", FLOAT32, [3]),
                 body.add_tensor("x2", FLOAT32, [3]))
    body.add_op("ADD", [i, one], [i2])
    body.add_op("MUL", [ka, kb], [k])
    body.add_op("ADD", [xx, k], [y])
    body.add_op("RELU", [y], [yr])
    body.add_op("SUB", [yr, c], [x2])
    body.inputs, body.outputs = [i, nn, xx], [i2, nn, x2]
    m.add_op("WHILE", [i0, n, x], [i_f, n_f, acc], {"cond_subgraph_index": ci, "body_subgraph_index": bi})
    m.inputs, m.outputs = [n, x], [acc, i_f]
    runs = [[(INT32, [], [v]), (FLOAT32, [3], [-4.0, 0.5, -1.0])] for v in (0, 1, 2, 5)]
    return m, runs


def if_nested():
    """IF a > 0 (IF b > 0 (x * 2) else (x + 10)) else (x - 1) (the conditions are computed in
    the graph: LiteRT.js mishandles bool graph inputs)."""
    m = T.Model("nested IF")
    fa, fb = m.add_tensor("a", FLOAT32, []), m.add_tensor("b", FLOAT32, [])
    x = m.add_tensor("x", FLOAT32, [2])
    zero = const(m, "zero", FLOAT32, [], [0.0])
    c1, c2 = m.add_tensor("c1", BOOL, []), m.add_tensor("c2", BOOL, [])
    y = m.add_tensor("y", FLOAT32, [2])
    m.add_op("GREATER", [fa, zero], [c1])
    m.add_op("GREATER", [fb, zero], [c2])

    def leaf(name, op, k, with_cond=False):  # a branch takes every input after the condition
        idx, g = m.add_subgraph(name)
        ci = g.add_tensor("c2", BOOL, []) if with_cond else None
        xi = g.add_tensor("x", FLOAT32, [2])
        kk = const(g, "k", FLOAT32, [], [k])
        o = g.add_tensor("y", FLOAT32, [2])
        g.add_op(op, [xi, kk], [o])
        g.inputs, g.outputs = ([ci] if with_cond else []) + [xi], [o]
        return idx

    ti, then = m.add_subgraph("then")
    ei = leaf("else", "SUB", 1.0, with_cond=True)
    t3 = leaf("then_then", "MUL", 2.0)
    t4 = leaf("then_else", "ADD", 10.0)
    a, xx = then.add_tensor("c2", BOOL, []), then.add_tensor("x", FLOAT32, [2])
    yy = then.add_tensor("y", FLOAT32, [2])
    then.add_op("IF", [a, xx], [yy], {"then_subgraph_index": t3, "else_subgraph_index": t4})
    then.inputs, then.outputs = [a, xx], [yy]
    m.add_op("IF", [c1, c2, x], [y], {"then_subgraph_index": ti, "else_subgraph_index": ei})
    m.inputs, m.outputs = [fa, fb, x], [y]
    runs = [[(FLOAT32, [], [p]), (FLOAT32, [], [q]), (FLOAT32, [2], [1.5, -2.0])]
            for p, q in ((1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0))]
    return m, runs


def if_shapes():
    """IF a > 0 then x * 2 ([2]) else concat(x, x) ([4]): the output's shape depends on the branch."""
    m = T.Model("IF whose branches give different shapes")
    fa, x = m.add_tensor("a", FLOAT32, []), m.add_tensor("x", FLOAT32, [2])
    zero = const(m, "zero", FLOAT32, [], [0.0])
    c = m.add_tensor("c", BOOL, [])
    y = m.add_tensor("y", FLOAT32, [2], shape_signature=[-1])
    m.add_op("GREATER", [fa, zero], [c])
    ti, then = m.add_subgraph("then")
    tx, two = then.add_tensor("x", FLOAT32, [2]), const(then, "two", FLOAT32, [], [2.0])
    ty = then.add_tensor("y", FLOAT32, [2])
    then.add_op("MUL", [tx, two], [ty])
    then.inputs, then.outputs = [tx], [ty]
    ei, els = m.add_subgraph("else")
    ex = els.add_tensor("x", FLOAT32, [2])
    ey = els.add_tensor("y", FLOAT32, [4])
    els.add_op("CONCATENATION", [ex, ex], [ey], {"axis": 0})
    els.inputs, els.outputs = [ex], [ey]
    m.add_op("IF", [c, x], [y], {"then_subgraph_index": ti, "else_subgraph_index": ei})
    m.inputs, m.outputs = [fa, x], [y]
    runs = [[(FLOAT32, [], [p]), (FLOAT32, [2], [0.75, -4.0])] for p in (1.0, -1.0, 1.0)]
    return m, runs


def call_once_vars():
    """CALL_ONCE sets variable 'acc' to [1, 2]; each run: y = acc + x; acc = y."""
    m = T.Model("CALL_ONCE + resource variables")
    x = m.add_tensor("x", FLOAT32, [2])
    h = m.add_tensor("handle", RESOURCE, [])
    r = m.add_tensor("read", FLOAT32, [2])
    y = m.add_tensor("y", FLOAT32, [2])
    ii, init = m.add_subgraph("init")
    ih = init.add_tensor("handle", RESOURCE, [])
    iv = const(init, "init_value", FLOAT32, [2], [1.0, 2.0])
    init.add_op("VAR_HANDLE", [], [ih], {"container": "", "shared_name": "acc"})
    init.add_op("ASSIGN_VARIABLE", [ih, iv], [])
    m.add_op("CALL_ONCE", [], [], {"init_subgraph_index": ii})
    m.add_op("VAR_HANDLE", [], [h], {"container": "", "shared_name": "acc"})
    m.add_op("READ_VARIABLE", [h], [r])
    m.add_op("ADD", [r, x], [y])
    m.add_op("ASSIGN_VARIABLE", [h, y], [])
    m.inputs, m.outputs = [x], [y]
    runs = [[(FLOAT32, [2], v)] for v in ([0.5, 0.25], [1.0, -1.0], [-3.0, 0.0], [0.125, 8.0])]
    return m, runs


def signatures():
    """Two signatures: encode (subgraph 0: code = x * 2) and decode (subgraph 1: out = code + 1)."""
    m = T.Model("two signatures")
    x = m.add_tensor("x", FLOAT32, [3])
    two = const(m, "two", FLOAT32, [], [2.0])
    code = m.add_tensor("code", FLOAT32, [3])
    m.add_op("MUL", [x, two], [code])
    m.inputs, m.outputs = [x], [code]
    di, dec = m.add_subgraph("decode")
    c = dec.add_tensor("code_in", FLOAT32, [3])
    one = const(dec, "one", FLOAT32, [], [1.0])
    o = dec.add_tensor("out", FLOAT32, [3])
    dec.add_op("ADD", [c, one], [o])
    dec.inputs, dec.outputs = [c], [o]
    m.signatures = [("encode", 0, [x], [code]), ("decode", di, [c], [o])]
    runs = [[(FLOAT32, [3], [1.0, -2.0, 0.5])]]
    return m, runs


# ---------------------------------------------------------------- hostile models
def h_subgraph_oob():
    m = T.Model("WHILE naming a subgraph that does not exist")
    x = m.add_tensor("x", FLOAT32, [1])
    y = m.add_tensor("y", FLOAT32, [1])
    m.add_op("WHILE", [x], [y], {"cond_subgraph_index": 1, "body_subgraph_index": 9})
    ci, cond = m.add_subgraph("cond")
    a = cond.add_tensor("x", FLOAT32, [1])
    cond.inputs, cond.outputs = [a], [a]
    m.inputs, m.outputs = [x], [y]
    return m


def h_recursive():
    m = T.Model("subgraph 1 calls itself")
    x = m.add_tensor("x", FLOAT32, [1])
    y = m.add_tensor("y", FLOAT32, [1])
    si, sub = m.add_subgraph("again")
    a, b = sub.add_tensor("x", FLOAT32, [1]), sub.add_tensor("y", FLOAT32, [1])
    sub.add_op("IF", [a, a], [b], {"then_subgraph_index": 1, "else_subgraph_index": 1})
    sub.inputs, sub.outputs = [a], [b]
    m.add_op("IF", [x, x], [y], {"then_subgraph_index": si, "else_subgraph_index": si})
    m.inputs, m.outputs = [x], [y]
    return m


def h_infinite_while():
    m = T.Model("WHILE x >= 0: x += 1 (never ends)")
    x = m.add_tensor("x", FLOAT32, [1])
    y = m.add_tensor("y", FLOAT32, [1])
    ci, cond = m.add_subgraph("cond")
    a = cond.add_tensor("x", FLOAT32, [1])
    z = const(cond, "zero", FLOAT32, [1], [0.0])
    r = cond.add_tensor("more", BOOL, [1])
    cond.add_op("GREATER_EQUAL", [a, z], [r])
    cond.inputs, cond.outputs = [a], [r]
    bi, body = m.add_subgraph("body")
    b = body.add_tensor("x", FLOAT32, [1])
    one = const(body, "one", FLOAT32, [1], [1.0])
    b2 = body.add_tensor("x2", FLOAT32, [1])
    body.add_op("ADD", [b, one], [b2])
    body.inputs, body.outputs = [b], [b2]
    m.add_op("WHILE", [x], [y], {"cond_subgraph_index": ci, "body_subgraph_index": bi})
    m.inputs, m.outputs = [x], [y]
    return m


def h_var_shape():
    m = T.Model("a variable assigned [2] then [3]")
    x, y = m.add_tensor("x", FLOAT32, [2]), m.add_tensor("y", FLOAT32, [3])
    h = m.add_tensor("handle", RESOURCE, [])
    o = m.add_tensor("out", FLOAT32, [3])
    m.add_op("VAR_HANDLE", [], [h], {"container": "", "shared_name": "v"})
    m.add_op("ASSIGN_VARIABLE", [h, x], [])
    m.add_op("ASSIGN_VARIABLE", [h, y], [])
    m.add_op("ABS", [y], [o])
    m.inputs, m.outputs = [x, y], [o]
    return m


def h_read_unset():
    m = T.Model("a variable read before any assignment")
    h = m.add_tensor("handle", RESOURCE, [])
    x = m.add_tensor("x", FLOAT32, [2])
    r = m.add_tensor("read", FLOAT32, [2])
    o = m.add_tensor("out", FLOAT32, [2])
    m.add_op("VAR_HANDLE", [], [h], {"container": "", "shared_name": "never"})
    m.add_op("READ_VARIABLE", [h], [r])
    m.add_op("ADD", [r, x], [o])
    m.inputs, m.outputs = [x], [o]
    return m


# (name, builder, engine): "litert" = run_ref_seq.mjs (one interpreter, runs in sequence);
# "tfweb" = run_ref.mjs --engine tfweb, one fresh interpreter per run (for stateless models whose
# outputs are dynamic: LiteRT.js reports them at their stored shape)
def h_plan_explosion():
    """Subgraph k runs subgraph k+1 as both branches of an IF, 14 levels: 2^14 plans."""
    m = T.Model("IF calls that multiply")
    levels = 14
    graphs = [m]
    for k in range(levels):
        graphs.append(m.add_subgraph("level%d" % (k + 1))[1])
    for k, g in enumerate(graphs):
        c, x, y = g.add_tensor("c", BOOL, []), g.add_tensor("x", FLOAT32, [1]), g.add_tensor("y", FLOAT32, [1])
        if k < levels:
            g.add_op("IF", [c, c, x], [y], {"then_subgraph_index": k + 1, "else_subgraph_index": k + 1})
        else:
            g.add_op("ABS", [x], [y])
        g.inputs, g.outputs = [c, x], [y]
    return m


CASES = [("while_counter", while_counter, "litert"), ("while_grow", while_grow, "tfweb"),
         ("if_nested", if_nested, "litert"), ("if_shapes", if_shapes, "tfweb"),
         ("call_once_vars", call_once_vars, "litert"),
         ("signatures", signatures, "litert"), ("while_fused", while_fused, "litert")]
def h_while_calls_main():
    """fuzz62: a WHILE of subgraph 0 whose condition is subgraph 0 itself."""
    m = T.Model("WHILE whose cond_subgraph_index is the subgraph it is in")
    x = m.add_tensor("x", FLOAT32, [1])
    y = m.add_tensor("y", FLOAT32, [1])
    bi, body = m.add_subgraph("body")
    a = body.add_tensor("x", FLOAT32, [1])
    body.inputs, body.outputs = [a], [a]
    m.add_op("WHILE", [x], [y], {"cond_subgraph_index": 0, "body_subgraph_index": bi})
    m.inputs, m.outputs = [x], [y]
    return m


def h_signature_recursive():
    """fuzz62: subgraph 2, nobody's callee but a signature's entry, runs itself by CALL_ONCE."""
    m = T.Model("a signature's subgraph that calls itself")
    x = m.add_tensor("x", FLOAT32, [1])
    y = m.add_tensor("y", FLOAT32, [1])
    m.add_op("RELU", [x], [y])
    m.inputs, m.outputs = [x], [y]
    _, spare = m.add_subgraph("spare")
    c = spare.add_tensor("x", FLOAT32, [1])
    spare.inputs, spare.outputs = [c], [c]
    si, sub = m.add_subgraph("entry")
    a, b = sub.add_tensor("a", FLOAT32, [1]), sub.add_tensor("b", FLOAT32, [1])
    sub.add_op("CALL_ONCE", [], [], {"init_subgraph_index": si})
    sub.add_op("RELU", [a], [b])
    sub.inputs, sub.outputs = [a], [b]
    m.signatures = [("serving_default", 0, [x], [y]), ("entry", si, [a], [b])]
    return m


HOSTILE = [
    ("h_subgraph_oob", h_subgraph_oob, "load", "ERR_INVALID_MODEL", "body_subgraph_index 9 is out of range"),
    ("h_recursive", h_recursive, "load", "ERR_INVALID_MODEL", "recursive subgraph calls (1 -> 1)"),
    ("h_infinite_while", h_infinite_while, "run", "ERR_DEADLINE", "run deadline exceeded"),
    ("h_var_shape", h_var_shape, "run", "ERR_SHAPE", "holds float32 [2], the value assigned is float32 [3]"),
    ("h_read_unset", h_read_unset, "run", "ERR_STATE", "is read before it is assigned"),
    ("h_while_calls_main", h_while_calls_main, "load", "ERR_INVALID_MODEL",
     "subgraph 0 node 0 (WHILE): cond_subgraph_index 0 calls a subgraph that is already running: recursive subgraph calls (0 -> 0)"),
    ("h_signature_recursive", h_signature_recursive, "load", "ERR_INVALID_MODEL",
     "subgraph 2 node 0 (CALL_ONCE): init_subgraph_index 2 calls a subgraph that is already running: recursive subgraph calls (2 -> 2)"),
    ("h_plan_explosion", h_plan_explosion, "load", "ERR_UNSUPPORTED", "subgraph plan of this session (at most 1024"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--ref", default=os.path.join(HERE, "run_ref_seq.mjs"))
    ap.add_argument("--run-ref", default="/tmp/tflite-ref/run_ref.mjs")
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"),
                    help="the shared models directory (okay_nabu_streaming sequence)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lines = ["# made by modelgen/make_control_flow.py; references: TensorFlow Lite (LiteRT.js, engine litert),",
             "# one interpreter per signature, runs in sequence (run_ref_seq.mjs)"]
    for name, fn, engine in CASES:
        m, runs = fn()
        path = os.path.join(args.out, name + ".tflite")
        with open(path, "wb") as f:
            f.write(T.serialize(m))
        sigs = [s[0] for s in m.signatures] if m.signatures else ["serving_default"]
        for sig in sigs:
            stem = name if len(sigs) == 1 else "%s.%s" % (name, sig)
            files = []
            for r, ins in enumerate(runs):
                for i, (dt, shape, vals) in enumerate(ins):
                    p = os.path.join(args.out, "%s.r%d.in%d.npy" % (stem, r, i))
                    npy.save(p, T.DTYPE_NAME[dt], shape, vals)
                    files.append(p)
            tmp = os.path.join(args.out, ".tmp_" + stem)
            if engine == "litert":
                res = subprocess.run(["node", args.ref, path, tmp, "--signature", sig, "--runs", str(len(runs)),
                                      "--inputs", str(len(runs[0]))] + files, capture_output=True, text=True)
                if res.returncode != 0:
                    sys.exit("%s (%s): TensorFlow Lite failed:\n%s" % (name, sig, res.stderr[-2000:]))
            else:
                k = len(runs[0])
                for r in range(len(runs)):
                    one = tmp + "_run"
                    res = subprocess.run(["node", args.run_ref, path, one] + files[r * k:(r + 1) * k] +
                                         ["--engine", engine, "--quiet"], capture_output=True, text=True)
                    if res.returncode != 0:
                        sys.exit("%s run %d: TensorFlow Lite failed:\n%s" % (name, r, res.stderr[-2000:]))
                    os.makedirs(tmp, exist_ok=True)
                    for fn_ in os.listdir(one):
                        o = int(fn_.split("_")[1].split(".")[0])
                        os.replace(os.path.join(one, fn_), os.path.join(tmp, "r%d.out%d.npy" % (r, o)))
                    os.rmdir(one)
            n_out = 0
            for fn_ in sorted(os.listdir(tmp)):
                os.replace(os.path.join(tmp, fn_), os.path.join(args.out, "%s.%s" % (stem, fn_)))
                n_out = max(n_out, int(fn_.split(".out")[1].split(".")[0]) + 1)
            os.rmdir(tmp)
            lines.append("case %s %s %d %d %d %s" % (name, sig, len(runs), len(runs[0]), n_out, engine))
            print(name, sig, res.stdout.strip()[-200:])
    # okay_nabu_streaming (../shared/models): 8 runs in a row, state carried; run 0 is the
    # shared reference input, the others seeded int8 noise
    on = os.path.join(args.shared, "models", "okay_nabu_streaming.tflite")
    if os.path.exists(on):
        rng = casekit.Rng(casekit.seed_of("okay_nabu_sequence"))
        stem, files = "okay_nabu_streaming", []
        ref_in = npy.load(os.path.join(args.shared, "models", "ref", "okay_nabu_streaming", "input_0.npy"))
        for r in range(8):
            vals = list(ref_in[2]) if r == 0 else [rng.randint(-128, 127) for _ in range(120)]
            p = os.path.join(args.out, "%s.r%d.in0.npy" % (stem, r))
            npy.save(p, "int8", [1, 3, 40], vals)
            files.append(p)
        tmp = os.path.join(args.out, ".tmp_" + stem)
        res = subprocess.run(["node", args.ref, on, tmp, "--signature", "serving_default", "--runs", "8",
                              "--inputs", "1"] + files, capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit("okay_nabu_streaming: TensorFlow Lite failed:\n%s" % res.stderr[-2000:])
        for fn_ in sorted(os.listdir(tmp)):
            os.replace(os.path.join(tmp, fn_), os.path.join(args.out, "%s.%s" % (stem, fn_)))
        os.rmdir(tmp)
        lines.append("shared okay_nabu_streaming serving_default 8 1 1 litert")
    for name, fn, stage, status, words in HOSTILE:
        with open(os.path.join(args.out, name + ".tflite"), "wb") as f:
            f.write(T.serialize(fn()))
        lines.append("hostile %s %s %s %s" % (name, stage, status, words))
    with open(os.path.join(args.out, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
