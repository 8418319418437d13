"""A small FlatBuffer builder, written from the FlatBuffers binary format spec.

The buffer is built back to front (like every FlatBuffer writer): children are
written before the tables that point at them, and every position is tracked as
an offset from the *end* of the buffer ("used" bytes), which stays valid while
the buffer grows at the front.

Format recap (all little endian):
  - a uoffset (uint32) at address A pointing to T stores T - A (always forward);
  - a table starts with an soffset (int32) s; its vtable is at table - s;
  - a vtable is uint16 [vtable bytes, table bytes, field0 offset, field1 offset, ...]
    where a field offset is relative to the table start and 0 means "absent";
  - vectors are uint32 length + elements; strings are vectors of bytes plus a 0;
  - a union is two fields: a ubyte type (field id n) and a uoffset to a table (id n+1).
"""
import struct

__all__ = ["Builder"]


class Builder:
    def __init__(self, initial=1024, dedup_vtables=True):
        self.buf = bytearray(max(16, initial))
        self.head = len(self.buf)      # first used byte
        self.minalign = 1
        self.dedup = dedup_vtables
        self.vtables = {}              # bytes of vtable -> used() where it was written
        self._table = None             # (used at start, {field id: used after field})
        self._vec = None               # element count while building a vector
        self.finished = False

    # ------------------------------------------------------------ raw space
    def used(self):
        return len(self.buf) - self.head

    def _grow(self, need):
        while self.head < need:
            old = len(self.buf)
            new = bytearray(old)  # double
            self.buf = new + self.buf
            self.head += old

    def pad(self, n):
        self._grow(n)
        self.head -= n
        self.buf[self.head:self.head + n] = bytes(n)

    def prep(self, size, additional):
        """Aligns so that after writing `additional` bytes the next `size`-byte
        value is aligned to `size` (relative to the end of the buffer)."""
        if size > self.minalign:
            self.minalign = size
        align = (-(self.used() + additional)) % size
        self._grow(align + size + additional)
        if align:
            self.pad(align)

    def _put(self, fmt, value):
        n = struct.calcsize(fmt)
        self.head -= n
        struct.pack_into(fmt, self.buf, self.head, value)

    def prepend(self, fmt, value):
        n = struct.calcsize(fmt)
        self.prep(n, 0)
        self._put(fmt, value)

    def prepend_uoffset(self, off):
        self.prep(4, 0)
        if off > self.used():
            raise ValueError("uoffset must point to an object already written")
        self._put("<I", self.used() + 4 - off)

    # ------------------------------------------------------------ vectors / strings
    def start_vector(self, elem_size, count, alignment=None):
        if self._table is not None:
            raise RuntimeError("vector started inside a table")
        alignment = max(elem_size, alignment or 1)
        self.prep(4, elem_size * count)
        self.prep(alignment, elem_size * count)
        self._vec = count

    def end_vector(self):
        count, self._vec = self._vec, None
        self.prep(4, 0)
        self._put("<I", count)
        return self.used()

    def create_scalar_vector(self, fmt, values, alignment=None):
        """fmt: struct code of one element ('i', 'f', 'q', 'B', 'b', 'h', ...)."""
        values = list(values)
        size = struct.calcsize("<" + fmt)
        self.start_vector(size, len(values), alignment)
        data = struct.pack("<%d%s" % (len(values), fmt), *values)
        self.head -= len(data)
        self.buf[self.head:self.head + len(data)] = data
        return self.end_vector()

    def create_byte_vector(self, data, alignment=1):
        data = bytes(data)
        self.start_vector(1, len(data), alignment)
        self.head -= len(data)
        self.buf[self.head:self.head + len(data)] = data
        return self.end_vector()

    def create_offset_vector(self, offsets):
        offsets = list(offsets)
        self.start_vector(4, len(offsets), 4)
        for off in reversed(offsets):
            self.prepend_uoffset(off)
        return self.end_vector()

    def create_string(self, s):
        if isinstance(s, str):
            s = s.encode("utf-8")
        if self._table is not None:
            raise RuntimeError("string created inside a table")
        self.prep(4, len(s) + 1)
        self.pad(1)
        self.head -= len(s)
        self.buf[self.head:self.head + len(s)] = s
        self._vec = len(s)
        return self.end_vector()

    # ------------------------------------------------------------ tables
    def start_table(self):
        if self._table is not None:
            raise RuntimeError("nested start_table")
        self._table = (self.used(), {})

    def add_scalar(self, field, fmt, value, default=None):
        """Adds a scalar field unless it equals default (default=None: always written)."""
        if default is not None and value == default:
            return
        self.prepend("<" + fmt, value)
        self._table[1][field] = self.used()

    def add_offset(self, field, off):
        if off is None:
            return
        self.prepend_uoffset(off)
        self._table[1][field] = self.used()

    def end_table(self):
        start, fields = self._table
        self._table = None
        self.prepend("<i", 0)  # soffset placeholder
        obj = self.used()
        nfields = (max(fields) + 1) if fields else 0
        entries = [0] * nfields
        for fid, at in fields.items():
            entries[fid] = obj - at
        vt = struct.pack("<%dH" % (nfields + 2), 4 + 2 * nfields, obj - start, *entries)
        obj_pos = len(self.buf) - obj
        existing = self.vtables.get(vt) if self.dedup else None
        if existing is not None:
            vt_used = existing
        else:
            self._grow(len(vt))
            self.head -= len(vt)
            self.buf[self.head:self.head + len(vt)] = vt
            vt_used = self.used()
            if self.dedup:
                self.vtables[vt] = vt_used
            obj_pos = len(self.buf) - obj  # buffer may have grown
        struct.pack_into("<i", self.buf, obj_pos, vt_used - obj)
        return obj

    # ------------------------------------------------------------ finish
    def finish(self, root, file_identifier=None):
        ident = file_identifier.encode("ascii") if isinstance(file_identifier, str) else file_identifier
        extra = 4 + (4 if ident else 0)
        self.prep(max(self.minalign, 4), extra)
        if ident:
            if len(ident) != 4:
                raise ValueError("file identifier must be 4 bytes")
            self.head -= 4
            self.buf[self.head:self.head + 4] = ident
        self.prepend_uoffset(root)
        self.finished = True
        return bytes(self.buf[self.head:])
