// The browser bench (see index.html): per model and thread count, the three engines on the
// same input, interleaved rounds (each round runs every engine once, in rotating order), mean ms
// per run in each round. The page posts the per-round figures in document.body.dataset.result;
// the driver (browser.mjs) takes the medians and ratios.
const cfg = await (await fetch(new URLSearchParams(location.search).get('config'))).json();
const logEl = document.getElementById('log');
const log = (s) => { console.log('bench: ' + s); logEl.textContent += s + '\n'; };
const yieldToPage = () => new Promise((r) => setTimeout(r, 0));
// errors inside the engines' worker threads, which the page's console does not show
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url, options) {
    super(url, options);
    this.addEventListener('error', (e) => log(`error in worker ${url}: ${e.message || e.type}`));
  }
};

async function bytesOf(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// ---------------------------------------------------------------- engines
log('loading tfcc-wasm');
const {Runtime} = await import('/pkg/lib/index.mjs');
const tfccRuntimes = {};
async function tfccEngine(bytes, input, threads) {
  const rt = tfccRuntimes[threads] ||= await Runtime.create({threads});
  if (rt.threads !== threads) throw new Error(`tfcc-wasm runs ${rt.threads} thread(s), not ${threads} (not a threads build?)`);
  log(`tfcc-wasm ${threads}T: ${rt.relaxedSimd ? 'relaxed-SIMD' : 'SIMD128'} binary, int8 GEMM ${rt.q8Gemm}`);
  const m = await rt.loadModel(bytes);
  const s = m.createSession();
  const run = () => s.run([input]);
  return {run, close: () => { s.dispose(); m.dispose(); }};
}

let liteRt = null;
async function litertEngine(bytes, input, threads) {
  if (!liteRt) {
    const core = await import('/deps/@litertjs/core/dist/index.js');
    liteRt = await core.loadLiteRt('/deps/@litertjs/core/wasm/', {threads: true});
  }
  const w = liteRt.liteRtWasm, env = liteRt.getDefaultEnvironment();
  const ptr = w._malloc(bytes.length);
  w.HEAPU8.set(bytes, ptr);
  const model = w.loadModel(env.liteRtEnvironment, ptr, bytes.length);
  const compiled = await w.compileModel(env.liteRtEnvironment, model,
      {environment: env, accelerator: 'wasm', cpuOptions: {numThreads: threads}, gpuOptions: {}, webNNOptions: {}});
  const tt = model.getInputTensorType(0, 0);
  const tb = w.LiteRtTensorBuffer.createManaged(env.liteRtEnvironment, w.LiteRtTensorBufferType.HOST_MEMORY, tt, input.length);
  tt.delete();
  const dp = tb.lock(w.LiteRtTensorBufferLockMode.WRITE);
  w.HEAPU8.set(input, dp);
  tb.unlock();
  const run = async () => { const outs = await compiled.run(0, [tb]); for (const o of outs) o.delete(); };
  return {run, close: () => { tb.delete(); compiled.delete(); model.delete(); w._free(ptr); }};
}

let tfweb = null;
async function tfwebEngine(bytes, input, threads) {
  if (!tfweb) {
    const dir = '/deps/@tensorflow/tfjs-tflite/wasm/', base = 'tflite_web_api_cc_simd_threaded';
    await new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = dir + base + '.js';
      s.onload = resolve;
      s.onerror = () => reject(new Error(`${s.src}: not loaded`));
      document.head.appendChild(s);
    });
    tfweb = await globalThis.tflite_web_api_ModuleFactory({locateFile: (p) => dir + p, mainScriptUrlOrBlob: dir + base + '.js'});
  }
  const M = tfweb;
  const ptr = M._malloc(bytes.length);
  M.HEAPU8.set(bytes, ptr);
  const st = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(ptr, bytes.length,
      {numThreads: threads, enableProfiling: false, maxProfilingBufferEntries: 1024});
  if (!st.ok()) throw new Error('tfjs-tflite: ' + st.errorMessage());
  const runner = st.value();
  const d = runner.GetInputs().get(0).data();
  new Uint8Array(d.buffer, d.byteOffset, d.byteLength).set(input);
  const run = () => { if (!runner.Infer()) throw new Error('tfjs-tflite: Infer() failed'); };
  return {run, close: () => { runner.delete(); M._free(ptr); }};
}

const ENGINES = [['tfcc-wasm', tfccEngine], ['litert', litertEngine], ['tfjs-tflite', tfwebEngine]];

// ---------------------------------------------------------------- measurement
try {
  const results = [];
  for (const spec of cfg.models) {
    const bytes = await bytesOf(spec.model), input = await bytesOf(spec.input);
    for (const threads of cfg.threads) {
      const eng = {};
      for (const [name, make] of ENGINES) {
        try {
          eng[name] = await make(bytes, input, threads);
          // warm-up until V8's tier-up is over (browser.mjs --warmup-ms): >= 3 runs, >= warmupMs
          const w0 = performance.now();
          for (let i = 0; i < 3 || performance.now() - w0 < (cfg.warmupMs ?? 0); i++) await eng[name].run();
          log(`${spec.name} ${threads}T ${name}: ready`);
        } catch (e) { log(`${spec.name} ${threads}T ${name}: ${e.message}`); }
      }
      const names = Object.keys(eng), per = Object.fromEntries(names.map((k) => [k, []]));
      for (let r = 0; r < cfg.rounds; r++) {
        for (let j = 0; j < names.length; j++) {
          const k = names[(r + j) % names.length];
          const t0 = performance.now();
          for (let i = 0; i < cfg.runs; i++) await eng[k].run();
          per[k].push((performance.now() - t0) / cfg.runs);
          await yieldToPage();
        }
      }
      for (const k of names) eng[k].close();
      results.push({model: spec.name, threads, per_round_ms: per});
      log(`${spec.name} ${threads}T: ` + names.map((k) => `${k} ${Math.min(...per[k]).toFixed(1)}`).join(', ') + ' (best round ms)');
    }
  }
  document.body.dataset.result = JSON.stringify({results, hardwareConcurrency: navigator.hardwareConcurrency,
                                                 crossOriginIsolated: globalThis.crossOriginIsolated, userAgent: navigator.userAgent});
  document.body.dataset.status = 'ok';
} catch (e) {
  log(`error: ${e.stack || e}`);
  document.body.dataset.result = JSON.stringify({error: String(e.stack || e)});
  document.body.dataset.status = 'error';
}
