"""Architecture-faithful networks with deterministic pseudo-random weights, in float32
and int8 (per-channel int8 weights, int32 bias, float input/output through
QUANTIZE/DEQUANTIZE).

A network is first described as a small graph of float layers (Net). Net.forward runs
it in plain Python float math on a calibration input (at a reduced resolution for the
large CNNs: per-channel activation statistics do not depend on the image size); the
observed min/max of every tensor gives the int8 scales, so activations do not
saturate. Net.to_model emits the float32 or int8 TFLite model."""
import hashlib
import math
import operator
import struct

import tflite_schema as S
from casekit import choose_qparams, f32


# ---------------------------------------------------------------- fast seeded PRNG
def uniform_block(seed, n, lo, hi):
    """n deterministic uniform values in [lo, hi): SHAKE-256 of the seed in counter
    blocks, read as uint32 (fast: the bytes come from C)."""
    raw = hashlib.shake_256(seed.encode()).digest(4 * n) if n else b""
    ints = struct.unpack("<%dI" % n, raw)
    span = (hi - lo) / 4294967296.0
    return [f32(lo + span * v) for v in ints]


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def pad_amount(size, k, stride, dilation, padding):
    """(output size, padding before) the way TFLite computes SAME/VALID padding."""
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = (size + stride - 1) // stride
        total = max((out - 1) * stride + eff - size, 0)
        return out, total // 2
    return (size - eff + stride) // stride, 0


def activate(v, act):
    if act == "RELU":
        return v if v > 0 else 0.0
    if act == "RELU6":
        return 0.0 if v < 0 else (6.0 if v > 6 else v)
    return v


# ---------------------------------------------------------------- graph
class Node:
    def __init__(self, kind, inputs, shape, params):
        self.kind, self.inputs, self.shape, self.params = kind, inputs, shape, params
        self.lo, self.hi = math.inf, -math.inf


class Net:
    def __init__(self, name, input_shape, input_range=(-1.0, 1.0)):
        self.name = name
        self.nodes = [Node("input", [], list(input_shape), {})]
        self.input_range = input_range
        self.counter = 0

    def _add(self, kind, inputs, shape, **params):
        self.nodes.append(Node(kind, inputs, list(shape), params))
        return len(self.nodes) - 1

    def _seed(self, what):
        self.counter += 1
        return "%s/%d/%s" % (self.name, self.counter, what)

    def shape(self, x):
        return self.nodes[x].shape

    # -- layers (NHWC) ------------------------------------------------
    def conv(self, x, out_ch, k, stride=1, act="RELU6", padding="SAME", gain=1.0):
        n, h, w, c = self.shape(x)
        fan_in = k * k * c
        a = gain * math.sqrt(3.0 * 2.0 / fan_in)
        wt = uniform_block(self._seed("w"), out_ch * k * k * c, -a, a)
        b = uniform_block(self._seed("b"), out_ch, -0.1, 0.1)
        oh, _ = pad_amount(h, k, stride, 1, padding)
        ow, _ = pad_amount(w, k, stride, 1, padding)
        return self._add("conv", [x], [n, oh, ow, out_ch], w=wt, b=b, k=k, stride=stride, act=act,
                         padding=padding)

    def dwconv(self, x, k=3, stride=1, act="RELU6", padding="SAME"):
        n, h, w, c = self.shape(x)
        a = math.sqrt(3.0 * 2.0 / (k * k))
        wt = uniform_block(self._seed("w"), k * k * c, -a, a)
        b = uniform_block(self._seed("b"), c, -0.1, 0.1)
        oh, _ = pad_amount(h, k, stride, 1, padding)
        ow, _ = pad_amount(w, k, stride, 1, padding)
        return self._add("dwconv", [x], [n, oh, ow, c], w=wt, b=b, k=k, stride=stride, act=act,
                         padding=padding)

    def fc(self, x, units, act="NONE", gain=1.0, keep_dims=False):
        shp = self.shape(x)
        depth = shp[-1]
        a = gain * math.sqrt(3.0 / depth)
        wt = uniform_block(self._seed("w"), units * depth, -a, a)
        b = uniform_block(self._seed("b"), units, -0.1, 0.1)
        out = shp[:-1] + [units] if keep_dims else [numel(shp) // depth, units]
        return self._add("fc", [x], out, w=wt, b=b, act=act, keep_dims=keep_dims)

    def add(self, a, b, act="NONE"):
        return self._add("add", [a, b], self.shape(a), act=act)

    def maxpool(self, x, k, stride, padding="SAME"):
        n, h, w, c = self.shape(x)
        oh, _ = pad_amount(h, k, stride, 1, padding)
        ow, _ = pad_amount(w, k, stride, 1, padding)
        return self._add("maxpool", [x], [n, oh, ow, c], k=k, stride=stride, padding=padding)

    def global_avgpool(self, x):
        n, h, w, c = self.shape(x)
        return self._add("gap", [x], [n, 1, 1, c])

    def reshape(self, x, shape):
        return self._add("reshape", [x], shape)

    def softmax(self, x):
        return self._add("softmax", [x], self.shape(x))

    # transformer pieces (tensors [..., D])
    def layer_norm(self, x, eps=1e-5):
        """MEAN / SUB / MUL / MEAN / ADD eps / RSQRT / MUL / MUL gamma / ADD beta."""
        shp = self.shape(x)
        d = shp[-1]
        red = shp[:-1] + [1]
        mean = self._add("mean_last", [x], red)
        cen = self._add("sub", [x, mean], shp)
        sq = self._add("mul", [cen, cen], shp)
        var = self._add("mean_last", [sq], red)
        ve = self._add("add_const", [var], red, c=[f32(eps)])
        inv = self._add("rsqrt", [ve], red)
        nrm = self._add("mul", [cen, inv], shp)
        gamma = uniform_block(self._seed("gamma"), d, 0.8, 1.2)
        beta = uniform_block(self._seed("beta"), d, -0.1, 0.1)
        g = self._add("mul_const", [nrm], shp, c=gamma)
        return self._add("add_const", [g], shp, c=beta)

    def gelu(self, x):
        return self._add("gelu", [x], self.shape(x))

    def split_heads(self, x, heads):
        s, d = self.shape(x)[-2:]
        r = self.reshape(x, [s, heads, d // heads])
        return self._add("transpose", [r], [heads, s, d // heads], perm=[1, 0, 2])

    def merge_heads(self, x):
        h, s, dh = self.shape(x)
        t = self._add("transpose", [x], [s, h, dh], perm=[1, 0, 2])
        return self.reshape(t, [s, h * dh])

    def matmul(self, a, b, adj_y=False):
        sa, sb = self.shape(a), self.shape(b)
        out = sa[:-1] + ([sb[-2]] if adj_y else [sb[-1]])
        return self._add("bmm", [a, b], out, adj_y=adj_y)

    def mul_const(self, x, c):
        return self._add("mul_const", [x], self.shape(x), c=[f32(c)])

    # -- float forward (calibration) ------------------------------------
    def forward(self, inp, input_shape):
        """Runs the graph on inp (flat list, input_shape), recording per-node ranges.
        Shapes follow the calibration input, not the model's."""
        vals, shapes = {0: inp}, {0: list(input_shape)}
        for i, nd in enumerate(self.nodes):
            if i == 0:
                v, shp = inp, list(input_shape)
            else:
                v, shp = self._eval(nd, [vals[j] for j in nd.inputs], [shapes[j] for j in nd.inputs])
            vals[i], shapes[i] = v, shp
            if v:
                nd.lo, nd.hi = min(nd.lo, min(v)), max(nd.hi, max(v))
        return vals[len(self.nodes) - 1]

    def _eval(self, nd, xs, shapes):
        p, k = nd.params, nd.kind
        if k in ("conv", "dwconv"):
            return self._conv(nd, xs[0], shapes[0])
        if k == "fc":
            x, shp = xs[0], shapes[0]
            depth = shp[-1]
            units = len(p["b"])
            w = p["w"]
            rows = [w[u * depth:(u + 1) * depth] for u in range(units)]
            out = []
            for r in range(len(x) // depth):
                xr = x[r * depth:(r + 1) * depth]
                for u in range(units):
                    out.append(activate(sum(map(operator.mul, xr, rows[u])) + p["b"][u], p["act"]))
            oshape = shp[:-1] + [units] if p["keep_dims"] else [len(x) // depth, units]
            return out, oshape
        if k == "add":
            return [activate(a + b, p["act"]) for a, b in zip(xs[0], xs[1])], shapes[0]
        if k == "maxpool":
            return self._maxpool(nd, xs[0], shapes[0])
        if k == "gap":
            n, h, w, c = shapes[0]
            x = xs[0]
            out = []
            for b in range(n):
                for ch in range(c):
                    out.append(sum(x[(b * h * w + j) * c + ch] for j in range(h * w)) / (h * w))
            return out, [n, 1, 1, c]
        if k == "reshape":
            return xs[0], nd.shape
        if k == "softmax":
            x, d = xs[0], shapes[0][-1]
            out = []
            for r in range(len(x) // d):
                row = x[r * d:(r + 1) * d]
                m = max(row)
                e = [math.exp(v - m) for v in row]
                s = sum(e)
                out.extend(v / s for v in e)
            return out, shapes[0]
        if k == "mean_last":
            x, d = xs[0], shapes[0][-1]
            return [sum(x[r * d:(r + 1) * d]) / d for r in range(len(x) // d)], shapes[0][:-1] + [1]
        if k in ("sub", "mul"):
            a, b = xs
            sa, sb = shapes
            if len(b) != len(a):  # b is [..., 1]: broadcast along the last axis
                d = sa[-1]
                b = [b[i // d] for i in range(len(a))]
            f = operator.sub if k == "sub" else operator.mul
            return list(map(f, a, b)), sa
        if k in ("add_const", "mul_const"):
            c = p["c"]
            f = operator.add if k == "add_const" else operator.mul
            return [f(v, c[i % len(c)]) for i, v in enumerate(xs[0])], shapes[0]
        if k == "rsqrt":
            return [1.0 / math.sqrt(v) for v in xs[0]], shapes[0]
        if k == "gelu":
            return [0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in xs[0]], shapes[0]
        if k == "transpose":
            x, shp = xs[0], shapes[0]
            perm = p["perm"]
            oshape = [shp[i] for i in perm]
            strides = [numel(shp[i + 1:]) for i in range(len(shp))]
            out = [0.0] * len(x)
            for o in range(len(x)):
                rem, src = o, 0
                for ax in range(len(oshape)):
                    idx, rem = divmod(rem, numel(oshape[ax + 1:]))
                    src += idx * strides[perm[ax]]
                out[o] = x[src]
            return out, oshape
        if k == "bmm":
            a, b = xs
            sa, sb = shapes
            batch = numel(sa[:-2])
            m, kk = sa[-2], sa[-1]
            nn = sb[-2] if p["adj_y"] else sb[-1]
            out = []
            for bi in range(batch):
                A = a[bi * m * kk:(bi + 1) * m * kk]
                B = b[bi * kk * nn:(bi + 1) * kk * nn]
                cols = ([B[j * kk:(j + 1) * kk] for j in range(nn)] if p["adj_y"]
                        else [B[j::nn] for j in range(nn)])
                for i in range(m):
                    row = A[i * kk:(i + 1) * kk]
                    out.extend(sum(map(operator.mul, row, col)) for col in cols)
            return out, sa[:-1] + [nn]
        raise ValueError(k)

    def _conv(self, nd, x, shp):
        p = nd.params
        n, h, w, c = shp
        k, s = p["k"], p["stride"]
        oh, pt = pad_amount(h, k, s, 1, p["padding"])
        ow, pl = pad_amount(w, k, s, 1, p["padding"])
        dw = nd.kind == "dwconv"
        oc = c if dw else len(p["b"])
        wt, b, act = p["w"], p["b"], p["act"]
        out = [0.0] * (n * oh * ow * oc)
        if not dw:
            filt = [wt[o * k * k * c:(o + 1) * k * k * c] for o in range(oc)]
        for bi in range(n):
            for oy in range(oh):
                for ox in range(ow):
                    base = ((bi * oh + oy) * ow + ox) * oc
                    if dw:
                        acc = list(b)
                        for ky in range(k):
                            iy = oy * s - pt + ky
                            if iy < 0 or iy >= h:
                                continue
                            for kx in range(k):
                                ix = ox * s - pl + kx
                                if ix < 0 or ix >= w:
                                    continue
                                xo = ((bi * h + iy) * w + ix) * c
                                wo = (ky * k + kx) * c
                                acc = list(map(lambda a, xv, wv: a + xv * wv, acc, x[xo:xo + c], wt[wo:wo + c]))
                        out[base:base + oc] = [activate(v, act) for v in acc]
                    else:
                        patch, fidx = [], []
                        for ky in range(k):
                            iy = oy * s - pt + ky
                            if iy < 0 or iy >= h:
                                continue
                            for kx in range(k):
                                ix = ox * s - pl + kx
                                if ix < 0 or ix >= w:
                                    continue
                                xo = ((bi * h + iy) * w + ix) * c
                                patch.extend(x[xo:xo + c])
                                fidx.append((ky * k + kx) * c)
                        if len(fidx) == k * k:
                            for o in range(oc):
                                out[base + o] = activate(sum(map(operator.mul, patch, filt[o])) + b[o], act)
                        else:
                            for o in range(oc):
                                f = filt[o]
                                fw = []
                                for fi in fidx:
                                    fw.extend(f[fi:fi + c])
                                out[base + o] = activate(sum(map(operator.mul, patch, fw)) + b[o], act)
        return out, [n, oh, ow, oc]

    def _maxpool(self, nd, x, shp):
        p = nd.params
        n, h, w, c = shp
        k, s = p["k"], p["stride"]
        oh, pt = pad_amount(h, k, s, 1, p["padding"])
        ow, pl = pad_amount(w, k, s, 1, p["padding"])
        out = []
        for bi in range(n):
            for oy in range(oh):
                for ox in range(ow):
                    best = [-math.inf] * c
                    for ky in range(k):
                        iy = oy * s - pt + ky
                        if 0 <= iy < h:
                            for kx in range(k):
                                ix = ox * s - pl + kx
                                if 0 <= ix < w:
                                    xo = ((bi * h + iy) * w + ix) * c
                                    best = list(map(max, best, x[xo:xo + c]))
                    out.extend(best)
        return out, [n, oh, ow, c]

    # -- emission ---------------------------------------------------------
    def calibrate(self, calib_shape):
        n = numel(calib_shape)
        lo, hi = self.input_range
        inp = uniform_block(self.name + "/calibration", n, lo, hi)
        self.forward(inp, calib_shape)
        self.nodes[0].lo, self.nodes[0].hi = lo, hi

    def to_model(self, quantized):
        return _Emitter(self, quantized).emit()


class _Emitter:
    def __init__(self, net, quantized):
        self.net, self.q = net, quantized
        self.m = S.Model(description="tfcc modelgen %s %s" % (net.name, "int8" if quantized else "float32"))
        self.t = {}  # node -> tensor index

    def qparams(self, nd):
        lo, hi = nd.lo, nd.hi
        if not (lo <= hi):
            raise ValueError("node %s was not calibrated" % nd.kind)
        return choose_qparams(S.INT8, lo, hi)

    def act_tensor(self, i, name, q=None):
        nd = self.net.nodes[i]
        if not self.q:
            return self.m.add_tensor(name, S.FLOAT32, nd.shape)
        s, z = q if q else self.qparams(nd)
        return self.m.add_tensor(name, S.INT8, nd.shape, quant={"scale": [s], "zero_point": [z]})

    def const_f32(self, name, shape, values):
        return self.m.add_tensor(name, S.FLOAT32, shape, data=S.pack(S.FLOAT32, values))

    def const_q(self, name, shape, values, lo=None, hi=None):
        """A per-tensor int8 constant (elementwise operands such as gamma/beta)."""
        lo = min(values) if lo is None else lo
        hi = max(values) if hi is None else hi
        s, z = choose_qparams(S.INT8, lo, hi)
        q = [max(-128, min(127, int(round(v / s)) + z)) for v in values]
        return self.m.add_tensor(name, S.INT8, shape, data=S.pack(S.INT8, q),
                                 quant={"scale": [s], "zero_point": [z]})

    def weights(self, name, shape, w, b, in_scale, qdim):
        """Float or per-channel int8 weights (symmetric, [-127, 127]) and int32 bias
        = round(b / (in_scale * w_scale[c]))."""
        oc = shape[qdim]
        if not self.q:
            return (self.const_f32(name + "/weights", shape, w),
                    self.const_f32(name + "/bias", [oc], b))
        per = numel(shape) // oc
        # channel c of element i: for qdim 0 it is i // per, for the last dim i % oc
        chan = (lambda i: i // per) if qdim == 0 else (lambda i: i % oc)
        amax = [0.0] * oc
        for i, v in enumerate(w):
            c = chan(i)
            if abs(v) > amax[c]:
                amax[c] = abs(v)
        scales = [f32(max(a, 1e-8) / 127.0) for a in amax]
        q = [max(-127, min(127, int(round(v / scales[chan(i)])))) for i, v in enumerate(w)]
        wt = self.m.add_tensor(name + "/weights", S.INT8, shape, data=S.pack(S.INT8, q),
                               quant={"scale": scales, "zero_point": [0] * oc, "quantized_dimension": qdim})
        bscales = [f32(in_scale * s) for s in scales]
        bq = [int(round(v / bs)) for v, bs in zip(b, bscales)]
        bt = self.m.add_tensor(name + "/bias", S.INT32, [oc], data=S.pack(S.INT32, bq),
                               quant={"scale": bscales, "zero_point": [0] * oc, "quantized_dimension": 0})
        return wt, bt

    def in_scale(self, i):
        return self.qparams(self.net.nodes[i])[0] if self.q else 1.0

    def emit(self):
        net, m = self.net, self.m
        x0 = m.add_tensor("input", S.FLOAT32, net.nodes[0].shape)
        m.inputs = [x0]
        if self.q:
            self.t[0] = self.act_tensor(0, "input_int8")
            m.add_op("QUANTIZE", [x0], [self.t[0]])
        else:
            self.t[0] = x0
        last = len(net.nodes) - 1
        for i, nd in enumerate(net.nodes):
            if i == 0:
                continue
            name = "%s_%d" % (nd.kind, i)
            ins = [self.t[j] for j in nd.inputs]
            p = nd.params
            if nd.kind == "softmax" and self.q:
                out = self.act_tensor(i, name, q=(1.0 / 256.0, -128))
            elif nd.kind in ("reshape", "transpose", "maxpool") and self.q:
                # these keep their input's quantization in TFLite
                out = self.act_tensor(i, name, q=self.qparams(net.nodes[nd.inputs[0]]))
            else:
                out = self.act_tensor(i, name)
            self.t[i] = out
            k = nd.kind
            if k == "conv":
                c_in = net.nodes[nd.inputs[0]].shape[3]
                shape = [len(p["b"]), p["k"], p["k"], c_in]
                w, b = self.weights(name, shape, p["w"], p["b"], self.in_scale(nd.inputs[0]), 0)
                m.add_op("CONV_2D", [ins[0], w, b], [out],
                         {"padding": p["padding"], "stride_w": p["stride"], "stride_h": p["stride"],
                          "fused_activation_function": p["act"]})
            elif k == "dwconv":
                c = len(p["b"])
                w, b = self.weights(name, [1, p["k"], p["k"], c], p["w"], p["b"],
                                    self.in_scale(nd.inputs[0]), 3)
                m.add_op("DEPTHWISE_CONV_2D", [ins[0], w, b], [out],
                         {"padding": p["padding"], "stride_w": p["stride"], "stride_h": p["stride"],
                          "depth_multiplier": 1, "fused_activation_function": p["act"]})
            elif k == "fc":
                depth = net.nodes[nd.inputs[0]].shape[-1]
                w, b = self.weights(name, [len(p["b"]), depth], p["w"], p["b"],
                                    self.in_scale(nd.inputs[0]), 0)
                m.add_op("FULLY_CONNECTED", [ins[0], w, b], [out],
                         {"fused_activation_function": p["act"], "keep_num_dims": p["keep_dims"]})
            elif k == "add":
                m.add_op("ADD", ins, [out], {"fused_activation_function": p["act"]})
            elif k == "maxpool":
                m.add_op("MAX_POOL_2D", ins, [out],
                         {"padding": p["padding"], "stride_w": p["stride"], "stride_h": p["stride"],
                          "filter_width": p["k"], "filter_height": p["k"]})
            elif k == "gap":
                _, h, w_, _ = net.nodes[nd.inputs[0]].shape
                m.add_op("AVERAGE_POOL_2D", ins, [out],
                         {"padding": "VALID", "stride_w": 1, "stride_h": 1, "filter_width": w_,
                          "filter_height": h})
            elif k == "reshape":
                shp = m.add_tensor(name + "/shape", S.INT32, [len(nd.shape)], data=S.pack(S.INT32, nd.shape))
                m.add_op("RESHAPE", [ins[0], shp], [out], {"new_shape": nd.shape})
            elif k == "softmax":
                m.add_op("SOFTMAX", ins, [out], {"beta": 1.0})
            elif k == "mean_last":
                axis = m.add_tensor(name + "/axis", S.INT32, [1], data=S.pack(S.INT32, [-1]))
                m.add_op("MEAN", [ins[0], axis], [out], {"keep_dims": True})
            elif k == "sub":
                m.add_op("SUB", ins, [out], {"fused_activation_function": "NONE"})
            elif k == "mul":
                m.add_op("MUL", ins, [out], {"fused_activation_function": "NONE"})
            elif k in ("add_const", "mul_const"):
                c = p["c"]
                shape = [len(c)]
                if self.q:
                    ct = self.const_q(name + "/const", shape, c, min(0.0, min(c)), max(0.0, max(c)))
                else:
                    ct = self.const_f32(name + "/const", shape, c)
                op = "ADD" if k == "add_const" else "MUL"
                m.add_op(op, [ins[0], ct], [out], {"fused_activation_function": "NONE"})
            elif k == "rsqrt":
                m.add_op("RSQRT", ins, [out])
            elif k == "gelu":
                m.add_op("GELU", ins, [out], {"approximate": False})
            elif k == "transpose":
                perm = m.add_tensor(name + "/perm", S.INT32, [len(p["perm"])], data=S.pack(S.INT32, p["perm"]))
                m.add_op("TRANSPOSE", [ins[0], perm], [out])
            elif k == "bmm":
                m.add_op("BATCH_MATMUL", ins, [out], {"adj_x": False, "adj_y": p["adj_y"]})
            else:
                raise ValueError(k)
        if self.q:
            y = m.add_tensor("output", S.FLOAT32, net.nodes[last].shape)
            m.add_op("DEQUANTIZE", [self.t[last]], [y])
            m.outputs = [y]
        else:
            m.outputs = [self.t[last]]
        return S.serialize(m)


# ---------------------------------------------------------------- architectures
def mobilenet_v1(alpha=0.25, size=128, classes=1001):
    net = Net("mobilenet_v1_%03d_%d" % (int(alpha * 100), size), [1, size, size, 3])
    ch = lambda c: max(8, int(c * alpha))
    x = net.conv(0, ch(32), 3, stride=2)
    for c, s in ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
                 (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)):
        x = net.dwconv(x, 3, stride=s)
        x = net.conv(x, ch(c), 1)
    x = net.global_avgpool(x)
    x = net.conv(x, classes, 1, act="NONE", gain=0.7)
    x = net.reshape(x, [1, classes])
    net.softmax(x)
    return net, [1, 32, 32, 3]


def _make_divisible(v, divisor=8):
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def mobilenet_v2(alpha=1.0, size=224, classes=1001):
    net = Net("mobilenet_v2_%03d_%d" % (int(alpha * 100), size), [1, size, size, 3])
    x = net.conv(0, _make_divisible(32 * alpha), 3, stride=2)
    c_in = _make_divisible(32 * alpha)
    for t, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                       (6, 160, 3, 2), (6, 320, 1, 1)):
        c_out = _make_divisible(c * alpha)
        for i in range(n):
            stride = s if i == 0 else 1
            h = x
            if t != 1:
                h = net.conv(h, c_in * t, 1)
            h = net.dwconv(h, 3, stride=stride)
            h = net.conv(h, c_out, 1, act="NONE", gain=0.5)
            x = net.add(x, h) if (stride == 1 and c_in == c_out) else h
            c_in = c_out
    x = net.conv(x, 1280 if alpha <= 1.0 else _make_divisible(1280 * alpha), 1)
    x = net.global_avgpool(x)
    x = net.conv(x, classes, 1, act="NONE", gain=0.7)
    x = net.reshape(x, [1, classes])
    net.softmax(x)
    return net, [1, 32, 32, 3]


def resnet_small(size=64, classes=10):
    """ResNet stem (7x7/2 conv + 3x3/2 max pool), two stages of basic blocks and a
    stage of bottleneck blocks with projection shortcuts, global pool, FC, softmax."""
    net = Net("resnet_small_%d" % size, [1, size, size, 3])
    x = net.conv(0, 16, 7, stride=2, act="RELU")
    x = net.maxpool(x, 3, 2)

    def basic(x, c, stride):
        h = net.conv(x, c, 3, stride=stride, act="RELU")
        h = net.conv(h, c, 3, act="NONE", gain=0.5)
        sc = x if (stride == 1 and net.shape(x)[3] == c) else net.conv(x, c, 1, stride=stride, act="NONE")
        return net.add(sc, h, act="RELU")

    def bottleneck(x, c, stride):
        h = net.conv(x, c // 4, 1, act="RELU")
        h = net.conv(h, c // 4, 3, stride=stride, act="RELU")
        h = net.conv(h, c, 1, act="NONE", gain=0.5)
        sc = x if (stride == 1 and net.shape(x)[3] == c) else net.conv(x, c, 1, stride=stride, act="NONE")
        return net.add(sc, h, act="RELU")

    x = basic(x, 16, 1)
    x = basic(x, 16, 1)
    x = basic(x, 32, 2)
    x = basic(x, 32, 1)
    x = bottleneck(x, 64, 2)
    x = bottleneck(x, 64, 1)
    x = net.global_avgpool(x)
    x = net.reshape(x, [1, 64])
    x = net.fc(x, classes, gain=0.7)
    net.softmax(x)
    return net, [1, 32, 32, 3]


def transformer_encoder(seq=16, d_model=64, heads=2, ffn=128, layers=2):
    """Pre-LN encoder layers: LN -> Q/K/V FULLY_CONNECTED -> per-head BATCH_MATMUL
    attention with SOFTMAX -> output projection -> residual ADD; LN -> FC -> GELU -> FC
    -> residual ADD; final LN. Input [seq, d_model] embeddings."""
    net = Net("transformer_encoder_s%d_d%d" % (seq, d_model), [seq, d_model], input_range=(-2.0, 2.0))
    x = 0
    dh = d_model // heads
    for _ in range(layers):
        h = net.layer_norm(x)
        q = net.split_heads(net.fc(h, d_model, keep_dims=True), heads)
        k = net.split_heads(net.fc(h, d_model, keep_dims=True), heads)
        v = net.split_heads(net.fc(h, d_model, keep_dims=True), heads)
        att = net.matmul(q, k, adj_y=True)
        att = net.mul_const(att, 1.0 / math.sqrt(dh))
        att = net.softmax(att)
        ctx = net.merge_heads(net.matmul(att, v))
        x = net.add(x, net.fc(ctx, d_model, keep_dims=True, gain=0.5))
        h = net.layer_norm(x)
        h = net.gelu(net.fc(h, ffn, keep_dims=True))
        x = net.add(x, net.fc(h, d_model, keep_dims=True, gain=0.5))
    net.layer_norm(x)
    return net, [seq, d_model]


ARCHS = {
    "mobilenet_v1_025_128": lambda: mobilenet_v1(0.25, 128),
    "mobilenet_v2_100_224": lambda: mobilenet_v2(1.0, 224),
    "resnet_small_64": lambda: resnet_small(64),
    "transformer_encoder": lambda: transformer_encoder(),
}
NETS = ["%s_%s" % (a, v) for a in ARCHS for v in ("float", "int8")]
DEFAULT_NET = "mobilenet_v1_025_128_int8"


def build(name):
    """Returns the .tflite bytes of network `name` (<arch>_float or <arch>_int8)."""
    arch, _, variant = name.rpartition("_")
    if arch not in ARCHS or variant not in ("float", "int8"):
        raise KeyError("unknown network %s (known: %s)" % (name, ", ".join(NETS)))
    net, calib_shape = ARCHS[arch]()
    if variant == "int8":
        net.calibrate(calib_shape)
    return net.to_model(variant == "int8")
