// Compares two builds of the duel solver's module (dist/duel-solver/ of two release
// builds) in headless Chromium, hand by hand: each seeded opening hand is solved through
// the job entry point of one build, then of the other (the order alternating from hand to
// hand), on the same page thread, so a change of load on the machine weighs on both alike.
// Prints, per deck, the summed time of each build, their ratio, the p95 of each, and
// whether every hand got the same answer from both.
// `DIST_A=<dist> DIST_B=<dist> [HANDS=200] [BUDGET=20000] [FROM=0] [DECKS=...]
//  node web/bench/duel-ab.mjs` (each DIST holding a duel-solver/ folder).
import { launch, serveDist } from './serve.mjs';

const HANDS = Number(process.env.HANDS ?? 200);
const BUDGET = Number(process.env.BUDGET ?? 20000);
const FROM = Number(process.env.FROM ?? 0);
const DECKS = (process.env.DECKS
  ?? 'exodia-deck,legacy-exodia-deck,library-exodia-deck,panda-exodia-deck,scientist-catapult-deck').split(',');
if (!process.env.DIST_A || !process.env.DIST_B) {
  console.error('DIST_A and DIST_B name the two builds (folders holding duel-solver/)');
  process.exit(2);
}

const browser = await launch();
const builds = [];
for (const dist of [process.env.DIST_A, process.env.DIST_B]) {
  const { server, base } = await serveDist(dist);
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`page error (${dist}): ${e}`));
  await page.goto(`${base}duel-solver/`);
  await page.waitForFunction(() => typeof window.wasmBindings?.gamesWorkerRun === 'function');
  builds.push({ dist, server, page });
}

// One hand through a build's job entry point: [ms, ok, payload].
const solve = (page, deck, seed) => page.evaluate(({ deck, seed, budget }) => {
  const [, ms, , ok, payload] = window.wasmBindings.gamesWorkerRun([seed + 1, 'duel.hands', `${deck}.3.${budget}.${seed}.1`]);
  return [ms, ok, payload];
}, { deck, seed, budget: BUDGET });

const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
let differ = 0;
for (const deck of DECKS) {
  const times = [[], []];
  for (let seed = FROM; seed < FROM + HANDS; seed++) {
    const order = seed % 2 === 0 ? [0, 1] : [1, 0];
    const answers = [];
    for (const b of order) {
      // The page in front: Chromium runs a page behind another a few percent slower.
      await builds[b].page.bringToFront();
      const [ms, ok, payload] = await solve(builds[b].page, deck, seed);
      if (!ok) throw new Error(`${builds[b].dist}: ${payload}`);
      times[b].push(ms);
      answers[b] = payload;
    }
    if (answers[0] !== answers[1]) {
      differ += 1;
      console.log(`${deck} seed ${seed}: the builds answer ${answers[0].slice(0, 40)} / ${answers[1].slice(0, 40)}`);
    }
  }
  const sum = times.map((t) => t.reduce((a, b) => a + b, 0) / 1000);
  console.log(`${deck}, seeds ${FROM}-${FROM + HANDS - 1}: A ${sum[0].toFixed(2)} s, B ${sum[1].toFixed(2)} s `
    + `(B/A ${(sum[1] / sum[0]).toFixed(3)}); p95 A ${p95(times[0]).toFixed(1)} ms, B ${p95(times[1]).toFixed(1)} ms`);
}

await browser.close();
for (const b of builds) b.server.close();
if (differ > 0) {
  console.error(`${differ} hands answered differently`);
  process.exit(1);
}
