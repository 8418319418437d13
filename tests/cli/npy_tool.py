#!/usr/bin/env python3
"""Stdlib-only .npy helper for the CLI tests (no numpy needed).

  npy_tool.py compare GOT.npy REF.npy [GOT2 REF2 ...]   exit 0 if every pair is equal
      within the README tolerances (one summary line per pair, FAIL-prefixed if not):
      integer types: |got - ref| <= 1 (int64/int32 label maps: >= 99.5% exact),
      floats: |got - ref| <= 1e-3 + 1e-3 * |ref|; prints a one-line summary.
  npy_tool.py make OUT.npy DESCR SHAPE V    writes an array of DESCR ('<f4', '|i1', ...)
      with SHAPE like 3,1 (or 'scalar') filled with V.
  npy_tool.py shape FILE.npy                prints 'descr [d0,d1,...]'.
  npy_tool.py diff A.npy B.npy MAXABS MEANABS  exit 0 if max |a-b| <= MAXABS and
      mean |a-b| <= MEANABS (same dtype and shape); prints both.
  npy_tool.py png IN.bmp OUT.png KIND [OUT2.png KIND2 ...]   re-encodes a 24-bit BMP as PNG, KIND one of
      rgb, rgba (opaque alpha), palette (when <= 256 colors, else rgb), gray (BT.601 luma).
"""
import ast
import struct
import sys

FMT = {'f2': 'e', 'f4': 'f', 'f8': 'd', 'i1': 'b', 'u1': 'B', 'i2': 'h', 'u2': 'H',
       'i4': 'i', 'u4': 'I', 'i8': 'q', 'u8': 'Q', 'b1': '?'}


def read(path):
    data = open(path, 'rb').read()
    assert data[:6] == b'\x93NUMPY', path + ': not npy'
    major = data[6]
    if major == 1:
        hlen = struct.unpack('<H', data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack('<I', data[8:12])[0]
        start = 12
    hdr = ast.literal_eval(data[start:start + hlen].decode('latin1'))
    descr = hdr['descr']
    shape = tuple(hdr['shape'])
    n = 1
    for d in shape:
        n *= d
    code = FMT[descr[1:]]
    values = struct.unpack('<%d%s' % (n, code), data[start + hlen:])
    return descr, shape, values


def compare(got_path, ref_path):
    gd, gs, gv = read(got_path)
    rd, rs, rv = read(ref_path)
    if gd[1:] != rd[1:] or gs != rs:
        print('MISMATCH dtype/shape: got %s %s, ref %s %s' % (gd, list(gs), rd, list(rs)))
        return 1
    kind = rd[1]
    if kind == 'f':
        bad = sum(1 for g, r in zip(gv, rv) if not abs(g - r) <= 1e-3 + 1e-3 * abs(r))
        worst = max((abs(g - r) for g, r in zip(gv, rv)), default=0.0)
        print('float: %d/%d outside tolerance, max |diff| %.3g' % (bad, len(rv), worst))
        return 1 if bad else 0
    diff = [abs(int(g) - int(r)) for g, r in zip(gv, rv)]
    exact = sum(1 for d in diff if d == 0)
    worst = max(diff, default=0)
    print('int: %d/%d exact, max |diff| %d' % (exact, len(rv), worst))
    if rd[1:] in ('i8', 'i4') and len(rv) > 1000:  # label maps: ties can flip
        return 0 if exact >= 0.995 * len(rv) else 1
    return 0 if worst <= 1 else 1


def make(out, descr, shape_s, value):
    shape = () if shape_s == 'scalar' else tuple(int(x) for x in shape_s.split(','))
    n = 1
    for d in shape:
        n *= d
    code = FMT[descr[1:]]
    v = float(value) if code in 'efd' else int(value)
    body = struct.pack('<%d%s' % (n, code), *([v] * n))
    sh = '(' + ', '.join(str(d) for d in shape) + (',' if len(shape) == 1 else '') + ')'
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, sh)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    d = d + ' ' * (total - 10 - len(d) - 1) + '\n'
    open(out, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(d)) + d.encode() + body)
    return 0


def diff(a_path, b_path, max_abs, mean_abs):
    ad, ash, av = read(a_path)
    bd, bsh, bv = read(b_path)
    if ad != bd or ash != bsh:
        print('MISMATCH dtype/shape: %s %s vs %s %s' % (ad, list(ash), bd, list(bsh)))
        return 1
    d = [abs(x - y) for x, y in zip(av, bv)]
    mx = max(d, default=0)
    mean = sum(d) / len(d) if d else 0.0
    print('max |diff| %g, mean |diff| %.4f' % (mx, mean))
    return 0 if mx <= float(max_abs) and mean <= float(mean_abs) else 1


def read_bmp24(path):
    data = open(path, 'rb').read()
    off, = struct.unpack('<I', data[10:14])
    w, h = struct.unpack('<ii', data[18:26])
    bpp, = struct.unpack('<H', data[28:30])
    assert bpp == 24, 'only 24-bit BMP'
    stride = (w * 3 + 3) // 4 * 4
    rows = []
    for y in range(abs(h)):
        src = y if h < 0 else abs(h) - 1 - y
        r = data[off + src * stride: off + src * stride + w * 3]
        rows.append(bytes(b for i in range(w) for b in (r[3 * i + 2], r[3 * i + 1], r[3 * i])))
    return w, abs(h), rows


def write_png(path, w, h, color_type, rows, palette=None):
    import zlib

    def chunk(tag, body):
        return struct.pack('>I', len(body)) + tag + body + struct.pack('>I', zlib.crc32(tag + body) & 0xffffffff)
    raw = b''.join(b'\x00' + r for r in rows)
    out = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, color_type, 0, 0, 0))
    if palette is not None:
        out += chunk(b'PLTE', b''.join(palette))
    out += chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
    open(path, 'wb').write(out)


def png(bmp, out, kind):
    w, h, rows = read_bmp24(bmp)
    if kind == 'rgba':
        rows = [bytes(b for i in range(w) for b in (r[3 * i:3 * i + 3] + b'\xff')) for r in rows]
        return write_png(out, w, h, 6, rows) or 0
    if kind == 'gray':
        rows = [bytes((299 * r[3 * i] + 587 * r[3 * i + 1] + 114 * r[3 * i + 2] + 500) // 1000 for i in range(w))
                for r in rows]
        return write_png(out, w, h, 0, rows) or 0
    if kind == 'palette':
        colors = sorted({r[3 * i:3 * i + 3] for r in rows for i in range(w)})
        if len(colors) <= 256:
            index = {c: k for k, c in enumerate(colors)}
            rows = [bytes(index[r[3 * i:3 * i + 3]] for i in range(w)) for r in rows]
            return write_png(out, w, h, 3, rows, colors) or 0
    return write_png(out, w, h, 2, rows) or 0


def main():
    cmd = sys.argv[1]
    if cmd == 'compare':
        pairs = sys.argv[2:]
        if len(pairs) % 2:
            return 2
        rc = 0
        for k in range(0, len(pairs), 2):
            sys.stdout.write('%s vs %s: ' % (pairs[k], pairs[k + 1]))
            if compare(pairs[k], pairs[k + 1]) != 0:
                print('FAIL (above)')
                rc = 1
        return rc
    if cmd == 'make':
        return make(*sys.argv[2:6])
    if cmd == 'diff':  # A B MAX MEAN [A2 B2 MAX2 MEAN2 ...]
        rest = sys.argv[2:]
        rc = 0
        for k in range(0, len(rest) - 3, 4):
            sys.stdout.write('%s vs %s: ' % (rest[k], rest[k + 1]))
            rc |= diff(*rest[k:k + 4])
        return rc
    if cmd == 'png':
        rest = sys.argv[3:]
        for k in range(0, len(rest) - 1, 2):
            png(sys.argv[2], rest[k], rest[k + 1])
        return 0
    if cmd == 'shape':
        d, s, _ = read(sys.argv[2])
        print('%s [%s]' % (d, ','.join(str(x) for x in s)))
        return 0
    return 2


if __name__ == '__main__':
    sys.exit(main())
