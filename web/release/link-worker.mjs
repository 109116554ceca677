// Names another bundle's wasm module for a page's Web Workers (see `worker_module` in
// web/src/worker/mod.rs): writes
//   <meta name="games-worker" content="<bundle>/<glue>.js" data-wasm="<bundle>/<glue>_bg.wasm">
// into PAGE/index.html, reading the file names Trunk gave BUNDLE from BUNDLE/index.html.
// `scripts/dev` runs it so the duel pages' workers (the hint, the point of no return, the
// statistics) run the duel solver's bundle, whose engine is optimized for speed: the duel
// page leaves the solver out, and the pages' own copies are optimized for size.
//
//   node web/release/link-worker.mjs <page dir> <bundle dir, in the same site>
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

const [page, bundle] = process.argv.slice(2);
if (!page || !bundle) {
  console.error('usage: node web/release/link-worker.mjs <page dir> <bundle dir>');
  process.exit(2);
}
const fail = (why) => {
  console.error(`link-worker: ${why}`);
  process.exit(1);
};

const loader = await readFile(join(bundle, 'index.html'), 'utf8');
const glue = loader.match(/from '\.\/([\w.-]+\.js)'/)?.[1];
const wasm = loader.match(/module_or_path: '\.\/([\w.-]+\.wasm)'/)?.[1];
if (!glue || !wasm) fail(`${bundle}/index.html names no wasm-bindgen glue and wasm`);

const folder = relative(page, bundle).split(sep).join('/');
if (!folder) fail(`${bundle} is the page's own folder`);
const meta = `<meta name=games-worker content="${folder}/${glue}" data-wasm="${folder}/${wasm}">`;

const html = await readFile(join(page, 'index.html'), 'utf8');
if (html.includes('name=games-worker')) fail(`${page}/index.html names a worker module already`);
if (!html.includes('</head>')) fail(`${page}/index.html has no </head>`);
await writeFile(join(page, 'index.html'), html.replace('</head>', `${meta}</head>`));
console.log(`link-worker: ${page}/index.html runs its workers from ${folder}/${glue}`);
