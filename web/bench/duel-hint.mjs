// The hint's time in the browser on positions reached in play: the questions that
// `duel-hint-time` writes natively (CODES=<file>: the positions a quarter, half and three
// quarters along the solver's winning line and after 3, 6 and 10 random commands, for each
// seeded deal of each deck) are asked one at a time through the duel solver's module's
// job entry point (`duel.hint`, the job the hint's worker runs, on the page's thread here),
// in headless Chromium against the release build (BUNDLE=duel-analysis asks that bundle's
// own copy of the solver instead, built for size). Prints, per deck, the answers (won /
// proved lost / undecided, and how many differ from the native answer) and the time per
// position: median, p95, p99, max.
//
//   cargo run --profile fast -p duel-engine --example duel-hint-time -- 60 20000 \
//     > /dev/null  # with CODES=target/hint-questions.txt
//   scripts/dev build && node web/bench/duel-hint.mjs target/hint-questions.txt
import { readFile } from 'node:fs/promises';
import { launch, serveDist } from './serve.mjs';

const file = process.argv[2] ?? 'target/hint-questions.txt';
const dist = process.env.DIST ?? new URL('../../dist/', import.meta.url).pathname;
const questions = (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => {
  const [deck, body, native] = line.split(' ');
  return { deck, body, native };
});

const { server, base } = await serveDist(dist);
const browser = await launch();
const page = await browser.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e}`));
// The duel-analysis bundle's address needs one of its own routes, or its router moves on.
const bundle = process.env.BUNDLE ?? 'duel-solver';
await page.goto(bundle === 'duel-solver' ? `${base}duel-solver/` : `${base}${bundle}/#/stats/exodia-deck`);
await page.waitForFunction(() => typeof window.wasmBindings?.gamesWorkerRun === 'function');

const decks = [...new Set(questions.map((q) => q.deck))];
for (const deck of decks) {
  const mine = questions.filter((q) => q.deck === deck);
  const result = await page.evaluate((mine) => {
    const times = [];
    const said = { win: 0, 'no-win': 0, undecided: 0 };
    let differ = 0;
    let shortest = 0;
    mine.forEach((q, i) => {
      // The reply is [id, ms, inWorker, ok, payload]; ms is measured where the job ran.
      const [, ms, , ok, payload] = window.wasmBindings.gamesWorkerRun([i + 1, 'duel.hint', q.body]);
      if (!ok) throw new Error(payload);
      times.push(ms);
      // The payload's first line is `win.<line>` (`win-shortest.<line>` when the line is
      // proved shortest), `no-win` or `undecided`.
      let head = payload.split('\n')[0].split('.')[0];
      if (head === 'win-shortest') {
        shortest += 1;
        head = 'win';
      }
      said[head] += 1;
      if (head !== q.native) differ += 1;
    });
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.round((times.length - 1) * q)];
    return { n: times.length, said, differ, shortest, median: at(0.5), p95: at(0.95), p99: at(0.99), max: times[times.length - 1] };
  }, mine);
  console.log(`${deck}: ${result.n} positions, won ${result.said.win} (${result.shortest} proved shortest) / proved lost ${result.said['no-win']} / `
    + `undecided ${result.said.undecided} (${result.differ} differ from the native answer); ms median `
    + `${result.median.toFixed(1)}, p95 ${result.p95.toFixed(1)}, p99 ${result.p99.toFixed(1)}, max ${result.max.toFixed(1)}`);
  if (result.differ) problems.push(`${deck}: ${result.differ} answers differ from the native ones`);
}

await browser.close();
server.close();
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
