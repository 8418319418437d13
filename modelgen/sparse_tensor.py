"""Sparse constant tensors (TFLite's SparsityParameters, schema.fbs): encodes a dense tensor the
way TFLite's format converter lays it out, for conformance cases and fuzz seeds.

The dense tensor of shape [d0 .. dn-1] is seen as an expanded tensor: dimension block_map[b]
split into blocks of block_size[b] (its size d / block_size[b]), the block's position inside it
being expanded dimension n + b. The expanded dimensions are stored in traversal_order; each
level is DENSE (every index) or SPARSE_CSR (only the indices whose subtree holds a nonzero:
segments[parent] .. segments[parent + 1] index into indices). The stored values are those of
the leaves reached, zeros inside a kept dense block included.

encode() returns (stored values as a flat list, the sparsity dict tflite_schema.Tensor takes).
"""

DENSE, CSR = 0, 1
IDX_I32, IDX_U16, IDX_U8 = 1, 2, 3  # SparseIndexVector union: Int32Vector, Uint16Vector, Uint8Vector
IDX_MAX = {IDX_I32: (1 << 31) - 1, IDX_U16: (1 << 16) - 1, IDX_U8: (1 << 8) - 1}
IDX_FMT = {IDX_I32: "i", IDX_U16: "H", IDX_U8: "B"}


def _expanded(shape, block_map, block_size):
    rank = len(shape)
    sizes = list(shape)
    for b, d in enumerate(block_map):
        if sizes[d] % block_size[b]:
            raise ValueError("block size %d does not divide dimension %d (%d)" % (block_size[b], d, shape[d]))
        sizes[d] //= block_size[b]
    return sizes + list(block_size), rank


def _dense_offset(shape, block_map, block_size, coord):
    """Flat offset in the dense tensor of an expanded coordinate (blocked dims, then block dims)."""
    rank = len(shape)
    orig = list(coord[:rank])
    for b, d in enumerate(block_map):
        orig[d] = orig[d] * block_size[b] + coord[rank + b]
    flat = 0
    for d in range(rank):
        flat = flat * shape[d] + orig[d]
    return flat


def encode(shape, values, formats, traversal_order=None, block_map=(), block_size=(),
           index_types=IDX_U8):
    """values: the dense tensor, flat (row major); formats: DENSE / CSR per level (traversal
    position); index_types: one SparseIndexVector type for every CSR level's segments and
    indices, or per level a (segments type, indices type) pair (None for dense levels)."""
    sizes, rank = _expanded(shape, list(block_map), list(block_size))
    levels = len(sizes)
    order = list(traversal_order) if traversal_order is not None else list(range(levels))
    if sorted(order) != list(range(levels)) or len(formats) != levels:
        raise ValueError("traversal_order %s / formats %s for %d levels" % (order, formats, levels))
    if not isinstance(index_types, (list, tuple)):
        index_types = [(index_types, index_types)] * levels
    # Every dense element's expanded coordinate, and the prefixes (in traversal order) that
    # lead to a nonzero.
    coords = _all_coords(sizes)
    nonzero_prefix = [set() for _ in range(levels)]
    for c in coords:
        if values[_dense_offset(shape, block_map, block_size, c)] != 0:
            key = ()
            for l in range(levels):
                key += (c[order[l]],)
                nonzero_prefix[l].add(key)
    meta = []
    parents = [()]
    for l in range(levels):
        n = sizes[order[l]]
        if formats[l] == DENSE:
            parents = [p + (i,) for p in parents for i in range(n)]
            meta.append({"format": DENSE, "dense_size": n})
            continue
        seg, idx, children = [0], [], []
        for p in parents:
            for i in range(n):
                if p + (i,) in nonzero_prefix[l]:
                    idx.append(i)
                    children.append(p + (i,))
            seg.append(len(idx))
        st, it = index_types[l]
        if max(seg) > IDX_MAX[st] or (idx and max(idx) > IDX_MAX[it]):
            raise ValueError("level %d: segments / indices do not fit their index types" % l)
        meta.append({"format": CSR, "dense_size": n, "segments": (st, seg), "indices": (it, idx)})
        parents = children
    stored = []
    for p in parents:
        c = [0] * levels
        for l in range(levels):
            c[order[l]] = p[l]
        stored.append(values[_dense_offset(shape, block_map, block_size, c)])
    sparsity = {"traversal_order": order, "block_map": list(block_map), "dim_metadata": meta}
    return stored, sparsity


def _all_coords(sizes):
    coords = [[]]
    for n in sizes:
        coords = [c + [i] for c in coords for i in range(n)]
    return coords


def decode(shape, stored, sparsity):
    """The dense tensor (flat list) of stored values under sparsity: the inverse of encode, an
    independent check of what tfcc's DENSIFY computes."""
    block_map = sparsity["block_map"]
    meta = sparsity["dim_metadata"]
    rank = len(shape)
    block_size = [meta[rank + b]["dense_size"] for b in range(len(block_map))]
    order = sparsity["traversal_order"]
    levels = len(order)
    out = [0] * _numel(shape)
    parents = [()]
    for l in range(levels):
        m = meta[l]
        if m["format"] == DENSE:
            parents = [p + (i,) for p in parents for i in range(m["dense_size"])]
            continue
        seg, idx = m["segments"][1], m["indices"][1]
        parents = [p + (idx[k],) for j, p in enumerate(parents) for k in range(seg[j], seg[j + 1])]
    for v, p in zip(stored, parents):
        c = [0] * levels
        for l in range(levels):
            c[order[l]] = p[l]
        out[_dense_offset(shape, block_map, block_size, c)] = v
    return out


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n
