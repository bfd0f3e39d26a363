/**
 * Auto-scroll in SCROLL mode (spec §2 viewer comfort): `speed` CSS px per second until the end of the page, a
 * key, or the reader's own scroll input (wheel, touch); the speed steps through AUTO_SCROLL_SPEEDS.
 */
import { useCallback, useEffect, useState } from 'react'
import { DEFAULT_AUTO_SCROLL_SPEED, atPageEnd, autoScrollStep, nextSpeed } from './reading.ts'

export function useAutoScroll(paper: boolean) {
  const [autoScroll, setAutoScroll] = useState(false)
  const [speed, setSpeed] = useState<number>(DEFAULT_AUTO_SCROLL_SPEED)

  useEffect(() => {
    if (!autoScroll || paper) return
    let frame = 0
    let before = performance.now()
    let carry = 0
    const step = (t: number) => {
      const s = autoScrollStep(carry, speed, t - before)
      carry = s.carry
      before = t
      if (s.px > 0) scrollBy(0, s.px)
      if (atPageEnd(innerHeight, scrollY, document.documentElement.scrollHeight)) {
        setAutoScroll(false)
        return
      }
      frame = requestAnimationFrame(step)
    }
    frame = requestAnimationFrame(step)
    const stop = () => setAutoScroll(false)
    addEventListener('wheel', stop, { passive: true })
    addEventListener('touchstart', stop, { passive: true })
    return () => {
      cancelAnimationFrame(frame)
      removeEventListener('wheel', stop)
      removeEventListener('touchstart', stop)
    }
  }, [autoScroll, speed, paper])

  const toggleAutoScroll = useCallback(() => setAutoScroll((on) => !on), [])
  const stopAutoScroll = useCallback(() => setAutoScroll(false), [])
  /** One speed slower (-1) or faster (1). */
  const stepSpeed = useCallback((dir: 1 | -1) => setSpeed((s) => nextSpeed(s, dir)), [])

  return { autoScroll, speed, setSpeed, toggleAutoScroll, stopAutoScroll, stepSpeed }
}
