// Battle Line online on two instances of the server sharing one PostgreSQL database, in
// headless Chromium: one browser makes a private room on the first instance, the other
// joins it by id on the second; the first-player game, then whole turns, each page
// seeing the other's moves through its own instance (the database's NOTIFY carries
// them between the two). Mid-turn the first instance is killed (`kill -9`): its page
// shows the stream lost; the instance starts again on the same port and database, both
// pages show `connected` again, and the game goes on from the server's state. After
// every turn both pages show the table the database holds (read from either instance).
// Prints how long the other page took to show each action.
//
// Usage (from the workspace root, after the release build of dist/; `scripts/dev test`
// runs it on a throwaway PostgreSQL cluster):
//   cargo build -p quantum-gomoku-server
//   node crates/quantum-gomoku-server/browser/battle_line_instances.mjs <server binary> <dist> <postgres://...>
import {
  T, agree, checkHidden, firstPlayer, harness, launch, mover, playTurn, serverRoom, startMatch, startServer,
  stats, turnOf,
} from './battle_line_common.mjs';

const [binary, dist, db] = process.argv.slice(2);
if (!db?.startsWith('postgres://')) {
  console.error('usage: battle_line_instances.mjs <server binary> <dist> <postgres://user@host:port/db>');
  process.exit(2);
}
const args = (port) => ['--port', String(port), '--static-dir', dist, '--db', db, '--create-burst', '0', '--seed', '3'];
const servers = [await startServer(binary, args(0)), await startServer(binary, args(0))];
const bases = servers.map((s) => s.base);
const browser = await launch();
const h = harness(browser);
const { fail } = h;

try {
  const a = await h.open(`${bases[0]}battle-line-online/#/battle-line/online`, 'host (first instance)');
  const b = await h.open(`${bases[1]}battle-line-online/#/battle-line/online`, 'guest (second instance)');
  const room = await startMatch(h, a, b);
  await firstPlayer(a, b);
  const pages = [a, b];
  // Both instances answer the same room, at the same version.
  const same = async (label) => {
    const [x, y] = [await serverRoom(bases[0], room), await serverRoom(bases[1], room)];
    if (x.version !== y.version) fail(`${label}: the instances answer versions ${x.version} and ${y.version}`);
    await agree(h, bases[1], room, pages, label);
  };
  await same('the deal');

  const times = [];
  let killed = false;
  let turns = 0;
  // Two turns, the first instance killed in the middle of the third, two turns after.
  while (turns < 5 && (await turnOf(a)) !== 'over') {
    const m = await mover(pages);
    if (!m) { fail(`no page has the turn after ${turns} turns`); break; }
    const other = m === a ? b : a;
    await checkHidden(h, other, m, `turn ${turns}`);
    await playTurn(m, other, times, {
      beforeDraw: async () => {
        if (turns !== 2) return false;
        servers[0].child.kill('SIGKILL');
        const t0 = Date.now();
        await a.waitForSelector('[data-testid=bl-connection]:not([data-state=connected])', { timeout: T });
        servers[0] = await startServer(binary, args(new URL(bases[0]).port));
        for (const page of pages) await page.waitForSelector('[data-testid=bl-connection][data-state=connected]', { timeout: 30000 });
        killed = true;
        console.log(`the first instance killed mid-turn and started again: both pages connected after ${Date.now() - t0} ms`);
        await same('after the restart, before the draw');
        return false;
      },
    });
    turns += 1;
    await same(`after turn ${turns}`);
  }
  if (!killed) fail('the first instance was never killed');
  if (turns < 5) fail(`only ${turns} turns were played`);
  await checkHidden(h, a, b, 'at the end (host)');
  await checkHidden(h, b, a, 'at the end (guest)');
  const s = stats(times.map((t) => t.other));
  console.log(`battle line on two instances: ${turns} turns, ${times.length} actions; click -> the other page (other instance) `
    + `shows it: median ${s.median.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
  if (s.max > 2000) fail('an update took over 2 s to reach the other instance\'s page');
} catch (e) {
  fail(String(e.stack ?? e));
} finally {
  await browser.close();
  for (const s of servers) s.child.kill();
}
if (h.failures.length) {
  console.error(h.failures.join('\n'));
  process.exit(1);
}
console.log('two browsers on two instances played Battle Line on one PostgreSQL database through a kill -9');
