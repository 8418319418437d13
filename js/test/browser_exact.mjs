// The package's outputs in headless Chromium, where the relaxed-SIMD binary runs (relaxed madd
// in the f32 kernels): the convolution conformance cases of
// test/conv.mjs and the shared models of test/models.mjs, quantized outputs bit-exact against
// TensorFlow Lite's, float within those tests' tolerances (page side: test/browser/exact.mjs).
// Node 20 runs that binary only with --experimental-wasm-relaxed-simd, so this is the test of it.
//   node js/test/browser_exact.mjs --pkg BUILD/npm/tfcc-wasm [--shared DIR] [--expect-relaxed]
//        [--expect-relaxed-dot yes|auto|never] [--js-flags FLAGS]
// --expect-relaxed-dot: fails unless the int8 GEMMs ran the relaxed dot product
// (q8-gemm-4x8-wasmrdot, taken where its self-check passes); auto: where the CPU has AVX-VNNI
// (Linux x86-64, /proc/cpuinfo), on which Chromium's V8 computes it as vpdpbusd, exactly;
// never: fails unless they ran the SIMD128 kernel. --js-flags: V8 flags for Chromium, e.g.
// --no-enable-avx-vnni, under which V8 lowers the dot to pmaddubsw, whose 16-bit pair sums
// saturate: the self-check must then fail and the SIMD128 kernel run, outputs as exact
// (ctest wasm.browser_exact_no_vnni).
// Exit 77 (skip) when no Chromium is installed (CHROMIUM=path overrides the search).
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {findChromium, launchChromium, serveStatic, sleep} from './chromium.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..')));
const shared = opt('--shared', process.env.TFCC_SHARED_DIR || path.join(HERE, '..', '..', '..', 'shared'));
const models = path.join(shared, 'models');
const conf = path.join(HERE, '..', '..', 'tests', 'ops', 'conformance');

// models whose ref/ outputs are not valid (test/models.mjs checks them against other files)
const OTHER_REF = new Set(['transpose_conv_shape_input_int16', 'basic_pitch_nmp']);

const chromium = findChromium();
if (!chromium) { console.log('SKIP: no chromium installed (apt-get install chromium)'); process.exit(77); }
if (!fs.existsSync(path.join(pkg, 'lib', 'index.mjs'))) {
  console.log(`FAIL: no package at ${pkg} (lib/index.mjs): build it with scripts/build-wasm.sh`);
  process.exit(1);
}
const cases = fs.readFileSync(path.join(conf, 'cases.txt'), 'utf8').split('\n')
  .filter((l) => /^(conv_2d|depthwise_conv_2d|fully_connected)_/.test(l))
  .map((l) => { const [name, ins, outs, kind] = l.trim().split(/\s+/); return {name, ins: +ins, outs: +outs, kind}; });
const names = fs.existsSync(path.join(models, 'ref')) ? fs.readdirSync(path.join(models, 'ref'))
  .filter((n) => fs.existsSync(path.join(models, `${n}.tflite`)) && fs.existsSync(path.join(models, 'ref', n, 'output_0.npy')))
  .filter((n) => !OTHER_REF.has(n)).sort() : [];

const ROOTS = {'/pkg/': pkg, '/conf/': conf, '/models/': models, '/test/': HERE, '/': path.join(HERE, 'browser')};
const MIME = {'.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm'};
const {server, base} = await serveStatic(ROOTS, MIME);
const jsFlags = opt('--js-flags', '');
const browser = launchChromium(chromium, {extraArgs: jsFlags ? [`--js-flags=${jsFlags}`] : []});
const watchdog = setTimeout(() => { console.log('FAIL: timed out after 600 s'); process.exit(1); }, 600000);
let failures = 0;
try {
  console.log((await browser.cdp('Browser.getVersion')).product);
  const sessionId = await browser.openPage(`${base}/exact.html`);
  await sleep(500);
  const spec = JSON.stringify({pkg: `${base}/pkg/lib/index.mjs`, conf: `${base}/conf`, models: `${base}/models`, cases, names});
  const r = await browser.cdp('Runtime.evaluate', {
    expression: `import('${base}/exact.mjs').then((m) => m.run(${spec}))`, awaitPromise: true, returnByValue: true}, sessionId);
  if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails).slice(0, 800));
  const {binary, q8Gemm, q8Dwconv, checks, failures: bad} = r.result.value;
  console.log(`${binary} binary, int8 GEMM ${q8Gemm}, int8 depthwise ${q8Dwconv}: ${checks} checks (${cases.length} conformance cases, ${names.length} shared models)`);
  for (const f of bad) console.log(`FAIL ${f}`);
  failures += bad.length;
  if (args.includes('--expect-relaxed') && binary !== 'relaxed-SIMD') { console.log('FAIL the relaxed-SIMD binary did not load'); failures++; }
  const wantDot = opt('--expect-relaxed-dot', 'no');
  const vnni = () => { try { return /^flags\s*:.*\bavx_vnni\b/m.test(fs.readFileSync('/proc/cpuinfo', 'utf8')); } catch { return false; } };
  if ((wantDot === 'yes' || (wantDot === 'auto' && vnni())) && q8Gemm !== 'q8-gemm-4x8-wasmrdot') {
    console.log(`FAIL the int8 GEMM is ${q8Gemm}, not the relaxed dot product's q8-gemm-4x8-wasmrdot (its self-check failed in this engine?)`);
    failures++;
  }
  // the depthwise takes the relaxed dot product under the GEMM's self-check, and only then
  const wantDw = q8Gemm === 'q8-gemm-4x8-wasmrdot' ? 'q8-dwconv-8-wasmrdot' : 'q8-dwconv-16-wasmsimd';
  if (q8Dwconv !== wantDw) {
    console.log(`FAIL the int8 depthwise is ${q8Dwconv}, not ${wantDw} (int8 GEMM ${q8Gemm})`);
    failures++;
  }
  if (wantDot === 'never' && q8Gemm !== 'q8-gemm-4x8-wasmsimd') {
    console.log(`FAIL the int8 GEMM is ${q8Gemm}, not the SIMD128 q8-gemm-4x8-wasmsimd (the self-check passed on an engine that should fail it)`);
    failures++;
  }
  for (const l of browser.logs) console.log(`  console: ${l}`);
} catch (e) {
  console.log(`FAIL ${e.message}\n${browser.stderr.slice(-2000)}`);
  failures++;
}
clearTimeout(watchdog);
await browser.close();
server.close();
console.log(failures ? `${failures} failure(s)` : 'browser exact: all checks passed');
process.exit(failures ? 1 : 0);
