import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IDENTITY_KEY, SESSION_CHANNEL, noteSignedOut, onSessionChange } from './tabs.ts'
import {
  $loggedIn,
  $session,
  $unreadAlarms,
  EMPTY_SESSION,
  SetUserData,
  isLoggedIn,
  reduceSession,
  sessionFromResponse,
  startSessionClient,
  type Coin,
  type SessionResponse,
  type SessionState,
  type TabMessage,
  type User,
} from './store.ts'

const user = (id: number): User => ({ id, email: `u${id}@example.com`, nickname: null, isAdult: true, showAdult: true })
const coin = (total: number): Coin => ({ coin: total, freeCoin: 0, bonus: 0, mileage: 0, total })
const token = { value: null, expiredAt: '2026-12-22T00:00:00.000Z' }
const full: SessionState = { user: user(1), coin: coin(10), accessToken: token, refreshToken: token }
const answer = (id: number, total: number): SessionResponse => ({ user: user(id), coin: coin(total), expires: token.expiredAt })

/** A promise the test resolves when it wants (to order concurrent fetches). */
function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
const flush = () => new Promise((r) => setTimeout(r, 0))
const memoryStorage = () => {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) }
}

let stops: (() => void)[] = []
beforeEach(() => SetUserData(EMPTY_SESSION))
afterEach(() => {
  for (const stop of stops) stop()
  stops = []
  vi.useRealTimers()
})
function start(...args: Parameters<typeof startSessionClient>) {
  const client = startSessionClient(...args)
  stops.push(client.stop)
  return client
}

describe('session actions (spec §4)', () => {
  it('SetUserData replaces all, UpdateUserData user and coin, UpdateAccessToken tokens, ClearUserData empties', () => {
    let s = reduceSession(EMPTY_SESSION, { type: 'SetUserData', payload: full })
    expect(s).toEqual(full)
    s = reduceSession(s, { type: 'UpdateUserData', payload: { user: user(1), coin: coin(3) } })
    expect(s.coin!.total).toBe(3)
    expect(s.accessToken).toBe(token)
    const fresh = { value: 'new', expiredAt: '2027-01-01T00:00:00.000Z' }
    s = reduceSession(s, { type: 'UpdateAccessToken', payload: { accessToken: fresh, refreshToken: fresh } })
    expect(s.accessToken).toEqual(fresh)
    expect(s.user!.id).toBe(1)
    expect(reduceSession(s, { type: 'ClearUserData' })).toEqual(EMPTY_SESSION)
  })

  it('logged in only with user, coin and access token all present', () => {
    expect(isLoggedIn(full)).toBe(true)
    expect(isLoggedIn({ ...full, coin: null })).toBe(false)
    expect(isLoggedIn({ ...full, user: null })).toBe(false)
    expect(isLoggedIn({ ...full, accessToken: null })).toBe(false)
    expect(isLoggedIn({ ...full, refreshToken: null })).toBe(true)
    SetUserData(full)
    expect($loggedIn.get()).toBe(true)
  })

  it('stores user and coin only when both come back; tokens stay in the cookie', () => {
    expect(sessionFromResponse({})).toEqual(EMPTY_SESSION)
    expect(sessionFromResponse({ user: user(1) })).toEqual(EMPTY_SESSION)
    expect(sessionFromResponse(null)).toEqual(EMPTY_SESSION)
    const s = sessionFromResponse(answer(1, 5))
    expect(s.accessToken).toEqual({ value: null, expiredAt: token.expiredAt })
    expect(isLoggedIn(s)).toBe(true)
  })
})

describe('session client refetches (spec §4)', () => {
  it("on another tab's signal", async () => {
    let next = answer(1, 5)
    const client = start({ fetchSession: async () => next, onVisible: null, storage: null })
    await client.ready
    expect($session.get().coin!.total).toBe(5)
    next = answer(1, 9)
    const otherTab = new BroadcastChannel(SESSION_CHANNEL)
    otherTab.postMessage({ type: 'session' } satisfies TabMessage)
    await vi.waitFor(() => expect($session.get().coin!.total).toBe(9))
    otherTab.close()
  })

  it('when the tab becomes visible (default on), not when turned off', async () => {
    const fetchSession = vi.fn(async () => answer(1, 1))
    let visible = () => {}
    await start({ fetchSession, channel: null, storage: null, onVisible: (l) => ((visible = l), () => {}) }).ready
    visible()
    await flush()
    expect(fetchSession).toHaveBeenCalledTimes(2)
    const off = vi.fn(async () => answer(1, 1))
    let visibleOff: (() => void) | null = null
    await start({
      fetchSession: off,
      channel: null,
      storage: null,
      refetchOnVisibility: false,
      onVisible: (l) => ((visibleOff = l), () => {}),
    }).ready
    expect(visibleOff).toBeNull()
    expect(off).toHaveBeenCalledTimes(1)
  })

  it('at the optional poll interval', async () => {
    vi.useFakeTimers()
    const fetchSession = vi.fn(async () => answer(1, 1))
    start({ fetchSession, channel: null, storage: null, onVisible: null, pollSeconds: 30 })
    expect(fetchSession).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(29_000)
    expect(fetchSession).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(fetchSession).toHaveBeenCalledTimes(2)
    const none = vi.fn(async () => answer(1, 1))
    start({ fetchSession: none, channel: null, storage: null, onVisible: null })
    await vi.advanceTimersByTimeAsync(600_000)
    expect(none).toHaveBeenCalledTimes(1)
  })

  it('skips a stale fetch: an older answer arriving last does not overwrite a newer one', async () => {
    const answers = [deferred<SessionResponse>(), deferred<SessionResponse>()]
    let i = 0
    const client = start({ fetchSession: () => answers[i++]!.promise, channel: null, storage: null, onVisible: null })
    const second = client.refetch()
    answers[1]!.resolve(answer(2, 20)) // the newer fetch answers first
    await second
    answers[0]!.resolve(answer(1, 10)) // then the older one
    await client.ready
    expect($session.get().user!.id).toBe(2)
    expect($session.get().coin!.total).toBe(20)
  })

  it('a failed fetch leaves the reader as guest', async () => {
    SetUserData(full)
    await start({ fetchSession: async () => Promise.reject(new Error('offline')), channel: null, storage: null, onVisible: null }).ready
    expect($session.get()).toEqual(EMPTY_SESSION)
  })

  it('a page load that finds another account (sign-out, sign-in) tells the other tabs', async () => {
    const storage = memoryStorage()
    const listener = new BroadcastChannel(SESSION_CHANNEL)
    const heard: unknown[] = []
    listener.onmessage = (e) => heard.push(e.data)
    // three page loads in one tab, one after the other
    for (const body of [answer(1, 1), answer(1, 1) /* same account: quiet */, {} /* signed out */]) {
      const page = start({ fetchSession: async () => body, storage, onVisible: null })
      await page.ready
      page.stop()
    }
    await vi.waitFor(() => expect(heard).toContainEqual({ type: 'session' }))
    expect(heard.filter((m) => (m as TabMessage).type === 'session')).toHaveLength(1)
    listener.close()
  })
})

describe("the bell's unread count", () => {
  it('follows each answer, and is 0 for a guest and after a failed fetch', async () => {
    let next: SessionResponse | null = { ...answer(1, 5), alarms: 3 }
    let fail = false
    const client = start({
      fetchSession: async () => {
        if (fail) throw new Error('offline')
        return next
      },
      channel: null,
      onVisible: null,
      storage: null,
    })
    await client.ready
    expect($unreadAlarms.get()).toBe(3)
    next = { ...answer(1, 5), alarms: 0 }
    await client.refetch()
    expect($unreadAlarms.get()).toBe(0)
    next = { ...answer(1, 5), alarms: 12 }
    await client.refetch()
    expect($unreadAlarms.get()).toBe(12)
    next = { alarms: 4 } // no user: a guest has no bell
    await client.refetch()
    expect($unreadAlarms.get()).toBe(0)
    next = { ...answer(1, 5), alarms: 2 }
    await client.refetch()
    fail = true
    await client.refetch()
    expect($unreadAlarms.get()).toBe(0)
  })
})

describe('coin movements', () => {
  it('update the coin at once and reach the other tabs; a guest has no coin to update', async () => {
    const client = start({ fetchSession: async () => answer(1, 5), onVisible: null, storage: null })
    await client.ready
    const otherTab = new BroadcastChannel(SESSION_CHANNEL)
    const heard: TabMessage[] = []
    otherTab.onmessage = (e) => heard.push(e.data as TabMessage)
    client.coinChanged(coin(42))
    expect($session.get().coin!.total).toBe(42)
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'coin', coin: coin(42) }]))
    // a coin message from another tab
    otherTab.postMessage({ type: 'coin', coin: coin(7) } satisfies TabMessage)
    await vi.waitFor(() => expect($session.get().coin!.total).toBe(7))
    otherTab.close()
    SetUserData(EMPTY_SESSION)
    client.coinChanged(coin(99))
    expect($session.get().coin).toBeNull()
  })

  it('a fetch started before a coin movement cannot bring the old balance back', async () => {
    const slow = deferred<SessionResponse>()
    let calls = 0
    const client = start({
      fetchSession: () => (calls++ === 0 ? Promise.resolve(answer(1, 5)) : slow.promise),
      channel: null,
      onVisible: null,
      storage: null,
    })
    await client.ready
    const pending = client.refetch()
    client.coinChanged(coin(3))
    slow.resolve(answer(1, 5))
    await pending
    expect($session.get().coin!.total).toBe(3)
  })
})

describe('a page without the signed mark (tabs.ts noteSignedOut)', () => {
  function storage(initial: Record<string, string>) {
    const items = new Map(Object.entries(initial))
    vi.stubGlobal('localStorage', { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => items.set(k, v) })
    return items
  }
  afterEach(() => vi.unstubAllGlobals())

  it('tells the other tabs once when this browser last saw a signed-in reader', async () => {
    const items = storage({ [IDENTITY_KEY]: '7' })
    const otherTab = new BroadcastChannel(SESSION_CHANNEL)
    const heard: unknown[] = []
    otherTab.onmessage = (e) => heard.push(e.data)
    noteSignedOut()
    noteSignedOut()
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'session' }]))
    expect(items.get(IDENTITY_KEY)).toBe('')
    otherTab.close()
  })

  it('says nothing for a browser that saw no reader', async () => {
    storage({})
    const otherTab = new BroadcastChannel(SESSION_CHANNEL)
    const heard: unknown[] = []
    otherTab.onmessage = (e) => heard.push(e.data)
    noteSignedOut()
    await new Promise((r) => setTimeout(r, 50))
    expect(heard).toEqual([])
    otherTab.close()
  })
})

describe('a signed-in page, its header drawn by the server (tabs.ts onSessionChange)', () => {
  let items: Map<string, string>
  let page: EventTarget & { visibilityState: string }
  beforeEach(() => {
    items = new Map()
    vi.stubGlobal('localStorage', { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => items.set(k, v) })
    page = Object.assign(new EventTarget(), { visibilityState: 'hidden' })
    vi.stubGlobal('document', page)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('starts the session client at once after a signed-out page (a sign-in the other tabs must hear of)', () => {
    items.set(IDENTITY_KEY, '')
    const start = vi.fn()
    onSessionChange(start)
    expect(start).toHaveBeenCalledTimes(1)
  })

  it('waits for another tab’s message, then starts once', async () => {
    items.set(IDENTITY_KEY, '7')
    const start = vi.fn()
    onSessionChange(start)
    expect(start).not.toHaveBeenCalled()
    const otherTab = new BroadcastChannel(SESSION_CHANNEL)
    otherTab.postMessage({ type: 'coin', coin: coin(3) } satisfies TabMessage)
    otherTab.postMessage({ type: 'session' } satisfies TabMessage)
    await vi.waitFor(() => expect(start).toHaveBeenCalledTimes(1))
    page.visibilityState = 'visible'
    page.dispatchEvent(new Event('visibilitychange'))
    await new Promise((r) => setTimeout(r, 50))
    expect(start).toHaveBeenCalledTimes(1)
    otherTab.close()
  })

  it('starts when the tab is shown again; a browser that saw no account remembers an unnamed one', () => {
    const start = vi.fn()
    onSessionChange(start)
    expect(items.get(IDENTITY_KEY)).toBe('?') // so a sign-out here tells the other tabs (noteSignedOut)
    page.dispatchEvent(new Event('visibilitychange')) // hidden: nothing
    expect(start).not.toHaveBeenCalled()
    page.visibilityState = 'visible'
    page.dispatchEvent(new Event('visibilitychange'))
    expect(start).toHaveBeenCalledTimes(1)
  })
})
