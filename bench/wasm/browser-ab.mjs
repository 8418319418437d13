// A/B of two tfcc-wasm packages in one headless Chromium page (the browser twin of ab.mjs): both
// packages loaded as separate module instances (own wasm memory), the same model in each, single
// runs interleaved (A B, B A, ...), wall time per run (performance.now: the page has no CPU
// clock, so on a loaded machine the minimum says more than the median), the median and minimum
// of each, the median of the per-pair ratios B / A, and whether output 0 has the same bits in
// both. Chromium loads each package's relaxed-SIMD binary (relaxed madd).
//   node bench/wasm/browser-ab.mjs PKG_A PKG_B [--rounds 40] [--threads 1] [--zoo DIR] [MODEL ...]
// MODEL: a zoo name (default mobilenet_v2.int8 mobilenet_v2; input <zoo>/<arch>.input_nhwc.npy).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {takeOpt} from './args.mjs';
import {zooInput} from './page-input.mjs';
import {findChromium, launchChromium, sleep} from '../../js/test/chromium.mjs';

const args = process.argv.slice(2);
const rounds = Number(takeOpt(args, '--rounds', 40));
const threads = Number(takeOpt(args, '--threads', 1));
const zoo = takeOpt(args, '--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const [pkgA, pkgB, ...names] = args;
if (!pkgA || !pkgB) { console.error('usage: node bench/wasm/browser-ab.mjs PKG_A PKG_B [--rounds N] [MODEL ...]'); process.exit(2); }
const models = names.length ? names : ['mobilenet_v2.int8', 'mobilenet_v2'];
const chromium = findChromium();
if (!chromium) { console.log('SKIP: no chromium installed'); process.exit(77); }

const ROOTS = {'/a/': path.resolve(pkgA), '/b/': path.resolve(pkgB), '/zoo/': path.resolve(zoo)};
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const hdr = {'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp'};
  if (url.pathname === '/') { res.writeHead(200, {...hdr, 'content-type': 'text/html'}).end('<!doctype html><title>ab</title>'); return; }
  const prefix = Object.keys(ROOTS).find((p) => url.pathname.startsWith(p));
  const root = prefix && ROOTS[prefix];
  const file = root && path.resolve(root, '.' + decodeURIComponent(url.pathname.slice(prefix.length - 1)));
  if (!file || !file.startsWith(root + path.sep) || !fs.existsSync(file)) { res.writeHead(404).end(); return; }
  const ext = path.extname(file);
  res.writeHead(200, {...hdr, 'content-type': ext === '.wasm' ? 'application/wasm' : /\.m?js$/.test(ext) ? 'text/javascript' : 'application/octet-stream'});
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = launchChromium(chromium);
const sid = await browser.openPage(`${base}/`);
await sleep(500);

// page side: the model's input from the zoo's float .npy (quantized with the input's parameters)
const page = async (base, model, arch, rounds, threads, input) => {
  const mods = [await import(`${base}/a/lib/index.mjs`), await import(`${base}/b/lib/index.mjs`)];
  const bytes = new Uint8Array(await (await fetch(`${base}/zoo/${model}.tflite`)).arrayBuffer());
  const ss = [], rel = [];
  for (const m of mods) {
    const rt = await m.Runtime.create({threads});
    rel.push(rt.relaxedSimd);
    const s = (await rt.loadModel(bytes.slice())).createSession();
    const x = await input(`${base}/zoo/${arch}.input_nhwc.npy`, s.inputs[0]);
    ss.push({s, x});
  }
  const run = (k) => { const t0 = performance.now(); const o = ss[k].s.run([ss[k].x]); return [performance.now() - t0, o]; };
  for (let i = 0; i < 3; i++) { run(0); run(1); }
  const ta = [], tb = [];
  let same = true;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [1, 0] : [0, 1];
    const res = {};
    for (const k of order) res[k] = run(k);
    ta.push(res[0][0]); tb.push(res[1][0]);
    if (r === 0) {
      const oa = Object.values(res[0][1])[0], ob = Object.values(res[1][1])[0];
      const ua = new Uint8Array(oa.buffer, oa.byteOffset, oa.byteLength), ub = new Uint8Array(ob.buffer, ob.byteOffset, ob.byteLength);
      same = ua.length === ub.length && ua.every((v, i) => v === ub[i]);
    }
  }
  return {ta, tb, same, rel};
};
const med = (v) => { const s = [...v].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
console.log(`${(await browser.cdp('Browser.getVersion')).product}; A = ${pkgA}, B = ${pkgB}; ${rounds} interleaved runs, ${threads} thread(s)`);
console.log('| model | A median ms | B median ms | A min ms | B min ms | B / A (median of pairs) | output 0 same bits |');
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const model of models) {
  const arch = model.replace(/\..*$/, '');
  const r = await browser.cdp('Runtime.evaluate', {
    expression: `(${page.toString()})(${JSON.stringify(base)}, ${JSON.stringify(model)}, ${JSON.stringify(arch)}, ${rounds}, ${threads}, ${zooInput.toString()})`,
    awaitPromise: true, returnByValue: true}, sid);
  if (r.exceptionDetails) { console.log(`${model}: ${JSON.stringify(r.exceptionDetails).slice(0, 600)}`); continue; }
  const {ta, tb, same, rel} = r.result.value;
  if (!rel[0] || !rel[1]) console.log(`note: relaxed-SIMD binary A ${rel[0]}, B ${rel[1]}`);
  console.log(`| ${model} | ${med(ta).toFixed(2)} | ${med(tb).toFixed(2)} | ${Math.min(...ta).toFixed(2)} | ${Math.min(...tb).toFixed(2)} | ` +
              `${med(tb.map((b, i) => b / ta[i])).toFixed(3)} | ${same ? 'yes' : 'no'} |`);
}
await browser.close();
server.close();
