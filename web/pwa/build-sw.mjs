// Writes DIST/sw.js (default dist/) from web/pwa/sw.js for the release built there: the
// list of every file to keep offline and a version that changes whenever any file does.
// Run by `scripts/dev build` (and test, bench) after the per-game bundles are in place.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { walk } from '../release/files.mjs';

const dist = process.argv[2] ?? new URL('../../dist/', import.meta.url).pathname;
const template = await readFile(new URL('sw.js', import.meta.url), 'utf8');

const files = (await walk(dist))
  .map((f) => relative(dist, f).split(sep).join('/'))
  .filter((f) => f !== 'sw.js')
  .sort();
const hash = createHash('sha256');
for (const f of files) {
  hash.update(`${f}\0`);
  hash.update(await readFile(join(dist, f)));
}
const version = hash.digest('hex').slice(0, 16);
// A folder's index.html is asked for by the folder's address (`./`, `battle-line/`).
const urls = files.map((f) => (f === 'index.html' ? './' : f.replace(/(^|\/)index\.html$/, '$1')));
const sw = template
  .replace("'__VERSION__'", () => JSON.stringify(version))
  .replace('__FILES__', () => JSON.stringify(urls, null, 2));
await writeFile(join(dist, 'sw.js'), sw);
console.log(`service worker: ${join(dist, 'sw.js')} caches ${urls.length} files (release ${version})`);
