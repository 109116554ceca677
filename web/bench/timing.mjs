// Times the release build in headless Chromium and says where the start-up goes: the page
// and its files fetched, the module compiled and instantiated (the app's `app-main` mark),
// the first render (`app-rendered`), the start button in the DOM, then "start -> five
// cards in hand" and "click Activate -> dialog in the DOM". Every figure is measured in the
// page (from the navigation's start, by observers installed before any page script), so
// the driver's own round trips are not counted. Run by `scripts/dev bench` after the
// release build; prints medians over RUNS page loads (each in a fresh browser context).
//
// `node web/bench/timing.mjs [DIST ...]` (default dist/): with several folders the runs
// alternate between them, so a busy machine slows each the same (a paired comparison,
// e.g. a copy of an older dist/ against the new one).
import { launch, serveDist } from './serve.mjs';

const RUNS = Number(process.env.RUNS ?? 7);
const dists = process.argv.slice(2);
if (dists.length === 0) dists.push(new URL('../../dist/', import.meta.url).pathname);
const servers = await Promise.all(dists.map((d) => serveDist(d.endsWith('/') ? d : `${d}/`)));
const browser = await launch();

const METRICS = [
  ['html', 'page fetched (navigation responseEnd)'],
  ['files', 'its css + js + wasm fetched'],
  ['main', 'module compiled + instantiated (app-main)'],
  ['rendered', 'first render done (app-rendered)'],
  ['button', 'home ready: start button in the DOM'],
  ['fcp', 'first contentful paint'],
  ['hand', 'click start -> five cards in hand'],
  ['total', 'home -> start -> playable hand (button + hand)'],
  ['seen', 'home ready as the driver sees it (old measure)'],
  ['activate', 'click Activate -> dialog in the DOM'],
];
const results = dists.map(() => Object.fromEntries(METRICS.map(([k]) => [k, []])));
const outside = new Set();

async function run(base, out) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The app must make no request beyond its own origin.
  page.on('request', (r) => { if (!r.url().startsWith(base)) outside.add(r.url()); });
  await page.addInitScript(() => {
    window.__t = {};
    new MutationObserver((_, obs) => {
      if (document.querySelector('[data-testid=btn-start]')) {
        window.__t.button = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__t.fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
  });

  await page.goto(`${base}#/`);
  await page.waitForSelector('[data-testid=btn-start]');
  out.seen.push(await page.evaluate(() => performance.now()));
  // The first contentful paint is reported a frame after it happens.
  await page.waitForFunction(() => window.__t.fcp !== undefined, null, { timeout: 5000 }).catch(() => {});
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const files = performance.getEntriesByType('resource')
      .filter((e) => /\.(css|js|wasm)$/.test(new URL(e.name).pathname) && !e.name.includes('/snippets/'));
    const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    return {
      html: nav.responseEnd,
      files: Math.max(...files.map((e) => e.responseEnd)),
      main: mark('app-main'),
      rendered: mark('app-rendered'),
      button: window.__t.button,
      fcp: window.__t.fcp ?? NaN,
    };
  });
  for (const k of Object.keys(t)) out[k].push(t[k]);

  // In-page timing: click, then wait for the DOM to show the result.
  const until = (click, selector, count = 1) => page.evaluate(([click, selector, count]) => new Promise((done) => {
    const t0 = performance.now();
    const ready = () => document.querySelectorAll(selector).length >= count;
    const obs = new MutationObserver(() => { if (ready()) { obs.disconnect(); done(performance.now() - t0); } });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    document.querySelector(click).click();
    if (ready()) { obs.disconnect(); done(performance.now() - t0); }
  }), [click, selector, count]);

  const hand = await until('[data-testid=btn-start]', '[data-testid=zone-hand] [data-testid=card]', 5);
  out.hand.push(hand);
  out.total.push(t.button + hand);

  // Graceful Charity in the opening hand of seed 1 (see web/tests/common/seeds.rs).
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${base}#/simulator/exodia-deck?seed=1`);
  await page.reload();
  await page.click("[data-testid=zone-hand] [data-card-id='79571449']");
  out.activate.push(await until('[data-testid=card-menu] [data-testid=btn-activate]', '[data-testid=effect-dialog]'));
  await context.close();
}

for (let i = 0; i < RUNS; i++) {
  for (const [d, { base }] of servers.entries()) await run(base, results[d]);
}

await browser.close();
for (const { server } of servers) server.close();
const sorted = (xs) => xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
const pick = (xs, p) => { const s = sorted(xs); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN; };
const fmt = (x) => (Number.isNaN(x) ? '-' : `${x.toFixed(1)} ms`);
for (const [d, dist] of dists.entries()) {
  console.log(`${dist} (median of ${RUNS}, [25th-75th percentile])`);
  for (const [k, label] of METRICS) {
    const xs = results[d][k];
    console.log(`  ${label.padEnd(50)} ${fmt(pick(xs, 0.5)).padStart(10)}  [${fmt(pick(xs, 0.25))} - ${fmt(pick(xs, 0.75))}]`);
  }
}
console.log(`requests outside the page's origin: ${outside.size}`);
