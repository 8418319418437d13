#!/usr/bin/env python3
"""Where real models spend time: `tfcc bench --json` (one thread, its per-operator profile) on
every .tflite under the given files / folders (duplicates by content once, each under a
timeout; models tfcc refuses or that time out are counted and left out), then per (operator,
dtype, kernel) the profiled time, the sum of its shares of each model's time, the number of
models where it takes >= 10% of the model's time, and whether the kernel is a vector one
(its name carries an ISA), portable C, or the reference / scalar one, with the dtypes that
operator has a vector kernel for elsewhere in the corpus. Markdown on stdout, ranked by the
number of models where the row is >= 10%, then by its summed share.

  /usr/bin/python3 bench/op_survey.py --tfcc build/tools/tfcc --min-ops 5 --top 20 \
      /tmp/sweep22 ../shared/models

--min-ops N leaves out files whose profile has fewer than N operators (single-operator test
fixtures: a copy or a tiny kernel is then 100% of "the model"); --slow lists the models where
each non-vector row is >= 10%; --results DIR keeps the JSON per model and reuses it. The dtype
of a node is read from the file (subgraph 0: input 0 -> output 0, "hybrid" for a float input
with int8 weights). Profiles are wall-clock per operator: on a loaded machine single models
can be inflated (the ranking counts models, not milliseconds). Standard library only.
"""
import argparse, hashlib, json, os, re, struct, subprocess, sys
from collections import Counter, defaultdict

TYPES = {0: 'f32', 1: 'f16', 2: 'i32', 3: 'u8', 4: 'i64', 5: 'str', 6: 'bool', 7: 'i16',
         8: 'c64', 9: 'i8', 10: 'f64', 11: 'c128', 12: 'u64', 15: 'u32', 16: 'u16', 17: 'i4'}
ISA = re.compile(r'(avx512|avx2|sse4|vnni|neon|wasm|amx|-vec|pshufb)')


class Table:  # a FlatBuffer table: just what the dtype lookup needs
    def __init__(self, b, pos):
        self.b, self.pos = b, pos
        self.vt = pos - struct.unpack_from('<i', b, pos)[0]
        self.vlen = struct.unpack_from('<H', b, self.vt)[0]

    def off(self, f):
        o = 4 + 2 * f
        return struct.unpack_from('<H', self.b, self.vt + o)[0] if o < self.vlen else 0

    def u8(self, f):
        o = self.off(f)
        return self.b[self.pos + o] if o else 0

    def vec(self, f):
        o = self.off(f)
        if not o:
            return None, 0
        p = self.pos + o
        p += struct.unpack_from('<I', self.b, p)[0]
        return p + 4, struct.unpack_from('<I', self.b, p)[0]

    def tables(self, f):
        p, n = self.vec(f)
        return [Table(self.b, p + 4 * i + struct.unpack_from('<I', self.b, p + 4 * i)[0])
                for i in range(n)] if p else []

    def ints(self, f):
        p, n = self.vec(f)
        return list(struct.unpack_from('<%di' % n, self.b, p)) if p else []


def node_dtypes(path):
    """(input 0, input 1, output 0) dtypes of each operator of subgraph 0."""
    b = open(path, 'rb').read()
    sg = Table(b, struct.unpack_from('<I', b, 0)[0]).tables(2)[0]
    tens, res = sg.tables(0), []
    for op in sg.tables(3):
        ins = [i for i in op.ints(1) if i >= 0]
        outs = op.ints(2)
        dt = lambda i: TYPES.get(tens[i].u8(1), '?')
        res.append((dt(ins[0]) if ins else '-', dt(ins[1]) if len(ins) > 1 else '-',
                    dt(outs[0]) if outs else '-'))
    return res


def label(kernel, node, dts):
    if kernel.startswith('hybrid'):
        return 'hybrid'
    if node >= len(dts):
        return '?'
    ti, tw, to = dts[node]
    if ti == 'f32' and tw in ('i8', 'u8') and to == 'f32':
        return 'hybrid'
    return to if ti == to or ti == '-' else ti + '->' + to


def kind(k):
    if k == 'ref' or 'scalar' in k or 'generic' in k:
        return 'reference/scalar'
    return 'vector' if ISA.search(k) else 'portable C'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tfcc', default='build/tools/tfcc')
    ap.add_argument('--timeout', type=float, default=30)
    ap.add_argument('--min-ops', type=int, default=1)
    ap.add_argument('--top', type=int, default=20)
    ap.add_argument('--slow', action='store_true')
    ap.add_argument('--results')
    ap.add_argument('paths', nargs='+')
    a = ap.parse_args()
    files, seen = [], set()
    for p in a.paths:
        walk = [(p, [], [os.path.basename(p)])] if os.path.isfile(p) else os.walk(p)
        for root, _, names in walk:
            for n in sorted(names):
                f = os.path.join(root, n) if not os.path.isfile(p) else p
                if not f.endswith('.tflite') or not os.path.isfile(f):
                    continue
                h = hashlib.sha256(open(f, 'rb').read()).hexdigest()
                if h not in seen:
                    seen.add(h)
                    files.append((h, f))
    if a.results:
        os.makedirs(a.results, exist_ok=True)
    tot, nmod, n10, share = Counter(), Counter(), Counter(), Counter()
    slow, vec_dt = defaultdict(list), defaultdict(set)
    ran = refused = 0
    for h, f in files:
        cache = os.path.join(a.results, h[:16] + '.json') if a.results else None
        d = None
        if cache and os.path.exists(cache):
            d = json.load(open(cache))
        else:
            try:
                r = subprocess.run([a.tfcc, 'bench', f, '--threads', '1', '--runs', '3',
                                    '--warmup', '1', '--profile-runs', '3', '--json'],
                                   capture_output=True, text=True, timeout=a.timeout)
                d = json.loads(r.stdout) if r.returncode == 0 else None
            except (subprocess.TimeoutExpired, ValueError):
                d = None
            if cache and d:
                json.dump(d, open(cache, 'w'))
        ops = d.get('ops', []) if d else []
        if not d:
            refused += 1
        if len(ops) < max(1, a.min_ops):
            continue
        mt = sum(o['ms'] for o in ops)
        if mt <= 0:
            continue
        ran += 1
        try:
            dts = node_dtypes(f)
        except Exception:
            dts = []
        per = Counter()
        for o in ops:
            key = (o['name'], label(o['kernel'], o['node'], dts), o['kernel'])
            per[key] += o['ms']
            if kind(o['kernel']) == 'vector':
                vec_dt[o['name']].add(key[1])
        for key, ms in per.items():
            tot[key] += ms
            nmod[key] += 1
            share[key] += ms / mt
            if ms / mt >= 0.10:
                n10[key] += 1
                slow[key].append((round(ms / mt, 2), os.path.basename(f)))
    print('%d distinct files, %d profiled with >= %d operators, %d refused or timed out'
          % (len(files), ran, a.min_ops, refused))
    print()
    print('| # | operator | dtype | kernel | kind | profiled ms | sum of shares '
          '| models >= 10% | models |')
    print('|---|---|---|---|---|---|---|---|---|')
    rank = sorted(tot, key=lambda k: (-n10[k], -share[k]))
    for i, key in enumerate(rank[:a.top]):
        name, dt, k = key
        kd = kind(k)
        other = sorted(vec_dt[name] - {dt})
        if kd != 'vector' and other:
            kd += ' (vector for %s)' % ', '.join(other)
        print('| %d | %s | %s | %s | %s | %.1f | %.2f | %d | %d |'
              % (i + 1, name, dt, k, kd, tot[key], share[key], n10[key], nmod[key]))
    if a.slow:
        print()
        for key in rank:
            if kind(key[2]) != 'vector' and n10[key]:
                print('- %s %s %s: %s' % (key[0], key[1], key[2], ', '.join(
                    '%s %.0f%%' % (m, 100 * s) for s, m in sorted(slow[key], reverse=True)[:8])))


if __name__ == '__main__':
    sys.exit(main())
