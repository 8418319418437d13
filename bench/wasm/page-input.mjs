// Page side of the browser tools (browser-ab.mjs, browser-profile.mjs), passed into the page as
// source (zooInput.toString()): a zoo model's input from its float .npy at url (the 'v1' header
// of make_pairs.py's files), quantized with input tensor t's parameters where t is int8 / uint8.
export async function zooInput(url, t) {
  const buf = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const hl = new DataView(buf.buffer).getUint16(8, true);
  const f = new Float32Array(buf.slice(10 + hl).buffer);
  if (t.dtype === 'float32') return f;
  const [lo, hi, C] = t.dtype === 'int8' ? [-128, 127, Int8Array] : [0, 255, Uint8Array];
  const x = new C(f.length), s = t.quantization.scale[0], z = t.quantization.zeroPoint[0];
  for (let i = 0; i < f.length; i++) x[i] = Math.max(lo, Math.min(hi, Math.round(f[i] / s + z)));
  return x;
}
