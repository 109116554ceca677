// Release smoke test of the per-game bundles in dist/: the home page links to each
// game's own bundle and back (and the duel's to its replay and statistics bundle and its
// deck lab), hash
// links into the wrong bundle move to the right one,
// nothing fails to load, and no request leaves the page's origin. Battle Line online's
// bundle, served here without its game server, says online play needs the server, links
// back, and no page asks for the API. Run by scripts/dev test.
import { launch, serveDist } from './serve.mjs';

const { server, base } = await serveDist(new URL('../../dist/', import.meta.url).pathname);
const browser = await launch();
const page = await browser.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e}`));
page.on('requestfailed', (r) => {
  // The browser drops a page's favicon fetch when the next navigation starts at once.
  if (r.url().endsWith('/icon.svg') && r.failure()?.errorText === 'net::ERR_ABORTED') return;
  // A page that moves on while its Web Worker still fetches the workers' module (the replay
  // page asks for its point of no return at once) aborts that fetch.
  if (bundleOf(r.url()) in workerModules && r.failure()?.errorText === 'net::ERR_ABORTED') return;
  problems.push(`failed request: ${r.url()} (${r.failure()?.errorText})`);
});
page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
page.on('request', (r) => { if (!r.url().startsWith(base)) problems.push(`outside request: ${r.url()}`); });
// A static host has no game server: no page asks it for anything.
page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) problems.push(`API request from a static page: ${r.url()}`); });
// Every bundle has a Web Worker (a wasm-bindgen snippet): a page must load its own
// bundle's, never another's, except that the duel pages' workers (the hint, the
// statistics) run the duel solver's module and the Battle Line page's (the computer) the
// battle-line-ai module (web/release/link-worker.mjs), whose glue imports its own copy.
const workerModules = {
  'duel-solver': ['home', 'duel-analysis', 'deck-lab'],
  'battle-line-ai': ['battle-line'],
};
const bundleOf = (url) => ['quantum-gomoku', 'battle-line', 'battle-line-online', 'duel-analysis', 'deck-lab',
  ...Object.keys(workerModules)].find((g) => url.startsWith(`${base}${g}/`)) ?? 'home';
const workerScripts = new Set();
// The files of a workers' module each page asked for: `<module> from <page bundle>` -> URLs.
const moduleFiles = new Map();
page.on('request', (r) => {
  const [from, at] = [bundleOf(page.url()), bundleOf(r.url())];
  if (at in workerModules) {
    if (workerModules[at].includes(from)) moduleFiles.set(`${at} from ${from}`, [...(moduleFiles.get(`${at} from ${from}`) ?? []), r.url()]);
    else problems.push(`the ${at} module loaded by ${from}: ${r.url()}`);
    return;
  }
  if (!r.url().includes('/snippets/')) return;
  if (from === at) workerScripts.add(at);
  else problems.push(`worker script of ${at} loaded by ${from}: ${r.url()}`);
});
const ranOn = (module, from) => (moduleFiles.get(`${module} from ${from}`) ?? []).some((u) => u.endsWith('.wasm'));

const expect = async (what, selector, path) => {
  try {
    await page.waitForSelector(selector, { timeout: 10000 });
  } catch {
    problems.push(`${what}: ${selector} never appeared (at ${page.url()})`);
    return;
  }
  const at = new URL(page.url()).pathname;
  if (at !== path) problems.push(`${what}: at ${at}, expected ${path}`);
  console.log(`ok: ${what} (${page.url().slice(base.length - 1)})`);
};

await page.goto(base);
await expect('home', '[data-testid=link-battle-line]', '/');
await page.click('[data-testid=link-battle-line]');
await expect('home -> Battle Line bundle', '[data-testid=mode-cpu]', '/battle-line/');
await page.click('[data-testid=brand]');
await expect('Battle Line -> home', '[data-testid=link-quantum-gomoku]', '/');
await page.click('[data-testid=link-quantum-gomoku]');
await expect('home -> Quantum Gomoku bundle', '[data-testid=board]', '/quantum-gomoku/');
await expect('its win estimate comes from the Web Worker', '[data-testid=win-probability][data-worker=true]', '/quantum-gomoku/');
await page.selectOption('[data-testid=qg-opponent]', 'computer-black');
await expect('the computer (black) opens in the centre', '[data-testid=cell-7-7] [data-testid=stone]', '/quantum-gomoku/');
await expect('... having thought in the Web Worker', '[data-testid=qg-computer][data-worker=true]', '/quantum-gomoku/');
await page.selectOption('[data-testid=qg-opponent]', 'human');
await page.goto(`${base}#/battle-line?seed=5`);
await expect('a Battle Line hash link at the root moves to its bundle', '[data-testid=mode-cpu]', '/battle-line/');
if (!page.url().includes('seed=5')) problems.push(`the seed was lost on the way: ${page.url()}`);
await page.click('[data-testid=mode-cpu]');
await page.click('[data-testid=hand-card]');
await page.click('[data-testid=slot-0-0]');
await page.click('[data-testid=draw-troop]');
await expect('the Battle Line computer answers', '[data-testid=bot-move]', '/battle-line/');
if (!ranOn('battle-line-ai', 'battle-line')) problems.push("the Battle Line computer did not run on the battle-line-ai module");
else console.log('ok: ... on the battle-line-ai module');
// Battle Line online needs the game server: from a static host the Battle Line page does
// not offer it, and its own bundle (dist/battle-line-online/) says so and links back.
await page.goto(`${base}battle-line/#/battle-line`);
// (The game against the computer above is saved: the page resumes it.)
const battleLine = '[data-testid=mode-cpu], [data-testid=board]';
await expect('the Battle Line page again', battleLine, '/battle-line/');
if (await page.$('[data-testid=bl-online]')) problems.push('a static Battle Line page offers online play');
// Leaving a page while its Web Worker's script loads would cancel that request.
await page.waitForLoadState('networkidle');
await page.goto(`${base}battle-line-online/#/battle-line/online`);
await expect('the Battle Line online bundle opens without a server', '[data-testid=bl-lobby] [role=status]', '/battle-line-online/');
if (await page.$('[data-testid=bl-create-room], [data-testid=bl-join-id]')) problems.push('the online page offers rooms without a server');
await page.click('[data-testid=bl-lobby] a[href]');
await expect('... and links back to the Battle Line bundle', battleLine, '/battle-line/');
await page.waitForLoadState('networkidle');
await page.goto(`${base}#/battle-line/online`);
await expect('a Battle Line online hash link at the root moves to its bundle', '[data-testid=bl-lobby]', '/battle-line-online/');
await page.goto(`${base}battle-line/#/battle-line/online?room=abcdefghjkmn`);
await expect('... and one in the Battle Line bundle', '[data-testid=bl-lobby]', '/battle-line-online/');
if (!page.url().includes('room=abcdefghjkmn')) problems.push(`the room was lost on the way: ${page.url()}`);
await page.goto(`${base}battle-line-online/#/battle-line?seed=5`);
await expect('a Battle Line link in the online bundle moves to the Battle Line bundle', battleLine, '/battle-line/');
await page.waitForLoadState('networkidle');
await page.goto(`${base}quantum-gomoku/#/simulator/exodia-deck?seed=1`);
await expect('a duel link inside another bundle moves to the root', '[data-testid=zone-hand]', '/');
if (moduleFiles.has('duel-solver from home')) problems.push(`the duel page loaded the solver's module before a hint: ${moduleFiles.get('duel-solver from home')}`);
await page.click('[data-testid=btn-hint]');
await expect('the duel hint answers', '[data-testid=hint-result]', '/');
if (!ranOn('duel-solver', 'home')) problems.push("the hint did not run on the duel solver's module");
else console.log("ok: ... from the duel solver's module, loaded only then");
// The replay and statistics pages live in dist/duel-analysis/.
await page.click('[data-testid=btn-share]');
await expect('the duel page shares its game', '[data-testid=share-url]', '/');
const shareUrl = await page.getAttribute('[data-testid=share-url]', 'href');
if (!shareUrl.startsWith(`${base}duel-analysis/#/replay/`)) problems.push(`the share URL is not the replay bundle's: ${shareUrl}`);
await page.goto(shareUrl);
await expect('the share URL opens the replay page', '[data-testid=replay-position]', '/duel-analysis/');
await page.click('[data-testid=btn-replay-continue]');
await expect('... whose "continue" goes back to the duel page', '[data-testid=practice-bar]', '/');
const code = new URL(shareUrl).hash.slice('#/replay/'.length);
await page.goto(`${base}#/replay/${code}`);
await expect('a replay hash link at the root moves to its bundle', '[data-testid=replay-position]', '/duel-analysis/');
await page.click('[data-testid=brand]');
await expect('replay page -> home', '[data-testid=btn-stats]', '/');
await page.click('[data-testid=btn-stats]');
await expect('home -> the statistics bundle', '[data-testid=stats-run]', '/duel-analysis/');
// An address from before every hand got the same budget: its `budget` is ignored.
await page.goto(`${base}#/stats/exodia-deck?hands=6&budget=300`);
await expect('a statistics hash link at the root moves to its bundle', '[data-testid=stats-run]', '/duel-analysis/');
if (!page.url().includes('hands=6')) problems.push(`the statistics query was lost on the way: ${page.url()}`);
await page.click('[data-testid=stats-run]');
await expect('the statistics run in the Web Workers', '[data-testid=stats-done]', '/duel-analysis/');
if (!ranOn('duel-solver', 'duel-analysis')) problems.push("the statistics did not run on the duel solver's module");
else console.log("ok: ... on the duel solver's module");
await page.goto(`${base}duel-analysis/#/simulator/exodia-deck?seed=1`);
await expect('a duel link inside the statistics bundle moves to the root', '[data-testid=zone-hand]', '/');
// The deck lab is a bundle of its own (no solver).
await page.goto(base);
await page.click('[data-testid=btn-deck-lab]');
await expect('home -> the deck lab bundle', '[data-testid=deck-lab]', '/deck-lab/');
await page.click('[data-testid=lab-from-preset][data-deck="exodia-deck"]');
await expect('the deck lab deals a preset', '[data-testid=lab-legal]', '/deck-lab/');
await page.goto(`${base}duel-analysis/#/deck-lab`);
await expect('a deck lab hash link in another bundle moves to its bundle', '[data-testid=deck-lab]', '/deck-lab/');
for (const bundle of ['home', 'duel-analysis', 'quantum-gomoku', 'battle-line']) {
  if (!workerScripts.has(bundle)) problems.push(`${bundle}: its Web Worker never started`);
}

await browser.close();
server.close();
if (problems.length > 0) {
  console.log(problems.join('\n'));
  process.exit(1);
}
console.log('bundles: all links work');
