// Release accessibility scan: axe-core (npm) injected into every page and state a player
// meets (home, a recipe, the duel alone and with its hand menu, a pile dialog or the
// effect dialog open, Battle Line, Battle Line online without its server, Quantum
// Gomoku, a rules page), at desktop (1280x900) and phone (375x812) sizes. Fails on any serious or critical violation, on a page wider
// than the phone's screen and on a touch target under 44 px. Writes a screenshot of each
// page and size to SHOTS (default target/screenshots/) for a reviewer who does not run
// the app. Then plays a few moves of Battle Line and Quantum Gomoku with real key presses.
// Run by scripts/dev test after the release build: `node web/bench/a11y.mjs`.
import { mkdir, readFile } from 'node:fs/promises';
import { launch, serveDist } from './serve.mjs';

const root = new URL('../../', import.meta.url).pathname;
const shots = process.env.SHOTS ?? `${root}target/screenshots`;
await mkdir(shots, { recursive: true });
const axe = await readFile(`${root}node_modules/axe-core/axe.min.js`, 'utf8');
const deserterSave = (await readFile(`${root}web/bench/fixtures/battle-line-deserter.json`, 'utf8')).trim();
// A duel that set away its win and lost (the share code of `test_seeds::lost_game`, checked
// by a unit test in web/tests/common/seeds.rs).
const lostDuel = (await readFile(`${root}web/bench/fixtures/duel-lost.txt`, 'utf8')).trim();
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
  // A link to another duel while the one above (an activation made) is unfinished asks
  // before it drops it.
  ['duel-drop-save', '#/simulator/exodia-deck?seed=2', '[data-testid=drop-save-confirm]'],
  ['deck-lab', 'deck-lab/#/deck-lab', '[data-testid=deck-lab]', async (page) => {
    // A deck with a problem: a preset less one card, so the counts, the problem and the
    // deck's rows are all shown.
    await page.click('[data-testid=lab-from-preset][data-deck="exodia-deck"]');
    await page.click('[data-testid=lab-deck-card] [data-testid=lab-remove]');
    await page.waitForSelector('[data-testid=lab-problem]');
  }],
  ['battle-line', 'battle-line/#/battle-line', '[data-testid=mode-cpu]'],
  ['battle-line-game', 'battle-line/#/battle-line?seed=5', '[data-testid=mode-cpu]', async (page) => {
    // A game against the computer with a hand card chosen: the table's places to put it.
    await page.click('[data-testid=mode-cpu]');
    // Every troop in the hand shows its colour's symbol, not its colour alone.
    const bare = await page.$$eval('[data-testid=hand-card]', (cards) => cards
      .filter((c) => /^(red|orange|yellow|green|blue|purple)-\d+$/.test(c.getAttribute('data-card-id')))
      .filter((c) => !c.querySelector('[data-testid=bl-suit]')?.textContent.trim())
      .map((c) => c.getAttribute('data-card-id')));
    if (bare.length > 0) throw new Error(`troops without their colour's symbol: ${bare.join(', ')}`);
    await page.click('[data-testid=hand-card]');
    await page.waitForSelector('[data-testid=slot-0-0]');
  }],
  ['battle-line-deserter', 'battle-line/#/battle-line', '[data-testid=mode-cpu], [data-testid=board]', async (page) => {
    // A saved game (web/bench/fixtures/, checked by a unit test in
    // web/src/battle_line/state.rs) where Deserter picks one of the computer's cards on the
    // table: the cards it may pick are touch targets too.
    await page.evaluate((json) => localStorage.setItem('games.battle-line.save', json), deserterSave);
    await page.reload();
    await page.waitForSelector('[data-testid=guile-guide]');
    await page.waitForSelector('[data-testid=board] .bl-pickable');
  }],
  // Battle Line online from a static host: no server, so the page says online play needs
  // one and links back (the lobby and the table are scanned where a server serves them:
  // crates/quantum-gomoku-server/browser/battle_line.mjs).
  ['battle-line-online', 'battle-line-online/#/battle-line/online', '[data-testid=bl-lobby]'],
  ['quantum-gomoku', 'quantum-gomoku/#/quantum-gomoku', '[data-testid=board]'],
  ['help-duel', '#/help/duel', 'main h1, h1'],
  // The unfinished duel above makes this link ask first (drop-save-confirm): the lost
  // duel written as the autosave then opens directly.
  ['duel-game-over', '#/simulator/library-exodia-deck?seed=14', '[data-testid=zone-hand], [data-testid=drop-save-confirm]', async (page) => {
    // The lost duel as an autosave: it resumes over, with its game-over dialog and the
    // point of no return found in the worker ("3." is web/src/duel/save.rs's SAVE_VERSION).
    await page.evaluate((code) => localStorage.setItem('games.duel.save', `3.${code}`), lostDuel);
    await page.reload();
    await page.waitForSelector('[data-testid=game-over] [data-testid=no-return][data-state=found]', { timeout: 30000 });
    await page.evaluate(() => localStorage.removeItem('games.duel.save'));
  }],
  ['duel-replay', `duel-analysis/#/replay/${lostDuel}`, '[data-testid=replay]', async (page) => {
    await page.waitForSelector('[data-testid=no-return][data-state=found]', { timeout: 30000 });
    // The first and last buttons have names; Home, End and the arrow keys step, and the
    // step shown is marked in the list (scanned in that state).
    for (const id of ['replay-first', 'replay-last']) {
      const name = (await page.textContent(`[data-testid=${id}]`)).trim();
      if (!/[A-Za-z\u3040-\u30ff\u4e00-\u9fff]/.test(name)) throw new Error(`${id} has no readable name: "${name}"`);
    }
    const position = () => page.getAttribute('[data-testid=replay-position]', 'data-value');
    // A key's step shows once the page has rendered it: wait for it (a loaded machine
    // renders late), then say where it stopped.
    const reaches = async (step, what) => {
      try {
        await page.waitForSelector(`[data-testid=replay-position][data-value="${step}"]`, { timeout: 5000 });
      } catch {
        throw new Error(`${what} showed step ${await position()}, not ${step}`);
      }
    };
    const total = await page.getAttribute('[data-testid=replay-position]', 'data-total');
    await page.keyboard.press('Home');
    await reaches('0', 'Home');
    await page.keyboard.press('End');
    await reaches(total, 'End');
    await page.keyboard.press('ArrowLeft');
    await reaches(String(Number(total) - 1), 'End then ←');
    if (await page.locator('[data-testid=replay-step][aria-current=step]').count() !== 1) {
      throw new Error('the step shown is not marked in the list');
    }
  }],
  ['duel-stats', 'duel-analysis/#/stats/legacy-exodia-deck?hands=12', '[data-testid=stats-run]', async (page) => {
    // Before a run: no rate and no interval to show.
    const before = (await page.textContent('[data-testid=stats-winrate]')).trim();
    if (before !== '–' || await page.locator('[data-testid=stats-interval]').count() !== 0) {
      throw new Error(`before any run the page shows a rate: ${before}`);
    }
    await page.click('[data-testid=stats-run]');
    await page.waitForSelector('[data-testid=stats-done]', { timeout: 60000 });
    // After it, each histogram bar is drawn as long as its count (scanned in that state).
    const bars = await page.$$eval('[data-testid=stats-bar]', (rows) => rows.map((r) => [
      Number(r.getAttribute('data-count')), r.querySelector('.stats-bar').getBoundingClientRect().width,
    ]));
    const most = Math.max(...bars.map(([c]) => c));
    const widest = Math.max(...bars.map(([, w]) => w));
    for (const [count, width] of bars) {
      if (Math.abs(width - (widest * count) / most) > 2) throw new Error(`a bar of ${count} is ${width}px of ${widest}px`);
    }
  }],
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
      // Gomoku's cells count too: on a phone its board scrolls sideways in its own frame.
      // A card on Battle Line's table that cannot be picked now is part of its slot (a
      // column of at least 46 px): a tap on it acts as a tap on the slot, or does nothing.
      // The cards a guile tactic may pick (.bl-pickable) are targets of their own.
      const small = await page.evaluate(() => [...document.querySelectorAll('button, a[href], input, select, summary')]
        .filter((e) => !e.matches('.bl-board .bl-card:not(.bl-pickable), .bl-field .bl-card:not(.bl-pickable)'))
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

// The keyboard, with real key presses (the browser's own Tab, Enter and Space): the focus
// ring shows, Space acts once, Battle Line's focus follows the turn, and Quantum Gomoku's
// board is one Tab stop whose arrows move the focus (on a phone too, where it scrolls).
async function tabUntil(page, what, selector) {
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  problems.push(`keyboard: Tab never reached ${what}`);
  return false;
}
const focus = (page) => page.evaluate(() => {
  const e = document.activeElement;
  const style = getComputedStyle(e);
  const r = e.getBoundingClientRect();
  return {
    id: e.getAttribute('data-testid') ?? '', cls: e.className,
    ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    left: r.left, right: r.right,
  };
});
for (const [size, width, height] of SIZES) {
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  const expect = (ok, what) => { if (!ok) problems.push(`keyboard (${size}): ${what}`); };

  await page.goto(`${base}battle-line/#/battle-line?seed=5`);
  await page.waitForSelector('[data-testid=mode-cpu]:not([disabled])');
  if (await tabUntil(page, 'Battle Line\'s mode-cpu', '[data-testid=mode-cpu]')) {
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=hand-card]');
    let f = await focus(page);
    expect(f.id === 'hand-card' && f.ring, `Battle Line starts on a hand card with a ring (${JSON.stringify(f)})`);
    await page.keyboard.press('Space');
    f = await focus(page);
    expect(f.cls.includes('bl-drop') && f.ring, `Space selects the card and focuses a target (${JSON.stringify(f)})`);
    expect(await page.locator('[data-testid=hand-card].bl-selected').count() === 1, 'Space selected exactly one card');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(50);
    expect(await page.locator('[data-testid=slot-0-1] [data-testid=card]').count() === 1, 'Enter played the card at the second flag');
    f = await focus(page);
    expect(f.id === 'draw-troop' && f.ring, `then the focus is on the draw (${JSON.stringify(f)})`);
  }

  await page.goto('about:blank');
  await page.goto(`${base}quantum-gomoku/#/quantum-gomoku`);
  await page.waitForSelector('[data-testid=board]');
  const centre = await page.evaluate(() => {
    const r = document.querySelector('[data-testid=cell-7-7]').getBoundingClientRect();
    const board = document.querySelector('[data-testid=board]');
    const [b, f] = [board.getBoundingClientRect(), board.parentElement.getBoundingClientRect()];
    // The part of the board on screen: the frame on a phone, the board itself on a desktop.
    const [left, right] = [Math.max(b.left, f.left), Math.min(b.right, f.right)];
    return Math.abs((r.left + r.right) / 2 - (left + right) / 2);
  });
  expect(centre < 44, `the board opens centred (centre cell ${Math.round(centre)} px off)`);
  if (await tabUntil(page, 'the Quantum Gomoku board', '[data-testid=board] [role=gridcell]')) {
    let f = await focus(page);
    expect(f.ring, `the board's cell shows a focus ring (${JSON.stringify(f)})`);
    for (let i = 0; i < 7; i += 1) await page.keyboard.press('ArrowRight');
    f = await focus(page);
    expect(f.id === 'cell-7-14', `the arrows move the focus (${f.id})`);
    expect(f.left >= 0 && f.right <= width, `the focused cell scrolled into view (${Math.round(f.left)}..${Math.round(f.right)})`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=cell-7-14] [data-testid=stone]');
    await page.keyboard.press('Tab');
    f = await focus(page);
    expect(!f.id.startsWith('cell-'), `one Tab leaves the board (${f.id})`);
    // A resumed game opens on its last stone.
    await page.reload();
    await page.waitForSelector('[data-testid=cell-7-14] [data-testid=stone]');
    const shown = await page.evaluate(() => {
      const r = document.querySelector('[data-testid=cell-7-14]').getBoundingClientRect();
      return r.left >= 0 && r.right <= window.innerWidth;
    });
    expect(shown, 'a resumed game opens with its last stone in view');
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
