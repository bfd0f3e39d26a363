/**
 * The viewer island (spec §2 viewer, SCROLL and PAPER modes; §9 image widths and lazy load): the slice list
 * with known sizes (no layout shift), loading three screens ahead, a visible retry per failed slice, keyboard
 * navigation with a help panel, reading settings remembered per reader (mode, single/double page, font of
 * TEXT episodes), and reading progress saved for signed-in readers. The server HTML of this island already
 * lists every `<img>` (lazy) as the SCROLL strip, so the episode reads without JavaScript; PAPER mode is
 * applied only once the island runs.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  DEFAULT_SETTINGS, FONT_SIZES, LOAD_AHEAD_ROOT_MARGIN, PROGRESS_THROTTLE_MS, pageIndicator, pageOfPosition, pageOfSlice, pagePosition, pageSlices,
  pageStep, parseSettings, scrollOffset, scrollPosition, turnPage, type ReadingDirection, type ViewerSettings,
} from './reading.ts'

export type ViewerLabels = {
  slices: string
  sliceFailed: string
  retry: string
  helpOpen: string
  helpTitle: string
  helpScroll: string
  helpPage: string
  helpNext: string
  helpPrev: string
  helpEscape: string
  helpToggle: string
  close: string
  helpTurn: string
  settingsOpen: string
  settingsTitle: string
  mode: string
  modeScroll: string
  modePaper: string
  layout: string
  single: string
  double: string
  font: string
  fontSans: string
  fontSerif: string
  fontSize: string
  pageNav: string
  prevPage: string
  nextPage: string
  /** "{current} / {total}" */
  pageIndicator: string
}

export type ViewerSliceProps = { n: number; width: number; height: number; alt: string; src: string; srcset: string }

export type ViewerProps = {
  episodeId: number
  /** Empty for TEXT episodes: their paragraphs are server HTML in `#viewer-content`. */
  slices: ViewerSliceProps[]
  prevHref: string | null
  nextHref: string | null
  /** Saved position (0..1) to restore, or null. */
  progress: number | null
  signedIn: boolean
  /** The series' reading direction: PAPER pages of a right-to-left series turn forward with ArrowLeft. */
  readingDirection: ReadingDirection
  /** localStorage key of the reader's settings (one per edition). */
  settingsKey: string
  labels: ViewerLabels
}

/** Double pages only where two pages fit side by side. */
const WIDE = '(min-width: 960px)'

const SIZES = '(min-width: 721px) 720px, 100vw'

/** A fresh URL for a retried slice (the same object; the query only defeats a cached failure). */
function withRetry(url: string, attempt: number): string {
  return attempt === 0 ? url : `${url}${url.includes('?') ? '&' : '?'}r=${attempt}`
}

function srcsetWithRetry(srcset: string, attempt: number): string {
  if (attempt === 0) return srcset
  return srcset.split(', ').map((c) => { const [u, w] = c.split(' '); return `${withRetry(u!, attempt)} ${w}` }).join(', ')
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))
}

function postProgress(episodeId: number, position: number) {
  void fetch(`/api/v1/viewer/${episodeId}/progress`, {
    method: 'POST', keepalive: true, credentials: 'same-origin',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position }),
  }).catch(() => undefined)
}

export default function Viewer({ episodeId, slices, prevHref, nextHref, progress, signedIn, readingDirection, settingsKey, labels }: ViewerProps) {
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set([0]))
  const [attempts, setAttempts] = useState<Record<number, number>>({})
  const [failed, setFailed] = useState<ReadonlySet<number>>(() => new Set())
  const [helpOpen, setHelpOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [ready, setReady] = useState(false)
  // The server renders the defaults (SCROLL); the stored settings apply once the island runs.
  const [settings, setSettings] = useState<ViewerSettings>(DEFAULT_SETTINGS)
  const [loaded, setLoaded] = useState(false)
  const [wide, setWide] = useState(false)
  /** PAPER mode: the first slice on the current page (kept when switching single/double). */
  const [slice, setSlice] = useState(0)
  const items = useRef<(HTMLLIElement | null)[]>([])
  const imgs = useRef<(HTMLImageElement | null)[]>([])
  const list = useRef<HTMLOListElement | null>(null)
  const helpButton = useRef<HTMLButtonElement | null>(null)
  const closeButton = useRef<HTMLButtonElement | null>(null)
  const settingsButton = useRef<HTMLButtonElement | null>(null)
  const settingsPanel = useRef<HTMLDivElement | null>(null)
  const restored = useRef(false)

  const isText = slices.length === 0
  const paper = loaded && !isText && settings.mode === 'PAPER'
  const double = paper && settings.double && wide
  const page = pageOfSlice(slice, double)
  const shown = paper ? pageSlices(page, double, slices.length) : []
  const lastPage = turnPage(page, 1, slices.length, double) === page

  const markFailed = useCallback((i: number) => setFailed((s) => new Set(s).add(i)), [])

  // Stored settings and the screen width, read once on the client.
  useEffect(() => {
    let stored: string | null = null
    try { stored = localStorage.getItem(settingsKey) } catch { /* storage blocked: defaults */ }
    setSettings(parseSettings(stored))
    setLoaded(true)
    const mq = matchMedia(WIDE)
    setWide(mq.matches)
    const onChange = () => setWide(mq.matches)
    mq.addEventListener('change', onChange)
    return () => mq.removeEventListener('change', onChange)
  }, [settingsKey])

  const update = (patch: Partial<ViewerSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...patch }
      try { localStorage.setItem(settingsKey, JSON.stringify(next)) } catch { /* not remembered */ }
      return next
    })
  }

  // TEXT episodes: the chosen font and size on the server-rendered paragraphs.
  useEffect(() => {
    if (!loaded || !isText) return
    const content = document.getElementById('viewer-content')
    if (!content) return
    content.classList.toggle('viewer-serif', settings.font === 'serif')
    content.style.fontSize = `${settings.fontSize}px`
  }, [loaded, isText, settings.font, settings.fontSize])

  // Slices within three screens start loading (native lazy loading alone waits longer on most browsers).
  useEffect(() => {
    setReady(true)
    imgs.current.forEach((img, i) => { if (img && img.complete && img.naturalWidth === 0 && img.getAttribute('src')) markFailed(i) })
    if (!('IntersectionObserver' in window)) { setNear(new Set(slices.map((_, i) => i))); return }
    const io = new IntersectionObserver((entries) => {
      const hits = entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.index))
      if (hits.length === 0) return
      for (const e of entries) if (e.isIntersecting) io.unobserve(e.target)
      setNear((s) => { const next = new Set(s); hits.forEach((h) => next.add(h)); return next })
    }, { rootMargin: LOAD_AHEAD_ROOT_MARGIN })
    items.current.forEach((el) => el && io.observe(el))
    return () => io.disconnect()
  }, [slices, markFailed])

  // PAPER: the current page and the next one load now (hidden pages never intersect).
  const shownKey = shown.join(',')
  useEffect(() => {
    if (!paper) return
    const ahead = pageSlices(turnPage(page, 1, slices.length, double), double, slices.length)
    setNear((s) => { const next = new Set(s); [...shown, ...ahead].forEach((i) => next.add(i)); return next })
  }, [paper, shownKey])

  // Reading progress in PAPER mode: the saved page restored once, then saved a moment after each turn.
  useEffect(() => {
    if (!paper) return
    if (!restored.current) {
      restored.current = true
      if (progress !== null && progress > 0) setSlice(pageSlices(pageOfPosition(progress, slices.length, double), double, slices.length)[0] ?? 0)
      return
    }
    if (!signedIn) return
    const timer = setTimeout(() => postProgress(episodeId, pagePosition(page, slices.length, double)), 1000)
    return () => clearTimeout(timer)
  }, [paper, page, double])

  // Reading progress in SCROLL mode: restored once, then saved at most every few seconds and when the page is hidden.
  useEffect(() => {
    if (!signedIn || !loaded || paper) return
    const content = document.getElementById('viewer-content')
    if (!content) return
    const measure = () => {
      const rect = content.getBoundingClientRect()
      return { top: rect.top + scrollY, height: rect.height }
    }
    if (!restored.current) {
      restored.current = true
      if (progress !== null && progress > 0 && progress < 1) {
        const m = measure()
        scrollTo(0, scrollOffset(progress, m.top, m.height, innerHeight))
      }
    }
    let sent = progress ?? -1
    let timer: ReturnType<typeof setTimeout> | null = null
    const save = () => {
      timer = null
      const m = measure()
      const position = scrollPosition(scrollY, m.top, m.height, innerHeight)
      if (Math.abs(position - sent) < 0.005) return
      sent = position
      postProgress(episodeId, position)
    }
    const onScroll = () => { if (timer === null) timer = setTimeout(save, PROGRESS_THROTTLE_MS) }
    const flush = () => { if (document.visibilityState === 'hidden') { if (timer !== null) clearTimeout(timer); save() } }
    addEventListener('scroll', onScroll, { passive: true })
    document.addEventListener('visibilitychange', flush)
    addEventListener('pagehide', save)
    return () => {
      removeEventListener('scroll', onScroll)
      document.removeEventListener('visibilitychange', flush)
      removeEventListener('pagehide', save)
      if (timer !== null) clearTimeout(timer)
    }
  }, [episodeId, progress, signedIn, loaded, paper])

  const turn = useCallback((step: number) => {
    const next = turnPage(page, step, slices.length, double)
    if (next === page) return
    setSlice(pageSlices(next, double, slices.length)[0] ?? 0)
    const top = list.current?.getBoundingClientRect().top ?? 0
    if (top < 0) list.current?.scrollIntoView({ block: 'start' })
  }, [page, double, slices.length])

  // Keyboard: arrows, space, PageUp/PageDown scroll (SCROLL) or turn pages (PAPER); n/p change episode;
  // ? toggles the help; Esc closes an open panel.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return
      if (e.key === 'Escape') {
        if (helpOpen) { setHelpOpen(false); e.preventDefault() } else if (settingsOpen) { setSettingsOpen(false); e.preventDefault() }
        return
      }
      if (isTyping(e.target)) return
      const overlay = helpOpen || settingsOpen
      const onControl = (e.target as HTMLElement | null)?.closest?.('button, a, summary')
      let dy = 0
      switch (e.key) {
        case '?': setHelpOpen((o) => !o); e.preventDefault(); return
        case 'n': case 'N': if (nextHref && !overlay) { e.preventDefault(); location.assign(nextHref) } return
        case 'p': case 'P': if (prevHref && !overlay) { e.preventDefault(); location.assign(prevHref) } return
        case 'ArrowDown': dy = 0.2; break
        case 'ArrowUp': dy = -0.2; break
        case 'PageDown': dy = 0.9; break
        case 'PageUp': dy = -0.9; break
        case ' ': if (onControl) return; dy = e.shiftKey ? -0.9 : 0.9; break
        case 'ArrowLeft': case 'ArrowRight': if (paper) break; return
        default: return
      }
      if (overlay) return
      e.preventDefault()
      if (paper) turn(pageStep(e.key, e.shiftKey, readingDirection))
      else scrollBy({ top: Math.round(innerHeight * dy), behavior: 'auto' })
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [helpOpen, settingsOpen, nextHref, prevHref, paper, turn, readingDirection])

  const wasOpen = useRef(false)
  useEffect(() => {
    if (helpOpen) closeButton.current?.focus()
    else if (wasOpen.current) helpButton.current?.focus()
    wasOpen.current = helpOpen
  }, [helpOpen])

  const settingsWasOpen = useRef(false)
  useEffect(() => {
    if (settingsOpen) settingsPanel.current?.querySelector<HTMLElement>('input:checked, select, button')?.focus()
    else if (settingsWasOpen.current) settingsButton.current?.focus()
    settingsWasOpen.current = settingsOpen
  }, [settingsOpen])

  const retry = (i: number) => {
    setAttempts((a) => ({ ...a, [i]: (a[i] ?? 0) + 1 }))
    setFailed((s) => { const next = new Set(s); next.delete(i); return next })
    setNear((s) => new Set(s).add(i))
  }

  const indicator = pageIndicator(page, double, slices.length)
  const radio = <T extends string>(name: string, value: T, current: T, label: string, onPick: (v: T) => void) => (
    <label className="viewer-choice">
      <input type="radio" name={name} value={value} checked={current === value} onChange={() => onPick(value)} />
      {label}
    </label>
  )

  return (
    <>
      {slices.length > 0 && (
        <ol
          id="viewer-content"
          ref={list}
          className={paper ? `viewer-slices viewer-paper${double ? ' is-double' : ''}` : 'viewer-slices'}
          dir={paper ? readingDirection : undefined}
          aria-label={labels.slices}
        >
          {slices.map((s, i) => {
            const attempt = attempts[i] ?? 0
            return (
              <li key={`${s.n}-${attempt}`} className="viewer-slice" data-index={i} hidden={paper && !shown.includes(i)} ref={(el) => { items.current[i] = el }}>
                <img
                  ref={(el) => { imgs.current[i] = el }}
                  src={withRetry(s.src, attempt)}
                  srcSet={srcsetWithRetry(s.srcset, attempt)}
                  sizes={SIZES}
                  width={s.width}
                  height={s.height}
                  alt={s.alt}
                  loading={i === 0 || near.has(i) ? 'eager' : 'lazy'}
                  fetchPriority={i === 0 ? 'high' : 'auto'}
                  decoding={i === 0 ? 'auto' : 'async'}
                  draggable={false}
                  onError={() => markFailed(i)}
                />
                {failed.has(i) && (
                  <div className="viewer-retry" role="alert">
                    <p>{labels.sliceFailed}</p>
                    <button type="button" className="btn" onClick={() => retry(i)}>{labels.retry}</button>
                  </div>
                )}
              </li>
            )
          })}
        </ol>
      )}
      {paper && (
        <nav className="viewer-pager" aria-label={labels.pageNav} dir={readingDirection}>
          <button type="button" className="btn" onClick={() => turn(-1)} disabled={page === 0}>{labels.prevPage}</button>
          <p className="viewer-page-indicator" role="status" aria-live="polite">
            {labels.pageIndicator.replace('{current}', indicator.current).replace('{total}', String(indicator.total))}
          </p>
          <button type="button" className="btn" onClick={() => turn(1)} disabled={lastPage}>{labels.nextPage}</button>
        </nav>
      )}
      {ready && (
        <div className="viewer-tools">
          <button ref={helpButton} type="button" className="viewer-tool" aria-haspopup="dialog" aria-expanded={helpOpen} aria-keyshortcuts="?" onClick={() => setHelpOpen(true)}>
            <span aria-hidden="true">?</span>
            <span className="sr-only">{labels.helpOpen}</span>
          </button>
          <button ref={settingsButton} type="button" className="viewer-tool" aria-haspopup="dialog" aria-expanded={settingsOpen} aria-controls={settingsOpen ? 'viewer-settings' : undefined} onClick={() => setSettingsOpen((o) => !o)}>
            <span aria-hidden="true">Aa</span>
            <span className="sr-only">{labels.settingsOpen}</span>
          </button>
        </div>
      )}
      {settingsOpen && (
        <div id="viewer-settings" ref={settingsPanel} className="viewer-help viewer-settings" role="dialog" aria-labelledby="viewer-settings-title">
          <h2 id="viewer-settings-title">{labels.settingsTitle}</h2>
          {isText ? (
            <>
              <fieldset>
                <legend>{labels.font}</legend>
                {radio('viewer-font', 'sans', settings.font, labels.fontSans, (font) => update({ font }))}
                {radio('viewer-font', 'serif', settings.font, labels.fontSerif, (font) => update({ font }))}
              </fieldset>
              <label className="viewer-size">
                {labels.fontSize}
                <select value={settings.fontSize} onChange={(e) => update({ fontSize: Number(e.currentTarget.value) })}>
                  {FONT_SIZES.map((n) => <option key={n} value={n}>{n} px</option>)}
                </select>
              </label>
            </>
          ) : (
            <>
              <fieldset>
                <legend>{labels.mode}</legend>
                {radio('viewer-mode', 'SCROLL', settings.mode, labels.modeScroll, (mode) => update({ mode }))}
                {radio('viewer-mode', 'PAPER', settings.mode, labels.modePaper, (mode) => update({ mode }))}
              </fieldset>
              <fieldset disabled={settings.mode !== 'PAPER'}>
                <legend>{labels.layout}</legend>
                {radio('viewer-layout', 'single', settings.double ? 'double' : 'single', labels.single, () => update({ double: false }))}
                {radio('viewer-layout', 'double', settings.double ? 'double' : 'single', labels.double, () => update({ double: true }))}
              </fieldset>
            </>
          )}
          <button type="button" className="btn" onClick={() => setSettingsOpen(false)}>{labels.close}</button>
        </div>
      )}
      {helpOpen && (
        <div className="viewer-help" role="dialog" aria-modal="true" aria-labelledby="viewer-help-title">
          <h2 id="viewer-help-title">{labels.helpTitle}</h2>
          <dl>
            <dt><kbd>↑</kbd> <kbd>↓</kbd></dt><dd>{labels.helpScroll}</dd>
            <dt><kbd>Space</kbd> <kbd>PageDown</kbd> <kbd>PageUp</kbd></dt><dd>{labels.helpPage}</dd>
            <dt><kbd>←</kbd> <kbd>→</kbd></dt><dd>{labels.helpTurn}</dd>
            <dt><kbd>n</kbd></dt><dd>{labels.helpNext}</dd>
            <dt><kbd>p</kbd></dt><dd>{labels.helpPrev}</dd>
            <dt><kbd>Esc</kbd></dt><dd>{labels.helpEscape}</dd>
            <dt><kbd>?</kbd></dt><dd>{labels.helpToggle}</dd>
          </dl>
          <button ref={closeButton} type="button" className="btn" onClick={() => setHelpOpen(false)}>{labels.close}</button>
        </div>
      )}
    </>
  )
}
