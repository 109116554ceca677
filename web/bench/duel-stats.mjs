// Measures the duel solver in the release build (dist/) in headless Chromium. For each
// deck: (1) SAMPLE opening hands solved one at a time through the job entry point of the
// duel solver's module (dist/duel-solver/, the code the statistics workers run), giving
// the median, p95, p99 and longest time to decide a hand and the mean time of the hands the budget does
// not decide (they spend all of it: budget / 2 guided playouts in nested and, for Exodia,
// adaptive searches, then the statistics' longer search, `solver::solve_deep`);
// (2) the statistics page itself, HANDS hands at
// its own budget per hand (`stats::HAND_BUDGET`; BUDGET is for (1) only) in its Web
// Workers (one per core), timed from the click on `stats-run` to `stats-done`, with the
// win rate and 95% interval it shows.
// `cargo run --profile fast -p duel-engine --example duel-win-rate -- 1000 300` is the
// native counterpart. Run after `scripts/dev bench` (or `trunk build --release
// --no-default-features --features duel`): `node web/bench/duel-stats.mjs`
// (HANDS=10000 BUDGET=300 SAMPLE=300 DECKS=exodia-deck,... to change what it runs).
import { launch, serveDist } from './serve.mjs';

const HANDS = Number(process.env.HANDS ?? 10000);
const BUDGET = Number(process.env.BUDGET ?? 300);
const SAMPLE = Number(process.env.SAMPLE ?? 300);
const DECKS = (process.env.DECKS
  ?? 'exodia-deck,legacy-exodia-deck,library-exodia-deck,panda-exodia-deck,scientist-catapult-deck').split(',');
const dist = process.env.DIST ?? new URL('../../dist/', import.meta.url).pathname;

const { server, base } = await serveDist(dist);
const browser = await launch();
const page = await browser.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e}`));
page.on('console', (m) => {
  if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console error: ${m.text()}`);
});

// The statistics page lives in the duel-analysis bundle; its workers run the duel solver's
// module, which (1) loads as a page of its own to call its job entry point.
const analysis = `${base}duel-analysis/`;
const solver = `${base}duel-solver/`;
const openSolver = async () => {
  await page.goto(solver);
  await page.waitForFunction(() => typeof window.wasmBindings?.gamesWorkerRun === 'function');
};
await openSolver();
const cores = await page.evaluate(() => navigator.hardwareConcurrency);
console.log(`headless Chromium, navigator.hardwareConcurrency = ${cores}; budget ${BUDGET} positions per hand`);

const pct = (x) => `${(100 * x).toFixed(1)}%`;
for (const deck of DECKS) {
  // (1) One hand at a time, on the page's thread.
  await openSolver();
  const one = await page.evaluate(({ deck, sample, budget }) => {
    const times = [];
    let undecided = 0;
    let undecidedMs = 0;
    for (let seed = 0; seed < sample; seed++) {
      // The job's text: `<deck>.<settings bits>.<budget>.<first>.<count>`; the default
      // settings are bits 3 (Into the Void counts itself, chain confirmation).
      const body = `${deck}.3.${budget}.${seed}.1`;
      // The reply is [id, ms, inWorker, ok, payload]; ms is measured where the job ran.
      const [, ms, , ok, payload] = window.wasmBindings.gamesWorkerRun([seed + 1, 'duel.hands', body]);
      if (!ok) throw new Error(payload);
      times.push(ms);
      // The payload is `<result code>:<the opening hand's passcodes>`.
      if (payload.startsWith('u:')) {
        undecided += 1;
        undecidedMs += ms;
      }
    }
    times.sort((a, b) => a - b);
    return {
      median: times[Math.floor(times.length / 2)],
      p95: times[Math.floor(times.length * 0.95)],
      p99: times[Math.floor(times.length * 0.99)],
      max: times[times.length - 1],
      undecided,
      undecidedMean: undecided > 0 ? undecidedMs / undecided : 0,
    };
  }, { deck, sample: SAMPLE, budget: BUDGET });
  console.log(`${deck}: ${SAMPLE} hands one by one on the page: median ${one.median.toFixed(1)} ms, p95 ${one.p95.toFixed(1)} ms, `
    + `p99 ${one.p99.toFixed(1)} ms, max ${one.max.toFixed(1)} ms; `
    + `${one.undecided} undecided, ${Math.round(one.undecidedMean)} ms each on average`);

  // (2) The statistics page, from a cleared cache.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('games.duel.stats|')) localStorage.removeItem(key);
  });
  await page.goto(`${analysis}#/stats/${deck}?hands=${HANDS}`);
  await page.waitForSelector('[data-testid=stats-run]:not([disabled])');
  const t0 = Date.now();
  await page.click('[data-testid=stats-run]');
  await page.waitForSelector('[data-testid=stats-done], [data-testid=stats-error]', { timeout: 30 * 60 * 1000 });
  const wall = (Date.now() - t0) / 1000;
  const shown = await page.evaluate(() => {
    const text = (id) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? '';
    return {
      error: text('stats-error'),
      rate: Number(document.querySelector('[data-testid=stats-winrate]').dataset.value),
      interval: text('stats-interval').trim(),
      won: text('stats-won'),
      lost: text('stats-lost'),
      undecided: text('stats-undecided-count'),
      elapsed: text('stats-elapsed'),
    };
  });
  if (shown.error) problems.push(`${deck}: ${shown.error}`);
  console.log(`${deck}: ${HANDS} hands on the statistics page in ${wall.toFixed(1)} s (page: ${shown.elapsed}); `
    + `won ${pct(shown.rate)} ${shown.interval}; won/lost/undecided ${shown.won}/${shown.lost}/${shown.undecided}`);
}

await browser.close();
server.close();
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
