/**
 * The viewer island (spec §2 viewer, SCROLL mode; §9 image widths and lazy load): the slice list with known
 * sizes (no layout shift), loading three screens ahead, a visible retry per failed slice, keyboard
 * navigation with a help panel, and reading progress saved for signed-in readers. The server HTML of this
 * island already lists every `<img>` (lazy), so the episode reads without JavaScript.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { LOAD_AHEAD_ROOT_MARGIN, PROGRESS_THROTTLE_MS, scrollOffset, scrollPosition } from './reading.ts'

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
  labels: ViewerLabels
}

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

export default function Viewer({ episodeId, slices, prevHref, nextHref, progress, signedIn, labels }: ViewerProps) {
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set([0]))
  const [attempts, setAttempts] = useState<Record<number, number>>({})
  const [failed, setFailed] = useState<ReadonlySet<number>>(() => new Set())
  const [helpOpen, setHelpOpen] = useState(false)
  const [ready, setReady] = useState(false)
  const items = useRef<(HTMLLIElement | null)[]>([])
  const imgs = useRef<(HTMLImageElement | null)[]>([])
  const helpButton = useRef<HTMLButtonElement | null>(null)
  const closeButton = useRef<HTMLButtonElement | null>(null)

  const markFailed = useCallback((i: number) => setFailed((s) => new Set(s).add(i)), [])

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

  // Reading progress: restored once, then saved at most every few seconds and when the page is hidden.
  useEffect(() => {
    if (!signedIn) return
    const content = document.getElementById('viewer-content')
    if (!content) return
    const measure = () => {
      const rect = content.getBoundingClientRect()
      return { top: rect.top + scrollY, height: rect.height }
    }
    if (progress !== null && progress > 0 && progress < 1) {
      const m = measure()
      scrollTo(0, scrollOffset(progress, m.top, m.height, innerHeight))
    }
    let sent = progress ?? -1
    let timer: ReturnType<typeof setTimeout> | null = null
    const save = () => {
      timer = null
      const m = measure()
      const position = scrollPosition(scrollY, m.top, m.height, innerHeight)
      if (Math.abs(position - sent) < 0.005) return
      sent = position
      void fetch(`/api/v1/viewer/${episodeId}/progress`, {
        method: 'POST', keepalive: true, credentials: 'same-origin',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position }),
      }).catch(() => undefined)
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
  }, [episodeId, progress, signedIn])

  // Keyboard: arrows, space, PageUp/PageDown scroll; n/p change episode; ? toggles the help; Esc closes it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return
      const onControl = (e.target as HTMLElement | null)?.closest?.('button, a, summary')
      let dy = 0
      switch (e.key) {
        case 'Escape': if (helpOpen) { setHelpOpen(false); e.preventDefault() } return
        case '?': setHelpOpen((o) => !o); e.preventDefault(); return
        case 'n': case 'N': if (nextHref && !helpOpen) { e.preventDefault(); location.assign(nextHref) } return
        case 'p': case 'P': if (prevHref && !helpOpen) { e.preventDefault(); location.assign(prevHref) } return
        case 'ArrowDown': dy = 0.2; break
        case 'ArrowUp': dy = -0.2; break
        case 'PageDown': dy = 0.9; break
        case 'PageUp': dy = -0.9; break
        case ' ': if (onControl) return; dy = e.shiftKey ? -0.9 : 0.9; break
        default: return
      }
      if (helpOpen) return
      e.preventDefault()
      scrollBy({ top: Math.round(innerHeight * dy), behavior: 'auto' })
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [helpOpen, nextHref, prevHref])

  const wasOpen = useRef(false)
  useEffect(() => {
    if (helpOpen) closeButton.current?.focus()
    else if (wasOpen.current) helpButton.current?.focus()
    wasOpen.current = helpOpen
  }, [helpOpen])

  const retry = (i: number) => {
    setAttempts((a) => ({ ...a, [i]: (a[i] ?? 0) + 1 }))
    setFailed((s) => { const next = new Set(s); next.delete(i); return next })
    setNear((s) => new Set(s).add(i))
  }

  return (
    <>
      {slices.length > 0 && (
        <ol id="viewer-content" className="viewer-slices" aria-label={labels.slices}>
          {slices.map((s, i) => {
            const attempt = attempts[i] ?? 0
            return (
              <li key={`${s.n}-${attempt}`} className="viewer-slice" data-index={i} ref={(el) => { items.current[i] = el }}>
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
      {ready && (
        <button ref={helpButton} type="button" className="viewer-help-button" aria-haspopup="dialog" aria-expanded={helpOpen} aria-keyshortcuts="?" onClick={() => setHelpOpen(true)}>
          <span aria-hidden="true">?</span>
          <span className="sr-only">{labels.helpOpen}</span>
        </button>
      )}
      {helpOpen && (
        <div className="viewer-help" role="dialog" aria-modal="true" aria-labelledby="viewer-help-title">
          <h2 id="viewer-help-title">{labels.helpTitle}</h2>
          <dl>
            <dt><kbd>↑</kbd> <kbd>↓</kbd></dt><dd>{labels.helpScroll}</dd>
            <dt><kbd>Space</kbd> <kbd>PageDown</kbd> <kbd>PageUp</kbd></dt><dd>{labels.helpPage}</dd>
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
