// Checks in headless Chromium that the release pages, served by this server,
// run under its Content-Security-Policy: no violation, no page error, the
// Quantum Gomoku page draws stones and its estimate bars (style attributes),
// its computer and its estimate run in the Web Worker (a worker runs under the
// policy of its own script's response, so a script policy that forbade imports
// or wasm would push them back onto the page), and the service worker installs.
// `scripts/dev test` runs it after the release build.
//
// Usage (from the workspace root, after the release build of dist/):
//   cargo build -p quantum-gomoku-server
//   node crates/quantum-gomoku-server/browser/csp_check.mjs [server binary] [dist]
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

const binary = process.argv[2] ?? 'target/debug/quantum-gomoku-server';
const dist = process.argv[3] ?? 'dist';
// Games in memory: the check leaves no database file behind.
const server = spawn(binary, ['--port', '0', '--static-dir', dist, '--db', 'memory'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise((ok, fail) => {
  server.stdout.on('data', (chunk) => {
    const m = /listening on (http:\/\/\S+)/.exec(String(chunk));
    if (m) ok(`${m[1]}/`);
  });
  server.on('exit', (code) => fail(new Error(`server exited with ${code}`)));
});

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const failures = [];
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => failures.push(`page error: ${e}`));
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) failures.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  const visit = async (path) => {
    const response = await page.goto(base + path);
    const csp = response.headers()['content-security-policy'] ?? '';
    if (!csp.includes("script-src 'self' 'wasm-unsafe-eval' 'sha256-")) failures.push(`${path}: policy ${csp}`);
    await page.waitForFunction(() => document.body.children.length > 0, null, { timeout: 15000 });
  };
  await visit('');
  // The service worker caches the whole release with fetch(): under a policy
  // without connect-src it would never install.
  const installed = await page.evaluate(() => Promise.race([
    navigator.serviceWorker.ready.then((r) => r.active !== null),
    new Promise((ok) => setTimeout(() => ok(false), 20000)),
  ]));
  if (!installed) failures.push('the service worker did not install');
  await visit('quantum-gomoku/#/quantum-gomoku');
  for (const cell of ['cell-7-7', 'cell-7-8', 'cell-8-8']) {
    await page.click(`[data-testid="${cell}"]`);
  }
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="stone"]').length === 3);
  // Yew writes the board size and the estimate bars as style attributes.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[style*="width"]')].some((e) => parseFloat(getComputedStyle(e).width) > 0));
  // Against the computer: its move and the estimate are computed in the worker.
  await page.click('[data-testid=new-game]');
  await page.selectOption('[data-testid=qg-opponent]', 'computer-white');
  await page.click('[data-testid=cell-7-7]');
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=qg-computer]');
    return c && c.dataset.ms !== undefined && c.dataset.thinking !== 'true';
  }, null, { timeout: 20000 });
  await page.waitForSelector('[data-testid=win-probability][aria-busy=false]', { timeout: 20000 });
  const ran = await page.evaluate(() => ({
    computer: document.querySelector('[data-testid=qg-computer]').dataset.worker,
    estimate: document.querySelector('[data-testid=win-probability]').dataset.worker,
  }));
  if (ran.computer !== 'true') failures.push('the computer did not think in the Web Worker');
  if (ran.estimate !== 'true') failures.push('the win estimate was not computed in the Web Worker');
  failures.push(...(await page.evaluate(() => window.cspViolations)).map((v) => `violation: ${v}`));
} catch (e) {
  failures.push(String(e));
} finally {
  await browser.close();
  server.kill();
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log('the release pages, their Web Worker and service worker run under the server\'s Content-Security-Policy');
