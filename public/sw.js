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
 */
const CACHE = 'viewer-offline-v1'
const META = '/__viewer-offline/'

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
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
  const html = `<!doctype html><html lang="${esc(e.lang)}" dir="${esc(e.dir)}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(e.title)}</title><main><h1>${esc(e.title)}</h1><p>${esc(e.text)}</p></main></html>`
  return new Response(html, { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

/** Network first; the saved copy (unexpired) when the network fails. */
async function offline(request) {
  try {
    return await fetch(request)
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

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(Promise.all([self.clients.claim(), sweep()])))

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
  if (request.mode === 'navigate' && /^\/viewer\/\d+$/.test(path)) {
    const answer = offline(request)
    event.respondWith(answer)
    event.waitUntil(answer.catch(() => undefined).then(sweep)) // other ended rentals go once this page is answered
  } else if (/^\/api\/v1\/viewer\/\d+\/slice\/\d+$/.test(path) || path.startsWith('/_astro/')) {
    event.respondWith(offline(request))
  }
})

/*
 * Web Push (issue 13 point 2): the server sends {kind, title, body, url, icon} (src/features/push/push.server.ts).
 * A click opens the push's page, or focuses a tab already showing it.
 */
self.addEventListener('push', (event) => {
  let data = {}
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
