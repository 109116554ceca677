// The page's Web Worker (see web/src/worker/mod.rs). On the page this module only exports
// `spawn`. Started as a worker, it loads the page's own wasm-bindgen glue and compiled wasm
// module (their URL and the module come in the first message) and answers every later
// message through the Rust export `gamesWorkerRun`, one at a time, in order.

export function spawn(glueUrl, wasmModule) {
  const worker = new Worker(new URL(import.meta.url), { type: 'module', name: 'games-worker' });
  worker.postMessage({ glueUrl, wasmModule });
  return worker;
}

if (typeof DedicatedWorkerGlobalScope === 'function' && self instanceof DedicatedWorkerGlobalScope) {
  let ready;
  // A rejected promise would only reach the worker's own console; thrown from a timer it
  // becomes an error event on the page's Worker object, which then falls back to the page.
  const fail = (error) => setTimeout(() => { throw error; });
  self.onmessage = (event) => {
    if (ready === undefined) {
      const { glueUrl, wasmModule } = event.data;
      ready = import(glueUrl).then(async (glue) => {
        await glue.default({ module_or_path: wasmModule });
        return glue;
      });
      ready.catch(fail);
      return;
    }
    ready.then((glue) => self.postMessage(glue.gamesWorkerRun(event.data))).catch(fail);
  };
}
