#!/usr/bin/env python3
"""Builds the modelgen networks: python3 modelgen/build.py --out DIR [--net NAME ...]
writes DIR/<net>.tflite. Without --net it builds the default demo network
(mobilenet_v1_025_128_int8); --all builds every network; --list prints the names."""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nets  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=".")
    ap.add_argument("--net", action="append", help="network name (repeatable)")
    ap.add_argument("--all", action="store_true", help="build every network")
    ap.add_argument("--list", action="store_true", help="list the networks and exit")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(nets.NETS))
        return 0
    names = nets.NETS if args.all else (args.net or [nets.DEFAULT_NET])
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        t0 = time.time()
        try:
            data = nets.build(name)
        except KeyError as e:
            print("build.py: %s" % e.args[0], file=sys.stderr)
            return 2
        path = os.path.join(args.out, name + ".tflite")
        with open(path, "wb") as f:
            f.write(data)
        if not args.quiet:
            print("%s: %d bytes in %.2f s" % (path, len(data), time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
