// Gives a bundle's wasm imports short names, in the module and in its wasm-bindgen glue.
//
// wasm-bindgen names each function the module imports from its glue after the Rust item
// and a 16-digit hash (`__wbg_setattribute_1a2b...`), and the name is written twice: in
// the module's import section and as a key of the imports object in the glue. Some 180
// such names make about 6 KB of a gzipped duel bundle, the hashes compressing worst of
// all. They are read by nobody but the instantiation, so each becomes `_a`, `_b`, ...
// (in the module's order) in both files. wasm-opt's `--minify-imports` cannot do this:
// it renames only the imports of the module `env`, and wasm-bindgen's come from the glue.
//
// The glue must name each import exactly once (the imports object's key); anything else
// throws, so a wasm-bindgen that writes its glue differently fails the build instead of
// making a module that no longer links.

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function leb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

/** A name of its own for the `index`th import: `_a` ... `_Z`, `_aa`, ... */
function shortName(index) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let name = '';
  let i = index;
  do {
    name = letters[i % letters.length] + name;
    i = Math.floor(i / letters.length) - 1;
  } while (i >= 0);
  return `_${name}`;
}

/** The end of an import's description that starts (with its kind) at `at`. */
function skipDescription(bytes, at) {
  const kind = bytes[at++];
  switch (kind) {
    case 0x00: // function: a type index
      return readLeb(bytes, at)[1];
    case 0x01: // table: a reference type, then limits
    case 0x02: { // memory: limits
      if (kind === 0x01) at++;
      const flags = bytes[at++];
      at = readLeb(bytes, at)[1];
      return flags & 1 ? readLeb(bytes, at)[1] : at;
    }
    case 0x03: // global: a value type and mutability
      return at + 2;
    case 0x04: // tag: an attribute and a type index
      return readLeb(bytes, at + 1)[1];
    default:
      throw new Error(`short-imports: unknown import kind ${kind}`);
  }
}

/**
 * `wasm` (bytes) and its `glue` (source) with every import renamed. Returns the new
 * module, the new glue and how many imports were renamed.
 */
export function shortenImports(wasm, glue) {
  const text = new TextDecoder();
  const parts = [wasm.subarray(0, 8)];
  const renamed = new Map();
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readLeb(wasm, at + 1);
    const end = start + size;
    if (id !== 2) {
      parts.push(wasm.subarray(at, end));
      at = end;
      continue;
    }
    let [count, p] = readLeb(wasm, start);
    const body = [...leb(count)];
    for (let i = 0; i < count; i++) {
      let length;
      [length, p] = readLeb(wasm, p);
      const module = wasm.subarray(p, p + length);
      p += length;
      [length, p] = readLeb(wasm, p);
      const name = text.decode(wasm.subarray(p, p + length));
      p += length;
      const description = wasm.subarray(p, skipDescription(wasm, p));
      p += description.length;
      const short = shortName(i);
      renamed.set(name, short);
      body.push(...leb(module.length), ...module, ...leb(short.length), ...Buffer.from(short),
        ...description);
    }
    if (p !== end) throw new Error('short-imports: the import section did not end where it said');
    parts.push(Buffer.from([2, ...leb(body.length), ...body]));
    at = end;
  }
  for (const [name, short] of renamed) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const word = new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, 'g');
    const found = glue.match(word)?.length ?? 0;
    if (found !== 1) {
      throw new Error(`short-imports: the glue names the import ${name} ${found} times, not once`);
    }
    glue = glue.replace(word, short);
  }
  return { wasm: Buffer.concat(parts), glue, count: renamed.size };
}
