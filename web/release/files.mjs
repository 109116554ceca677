// Every file under a folder, for the release scripts that rewrite or list dist/.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function walk(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await walk(path));
    else out.push(path);
  }
  return out;
}
