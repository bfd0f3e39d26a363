/**
 * public/sw.js's offline start page (issue 19 point 1), run on a stand-in of the service worker's global with an
 * in-memory Cache Storage: what a navigation that fails offline is answered with. The browser test
 * (tests/e2e/install.ts) runs the real worker; this one covers what it cannot easily stage: names written into the
 * page are escaped, and without a kept start page the browser's own error stays.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

const ORIGIN = 'https://fr.bomtoon.example'
type Listener = (event: Record<string, unknown>) => void

/** The Cache Storage API over Maps, keyed by absolute URL. */
function cacheStorage() {
  const stores = new Map<string, Map<string, Response>>()
  const url = (k: string | Request) => new URL(typeof k === 'string' ? k : k.url, ORIGIN).href
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map())
    const store = stores.get(name)!
    return {
      match: async (k: string | Request) => store.get(url(k))?.clone(),
      put: async (k: string | Request, res: Response) => void store.set(url(k), res),
      delete: async (k: string | Request) => store.delete(url(k)),
      keys: async () => [...store.keys()].map((u) => new Request(u)),
    }
  }
  return { open, delete: async (name: string) => stores.delete(name), stores }
}

/** The worker registered over the whole site, with the network down. */
function worker() {
  const listeners: Record<string, Listener> = {}
  const caches = cacheStorage()
  const self = {
    location: new URL(`${ORIGIN}/`),
    addEventListener: (type: string, fn: Listener) => (listeners[type] = fn),
    registration: { scope: `${ORIGIN}/` },
    clients: { claim: vi.fn() },
    skipWaiting: vi.fn(),
  }
  const offline = vi.fn(async () => {
    throw new TypeError('Failed to fetch')
  })
  new Function('self', 'caches', 'fetch', readFileSync('public/sw.js', 'utf8'))(self, caches, offline)
  const navigate = async (path: string) => {
    let answer: Promise<Response> | undefined
    listeners.fetch!({
      request: { url: `${ORIGIN}${path}`, method: 'GET', mode: 'navigate' }, // Node cannot make a navigation Request
      preloadResponse: Promise.resolve(undefined),
      respondWith: (p: Promise<Response>) => (answer = p),
      waitUntil: () => undefined,
    })
    return answer!
  }
  return { caches, navigate }
}

// as the build writes it (src/pages/offline.astro)
const START = `<!doctype html><html lang="fr-FR" dir="ltr"><body><h1>Vous êtes hors ligne</h1>
<ul class="offline-list" aria-labelledby="offline-saved" data-offline-list data-unnamed="Épisode enregistré n° {{id}}" data-astro-cid-x></ul>
<p data-offline-empty data-astro-cid-x>Aucun épisode</p></body></html>`

async function keep(caches: ReturnType<typeof cacheStorage>, saved: Record<string, unknown>[]) {
  await (await caches.open('site-offline-v1')).put('/offline', new Response(START, { headers: { 'content-type': 'text/html' } }))
  const cache = await caches.open('viewer-offline-v1')
  for (const meta of saved) await cache.put(`/__viewer-offline/${meta.episodeId}`, new Response(JSON.stringify({ keys: [], ...meta })))
}

describe('sw.js offline start page', () => {
  it('lists the saved episodes (names escaped, an ended rental deleted and left out) on any page that cannot load', async () => {
    const { caches, navigate } = worker()
    await keep(caches, [
      { episodeId: 87, series: 'Le <b>Roman</b>', episode: 'Épisode 4 & "fin"', expiresAt: null },
      { episodeId: 88, series: 'Le Roman', episode: 'Épisode 5', expiresAt: new Date(Date.now() - 1000).toISOString() },
      { episodeId: 90, series: null, episode: null, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    ])
    const res = await navigate('/faq')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(
      '<li><a href="/viewer/87"><strong>Épisode 4 &amp; &quot;fin&quot;</strong><span>Le &lt;b&gt;Roman&lt;/b&gt;</span></a></li>',
    )
    expect(html).toContain('<li><a href="/viewer/90"><strong>Épisode enregistré n° 90</strong></a></li>')
    expect(html).not.toContain('/viewer/88')
    expect(html).toContain('<p hidden data-offline-empty data-astro-cid-x>')
    expect(caches.stores.get('viewer-offline-v1')!.has(`${ORIGIN}/__viewer-offline/88`)).toBe(false)
  })

  it('says nothing is saved when nothing is, and an unsaved episode gets the start page too', async () => {
    const { caches, navigate } = worker()
    await keep(caches, [])
    const html = await (await navigate('/viewer/12')).text()
    expect(html).toContain('<p data-offline-empty data-astro-cid-x>Aucun épisode</p>')
    expect(html).not.toContain('<li>')
  })

  it('leaves the browser its own error when no start page is kept', async () => {
    const { navigate } = worker()
    await expect(navigate('/faq')).rejects.toThrow('Failed to fetch')
  })
})
