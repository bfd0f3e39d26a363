/**
 * One episode's slices (spec §9 image widths and lazy load): known sizes (no layout shift), the first slice of
 * the page eager with high priority, the rest asked for once within three screens (IntersectionObserver), a
 * visible retry per failed slice. Used for the episode of the page and for each episode continuous reading
 * appends below it.
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState, type Ref } from 'react'
import { LOAD_AHEAD_ROOT_MARGIN, SLICE_SIZES } from './reading.ts'
import { expiredSliceEpisode, getEpisode } from './client.ts'

import type { ViewerSlice } from './viewer.ts'
import { SliceTranscript, type TranscriptLabels } from './Transcript.tsx'

/** A fresh URL for a retried slice (the same object; the query only defeats a cached failure). */
function withRetry(url: string, attempt: number): string {
  return attempt === 0 ? url : `${url}${url.includes('?') ? '&' : '?'}r=${attempt}`
}

function srcsetWithRetry(srcset: string, attempt: number): string {
  if (attempt === 0) return srcset
  return srcset
    .split(', ')
    .map((c) => {
      const [u, w] = c.split(' ')
      return `${withRetry(u!, attempt)} ${w}`
    })
    .join(', ')
}

export type SliceListProps = {
  slices: ViewerSlice[]
  /** The page's own episode: its first slice is the LCP image. */
  lead: boolean
  label: string
  sliceFailed: string
  retry: string
  /** PAPER mode: only these slices are shown (null: the whole strip). */
  shown: number[] | null
  /** Slices to load now whatever their place (PAPER: this page and the next). */
  ahead?: number[]
  className: string
  dir?: 'ltr' | 'rtl' | undefined
  id?: string
  listRef?: Ref<HTMLOListElement>
  /** Double-click/tap on a slice (zoom to fit). */
  onDoubleClick?: () => void
  /** Labels of the slices' transcripts (each slice that has one carries it after its image). */
  transcript: TranscriptLabels
}

export default function SliceList({
  slices,
  lead,
  label,
  sliceFailed,
  retry: retryLabel,
  shown,
  ahead,
  className,
  dir,
  id,
  listRef,
  onDoubleClick,
  transcript,
}: SliceListProps) {
  // fresh signed URLs once the page's have expired (kept with the list they replace)
  const [renewed, setRenewed] = useState<{ of: ViewerSlice[]; slices: ViewerSlice[] } | null>(null)
  const shownSlices = renewed?.of === slices ? renewed.slices : slices
  const renewing = useRef<{ at: number; answer: Promise<ViewerSlice[] | null> } | null>(null)
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set(lead ? [0] : []))
  const [attempts, setAttempts] = useState<Record<number, number>>({})
  const [failed, setFailed] = useState<ReadonlySet<number>>(() => new Set())
  const items = useRef<(HTMLLIElement | null)[]>([])
  const imgs = useRef<(HTMLImageElement | null)[]>([])

  const markFailed = useCallback((i: number) => setFailed((s) => new Set(s).add(i)), [])

  /**
   * A slice that failed: with an expired signed URL, the episode opened again (once a minute at most, whichever
   * slices fail together) for fresh URLs and another try; otherwise, or when that fails, the retry control.
   */
  const failedToLoad = async (i: number) => {
    const episodeId = expiredSliceEpisode(shownSlices[i]!.src)
    if (episodeId === null) return markFailed(i)
    if (!renewing.current || Date.now() - renewing.current.at > 60_000)
      renewing.current = { at: Date.now(), answer: getEpisode(episodeId).then((r) => (r.ok ? r.data.slices : null)) }
    const fresh = await renewing.current.answer
    if (!fresh || fresh.length !== slices.length) return markFailed(i)
    setRenewed({ of: slices, slices: fresh })
    setAttempts((a) => ({ ...a, [i]: (a[i] ?? 0) + 1 }))
  }
  /** A slice that failed before the island ran (the server HTML's image). */
  const failedEarly = useEffectEvent((i: number) => void failedToLoad(i))

  useEffect(() => {
    imgs.current.forEach((img, i) => {
      if (img && img.complete && img.naturalWidth === 0 && img.getAttribute('src')) failedEarly(i)
    })
    if (!('IntersectionObserver' in window)) {
      setNear(new Set(slices.map((_, i) => i)))
      return
    }
    const io = new IntersectionObserver(
      (entries) => {
        const hits = entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.index))
        if (hits.length === 0) return
        for (const e of entries) if (e.isIntersecting) io.unobserve(e.target)
        setNear((s) => {
          const next = new Set(s)
          hits.forEach((h) => next.add(h))
          return next
        })
      },
      { rootMargin: LOAD_AHEAD_ROOT_MARGIN },
    )
    items.current.forEach((el) => el && io.observe(el))
    return () => io.disconnect()
  }, [slices])

  // PAPER mode: the slices of this page and the next load now (keyed by their indexes, not the array's identity)
  const aheadKey = ahead?.join(',') ?? ''
  useEffect(() => {
    if (aheadKey === '') return
    setNear((s) => {
      const next = new Set(s)
      aheadKey.split(',').forEach((i) => next.add(Number(i)))
      return next
    })
  }, [aheadKey])

  const retry = (i: number) => {
    setAttempts((a) => ({ ...a, [i]: (a[i] ?? 0) + 1 }))
    setFailed((s) => {
      const next = new Set(s)
      next.delete(i)
      return next
    })
    setNear((s) => new Set(s).add(i))
  }

  return (
    <ol id={id} ref={listRef} className={className} dir={dir} aria-label={label} onDoubleClick={onDoubleClick}>
      {shownSlices.map((s, i) => {
        const attempt = attempts[i] ?? 0
        const first = lead && i === 0
        return (
          <li
            key={`${s.n}-${attempt}`}
            className="viewer-slice"
            data-index={i}
            hidden={shown !== null && !shown.includes(i)}
            ref={(el) => {
              items.current[i] = el
            }}
          >
            <img
              ref={(el) => {
                imgs.current[i] = el
              }}
              src={withRetry(s.src, attempt)}
              srcSet={srcsetWithRetry(s.srcset, attempt)}
              sizes={SLICE_SIZES}
              width={s.width}
              height={s.height}
              alt={s.alt}
              loading={first || near.has(i) ? 'eager' : 'lazy'}
              fetchPriority={first ? 'high' : lead ? 'low' : 'auto'}
              decoding={first ? 'auto' : 'async'}
              draggable={false}
              onError={() => void failedToLoad(i)}
            />
            {s.transcript && <SliceTranscript alt={s.alt} lines={s.transcript} labels={transcript} />}
            {failed.has(i) && (
              <div className="viewer-retry" role="alert">
                <p>{sliceFailed}</p>
                <button type="button" className="btn" onClick={() => retry(i)}>
                  {retryLabel}
                </button>
              </div>
            )}
          </li>
        )
      })}
    </ol>
  )
}
