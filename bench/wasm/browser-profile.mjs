// tfcc-wasm's per-operator profile in headless Chromium (the browser twin of the profiles that
// profile-ab.mjs takes in Node): the package's relaxed-SIMD binary where Chromium validates it,
// blocks of profiled runs (session.profile()), each node's median over the blocks of its mean ms,
// then the sums by kernel (share of the run). Wall time (the page has no CPU clock).
//   node bench/wasm/browser-profile.mjs PKG [--blocks 10] [--runs 4] [--threads 1] [--zoo DIR] [--nodes]
//        [--js-flags "V8 FLAGS"] [MODEL]
// --js-flags: e.g. "--no-enable-avx-vnni" (the relaxed dot product on pmaddubsw: the SIMD128 int8 GEMM runs).
// MODEL: a zoo name (default mobilenet_v2; input <zoo>/<arch>.input_nhwc.npy).
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {takeOpt} from './args.mjs';
import {zooInput} from './page-input.mjs';
import {findChromium, launchChromium, serveStatic, sleep} from '../../js/test/chromium.mjs';

const args = process.argv.slice(2);
const blocks = Number(takeOpt(args, '--blocks', 10)), runs = Number(takeOpt(args, '--runs', 4));
const threads = Number(takeOpt(args, '--threads', 1));
const zoo = takeOpt(args, '--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const jsFlags = takeOpt(args, '--js-flags', null);
const nodes = args.includes('--nodes');
const [pkg, model = 'mobilenet_v2'] = args.filter((a) => a !== '--nodes');
if (!pkg) { console.error('usage: node bench/wasm/browser-profile.mjs PKG [--blocks N] [--runs N] [MODEL]'); process.exit(2); }
const chromium = findChromium();
if (!chromium) { console.log('SKIP: no chromium installed'); process.exit(77); }
const MIME = {'.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html'};
const {server, base} = await serveStatic({'/pkg/': path.resolve(pkg), '/zoo/': path.resolve(zoo), '/': path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'js', 'test', 'browser')}, MIME);
const browser = launchChromium(chromium, {extraArgs: jsFlags ? [`--js-flags=${jsFlags}`] : []});
const sid = await browser.openPage(`${base}/exact.html`);
await sleep(500);

const page = async (base, model, arch, blocks, runs, threads, input) => {
  const m = await import(`${base}/pkg/lib/index.mjs`);
  const rt = await m.Runtime.create({threads});
  const s = (await rt.loadModel(new Uint8Array(await (await fetch(`${base}/zoo/${model}.tflite`)).arrayBuffer()))).createSession();
  const x = await input(`${base}/zoo/${arch}.input_nhwc.npy`, s.inputs[0]);
  for (let i = 0; i < 5; i++) s.run([x]);
  const res = [], whole = [];
  for (let b = 0; b < blocks; b++) {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) s.run([x]);
    whole.push((performance.now() - t0) / runs);
    s.profile(true);
    for (let i = 0; i < runs; i++) s.run([x]);
    res.push(s.profile());
    s.profile(false);
  }
  return {res, whole, relaxed: rt.relaxedSimd};
};
const med = (v) => { const s = [...v].sort((p, q) => p - q); return s[s.length >> 1]; };
const r = await browser.cdp('Runtime.evaluate', {
  expression: `(${page.toString()})(${JSON.stringify(base)}, ${JSON.stringify(model)}, ${JSON.stringify(model.replace(/\..*$/, ''))}, ${blocks}, ${runs}, ${threads}, ${zooInput.toString()})`,
  awaitPromise: true, returnByValue: true}, sid);
if (r.exceptionDetails) { console.log(JSON.stringify(r.exceptionDetails).slice(0, 800)); process.exit(1); }
const {res, whole, relaxed} = r.result.value;
console.log(`${(await browser.cdp('Browser.getVersion')).product}; ${model}; ${relaxed ? 'relaxed-SIMD' : 'SIMD128'} binary; ${threads} thread(s); ` +
            `${blocks} blocks of ${runs} runs; whole run median ${med(whole).toFixed(2)} ms (unprofiled)`);
const per = res[0].map((n, i) => ({...n, ms: med(res.map((p) => p[i].ms))}));
const total = per.reduce((a, n) => a + n.ms, 0);
if (nodes) {
  console.log('| node | op | kernel | ms | GMAC/s |');
  console.log('|---:|---|---|---:|---:|');
  for (const n of per) console.log(`| ${n.node} | ${n.op} | ${n.kernel} | ${n.ms.toFixed(4)} | ${n.macs && n.ms ? (n.macs / n.ms / 1e6).toFixed(1) : '-'} |`);
}
const by = new Map();
for (const n of per) {
  const k = `${n.op} | ${n.kernel}`;
  const e = by.get(k) || {ms: 0, macs: 0, count: 0};
  e.ms += n.ms; e.macs += n.macs || 0; e.count++;
  by.set(k, e);
}
console.log('| op | kernel | nodes | ms | share | GMAC/s |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [k, e] of [...by].sort((p, q) => q[1].ms - p[1].ms))
  console.log(`| ${k} | ${e.count} | ${e.ms.toFixed(3)} | ${(100 * e.ms / total).toFixed(1)}% | ${e.macs ? (e.macs / e.ms / 1e6).toFixed(1) : '-'} |`);
console.log(`| all | | ${per.length} | ${total.toFixed(3)} | | |`);
await browser.close();
server.close();
