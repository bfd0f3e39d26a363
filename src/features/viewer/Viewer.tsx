/**
 * The viewer island (spec §2 viewer, SCROLL and PAPER modes; §9 image widths and lazy load).
 *
 * - The episode of the page: its slices at known sizes (no layout shift), loaded three screens ahead, a retry
 *   per failed slice; PAPER mode pages it (single or double, in the series' reading direction).
 * - Continuous reading (SCROLL): before the reader reaches the end, the next episode is fetched through the API
 *   and appended below (its first slices load ahead), the URL follows the episode on screen (replaceState), and
 *   a locked next episode is offered — or unlocked automatically when the reader opted in for the series.
 * - Comfort: zoom (pinch, double-tap to fit, + / −), auto-scroll with a speed control, fullscreen (f), keyboard
 *   navigation with a help panel; Esc closes overlays.
 * - Reading progress saved per episode (signed-in readers) and restored, from the server or from `?p=`.
 *
 * The server HTML of this island already holds every slice of the page's episode (readable without JavaScript)
 * and, when the reader's settings cookie says so, the PAPER layout (no flash).
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react'
import {
  DEFAULT_SETTINGS, FONT_SIZES, PROGRESS_THROTTLE_MS, pageIndicator, pageOfPosition, pageOfSlice, pagePosition, pageSlices,
  pageStep, parseSettings, positionParam, scrollOffset, scrollPosition, settingsCookie, turnPage, viewerLoginHref,
  AUTO_SCROLL_SPEEDS, DEFAULT_AUTO_SCROLL_SPEED, ZOOM_STEPS, zoomStep,
  type ReadingDirection, type ViewerSettings,
} from './reading.ts'
import { currentSection, type AutoUnlockState } from './continuous.ts'
import SliceList from './SliceList.tsx'
import { Icon } from '../../components/Icon.tsx'
import type { EpisodeLink, ViewerSlice } from './viewer.ts'
import NextEpisode, { type NextLabels, type NextStatus } from './NextEpisode.tsx'
import { TRANSCRIPT_REGION_ID, TranscriptToggle, type TranscriptLabels } from './Transcript.tsx'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { episodeLabel } from '../../lib/i18n/format.ts'
import { getAutoUnlock, getEpisode, logout, postProgress, requireAge, deleteAutoUnlock, type EpisodeData } from './client.ts'

type ViewerLabels = NextLabels & TranscriptLabels & {
  slices: string
  sliceFailed: string
  helpOpen: string
  helpTitle: string
  helpScroll: string
  helpPage: string
  helpNext: string
  helpPrev: string
  helpEscape: string
  helpToggle: string
  helpZoom: string
  helpFit: string
  helpAutoScroll: string
  helpSpeed: string
  helpFullscreen: string
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
  end: string
  episodeNav: string
  prevEpisode: string
  nextEpisode: string
  zoomIn: string
  zoomOut: string
  /** "{percent} %" */
  zoomLevel: string
  autoScroll: string
  autoScrollSpeed: string
  fullscreen: string
  keyUp: string
  keyDown: string
  keyLeft: string
  keyRight: string
  /** Counts the budget, with {spent}. */
  autoActive: Plural
  autoDisable: string
  autoDisabled: string
  offlineSave: string
  offlineSaving: string
  offlineSaved: string
  offlineFailed: string
  offlineExpiredTitle: string
  offlineExpiredText: string
}

export type ViewerProps = {
  episodeId: number
  no: number
  title: string
  seriesId: number
  seriesTitle: string
  /** Empty for TEXT episodes: their paragraphs are server HTML in `#viewer-content`. */
  slices: ViewerSlice[]
  prev: EpisodeLink | null
  next: EpisodeLink | null
  /** The series' next update, formatted ("Prochain épisode le …"), shown after an episode without a next one. */
  nextUpdate: string | null
  /** Saved position (0..1) to restore, or null. */
  progress: number | null
  /** The signed-in reader, or null for a guest. */
  userId: number | null
  /** The series' reading direction: PAPER pages of a right-to-left series turn forward with ArrowLeft. */
  readingDirection: ReadingDirection
  /** localStorage key and cookie name of the reader's settings (one per edition). */
  settingsKey: string
  /** Settings read from the cookie by the server (null: none; the island reads localStorage). */
  initialSettings: ViewerSettings | null
  /** An owned or rented episode may be saved for offline reading (until `expiresAt` for a rental); null otherwise. */
  offline: { expiresAt: string | null } | null
  labels: ViewerLabels
}

/** Double pages only where two pages fit side by side. */
const WIDE = '(min-width: 960px)'

/** An arrow key of the shortcut list: drawn as an icon, named by hidden text. */
function arrowKey(name: 'up' | 'down' | 'left' | 'right', label: string) {
  return <kbd className="viewer-key"><Icon name={name} size={14} /><span className="sr-only">{label}</span></kbd>
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))
}

/** `{name}` placeholders of a label. */
function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
}

type Tail = { link: EpisodeLink; status: NextStatus } | null

export default function Viewer(props: ViewerProps) {
  const { episodeId, slices, progress, userId, readingDirection, settingsKey, initialSettings, labels } = props
  const signedIn = userId !== null
  const [helpOpen, setHelpOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [ready, setReady] = useState(false)
  // The server renders the cookie's settings (or the defaults); localStorage applies once the island runs.
  const [settings, setSettings] = useState<ViewerSettings>(initialSettings ?? DEFAULT_SETTINGS)
  const [loaded, setLoaded] = useState(initialSettings !== null)
  const [wide, setWide] = useState(false)
  /** PAPER mode: the first slice on the current page (kept when switching single/double). */
  const [slice, setSlice] = useState(0)
  /** Continuous reading: the episodes appended below the page's own, and the next one being fetched or locked. */
  const [chain, setChain] = useState<EpisodeData[]>([])
  const [tail, setTail] = useState<Tail>(null)
  const [auto, setAuto] = useState<AutoUnlockState | null>(null)
  const [announcement, setAnnouncement] = useState('')
  /** Index of the episode on screen: 0 the page's, then the appended ones. */
  const [current, setCurrent] = useState(0)
  const [zoom, setZoom] = useState(1)
  const [autoScroll, setAutoScroll] = useState(false)
  const [speed, setSpeed] = useState<number>(DEFAULT_AUTO_SCROLL_SPEED)
  const list = useRef<HTMLOListElement | null>(null)
  const helpButton = useRef<HTMLButtonElement | null>(null)
  const closeButton = useRef<HTMLButtonElement | null>(null)
  const settingsButton = useRef<HTMLButtonElement | null>(null)
  const settingsPanel = useRef<HTMLDivElement | null>(null)
  const sections = useRef<(HTMLElement | null)[]>([])
  const sentinel = useRef<HTMLDivElement | null>(null)
  const restored = useRef(false)

  const isText = slices.length === 0
  /** Slices with a transcript: the toggle is offered, the strip becomes a named region. */
  const withTranscript = slices.some((s) => s.transcript)
  const paper = loaded && !isText && settings.mode === 'PAPER'
  const double = paper && settings.double && wide
  const page = pageOfSlice(slice, double)
  const shown = paper ? pageSlices(page, double, slices.length) : []
  const ahead = paper ? [...shown, ...pageSlices(turnPage(page, 1, slices.length, double), double, slices.length)] : []
  const lastPage = turnPage(page, 1, slices.length, double) === page

  /** The episodes on the page, in order: the page's own, then the appended ones. */
  const first: { id: number; no: number; title: string; prev: EpisodeLink | null; next: EpisodeLink | null } =
    { id: episodeId, no: props.no, title: props.title, prev: props.prev, next: props.next }
  const episodes = [first, ...chain]
  /** The last episode on the page (PAPER shows the page's own only). */
  const last = paper ? first : episodes[episodes.length - 1]!
  const onScreen = episodes[Math.min(current, episodes.length - 1)]!

  // Stored settings and the screen width, read once on the client.
  useEffect(() => {
    let stored: string | null = null
    try { stored = localStorage.getItem(settingsKey) } catch { /* storage blocked: defaults */ }
    if (initialSettings === null && stored !== null) {
      const parsed = parseSettings(stored)
      setSettings(parsed)
      document.cookie = settingsCookie(settingsKey, parsed) // the server renders them from now on
    }
    setLoaded(true)
    setReady(true)
    const mq = matchMedia(WIDE)
    setWide(mq.matches)
    const onChange = () => setWide(mq.matches)
    mq.addEventListener('change', onChange)
    return () => mq.removeEventListener('change', onChange)
  }, [settingsKey, initialSettings])

  const update = (patch: Partial<ViewerSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...patch }
      try { localStorage.setItem(settingsKey, JSON.stringify(next)) } catch { /* not remembered here */ }
      document.cookie = settingsCookie(settingsKey, next)
      return next
    })
  }

  // TEXT episodes: the chosen font and size on the server-rendered paragraphs (and appended ones).
  useEffect(() => {
    if (!loaded || !isText) return
    document.querySelectorAll<HTMLElement>('#viewer-content, .viewer-episode .viewer-text').forEach((content) => {
      content.classList.toggle('viewer-serif', settings.font === 'serif')
      content.style.fontSize = `${settings.fontSize}px`
    })
  }, [loaded, isText, settings.font, settings.fontSize, chain.length])

  // ───────────── continuous reading ─────────────

  const fetchNext = useCallback(async (link: EpisodeLink, retried = false) => {
    setTail({ link, status: 'loading' })
    const res = await getEpisode(link.id)
    if (res.ok) {
      setChain((c) => (c.some((e) => e.id === res.data.id) ? c : [...c, res.data]))
      setTail(null)
      return
    }
    if (res.code === 'NEED_TO_REFRESH' && !retried) return fetchNext(link, true)
    if (res.code === 'NOT_FOUND_ACCESS_TOKEN') { void logout(); return }
    if (res.code === 'ADULT_ONLY_CONTENTS') { setTail({ link, status: 'adult' }); requireAge(); return }
    setTail({ link, status: res.code === 'UNAUTHORIZED_CONTENTS' ? 'locked' : 'error' })
  }, [])

  // The episode after the page's own is fetched as soon as the island runs (its data is small; its slices load
  // once within three screens), the ones after it when the end of the chain comes within three screens.
  useEffect(() => {
    if (paper || !ready || tail !== null || !last.next) return
    const next = last.next
    if (chain.length === 0) { void fetchNext(next); return }
    if (!sentinel.current || !('IntersectionObserver' in window)) return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { io.disconnect(); void fetchNext(next) }
    }, { rootMargin: '300% 0px' })
    io.observe(sentinel.current)
    return () => io.disconnect()
  }, [paper, ready, tail, last.next, chain.length, fetchNext])

  // A signed-in reader at a locked next episode: their opt-in for the series, read once.
  useEffect(() => {
    if (!signedIn || tail?.status !== 'locked' || auto !== null) return
    void getAutoUnlock(props.seriesId).then((r) => { if (r.ok) setAuto(r.data) })
  }, [signedIn, tail?.status, auto, props.seriesId])

  // The URL, the title and the saved place follow the episode on screen.
  useEffect(() => {
    if (paper || chain.length === 0) return
    let frame = 0
    const onScroll = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const tops = sections.current.slice(0, chain.length + 1).map((el, i) => (i === 0 ? -Infinity : el?.getBoundingClientRect().top ?? Infinity))
        setCurrent(currentSection(tops, innerHeight))
      })
    }
    addEventListener('scroll', onScroll, { passive: true })
    onScroll()
    return () => { removeEventListener('scroll', onScroll); cancelAnimationFrame(frame) }
  }, [paper, chain.length])

  const shownTitle = useRef(props.title)
  useEffect(() => {
    if (onScreen.id === episodeId && shownTitle.current === props.title) return
    const target = `/viewer/${onScreen.id}`
    if (location.pathname !== target) history.replaceState(history.state, '', target)
    document.title = document.title.replace(shownTitle.current, onScreen.title)
    shownTitle.current = onScreen.title
  }, [onScreen.id, onScreen.title, episodeId, props.title])

  /** The element holding the episode on screen (its slices, or its paragraphs). */
  const sectionOf = (i: number): HTMLElement | null => (i === 0 ? document.getElementById('viewer-content') : sections.current[i] ?? null)

  // ───────────── reading progress ─────────────

  // PAPER mode: the saved page restored once, then saved a moment after each turn.
  useEffect(() => {
    if (!paper) return
    if (!restored.current) {
      restored.current = true
      const start = positionParam(location.search) ?? progress
      if (start !== null && start > 0) setSlice(pageSlices(pageOfPosition(start, slices.length, double), double, slices.length)[0] ?? 0)
      return
    }
    if (!signedIn) return
    const timer = setTimeout(() => postProgress(episodeId, pagePosition(page, slices.length, double)), 1000)
    return () => clearTimeout(timer)
  }, [paper, page, double, episodeId, progress, signedIn, slices.length])

  /** Where the reader is in the episode on screen (SCROLL). */
  const place = (): { episodeId: number; position: number } | null => {
    const i = Math.min(current, episodes.length - 1)
    const el = sectionOf(i)
    if (!el) return null
    const rect = el.getBoundingClientRect()
    return { episodeId: episodes[i]!.id, position: scrollPosition(scrollY, rect.top + scrollY, rect.height, innerHeight) }
  }
  /** The latest `place` for listeners that outlive a render (a chain that grows must not drop a pending save). */
  const placeRef = useRef(place)
  placeRef.current = place

  // SCROLL mode: restored once (server progress, or `?p=` after a login), then saved every few seconds and on leaving.
  useEffect(() => {
    if (!loaded || paper) return
    if (!restored.current) {
      restored.current = true
      const fromUrl = positionParam(location.search)
      if (fromUrl !== null) history.replaceState(history.state, '', location.pathname)
      const start = fromUrl ?? progress
      const content = sectionOf(0)
      if (content && start !== null && start > 0 && start < 1) {
        const rect = content.getBoundingClientRect()
        scrollTo(0, scrollOffset(start, rect.top + scrollY, rect.height, innerHeight))
      }
    }
    if (!signedIn) return
    const sent = new Map<number, number>([[episodeId, progress ?? -1]])
    let timer: ReturnType<typeof setTimeout> | null = null
    const save = () => {
      timer = null
      const at = placeRef.current()
      if (!at || Math.abs(at.position - (sent.get(at.episodeId) ?? -1)) < 0.005) return
      sent.set(at.episodeId, at.position)
      postProgress(at.episodeId, at.position)
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

  // ───────────── comfort: zoom, auto-scroll, fullscreen ─────────────

  const zoomNow = useRef(1)
  const applyZoom = useCallback((next: number) => {
    const z = zoomNow.current
    if (next === z) return
    zoomNow.current = next
    // keep the point at the middle of the screen where it is
    const mid = scrollY + innerHeight / 2
    setZoom(next)
    requestAnimationFrame(() => scrollTo(scrollX, Math.max(0, mid * (next / z) - innerHeight / 2)))
  }, [])
  const zoomBy = useCallback((dir: 1 | -1) => applyZoom(zoomStep(zoomNow.current, dir)), [applyZoom])
  /** Double-tap: back to fitting the width, or a closer look when already fitted. */
  const fit = useCallback(() => applyZoom(zoomNow.current === 1 ? 2 : 1), [applyZoom])

  // Pinch on the strip (two pointers): the zoom follows the distance between the fingers.
  const strip = useRef<HTMLDivElement | null>(null)
  useEffect(() => {
    const el = strip.current
    if (!el || paper) return
    const pointers = new Map<number, { x: number; y: number }>()
    let start: { dist: number; zoom: number } | null = null
    const dist = () => { const [a, b] = [...pointers.values()]; return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0 }
    const down = (e: PointerEvent) => {
      if (e.pointerType !== 'touch') return
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY })
      if (pointers.size === 2) start = { dist: dist(), zoom: zoomNow.current }
    }
    const move = (e: PointerEvent) => {
      if (!pointers.has(e.pointerId)) return
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY })
      if (start && start.dist > 0) {
        const next = Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1]!, Math.max(1, Math.round(start.zoom * (dist() / start.dist) * 20) / 20))
        zoomNow.current = next
        setZoom(next)
      }
    }
    const up = (e: PointerEvent) => { pointers.delete(e.pointerId); if (pointers.size < 2) start = null }
    el.addEventListener('pointerdown', down)
    el.addEventListener('pointermove', move)
    el.addEventListener('pointerup', up)
    el.addEventListener('pointercancel', up)
    return () => { el.removeEventListener('pointerdown', down); el.removeEventListener('pointermove', move); el.removeEventListener('pointerup', up); el.removeEventListener('pointercancel', up) }
  }, [paper])

  useEffect(() => {
    strip.current?.style.setProperty('--viewer-zoom', String(zoom))
  }, [zoom, ready])

  // Auto-scroll: `speed` CSS px per second until the end, a key, or the reader's own scroll input.
  useEffect(() => {
    if (!autoScroll || paper) return
    let frame = 0
    let before = performance.now()
    let carry = 0
    const step = (t: number) => {
      carry += (speed * (t - before)) / 1000
      before = t
      const px = Math.floor(carry)
      if (px > 0) { carry -= px; scrollBy(0, px) }
      if (innerHeight + scrollY >= document.documentElement.scrollHeight - 1) { setAutoScroll(false); return }
      frame = requestAnimationFrame(step)
    }
    frame = requestAnimationFrame(step)
    const stop = () => setAutoScroll(false)
    addEventListener('wheel', stop, { passive: true })
    addEventListener('touchstart', stop, { passive: true })
    return () => { cancelAnimationFrame(frame); removeEventListener('wheel', stop); removeEventListener('touchstart', stop) }
  }, [autoScroll, speed, paper])

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined)
    else void document.documentElement.requestFullscreen?.().catch(() => undefined)
  }

  // ───────────── pages and keys ─────────────

  const turn = useCallback((step: number) => {
    const next = turnPage(page, step, slices.length, double)
    if (next === page) return
    setSlice(pageSlices(next, double, slices.length)[0] ?? 0)
    const top = list.current?.getBoundingClientRect().top ?? 0
    if (top < 0) list.current?.scrollIntoView({ block: 'start' })
  }, [page, double, slices.length])

  /** n / p: the neighbour on the page when it is there (continuous reading), else its own page. */
  const goEpisode = useEffectEvent((dir: 1 | -1) => {
    const i = Math.min(current, episodes.length - 1)
    const target = dir === 1 ? episodes[i]!.next : episodes[i]!.prev
    if (!target) return
    const j = episodes.findIndex((e) => e.id === target.id)
    const el = j >= 0 ? sectionOf(j) : null
    if (el && !paper) el.scrollIntoView({ block: 'start' })
    else location.assign(`/viewer/${target.id}`)
  })

  // Keyboard: arrows, space, PageUp/PageDown scroll (SCROLL) or turn pages (PAPER); n/p change episode;
  // + / − zoom, 0 fits; a auto-scroll, [ ] its speed; f fullscreen; ? toggles the help; Esc closes overlays.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return
      if (e.key === 'Escape') {
        if (helpOpen) { setHelpOpen(false); e.preventDefault() } else if (settingsOpen) { setSettingsOpen(false); e.preventDefault() } else if (autoScroll) { setAutoScroll(false); e.preventDefault() }
        return
      }
      if (isTyping(e.target)) return
      const overlay = helpOpen || settingsOpen
      const onControl = (e.target as HTMLElement | null)?.closest?.('button, a, summary, input')
      let dy = 0
      switch (e.key) {
        case '?': setHelpOpen((o) => !o); e.preventDefault(); return
        case 'n': case 'N': if (!overlay) { e.preventDefault(); goEpisode(1) } return
        case 'p': case 'P': if (!overlay) { e.preventDefault(); goEpisode(-1) } return
        case 'f': case 'F': if (!overlay) { e.preventDefault(); toggleFullscreen() } return
        case '+': case '=': if (!overlay && !paper && !isText) { e.preventDefault(); zoomBy(1) } return
        case '-': case '_': if (!overlay && !paper && !isText) { e.preventDefault(); zoomBy(-1) } return
        case '0': if (!overlay && !paper && !isText) { e.preventDefault(); applyZoom(1) } return
        case 'a': case 'A': if (!overlay && !paper) { e.preventDefault(); setAutoScroll((on) => !on) } return
        case '[': case ']': if (!overlay && !paper) {
          e.preventDefault()
          setSpeed((s) => { const i = AUTO_SCROLL_SPEEDS.indexOf(s as (typeof AUTO_SCROLL_SPEEDS)[number]); return AUTO_SCROLL_SPEEDS[Math.min(AUTO_SCROLL_SPEEDS.length - 1, Math.max(0, i + (e.key === ']' ? 1 : -1)))]! })
        } return
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
  }, [helpOpen, settingsOpen, autoScroll, paper, isText, turn, readingDirection, zoomBy, applyZoom])

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

  // ───────────── offline reading (public/sw.js, scope /viewer/) ─────────────

  const [offlineState, setOfflineState] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle')
  const saveOffline = async () => {
    if (!props.offline || !('serviceWorker' in navigator)) { setOfflineState('failed'); return }
    setOfflineState('saving')
    try {
      await navigator.serviceWorker.register('/sw.js', { scope: '/viewer/' })
      const reg = await navigator.serviceWorker.ready
      const sliceUrls = slices.flatMap((sl) => sl.srcset.split(', ').map((c) => c.split(' ')[0]!))
      const assets = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.startsWith(`${location.origin}/_astro/`))
      const channel = new MessageChannel()
      const answer = new Promise<{ ok: boolean }>((resolve) => { channel.port1.onmessage = (e) => resolve(e.data as { ok: boolean }) })
      reg.active!.postMessage({
        type: 'save', episodeId, page: `/viewer/${episodeId}`, urls: [...sliceUrls, ...new Set(assets)], expiresAt: props.offline.expiresAt,
        expired: { lang: document.documentElement.lang, dir: document.documentElement.dir, title: labels.offlineExpiredTitle, text: labels.offlineExpiredText },
      }, [channel.port2])
      setOfflineState((await answer).ok ? 'saved' : 'failed')
    } catch {
      setOfflineState('failed')
    }
  }

  const stopAuto = async () => {
    const r = await deleteAutoUnlock(props.seriesId)
    if (r.ok) { setAuto(r.data); setAnnouncement(labels.autoDisabled) }
  }

  const indicator = pageIndicator(page, double, slices.length)
  const radio = <T extends string>(name: string, value: T, current: T, label: string, onPick: (v: T) => void) => (
    <label className="viewer-choice">
      <input type="radio" name={name} value={value} checked={current === value} onChange={() => onPick(value)} />
      {label}
    </label>
  )
  // The login link carries the place: the locked episode the guest stopped at.
  const loginHref = tail ? viewerLoginHref(tail.link.id, null) : ''

  return (
    <>
      {withTranscript && <TranscriptToggle on={settings.transcript} onToggle={() => update({ transcript: !settings.transcript })} label={labels.transcript} />}
      <div
        ref={strip}
        className={`viewer-strip${zoom > 1 ? ' is-zoomed' : ''}${withTranscript && settings.transcript ? ' show-transcript' : ''}`}
        {...(withTranscript ? { id: TRANSCRIPT_REGION_ID, role: 'region', 'aria-label': labels.transcriptRegion } : {})}
      >
        {slices.length > 0 && (
          <SliceList
            id="viewer-content"
            listRef={list}
            lead
            slices={slices}
            label={labels.slices}
            sliceFailed={labels.sliceFailed}
            retry={labels.retry}
            shown={paper ? shown : null}
            ahead={ahead}
            className={paper ? `viewer-slices viewer-paper${double ? ' is-double' : ''}` : 'viewer-slices'}
            dir={paper ? readingDirection : undefined}
            onDoubleClick={paper ? undefined : fit}
            transcript={labels}
          />
        )}
        {!paper && chain.map((ep, k) => (
          <section key={ep.id} className="viewer-episode" data-episode={ep.id} aria-labelledby={`viewer-ep-${ep.id}`} ref={(el) => { sections.current[k + 1] = el }}>
            <p className="viewer-end">{labels.end}</p>
            <h2 id={`viewer-ep-${ep.id}`} className="viewer-episode-title">{episodeLabel(ep.title, format(labels.episodeNumber, { no: ep.no }), format(labels.episodeHeading, { no: ep.no, title: ep.title }))}</h2>
            {ep.slices.length > 0 ? (
              <SliceList lead={false} slices={ep.slices} label={labels.slices} sliceFailed={labels.sliceFailed} retry={labels.retry} shown={null} className="viewer-slices" onDoubleClick={fit} transcript={labels} />
            ) : (
              <div className="viewer-text">{ep.text.map((p, i) => <p key={i}>{p}</p>)}</div>
            )}
          </section>
        ))}
      </div>
      <div ref={sentinel} className="viewer-sentinel" aria-hidden="true" />
      {tail && !paper && (
        <NextEpisode
          key={tail.link.id}
          link={tail.link}
          seriesId={props.seriesId}
          status={tail.status}
          userId={userId}
          loginHref={loginHref}
          labels={labels}
          auto={auto}
          onAuto={setAuto}
          onUnlocked={(message) => { if (message) setAnnouncement(message); void fetchNext(tail.link) }}
          onRetry={() => void fetchNext(tail.link)}
          announce={setAnnouncement}
          format={format}
        />
      )}
      {auto?.enabled && (
        <p className="viewer-auto-state">
          {pluralText(labels.autoActive, auto.budget ?? 0, { spent: auto.spent })}{' '}
          <button type="button" className="btn btn-secondary" onClick={() => void stopAuto()}>{labels.autoDisable}</button>
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite">{announcement}</p>
      {ready && props.offline && (
        <p className="viewer-offline">
          <button type="button" className="btn btn-secondary" onClick={() => void saveOffline()} disabled={offlineState === 'saving' || offlineState === 'saved'}>
            {offlineState === 'saved' ? labels.offlineSaved : offlineState === 'saving' ? labels.offlineSaving : labels.offlineSave}
          </button>
          <span role="status">{offlineState === 'saved' ? labels.offlineSaved : offlineState === 'failed' ? labels.offlineFailed : ''}</span>
        </p>
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
      {(!tail || paper) && <p className="viewer-end">{labels.end}</p>}
      <nav className="viewer-nav" aria-label={labels.episodeNav}>
        {last.prev && <a rel="prev" href={`/viewer/${last.prev.id}`}>{labels.prevEpisode}<span className="viewer-nav-title">{last.prev.title}</span></a>}
        {last.next && <a rel="next" href={`/viewer/${last.next.id}`}>{labels.nextEpisode}<span className="viewer-nav-title">{last.next.title}</span></a>}
      </nav>
      {!last.next && props.nextUpdate && <p className="viewer-update">{props.nextUpdate}</p>}
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
          {!paper && (
            <button type="button" className="viewer-tool" aria-pressed={autoScroll} aria-keyshortcuts="a" onClick={() => setAutoScroll((on) => !on)}>
              <Icon name={autoScroll ? 'pause' : 'play'} size={20} />
              <span className="sr-only">{labels.autoScroll}</span>
            </button>
          )}
          <button type="button" className="viewer-tool" aria-keyshortcuts="f" onClick={toggleFullscreen}>
            <Icon name="fullscreen" size={20} />
            <span className="sr-only">{labels.fullscreen}</span>
          </button>
          {autoScroll && (
            <label className="viewer-speed">
              <span className="sr-only">{labels.autoScrollSpeed}</span>
              <input type="range" min={0} max={AUTO_SCROLL_SPEEDS.length - 1} step={1} value={Math.max(0, AUTO_SCROLL_SPEEDS.indexOf(speed as (typeof AUTO_SCROLL_SPEEDS)[number]))}
                aria-valuetext={`${speed} px/s`} onChange={(e) => setSpeed(AUTO_SCROLL_SPEEDS[Number(e.currentTarget.value)]!)} />
            </label>
          )}
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
              {!paper && (
                <p className="viewer-zoom" role="group" aria-label={format(labels.zoomLevel, { percent: Math.round(zoom * 100) })}>
                  <button type="button" className="btn" onClick={() => zoomBy(-1)} disabled={zoom <= 1}>{labels.zoomOut}</button>
                  <span aria-hidden="true">{format(labels.zoomLevel, { percent: Math.round(zoom * 100) })}</span>
                  <button type="button" className="btn" onClick={() => zoomBy(1)} disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!}>{labels.zoomIn}</button>
                </p>
              )}
            </>
          )}
          <button type="button" className="btn" onClick={() => setSettingsOpen(false)}>{labels.close}</button>
        </div>
      )}
      {helpOpen && (
        <div className="viewer-help" role="dialog" aria-modal="true" aria-labelledby="viewer-help-title">
          <h2 id="viewer-help-title">{labels.helpTitle}</h2>
          <dl>
            <dt>{arrowKey('up', labels.keyUp)} {arrowKey('down', labels.keyDown)}</dt><dd>{labels.helpScroll}</dd>
            <dt><kbd>Space</kbd> <kbd>PageDown</kbd> <kbd>PageUp</kbd></dt><dd>{labels.helpPage}</dd>
            <dt>{arrowKey('left', labels.keyLeft)} {arrowKey('right', labels.keyRight)}</dt><dd>{labels.helpTurn}</dd>
            <dt><kbd>n</kbd></dt><dd>{labels.helpNext}</dd>
            <dt><kbd>p</kbd></dt><dd>{labels.helpPrev}</dd>
            <dt><kbd>+</kbd> <kbd>−</kbd></dt><dd>{labels.helpZoom}</dd>
            <dt><kbd>0</kbd></dt><dd>{labels.helpFit}</dd>
            <dt><kbd>a</kbd></dt><dd>{labels.helpAutoScroll}</dd>
            <dt><kbd>[</kbd> <kbd>]</kbd></dt><dd>{labels.helpSpeed}</dd>
            <dt><kbd>f</kbd></dt><dd>{labels.helpFullscreen}</dd>
            <dt><kbd>Esc</kbd></dt><dd>{labels.helpEscape}</dd>
            <dt><kbd>?</kbd></dt><dd>{labels.helpToggle}</dd>
          </dl>
          <button ref={closeButton} type="button" className="btn" onClick={() => setHelpOpen(false)}>{labels.close}</button>
        </div>
      )}
    </>
  )
}
