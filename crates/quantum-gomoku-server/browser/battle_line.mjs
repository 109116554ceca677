// Battle Line online in headless Chromium, through this server's pages: the Battle Line
// page offers online play (`bl-online`); one browser makes a private room, a second joins
// it by id, a third is refused (`bl-room-full`); the first-player game is played
// (`bl-first-card`, `bl-go-first`), then whole turns on both sides until a guile tactic
// has been played and a flag claimed (at most MAX_TURNS turns), each page seeing the
// other's move through the room's stream; after every turn both pages show the server's
// table. On the way:
// - a command's answer is lost (the request reaches the server, the page gets a reset
//   connection): the page sends it again with the same idempotency key, and the room
//   moves on by one version only; then a double click on the draw sends one command
//   (the page sends one at a time) and the room moves one version, with no error shown;
// - one page goes offline mid-turn (`bl-connection` leaves `connected`), clicks the draw
//   while offline (kept as pending), the other page reloads meanwhile and rejoins its
//   seat with `bl-reconnect`; back online, the pending draw is applied once and both
//   pages go on from the server's state;
// - neither page's DOM, any answer it received, its JavaScript heap (a heap snapshot)
//   nor its WebAssembly memory holds a card of the other's hand (battle_line_common.mjs
//   `wireOf` says which encoding is searched, and why; the heap search is first shown to
//   find a card deep in a long string, and the memory scan to find the page's own hand);
// - axe-core scans the lobby and the table as the server serves them.
// Then the server is killed (`kill -9`) and started again on its database: the pages
// reconnect and the game goes on; `bl-leave` + `bl-leave-confirm` ends the match.
// Prints how long each page took to show each action (from the click: the other page
// through the stream, the clicking page through its command's answer) and fails when the
// median is over 200 ms (the figure) or one took over 2 s.
//
// The server deals from `--seed` (the deck order then follows from it; the first-player
// cards still come from the OS), so the same turns come on every run; whichever seat
// goes first, the loop plays until the guile and the claim came.
//
// Usage (from the workspace root, after the release build of dist/, which holds the
// battle-line and battle-line-online bundles; `scripts/dev test` runs it):
//   cargo build -p quantum-gomoku-server
//   node crates/quantum-gomoku-server/browser/battle_line.mjs [server binary] [dist]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  T, agree, axeScan, checkHidden, firstPlayer, handCards, harness, heapHolds, hiddenFrom, launch, mover, playTurn,
  serverRoom, startMatch, startServer, stats, turnOf, value, wasmHolds,
} from './battle_line_common.mjs';

const binary = process.argv[2] ?? 'target/debug/quantum-gomoku-server';
const dist = process.argv[3] ?? 'dist';
const dbDir = mkdtempSync(join(tmpdir(), 'bl-online-'));
const db = join(dbDir, 'games.sqlite3');
const SEED = '3';
const MAX_TURNS = 40;

const args = (port) => ['--port', String(port), '--static-dir', dist, '--db', db, '--db-sync', 'normal',
  '--create-burst', '0', '--seed', SEED];
let { child: server, base } = await startServer(binary, args(0));
const browser = await launch();
const h = harness(browser);
const { fail } = h;

let a;
try {
  // The Battle Line page of this server offers online play.
  a = await h.open(`${base}battle-line/#/battle-line`, 'host');
  await a.waitForSelector('[data-testid=bl-online]', { timeout: T });
  await a.click('[data-testid=bl-online]');
  const lobby = `${base}battle-line-online/#/battle-line/online`;
  const b = await h.open(lobby, 'guest');
  // The lobby as served, scanned by axe-core.
  await b.waitForSelector('[data-testid=bl-lobby] [data-testid=bl-create-room]', { timeout: T });
  const minor = [await axeScan(h, b, 'the lobby')];
  // A private room is not listed; it is joined by its id.
  const room = await startMatch(h, a, b);
  const version = async () => (await serverRoom(base, room)).version;

  // A third person is told the room is full.
  const c = await h.open(lobby, 'third');
  await c.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  await c.fill('[data-testid=bl-nickname]', 'Cy');
  await c.fill('[data-testid=bl-join-id]', room);
  await c.click('[data-testid=bl-join-id-go]');
  await c.waitForSelector('[data-testid=bl-room-full]', { timeout: T });
  // The heap search sees a card deep in a long string (V8 cuts the strings of a heap
  // snapshot at 1,024 characters unless told otherwise: `launch`), as in a room's answer.
  await c.evaluate(() => { window.blProbe = JSON.stringify({ pad: 'x'.repeat(5000), card: { color: 'Red', value: 7 } }); });
  if ((await heapHolds(c, ['{"color":"Red","value":7}'])).found.length !== 1) fail('the heap search misses a card 5,000 characters into a string');
  await c.context().close();

  const chooser = await firstPlayer(a, b);
  const seats = [await value(a, 'bl-seat'), await value(b, 'bl-seat')].sort();
  if (seats.join() !== 'P0,P1') fail(`the seats are ${seats}`);
  if ((await value(chooser, 'bl-seat')) !== 'P0') fail('the player who chose to go first is not P0');
  const pages = [a, b];
  await agree(h, base, room, pages, 'the deal');
  minor.push(await axeScan(h, a, 'the table'));
  console.log(`axe-core scanned the lobby and the table (${minor.join(' and ')} minor or moderate findings)`);

  // Whole turns on both sides, with the checks above on the way.
  const times = [];
  let guile;
  const claims = [];
  const checked = { lost: false, double: false, offline: false };
  let turns = 0;

  // The draw's answer is lost once: the page sends the same command again (same body,
  // same key) and the room moves on by one version.
  const lostAnswer = async (m, other) => {
    const sent = [];
    const replies = [];
    await m.route('**/api/battle-line/rooms/*/commands', async (route) => {
      sent.push(route.request().postData());
      if (sent.length === 1) {
        const r = await route.fetch();
        replies.push(r.status());
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    const replayed = m.waitForResponse((r) => r.url().includes('/commands'), { timeout: T });
    replayed.catch(() => {});
    const v0 = await version();
    await m.click('[data-testid=draw-troop], [data-testid=draw-tactic]');
    const second = await (await replayed).json();
    await other.waitForSelector('[data-testid=prompt][data-value=mine]', { timeout: T });
    await m.unroute('**/api/battle-line/rooms/*/commands');
    const v1 = await version();
    if (sent.length !== 2 || sent[0] !== sent[1]) fail(`answer lost: the page sent ${JSON.stringify(sent)}, not one command twice`);
    if (replies[0] !== 200) fail(`answer lost: the first sending got ${replies[0]}`);
    if (second.replayed !== true) fail('answer lost: the second sending was not answered as a replay');
    if (v1 !== v0 + 1) fail(`answer lost: the room went from version ${v0} to ${v1}, not one step`);
    if (await m.$('[data-testid=rule-error]')) fail('answer lost: the page shows an error');
    checked.lost = true;
    console.log(`a lost answer: the command was sent twice with key ${JSON.parse(sent[0]).key}, applied once (version ${v0} -> ${v1})`);
    return true;
  };

  // A double click on the draw (two clicks in one task, before the page re-renders):
  // the page sends one command, the room moves one version, no error is shown.
  const doubleClick = async (m, other) => {
    const v0 = await version();
    const hand = (await handCards(m)).length;
    const sent = [];
    const count = (r) => { if (r.url().includes('/commands')) sent.push(r.postData()); };
    m.on('request', count);
    await m.$eval('[data-testid=draw-troop], [data-testid=draw-tactic]', (button) => { button.click(); button.click(); });
    await other.waitForSelector('[data-testid=prompt][data-value=mine]', { timeout: T });
    await m.waitForSelector('[data-testid=prompt][data-value=theirs]', { timeout: T });
    await m.waitForFunction(() => !document.querySelector('[data-testid=bl-pending]'), null, { timeout: T });
    m.off('request', count);
    const v1 = await version();
    if (v1 !== v0 + 1) fail(`double click: the room went from version ${v0} to ${v1}, not one step`);
    const after = (await handCards(m)).length;
    if (after !== hand + 1) fail(`double click: the hand went from ${hand} to ${after} cards, not one more`);
    if (sent.length !== 1) fail(`double click: the page sent ${sent.length} commands`);
    if (await m.$('[data-testid=rule-error]')) fail('double click: the page shows an error');
    checked.double = true;
    console.log(`a double click on the draw: one command sent, applied once (version ${v0} -> ${v1})`);
    return true;
  };

  // Offline mid-turn, with the other page reloaded meanwhile.
  const offline = async (m, other) => {
    const seatOther = await value(other, 'bl-seat');
    await m.context().setOffline(true);
    await m.waitForSelector('[data-testid=bl-connection]:is([data-state=reconnecting], [data-state=offline])', { timeout: T });
    const state = await m.$eval('[data-testid=bl-connection]', (e) => e.dataset.state);
    const v0 = await version();
    await m.click('[data-testid=draw-troop], [data-testid=draw-tactic]');
    await m.waitForSelector('[data-testid=bl-pending]', { timeout: T });
    // The other page reloads mid-game: it is offered its seat back.
    await other.reload();
    await other.waitForSelector('[data-testid=bl-reconnect]', { timeout: T });
    if (!(await other.$('[data-testid=bl-back-to-lobby]'))) fail('no way back to the lobby after a reload');
    await other.click('[data-testid=bl-reconnect]');
    await other.waitForSelector(`[data-testid=bl-seat][data-value=${seatOther}]`, { timeout: T });
    await other.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: T });
    // Let the page's own retries run out while offline: the click stays pending.
    await m.waitForTimeout(2000);
    if ((await version()) !== v0) fail('offline: the draw reached the server while the page was offline');
    if (!(await m.$('[data-testid=bl-pending]'))) fail('offline: the draw is no longer pending while offline');
    await m.context().setOffline(false);
    await m.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: T });
    await m.waitForFunction(() => !document.querySelector('[data-testid=bl-pending]'), null, { timeout: T });
    await other.waitForSelector('[data-testid=prompt][data-value=mine]', { timeout: T });
    const v1 = await version();
    if (v1 !== v0 + 1) fail(`offline: the room went from version ${v0} to ${v1}, not one step (the pending draw)`);
    checked.offline = true;
    console.log(`offline mid-turn (${state}), the other page reloaded and rejoined; the pending draw applied once (version ${v0} -> ${v1})`);
    return true;
  };
  // From the third turn on, one of them in each turn that ends with a draw.
  const specials = [lostAnswer, doubleClick, offline];

  while (turns < MAX_TURNS && !(guile && claims.length > 0 && specials.length === 0)) {
    const m = await mover(pages);
    if (!m) { fail(`no page has the turn after ${turns} turns`); break; }
    const other = m === a ? b : a;
    if ((await handCards(m)).length === 0) fail(`turn ${turns}: no card read from the mover's hand`);
    await checkHidden(h, other, m, `turn ${turns}`);
    const done = await playTurn(m, other, times, {
      wantGuile: !guile,
      beforeDraw: async () => {
        if (turns < 2 || specials.length === 0 || !(await m.$('[data-testid=draw-troop], [data-testid=draw-tactic]'))) return false;
        return specials.shift()(m, other);
      },
    });
    guile ??= done.guile;
    claims.push(...done.claims);
    turns += 1;
    await agree(h, base, room, pages, `after turn ${turns}`);
    if ((await turnOf(a)) === 'over') break;
  }
  if (!guile) fail(`no guile tactic was played in ${turns} turns`);
  if (claims.length === 0) fail(`no flag was claimed in ${turns} turns`);
  for (const [k, ok] of Object.entries(checked)) if (!ok) fail(`the ${k} check did not run`);
  console.log(`${turns} turns: guile tactic ${guile}, flags claimed ${claims.join(', ')}`);
  await checkHidden(h, a, b, 'after the turns (host)');
  await checkHidden(h, b, a, 'after the turns (guest)');

  // The JavaScript heap and the WebAssembly memory of each page hold none of the other's
  // cards. The page's own hand is looked for the same way: the memory scan must find
  // it (it just read it from the same JSON), or the scan would be seeing nothing.
  for (const [page, other, name] of [[a, b, 'host'], [b, a, 'guest']]) {
    const theirs = (await hiddenFrom(page, other)).map((c) => c.json);
    const own = (await handCards(page)).map((c) => c.json);
    const heap = await heapHolds(page, [...theirs, ...own]);
    const memory = await wasmHolds(page, [...theirs, ...own]);
    for (const [where, got] of [['JavaScript heap', heap], ['WebAssembly memory', memory]]) {
      const leaked = got.found.filter((n) => theirs.includes(n));
      if (leaked.length > 0) fail(`${name}: its ${where} holds the other hand's ${leaked.join(' ')}`);
    }
    const ownSeen = memory.found.filter((n) => own.includes(n)).length;
    if (ownSeen === 0) fail(`${name}: the memory scan found none of the page's own cards, so it proves nothing`);
    console.log(`${name}: none of the other hand's ${theirs.length} cards in its heap (${heap.strings} strings; own cards: `
      + `${heap.found.filter((n) => own.includes(n)).length}/${own.length}) or its wasm memory (${memory.bytes} bytes; own cards: ${ownSeen}/${own.length})`);
  }

  // The server dies and comes back on its database: both pages reconnect, the game goes on.
  server.kill('SIGKILL');
  await b.waitForSelector('[data-testid=bl-connection]:not([data-state=connected])', { timeout: T });
  ({ child: server } = await startServer(binary, args(new URL(base).port)));
  for (const page of pages) await page.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: 30000 });
  await agree(h, base, room, pages, 'after the restart');
  for (let i = 0; i < 2 && (await turnOf(a)) !== 'over'; i += 1) {
    const m = await mover(pages);
    if (!m) { fail('no page has the turn after the restart'); break; }
    await playTurn(m, m === a ? b : a, times);
    await agree(h, base, room, pages, `turn ${i + 1} after the restart`);
  }

  // Leaving ends the match for both.
  await a.click('[data-testid=bl-leave]');
  await a.click('[data-testid=bl-leave-confirm]');
  await a.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  await b.waitForSelector('[data-testid=prompt][data-value=over]', { timeout: T });

  const other = stats(times.map((t) => t.other));
  const own = stats(times.map((t) => t.own));
  const f = (x) => x.toFixed(1);
  console.log(`battle line online: ${times.length} actions (${[...new Set(times.map((t) => t.kind))].join(', ')})`);
  console.log(`  click -> the other page shows it: median ${f(other.median)} ms, p99 ${f(other.p99)} ms, max ${f(other.max)} ms`);
  console.log(`  click -> the clicking page shows it: median ${f(own.median)} ms, p99 ${f(own.p99)} ms, max ${f(own.max)} ms`);
  // 200 ms is the figure, held by the median; the machine is shared, so a
  // single slow update fails only past 2 s (a stall).
  if (other.median > 200 || own.median > 200) fail('the median update took over 200 ms');
  if (other.max > 2000 || own.max > 2000) fail('an update took over 2 s');
} catch (e) {
  fail(String(e.stack ?? e));
  for (const page of browser.contexts().flatMap((c) => c.pages())) {
    fail(`page ${page.url()}: ${await page.$eval('main, body', (e) => e.innerText).catch(() => '?')}`);
  }
} finally {
  await browser.close();
  server.kill();
  rmSync(dbDir, { recursive: true, force: true });
}
if (h.failures.length) {
  console.error(h.failures.join('\n'));
  process.exit(1);
}
console.log('two browsers played Battle Line through the server; the third was refused');
