/**
 * Zoom of the strip in SCROLL mode (spec §2 viewer comfort): + / − through ZOOM_STEPS keeping the middle of
 * the screen in place, double-tap to fit (or a closer look when fitted), pinch with two fingers. The level is
 * the strip's `--viewer-zoom` CSS variable.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { pinchZoom, zoomAnchor, zoomStep } from './reading.ts'

/** `paper`: PAPER mode (no pinch); `ready`: the island has run (the level is set on the strip again). */
export function useZoom(paper: boolean, ready: boolean) {
  const [zoom, setZoom] = useState(1)
  /** The level now, for handlers between renders. */
  const zoomNow = useRef(1)
  /** The element zoomed and pinched. */
  const strip = useRef<HTMLDivElement | null>(null)

  /** To level `next`, the point at the middle of the screen kept where it is. */
  const applyZoom = useCallback((next: number) => {
    const z = zoomNow.current
    if (next === z) return
    zoomNow.current = next
    const mid = scrollY + innerHeight / 2
    setZoom(next)
    requestAnimationFrame(() => scrollTo(scrollX, zoomAnchor(mid, z, next, innerHeight)))
  }, [])
  const zoomBy = useCallback((dir: 1 | -1) => applyZoom(zoomStep(zoomNow.current, dir)), [applyZoom])
  /** Double-tap: back to fitting the width, or a closer look when already fitted. */
  const fit = useCallback(() => applyZoom(zoomNow.current === 1 ? 2 : 1), [applyZoom])

  // Pinch on the strip (two pointers): the zoom follows the distance between the fingers.
  useEffect(() => {
    const el = strip.current
    if (!el || paper) return
    const pointers = new Map<number, { x: number; y: number }>()
    let start: { dist: number; zoom: number } | null = null
    const dist = () => {
      const [a, b] = [...pointers.values()]
      return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0
    }
    const down = (e: PointerEvent) => {
      if (e.pointerType !== 'touch') return
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY })
      if (pointers.size === 2) start = { dist: dist(), zoom: zoomNow.current }
    }
    const move = (e: PointerEvent) => {
      if (!pointers.has(e.pointerId)) return
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY })
      if (start && start.dist > 0) {
        const next = pinchZoom(start.zoom, start.dist, dist())
        zoomNow.current = next
        setZoom(next)
      }
    }
    const up = (e: PointerEvent) => {
      pointers.delete(e.pointerId)
      if (pointers.size < 2) start = null
    }
    el.addEventListener('pointerdown', down)
    el.addEventListener('pointermove', move)
    el.addEventListener('pointerup', up)
    el.addEventListener('pointercancel', up)
    return () => {
      el.removeEventListener('pointerdown', down)
      el.removeEventListener('pointermove', move)
      el.removeEventListener('pointerup', up)
      el.removeEventListener('pointercancel', up)
    }
  }, [paper])

  useEffect(() => {
    strip.current?.style.setProperty('--viewer-zoom', String(zoom))
  }, [zoom, ready])

  return { zoom, strip, applyZoom, zoomBy, fit }
}
