/**
 * Continuous reading in SCROLL mode (spec §1, §2 viewer "binge reading"): before the reader reaches the end,
 * the next episode is fetched through the API and appended below (its first slices load ahead), the URL and
 * the title follow the episode on screen (replaceState), and a locked next episode is offered — or unlocked
 * automatically when the reader opted in for the series.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { currentSection, type AutoUnlockState } from './continuous.ts'
import { deleteAutoUnlock, getAutoUnlock, getEpisode, type EpisodeData } from './client.ts'
import type { EpisodeLink } from './viewer.ts'
import type { NextStatus } from './NextEpisode.tsx'

/** An episode on the page: the page's own, or an appended one. */
export type EpisodeHead = {
  id: number
  no: number
  title: string
  prev: EpisodeLink | null
  next: EpisodeLink | null
  nextOpen: boolean
  likes: number
  liked: boolean
}

/** The next episode being fetched, or stopped (locked, adult only, failed). */
type Tail = { link: EpisodeLink; status: NextStatus } | null

type Options = {
  /** The page's own episode. */
  first: EpisodeHead
  seriesId: number
  signedIn: boolean
  /** PAPER mode: nothing is appended (the page's own episode only). */
  paper: boolean
  /** The island has run. */
  ready: boolean
  /** Live-region announcement. */
  announce: (message: string) => void
}

export function useContinuous({ first, seriesId, signedIn, paper, ready, announce }: Options) {
  /** The episodes appended below the page's own, and the next one being fetched or locked. */
  const [chain, setChain] = useState<EpisodeData[]>([])
  const [tail, setTail] = useState<Tail>(null)
  const [auto, setAuto] = useState<AutoUnlockState | null>(null)
  /** Index of the episode on screen: 0 the page's, then the appended ones. */
  const [current, setCurrent] = useState(0)
  /** The appended episodes' sections (index 0, the page's own, is `#viewer-content`). */
  const sections = useRef<(HTMLElement | null)[]>([])
  /** Below the strip: coming within three screens of it fetches the next episode. */
  const sentinel = useRef<HTMLDivElement | null>(null)

  /** The episodes on the page, in order: the page's own, then the appended ones. */
  const episodes = [first, ...chain]
  /** The last episode on the page (PAPER shows the page's own only). */
  const last = paper ? first : episodes[episodes.length - 1]!
  const onScreen = episodes[Math.min(current, episodes.length - 1)]!

  /**
   * Episodes, the next one's block and the opt-in's state go in above what follows the strip: a focused control
   * there (the episode links) keeps its place on screen; with none focused, the end of the chain's space does while
   * what follows it (the comments, the picks) is on screen, so a reader at the bottom of the page (the End key, even
   * pressed while the page was still coming in) keeps seeing it as episodes join above. `hold` notes where it is
   * before each change of `chain`, `tail` or `auto`; the layout effect puts it back before the change is painted.
   */
  const keep = useRef<{ el: HTMLElement; edge: 'top' | 'bottom'; at: number } | null>(null)
  const hold = () => {
    if (keep.current) return
    const focused = document.activeElement
    const control = focused instanceof HTMLElement && focused !== document.body && !focused.closest('.viewer-strip') ? focused : null
    // with no control focused, the end of the chain's box (the sentinel's parent), above the comments and the picks
    const el = control ?? sentinel.current?.parentElement
    if (!el) return
    const edge = control ? 'top' : 'bottom'
    const at = el.getBoundingClientRect()[edge]
    if (at >= 0 && at < innerHeight) keep.current = { el, edge, at }
  }
  /** An episode unlocked from its block, whose heading takes the focus once it is on the page. */
  const focusNext = useRef<number | null>(null)
  useLayoutEffect(() => {
    const kept = keep.current
    keep.current = null
    if (kept?.el.isConnected) {
      const dy = kept.el.getBoundingClientRect()[kept.edge] - kept.at
      if (dy) scrollBy({ top: dy, behavior: 'instant' })
    }
    const heading = focusNext.current === null ? null : document.getElementById(`viewer-ep-${focusNext.current}`)
    if (heading) {
      focusNext.current = null
      heading.focus()
    }
  }, [chain.length, tail, auto])

  /** The opt-in changed (read, confirmed, stopped): its state shows above the episode links. */
  const changeAuto = useCallback((state: AutoUnlockState) => {
    hold()
    setAuto(state)
  }, [])

  /**
   * Fetches `link` onto the page. `focus`: it was unlocked from its block (the dialog's confirmation, the retry),
   * whose controls go with it: its heading takes the focus, so a keyboard or screen-reader user goes on reading.
   */
  const fetchNext = useCallback(async (link: EpisodeLink, focus = false) => {
    hold()
    setTail({ link, status: 'loading' })
    const res = await getEpisode(link.id)
    if (res.ok) {
      hold()
      if (focus) focusNext.current = res.data.id
      setChain((c) => (c.some((e) => e.id === res.data.id) ? c : [...c, res.data]))
      setTail(null)
      return
    }
    if (res.code === 'NOT_FOUND_ACCESS_TOKEN') return // the API client signs out
    hold()
    // ADULT_ONLY_CONTENTS: the API client asked for the age popup
    setTail({ link, status: res.code === 'ADULT_ONLY_CONTENTS' ? 'adult' : res.code === 'UNAUTHORIZED_CONTENTS' ? 'locked' : 'error' })
  }, [])

  // The episode after the page's own is fetched as soon as the island runs (its data is small; its slices load
  // once within three screens), the ones after it when the end of the chain comes within three screens.
  useEffect(() => {
    if (paper || !ready || tail !== null || !last.next) return
    const next = last.next
    // a next episode the server said is locked for this reader is offered, not fetched only to be refused
    const open = last.nextOpen
    const reach = () => {
      if (open) return void fetchNext(next)
      hold()
      setTail({ link: next, status: 'locked' })
    }
    if (chain.length === 0) {
      reach()
      return
    }
    if (!sentinel.current || !('IntersectionObserver' in window)) return
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect()
          reach()
        }
      },
      { rootMargin: '300% 0px' },
    )
    io.observe(sentinel.current)
    return () => io.disconnect()
  }, [paper, ready, tail, last.next, last.nextOpen, chain.length, fetchNext])

  // A signed-in reader at a locked next episode: their opt-in for the series, read once. It is the request made
  // there, so a session ended elsewhere shows here: NOT_FOUND_ACCESS_TOKEN signs out (the API client), and so does
  // NOT_LOGIN_USER (the page was signed in; another request, e.g. a progress save, already cleared the cookie).
  useEffect(() => {
    if (!signedIn || tail?.status !== 'locked' || auto !== null) return
    void getAutoUnlock(seriesId).then((r) => {
      if (r.ok) changeAuto(r.data)
      else if (r.code === 'NOT_LOGIN_USER') void import('../session/sign-out.ts').then((m) => m.signOut())
    })
  }, [signedIn, tail?.status, auto, seriesId, changeAuto])

  // The episode on screen follows the scroll.
  useEffect(() => {
    if (paper || chain.length === 0) return
    let frame = 0
    const onScroll = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const tops = sections.current
          .slice(0, chain.length + 1)
          .map((el, i) => (i === 0 ? -Infinity : (el?.getBoundingClientRect().top ?? Infinity)))
        setCurrent(currentSection(tops, innerHeight))
      })
    }
    addEventListener('scroll', onScroll, { passive: true })
    onScroll()
    return () => {
      removeEventListener('scroll', onScroll)
      cancelAnimationFrame(frame)
    }
  }, [paper, chain.length])

  // The URL and the title follow the episode on screen.
  const shownTitle = useRef(first.title)
  useEffect(() => {
    if (onScreen.id === first.id && shownTitle.current === first.title) return
    const target = `/viewer/${onScreen.id}`
    if (location.pathname !== target) history.replaceState(history.state, '', target)
    document.title = document.title.replace(shownTitle.current, onScreen.title)
    shownTitle.current = onScreen.title
  }, [onScreen.id, onScreen.title, first.id, first.title])

  /** The element holding episode `i` on the page (its slices, or its paragraphs). */
  const sectionOf = (i: number): HTMLElement | null => (i === 0 ? document.getElementById('viewer-content') : (sections.current[i] ?? null))

  /** n / p: the neighbour on the page when it is there (continuous reading), else its own page. */
  const goEpisode = (dir: 1 | -1) => {
    const i = Math.min(current, episodes.length - 1)
    const target = dir === 1 ? episodes[i]!.next : episodes[i]!.prev
    if (!target) return
    const j = episodes.findIndex((e) => e.id === target.id)
    const el = j >= 0 ? sectionOf(j) : null
    if (el && !paper) el.scrollIntoView({ block: 'start' })
    else location.assign(`/viewer/${target.id}`)
  }

  /** The reader stops automatic unlocks for the series; `message` is announced once the server agrees. */
  const stopAuto = async (message: string) => {
    const r = await deleteAutoUnlock(seriesId)
    if (r.ok) {
      changeAuto(r.data)
      announce(message)
    }
  }

  return { chain, tail, auto, changeAuto, current, episodes, last, sections, sentinel, sectionOf, fetchNext, goEpisode, stopAuto }
}
