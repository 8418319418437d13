// The page's script: the tfcc-wasm package as a user's page imports it (served at /pkg/), one
// model, one image scaled to the model's input with the browser's own decoder and canvas, top-1
// of the output. Sets body[data-status] to "ok" or "error" and data-result to a JSON summary.
import {Runtime} from '/pkg/lib/index.mjs';

const q = new URLSearchParams(location.search);
const banner = document.getElementById('banner');
const result = document.getElementById('result');

async function classify() {
  const rt = await Runtime.create({threads: 1});
  const model = await rt.loadModel(q.get('model'));
  const session = model.createSession();
  const input = session.inputs[0];
  const [, h, w, c] = input.shape;
  if (c !== 3) throw new Error(`input ${input.name}: expected [1, H, W, 3], got [${input.shape}]`);

  const blob = await (await fetch(q.get('image'))).blob();
  const bitmap = await createImageBitmap(blob, {resizeWidth: w, resizeHeight: h, resizeQuality: 'high'});
  const canvas = document.getElementById('view');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const rgba = ctx.getImageData(0, 0, w, h).data;
  const data = new input.ctor(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    for (let k = 0; k < 3; k++) {
      const v = rgba[4 * i + k];
      // uint8 models take pixels as they are; float models [-1, 1]
      data[3 * i + k] = input.dtype === 'float32' ? v / 127.5 - 1 : v;
    }
  }
  const t0 = performance.now();
  const out = session.run({[input.name]: data});
  const ms = performance.now() - t0;
  const o = session.outputs[0];
  const scores = out[o.name];
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i] > scores[best]) best = i;
  const qz = o.quantization;
  const score = qz ? (scores[best] - qz.zeroPoints[0]) * qz.scales[0] : scores[best];
  const labels = (await (await fetch(q.get('labels'))).text()).split('\n');
  const summary = {top1: best, label: labels[best] || '', score, ms, isa: rt.isa, relaxedSimd: rt.relaxedSimd, version: rt.version};
  session.dispose();
  model.dispose();
  rt.dispose();
  return summary;
}

try {
  const r = await classify();
  banner.textContent = `tfcc-wasm ${r.version} (${r.isa})`;
  result.textContent = `top-1: ${r.top1} ${r.label} (${r.score.toFixed(4)}), ${r.ms.toFixed(1)} ms`;
  document.body.dataset.result = JSON.stringify(r);
  document.body.dataset.status = 'ok';
} catch (e) {
  banner.textContent = 'error';
  result.textContent = String(e && e.message || e);
  document.body.dataset.result = JSON.stringify({error: result.textContent});
  document.body.dataset.status = 'error';
}
