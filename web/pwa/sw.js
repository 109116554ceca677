// The site's service worker: keeps one release of every bundle (home + duel, Battle Line,
// Quantum Gomoku) in the Cache Storage so each game opens and plays offline after one
// visit. `web/pwa/build-sw.mjs` writes dist/sw.js from this file, filling in the release's
// version (a hash of every file) and its file list; a new release therefore has a new
// sw.js, which the browser installs, and its `activate` deletes the old release's cache.
const VERSION = '__VERSION__';
// Paths relative to this script: the bundles' hashed files, their folders (whose
// index.html a host serves for `./`, `battle-line/`, ...), the manifest and icons.
const FILES = __FILES__;
const PREFIX = 'games-';
const CACHE = `${PREFIX}${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `reload` skips the HTTP cache, so the cache never keeps a stale copy of a page.
    await cache.addAll(FILES.map((f) => new Request(new URL(f, self.registration.scope), { cache: 'reload' })));
    // The new release takes over at once; pages already open keep the code they loaded.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // Pages: the network first, so a new release (or `trunk serve` on the same address)
    // shows at once; the cached page when the network is gone. The hash never reaches
    // here and a `?seed=` query does not change the page.
    event.respondWith(fetch(request).catch(async () =>
      (await caches.match(request, { ignoreSearch: true, cacheName: CACHE })) ?? Response.error()));
    return;
  }
  // Everything else has its content's hash in its name: the cache first.
  event.respondWith((async () =>
    (await caches.match(request, { cacheName: CACHE })) ?? fetch(request))());
});
