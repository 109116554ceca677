// What battle_line.mjs and battle_line_instances.mjs share: starting the server, the
// browser and its pages, reading a Battle Line page's table, playing one whole turn
// through a page (a claim when one is offered, a guile tactic when one can be played,
// else a troop, then a draw) with each action's time to reach both pages, the table
// each page shows checked against the server's, and the hidden hand looked for in the
// other page's DOM, network answers, JavaScript heap and WebAssembly memory.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const T = 15000;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts the server with `args` (`--port` among them) and resolves with it and its address.
export function startServer(binary, args) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((ok, no) => {
    child.stdout.on('data', (chunk) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(chunk));
      if (m) ok({ child, base: `${m[1]}/` });
    });
    child.on('exit', (code) => no(new Error(`server exited with ${code}`)));
  });
}

export function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      // Heap snapshots write each string whole (V8 cuts them at 1,024 characters by
      // default, and a room's answer is longer): see `heapHolds`.
      '--js-flags=--heap-snapshot-string-limit=10000000'],
  });
}

// The failures of a run, and its pages: every answer of the Battle Line API a page
// received is kept (to look for hidden cards in), and its WebAssembly memory is reachable.
export function harness(browser) {
  const failures = [];
  const fail = (m) => failures.push(m);
  const received = new Map();
  async function open(url, name) {
    const context = await browser.newContext();
    // The app's wasm memory, from Trunk's start event (for `wasmHolds`).
    await context.addInitScript(() => addEventListener('TrunkApplicationStarted',
      (e) => { window.blWasmMemory = e.detail.wasm.memory; }));
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
  return { failures, fail, received, open };
}

export const value = (page, id) => page.$eval(`[data-testid=${id}]`, (e) => e.dataset.value);
export const turnOf = (page) => page.$eval('[data-testid=prompt]', (e) => e.dataset.value).catch(() => undefined);

const TACTICS = ['Alexander', 'Darius', 'CompanionCavalry', 'ShieldBearers', 'Fog', 'Mud', 'Scout', 'Redeploy',
  'Deserter', 'Traitor'];
const GUILE = ['scout', 'redeploy', 'deserter', 'traitor'];
// The page's card id (web/src/battle_line/state.rs `card_id`: `red-7`, `scout`,
// `companion-cavalry`) -> the engine's tactic name.
const tacticOf = (id) => TACTICS.find((t) => t.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase() === id);

// How the API writes a card (serde_json of `battle_line::Card`): a troop as
// `{"Troop":{"color":"Red","value":7}}`, a tactic as `{"Tactic":"Scout"}`. For a troop
// the inner object is searched, which is also how a command names a troop by itself
// (`ResolveTraitor`). These are what a leak of the other hand would carry, in an answer,
// in a string of the page's JavaScript heap or in the JSON text the app copied into its
// WebAssembly memory to read it. (The bare colour or tactic names are no evidence: the
// page's code and texts hold them all.)
export function wireOf(id) {
  const troop = /^([a-z]+)-(\d+)$/.exec(id);
  if (troop) return `{"color":"${troop[1][0].toUpperCase()}${troop[1].slice(1)}","value":${troop[2]}}`;
  const tactic = tacticOf(id);
  return tactic ? `{"Tactic":"${tactic}"}` : undefined;
}

// The cards of a page's hand: `{ id, json }` (its id in the DOM, its wire encoding).
export const handCards = async (page) => (await page.$$eval('[data-testid=hand-card]', (cs) => cs.map((c) => c.dataset.cardId)))
  .map((id) => ({ id, json: wireOf(id) }));
const isTroop = (id) => /^[a-z]+-\d+$/.test(id);

// The cards of `other`'s hand that `page` must not know: all but the ones `page`'s seat
// put back with Scout and the other drew (shown to it as seen).
export async function hiddenFrom(page, other) {
  const seen = await page.$$eval('[data-testid=seen-card]', (cs) => cs.map((c) => c.dataset.cardId)).catch(() => []);
  return (await handCards(other)).filter((t) => !seen.includes(t.id));
}

// Neither the DOM nor any answer `page` received holds a card of `other`'s hand.
export async function checkHidden(h, page, other, label) {
  const theirs = await hiddenFrom(page, other);
  const html = await page.content();
  for (const t of theirs) {
    if (html.includes(`data-card-id="${t.id}"`)) h.fail(`${label}: the other hand's ${t.id} is in the DOM`);
    if (h.received.get(page).some((body) => body.includes(t.json))) h.fail(`${label}: the other hand's ${t.id} reached the page`);
  }
  return theirs;
}

// Which of `needles` occur in the strings of `page`'s JavaScript heap (a snapshot taken
// over the DevTools protocol, after its garbage collection: what the page still holds).
export async function heapHolds(page, needles) {
  const cdp = await page.context().newCDPSession(page);
  const chunks = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk));
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.send('HeapProfiler.disable');
  await cdp.detach();
  const { strings } = JSON.parse(chunks.join(''));
  return { found: needles.filter((n) => strings.some((s) => s.includes(n))), strings: strings.length };
}

// Which of `needles` occur in the bytes of `page`'s WebAssembly memory (copied out first,
// so that no needle is ever handed to the page). Freed memory is not cleared, so this
// also finds JSON the app read and dropped since.
export async function wasmHolds(page, needles) {
  const b64 = await page.evaluate(() => {
    const bytes = new Uint8Array(window.blWasmMemory.buffer);
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  });
  const memory = Buffer.from(b64, 'base64');
  return { found: needles.filter((n) => memory.includes(Buffer.from(n))), bytes: memory.length };
}

// The room as a watcher reads it from the server (no token: the table only).
export async function serverRoom(base, room) {
  const r = await fetch(`${base}api/battle-line/rooms/${room}`);
  if (r.status !== 200) throw new Error(`GET the room: ${r.status}`);
  return r.json();
}

const idOf = (card) => (card.Troop ? `${card.Troop.color.toLowerCase()}-${card.Troop.value}`
  : card.Tactic.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase());

// What a seat's page should show of the server's table (`table` of a watcher's view).
function expected(table, seat) {
  const me = seat === 'P0' ? 0 : 1;
  const hand = (h) => h.troops + h.tactics;
  return JSON.stringify({
    slots: table.flags.map((f) => [f.p0_slots.map(idOf).concat(f.p0_tactic.map((t) => idOf({ Tactic: t }))),
      f.p1_slots.map(idOf).concat(f.p1_tactic.map((t) => idOf({ Tactic: t })))]),
    owners: table.flags.map((f) => (f.owner === null ? '' : (f.owner === seat ? 'mine' : 'theirs'))),
    hand: hand(table.hands[me]),
    other: [table.hands[1 - me].troops, table.hands[1 - me].tactics],
    decks: [table.troop_deck, table.tactic_deck],
  });
}

// What a seat's page shows (the same shape).
function shown() {
  const flags = [...document.querySelectorAll('[data-testid^=flag-]')];
  const ids = (sel) => [...document.querySelectorAll(`${sel} [data-card-id]`)].map((c) => c.dataset.cardId);
  const owner = (i) => document.querySelector(`[data-testid=owner-${i}]`).dataset.value;
  const counts = (document.querySelector('[data-testid=opponent-hand]')?.textContent.match(/\d+/g) ?? []).map(Number);
  return JSON.stringify({
    slots: flags.map((_, i) => [ids(`[data-testid=slot-0-${i}]`), ids(`[data-testid=slot-1-${i}]`)]),
    owners: flags.map((_, i) => ({ '自分': 'mine', yours: 'mine', '相手': 'theirs', theirs: 'theirs' }[owner(i)] ?? '')),
    hand: document.querySelectorAll('[data-testid=hand-card]').length,
    other: counts.slice(0, 2),
    decks: counts.slice(2, 4),
  });
}

// Each page shows the server's table (their cards at every flag, owners, hand sizes,
// decks) and the same side to move, within `timeout`.
export async function agree(h, base, room, pages, label, timeout = T) {
  const until = Date.now() + timeout;
  let last = '';
  for (;;) {
    const { view } = await serverRoom(base, room);
    const t = view.table;
    const problems = [];
    for (const page of pages) {
      const seat = await value(page, 'bl-seat').catch(() => undefined);
      const want = expected(t, seat);
      const got = await page.evaluate(shown).catch(() => 'no table');
      if (got !== want) problems.push(`${seat}: shows ${got}, the server has ${want}`);
      const turn = await turnOf(page);
      const wantTurn = t.winner !== null ? 'over' : (t.current === seat ? 'mine' : 'theirs');
      if (turn !== wantTurn) problems.push(`${seat}: its prompt is ${turn}, not ${wantTurn}`);
    }
    if (problems.length === 0) return true;
    last = problems.join('; ');
    if (Date.now() > until) {
      h.fail(`${label}: the pages do not show the server's table: ${last}`);
      return false;
    }
    await sleep(100);
  }
}

// The board's markup, which changes with every new view of the room (hand counts,
// decks, table, owners, prompt).
const board = (page) => page.$eval('[data-testid=board]', (b) => b.innerHTML).catch(() => '');

// Clicks `selector` on `m` (the player whose turn it is) and times, from the moment
// just before the click, how long each page takes to show the room's next state:
// `other` (through the stream) and `m` itself (its command's answer).
export async function act(m, other, selector, kind, times) {
  const [mine, theirs] = [await board(m), await board(other)];
  const watch = (page, before) => page.evaluate((before) => {
    window.blChanged = new Promise((done) => {
      const t0 = performance.now();
      const changed = () => !document.querySelector('[data-testid=bl-pending]')
        && (document.querySelector('[data-testid=board]')?.innerHTML ?? '') !== before;
      const obs = new MutationObserver(() => { if (changed()) { obs.disconnect(); done(performance.now() - t0); } });
      obs.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    });
  }, before);
  await watch(other, theirs);
  await watch(m, mine);
  await m.click(selector);
  const wait = (page) => page.evaluate(() => Promise.race([window.blChanged,
    new Promise((_, no) => setTimeout(() => no(new Error('the change never arrived')), 15000))]));
  const [ms, own] = [await wait(other), await wait(m)];
  times.push({ kind, other: ms, own });
}

const first = async (page, selector) => page.$(selector);

// One whole turn of `m` (the page whose prompt says it moves): a claim when one is
// offered; a guile tactic when `wantGuile` and one in the hand can be played, its steps
// resolved; otherwise the first troop of the hand that has a flag to go to (the first
// such flag), or any card, or a pass; then a draw (a tactic while `wantGuile`, so one
// comes). `beforeDraw(m)` runs after the card is played, before the draw (or does the
// draw itself and returns true). Answers what was done.
export async function playTurn(m, other, times, { wantGuile = false, beforeDraw } = {}) {
  const done = { claims: [], guile: undefined, card: undefined };
  for (let i = 0; i < 9; i += 1) {
    const claim = await first(m, '[data-testid^=claim-]');
    if (!claim) break;
    const id = await claim.getAttribute('data-testid');
    await act(m, other, `[data-testid=${id}]`, 'claim', times);
    done.claims.push(Number(id.slice('claim-'.length)));
    if ((await turnOf(m)) === 'over') return done;
  }
  const hand = (await handCards(m)).map((c) => c.id);
  if (wantGuile) {
    for (const id of hand.filter((c) => GUILE.includes(c))) {
      await m.click(`[data-testid=hand-card][data-card-id="${id}"]`);
      // Selected, a guile card's one command is "play it to the guile area".
      if ((await m.$$('[data-testid=bl-command]')).length === 1) {
        await act(m, other, '[data-testid=bl-command]', 'guile', times);
        done.guile = id;
        break;
      }
      await m.click(`[data-testid=hand-card][data-card-id="${id}"]`);
    }
    // Its steps (Scout's draws and returns, the card Redeploy, Deserter or Traitor
    // acts on), until the turn's draw is offered.
    for (let step = 0; done.guile && step < 8; step += 1) {
      if (await first(m, '[data-testid=draw-troop], [data-testid=draw-tactic], [data-testid=end-turn]')) break;
      if (await first(m, '[data-testid=bl-command]')) {
        await act(m, other, '[data-testid=bl-command] >> nth=0', `guile step (${done.guile})`, times);
        continue;
      }
      // Scout puts back a card chosen from the hand.
      for (const c of await m.$$('[data-testid=hand-card]')) {
        await c.click();
        if (await first(m, '[data-testid=bl-command]')) break;
      }
      if (!(await first(m, '[data-testid=bl-command]'))) throw new Error(`no way to go on with ${done.guile}`);
    }
  }
  if (!done.guile) {
    const order = [...hand.filter(isTroop), ...hand.filter((c) => !isTroop(c))];
    for (const id of order) {
      await m.click(`[data-testid=hand-card][data-card-id="${id}"]`);
      const place = await first(m, '[data-testid^=place-]');
      if (place) {
        await act(m, other, `[data-testid=${await place.getAttribute('data-testid')}]`, 'card', times);
        done.card = id;
        break;
      }
      await m.click(`[data-testid=hand-card][data-card-id="${id}"]`);
    }
    if (!done.card) {
      if (!(await first(m, '[data-testid=pass]'))) throw new Error('nothing to play and no pass');
      await act(m, other, '[data-testid=pass]', 'pass', times);
    }
  }
  if (beforeDraw && (await beforeDraw(m))) return done;
  let which;
  for (const o of wantGuile ? ['draw-tactic', 'draw-troop', 'end-turn'] : ['draw-troop', 'draw-tactic', 'end-turn']) {
    if (await first(m, `[data-testid=${o}]`)) { which = o; break; }
  }
  if (!which) throw new Error('no draw and no end of the turn offered');
  await act(m, other, `[data-testid=${which}]`, 'draw', times);
  return done;
}

// The page whose turn it is, waiting up to `timeout` for one.
export async function mover(pages, timeout = T) {
  const until = Date.now() + timeout;
  for (;;) {
    for (const p of pages) if ((await turnOf(p)) === 'mine') return p;
    if (Date.now() > until) return undefined;
    await sleep(50);
  }
}

// Creates a private room on `a` and joins it by id on `b` (the lobby opened in `b`
// before it); answers the room id.
export async function startMatch(h, a, b) {
  await a.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  await a.fill('[data-testid=bl-nickname]', 'あきら');
  await a.fill('[data-testid=bl-room-name]', '部屋_1');
  await a.check('[data-testid=bl-private]');
  await a.click('[data-testid=bl-create-room]');
  await a.waitForSelector('[data-testid=bl-room-id]', { timeout: T });
  const room = await value(a, 'bl-room-id');
  await a.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: T });
  await b.waitForSelector('[data-testid=bl-lobby]', { timeout: T });
  // A private room is not listed (the list is read when the lobby opens).
  await b.waitForFunction(() => !document.querySelector('[data-testid=bl-lobby]')?.textContent.match(/読み込み中|Loading/), null, { timeout: T });
  if (await b.$(`[data-testid=bl-room][data-room-id="${room}"]`)) h.fail('the private room is listed');
  await b.fill('[data-testid=bl-nickname]', 'Bo');
  await b.fill('[data-testid=bl-join-id]', room);
  await b.click('[data-testid=bl-join-id-go]');
  await b.waitForSelector('[data-testid=bl-room-id]', { timeout: T });
  return room;
}

// The first-player game: each picks a face-down card; the higher one chooses to go
// first. Answers the chooser's page.
export async function firstPlayer(a, b) {
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
  return chooser;
}

// Median, 99th percentile and maximum of `xs`.
export function stats(xs) {
  const s = [...xs].sort((x, y) => x - y);
  if (s.length === 0) return { median: NaN, p99: NaN, max: NaN, n: 0 };
  return {
    median: s[Math.floor(s.length / 2)],
    p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))],
    max: s[s.length - 1],
    n: s.length,
  };
}

const axe = readFileSync(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

// An axe-core scan of `page` as it is (as web/bench/a11y.mjs scans the static pages):
// fails on a serious or critical violation.
export async function axeScan(h, page, label) {
  await page.evaluate(axe);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of bad) {
    const nodes = v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ');
    h.fail(`axe, ${label}: ${v.impact} ${v.id} on ${v.nodes.length} node(s): ${nodes}`);
  }
  return result.violations.length - bad.length;
}
