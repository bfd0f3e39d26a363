/**
 * Reading progress (spec §2 viewer): the saved place restored once — the server's progress, or `?p=` after a
 * login — then, for a signed-in reader, saved per episode as a reader expects and no more often
 * (docs/API.md "Reading progress"): when the end is reached, when continuous reading moves on to the next
 * episode (the one left, once), when the page is hidden or left (a beacon), and otherwise at most every
 * PROGRESS_INTERVAL_MS while reading — each time only when the place moved since the last save.
 */
import { useEffect, useRef } from 'react'
import {
  pageOfPosition,
  pagePosition,
  pageSlices,
  positionParam,
  progressSaveDelay,
  progressUnchanged,
  scrollOffset,
  scrollPosition,
} from './reading.ts'
import { postProgress } from './client.ts'

type Options = {
  /** The page's own episode, and its saved position (0..1) or null. */
  episodeId: number
  progress: number | null
  signedIn: boolean
  /** Settings known: the mode is final (SCROLL restores only then). */
  loaded: boolean
  paper: boolean
  /** PAPER: the page on screen, the layout, the slice count, and the way to show a slice's page. */
  page: number
  double: boolean
  count: number
  setSlice: (slice: number) => void
  /** SCROLL: the episodes on the page, the index of the one on screen, and the element holding each. */
  episodes: readonly { id: number }[]
  current: number
  sectionOf: (i: number) => HTMLElement | null
}

type Place = { episodeId: number; position: number }

export function useProgress({
  episodeId,
  progress,
  signedIn,
  loaded,
  paper,
  page,
  double,
  count,
  setSlice,
  episodes,
  current,
  sectionOf,
}: Options) {
  /** The place was restored (once per page view, whichever mode comes first). */
  const restored = useRef(false)
  /** The last place sent per episode (the page's own: its saved progress, -1 for none), and when (first: the opening). */
  const sent = useRef<Map<number, number> | null>(null)
  sent.current ??= new Map([[episodeId, progress ?? -1]])
  const lastAt = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  /** Where the reader is: PAPER the page; SCROLL in episode `i` of the page (default: the one on screen). */
  const place = (i = current): Place | null => {
    if (paper) return { episodeId, position: pagePosition(page, count, double) }
    const k = Math.min(i, episodes.length - 1)
    const el = sectionOf(k)
    if (!el) return null
    const rect = el.getBoundingClientRect()
    return { episodeId: episodes[k]!.id, position: scrollPosition(scrollY, rect.top + scrollY, rect.height, innerHeight) }
  }
  /** The latest `place` for listeners and timers that outlive a render. */
  const placeRef = useRef(place)
  placeRef.current = place

  /** Sends `at` when it moved since the last save of its episode (`leaving`: as a beacon). */
  const flush = (at: Place | null, leaving = false) => {
    if (!at || progressUnchanged(sent.current!.get(at.episodeId), at.position)) return
    if (timer.current !== null) clearTimeout(timer.current)
    timer.current = null
    sent.current!.set(at.episodeId, at.position)
    lastAt.current = Date.now()
    postProgress(at.episodeId, at.position, leaving)
  }
  /** The place may have moved: saved at once (the end), when the interval is over, or not at all (not moved). */
  const check = () => {
    const at = placeRef.current()
    if (!at) return
    const wait = progressSaveDelay(sent.current!.get(at.episodeId), at.position, lastAt.current, Date.now())
    if (wait === 0) flush(at)
    else if (wait !== null && timer.current === null)
      timer.current = setTimeout(() => {
        timer.current = null
        check()
      }, wait)
  }
  const checkRef = useRef(check)
  checkRef.current = check
  const flushRef = useRef(flush)
  flushRef.current = flush

  // Signed in: the interval counts from the opening; leaving the page (hidden, or gone) sends the place as a beacon.
  useEffect(() => {
    if (!signedIn) return
    lastAt.current = Date.now()
    const leave = () => flushRef.current(placeRef.current(), true)
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leave()
    }
    document.addEventListener('visibilitychange', onVisibility)
    addEventListener('pagehide', leave)
    return () => {
      document.removeEventListener('visibilitychange', onVisibility)
      removeEventListener('pagehide', leave)
      if (timer.current !== null) clearTimeout(timer.current)
      timer.current = null
    }
  }, [signedIn])

  // PAPER mode: the saved page restored once, then each turn may save.
  useEffect(() => {
    if (!paper) return
    if (!restored.current) {
      restored.current = true
      const start = positionParam(location.search) ?? progress
      if (start !== null && start > 0) setSlice(pageSlices(pageOfPosition(start, count, double), double, count)[0] ?? 0)
      return
    }
    if (signedIn) checkRef.current()
  }, [paper, page, double, progress, signedIn, count, setSlice])

  // SCROLL mode: restored once (server progress, or `?p=` after a login), then each scroll may save.
  useEffect(() => {
    if (!loaded || paper) return
    if (!restored.current) {
      restored.current = true
      const fromUrl = positionParam(location.search)
      if (fromUrl !== null) history.replaceState(history.state, '', location.pathname)
      const start = fromUrl ?? progress
      const content = document.getElementById('viewer-content')
      if (content && start !== null && start > 0 && start < 1) {
        const rect = content.getBoundingClientRect()
        scrollTo(0, scrollOffset(start, rect.top + scrollY, rect.height, innerHeight))
      }
    }
    if (!signedIn) return
    let frame = 0
    const onScroll = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0
          checkRef.current()
        })
    }
    addEventListener('scroll', onScroll, { passive: true })
    return () => {
      removeEventListener('scroll', onScroll)
      cancelAnimationFrame(frame)
    }
  }, [progress, signedIn, loaded, paper])

  // Continuous reading: moving on into the next episode saves the final place of the one left (once: not if unchanged).
  const shown = useRef(current)
  useEffect(() => {
    const left = shown.current
    shown.current = current
    if (signedIn && !paper && current > left) flushRef.current(placeRef.current(left))
  }, [current, signedIn, paper])
}
