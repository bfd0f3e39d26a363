/**
 * Immersive reading (issue 25 point 1; the rule: immersive.ts): scrolling down hides the chrome — the viewer's
 * one compact bar (ViewerBar.tsx), which stands in for the site header, the bottom bar and scroll-to-top while
 * the island runs (`html[data-immersive]`, styled by the viewer page) — and scrolling up, a tap on the episode
 * (`toggle`) or focus moving into the bar brings it back. When it comes back, a primary action on screen
 * (`[data-primary]`: the locked episode's "rent or buy", the end-of-episode navigation) that the bar would
 * cover is scrolled clear of it.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { chromeAfterScroll } from './immersive.ts'

const CHROME = '.viewer-bar'
/** The bars' slide (the viewer page's CSS transition), and a little more. */
const SLIDE_MS = 250

/** The fixed or sticky chrome's edges on screen: the bottom of what sits at the top, the top of what sits below. */
function chromeEdges(): { top: number; bottom: number } {
  let top = 0
  let bottom = innerHeight
  for (const el of document.querySelectorAll<HTMLElement>(CHROME)) {
    const r = el.getBoundingClientRect()
    if (r.height === 0 || r.width === 0) continue
    if (r.bottom < innerHeight / 2) top = Math.max(top, r.bottom)
    else if (r.top > innerHeight / 2) bottom = Math.min(bottom, r.top)
  }
  return { top, bottom }
}

export function useChrome() {
  const [hidden, setHidden] = useState(false)
  /** A scroll the viewer made itself (keeping an action clear): not the reader's, so it hides nothing. */
  const ownScroll = useRef(false)
  /** The move of a primary action clear of the bars that just came back (cancelled by a scroll of the viewer's own). */
  const clear = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  useEffect(() => {
    document.documentElement.toggleAttribute('data-immersive', hidden)
    if (hidden) return
    // Shown again: a primary action under a bar is moved clear of it (once the bars have slid back in).
    clear.current = setTimeout(() => {
      const { top, bottom } = chromeEdges()
      for (const el of document.querySelectorAll<HTMLElement>('[data-primary]')) {
        const r = el.getBoundingClientRect()
        if (r.height === 0 || r.bottom < 0 || r.top > innerHeight) continue
        const dy = r.bottom > bottom ? r.bottom - bottom + 12 : r.top < top ? r.top - top - 12 : 0
        if (dy) {
          ownScroll.current = true
          scrollBy({ top: dy, behavior: 'instant' })
        }
        return
      }
    }, SLIDE_MS)
    return () => clearTimeout(clear.current)
  }, [hidden])
  useEffect(
    () => () => {
      document.documentElement.removeAttribute('data-immersive')
    },
    [],
  )

  useEffect(() => {
    let lastY = scrollY
    let frame = 0
    const onScroll = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const y = scrollY
        if (ownScroll.current) ownScroll.current = false
        else setHidden((h) => chromeAfterScroll(h, lastY, y))
        lastY = y
      })
    }
    // Keyboard users reaching the chrome see it.
    const onFocus = (e: FocusEvent) => {
      if ((e.target as HTMLElement | null)?.closest?.(CHROME)) setHidden(false)
    }
    addEventListener('scroll', onScroll, { passive: true })
    document.addEventListener('focusin', onFocus)
    return () => {
      removeEventListener('scroll', onScroll)
      document.removeEventListener('focusin', onFocus)
      cancelAnimationFrame(frame)
    }
  }, [])

  const toggle = useCallback(() => setHidden((h) => !h), [])
  return {
    hidden,
    toggle,
    show: useCallback(() => setHidden(false), []),
    /**
     * The viewer put something on screen itself (a PAPER page): what the bars coming back would have moved stays
     * where it is, and the scroll it made (`scrolled`) hides or shows nothing.
     */
    own: useCallback((scrolled: boolean) => {
      ownScroll.current ||= scrolled
      clearTimeout(clear.current)
    }, []),
  }
}
