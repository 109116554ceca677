// Release accessibility scan: axe-core (npm) injected into every page and state a player
// meets (home, a recipe, the duel alone and with its hand menu, a pile dialog or the
// effect dialog open, Battle Line, Quantum Gomoku, a rules page), at desktop (1280x900)
// and phone (375x812) sizes. Fails on any serious or critical violation, on a page wider
// than the phone's screen and on a touch target under 44 px. Writes a screenshot of each
// page and size to SHOTS (default target/screenshots/) for a reviewer who does not run
// the app. Run by scripts/dev test after the release build: `node web/bench/a11y.mjs`.
import { mkdir, readFile } from 'node:fs/promises';
import { launch, serveDist } from './serve.mjs';

const root = new URL('../../', import.meta.url).pathname;
const shots = process.env.SHOTS ?? `${root}target/screenshots`;
await mkdir(shots, { recursive: true });
const axe = await readFile(`${root}node_modules/axe-core/axe.min.js`, 'utf8');
const { server, base } = await serveDist(`${root}dist/`);
const browser = await launch();

const SIZES = [['desktop', 1280, 900], ['phone', 375, 812]];
// [name, address (relative to dist/), what to wait for, what to do before the scan]
const PAGES = [
  ['home', '#/', '[data-testid=btn-start]'],
  ['recipe', '#/recipe/exodia-deck', 'main'],
  ['duel', '#/simulator/exodia-deck?seed=1', '[data-testid=zone-hand]'],
  ['duel-dialog', '#/simulator/exodia-deck?seed=1', '[data-testid=zone-hand]', async (page) => {
    // The graveyard's list is a dialog every duel can open at once.
    await page.click('[data-testid=zone-graveyard]');
    await page.waitForSelector('[role=dialog]');
  }],
  ['duel-menu', '#/simulator/exodia-deck?seed=1', '[data-testid=zone-hand]', async (page) => {
    await page.click('[data-testid=zone-hand] [data-testid=card]');
    await page.waitForSelector('[data-testid=card-menu]');
  }],
  ['duel-effect-dialog', '#/simulator/exodia-deck?seed=1', '[data-testid=zone-hand]', async (page) => {
    // Graceful Charity (in seed 1's opening hand) asks which two cards to discard.
    await page.click("[data-testid=zone-hand] [data-testid=card][data-card-id='79571449']");
    await page.click('[data-testid=card-menu] [data-testid=btn-activate]');
    await page.waitForSelector('[data-testid=effect-dialog] [data-testid=dialog-option]');
  }],
  ['battle-line', 'battle-line/#/battle-line', '[data-testid=mode-cpu]'],
  ['quantum-gomoku', 'quantum-gomoku/#/quantum-gomoku', '[data-testid=board]'],
  ['help-duel', '#/help/duel', 'main h1, h1'],
];

const problems = [];
for (const [size, width, height] of SIZES) {
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  // A fresh context: no saved duel, default settings.
  for (const [name, path, ready, before] of PAGES) {
    await page.goto('about:blank');
    await page.goto(`${base}${path}`);
    try {
      await page.waitForSelector(ready, { timeout: 10000 });
      if (before) await before(page);
    } catch (e) {
      problems.push(`${name} (${size}): ${e.message.split('\n')[0]}`);
      continue;
    }
    await page.waitForTimeout(100);
    await page.screenshot({ path: `${shots}/${name}-${size}.png` });
    await page.evaluate(axe);
    const result = await page.evaluate(async () => window.axe.run(document, {
      resultTypes: ['violations'],
    }));
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    for (const v of bad) {
      const nodes = v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ');
      problems.push(`${name} (${size}): ${v.impact} ${v.id} on ${v.nodes.length} node(s): ${nodes}`);
    }
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (wide > 0) problems.push(`${name} (${size}): scrolls sideways by ${wide}px`);
    if (size === 'phone') {
      // Touch targets of at least 44x44 px; a checkbox counts with its label. Quantum
      // Gomoku's 15x15 board is left out: at 375 px its cells are 24 px (the whole board
      // on screen, without sideways scrolling, is the trade-off chosen there).
      const small = await page.evaluate(() => [...document.querySelectorAll('button, a[href], input, select, summary')]
        .filter((e) => !e.closest('[data-testid=board]'))
        .map((e) => {
          const target = e.closest('label') ?? e;
          const r = target.getBoundingClientRect();
          return [e.getAttribute('data-testid') ?? `${e.tagName.toLowerCase()}.${e.className}`, Math.round(r.width), Math.round(r.height)];
        })
        .filter(([, w, h]) => w > 0 && h > 0 && (w < 44 || h < 44)));
      for (const [what, w, h] of small) problems.push(`${name} (${size}): touch target ${what} is ${w}x${h} px`);
    }
    console.log(`${bad.length === 0 ? 'ok' : 'FAIL'}: ${name} at ${width}x${height} (${result.violations.length - bad.length} minor or moderate findings)`);
  }
  await context.close();
}

await browser.close();
server.close();
if (problems.length > 0) {
  console.log(problems.join('\n'));
  process.exit(1);
}
console.log(`a11y: no serious or critical violation; screenshots in ${shots}`);
