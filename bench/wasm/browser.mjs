// tfcc-wasm vs LiteRT.js vs tfjs-tflite in headless Chromium, at 1 and 2 threads: serves
// page/ cross-origin isolated (COOP/COEP, so SharedArrayBuffer and wasm threads work) on
// localhost with the package (a threads build: scripts/build-wasm.sh --threads), the two peers'
// threaded wasm builds (LiteRT.js loadLiteRt(..., {threads: true}) with cpuOptions.numThreads,
// tfjs-tflite's tflite_web_api_cc_simd_threaded with numThreads) and the models. Rounds are
// interleaved per model and thread count; figures are medians over rounds of the mean ms per
// run, ratios medians of the per-round ratios ("best" = to the faster peer in that round).
//   node bench/wasm/browser.mjs [--tfcc PKG_DIR] [--deps NODE_MODULES] [--threads 1,2]
//        [--rounds 7] [--runs 5] [--warmup-ms 1500] [--models "FILE.tflite:INPUT.npy ..."]
//        [--zoo DIR] [--json OUT] [--js-flags "V8 FLAGS"]
// --js-flags: V8 flags for Chromium, e.g. "--no-enable-avx-vnni" (V8 then lowers the relaxed dot
// product to pmaddubsw: tfcc's self-check fails and its SIMD128 int8 GEMM runs; XNNPACK picks its
// kernels by its own probe).
// Each engine is warmed up alone before the rounds: at least 3 runs and --warmup-ms of running,
// so that V8's background tier-up of every engine's wasm code (Liftoff first, TurboFan later,
// compiled on the same 2 cores the engines' threads run on) is over before anything is timed.
// Defaults: --tfcc build-wasm-threads/npm/tfcc-wasm; --deps and the models as bench.mjs.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {readNpy} from '../../js/test/npy.mjs';
import {findChromium, launchChromium, sleep} from '../../js/test/chromium.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--tfcc', path.join(ROOT, 'build-wasm-threads', 'npm', 'tfcc-wasm')));
let deps = opt('--deps', null);
if (!deps) deps = [path.join(HERE, 'node_modules'), '/tmp/tflite-ref/node_modules'].find((d) => fs.existsSync(path.join(d, '@litertjs', 'core')));
if (!deps) { console.error('bench: no @litertjs/core: run `npm ci` in bench/wasm or pass --deps'); process.exit(2); }
const threads = opt('--threads', '1,2').split(',').map(Number);
const rounds = Number(opt('--rounds', 7)), runs = Number(opt('--runs', 5));
const warmupMs = Number(opt('--warmup-ms', 1500));
const zoo = opt('--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const chromium = findChromium();
if (!chromium) { console.log('SKIP: no chromium installed'); process.exit(77); }

let specs = opt('--models', null)?.split(/\s+/).filter(Boolean);
if (!specs) {
  specs = [];
  for (const arch of ['mobilenet_v2', 'mobilenet_v2.int8', 'resnet18']) {
    const f = path.join(zoo, `${arch}.tflite`);
    if (fs.existsSync(f)) specs.push(`${f}:${path.join(zoo, `${arch.replace('.int8', '')}.input_nhwc.npy`)}`);
  }
}
// /models/<i>.tflite and /models/<i>.bin (the input's raw bytes)
const files = {};
const models = specs.map((s, i) => {
  const [file, inFile] = s.split(':');
  const x = readNpy(inFile).data;
  files[`${i}.tflite`] = fs.readFileSync(file);
  files[`${i}.bin`] = Buffer.from(x.buffer, x.byteOffset, x.byteLength);
  return {name: path.basename(file, '.tflite'), model: `/models/${i}.tflite`, input: `/models/${i}.bin`};
});
files['config.json'] = Buffer.from(JSON.stringify({models, threads, rounds, runs, warmupMs}));

const ROOTS = {'/pkg/': pkg, '/deps/': path.resolve(deps), '/': path.join(HERE, 'page')};
const MIME = {'.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm'};
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const head = {'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp',
                'cross-origin-resource-policy': 'same-origin'};
  if (url.pathname.startsWith('/models/') && files[url.pathname.slice(8)]) {
    res.writeHead(200, {...head, 'content-type': 'application/octet-stream'}).end(files[url.pathname.slice(8)]);
    return;
  }
  const prefix = Object.keys(ROOTS).find((p) => url.pathname.startsWith(p));
  const root = ROOTS[prefix];
  const file = path.resolve(root, '.' + decodeURIComponent(url.pathname.slice(prefix.length - 1)));
  if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, head).end('not found');
    return;
  }
  res.writeHead(200, {...head, 'content-type': MIME[path.extname(file)] || 'application/octet-stream'});
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/index.html?config=/models/config.json`;

// the page's own lines and errors (not the peers' INFO / WARNING chatter)
const jsFlags = opt('--js-flags', null);
const browser = launchChromium(chromium, {extraArgs: jsFlags ? [`--js-flags=${jsFlags}`] : [], onLog: (s) => (process.env.BENCH_VERBOSE || /^(bench|exception|error)/.test(s)) && console.log(`  ${s}`)});
let code = 0, out = null;
try {
  console.log((await browser.cdp('Browser.getVersion')).product);
  const sid = await browser.openPage(url);
  let status;
  for (;;) {
    await sleep(1000);
    status = await browser.evaluate('document.body ? document.body.dataset.status : undefined', sid);
    if (status === 'ok' || status === 'error') break;
  }
  out = JSON.parse(await browser.evaluate('document.body.dataset.result', sid));
  if (status !== 'ok') throw new Error(out.error);
} catch (e) {
  console.log(`FAIL ${e.message}\n${browser.stderr.slice(-2000)}`);
  code = 1;
}
await browser.close();
server.close();
if (!out || code) process.exit(code || 1);

const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const fmt = (v, d = 2) => (v === undefined ? '-' : v.toFixed(d));
const rows = out.results.map((r) => {
  const p = r.per_round_ms, t = p['tfcc-wasm'] || [], L = p.litert || [], W = p['tfjs-tflite'] || [];
  const ratio = (o) => (t.length && o.length ? median(t.map((v, i) => v / o[i])) : undefined);
  const best = t.length && (L.length || W.length)
    ? median(t.map((v, i) => v / Math.min(L[i] ?? Infinity, W[i] ?? Infinity))) : undefined;
  return {model: r.model, threads: r.threads, ms: Object.fromEntries(Object.entries(p).map(([k, v]) => [k, median(v)])),
          tfcc_litert: ratio(L), tfcc_tfjs: ratio(W), tfcc_best: best};
});
console.log(JSON.stringify({chromium: (out.userAgent.match(/Chrome\/[\d.]+/) || [''])[0], hardwareConcurrency: out.hardwareConcurrency,
                            crossOriginIsolated: out.crossOriginIsolated, rounds, runs_per_round: runs}));
console.log('\n| model | threads | tfcc-wasm ms | LiteRT.js ms | tfjs-tflite ms | tfcc / LiteRT.js | tfcc / tfjs-tflite | tfcc / faster peer |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.model} | ${r.threads} | ${fmt(r.ms['tfcc-wasm'], 1)} | ${fmt(r.ms.litert, 1)} | ${fmt(r.ms['tfjs-tflite'], 1)} | ` +
              `${fmt(r.tfcc_litert, 3)} | ${fmt(r.tfcc_tfjs, 3)} | ${fmt(r.tfcc_best, 3)} |`);
}
const json = opt('--json', null);
if (json) fs.writeFileSync(json, JSON.stringify({summary: {rounds, runs, ...out, results: undefined}, rows, raw: out.results}, null, 2) + '\n');
