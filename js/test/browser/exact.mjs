// Page side of test/browser_exact.mjs: the package's convolution conformance cases (as
// test/conv.mjs) and the shared models (as test/models.mjs) in the browser, where Chromium
// loads the relaxed-SIMD binary (relaxed madd in the f32 kernels), which Node 20 runs only with
// a flag. Quantized outputs bit-exact; float within the tolerances
// of those tests. Returns {binary, q8Gemm, q8Dwconv, checks, failures: [...]}.
import {floatWithin} from '/test/float_compare.mjs';

const DESCR = {
  '<f4': Float32Array, '<f8': Float64Array, '<i4': Int32Array, '<u4': Uint32Array, '<i2': Int16Array,
  '<u2': Uint16Array, '|i1': Int8Array, '|u1': Uint8Array, '|b1': Uint8Array, '<i8': BigInt64Array,
  '<u8': BigUint64Array, '<f2': Uint16Array, '<u1': Uint8Array, '<i1': Int8Array, '<b1': Uint8Array,
};

async function npy(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const buf = new Uint8Array(await res.arrayBuffer());
  const dv = new DataView(buf.buffer);
  const hstart = buf[6] === 1 ? 10 : 12, hlen = buf[6] === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const header = new TextDecoder('latin1').decode(buf.subarray(hstart, hstart + hlen));
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const Ctor = DESCR[descr];
  if (!Ctor) throw new Error(`${url}: dtype ${descr}`);
  const bytes = buf.slice(hstart + hlen);
  return new Ctor(bytes.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
}

// number of elements of got that differ from ref beyond tol(ref) (float_compare.mjs: NaN must match NaN)
function over(got, ref, tol) {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    let a = got[i], b = ref[i];
    if (typeof a === 'bigint') { a = Number(a); b = Number(b); }
    if (!floatWithin(a, b, tol(b))) n++;
  }
  return n;
}

export async function run({pkg, conf, models, cases, names}) {
  const {Runtime} = await import(pkg);
  const rt = await Runtime.create({threads: 1});
  const failures = [];
  let checks = 0;
  for (const c of cases) {
    const m = await rt.loadModel(`${conf}/${c.name}.tflite`);
    const s = m.createSession();
    const ins = [];
    for (let i = 0; i < c.ins; i++) ins.push(await npy(`${conf}/${c.name}.in${i}.npy`));
    const outs = Object.values(s.run(ins));
    for (let o = 0; o < c.outs; o++) {
      const ref = await npy(`${conf}/${c.name}.out${o}.npy`);
      const bad = outs[o].length !== ref.length ? ref.length
        : over(outs[o], ref, c.kind === 'exact' ? () => 0 : (b) => 1e-5 + 1e-5 * Math.abs(b));
      if (bad) failures.push(`${c.name} out${o}: ${bad} of ${ref.length} differ`);
      checks++;
    }
    s.dispose();
    m.dispose();
  }
  for (const name of names) {
    let m, s;
    try {
      m = await rt.loadModel(`${models}/${name}.tflite`);
      s = m.createSession();
    } catch (e) {
      if (!/unsupported/.test(e.message)) failures.push(`${name}: ${e.message}`);
      continue;
    }
    const ins = [];
    for (let i = 0; i < s.inputs.length; i++) ins.push(await npy(`${models}/ref/${name}/input_${i}.npy`));
    const out = s.run(ins);
    for (let i = 0; i < s.outputs.length; i++) {
      const t = s.outputs[i];
      if (t.dtype !== 'float32' && t.dtype !== 'int8' && t.dtype !== 'uint8' && t.dtype !== 'int16') continue;
      const ref = await npy(`${models}/ref/${name}/output_${i}.npy`), got = out[t.name];
      if (got.length !== ref.length) continue; // outputs sized while running: test/models.mjs
      const bad = over(got, ref, t.dtype === 'float32' ? (b) => 1e-3 + 1e-3 * Math.abs(b) : () => 0);
      if (bad) failures.push(`${name} out${i} ${t.dtype}: ${bad} of ${ref.length} differ`);
      checks++;
    }
    s.dispose();
    m.dispose();
  }
  const binary = rt.relaxedSimd ? 'relaxed-SIMD' : 'SIMD128';
  const q8Gemm = rt.q8Gemm, q8Dwconv = rt.q8Dwconv;
  rt.dispose();
  return {binary, q8Gemm, q8Dwconv, checks, failures};
}
