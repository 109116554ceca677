// Two builds compared in the deck lab's release bundle (dist/deck-lab/) in headless
// Chromium, as a player does it: exodia-deck saved as it is, then edited (one Pot of
// Greed replaced by a second Pot of Duality) and compared with the saved one on HANDS
// seeds each, in the lab's Web Workers (one per core). Prints the time from the click on
// `compare-run` to `compare-done`, both win rates and the paired difference with its 95%
// interval, as the page shows them.
// Run after `scripts/dev build` (or the deck-lab bundle's `trunk build --release` copied
// to dist/deck-lab/): `node web/bench/deck-lab-compare.mjs` (HANDS=20, 200, 1000 or
// 10000, the lab's choices; DIST=<folder holding deck-lab/>).
import { launch, serveDist } from './serve.mjs';

const HANDS = String(process.env.HANDS ?? 10000);
const dist = process.env.DIST ?? new URL('../../dist/', import.meta.url).pathname;

const { server, base } = await serveDist(dist);
const browser = await launch();
const page = await browser.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e}`));
page.on('console', (m) => {
  if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console error: ${m.text()}`);
});

await page.goto(`${base}deck-lab/#/deck-lab`);
await page.evaluate(() => localStorage.removeItem('games.duel.decks'));
await page.reload();
await page.waitForSelector('[data-testid=deck-lab]');
const cores = await page.evaluate(() => navigator.hardwareConcurrency);
await page.click('[data-testid=lab-from-preset][data-deck="exodia-deck"]');
await page.fill('[data-testid=lab-name]', 'exodia-deck');
await page.click('[data-testid=lab-save]');
// B in the lab's terms is the saved deck; A the edited one on the page.
await page.click('[data-testid=lab-deck-card][data-card-id="55144522"] [data-testid=lab-remove]');
await page.click('[data-testid=lab-card][data-card-id="98645731"] [data-testid=lab-add]');
await page.waitForSelector('[data-testid=lab-legal]');
await page.selectOption('[data-testid=lab-compare-with]', 'saved:exodia-deck');
await page.selectOption('[data-testid=compare-hands]', HANDS);
const t0 = Date.now();
await page.click('[data-testid=compare-run]');
await page.waitForSelector('[data-testid=compare-done], [data-testid=compare-failed]', { timeout: 6 * 60 * 60 * 1000 });
const wall = (Date.now() - t0) / 1000;
const shown = await page.evaluate(() => {
  const el = (id) => document.querySelector(`[data-testid=${id}]`);
  const d = el('compare-difference');
  return {
    failed: el('compare-failed')?.textContent ?? '',
    a: el('compare-winrate-a').parentElement.textContent.trim(),
    b: el('compare-winrate-b').parentElement.textContent.trim(),
    difference: d?.textContent ?? '',
    aOnly: d?.dataset.aOnly,
    bOnly: d?.dataset.bOnly,
  };
});
if (shown.failed) problems.push(shown.failed);
console.log(`headless Chromium, navigator.hardwareConcurrency = ${cores}`);
console.log(`A (exodia-deck, one Pot of Greed replaced by a Pot of Duality) vs B (exodia-deck), ${HANDS} seeds each: ${wall.toFixed(1)} s`);
console.log(`A: ${shown.a}`);
console.log(`B: ${shown.b}`);
console.log(`difference A - B: ${shown.difference}; seeds won by A alone ${shown.aOnly}, by B alone ${shown.bOnly}`);

await browser.close();
server.close();
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
