"""Reads a .tflite file back into a tflite_schema.Model (the subset modelgen writes): subgraph 0's
tensors (with constant data and quantization), operators with the builtin options tables
tflite_schema knows, inputs and outputs. Written from the FlatBuffers binary format (see
flatbuf.py) and the field ids of tflite_schema; enough for models made by converters that
use only those operators (the zoo's float models), so that tools can rewrite them
(make_hybrid_twins.py). Raises ValueError for what it does not understand.
"""
import struct

import tflite_schema as T

_OP_NAME = {code: name for name, code in T.BUILTIN.items()}
_OPTIONS_NAME = {v: k for k, v in T.BUILTIN_OPTIONS_TYPE.items()}


class _Buf:
    def __init__(self, data):
        self.d = data

    def u32(self, at):
        return struct.unpack_from("<I", self.d, at)[0]

    def table(self, at):
        """Fields of the table at `at`: field id -> absolute position of the field."""
        vt = at - struct.unpack_from("<i", self.d, at)[0]
        vlen = struct.unpack_from("<H", self.d, vt)[0]
        fields = {}
        for fid in range((vlen - 4) // 2):
            off = struct.unpack_from("<H", self.d, vt + 4 + 2 * fid)[0]
            if off:
                fields[fid] = at + off
        return fields

    def ref(self, pos):
        return pos + self.u32(pos)

    def scalar(self, f, fid, fmt, default=0):
        return struct.unpack_from("<" + fmt, self.d, f[fid])[0] if fid in f else default

    def vector(self, f, fid):
        """(start of elements, count) of the vector field, or None."""
        if fid not in f:
            return None
        v = self.ref(f[fid])
        return v + 4, self.u32(v)

    def scalars(self, f, fid, fmt):
        v = self.vector(f, fid)
        if v is None:
            return None
        return list(struct.unpack_from("<%d%s" % (v[1], fmt), self.d, v[0]))

    def tables(self, f, fid):
        v = self.vector(f, fid)
        if v is None:
            return []
        return [self.table(self.ref(v[0] + 4 * i)) for i in range(v[1])]

    def string(self, f, fid):
        v = self.vector(f, fid)
        return None if v is None else self.d[v[0]:v[0] + v[1]].decode("utf-8")

    def bytes_(self, f, fid):
        v = self.vector(f, fid)
        return None if v is None else bytes(self.d[v[0]:v[0] + v[1]])


_KIND_FMT = {"b": "b", "B": "B", "i": "i", "f": "f", "l": "q"}
_VEC_FMT = {"iv": "i", "fv": "f", "lv": "q"}


def _options(b, f, table_name):
    fields = T.OPTION_TABLES[table_name]
    out = {}
    for name, (fid, kind) in fields.items():
        if fid not in f:
            continue
        if kind in _KIND_FMT:
            v = b.scalar(f, fid, _KIND_FMT[kind])
            out[name] = bool(v) if kind == "B" else v
        elif kind in _VEC_FMT:
            out[name] = b.scalars(f, fid, _VEC_FMT[kind])
        elif kind == "bv":
            out[name] = b.bytes_(f, fid)
        elif kind == "s":
            out[name] = b.string(f, fid)
    return out


def read(data):
    """tflite_schema.Model of the first subgraph of the .tflite bytes `data`."""
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise ValueError("not a TFLite file (no TFL3 identifier)")
    b = _Buf(data)
    root = b.table(b.u32(0))
    buffers = [b.bytes_(bt, 0) for bt in b.tables(root, 4)]
    for i, bt in enumerate(b.tables(root, 4)):  # data past the FlatBuffer: Buffer.offset / size
        off, size = b.scalar(bt, 1, "Q"), b.scalar(bt, 2, "Q")
        if buffers[i] is None and off > 1 and off + size <= len(data):
            buffers[i] = bytes(data[off:off + size])
    codes = []
    for ct in b.tables(root, 1):
        code = max(b.scalar(ct, 0, "b"), b.scalar(ct, 3, "i"))
        if code not in _OP_NAME:
            raise ValueError("builtin operator code %d unknown to tflite_schema" % code)
        codes.append((_OP_NAME[code], b.scalar(ct, 2, "i", 1), b.string(ct, 1)))
    sgs = b.tables(root, 2)
    if not sgs:
        raise ValueError("no subgraph")
    sg = sgs[0]
    m = T.Model(description=b.string(root, 3) or "", name=b.string(sg, 4) or "main")
    for tt in b.tables(sg, 0):
        buf = b.scalar(tt, 2, "I")
        data_ = buffers[buf] if 0 < buf < len(buffers) and buffers[buf] else None
        q = None
        if 4 in tt:
            qt = b.table(b.ref(tt[4]))
            q = {}
            for fid, key, fmt in ((0, "min", "f"), (1, "max", "f"), (2, "scale", "f"),
                                  (3, "zero_point", "q")):
                v = b.scalars(qt, fid, fmt)
                if v:
                    q[key] = v
            if 6 in qt:
                q["quantized_dimension"] = b.scalar(qt, 6, "i")
            q = q or None
        m.add_tensor(b.string(tt, 3) or "", b.scalar(tt, 1, "b"), b.scalars(tt, 0, "i") or [],
                     data=data_, quant=q, is_variable=bool(b.scalar(tt, 5, "B")),
                     shape_signature=b.scalars(tt, 7, "i"))
    for ot in b.tables(sg, 3):
        op, version, custom = codes[b.scalar(ot, 0, "I")]
        opts = {}
        if 4 in ot:
            tname = _OPTIONS_NAME.get(b.scalar(ot, 3, "B"))
            if tname is None or tname not in T.OPTION_TABLES:
                raise ValueError("%s: options table type %d unknown" % (op, b.scalar(ot, 3, "B")))
            opts = _options(b, b.table(b.ref(ot[4])), tname)
        m.add_op(op, b.scalars(ot, 1, "i") or [], b.scalars(ot, 2, "i") or [], opts, version,
                 custom_code=custom, custom_options=b.bytes_(ot, 5),
                 intermediates=b.scalars(ot, 8, "i"))
    m.inputs = b.scalars(sg, 1, "i") or []
    m.outputs = b.scalars(sg, 2, "i") or []
    return m
