// Renders web/pwa/icon.svg into the PNG icons the manifest lists (192 and 512 px), with
// Debian's Chromium. The PNGs are committed; rerun after changing the SVG:
// `node web/pwa/icons.mjs`.
import { readFile } from 'node:fs/promises';
import { launch } from '../bench/serve.mjs';

const here = new URL('.', import.meta.url).pathname;
const svg = await readFile(`${here}icon.svg`, 'utf8');
const browser = await launch();
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`);
  await page.screenshot({ path: `${here}icon-${size}.png`, omitBackground: true });
  await page.close();
}
await browser.close();
console.log('icons: web/pwa/icon-192.png, web/pwa/icon-512.png');
