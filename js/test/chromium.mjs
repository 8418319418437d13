// Headless Chromium over the DevTools protocol (--remote-debugging-pipe: fds 3 (to it) and 4
// (from it), NUL-delimited JSON; no npm modules), for the browser test and the browser bench.
//   const b = await launchChromium(path[, {onLog, extraArgs}]); const s = await b.openPage(url, {width, height});
//   await b.cdp('Runtime.evaluate', {...}, s); b.logs (console output); await b.close();
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {spawn, spawnSync} from 'node:child_process';

/** The Chromium binary (CHROMIUM overrides the search), or null. */
export function findChromium() {
  const names = process.env.CHROMIUM ? [process.env.CHROMIUM] : ['chromium', 'chromium-browser', 'google-chrome'];
  for (const n of names) {
    const r = spawnSync('sh', ['-c', `command -v "${n}"`], {encoding: 'utf8'});
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return null;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function launchChromium(chromium, {onLog, extraArgs = []} = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tfcc-chromium-'));
  const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                                   '--no-first-run', '--remote-debugging-pipe', `--user-data-dir=${profile}`, ...extraArgs, 'about:blank'],
                        {stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe']});
  const b = {stderr: '', logs: []};
  browser.stderr.on('data', (d) => { b.stderr += d; });
  const pending = new Map();
  let nextId = 0, inbuf = Buffer.alloc(0);
  const log = (s) => { b.logs.push(s); if (onLog) onLog(s); };
  browser.stdio[4].on('data', (d) => {
    inbuf = Buffer.concat([inbuf, d]);
    for (let i; (i = inbuf.indexOf(0)) >= 0; inbuf = inbuf.subarray(i + 1)) {
      const m = JSON.parse(inbuf.subarray(0, i).toString());
      if (m.id && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
      else if (m.method === 'Runtime.consoleAPICalled') log(m.params.args.map((a) => a.value ?? a.description).join(' '));
      else if (m.method === 'Runtime.exceptionThrown') log('exception: ' + JSON.stringify(m.params.exceptionDetails).slice(0, 400));
    }
  });
  b.cdp = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
    browser.stdio[3].write(JSON.stringify({id, method, params, ...(sessionId ? {sessionId} : {})}) + '\0');
  });
  /** A new tab with console capture, at `url`; returns its session id. */
  b.openPage = async (url, {width = 480, height = 400} = {}) => {
    const {targetId} = await b.cdp('Target.createTarget', {url: 'about:blank'});
    const {sessionId} = await b.cdp('Target.attachToTarget', {targetId, flatten: true});
    await b.cdp('Runtime.enable', {}, sessionId);
    await b.cdp('Emulation.setDeviceMetricsOverride', {width, height, deviceScaleFactor: 1, mobile: false}, sessionId);
    await b.cdp('Page.navigate', {url}, sessionId);
    return sessionId;
  };
  /** The value of a page expression (JSON-able). */
  b.evaluate = async (expression, sessionId) => (await b.cdp('Runtime.evaluate', {expression, returnByValue: true}, sessionId)).result.value;
  b.close = async () => {
    await Promise.race([b.cdp('Browser.close').catch(() => {}), sleep(2000)]);
    if (browser.exitCode === null) {
      const exited = new Promise((r) => browser.once('exit', r));
      browser.kill('SIGKILL');
      await Promise.race([exited, sleep(5000)]);
    }
    try {
      fs.rmSync(profile, {recursive: true, force: true, maxRetries: 5, retryDelay: 200});
    } catch (e) {
      console.log(`note: ${profile} not removed: ${e.message}`);
    }
  };
  return b;
}

/** A static server on 127.0.0.1 (any free port) of roots {'/prefix/': dir, ..., '/': dir},
 * cross-origin isolated (COOP/COEP, so that a threads build has SharedArrayBuffer); content
 * types by extension from mime. Resolves to {server, base} (base: 'http://127.0.0.1:PORT'). */
export async function serveStatic(roots, mime) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const prefix = Object.keys(roots).find((p) => url.pathname.startsWith(p));
    const root = roots[prefix];
    const file = path.resolve(root, '.' + decodeURIComponent(url.pathname.slice(prefix.length - 1)));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {'content-type': mime[path.extname(file)] || 'application/octet-stream',
                        'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp'});
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {server, base: `http://127.0.0.1:${server.address().port}`};
}
