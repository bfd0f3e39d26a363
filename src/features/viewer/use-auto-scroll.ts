/**
 * Auto-scroll in SCROLL mode (spec §2 viewer comfort): `speed` CSS px per second until the end of the page, a
 * key, or the reader's own scroll input (wheel, touch); the speed steps through AUTO_SCROLL_SPEEDS. It starts only
 * when the reader presses play. A reader who asks for reduced motion (issue 19 point 4) gets no glide: the page
 * jumps a screen at a time at the same pace (`reducedAutoScrollJump`).
 */
import { useCallback, useEffect, useState } from 'react'
import { DEFAULT_AUTO_SCROLL_SPEED, atPageEnd, autoScrollStep, nextSpeed, reducedAutoScrollJump } from './reading.ts'

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)'

export function useAutoScroll(paper: boolean) {
  const [autoScroll, setAutoScroll] = useState(false)
  const [speed, setSpeed] = useState<number>(DEFAULT_AUTO_SCROLL_SPEED)
  const [reduced, setReduced] = useState(false)

  // The system setting, followed while the page is open.
  useEffect(() => {
    const mq = matchMedia(REDUCED_MOTION)
    setReduced(mq.matches)
    const onChange = () => setReduced(mq.matches)
    mq.addEventListener('change', onChange)
    return () => mq.removeEventListener('change', onChange)
  }, [])

  useEffect(() => {
    if (!autoScroll || paper) return
    const atEnd = () => atPageEnd(innerHeight, scrollY, document.documentElement.scrollHeight)
    let frame = 0
    let timer = 0
    if (reduced) {
      const jump = () => {
        const { px, everyMs } = reducedAutoScrollJump(innerHeight, speed)
        timer = window.setTimeout(() => {
          scrollBy({ top: px, behavior: 'instant' })
          if (atEnd()) setAutoScroll(false)
          else jump()
        }, everyMs)
      }
      jump()
    } else {
      let before = performance.now()
      let carry = 0
      const step = (t: number) => {
        const s = autoScrollStep(carry, speed, t - before)
        carry = s.carry
        before = t
        if (s.px > 0) scrollBy(0, s.px)
        if (atEnd()) {
          setAutoScroll(false)
          return
        }
        frame = requestAnimationFrame(step)
      }
      frame = requestAnimationFrame(step)
    }
    const stop = () => setAutoScroll(false)
    addEventListener('wheel', stop, { passive: true })
    addEventListener('touchstart', stop, { passive: true })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
      removeEventListener('wheel', stop)
      removeEventListener('touchstart', stop)
    }
  }, [autoScroll, speed, paper, reduced])

  const toggleAutoScroll = useCallback(() => setAutoScroll((on) => !on), [])
  const stopAutoScroll = useCallback(() => setAutoScroll(false), [])
  /** One speed slower (-1) or faster (1). */
  const stepSpeed = useCallback((dir: 1 | -1) => setSpeed((s) => nextSpeed(s, dir)), [])

  return { autoScroll, speed, setSpeed, toggleAutoScroll, stopAutoScroll, stepSpeed }
}
