/**
 * PAPER mode (spec §2 viewer modes): the page on screen, single or double, and turning it. The place is kept
 * as the first slice on the page, so switching single/double keeps the reader where they were. `list` is the
 * page list's element.
 */
import { useCallback, useRef, useState } from 'react'
import { pageIndicator, pageOfSlice, pageSlices, turnPage } from './reading.ts'

/** `count` slices; `paper`: PAPER mode applies; `double`: two pages side by side. */
export function usePages(count: number, paper: boolean, double: boolean) {
  /** The first slice on the current page. */
  const [slice, setSlice] = useState(0)
  /** The episode's slice list (the page scrolls back to its top after a turn). */
  const list = useRef<HTMLOListElement | null>(null)
  const page = pageOfSlice(slice, double)
  /** The slices on screen, and those to load now: this page's and the next one's. */
  const shown = paper ? pageSlices(page, double, count) : []
  const ahead = paper ? [...shown, ...pageSlices(turnPage(page, 1, count, double), double, count)] : []
  const lastPage = turnPage(page, 1, count, double) === page
  const indicator = pageIndicator(page, double, count)

  /**
   * `step` pages forward (negative: back), within the episode (the viewer puts the page on screen: Viewer.tsx `turn`);
   * answers whether the page changes (it is on screen once React has rendered it).
   */
  const turn = useCallback(
    (step: number) => {
      const next = turnPage(page, step, count, double)
      if (next !== page) setSlice(pageSlices(next, double, count)[0] ?? 0)
      return next !== page
    },
    [page, double, count],
  )

  return { page, shown, ahead, lastPage, indicator, turn, setSlice, list }
}
