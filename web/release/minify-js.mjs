// Minifies the JavaScript of every release bundle in DIST (default dist/): each bundle's
// wasm-bindgen glue and its snippets (the worker script), which Trunk's own minifier
// cannot parse and copies as they are. A glue's imports get short names in it and in its
// wasm (short-imports.mjs). The pages name these files with a subresource integrity hash,
// so each page's hash of a file is replaced by the new file's.
// Run by `scripts/dev` after the bundles are built and before the service worker lists
// them.
//
//   node web/release/minify-js.mjs [dist]
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { minify } from 'terser';
import { walk } from './files.mjs';
import { shortenImports } from './short-imports.mjs';

const dist = process.argv[2] ?? new URL('../../dist/', import.meta.url).pathname;
const integrity = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

const files = await walk(dist);
const pages = files.filter((f) => f.endsWith('index.html'));
const scripts = files.filter((f) => f.endsWith('.js') && !f.endsWith('sw.js'));
const html = new Map();
for (const page of pages) html.set(page, await readFile(page, 'utf8'));

let before = 0;
let after = 0;
let imports = 0;
const rehash = (oldHash, newHash) => {
  for (const [page, text] of html) html.set(page, text.replaceAll(oldHash, newHash));
};
for (const file of scripts) {
  const source = await readFile(file, 'utf8');
  const result = await minify(source, {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  if (typeof result.code !== 'string') throw new Error(`terser gave nothing for ${file}`);
  let code = result.code;
  // wasm-bindgen's glue `web-<hash>.js` goes with `web-<hash>_bg.wasm`.
  const module = file.replace(/\.js$/, '_bg.wasm');
  if (files.includes(module)) {
    const wasm = await readFile(module);
    const short = shortenImports(wasm, code);
    code = short.glue;
    await writeFile(module, short.wasm);
    rehash(integrity(wasm), integrity(short.wasm));
    imports += short.count;
  }
  await writeFile(file, code);
  rehash(integrity(source), integrity(code));
  before += source.length;
  after += code.length;
}
for (const [page, text] of html) await writeFile(page, text);
console.log(`minify-js: ${scripts.length} scripts in ${dist}, ${before} -> ${after} bytes; ${imports} wasm imports renamed`);
