#!/usr/bin/env python3
"""Stdlib-only client for the tfcc serve tests (KServe v2 JSON / binary, TF Serving REST).

  srv_client.py infer  --port P --model M [--version V] [--binary] [--binary-out]
                       [--output NAME ...] --out DIR IN.npy ...
      one KServe v2 request (inputs in model order); writes DIR/<i>_<name>.npy per output
      (i = the model's output index, name with [^A-Za-z0-9._-] -> '_', as `tfcc run`).
  srv_client.py tfs    --port P --model M --format instances|inputs --out DIR IN.npy ...
      one TF Serving predict request; writes the outputs like `infer`.
  srv_client.py load   --port P --model M --threads N --requests R --expect DIR [--expect DIR]
                       [--log FILE] IN.npy ...
      R binary requests (or for --seconds S, or --until-file F exists) on each of N keep-alive connections; every answer must be 200 and
      byte-equal to ONE of the --expect sets (never a mix). Prints a summary; exit 1 otherwise.
  srv_client.py batch  --port P --model M --rounds R [--json] --case IN.npy=DIR ...
      one thread per --case, all started together, each sending R requests of its own input
      (binary, or JSON with --json); every answer must be 200 and equal its own `tfcc run`
      outputs in DIR byte for byte (rows merged with other requests come back to their owner).
  srv_client.py check  --port P --model M --ref DIR [--tfs] IN.npy ...
      JSON, binary and binary-output requests (and TF Serving row/columnar with --tfs) must
      equal the `tfcc run` outputs in DIR byte for byte.
  srv_client.py rand   OUT.npy DTYPE D0,D1,.. [--seed N]   seeded uniform random input
  srv_client.py same   A.npy B.npy          exit 0 if dtype, shape and bytes are identical.
"""
import argparse
import ast
import http.client
import json
import os
import re
import struct
import sys
import threading
import time

V2 = {'<f4': 'FP32', '<f8': 'FP64', '<f2': 'FP16', '|i1': 'INT8', '|u1': 'UINT8', '<i2': 'INT16',
      '<u2': 'UINT16', '<i4': 'INT32', '<u4': 'UINT32', '<i8': 'INT64', '<u8': 'UINT64', '|b1': 'BOOL'}
DESCR = {v: k for k, v in V2.items()}
FMT = {'FP32': 'f', 'FP64': 'd', 'FP16': 'e', 'INT8': 'b', 'UINT8': 'B', 'INT16': 'h', 'UINT16': 'H',
       'INT32': 'i', 'UINT32': 'I', 'INT64': 'q', 'UINT64': 'Q', 'BOOL': '?'}


def npy_read(path):
    data = open(path, 'rb').read()
    if data[:6] != b'\x93NUMPY':
        raise SystemExit(path + ': not a .npy file')
    if data[6] == 1:
        hlen, start = struct.unpack('<H', data[8:10])[0], 10
    else:
        hlen, start = struct.unpack('<I', data[8:12])[0], 12
    hdr = ast.literal_eval(data[start:start + hlen].decode('latin1'))
    return V2[hdr['descr']], list(hdr['shape']), data[start + hlen:]


def npy_write(path, dtype, shape, raw):
    sh = '(' + ''.join('%d,' % d for d in shape) + ')' if len(shape) != 1 else '(%d,)' % shape[0]
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (DESCR[dtype], sh)
    pad = 64 - (10 + len(hdr) + 1) % 64
    hdr = hdr + ' ' * pad + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode('latin1') + raw)


def safe(name):
    return re.sub(r'[^A-Za-z0-9._-]', '_', name)


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def flatten(v, out):
    if isinstance(v, list):
        for e in v:
            flatten(e, out)
    else:
        out.append(v)
    return out


def nested_shape(v):
    s = []
    while isinstance(v, list):
        s.append(len(v))
        v = v[0] if v else None
    return s


def pack(dtype, values):
    if dtype == 'BOOL':
        values = [bool(v) for v in values]
    return struct.pack('<%d%s' % (len(values), FMT[dtype]), *values)


def unpack(dtype, raw):
    n = len(raw) // struct.calcsize(FMT[dtype])
    return list(struct.unpack('<%d%s' % (n, FMT[dtype]), raw))


def request(port, method, path, body=None, headers=None, conn=None):
    c = conn or http.client.HTTPConnection('127.0.0.1', port, timeout=60)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    if conn is None:
        c.close()
    return r.status, hdrs, data


def metadata(port, model):
    st, _, data = request(port, 'GET', '/v2/models/' + model)
    if st != 200:
        raise SystemExit('metadata: %d %s' % (st, data[:300]))
    return json.loads(data)


def build_v2(meta, files, binary, binary_out, outputs):
    inputs, chunks = [], []
    for io, path in zip(meta['inputs'], files):
        dtype, shape, raw = npy_read(path)
        t = {'name': io['name'], 'datatype': dtype, 'shape': shape}
        if binary:
            t['parameters'] = {'binary_data_size': len(raw)}
            chunks.append(raw)
        else:
            t['data'] = unpack(dtype, raw)
        inputs.append(t)
    req = {'id': 'test', 'inputs': inputs}
    if binary_out:
        req['parameters'] = {'binary_data_output': True}
    if outputs:
        req['outputs'] = [{'name': n} for n in outputs]
    header = json.dumps(req).encode()
    headers = {'Content-Type': 'application/json'}
    if binary:
        headers['Inference-Header-Content-Length'] = str(len(header))
        headers['Content-Type'] = 'application/octet-stream'
    return header + b''.join(chunks), headers


def decode_v2(status, hdrs, data):
    """-> list of (name, dtype, shape, raw) or raises."""
    if status != 200:
        raise RuntimeError('HTTP %d: %s' % (status, data[:400].decode('utf-8', 'replace')))
    hl = hdrs.get('inference-header-content-length')
    jlen = int(hl) if hl is not None else len(data)
    resp = json.loads(data[:jlen])
    at, outs = jlen, []
    for o in resp['outputs']:
        p = o.get('parameters', {})
        if 'binary_data_size' in p:
            raw = data[at:at + p['binary_data_size']]
            at += p['binary_data_size']
        else:
            raw = pack(o['datatype'], o['data'])
        outs.append((o['name'], o['datatype'], o['shape'], raw))
    return outs, resp


def write_outs(meta, outs, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    names = [o['name'] for o in meta['outputs']]
    for name, dtype, shape, raw in outs:
        npy_write(os.path.join(out_dir, '%d_%s.npy' % (names.index(name), safe(name))), dtype, shape, raw)


def cmd_infer(a):
    meta = metadata(a.port, a.model)
    body, headers = build_v2(meta, a.files, a.binary, a.binary_out, a.output)
    path = '/v2/models/%s%s/infer' % (a.model, '/versions/%s' % a.version if a.version else '')
    st, hdrs, data = request(a.port, 'POST', path, body, headers)
    try:
        outs, resp = decode_v2(st, hdrs, data)
    except RuntimeError as e:
        print(e)
        return 1
    write_outs(meta, outs, a.out)
    print('ok version %s outputs %d' % (resp['model_version'], len(outs)))
    return 0


def cmd_tfs(a):
    meta = metadata(a.port, a.model)
    arrays = []
    for io, path in zip(meta['inputs'], a.files):
        dtype, shape, raw = npy_read(path)
        vals = unpack(dtype, raw)

        def nest(vals, shape):
            if not shape:
                return vals[0]
            step = count(shape[1:])
            return [nest(vals[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]
        arrays.append((io['name'], shape, nest(vals, shape)))
    if a.format == 'instances':
        if len(arrays) == 1:
            body = {'instances': arrays[0][2]}
        else:
            n = arrays[0][1][0]
            body = {'instances': [{name: v[i] for name, _, v in arrays} for i in range(n)]}
    else:
        body = {'inputs': arrays[0][2] if len(arrays) == 1 else {name: v for name, _, v in arrays}}
    st, _, data = request(a.port, 'POST', '/v1/models/%s:predict' % a.model, json.dumps(body).encode())
    if st != 200:
        print('HTTP %d: %s' % (st, data[:400]))
        return 1
    resp = json.loads(data)
    onames = [o['name'] for o in meta['outputs']]
    odt = [o['datatype'] for o in meta['outputs']]
    os.makedirs(a.out, exist_ok=True)
    if a.format == 'instances':
        preds = resp['predictions']
        per = [[p] for p in preds] if len(onames) == 1 else [[p[n] for n in onames] for p in preds]
        for i, name in enumerate(onames):
            rows = [per[r][i] for r in range(len(per))]
            npy_write(os.path.join(a.out, '%d_%s.npy' % (i, safe(name))), odt[i], nested_shape(rows),
                      pack(odt[i], flatten(rows, [])))
    else:
        outs = resp['outputs']
        vals = [outs] if len(onames) == 1 else [outs[n] for n in onames]
        for i, name in enumerate(onames):
            npy_write(os.path.join(a.out, '%d_%s.npy' % (i, safe(name))), odt[i], nested_shape(vals[i]),
                      pack(odt[i], flatten(vals[i], [])))
    print('ok')
    return 0


def read_expect(d, meta):
    names = [o['name'] for o in meta['outputs']]
    want = {}
    for i, n in enumerate(names):
        p = os.path.join(d, '%d_%s.npy' % (i, safe(n)))
        want[n] = npy_read(p)[2]
    return want


def cmd_load(a):
    meta = metadata(a.port, a.model)
    body, headers = build_v2(meta, a.files, True, True, None)
    expects = [read_expect(d, meta) for d in a.expect]
    lock = threading.Lock()
    stats = {'ok': 0, 'status': {}, 'mismatch': 0, 'mixed': 0, 'errors': 0, 'versions': {}, 'lat': []}

    def worker():
        conn = http.client.HTTPConnection('127.0.0.1', a.port, timeout=60)
        end = time.perf_counter() + a.seconds if a.seconds else None
        done = 0
        while True:
            if a.until_file:
                if os.path.exists(a.until_file) or time.perf_counter() > t_start + 120:
                    break
            elif (done >= a.requests) if end is None else (time.perf_counter() >= end):
                break
            done += 1
            t0 = time.perf_counter()
            try:
                st, hdrs, data = request(a.port, 'POST', '/v2/models/%s/infer' % a.model, body, headers, conn)
            except Exception as e:  # connection-level failure counts as a lost request
                with lock:
                    stats['errors'] += 1
                    stats['status']['exception %s' % type(e).__name__] = stats['status'].get('exception %s' % type(e).__name__, 0) + 1
                conn.close()
                conn = http.client.HTTPConnection('127.0.0.1', a.port, timeout=60)
                continue
            dt = time.perf_counter() - t0
            with lock:
                stats['status'][st] = stats['status'].get(st, 0) + 1
                stats['lat'].append(dt)
            if st != 200:
                continue
            outs, resp = decode_v2(st, hdrs, data)
            got = {n: raw for n, _, _, raw in outs}
            matches = [all(got[n] == e[n] for n in e) for e in expects]
            partial = [any(got[n] == e[n] for n in e) for e in expects]
            with lock:
                v = resp['model_version']
                stats['versions'][v] = stats['versions'].get(v, 0) + 1
                if any(matches):
                    stats['ok'] += 1
                elif sum(partial) > 1:
                    stats['mixed'] += 1
                else:
                    stats['mismatch'] += 1
        conn.close()
    t_start = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(a.threads)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    lat = sorted(stats['lat'])
    p = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1e3) if lat else (lambda q: 0)
    total = len(lat) + stats['errors']
    print('load: %d requests, %d ok, status %s, versions %s, mismatch %d, mixed %d, errors %d, '
          '%.0f req/s, p50 %.2f ms, p99 %.2f ms' % (total, stats['ok'], stats['status'], stats['versions'],
                                                    stats['mismatch'], stats['mixed'], stats['errors'],
                                                    total / wall, p(0.5), p(0.99)))
    return 0 if stats['ok'] == total else 1


def cmd_batch(a):
    meta = metadata(a.port, a.model)
    cases = []
    for c in a.case:
        path, ref = c.split('=', 1)
        body, headers = build_v2(meta, [path], not a.json, not a.json, None)
        cases.append((path, body, headers, read_expect(ref, meta)))
    lock = threading.Lock()
    fails = []
    barrier = threading.Barrier(len(cases))

    def worker(case):
        path, body, headers, want = case
        conn = http.client.HTTPConnection('127.0.0.1', a.port, timeout=60)
        barrier.wait()
        for _ in range(a.rounds):
            st, hdrs, data = request(a.port, 'POST', '/v2/models/%s/infer' % a.model, body, headers, conn)
            try:
                outs, _ = decode_v2(st, hdrs, data)
            except RuntimeError as e:
                with lock:
                    fails.append('%s: %s' % (path, e))
                continue
            for name, _, shape, raw in outs:
                if raw != want[name]:
                    with lock:
                        fails.append('%s: output %s %s differs from tfcc run' % (path, name, shape))
        conn.close()
    threads = [threading.Thread(target=worker, args=(c,)) for c in cases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for f in fails[:10]:
        print('FAIL ' + f)
    print('batch: %d cases x %d requests, %d failures' % (len(cases), a.rounds, len(fails)))
    return 1 if fails else 0


def cmd_check(a):
    """Every request form against the `tfcc run` outputs in --ref (byte equality)."""
    meta = metadata(a.port, a.model)
    want = read_expect(a.ref, meta)
    fails = 0
    modes = [('json', False, False), ('binary', True, False), ('binary+binary_out', True, True)]
    for label, binary, binary_out in modes:
        body, headers = build_v2(meta, a.files, binary, binary_out, None)
        st, hdrs, data = request(a.port, 'POST', '/v2/models/%s/infer' % a.model, body, headers)
        try:
            outs, _ = decode_v2(st, hdrs, data)
        except RuntimeError as e:
            print('FAIL %s: %s' % (label, e))
            fails += 1
            continue
        for name, _, _, raw in outs:
            if raw != want[name]:
                print('FAIL %s: output %s differs from tfcc run' % (label, name))
                fails += 1
    if a.tfs:
        for fmt in ('instances', 'inputs'):
            a2 = argparse.Namespace(port=a.port, model=a.model, files=a.files, format=fmt,
                                    out=os.path.join(a.ref, '..', 'tfs_' + fmt + '_' + safe(a.model)))
            if cmd_tfs(a2) != 0:
                fails += 1
                continue
            got = read_expect(a2.out, meta)
            for n in want:
                if got[n] != want[n]:
                    print('FAIL tfs %s: output %s differs from tfcc run' % (fmt, n))
                    fails += 1
    print('%s: %d request forms x %d outputs checked, %d failures' % (a.model, len(modes) + (2 if a.tfs else 0),
                                                                     len(want), fails))
    return 1 if fails else 0


def cmd_rand(a):
    import random
    rng = random.Random(a.seed)
    shape = [int(d) for d in a.shape.split(',')]
    n = count(shape)
    if a.dtype in ('FP32', 'FP64', 'FP16'):
        vals = [rng.uniform(-1.0, 1.0) for _ in range(n)]
    elif a.dtype == 'BOOL':
        vals = [rng.random() < 0.5 for _ in range(n)]
    else:
        bits = struct.calcsize(FMT[a.dtype]) * 8
        lo, hi = (0, 2 ** bits - 1) if a.dtype.startswith('U') else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        vals = [rng.randint(lo, hi) for _ in range(n)]
    npy_write(a.out, a.dtype, shape, pack(a.dtype, vals))
    return 0


def cmd_same(a):
    x, y = npy_read(a.a), npy_read(a.b)
    if x == y:
        return 0
    print('differ: %s %s vs %s %s (%d vs %d bytes)' % (x[0], x[1], y[0], y[1], len(x[2]), len(y[2])))
    return 1


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    for name in ('infer', 'tfs', 'load'):
        p = sub.add_parser(name)
        p.add_argument('--port', type=int, required=True)
        p.add_argument('--model', required=True)
        p.add_argument('files', nargs='+')
        if name == 'infer':
            p.add_argument('--version')
            p.add_argument('--binary', action='store_true')
            p.add_argument('--binary-out', action='store_true')
            p.add_argument('--output', action='append')
        if name in ('infer', 'tfs'):
            p.add_argument('--out', required=True)
        if name == 'tfs':
            p.add_argument('--format', choices=['instances', 'inputs'], default='instances')
        if name == 'load':
            p.add_argument('--threads', type=int, default=4)
            p.add_argument('--requests', type=int, default=50)
            p.add_argument('--seconds', type=float, default=0, help='run for this long instead')
            p.add_argument('--until-file', help='run until this file exists (at most 120 s)')
            p.add_argument('--expect', action='append', required=True)
    p = sub.add_parser('check')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--model', required=True)
    p.add_argument('--ref', required=True)
    p.add_argument('--tfs', action='store_true')
    p.add_argument('files', nargs='+')
    p = sub.add_parser('batch')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--model', required=True)
    p.add_argument('--rounds', type=int, default=20)
    p.add_argument('--json', action='store_true')
    p.add_argument('--case', action='append', required=True)
    p = sub.add_parser('rand')
    p.add_argument('out')
    p.add_argument('dtype')
    p.add_argument('shape')
    p.add_argument('--seed', type=int, default=1)
    p = sub.add_parser('same')
    p.add_argument('a')
    p.add_argument('b')
    a = ap.parse_args()
    return {'infer': cmd_infer, 'tfs': cmd_tfs, 'load': cmd_load, 'same': cmd_same, 'rand': cmd_rand, 'check': cmd_check, 'batch': cmd_batch}[a.cmd](a)


if __name__ == '__main__':
    sys.exit(main())
