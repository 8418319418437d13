"""Write and read .npy files (format version 1.0, C order, little endian) with the
standard library only. Arrays are (dtype name, shape, flat list of values)."""
import ast
import struct

DESCR = {"float32": "<f4", "int32": "<i4", "uint8": "|u1", "int64": "<i8", "bool": "|b1",
         "int16": "<i2", "int8": "|i1", "float64": "<f8", "float16": "<f2",
         "uint16": "<u2", "uint32": "<u4", "uint64": "<u8"}
FMT = {"float32": "f", "int32": "i", "uint8": "B", "int64": "q", "bool": "?", "int16": "h",
       "int8": "b", "float64": "d", "float16": "e",
       "uint16": "H", "uint32": "I", "uint64": "Q"}
_BY_DESCR = {v: k for k, v in DESCR.items()}
_BY_DESCR.update({"<u1": "uint8", "<i1": "int8", "<b1": "bool", "u1": "uint8", "i1": "int8"})


def dumps(dtype, shape, values):
    shape = tuple(int(d) for d in shape)
    n = 1
    for d in shape:
        n *= d
    if len(values) != n:
        raise ValueError("shape %s needs %d values, got %d" % (shape, n, len(values)))
    shp = "(%d,)" % shape[0] if len(shape) == 1 else "(" + ", ".join(str(d) for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (DESCR[dtype], shp)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    body = struct.pack("<%d%s" % (n, FMT[dtype]), *values)
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + body


def save(path, dtype, shape, values):
    with open(path, "wb") as f:
        f.write(dumps(dtype, shape, values))


def loads(data):
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy file")
    major = data[6]
    if major == 1:
        hlen, hstart = struct.unpack_from("<H", data, 8)[0], 10
    else:
        hlen, hstart = struct.unpack_from("<I", data, 8)[0], 12
    header = data[hstart:hstart + hlen].decode("latin1")
    d = ast.literal_eval(header)
    if d["fortran_order"]:
        raise ValueError("fortran_order arrays are not supported")
    dtype = _BY_DESCR[d["descr"]]
    shape = tuple(d["shape"])
    n = 1
    for s in shape:
        n *= s
    body = data[hstart + hlen:]
    values = list(struct.unpack_from("<%d%s" % (n, FMT[dtype]), body))
    return dtype, shape, values


def load(path):
    with open(path, "rb") as f:
        return loads(f.read())
