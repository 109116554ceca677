// Plays the release Quantum Gomoku bundle (dist/quantum-gomoku/) against its computer
// opponent in headless Chromium, on both colours, and prints: the computer's decision
// time as measured in the Web Worker, the time from a click to the computer's stone in
// the DOM, the win estimate's time, and the longest main-thread task during play (long
// tasks are the browser's own PerformanceObserver 'longtask' entries). The server sends
// `Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'` (plus the hash of
// Trunk's one inline loader script), so a worker that needed anything else would fail.
// Run by `scripts/dev bench` after the release builds: `node web/bench/quantum-gomoku.mjs`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { launch, serveDist } from './serve.mjs';

const DECISIONS = Number(process.env.DECISIONS ?? 60);
// The whole site is served (the bundle's icons and service worker live at its root);
// DIST=path/ and PAGE=folder/ (PAGE= for the root) point it at another build, e.g. a
// debug `trunk build` of every game.
const dist = process.env.DIST ?? new URL('../../dist/', import.meta.url).pathname;
const pageDir = process.env.PAGE ?? 'quantum-gomoku/';

// Trunk's loader is the page's only inline script (its minified HTML drops the quotes of
// `type=module`); everything else must come from 'self'.
const html = await readFile(`${dist}${pageDir}index.html`, 'utf8');
const inline = [...html.matchAll(/<script type="?module"?>([\s\S]*?)<\/script>/g)]
  .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
const csp = `script-src 'self' 'wasm-unsafe-eval' ${inline.join(' ')}`;
const { server, base } = await serveDist(dist, { 'content-security-policy': csp });
const browser = await launch();
const context = await browser.newContext();
const page = await context.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e}`));
// (The browser's own favicon.ico request 404s: dist/ has none; it is not logged below.)
page.on('console', (m) => {
  if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console error: ${m.text()}`);
});
context.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
// A reload aborts the preloads still in flight (net::ERR_ABORTED): not a failure.
context.on('requestfailed', (r) => {
  if (!r.failure()?.errorText.includes('ERR_ABORTED')) problems.push(`failed request: ${r.url()} ${r.failure()?.errorText}`);
});
page.on('request', (r) => { if (!r.url().startsWith(base)) problems.push(`outside request: ${r.url()}`); });
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
});

await page.goto(`${base}${pageDir}#/quantum-gomoku`);
await page.evaluate(() => localStorage.clear());
await page.reload();
await page.waitForSelector('[data-testid=board]');
await page.waitForSelector('[data-testid=win-probability][aria-busy=false]');
// Play starts here: long tasks before (compiling the module, the first render) are the load's.
const playStart = await page.evaluate(() => performance.now());

const thinkMs = [];      // the computer's decision, measured in the worker
const replyMs = [];      // click (or opponent choice) -> the computer's stone in the DOM
const estimateMs = [];   // the win estimate, measured where it ran
let inWorker = true;
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

const status = () => page.$eval('[data-testid=status-status]', (e) => e.dataset.value);

// Clicks `selector` (a cell) or picks the opponent `choose`, then waits in the page until
// the computer's stone is in the DOM; records that time and the worker's own figure.
async function computerAnswers({ selector, choose }) {
  const wall = await page.evaluate(([selector, choose]) => new Promise((done) => {
    const turn = () => Number(document.querySelector('[data-testid=status-turn]').dataset.value);
    const before = turn();
    const t0 = performance.now();
    const ready = () => {
      const over = document.querySelector('[data-testid=status-status]').dataset.value !== 'playing';
      const thinking = document.querySelector('[data-testid=qg-computer]').dataset.thinking === 'true';
      // The player's stone (when clicking) and then the computer's.
      return over || (!thinking && turn() >= before + (selector ? 2 : 1));
    };
    const obs = new MutationObserver(() => { if (ready()) { obs.disconnect(); done(performance.now() - t0); } });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    if (selector) {
      document.querySelector(selector).click();
    } else {
      const select = document.querySelector('[data-testid=qg-opponent]');
      select.value = choose;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }), [selector, choose]);
  const info = await page.$eval('[data-testid=qg-computer]', (e) => ({ ms: e.dataset.ms, worker: e.dataset.worker }));
  if (info.ms !== undefined) {
    thinkMs.push(Number(info.ms));
    replyMs.push(wall);
    if (info.worker !== 'true') inWorker = false;
  }
}

async function estimate() {
  await page.waitForSelector('[data-testid=win-probability][aria-busy=false]', { timeout: 20000 });
  const e = await page.$eval('[data-testid=win-probability]', (e) => ({ ms: e.dataset.ms, worker: e.dataset.worker }));
  estimateMs.push(Number(e.ms));
  if (e.worker !== 'true') inWorker = false;
}

let colour = 0;
while (thinkMs.length < DECISIONS) {
  // A new game; the computer takes white and black in turn.
  await page.click('[data-testid=new-game]');
  const computer = colour++ % 2 === 0 ? 'computer-white' : 'computer-black';
  if (computer === 'computer-black') {
    await computerAnswers({ choose: computer });
  } else {
    await page.selectOption('[data-testid=qg-opponent]', computer);
  }
  while ((await status()) === 'playing' && thinkMs.length < DECISIONS) {
    // The player places on a random empty cell of the central 9x9, so boards get crowded.
    const cell = await page.evaluate((r) => {
      const empty = [...document.querySelectorAll('[data-testid^=cell-]')].filter((c) => {
        const [, row, col] = c.dataset.testid.split('-').map(Number);
        return !c.querySelector('[data-testid=stone]') && row >= 3 && row <= 11 && col >= 3 && col <= 11;
      });
      return empty.length ? empty[Math.floor(r * empty.length)].dataset.testid : null;
    }, random());
    if (cell === null) break;
    await computerAnswers({ selector: `[data-testid=${cell}]` });
    await estimate();
  }
}

const longTasks = await page.evaluate(() => window.__longTasks);
await browser.close();
server.close();

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const q = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (x) => `${x.toFixed(1)} ms`;
const stats = (xs) => `median ${fmt(q(xs, 0.5))}, p95 ${fmt(q(xs, 0.95))}, max ${fmt(Math.max(...xs))}`;
console.log(`computer's decision in the worker (${thinkMs.length} decisions): ${stats(thinkMs)}`);
console.log(`click -> computer's stone on the page: ${stats(replyMs)}`);
console.log(`win estimate in the worker (${estimateMs.length}): ${stats(estimateMs)}`);
const duringPlay = longTasks.filter((t) => t.start >= playStart).map((t) => t.ms);
console.log(`main-thread long tasks (over 50 ms) during play: ${duringPlay.length}` +
  (duringPlay.length ? ` (${duringPlay.map(fmt).join(', ')})` : '') +
  `; while loading: ${longTasks.length - duringPlay.length}`);
console.log(`everything ran in the worker: ${inWorker}`);
if (!inWorker) problems.push('some job ran on the page instead of the worker');
if (problems.length > 0) {
  console.log(problems.join('\n'));
  process.exit(1);
}
