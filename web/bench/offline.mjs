// Release offline test: after one visit the service worker has every bundle, so with the
// network gone each game reloads and plays (a duel starts and deals its hand, its hint
// answers); a new
// release (a changed sw.js) replaces the old cache and leaves only its own. Run by
// scripts/dev test after the release build: `node web/bench/offline.mjs`.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serveDist } from './serve.mjs';

const root = new URL('../../', import.meta.url).pathname;
// A copy of dist/, so the "new release" below changes nothing in the real one.
const site = await mkdtemp(join(tmpdir(), 'offline-'));
await cp(`${root}dist/`, site, { recursive: true });
const { server, base } = await serveDist(`${site}/`);
const browser = await launch();
const context = await browser.newContext();
const page = await context.newPage();
const problems = [];
const check = (ok, what) => {
  if (ok) console.log(`ok: ${what}`);
  else problems.push(`failed: ${what}`);
};
const seen = async (selector) => page.waitForSelector(selector, { timeout: 10000 }).then(() => true, () => false);
const caches = () => page.evaluate(async () => caches.keys());

// The first visit: the app registers the worker a moment after start-up; wait until it
// controls the page (its install has cached every file by then).
await page.goto(base);
await seen('[data-testid=btn-start]');
const controlled = await page.waitForFunction(
  () => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null || new Promise((ok) => {
    navigator.serviceWorker.addEventListener('controllerchange', () => ok(true));
  })),
  null,
  { timeout: 15000 },
).then(() => true, () => false);
check(controlled, 'the service worker controls the page after one visit');
const first = await caches();
check(first.length === 1 && first[0].startsWith('games-'), `one release cache (${first.join(', ')})`);

await context.setOffline(true);
await page.reload();
check(await seen('[data-testid=btn-start]'), 'offline: the home page reloads');
await page.click('[data-testid=btn-start]');
check(await seen('[data-testid=zone-hand] [data-testid=card]'), 'offline: a duel starts and deals its hand');
// The hint's worker runs the duel solver's module, which this page never loaded before.
await page.click('[data-testid=btn-hint]');
check(await seen('[data-testid=hint-result]'), "offline: the duel's hint answers (the duel solver's module comes from the cache)");
await page.goto(`${base}battle-line/#/battle-line`);
check(await seen('[data-testid=mode-cpu]'), 'offline: Battle Line opens');
await page.goto(`${base}quantum-gomoku/#/quantum-gomoku`);
check(await seen('[data-testid=board]'), 'offline: Quantum Gomoku opens');
await context.setOffline(false);

// A new release: one more file changes sw.js's version; the next visit installs it and
// its activation deletes the old cache.
const sw = await readFile(join(site, 'sw.js'), 'utf8');
const next = sw.replace(/const VERSION = "([0-9a-f]+)"/, 'const VERSION = "$1-next"');
check(next !== sw, 'sw.js carries its release version');
await writeFile(join(site, 'sw.js'), next);
await page.goto(base);
await seen('[data-testid=btn-start]');
let replaced = false;
for (let i = 0; i < 75 && !replaced; i += 1) {
  const keys = await caches();
  replaced = keys.length === 1 && keys[0].endsWith('-next');
  if (!replaced) await page.waitForTimeout(200);
}
check(replaced, `a new release replaces the cache (${(await caches()).join(', ')})`);

await browser.close();
server.close();
await rm(site, { recursive: true, force: true });
if (problems.length > 0) {
  console.log(problems.join('\n'));
  process.exit(1);
}
console.log('offline: every game opens offline after one visit');
