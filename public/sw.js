/*
 * Offline reading of owned and rented episodes (issue 6 §5). Registered by the viewer with scope /viewer/, so it
 * only ever sees viewer pages and what they load. Nothing is cached unless the reader saves an episode:
 * the viewer posts {type: 'save', episodeId, page, urls, expiresAt, series, episode, expired: {lang, dir, title, text}}.
 * The settings page (/setting) lists what is saved ({type: 'list'} → {ok, items}), removes one episode
 * ({type: 'remove', episodeId}) or everything ({type: 'clear'}).
 *
 * - Online, every request goes to the network first (the server checks each slice's signed URL);
 *   the saved copy is used only when the network fails.
 * - Signed slice URLs are stored without their exp/sig (episode, slice, width), so a saved page whose URLs
 *   were signed at another time still finds its images.
 * - A rental is deleted once it ends (on activation, on each message, on each viewer navigation); a saved
 *   rental opened offline after its end is refused (403 page in the reader's language) and deleted.
 *
 * The offline start page (issue 19 point 1): the same script is also registered over the whole site (scope /,
 * src/features/install/start-page.ts: once an episode is saved, when the browser offers to install the site, in
 * the installed app). There it only answers navigations, through the network (its navigation preload), and when
 * a page cannot be loaded and no saved copy of it exists it answers the edition's pre-rendered /offline page,
 * kept in its own cache from the install on (refreshed at most once a day), with the saved episodes still
 * readable written into it. "Clear everything" on /setting empties the saved episodes, not this page.
 */
const CACHE = 'viewer-offline-v1'
const META = '/__viewer-offline/'
const SHELL = 'site-offline-v1'
const START = '/offline'
const START_MAX_AGE_MS = 24 * 60 * 60 * 1000
/** Registered over the whole site (scope /) rather than the viewer's /viewer/: navigations only. */
const wholeSite = () => new URL(self.registration.scope).pathname === '/'

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])

/** The cache key of a request: slice URLs lose their signature and retry counter. */
function keyOf(url) {
  const u = new URL(url)
  const slice = /^\/api\/v1\/viewer\/(\d+)\/slice\/(\d+)$/.exec(u.pathname)
  if (slice) return `${u.origin}/api/v1/viewer/${slice[1]}/slice/${slice[2]}?w=${u.searchParams.get('w') ?? '640'}`
  if (/^\/viewer\/\d+$/.test(u.pathname)) return `${u.origin}${u.pathname}`
  return `${u.origin}${u.pathname}${u.search}`
}

function episodeOf(url) {
  const u = new URL(url)
  const m = /^\/(?:api\/v1\/)?viewer\/(\d+)(?:\/|$)/.exec(u.pathname)
  return m ? Number(m[1]) : null
}

async function metaOf(cache, id) {
  const res = await cache.match(`${META}${id}`)
  return res ? res.json() : null
}

const expired = (meta, now = Date.now()) => meta.expiresAt !== null && Date.parse(meta.expiresAt) <= now

async function drop(cache, meta) {
  await Promise.all([...meta.keys, `${META}${meta.episodeId}`].map((k) => cache.delete(k)))
}

/** Deletes every saved rental that has ended. */
async function sweep() {
  const cache = await caches.open(CACHE)
  for (const req of await cache.keys()) {
    if (!new URL(req.url).pathname.startsWith(META)) continue
    const meta = await (await cache.match(req)).json()
    if (expired(meta)) await drop(cache, meta)
  }
}

async function save(data) {
  const cache = await caches.open(CACHE)
  const keys = []
  for (const url of [data.page, ...data.urls]) {
    const res = await fetch(url, { credentials: 'same-origin' })
    if (!res.ok) throw new Error(`${res.status} ${url}`)
    const key = keyOf(new URL(url, self.location.origin).href)
    await cache.put(key, res)
    keys.push(key)
  }
  const meta = { episodeId: data.episodeId, expiresAt: data.expiresAt, series: data.series, episode: data.episode, keys, expired: data.expired }
  await cache.put(`${META}${data.episodeId}`, new Response(JSON.stringify(meta), { headers: { 'content-type': 'application/json' } }))
}

/** What the settings page lists: every saved episode still readable (ended rentals are deleted first). */
async function list() {
  await sweep()
  const cache = await caches.open(CACHE)
  const items = []
  for (const req of await cache.keys()) {
    if (!new URL(req.url).pathname.startsWith(META)) continue
    const { episodeId, series, episode, expiresAt } = await (await cache.match(req)).json()
    items.push({ episodeId, series: series ?? null, episode: episode ?? null, expiresAt })
  }
  return items
}

async function remove(episodeId) {
  const cache = await caches.open(CACHE)
  const meta = await metaOf(cache, episodeId)
  if (meta) await drop(cache, meta)
}

function refusal(meta) {
  const e = meta.expired
  const html = `<!doctype html><html lang="${esc(e.lang)}" dir="${esc(e.dir)}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(e.title)}</title><main><h1>${esc(e.title)}</h1><p>${esc(e.text)}</p></main></html>`
  return new Response(html, { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

/** Network first (a navigation's preload when the browser made one); the saved copy (unexpired) when the network fails. */
async function offline(request, preload) {
  try {
    return (await preload) ?? (await fetch(request))
  } catch (error) {
    const cache = await caches.open(CACHE)
    const id = episodeOf(request.url)
    if (id !== null) {
      const meta = await metaOf(cache, id)
      if (!meta) throw error
      if (expired(meta)) {
        await drop(cache, meta)
        if (request.mode === 'navigate') return refusal(meta)
        throw error
      }
    }
    const hit = await cache.match(keyOf(request.url))
    if (hit) return hit
    throw error
  }
}

/** Keeps the start page (pre-rendered, the same for every reader): on install, else when the kept copy is over a day old. */
async function keepStartPage(always) {
  const shell = await caches.open(SHELL)
  const kept = await shell.match(START)
  if (!always && kept && Date.now() - Number(kept.headers.get('x-kept-at')) < START_MAX_AGE_MS) return
  const res = await fetch(START, { credentials: 'omit' })
  if (!res.ok) return
  const headers = new Headers(res.headers)
  for (const name of ['content-length', 'content-encoding', 'etag']) headers.delete(name) // the body is stored decoded, and filled later
  headers.set('x-kept-at', String(Date.now()))
  // a new response: one that followed a redirect may not answer a navigation
  await shell.put(START, new Response(await res.arrayBuffer(), { status: 200, headers }))
}

/** The start page with the saved episodes still readable (ended rentals are deleted by `list`), or null when none is kept. */
async function startPage() {
  const kept = await (await caches.open(SHELL)).match(START)
  if (!kept) return null
  const items = await list()
  const html = await kept.text()
  const unnamed = /\bdata-unnamed="([^"]*)"/.exec(html)?.[1] ?? '{{id}}' // already escaped by the page
  const rows = items
    .map(({ episodeId, series, episode }) => {
      const name = episode ? esc(episode) : unnamed.replace('{{id}}', String(episodeId))
      return `<li><a href="/viewer/${episodeId}"><strong>${name}</strong>${series ? `<span>${esc(series)}</span>` : ''}</a></li>`
    })
    .join('')
  const filled = html
    .replace(/<ul\b[^>]*\bdata-offline-list\b[^>]*>/, (ul) => ul + rows)
    .replace(/<p\b(?=[^>]*\bdata-offline-empty\b)/, (p) => (items.length > 0 ? `${p} hidden` : p))
  const headers = new Headers(kept.headers)
  headers.delete('x-kept-at')
  return new Response(filled, { status: 200, headers })
}

/** A navigation: the network, else a saved copy of the page (viewer pages), else the start page, else the browser's error. */
async function navigate(event) {
  const { request } = event
  try {
    if (/^\/viewer\/\d+$/.test(new URL(request.url).pathname)) return await offline(request, event.preloadResponse)
    return (await event.preloadResponse) ?? (await fetch(request))
  } catch (error) {
    const start = await startPage().catch(() => null)
    if (start) return start
    throw error
  }
}

self.addEventListener('install', (event) => {
  self.skipWaiting()
  event.waitUntil(keepStartPage(true).catch(() => undefined)) // offline reading works without it
})
self.addEventListener('activate', (event) =>
  event.waitUntil(Promise.all([self.clients.claim(), sweep(), self.registration.navigationPreload?.enable()])),
)

self.addEventListener('message', (event) => {
  const data = event.data
  const reply = (msg) => event.ports[0]?.postMessage(msg)
  const answer = (work) => event.waitUntil(work.then((items) => reply({ ok: true, items }), (e) => reply({ ok: false, error: String(e) })))
  if (data?.type === 'save') answer(save(data))
  else if (data?.type === 'sweep') answer(sweep())
  else if (data?.type === 'list') answer(list())
  else if (data?.type === 'remove' && Number.isSafeInteger(data.episodeId)) answer(remove(data.episodeId))
  else if (data?.type === 'clear') answer(caches.delete(CACHE).then(() => undefined))
})

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return
  const path = new URL(request.url).pathname
  if (request.mode === 'navigate') {
    const answer = navigate(event)
    event.respondWith(answer)
    // once this page is answered: other ended rentals go (viewer pages), the start page is refreshed if old
    const after = /^\/viewer\/\d+$/.test(path) ? sweep : () => keepStartPage(false)
    event.waitUntil(answer.catch(() => undefined).then(after).catch(() => undefined))
  } else if (!wholeSite() && (/^\/api\/v1\/viewer\/\d+\/slice\/\d+$/.test(path) || path.startsWith('/_astro/'))) {
    event.respondWith(offline(request))
  }
})

/*
 * Web Push (issue 13 point 2): the server sends {kind, title, body, url, icon} (src/features/push/push.server.ts).
 * A click opens the push's page, or focuses a tab already showing it.
 */
self.addEventListener('push', (event) => {
  let data
  try {
    data = event.data ? event.data.json() : {}
  } catch {
    data = { body: event.data?.text() }
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//') ? data.url : '/'
  event.waitUntil(
    self.registration.showNotification(String(data.title ?? self.location.hostname), {
      body: String(data.body ?? ''),
      icon: typeof data.icon === 'string' ? data.icon : '/favicon.svg',
      tag: typeof data.kind === 'string' ? `${data.kind}:${url}` : undefined,
      data: { url },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      const open = tabs.find((tab) => tab.url === target)
      return open ? open.focus() : self.clients.openWindow(target)
    }),
  )
})
