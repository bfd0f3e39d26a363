/**
 * public/sw.js's Web Push handlers (issue 13 point 2), run on a stand-in of the service worker's global: headless
 * Chromium refuses `showNotification` from a service worker even with the permission granted, so the browser test
 * stops at the subscription. What a push shows, and where a click on it leads.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

type Listener = (event: Record<string, unknown>) => void

function worker(tabs: { url: string; focus: () => Promise<unknown> }[] = []) {
  const listeners: Record<string, Listener> = {}
  const self = {
    location: new URL('https://fr.bomtoon.example/viewer/'),
    addEventListener: (type: string, fn: Listener) => (listeners[type] = fn),
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: { matchAll: vi.fn(async () => tabs), openWindow: vi.fn(async () => null), claim: vi.fn() },
    skipWaiting: vi.fn(),
  }
  new Function('self', readFileSync('public/sw.js', 'utf8'))(self)
  const fire = async (type: string, event: Record<string, unknown>) => {
    let work: Promise<unknown> = Promise.resolve()
    listeners[type]!({ ...event, waitUntil: (p: Promise<unknown>) => (work = p) })
    await work
  }
  return { self, fire }
}

const push = (data: unknown) => ({ data: { json: () => (typeof data === 'string' ? JSON.parse(data) : data), text: () => String(data) } })

describe('sw.js push', () => {
  it('shows the title, body and icon the server sent, keeping the page to open', async () => {
    const { self, fire } = worker()
    await fire('push', push({ kind: 'contents', title: 'Nouvel épisode', body: 'Épisode 7', url: '/detail/7', icon: '/favicon.svg' }))
    expect(self.registration.showNotification).toHaveBeenCalledWith('Nouvel épisode', {
      body: 'Épisode 7',
      icon: '/favicon.svg',
      tag: 'contents:/detail/7',
      data: { url: '/detail/7' },
    })
  })

  it('never opens another site from a push', async () => {
    const { self, fire } = worker()
    await fire('push', push({ title: 'x', body: 'y', url: '//evil.example/' }))
    expect(self.registration.showNotification).toHaveBeenCalledWith('x', expect.objectContaining({ data: { url: '/' } }))
  })
})

describe('sw.js notificationclick', () => {
  const click = (url: string) => ({ notification: { close: vi.fn(), data: { url } } })

  it('focuses a tab already showing the page', async () => {
    const focus = vi.fn(async () => undefined)
    const { self, fire } = worker([{ url: 'https://fr.bomtoon.example/detail/7', focus }])
    await fire('notificationclick', click('/detail/7'))
    expect(focus).toHaveBeenCalled()
    expect(self.clients.openWindow).not.toHaveBeenCalled()
  })

  it('opens the page otherwise', async () => {
    const { self, fire } = worker([{ url: 'https://fr.bomtoon.example/', focus: vi.fn() }])
    await fire('notificationclick', click('/detail/7'))
    expect(self.clients.openWindow).toHaveBeenCalledWith('https://fr.bomtoon.example/detail/7')
  })
})
