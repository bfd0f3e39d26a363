/**
 * The age popup island (spec §4 age check, §5 birthday rule, §9 calendar over the past 100 years, popup width
 * 275 px): a birthday picker (year and month selectors over a day calendar) or a yes/no question, per edition
 * and reader as `GET /api/v1/user/adult` says. An accessible modal: labelled dialog, focus kept inside (Tab
 * cycles), Esc and "no" close it and give focus back; it is on the page shell's layer stack (useLayer), so browser
 * Back closes it too and the page stays. On success the page goes to the `returnTo` the age store holds (or reloads)
 * so the adult content shows. Mounted lazily by ./listen.ts once the age check is asked for.
 */
import { api } from '../session/api.ts'
import type { VerifyAdultBody } from './age.schema.ts'
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useStore } from '@nanostores/react'
import { $age } from '../../lib/shell/stores.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { useLayer } from '../../lib/shell/use-layer.ts'
import {
  ADULT_POPUP_COOKIE_SECONDS,
  NOT_LOGGED_IN_ADULT_COOKIE,
  calendarYears,
  checkBirthday,
  daysInMonth,
  safeReturnTo,
  yearNamer,
  type PopupMode,
} from './age.ts'

export type AgeLabels = Record<
  | 'title'
  | 'introBirthday'
  | 'year'
  | 'month'
  | 'day'
  | 'selected'
  | 'confirm'
  | 'cancel'
  | 'yes'
  | 'no'
  | 'invalid'
  | 'loginText'
  | 'loginButton'
  | 'krText'
  | 'krAgree'
  | 'krStart'
  | 'failed'
  | 'close'
  | 'loading',
  string
> & { /** Counts the adult age. */ introYesNo: Plural }

/** What `GET /api/v1/user/adult` answers. */
export type AgeState = { mode: PopupMode; adultAge: number; today: string; birthedAt: string | null; signedIn: boolean; isAdult: boolean }

export type AgePopupProps = {
  labels: AgeLabels
  locale: string
  /** Called when the popup closes without success (spec §4: "no" calls the cancel handler). */
  onClose: () => void
  /** Loads the reader's state (the API call; replaced in tests). */
  load?: () => Promise<AgeState>
  /** Sends the adult authentication; resolves to an error message or null (replaced in tests). */
  submit?: (birthedAt: string | undefined) => Promise<string | null>
  /** Where the page goes after success (defaults to the browser). */
  done?: (returnTo: string) => void
}

const pad = (n: number) => String(n).padStart(2, '0')

async function loadState(): Promise<AgeState> {
  const res = await api<AgeState>('/user/adult')
  if (!res.ok) throw new Error(`age state ${res.code}`)
  return res.data
}

async function submitAdult(birthedAt: string | undefined): Promise<string | null> {
  const body: VerifyAdultBody = birthedAt ? { birthedAt } : {}
  const res = await api('/user/adult', { method: 'PUT', body })
  return res.ok ? null : (res.message ?? '')
}

function goTo(returnTo: string) {
  const target = safeReturnTo(returnTo)
  if (target === location.pathname + location.search) location.reload()
  else location.assign(target)
}

export default function AgePopup({ labels, locale, onClose, load = loadState, submit = submitAdult, done = goTo }: AgePopupProps) {
  const id = useId()
  const returnTo = useStore($age) ?? location.pathname
  const dialog = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<AgeState | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // Leaving for another page (success, the carrier): the popup's history entry is taken back first, then `go` runs,
  // so Back from the page that follows does not land on a dead entry.
  const [go, setGo] = useState<(() => void) | null>(null)
  useLayer(go === null, onClose)
  useEffect(() => {
    if (go) addEventListener('popstate', go, { once: true })
  }, [go])
  const leave = (then: () => void) => setGo(() => then)

  useEffect(() => {
    let live = true
    load().then(
      (s) => live && setState(s),
      () => live && setError(labels.failed),
    )
    return () => {
      live = false
    }
  }, [load, labels.failed])

  // focus the first control once the content is there; give focus back to the opener on close
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    return () => opener?.focus?.()
  }, [])
  useEffect(() => {
    const first = dialog.current?.querySelector<HTMLElement>('select, button:not([tabindex="-1"]), a[href]')
    ;(first ?? dialog.current)?.focus()
  }, [state?.mode])

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === 'Escape') {
      e.stopPropagation()
      onClose()
      return
    }
    if (e.key !== 'Tab' || !dialog.current) return
    const items = [...dialog.current.querySelectorAll<HTMLElement>('select, button, a[href], input')].filter(
      (el) => el.tabIndex >= 0 && !el.hasAttribute('disabled'),
    )
    if (items.length === 0) return
    const first = items[0]!
    const last = items[items.length - 1]!
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  async function confirm(birthedAt: string | undefined) {
    setBusy(true)
    setError(null)
    const message = await submit(birthedAt).catch(() => labels.failed)
    setBusy(false)
    if (message === null) leave(() => done(returnTo))
    else setError(message || labels.failed)
  }

  function guestYes() {
    const secure = location.protocol === 'https:' ? '; secure' : ''
    document.cookie = `${NOT_LOGGED_IN_ADULT_COOKIE}=Y; path=/; max-age=${ADULT_POPUP_COOKIE_SECONDS}; samesite=lax${secure}`
    leave(() => done(returnTo))
  }

  const titleId = `${id}-title`
  const textId = `${id}-text`
  const mode = state?.mode
  return (
    <div className="modal" onKeyDown={onKeyDown} data-age-popup>
      <div
        ref={dialog}
        className="modal-body age-popup"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        tabIndex={-1}
      >
        <h2 id={titleId}>{labels.title}</h2>
        {!state && !error && (
          <p id={textId} role="status">
            {labels.loading}
          </p>
        )}
        {!state && error && (
          <p id={textId} role="alert">
            {error}
          </p>
        )}
        {mode === 'birthday' && state && (
          <Birthday
            labels={labels}
            locale={locale}
            state={state}
            textId={textId}
            busy={busy}
            onConfirm={(date) => {
              if (checkBirthday(date, { adultAge: state.adultAge }, state.today) !== 'adult') setError(labels.invalid)
              else void confirm(date ?? undefined)
            }}
          />
        )}
        {(mode === 'yesNo' || mode === 'guestYesNo') && state && (
          <>
            <p id={textId}>{pluralText(labels.introYesNo, state.adultAge)}</p>
            <div className="age-actions">
              <button type="button" className="link age-link" onClick={onClose}>
                {labels.no}
              </button>
              <button
                type="button"
                className="btn"
                disabled={busy}
                onClick={() => (mode === 'guestYesNo' ? guestYes() : void confirm(undefined))}
              >
                {labels.yes}
              </button>
            </div>
          </>
        )}
        {mode === 'login' && (
          <>
            <p id={textId}>{labels.loginText}</p>
            <div className="age-actions">
              <button type="button" className="link age-link" onClick={onClose}>
                {labels.cancel}
              </button>
              <a className="btn" href={`/user/login?${new URLSearchParams({ callback: safeReturnTo(returnTo) })}`}>
                {labels.loginButton}
              </a>
            </div>
          </>
        )}
        {mode === 'krPhone' && <KrPhone labels={labels} textId={textId} returnTo={returnTo} onClose={onClose} leave={leave} />}
        {state && error && (
          <p role="alert" className="age-error">
            {error}
          </p>
        )}
        {(!state || mode === 'birthday') && (
          <button type="button" className="link age-link" onClick={onClose}>
            {labels.cancel}
          </button>
        )}
      </div>
    </div>
  )
}

/**
 * kr (spec §5): a Korean-IP reader also proves adulthood through the mobile carrier (purpose ADULT_KR). The
 * agreement to hand over identity data comes first (required); then /nice/encode, which comes back to `returnTo`.
 */
function KrPhone({
  labels,
  textId,
  returnTo,
  onClose,
  leave,
}: {
  labels: AgeLabels
  textId: string
  returnTo: string
  onClose: () => void
  leave: (then: () => void) => void
}) {
  const [agreed, setAgreed] = useState(false)
  const start = () =>
    leave(() => location.assign(`/nice/encode?${new URLSearchParams({ purpose: 'ADULT_KR', returnPath: safeReturnTo(returnTo) })}`))
  return (
    <>
      <p id={textId}>{labels.krText}</p>
      <label className="age-agree">
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)} /> {labels.krAgree}
      </label>
      <div className="age-actions">
        <button type="button" className="link age-link" onClick={onClose}>
          {labels.cancel}
        </button>
        <button type="button" className="btn" disabled={!agreed} onClick={start}>
          {labels.krStart}
        </button>
      </div>
    </>
  )
}

/** Year and month selectors over a day calendar (a grid: arrows move by a day or a week, Home/End to the ends). */
function Birthday({
  labels,
  locale,
  state,
  textId,
  busy,
  onConfirm,
}: {
  labels: AgeLabels
  locale: string
  state: AgeState
  textId: string
  busy: boolean
  onConfirm: (date: string | null) => void
}) {
  const years = useMemo(() => calendarYears(state.today), [state.today])
  const start = state.birthedAt ? state.birthedAt.split('-').map(Number) : [years[0]! - state.adultAge, 1, 0]
  const [year, setYear] = useState(start[0]!)
  const [month, setMonth] = useState(start[1]!)
  const [day, setDay] = useState(start[2]!) // 0: none chosen yet
  const [focusDay, setFocusDay] = useState(Math.max(1, start[2]!))
  const grid = useRef<HTMLDivElement>(null)
  const days = daysInMonth(year, month)
  const monthNames = useMemo(
    () =>
      Array.from({ length: 12 }, (_, i) =>
        new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, i, 1)),
      ),
    [locale],
  )
  const weekdays = useMemo(
    () =>
      Array.from({ length: 7 }, (_, i) =>
        new Intl.DateTimeFormat(locale, { weekday: 'narrow', timeZone: 'UTC' }).format(Date.UTC(2023, 0, 1 + i)),
      ),
    [locale],
  )
  const yearName = useMemo(() => yearNamer(locale), [locale])
  const lead = new Date(Date.UTC(year, month - 1, 1)).getUTCDay()
  const chosen = day > 0 && day <= days ? `${year}-${pad(month)}-${pad(day)}` : null
  const fullDate = (d: number) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, d))

  function moveFocus(next: number) {
    const d = Math.min(days, Math.max(1, next))
    setFocusDay(d)
    grid.current?.querySelector<HTMLElement>(`[data-day="${d}"]`)?.focus()
  }
  function onGridKey(e: KeyboardEvent<HTMLDivElement>) {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key]
    // from the day that has focus now (keys can come faster than renders)
    const current = Number((document.activeElement as HTMLElement | null)?.dataset?.day) || focusDay
    if (step !== undefined) moveFocus(current + (document.documentElement.dir === 'rtl' && Math.abs(step) === 1 ? -step : step))
    else if (e.key === 'Home') moveFocus(1)
    else if (e.key === 'End') moveFocus(days)
    else return
    e.preventDefault()
  }

  return (
    <>
      <p id={textId}>{labels.introBirthday}</p>
      <div className="age-row">
        <label className="age-field">
          <span>{labels.year}</span>
          <select value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((y) => (
              <option key={y} value={y}>
                {yearName(y)}
              </option>
            ))}
          </select>
        </label>
        <label className="age-field">
          <span>{labels.month}</span>
          <select value={month} onChange={(e) => setMonth(Number(e.target.value))}>
            {monthNames.map((name, i) => (
              <option key={name} value={i + 1}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div role="group" aria-label={labels.day} ref={grid} onKeyDown={onGridKey} className="age-calendar">
        {weekdays.map((w, i) => (
          <span key={`w${i}`} aria-hidden="true" className="age-weekday">
            {w}
          </span>
        ))}
        {Array.from({ length: lead }, (_, i) => (
          <span key={`b${i}`} aria-hidden="true" />
        ))}
        {Array.from({ length: days }, (_, i) => i + 1).map((d) => (
          <button
            key={d}
            type="button"
            data-day={d}
            className="age-day"
            tabIndex={d === Math.min(focusDay, days) ? 0 : -1}
            aria-pressed={d === day}
            aria-label={fullDate(d)}
            onClick={() => {
              setDay(d)
              setFocusDay(d)
            }}
          >
            {d}
          </button>
        ))}
      </div>
      <p aria-live="polite">{chosen ? labels.selected.replace('{date}', fullDate(day)) : ''}</p>
      <button type="button" className="btn" disabled={busy} onClick={() => onConfirm(chosen)}>
        {labels.confirm}
      </button>
    </>
  )
}
