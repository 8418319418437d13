// tfcc-wasm: the tfcc TensorFlow Lite engine compiled to WebAssembly (SIMD128).
// ES module for Node >= 20 and browsers. The C side is src/tfcc_wasm.c (public tfcc API only);
// the compiled module is tfcc-core.mjs + tfcc-core.wasm next to this file.
import createTfccCore from './tfcc-core.mjs';

const IS_NODE = typeof process === 'object' && process.versions != null && process.versions.node != null;

// tfcc_dtype values (TensorFlow Lite's TensorType) -> name and typed array
const DTYPES = {
  0: ['float32', Float32Array], 1: ['float16', Uint16Array], 2: ['int32', Int32Array],
  3: ['uint8', Uint8Array], 4: ['int64', BigInt64Array], 6: ['bool', Uint8Array],
  7: ['int16', Int16Array], 9: ['int8', Int8Array], 10: ['float64', Float64Array],
  12: ['uint64', BigUint64Array], 15: ['uint32', Uint32Array], 16: ['uint16', Uint16Array],
  // one value per byte, as tfcc's C API holds them (tfcc.h; TFLite packs int4 / uint4 two and
  // int2 four per byte in files): int4 and int2 sign-extended, uint4 zero-extended
  17: ['int4', Int8Array], 19: ['int2', Int8Array], 20: ['uint4', Uint8Array],
  // raw bits: bfloat16 as 16-bit words, float8 as bytes (JavaScript has neither type)
  18: ['bfloat16', Uint16Array], 21: ['float8_e4m3fn', Uint8Array], 22: ['float8_e5m2', Uint8Array],
};

/** Error thrown by tfcc-wasm; `message` is tfcc's own message. */
export class TfccError extends Error {
  constructor(message) { super(message); this.name = 'TfccError'; }
}

let corePromise = null;

// A module of one function whose body is f32x4.relaxed_madd on three v128.const zeros: it
// validates where the engine has relaxed SIMD (Chrome >= 114; Node 20 only with
// --experimental-wasm-relaxed-simd), and there the package loads its relaxed-SIMD binary (the
// f32 GEMM with relaxed_madd, scripts/build-wasm.sh), else the plain SIMD128 one. Same glue,
// same exports: only the kernel's code differs.
const C0 = [0xfd, 0x0c, ...new Array(16).fill(0)];
const RELAXED_PROBE = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7b,
  3, 2, 1, 0, 10, 0x3d, 1, 0x3b, 0, ...C0, ...C0, ...C0, 0xfd, 0x85, 0x02, 0x0b]);
let relaxedLoaded = false;

async function loadCore() {
  if (!corePromise) {
    corePromise = (async () => {
      const opts = {print: () => {}, printErr: (s) => console.warn('tfcc: ' + s)};
      let wasmFile = WebAssembly.validate(RELAXED_PROBE) ? 'tfcc-core-relaxed.wasm' : 'tfcc-core.wasm';
      // the wasm and, in a threads build, the pthreads' worker script lie next to this file
      const near = (p) => new URL(`./${p.replace(/^.*\//, '')}`, import.meta.url);
      if (IS_NODE) {
        const [fs, os, url, module] = await Promise.all(
          [import('node:fs/promises'), import('node:os'), import('node:url'), import('node:module')]);
        // a package built without the relaxed binary falls back to the plain one
        opts.wasmBinary = await fs.readFile(near(wasmFile)).catch(() => {
          wasmFile = 'tfcc-core.wasm';
          return fs.readFile(near(wasmFile));
        });
        // threads build: Emscripten's Node branch wants require and __dirname (src/node-prejs.js),
        // and the worker script as CommonJS (.cjs: this package's .js files are ES modules)
        opts.nodeRequire = module.createRequire(import.meta.url);
        opts.nodeDirname = url.fileURLToPath(new URL('.', import.meta.url));
        opts.locateFile = (p) => url.fileURLToPath(near(p.replace(/\.worker\.js$/, '.worker.cjs')));
        opts.tfccPoolSize = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
      } else {
        opts.locateFile = (p) => near(p === 'tfcc-core.wasm' ? wasmFile : p).href;
        opts.tfccPoolSize = (typeof navigator === 'object' && navigator.hardwareConcurrency) || 4;
      }
      const core = await createTfccCore(opts);
      relaxedLoaded = wasmFile === 'tfcc-core-relaxed.wasm';
      // threads build in Node: the pool's workers must not keep the process alive
      if (IS_NODE && core.PThread) for (const w of core.PThread.unusedWorkers) w.unref();
      return core;
    })();
  }
  return corePromise;
}

async function readModelBytes(src) {
  if (src instanceof Uint8Array) return src;
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  let url = null;
  if (src instanceof URL) url = src;
  else if (typeof src === 'string' && /^(https?|file|blob|data):/i.test(src)) url = new URL(src);
  if (IS_NODE && (typeof src === 'string' && !url || url && url.protocol === 'file:')) {
    const fs = await import('node:fs/promises');
    return new Uint8Array(await fs.readFile(url || src));
  }
  const res = await fetch(url || src);
  if (!res.ok) throw new TfccError(`model ${String(src)}: HTTP ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

// a NUL-terminated copy of an ASCII string in wasm memory (caller frees)
function withString(core, s) {
  const p = core._malloc(s.length + 1);
  for (let i = 0; i < s.length; i++) core.HEAPU8[p + i] = s.charCodeAt(i) & 0x7f;
  core.HEAPU8[p + s.length] = 0;
  return p;
}

/** A runtime: thread count and kernel level shared by the models loaded with it. */
export class Runtime {
  /** @param {{threads?: number, isa?: string}} [options] */
  static async create(options = {}) {
    const core = await loadCore();
    const wanted = Math.max(1, Math.floor(options.threads ?? 1));
    // a build without pthreads runs on the caller only; a threads build has the workers its pool
    // started with the module (a thread started beyond them would wait for the event loop, which
    // a blocking run never returns to)
    const threads = core._tfccw_has_threads() ? Math.min(wanted, 1 + core.PThread.unusedWorkers.length) : 1;
    const isa = options.isa ? withString(core, options.isa) : 0;
    const rt = core._tfccw_runtime_create(threads, isa);
    const level = rt ? core.UTF8ToString(core._tfccw_isa(isa)) : '';
    // the int8 / uint8 GEMM dispatch takes at this level: in the relaxed-SIMD binary, the query
    // runs (once) the self-check of the engine's relaxed dot product against the SIMD128
    // kernel on edge bytes; the relaxed kernel only where they are bit-identical
    const variant = (name) => {
      const fam = withString(core, name);
      const v = rt ? core.UTF8ToString(core._tfccw_kernel_variant(fam, isa)) : '';
      core._free(fam);
      return v;
    };
    const q8 = variant('q8-gemm'), q8dw = variant('q8-dwconv');
    if (isa) core._free(isa);
    if (!rt) throw new TfccError(core.UTF8ToString(core._tfccw_last_error()));
    return new Runtime(core, rt, threads, level, q8, q8dw);
  }

  constructor(core, handle, threads, isa, q8Gemm = '', q8Dwconv = '') {
    this._core = core;
    this._h = handle;
    this.threads = threads;
    /** Kernel dispatch level ("wasmsimd", or "generic" when capped or built without SIMD128). */
    this.isa = isa;
    /** true when the package's relaxed-SIMD binary runs (the engine validates relaxed SIMD). */
    this.relaxedSimd = relaxedLoaded;
    /** The int8 / uint8 GEMM kernel ("q8-gemm-4x8-wasmrdot": the relaxed dot product, where
     * its self-check at the first Runtime.create passed; "q8-gemm-4x8-wasmsimd": SIMD128). */
    this.q8Gemm = q8Gemm;
    /** true when int8 / uint8 GEMMs run the relaxed dot product (q8Gemm above). */
    this.relaxedDot = q8Gemm === 'q8-gemm-4x8-wasmrdot';
    /** The int8 / uint8 depthwise kernel ("q8-dwconv-8-wasmrdot": the relaxed dot product on
     * column quads, under the same self-check; "q8-dwconv-16-wasmsimd": SIMD128). */
    this.q8Dwconv = q8Dwconv;
    this.version = core.UTF8ToString(core._tfccw_version());
  }

  /** Loads a .tflite model from bytes, a URL (fetch) or, in Node, a file path. */
  async loadModel(source) {
    if (!this._h) throw new TfccError('runtime: disposed');
    const bytes = await readModelBytes(source);
    const c = this._core;
    const p = c._malloc(bytes.length);
    if (!p) throw new TfccError(`model: cannot allocate ${bytes.length} bytes in wasm memory`);
    c.HEAPU8.set(bytes, p);
    const m = c._tfccw_model_load(this._h, p, bytes.length); // owns p from here, also on failure
    if (!m) throw new TfccError(c.UTF8ToString(c._tfccw_last_error()));
    return new Model(this, m);
  }

  dispose() {
    if (this._h) this._core._tfccw_runtime_destroy(this._h);
    this._h = 0;
  }
}

export class Model {
  constructor(runtime, handle) { this.runtime = runtime; this._h = handle; }

  createSession() {
    if (!this._h) throw new TfccError('model: disposed');
    const c = this.runtime._core;
    const s = c._tfccw_session_create(this._h);
    if (!s) throw new TfccError(c.UTF8ToString(c._tfccw_last_error()));
    return new Session(this, s);
  }

  /** Drops this handle's reference; sessions keep the model alive until they are disposed. */
  dispose() {
    if (this._h) this.runtime._core._tfccw_model_release(this._h);
    this._h = 0;
  }
}

function readInfo(c, s, output, index) {
  const p = c._tfccw_io_info(s, output ? 1 : 0, index);
  if (!p) throw new TfccError(c.UTF8ToString(c._tfccw_last_error()));
  const w = c.HEAP32.subarray(p >> 2, (p >> 2) + 9 + c._tfccw_max_dims());
  const [dtypeName, Ctor] = DTYPES[w[1]] || [`dtype${w[1]}`, null];
  const rank = w[2];
  const info = {
    name: c.UTF8ToString(w[0]),
    dtype: dtypeName,
    shape: Array.from(w.subarray(9, 9 + rank)),
    bytes: w[3] >>> 0,
    quantization: null,
    dynamic: w[8] !== 0,
  };
  if (w[4] > 0) {
    const n = w[4];
    info.quantization = {
      scales: Array.from(c.HEAPF32.subarray(w[5] >> 2, (w[5] >> 2) + n)),
      zeroPoints: Array.from(c.HEAP32.subarray(w[6] >> 2, (w[6] >> 2) + n)),
      axis: n > 1 ? w[7] : -1,
    };
  }
  Object.defineProperty(info, 'ctor', {value: Ctor, enumerable: false});
  return info;
}

/** A session: its own buffers in wasm memory; one run at a time. */
export class Session {
  constructor(model, handle) {
    this.model = model;
    this._h = handle;
    const c = this._core = model.runtime._core;
    const nIn = c._tfccw_io_count(handle, 0), nOut = c._tfccw_io_count(handle, 1);
    /** @type {TensorInfo[]} */
    this.inputs = [];
    /** @type {TensorInfo[]} */
    this.outputs = [];
    for (let i = 0; i < nIn; i++) this.inputs.push(readInfo(c, handle, false, i));
    for (let i = 0; i < nOut; i++) this.outputs.push(readInfo(c, handle, true, i));
    for (const t of [...this.inputs, ...this.outputs]) {
      if (!t.ctor) {
        this.dispose();
        throw new TfccError(`tensor ${t.name}: dtype ${t.dtype} is not supported by tfcc-wasm`);
      }
    }
    // one buffer per input and static output, and the pointer arrays run() passes
    this._inBuf = this.inputs.map((t) => this._alloc(t.bytes));
    this._outBuf = this.outputs.map((t) => (t.dynamic ? 0 : this._alloc(t.bytes)));
    this._inPtrs = this._alloc(4 * Math.max(1, nIn));
    this._outPtrs = this._alloc(4 * Math.max(1, nOut));
    c.HEAPU32.set(this._inBuf, this._inPtrs >> 2);
    c.HEAPU32.set(this._outBuf, this._outPtrs >> 2);
  }

  _alloc(bytes) {
    const p = this._core._malloc(Math.max(16, bytes));
    if (!p) throw new TfccError(`session: cannot allocate ${bytes} bytes in wasm memory`);
    (this._owned ||= []).push(p);
    return p;
  }

  _index(list, key, what) {
    if (typeof key === 'number') {
      if (key >= 0 && key < list.length) return key;
    } else {
      const i = list.findIndex((t) => t.name === key);
      if (i >= 0) return i;
    }
    throw new TfccError(`${what} '${key}': no such ${what} (${what}s: ${list.map((t) => t.name).join(', ')})`);
  }

  /** Zero-copy: a view of input `key`'s buffer in wasm memory; fill it, then run() without
   * that input. Valid until wasm memory grows (a later loadModel / createSession). */
  inputView(key) {
    const i = this._index(this.inputs, key, 'input');
    const t = this.inputs[i];
    return new t.ctor(this._core.HEAPU8.buffer, this._inBuf[i], t.bytes / t.ctor.BYTES_PER_ELEMENT);
  }

  /**
   * Runs the model. `inputs`: {name: TypedArray} or [TypedArray, ...] in input order (inputs
   * left out keep what their buffer holds, see inputView). Returns {name: TypedArray} for every
   * output: copies, or with {copy: false} views of the session's buffers in wasm memory (valid
   * until the next run, dispose or wasm memory growth).
   */
  run(inputs = {}, options = {}) {
    if (!this._h) throw new TfccError('session: disposed');
    const c = this._core;
    const entries = Array.isArray(inputs) ? inputs.map((v, i) => [i, v]) : Object.entries(inputs);
    for (const [key, value] of entries) {
      const i = this._index(this.inputs, Array.isArray(inputs) ? key : key, 'input');
      const t = this.inputs[i];
      if (!ArrayBuffer.isView(value)) throw new TfccError(`input '${t.name}': expected a typed array`);
      if (value.byteLength !== t.bytes) {
        throw new TfccError(`input '${t.name}': ${value.byteLength} bytes given, the tensor ` +
                            `(${t.dtype} [${t.shape.join(', ')}]) has ${t.bytes}`);
      }
      c.HEAPU8.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), this._inBuf[i]);
    }
    const st = c._tfccw_session_run(this._h, this._inPtrs, this._outPtrs);
    if (st !== 0) throw new TfccError(c.UTF8ToString(c._tfccw_session_error(this._h)));
    const copy = options.copy !== false;
    const out = {};
    this.outputs.forEach((t, i) => {
      let ptr = this._outBuf[i], bytes = t.bytes;
      if (t.dynamic) {
        const cell = this._alloc(4);
        ptr = c._tfccw_output_data(this._h, i, cell);
        bytes = c.HEAPU32[cell >> 2];
        this._owned.pop();
        c._free(cell);
        if (!ptr && bytes) throw new TfccError(c.UTF8ToString(c._tfccw_last_error()));
        Object.assign(t, readInfo(c, this._h, true, i));
      }
      const view = new t.ctor(c.HEAPU8.buffer, ptr, bytes / t.ctor.BYTES_PER_ELEMENT);
      out[t.name] = copy ? view.slice() : view;
    });
    return out;
  }

  /** Per-operator timing: profile(true) turns it on; profile() returns the operators in run
   * order, {node, op, kernel, runs, ms (per run), macs}, accumulated since it was turned on. */
  profile(enable) {
    if (!this._h) throw new TfccError('session: disposed');
    const c = this._core;
    if (enable !== undefined) {
      const st = c._tfccw_session_set_profiling(this._h, enable ? 1 : 0);
      if (st !== 0) throw new TfccError(`profile: ${c.UTF8ToString(c._tfccw_status_str(st))}`);
      return [];
    }
    const n = c.HEAP32[c._tfccw_session_profile(this._h, -1) >> 2];
    const out = [];
    for (let i = 0; i < n; i++) {
      const p = c._tfccw_session_profile(this._h, i) >> 2;
      const runs = c.HEAP32[p + 3];
      out.push({node: c.HEAP32[p + 2], op: c.UTF8ToString(c.HEAP32[p]), kernel: c.UTF8ToString(c.HEAP32[p + 1]),
                runs, ms: runs ? c.HEAPF64[(p >> 1) + 2] / runs : 0, macs: c.HEAPF64[(p >> 1) + 3]});
    }
    return out;
  }

  dispose() {
    const c = this._core;
    if (this._h) c._tfccw_session_destroy(this._h);
    this._h = 0;
    for (const p of this._owned || []) c._free(p);
    this._owned = [];
  }
}

export default {Runtime, Model, Session, TfccError};
