/**
 * The client session store (spec §3 client session state, §4 actions and session client; nanostores).
 * State: user, coin, accessToken, refreshToken, all empty by default; "logged in" = user, coin and access token
 * all present. Actions: SetUserData (replace all), UpdateUserData (user and coin), UpdateAccessToken (tokens),
 * ClearUserData (empty). On the web the tokens stay in the encrypted HttpOnly session cookie: the store then
 * holds the access token's presence and expiry with `value: null` (no script ever reads a token).
 *
 * The session client refetches `/api/auth/session` when another tab signals a change (BroadcastChannel), when
 * the tab becomes visible (default on) and at an optional poll interval; a fetch that an newer one overtook is
 * skipped (stale). A coin movement (`coinChanged`: a purchase, a charge, an exchange, a prize) updates the coin at
 * once and is passed to the other tabs.
 */
import { send } from './api.ts'
import { IDENTITY_KEY, SESSION_CHANNEL } from './tabs.ts'
import { atom, computed } from 'nanostores'

/** A token and its expiry; `value` null: the token is held by the HttpOnly session cookie. */
type Token = { value: string | null; expiredAt: string }
/** GET /api/v1/coin (or the session's coin): balances per type and the spendable total. */
export type Coin = { coin: number; freeCoin: number; bonus: number; mileage: number; total: number; [extra: string]: unknown }
/** Spec §3 user fields (the ones the client reads; the rest passes through). */
export type User = {
  id: number
  email: string | null
  nickname: string | null
  isAdult: boolean
  showAdult: boolean
  [extra: string]: unknown
}

export type SessionState = { user: User | null; coin: Coin | null; accessToken: Token | null; refreshToken: Token | null }
export const EMPTY_SESSION: SessionState = { user: null, coin: null, accessToken: null, refreshToken: null }

export type SessionAction =
  | { type: 'SetUserData'; payload: SessionState }
  | { type: 'UpdateUserData'; payload: { user: User | null; coin: Coin | null } }
  | { type: 'UpdateAccessToken'; payload: { accessToken: Token | null; refreshToken: Token | null } }
  | { type: 'ClearUserData' }

/** Spec §4 actions as a pure reducer. */
export function reduceSession(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'SetUserData':
      return { ...EMPTY_SESSION, ...action.payload }
    case 'UpdateUserData':
      return { ...state, user: action.payload.user, coin: action.payload.coin }
    case 'UpdateAccessToken':
      return { ...state, accessToken: action.payload.accessToken, refreshToken: action.payload.refreshToken }
    case 'ClearUserData':
      return EMPTY_SESSION
  }
}

/** Spec §4: logged in means user, coin and access token are all present. */
export function isLoggedIn(state: SessionState): boolean {
  return state.user !== null && state.coin !== null && state.accessToken !== null
}

export const $session = atom<SessionState>(EMPTY_SESSION)
export const $loggedIn = computed($session, isLoggedIn)

function dispatchSession(action: SessionAction): void {
  $session.set(reduceSession($session.get(), action))
}
export const SetUserData = (payload: SessionState) => dispatchSession({ type: 'SetUserData', payload })
const UpdateUserData = (user: User | null, coin: Coin | null) => dispatchSession({ type: 'UpdateUserData', payload: { user, coin } })

/** What `GET /api/auth/session` answers: `{}` for a guest, else `{user, expires, coin, alarms}`. */
export type SessionResponse = { user?: User; coin?: Coin; expires?: string; alarms?: number }

/** The signed-in reader's unread alarms, from the same answer (the header's bell); 0 for a guest. */
export const $unreadAlarms = atom(0)

/**
 * Spec §4: if both user and coin come back they are stored, otherwise user data is cleared. The web's
 * tokens stay in the cookie: the access token is present until the session's `expires`.
 */
export function sessionFromResponse(body: SessionResponse | null): SessionState {
  if (!body?.user || !body.coin) return EMPTY_SESSION
  const expiredAt = body.expires ?? ''
  return { user: body.user, coin: body.coin, accessToken: { value: null, expiredAt }, refreshToken: { value: null, expiredAt } }
}

/** Messages between tabs on the session channel. */
export type TabMessage = { type: 'session' } | { type: 'coin'; coin: Coin }

type Channel = { postMessage(m: TabMessage): void; close(): void; onmessage: ((e: { data: unknown }) => void) | null }

export type SessionClientOptions = {
  /** Loads the session; rejects on a network failure. */
  fetchSession?: () => Promise<SessionResponse | null>
  /** The channel shared by the tabs (default: a BroadcastChannel when the browser has one). */
  channel?: Channel | null
  /** Subscribes to "the tab became visible"; returns the unsubscribe (default: document visibilitychange). */
  onVisible?: ((listener: () => void) => () => void) | null
  /** Spec §4/§9: refetch when the tab becomes visible (default on). */
  refetchOnVisibility?: boolean
  /** Spec §9: optional poll interval in seconds (0 or absent: no polling). */
  pollSeconds?: number
  /** Remembers which account this browser saw last, so a change made by a page load reaches the other tabs. */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null
}

const defaultFetch = async (): Promise<SessionResponse | null> => {
  const res = await send('/api/auth/session', { headers: { Accept: 'application/json' }, quiet: true })
  if (!res.ok) throw new Error(`session ${res.status}`)
  return (await res.json()) as SessionResponse
}

/** The session client running on this page (the header's), if any. */
let running: ReturnType<typeof startSessionClient> | null = null

/**
 * A coin movement in this tab (the new balance, the `GET /api/v1/coin` shape): the header's, here and in the other tabs.
 * Where the session client does not run yet, the header's code starts it (header.ts; the page came with the old balance).
 */
export async function coinChanged(coin: Coin): Promise<void> {
  if (!running) await import('./header.ts')
  running?.coinChanged(coin)
}

/**
 * Spec §8 NEED_TO_REFRESH on the web: the session is asked for again, a request on which the worker renews the
 * cookie's tokens (docs/API.md "Authentication"); the store follows when the session client runs here.
 */
export async function refreshSession(): Promise<void> {
  if (running) return running.refetch()
  await defaultFetch().catch(() => null)
}

const identity = (s: SessionState) => (s.user ? String(s.user.id) : '')

/**
 * Starts the session client: a first fetch, then the refetch triggers of spec §4. Returns `refetch`,
 * `coinChanged` (a coin movement in this tab: stored at once, passed to the other tabs) and `stop`.
 */
export function startSessionClient(options: SessionClientOptions = {}) {
  const fetchSession = options.fetchSession ?? defaultFetch
  const channel: Channel | null =
    options.channel !== undefined
      ? options.channel
      : typeof BroadcastChannel === 'function'
        ? (new BroadcastChannel(SESSION_CHANNEL) as unknown as Channel)
        : null
  const storage = options.storage !== undefined ? options.storage : safeLocalStorage()
  let seq = 0
  let stopped = false

  /** `signalled`: this fetch answers another tab's signal (never echoed back, so tabs cannot ping-pong). */
  async function refetch(signalled = false): Promise<void> {
    const mine = ++seq
    let next: SessionState
    let alarms = 0
    let failed = false
    try {
      const body = await fetchSession()
      next = sessionFromResponse(body)
      alarms = next.user ? (body?.alarms ?? 0) : 0
    } catch {
      next = EMPTY_SESSION // spec §4: a failure leaves the user as guest
      failed = true
    }
    if (stopped || mine !== seq) return // a newer fetch started meanwhile: this answer is stale
    SetUserData(next)
    $unreadAlarms.set(alarms)
    if (failed || !storage) return
    const id = identity(next)
    const seen = storage.getItem(IDENTITY_KEY)
    storage.setItem(IDENTITY_KEY, id)
    if (!signalled && seen !== null && seen !== id) channel?.postMessage({ type: 'session' })
  }

  if (channel) {
    channel.onmessage = (e) => {
      const m = e.data as TabMessage | null
      if (m?.type === 'coin' && $session.get().user) {
        seq++ // an answer started before this coin movement would carry the old balance
        UpdateUserData($session.get().user, m.coin)
      } else if (m?.type === 'session') void refetch(true)
    }
  }
  const onVisible = options.onVisible !== undefined ? options.onVisible : documentVisible
  const unsubscribeVisible = options.refetchOnVisibility !== false && onVisible ? onVisible(() => void refetch()) : null
  const timer = options.pollSeconds && options.pollSeconds > 0 ? setInterval(() => void refetch(), options.pollSeconds * 1000) : null

  function coinChanged(coin: Coin) {
    channel?.postMessage({ type: 'coin', coin })
    if (!$session.get().user) return // the first answer, asked after this movement, carries it
    seq++
    UpdateUserData($session.get().user, coin)
  }

  /** Tells the other tabs that the session changed here (sign-in, sign-out, age check). */
  function notifyOtherTabs() {
    channel?.postMessage({ type: 'session' })
  }

  const first = refetch()
  const client = {
    ready: first,
    refetch: () => refetch(),
    coinChanged,
    notifyOtherTabs,
    stop() {
      stopped = true
      if (running === client) running = null
      unsubscribeVisible?.()
      if (timer) clearInterval(timer)
      channel?.close()
    },
  }
  running = client
  return client
}

function documentVisible(listener: () => void): () => void {
  if (typeof document === 'undefined') return () => {}
  const handler = () => document.visibilityState === 'visible' && listener()
  document.addEventListener('visibilitychange', handler)
  return () => document.removeEventListener('visibilitychange', handler)
}

function safeLocalStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null // storage blocked (privacy settings): tabs still follow through the channel
  }
}
