// The companion's service worker: the app's files come from the cache when the network is
// slow or gone; pages are fetched fresh and kept as a fallback; the API is never cached.
const CACHE = "spellpress-{{ config.ASSET_VERSION }}";
const SHELL = [
  "{{ asset('app.css') }}", "{{ asset('trackers.js') }}", "{{ asset('rules.js') }}", "{{ asset('theme.js') }}",
  "{{ games_js() }}", ...{{ modules() | tojson }},
  "{{ asset('icon.svg') }}", "{{ asset('icon-192.png') }}", "/",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  const versioned = url.pathname.startsWith("/static/") || url.pathname.startsWith("/modules/") || url.pathname === "/games.js";
  if (versioned) {  // the cache first
    event.respondWith(caches.match(event.request).then((hit) => hit || fetch(event.request)));
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((hit) => hit || caches.match("/")))
  );
});
