"""A FlexBuffer writer for custom operator options (a map of scalars and strings), written from the
FlexBuffers format description; the reader is src/format/flexbuf.c.

Layout written (all slots `width` bytes, little endian):
  keys (NUL-terminated), strings (byte count, bytes, NUL), keys vector (count, then one back-offset per key), map header
  (back-offset to the keys vector, keys width, count), values, one packed type byte per value,
  root (back-offset to the map), root packed type, root width.
Keys are sorted (readers may binary-search them)."""
import struct

NULL, INT, UINT, FLOAT, KEY, STRING, MAP, BOOL = 0, 1, 2, 3, 4, 5, 9, 26
_WIDTH_CODE = {1: 0, 2: 1, 4: 2, 8: 3}


def _uint(v, w):
    return int(v).to_bytes(w, "little", signed=False)


def _pad(buf, w):
    while len(buf) % w:
        buf.append(0)


def map_bytes(values, width=8):
    """values: dict name -> int | float | bool | str | None. width: slot bytes (1, 2, 4 or 8; floats
    need 4 or 8)."""
    if width not in _WIDTH_CODE:
        raise ValueError("width must be 1, 2, 4 or 8")
    buf = bytearray()
    keys = sorted(values)
    key_pos = {}
    for k in keys:
        key_pos[k] = len(buf)
        buf += k.encode() + b"\0"
    str_pos = {}
    for k in keys:
        if isinstance(values[k], str):
            _pad(buf, width)
            data = values[k].encode()
            buf += _uint(len(data), width)
            str_pos[k] = len(buf)
            buf += data + b"\0"
    _pad(buf, width)
    buf += _uint(len(keys), width)
    keys_vec = len(buf)
    for i, k in enumerate(keys):
        buf += _uint(keys_vec + i * width - key_pos[k], width)
    _pad(buf, width)
    hdr = len(buf)
    buf += _uint(hdr - keys_vec, width)
    buf += _uint(width, width)
    buf += _uint(len(keys), width)
    map_pos = len(buf)
    types = bytearray()
    code = _WIDTH_CODE[width]
    for k in keys:
        v = values[k]
        if v is None:
            buf += _uint(0, width)
            types.append(NULL << 2)
        elif isinstance(v, str):
            buf += _uint(len(buf) - str_pos[k], width)
            types.append(STRING << 2 | code)
        elif isinstance(v, bool):
            buf += _uint(1 if v else 0, width)
            types.append(BOOL << 2 | code)
        elif isinstance(v, int):
            buf += int(v).to_bytes(width, "little", signed=True)
            types.append(INT << 2 | code)
        else:
            if width == 4:
                buf += struct.pack("<f", float(v))
            elif width == 8:
                buf += struct.pack("<d", float(v))
            else:
                raise ValueError("a float needs width 4 or 8")
            types.append(FLOAT << 2 | code)
    buf += types
    _pad(buf, width)
    root = len(buf)
    buf += _uint(root - map_pos, width)
    buf.append(MAP << 2 | code)
    buf.append(width)
    return bytes(buf)
