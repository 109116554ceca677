// Battle Line online in headless Chromium, through this server's pages: the Battle Line
// page offers online play (`bl-online`); one browser makes a private room, a second joins
// it by id, a third is refused (`bl-room-full`); the first-player game is played
// (`bl-first-card`, `bl-go-first`), then whole turns on both sides, each page seeing the
// other's move through the room's stream. Neither page's DOM nor any answer it received
// holds a card of the other's hand. Then the server is killed (`kill -9`) and started
// again on its database: the pages reconnect and the game goes on; a reload offers
// `bl-reconnect` to the same seat; `bl-leave` + `bl-leave-confirm` ends the match.
// Prints the time from a click on one page to the other page showing its turn.
//
// Usage (from the workspace root, after the release build of dist/, which holds the
// battle-line and battle-line-online bundles; `scripts/dev test` runs it):
//   cargo build -p quantum-gomoku-server
//   node crates/quantum-gomoku-server/browser/battle_line.mjs [server binary] [dist]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const binary = process.argv[2] ?? 'target/debug/quantum-gomoku-server';
const dist = process.argv[3] ?? 'dist';
const dbDir = mkdtempSync(join(tmpdir(), 'bl-online-'));
const db = join(dbDir, 'games.sqlite3');

function startServer(port) {
  const child = spawn(binary, ['--port', String(port), '--static-dir', dist, '--db', db, '--db-sync', 'normal',
    '--create-burst', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((ok, no) => {
    child.stdout.on('data', (chunk) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(chunk));
      if (m) ok({ child, base: `${m[1]}/` });
    });
    child.on('exit', (code) => no(new Error(`server exited with ${code}`)));
  });
}
let { child: server, base } = await startServer(0);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const failures = [];
const fail = (m) => failures.push(m);

// Every answer of the Battle Line API a page received, to look for hidden cards in.
const received = new Map();
async function open(url, name) {
  const context = await browser.newContext();
  const page = await context.newPage();
  received.set(page, []);
  page.on('pageerror', (e) => fail(`${name}: page error: ${e}`));
  page.on('response', async (r) => {
    if (!r.url().includes('/api/battle-line/')) return;
    try { received.get(page).push(await r.text()); } catch { /* a stream: no body to read */ }
  });
  await page.goto(url);
  return page;
}

const T = 15000;
const value = (page, id) => page.$eval(`[data-testid=${id}]`, (e) => e.dataset.value);
const turnOf = (page) => page.$eval('[data-testid=prompt]', (e) => e.dataset.value).catch(() => undefined);
// The troops in a page's hand, as the API writes them ({"color":"Red","value":7}).
const handTroops = (page) => page.$$eval('[data-testid=hand-card]', (cards) => cards
  .map((c) => /^([a-z]+)-(\d+)$/.exec(c.dataset.cardId))
  .filter(Boolean)
  .map(([, color, v]) => ({ id: `${color}-${v}`, json: `{"color":"${color[0].toUpperCase()}${color.slice(1)}","value":${v}}` })));

// Neither the DOM nor any answer `page` received holds a troop of `other`'s hand
// (except one it has seen: put back with Scout, then drawn by the other).
async function checkHidden(page, other, label) {
  // Cards the page's seat put back with Scout and the other drew are shown as seen.
  const seen = await page.$$eval('[data-testid=seen-card]', (cs) => cs.map((c) => c.dataset.cardId));
  const theirs = (await handTroops(other)).filter((t) => !seen.includes(t.id));
  const html = await page.content();
  for (const t of theirs) {
    if (html.includes(`data-card-id="${t.id}"`)) fail(`${label}: the other hand's ${t.id} is in the DOM`);
    if (received.get(page).some((body) => body.includes(t.json))) fail(`${label}: the other hand's ${t.id} reached the page`);
  }
}

let a;
try {
  // The Battle Line page of this server offers online play.
  a = await open(`${base}battle-line/#/battle-line`, 'host');
  await a.waitForSelector('[data-testid=bl-online]', { timeout: T });
  await a.click('[data-testid=bl-online]');
  await a.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  await a.fill('[data-testid=bl-nickname]', 'あきら');
  await a.fill('[data-testid=bl-room-name]', '部屋_1');
  await a.check('[data-testid=bl-private]');
  await a.click('[data-testid=bl-create-room]');
  await a.waitForSelector('[data-testid=bl-room-id]', { timeout: T });
  const room = await value(a, 'bl-room-id');
  await a.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: T });

  // A private room is not listed; it is joined by its id.
  const lobby = `${base}battle-line-online/#/battle-line/online`;
  const b = await open(lobby, 'guest');
  await b.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  if (await b.$(`[data-testid=bl-room][data-room-id="${room}"]`)) fail('the private room is listed');
  await b.fill('[data-testid=bl-nickname]', 'Bo');
  await b.fill('[data-testid=bl-join-id]', room);
  await b.click('[data-testid=bl-join-id-go]');
  await b.waitForSelector('[data-testid=bl-room-id]', { timeout: T });

  // A third person is told the room is full.
  const c = await open(lobby, 'third');
  await c.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  await c.fill('[data-testid=bl-nickname]', 'Cy');
  await c.fill('[data-testid=bl-join-id]', room);
  await c.click('[data-testid=bl-join-id-go]');
  await c.waitForSelector('[data-testid=bl-room-full]', { timeout: T });

  // The first-player game: each picks a face-down card; the higher one goes first.
  const pickFree = async (page) => {
    await page.waitForSelector('[data-testid=bl-first-card]:not([disabled])', { timeout: T });
    await page.click('[data-testid=bl-first-card]:not([disabled])');
  };
  await pickFree(a);
  await b.waitForFunction(() => [...document.querySelectorAll('[data-testid=bl-first-card]')].some((e) => e.disabled), null, { timeout: T });
  await pickFree(b);
  const chooser = await Promise.race([
    a.waitForSelector('[data-testid=bl-go-first]', { timeout: T }).then(() => a),
    b.waitForSelector('[data-testid=bl-go-first]', { timeout: T }).then(() => b),
  ]);
  await chooser.click('[data-testid=bl-go-first]');
  for (const page of [a, b]) await page.waitForSelector('[data-testid=bl-seat]', { timeout: T });
  const seats = [await value(a, 'bl-seat'), await value(b, 'bl-seat')].sort();
  if (seats.join() !== 'P0,P1') fail(`the seats are ${seats}`);
  if ((await value(chooser, 'bl-seat')) !== 'P0') fail('the player who chose to go first is not P0');

  // Whole turns on both sides: a troop to a flag, a claim when one is offered, a draw.
  const latencies = [];
  let turns = 0;
  const pages = [a, b];
  const mover = async () => {
    for (const p of pages) if ((await turnOf(p)) === 'mine') return p;
    return undefined;
  };
  while (turns < 8) {
    let m;
    const until = Date.now() + T;
    while (!(m = await mover()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    if (!m) { fail(`no page has the turn after ${turns} turns`); break; }
    const other = m === a ? b : a;
    if ((await handTroops(m)).length === 0) fail(`turn ${turns}: no troop read from the mover's hand`);
    await checkHidden(other, m, `turn ${turns}`);
    const claim = await m.$('[data-testid^=claim-]');
    if (claim) await claim.click();
    // The first card that has a flag to go to.
    const cards = await m.$$('[data-testid=hand-card]');
    let placed = false;
    for (const card of cards) {
      await card.click();
      const place = await m.$('[data-testid^=place-]');
      if (place) { await place.click(); placed = true; break; }
    }
    if (!placed) {
      const pass = await m.$('[data-testid=pass]');
      if (pass) await pass.click(); else { fail('nothing to play and no pass'); break; }
    }
    await m.waitForSelector('[data-testid=draw-troop], [data-testid=draw-tactic], [data-testid=end-turn]', { timeout: T });
    // Timed in the other page from the click to its turn being shown.
    await other.evaluate(() => {
      window.blSeen = new Promise((done) => {
        const t0 = performance.now();
        const ok = () => document.querySelector('[data-testid=prompt]')?.dataset.value === 'mine';
        const obs = new MutationObserver(() => { if (ok()) { obs.disconnect(); done(performance.now() - t0); } });
        obs.observe(document.body, { childList: true, subtree: true, attributes: true });
      });
    });
    await m.click('[data-testid=draw-troop], [data-testid=draw-tactic], [data-testid=end-turn]');
    latencies.push(await other.evaluate(() => Promise.race([window.blSeen,
      new Promise((_, no) => setTimeout(() => no(new Error('the turn never arrived')), 15000))])));
    turns += 1;
  }
  await checkHidden(a, b, 'after the turns (host)');
  await checkHidden(b, a, 'after the turns (guest)');

  // The server dies and comes back on its database: both pages reconnect, the game goes on.
  const before = await a.$$eval('[data-testid^=slot-] [data-card-id]', (cs) => cs.length);
  server.kill('SIGKILL');
  await b.waitForSelector('[data-testid=bl-connection]:not([data-state=connected])', { timeout: T });
  ({ child: server } = await startServer(new URL(base).port));
  for (const page of [a, b]) await page.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: 30000 });
  const after = await b.$$eval('[data-testid^=slot-] [data-card-id]', (cs) => cs.length);
  if (after !== before) fail(`the table had ${before} cards before the restart, ${after} after`);

  // A reload offers the same seat back.
  const seatA = await value(a, 'bl-seat');
  await a.reload();
  await a.waitForSelector('[data-testid=bl-reconnect]', { timeout: T });
  if (!(await a.$('[data-testid=bl-back-to-lobby]'))) fail('no way back to the lobby after a reload');
  await a.click('[data-testid=bl-reconnect]');
  await a.waitForSelector(`[data-testid=bl-seat][data-value=${seatA}]`, { timeout: T });
  await checkHidden(a, b, 'after the reload');

  // Leaving ends the match for both.
  await a.click('[data-testid=bl-leave]');
  await a.click('[data-testid=bl-leave-confirm]');
  await a.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  await b.waitForSelector('[data-testid=prompt][data-value=over]', { timeout: T });

  latencies.sort((x, y) => x - y);
  const median = latencies[Math.floor(latencies.length / 2)];
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))];
  console.log(`battle line online: ${turns} turns; a turn's last click -> the other page's turn: median ${median.toFixed(1)} ms, max ${p99.toFixed(1)} ms`);
  if (p99 > 2000) fail(`a turn took ${p99.toFixed(0)} ms to reach the other page`);
} catch (e) {
  fail(String(e.stack ?? e));
} finally {
  await browser.close();
  server.kill();
  rmSync(dbDir, { recursive: true, force: true });
}
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log('two browsers played Battle Line through the server; the third was refused');
