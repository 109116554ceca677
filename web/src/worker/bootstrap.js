// The page's Web Worker (see web/src/worker/mod.rs). On the page this module only exports
// `spawn`. Started as a worker, it loads a wasm-bindgen glue and its wasm (the page's own
// compiled module, or another bundle's glue and wasm URL: both come in the first message)
// and answers every later message through the Rust export `gamesWorkerRun`, one at a time,
// in order.

export function spawn(glueUrl, wasmModule) {
  const worker = new Worker(new URL(import.meta.url), { type: 'module', name: 'games-worker' });
  worker.postMessage({ glueUrl, wasmModule });
  return worker;
}

// A worker running another bundle's module (see `worker_module`) also imports that bundle's
// copy of this script: only the first copy to run answers messages.
if (typeof DedicatedWorkerGlobalScope === 'function' && self instanceof DedicatedWorkerGlobalScope
  && !self.gamesWorker) {
  self.gamesWorker = true;
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
