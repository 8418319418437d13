// Kernel-level A/B of tfcc's int8 WebAssembly kernels in headless Chromium: bench/wasm/
// kernel-harness.c linked against each given libtfcc.a (a build's, e.g. build-wasm-threads-relaxed/
// libtfcc.a: the relaxed binary's library; the relaxed dot product's placeholders rewritten as
// scripts/build-wasm.sh does), one module per library in one page, each layer timed on one thread
// through the family's driver (kernel row --kernel of the family's dispatch table, default 0: the
// first, which may be one that dispatch would not take here), the minimum over --reps of the mean
// per call, rounds interleaved across the libraries, plus the output bytes' checksum (the same
// in every column when the kernels compute the same bytes). On a busy machine the minimum is the
// figure to compare; the whole-model A/B is bench/wasm/browser-ab.mjs.
// xdw: MobileNetV2 int8's expand 1x1 + 3x3 depthwise pairs (HxWxCINxC, stride), unfused in the
// even-numbered modules and fused (q8-expand-dw) in the odd ones: give one library twice
// (`--family xdw LIB.a LIB.a`: [0] unfused, [1] fused, [last] / [0] the fusion's ratio);
// --kernel N is then the fused driver's window in KiB (0: its default).
//   node bench/wasm/kernel-bench.mjs [--family dw|gemm|conv|dot|xdw] [--kernel 0] [--reps 7] [--rounds 3]
//        [--shapes 56x56x144s1,...|12544x96x16,...] LIB.a [LIB.a ...]
// Default shapes: MobileNetV2 int8's depthwise layers (HxWxC, stride), its small-K GEMMs (MxNxK) or
// its first convolution through the GEMM driver's im2col (conv: HxWxCINxCOUTkFILTERsSTRIDE);
// dot: ns per relaxed dot product with 1, 2, 4, 8, 12 independent accumulator chains (the
// instruction's latency and throughput in this engine; shapes are chain counts).
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {takeOpt} from './args.mjs';
import {findChromium, launchChromium, serveStatic, sleep} from '../../js/test/chromium.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..', '..');
const args = process.argv.slice(2);
const family = takeOpt(args, '--family', 'dw');
const kernel = Number(takeOpt(args, '--kernel', 0));
// --js-flags F: V8 flags for Chromium (e.g. "--trace-turbo --trace-turbo-path=DIR
// --trace-turbo-filter=tfcc_q8_dw_run_s_wasmsimd": TurboFan's graphs and, after register
// allocation, its instruction sequence per function, which this Chromium prints without a
// disassembler; the modules keep their function names then)
const jsFlags = takeOpt(args, '--js-flags', '');
const reps = Number(takeOpt(args, '--reps', 7)), rounds = Number(takeOpt(args, '--rounds', 3));
const DW = '112x112x32s1,112x112x96s2,56x56x144s1,56x56x144s2,28x28x192s1,28x28x192s2,14x14x384s1,14x14x576s1,14x14x576s2,7x7x960s1';
const GEMM = '12544x96x16,12544x16x32,12544x32x27,3136x144x24,3136x24x144,784x192x32,196x384x64,49x960x160';
const CONV = '224x224x3x32k3s2', DOT = '1,2,4,8,12';
const XDW = '112x112x16x96s2,56x56x24x144s1,56x56x24x144s2,28x28x32x192s1,28x28x32x192s2,14x14x64x384s1,14x14x96x576s1,14x14x96x576s2,7x7x160x960s1';
const shapes = takeOpt(args, '--shapes', {dw: DW, gemm: GEMM, conv: CONV, dot: DOT, xdw: XDW}[family] || DW).split(',').map((s) => s.split(/[xks]/).map(Number));
const libs = args;
if (!libs.length || !['dw', 'gemm', 'conv', 'dot', 'xdw'].includes(family)) {
  console.error('usage: node bench/wasm/kernel-bench.mjs [--family dw|gemm|conv|dot|xdw] [--kernel N] [--reps N] [--rounds N] [--shapes ...] LIB.a ...');
  process.exit(2);
}
const chromium = findChromium();
if (!chromium) { console.log('SKIP: no chromium installed'); process.exit(77); }

// one harness module per library (threads libraries need -pthread; the others refuse it)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfcc-kernel-bench-'));
const env = {...process.env, EMSDK_PYTHON: process.env.EMSDK_PYTHON || '/usr/bin/python3'};
if (fs.existsSync('/usr/share/nodejs/acorn')) env.NODE_PATH = '/usr/share/nodejs';
libs.forEach((lib, i) => {
  const out = path.join(dir, `m${i}.mjs`);
  const link = (threads) => execFileSync('emcc', ['-O2', '-msimd128', '-mrelaxed-simd', ...(threads ? ['-pthread'] : []),
    `-I${ROOT}/include`, `-I${ROOT}/src`, path.join(HERE, 'kernel-harness.c'), path.resolve(lib),
    '-sMODULARIZE=1', '-sEXPORT_ES6=1', '-sENVIRONMENT=web,worker', '-sINITIAL_MEMORY=256MB', '-sTOTAL_STACK=5MB',
    '-sEXPORTED_FUNCTIONS=_kh_dw,_kh_gemm,_kh_conv,_kh_xdw,_kh_dot_chain,_kh_rdot_exact,_kh_kernel_name,_malloc',
    '-sEXPORTED_RUNTIME_METHODS=UTF8ToString', ...(jsFlags ? ['--profiling-funcs'] : []), '-o', out], {env, stdio: 'pipe'});
  try { link(true); } catch { link(false); }
  const wasm = out.replace(/\.mjs$/, '.wasm');
  const dis = execFileSync('wasm-dis', [wasm], {maxBuffer: 1 << 30}).toString();
  const counts = ['f32x4.relaxed_fma', 'f64x2.relaxed_fma'].map((n) => [n, (dis.match(new RegExp(n.replace('.', '\\.'), 'g')) || []).length]).filter(([, c]) => c > 0);
  if (counts.length) {
    execFileSync('node', [path.join(ROOT, 'scripts', 'wasm-relaxed.mjs'), wasm, wasm + '.r', ...counts.map(([n, c]) => `${n}=${c}`)], {stdio: 'pipe'});
    fs.renameSync(wasm + '.r', wasm);
  }
});
fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>kernel-bench</title>');

const MIME = {'.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html'};
const {server, base} = await serveStatic({'/': dir}, MIME);
const browser = launchChromium(chromium, {extraArgs: jsFlags ? [`--js-flags=${jsFlags}`] : []});
const sid = await browser.openPage(`${base}/index.html`);
await sleep(500);
const page = async (base, n, family, kernel, shapes, reps, rounds) => {
  const ms = [];
  for (let i = 0; i < n; i++) ms.push(await (await import(`${base}/m${i}.mjs`)).default());
  const info = ms.map((M) => ({rdot: M._kh_rdot_exact(), name: M.UTF8ToString(M._kh_kernel_name(family === 'dw' ? 0 : 1, kernel))}));
  const rows = [];
  for (const sh of shapes) {
    const t = ms.map(() => Infinity), sums = ms.map(() => 0);
    const work = family === 'dot' ? 0 : family === 'xdw' ? sh[0] * sh[1] * sh[2] * sh[3] + Math.ceil(sh[0] / sh[4]) * Math.ceil(sh[1] / sh[4]) * sh[3] * 9 : family === 'dw' ? sh[0] * sh[1] * sh[2] * 9 / sh[3] / sh[3]
      : family === 'conv' ? Math.ceil(sh[0] / sh[5]) * Math.ceil(sh[1] / sh[5]) * sh[3] * sh[4] * sh[4] * sh[2] : sh[0] * sh[1] * sh[2];
    const iters = family === 'dot' ? 2000000 : Math.max(2, Math.round(2e7 / work));
    for (let r = 0; r < rounds; r++)
      ms.forEach((M, i) => {
        const p = M._malloc(4);
        const v = family === 'xdw' ? M._kh_xdw(i % 2, kernel, sh[0], sh[1], sh[2], sh[3], sh[4], iters, reps, p) : family === 'dot' ? Math.min(...Array.from({length: reps}, () => M._kh_dot_chain(sh[0], iters, 7, p))) : family === 'dw' ? M._kh_dw(kernel, sh[0], sh[1], sh[2], sh[3], iters, reps, p)
          : family === 'conv' ? M._kh_conv(kernel, sh[0], sh[1], sh[2], sh[3], sh[4], sh[5], iters, reps, p)
          : M._kh_gemm(kernel, sh[0], sh[1], sh[2], iters, reps, p);
        t[i] = Math.min(t[i], v);
        sums[i] = M.HEAPU32[p >> 2];
      });
    rows.push({shape: sh, work, t, sums});
  }
  return {info, rows};
};
const expr = `(${page})(${JSON.stringify(base)}, ${libs.length}, ${JSON.stringify(family)}, ${kernel}, ${JSON.stringify(shapes)}, ${reps}, ${rounds})`;
const r = await browser.cdp('Runtime.evaluate', {expression: expr, awaitPromise: true, returnByValue: true}, sid);
if (r.exceptionDetails) { console.log(JSON.stringify(r.exceptionDetails).slice(0, 1500)); process.exit(1); }
const {info, rows} = r.result.value;
console.log(`${(await browser.cdp('Browser.getVersion')).product}; ${{dw: 'q8 depthwise 3x3', xdw: 'q8 expand 1x1 + depthwise 3x3, even modules unfused, odd fused', gemm: 'q8 GEMM', conv: 'q8 conv (GEMM driver)', dot: 'relaxed dot product, ns per product (ms column)'}[family]}, kernel row ${kernel}; min over ${rounds} rounds x ${reps} reps; load ${os.loadavg()[0].toFixed(1)}`);
libs.forEach((l, i) => console.log(`  [${i}] ${l}: ${info[i].name} (relaxed dot exact: ${info[i].rdot ? 'yes' : 'no'})`));
console.log(`| shape | ${libs.map((_, i) => `[${i}] ms | GMAC/s`).join(' | ')} |${libs.length > 1 ? ' [last] / [0] | same bytes |' : ''}`);
console.log(`|---|${libs.map(() => '---:|---:').join('|')}|${libs.length > 1 ? '---:|---|' : ''}`);
for (const {shape, work, t, sums} of rows) {
  const name = family === 'dot' ? `${shape[0]} chain(s)` : family === 'dw' ? `${shape[0]}x${shape[1]}x${shape[2]} s${shape[3]}`
    : family === 'conv' ? `${shape[0]}x${shape[1]}x${shape[2]}->${shape[3]} k${shape[4]} s${shape[5]}`
    : family === 'xdw' ? `${shape[0]}x${shape[1]}x${shape[2]}->${shape[3]} s${shape[4]}` : `${shape[0]}x${shape[1]}x${shape[2]}`;
  const cells = t.map((v) => v < 0 ? `error ${v} | -` : `${v.toFixed(4)} | ${work ? (work / v / 1e6).toFixed(1) : '-'}`);
  const extra = libs.length > 1 ? ` ${(t[t.length - 1] / t[0]).toFixed(3)} | ${sums.every((s) => s === sums[0]) ? 'yes' : 'NO'} |` : '';
  console.log(`| ${name} | ${cells.join(' | ')} |${extra}`);
}
if (jsFlags) await sleep(5000); /* let V8 finish writing its traces */
await browser.close();
server.close();
fs.rmSync(dir, {recursive: true, force: true});
process.exit(0);
