#!/usr/bin/env python3
"""Stdlib-only hostile clients for the tfcc serve tests. Traffic goes to 127.0.0.1 only (a
source address in 127.0.0.0/8 may be chosen); every loop is bounded in count and time.

  srv_attack.py raw --port P [--source A] HEX_OR_TEXT
      sends the bytes (\\r \\n escapes are decoded), prints the status line and the body of the
      answer (or 'CLOSED' when the server closed without one) within 5 s.
  srv_attack.py slowloris --port P --conns N --seconds S [--sources K] [--interval I]
                          [--probe-port Q] [--probe-source A] [--probe-every T]
      opens N connections (spread over K source addresses 127.0.0.1.., default 1), each sending
      a request one byte per I s (default 1); meanwhile GET /v2/health/live on Q (default P)
      from A every T s. Prints 'held H refused R closed_by_server C probes_ok O probes_failed F
      probe_max_ms M'.
  srv_attack.py trickle --port P --prefix TEXT --rest TEXT [--interval I] --seconds S
      sends PREFIX at once, then REST one byte per I s (default 0.25) until the server answers
      or closes; prints '<status line or CLOSED> after <seconds>'.
  srv_attack.py headers --port P --conns N --content-length L --seconds S
      N connections that send only the headers of a POST with Content-Length L, then wait S s.
"""
import argparse
import socket
import sys
import time


def connect(port, source=None, timeout=5.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    if source:
        s.bind((source, 0))
    s.connect(('127.0.0.1', port))
    return s


def read_answer(s, deadline):
    data = b''
    while time.time() < deadline:
        try:
            s.settimeout(max(0.05, deadline - time.time()))
            chunk = s.recv(65536)
        except socket.timeout:
            break
        except OSError:
            break
        if not chunk:
            break
        data += chunk
        head, sep, body = data.partition(b'\r\n\r\n')
        if sep:
            length = None
            for line in head.split(b'\r\n')[1:]:
                k, _, v = line.partition(b':')
                if k.strip().lower() == b'content-length':
                    length = int(v.strip())
            if length is not None and len(body) >= length:
                break
    return data


def cmd_raw(a):
    payload = a.data.encode('latin-1').decode('unicode_escape').encode('latin-1')
    s = connect(a.port, a.source)
    s.sendall(payload)
    data = read_answer(s, time.time() + 5)
    s.close()
    if not data:
        print('CLOSED')
        return 0
    head, _, body = data.partition(b'\r\n\r\n')
    print(head.split(b'\r\n')[0].decode('latin-1'))
    print(body.decode('latin-1', 'replace'))
    return 0


def probe(port, source):
    t0 = time.time()
    try:
        s = connect(port, source, timeout=2.0)
        s.sendall(b'GET /v2/health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        data = read_answer(s, time.time() + 2.0)
        s.close()
        return data.startswith(b'HTTP/1.1 200'), (time.time() - t0) * 1000
    except OSError:
        return False, (time.time() - t0) * 1000


def cmd_slowloris(a):
    req = b'POST /v2/models/net/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nX-Pad: ' + b'a' * 4000
    conns, refused = [], 0
    for i in range(a.conns):
        src = '127.0.0.%d' % (1 + i % a.sources)
        try:
            s = connect(a.port, src, timeout=1.0)
            s.setblocking(False)
            conns.append([s, 0])
        except OSError:
            refused += 1
    # libmicrohttpd refuses a connection over its limits by closing it right after accept
    time.sleep(0.5)
    for c in conns:
        try:
            if c[0].recv(4096) == b'':
                c[0].close()
                c[0] = None
                refused += 1
        except BlockingIOError:
            pass
        except OSError:
            c[0].close()
            c[0] = None
            refused += 1
    closed = 0
    probes_ok = probes_failed = 0
    probe_max = 0.0
    end = time.time() + a.seconds
    next_probe = time.time() + a.probe_every
    while time.time() < end:
        for c in conns:
            if c[0] is None:
                continue
            try:
                c[0].send(req[c[1] % len(req):c[1] % len(req) + 1])
                c[1] += 1
                try:
                    if c[0].recv(4096) == b'':
                        raise OSError('closed')
                except BlockingIOError:
                    pass
            except OSError:
                c[0].close()
                c[0] = None
                closed += 1
        if a.probe_every > 0 and time.time() >= next_probe:
            ok, ms = probe(a.probe_port or a.port, a.probe_source)
            probe_max = max(probe_max, ms)
            if ok:
                probes_ok += 1
            else:
                probes_failed += 1
            next_probe = time.time() + a.probe_every
        time.sleep(a.interval)
    held = sum(1 for c in conns if c[0] is not None)
    for c in conns:
        if c[0] is not None:
            c[0].close()
    print('held %d refused %d closed_by_server %d probes_ok %d probes_failed %d probe_max_ms %.0f' %
          (held, refused, closed, probes_ok, probes_failed, probe_max))
    return 0


def unescape(t):
    return t.encode('latin-1').decode('unicode_escape').encode('latin-1')


def cmd_trickle(a):
    rest = unescape(a.rest)
    t0 = time.time()
    s = connect(a.port)
    s.sendall(unescape(a.prefix))
    s.setblocking(False)
    data = b''
    i = 0
    while time.time() - t0 < a.seconds:
        try:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
            if b'\r\n' in data:
                break
        except BlockingIOError:
            pass
        except OSError:
            break
        if i < len(rest):
            try:
                s.send(rest[i:i + 1])
            except OSError:
                break
            i += 1
        time.sleep(a.interval)
    s.close()
    line = data.split(b'\r\n')[0].decode('latin-1') if data else 'CLOSED'
    print('%s after %.1f' % (line, time.time() - t0))
    return 0


def cmd_headers(a):
    conns = []
    for _ in range(a.conns):
        try:
            s = connect(a.port)
            s.sendall(b'POST /v2/models/net/infer HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n'
                      % a.content_length)
            conns.append(s)
        except OSError:
            pass
    print('open %d' % len(conns), flush=True)
    time.sleep(a.seconds)
    for s in conns:
        s.close()
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('raw')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--source')
    p.add_argument('data')
    p = sub.add_parser('slowloris')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--conns', type=int, required=True)
    p.add_argument('--seconds', type=float, required=True)
    p.add_argument('--sources', type=int, default=1)
    p.add_argument('--interval', type=float, default=1.0)
    p.add_argument('--probe-port', type=int, default=0)
    p.add_argument('--probe-source', default='127.0.0.1')
    p.add_argument('--probe-every', type=float, default=0)
    p = sub.add_parser('trickle')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--prefix', required=True)
    p.add_argument('--rest', required=True)
    p.add_argument('--interval', type=float, default=0.25)
    p.add_argument('--seconds', type=float, required=True)
    p = sub.add_parser('headers')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--conns', type=int, required=True)
    p.add_argument('--content-length', type=int, required=True)
    p.add_argument('--seconds', type=float, required=True)
    a = ap.parse_args()
    if not (1 <= getattr(a, 'conns', 1) <= 1000 and 0 <= getattr(a, 'seconds', 0) <= 60):
        sys.exit('srv_attack.py: --conns must be 1..1000 and --seconds 0..60')
    return {'raw': cmd_raw, 'slowloris': cmd_slowloris, 'headers': cmd_headers,
            'trickle': cmd_trickle}[a.cmd](a)


if __name__ == '__main__':
    sys.exit(main())
