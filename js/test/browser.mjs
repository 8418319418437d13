// tfcc-wasm in a real browser: serves test/browser/ (a page that imports the package, loads a
// model, classifies an image and shows the result) on localhost, drives it in headless Chromium
// over the DevTools protocol (--remote-debugging-pipe: no extra npm modules), then checks what
// the page reports and a screenshot of it (green banner, image drawn on the canvas).
//   node js/test/browser.mjs --pkg BUILD/npm/tfcc-wasm [--shared DIR] [--out DIR]
//        [--model mobilenet_v2_224_quant] [--image cat.bmp] [--expect 286]
// Exit 77 (skip) when no Chromium is installed (CHROMIUM=path overrides the search) or the shared
// models are absent.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {fileURLToPath} from 'node:url';
import {findChromium, launchChromium, serveStatic, sleep} from './chromium.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..')));
const shared = opt('--shared', process.env.TFCC_SHARED_DIR || path.join(HERE, '..', '..', '..', 'shared'));
const outDir = path.resolve(opt('--out', '.'));
const modelName = opt('--model', 'mobilenet_v2_224_quant');
const image = opt('--image', 'cat.bmp');
const expect = Number(opt('--expect', 286)); // EXPECTED.md: 286 Egyptian cat, score 0.81
const models = path.join(shared, 'models');

const chromium = findChromium();
if (!chromium) { console.log('SKIP: no chromium installed (apt-get install chromium)'); process.exit(77); }
if (!fs.existsSync(path.join(models, `${modelName}.tflite`))) {
  console.log(`SKIP: no shared model ${modelName} under ${models}`);
  process.exit(77);
}
if (!fs.existsSync(path.join(pkg, 'lib', 'index.mjs'))) {
  console.log(`FAIL: no package at ${pkg} (lib/index.mjs): build it with scripts/build-wasm.sh`);
  process.exit(1);
}

// --- a static server: /pkg/ -> the package, /models/ -> shared models, / -> test/browser/
const ROOTS = {'/pkg/': pkg, '/models/': models, '/': path.join(HERE, 'browser')};
const MIME = {'.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript',
              '.wasm': 'application/wasm', '.txt': 'text/plain', '.bmp': 'image/bmp'};
const {server, base} = await serveStatic(ROOTS, MIME);
const pageUrl = `${base}/index.html?model=/models/${modelName}.tflite` +
                `&image=/models/images/${image}&labels=/models/labels/imagenet_labels.txt`;

// --- Chromium over the DevTools protocol (chromium.mjs)
const browser = launchChromium(chromium);
const cdp = browser.cdp;
let failures = 0;
const fail = (msg) => { failures++; console.log(`FAIL ${msg}`); };
const watchdog = setTimeout(() => { console.log('FAIL: timed out after 180 s\n' + browser.stderr.slice(-2000)); process.exit(1); }, 180000);

async function finish(code) {
  clearTimeout(watchdog);
  await browser.close();
  server.close();
  process.exit(code);
}

// --- PNG decoding (8-bit RGB / RGBA, as Chromium writes screenshots), for the screenshot check
function decodePng(buf) {
  let off = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString('latin1', off + 4, off + 8);
    const body = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0) throw new Error('PNG: not 8-bit RGB(A), non-interlaced');
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    off += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat)), stride = width * channels;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[y * stride + x - channels] : 0, b = y ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? px[(y - 1) * stride + x - channels] : 0;
      let p = row[x];
      if (f === 1) p += a;
      else if (f === 2) p += b;
      else if (f === 3) p += (a + b) >> 1;
      else if (f === 4) { const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c); p += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      px[y * stride + x] = p & 255;
    }
  }
  return {width, height, at: (x, y) => Array.from(px.subarray(y * stride + x * channels, y * stride + x * channels + 3))};
}

try {
  console.log((await cdp('Browser.getVersion')).product);
  const sessionId = await browser.openPage(pageUrl);
  let status = 'loading';
  for (let i = 0; i < 600 && (status === 'loading' || status === undefined); i++) {
    await sleep(200);
    status = await browser.evaluate('document.body ? document.body.dataset.status : undefined', sessionId);
  }
  const summary = JSON.parse(await browser.evaluate('document.body.dataset.result || "{}"', sessionId));
  console.log(`page: status ${status}, ${JSON.stringify(summary)}`);
  for (const l of browser.logs) console.log(`  console: ${l}`);
  if (status !== 'ok') fail(`page status ${status}: ${summary.error || 'no result'}`);
  else if (summary.top1 !== expect) fail(`${modelName} on ${image}: top-1 ${summary.top1} ${summary.label}, expected ${expect}`);

  const shot = Buffer.from((await cdp('Page.captureScreenshot', {format: 'png'}, sessionId)).data, 'base64');
  fs.mkdirSync(outDir, {recursive: true});
  const shotFile = path.join(outDir, 'tfcc-wasm-browser.png');
  fs.writeFileSync(shotFile, shot);
  const png = decodePng(shot);
  const [r, g, b] = png.at(png.width >> 1, 30); // the banner
  if (!(g > 120 && r < 60 && b < 60)) fail(`screenshot ${shotFile}: banner is rgb(${r}, ${g}, ${b}), not green`);
  // the canvas (224 x 224 at 16, 76): the scaled image is drawn, not a blank area
  let n = 0, sum = 0, sum2 = 0;
  for (let y = 80; y < 296; y += 4) for (let x = 20; x < 236; x += 4) { const v = png.at(x, y)[1]; n++; sum += v; sum2 += v * v; }
  const sd = Math.sqrt(sum2 / n - (sum / n) ** 2);
  if (!(sd > 10)) fail(`screenshot ${shotFile}: the canvas looks blank (std dev ${sd.toFixed(1)})`);
  console.log(`screenshot ${shotFile}: ${png.width}x${png.height}, banner rgb(${r}, ${g}, ${b}), canvas std dev ${sd.toFixed(1)}`);
} catch (e) {
  fail(`${e.message}\n${browser.stderr.slice(-2000)}`);
}
console.log(failures ? `${failures} failure(s)` : 'browser: all checks passed');
await finish(failures ? 1 : 0);
