/**
 * Reading progress (spec §2 viewer): the saved place restored once — the server's progress, or `?p=` after a
 * login — then, for a signed-in reader, saved per episode: in PAPER mode a moment after each turn, in SCROLL
 * mode at most every PROGRESS_THROTTLE_MS while scrolling, and once more when the page is hidden or left.
 */
import { useEffect, useRef } from 'react'
import {
  PROGRESS_THROTTLE_MS,
  pageOfPosition,
  pagePosition,
  pageSlices,
  positionParam,
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

/** PAPER saves this long after the last turn. */
const PAGE_SAVE_DELAY_MS = 1000

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

  // PAPER mode: the saved page restored once, then saved a moment after each turn.
  useEffect(() => {
    if (!paper) return
    if (!restored.current) {
      restored.current = true
      const start = positionParam(location.search) ?? progress
      if (start !== null && start > 0) setSlice(pageSlices(pageOfPosition(start, count, double), double, count)[0] ?? 0)
      return
    }
    if (!signedIn) return
    const timer = setTimeout(() => postProgress(episodeId, pagePosition(page, count, double)), PAGE_SAVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [paper, page, double, episodeId, progress, signedIn, count, setSlice])

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
      const content = document.getElementById('viewer-content')
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
      if (!at || progressUnchanged(sent.get(at.episodeId), at.position)) return
      sent.set(at.episodeId, at.position)
      postProgress(at.episodeId, at.position)
    }
    const onScroll = () => {
      if (timer === null) timer = setTimeout(save, PROGRESS_THROTTLE_MS)
    }
    const flush = () => {
      if (document.visibilityState === 'hidden') {
        if (timer !== null) clearTimeout(timer)
        save()
      }
    }
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
}
