// Times the release build in headless Chromium: first load, "home -> start -> playable
// hand", and "click Activate -> DOM updated". Run by `scripts/dev bench` after
// `trunk build --release`; prints medians over RUNS page loads.
import { launch, serveDist } from './serve.mjs';

const RUNS = Number(process.env.RUNS ?? 7);
const { server, base } = await serveDist(new URL('../../dist/', import.meta.url).pathname);
const browser = await launch();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = [], start = [], activate = [];
const outside = new Set();

for (let i = 0; i < RUNS; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The app must make no request beyond its own origin.
  page.on('request', (r) => { if (!r.url().startsWith(base)) outside.add(r.url()); });

  await page.goto(`${base}#/`);
  await page.waitForSelector('[data-testid=btn-start]');
  load.push(await page.evaluate(() => performance.now()));

  // In-page timing: click, then wait for the DOM to show the result.
  const until = (click, selector, count = 1) => page.evaluate(([click, selector, count]) => new Promise((done) => {
    const t0 = performance.now();
    const ready = () => document.querySelectorAll(selector).length >= count;
    const obs = new MutationObserver(() => { if (ready()) { obs.disconnect(); done(performance.now() - t0); } });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    document.querySelector(click).click();
    if (ready()) { obs.disconnect(); done(performance.now() - t0); }
  }), [click, selector, count]);

  start.push(await until('[data-testid=btn-start]', '[data-testid=zone-hand] [data-testid=card]', 5));

  // Graceful Charity in the opening hand of seed 1 (see web/src/test_seeds.rs).
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${base}#/simulator/exodia-deck?seed=1`);
  await page.reload();
  await page.click("[data-testid=zone-hand] [data-card-id='79571449']");
  activate.push(await until('[data-testid=card-menu] [data-testid=btn-activate]', '[data-testid=effect-dialog]'));
  await context.close();
}

await browser.close();
server.close();
const fmt = (x) => `${x.toFixed(1)} ms`;
console.log(`first load to home ready (median of ${RUNS}): ${fmt(median(load))}`);
console.log(`home -> start -> playable hand (median of ${RUNS}): ${fmt(median(start))}`);
console.log(`click Activate -> dialog in DOM (median of ${RUNS}): ${fmt(median(activate))}`);
console.log(`requests outside the page's origin: ${outside.size}`);
if (outside.size > 0) {
  console.log([...outside].join('\n'));
  process.exit(1);
}
