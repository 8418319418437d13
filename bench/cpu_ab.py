#!/usr/bin/env python3
"""A/B of two tfcc builds on whole models, by CPU time: `tfcc bench MODEL --threads 1 --runs 20
--json --profile-runs 0` of build A then B (B then A on odd rounds), one process per cell;
per model the medians and minima of `cpu_ms_per_run`, the ratio B / A of the medians, of the
minima and the median of the paired per-round ratios (for a machine shared with other work).

  /usr/bin/python3 bench/cpu_ab.py --a /work/main/build/tools/tfcc --b build/tools/tfcc \
      --rounds 7 MODEL.tflite ...   [--quant-compat reference]

Standard library only.
"""
import argparse, json, statistics as st, subprocess


def cpu_ms(tfcc, model, threads, qc=None):
    extra = ['--quant-compat', qc] if qc else []
    r = subprocess.run([tfcc, 'bench', model, '--threads', str(threads), '--runs', '20',
                        '--json', '--profile-runs', '0'] + extra, capture_output=True, text=True,
                       check=True)
    return json.loads(r.stdout)['cpu_ms_per_run']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True)
    ap.add_argument('--b', required=True)
    ap.add_argument('--rounds', type=int, default=7)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--quant-compat', choices=('tflite', 'reference'),
                    help="passed to tfcc bench (e.g. REFERENCE mode's builtin kernels)")
    ap.add_argument('models', nargs='+')
    o = ap.parse_args()
    print('| model | A median (min) | B median (min) | B/A medians | B/A minima | B/A paired |')
    print('|---|---|---|---|---|---|')
    for m in o.models:
        a, b = [], []
        for i in range(o.rounds):
            order = ((a, o.a), (b, o.b)) if i % 2 == 0 else ((b, o.b), (a, o.a))
            for dst, tfcc in order:
                dst.append(cpu_ms(tfcc, m, o.threads, o.quant_compat))
        paired = st.median(y / x for x, y in zip(a, b))
        print('| %s | %.4f (%.4f) | %.4f (%.4f) | %.3f | %.3f | %.3f |'
              % (m.split('/')[-1], st.median(a), min(a), st.median(b), min(b),
                 st.median(b) / st.median(a), min(b) / min(a), paired))


if __name__ == '__main__':
    main()
