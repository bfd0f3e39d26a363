/**
 * The viewer's one compact bar (issue 25 point 1), at the top of the screen once the island runs: it replaces
 * the site header and the bottom navigation (the viewer page's CSS hides them while the bar exists, so a page
 * without JavaScript keeps them), and it is the chrome that hides when the reader scrolls down (use-chrome.ts).
 *
 * In reading order: back to the series; the series and the episode on screen; the previous and next episode and
 * its comments (all following the episode being read in continuous reading); then the tools — the key help
 * (only where there is a keyboard: CSS), reading settings, auto-scroll with its speed, fullscreen — and Share
 * (issue 19 point 3: the episode on screen, by its canonical URL), at the end edge where readers look for it.
 * Every control is a 44×44 px target; arrows mirror in right-to-left editions. On a phone (≤ 480 px) the
 * previous-episode arrow leaves the bar to Share, and the key help and fullscreen leave it too, so the episode
 * title keeps its room on one line (the ? key still opens the help).
 */
import type { MouseEvent } from 'react'
import { Icon } from '../../components/Icon.tsx'
import type { IslandIconName } from '../../components/island-icons.ts'
import { episodeLabel } from '../../lib/i18n/episode-label.ts'
import { AUTO_SCROLL_SPEEDS, speedIndex } from './reading.ts'
import type { EpisodeHead } from './use-continuous.ts'
import { toggleFullscreen } from './use-keys.ts'

export type BarLabels = {
  backToSeries: string
  prevEpisode: string
  nextEpisode: string
  comments: string
  helpOpen: string
  settingsOpen: string
  autoScroll: string
  autoScrollSpeed: string
  fullscreen: string
  share: string
  /** "Épisode {no} : {title}" */
  episodeHeading: string
  /** "Épisode {no}" */
  episodeNumber: string
}

type Props = {
  seriesId: number
  seriesTitle: string
  /** The episode on screen. */
  episode: EpisodeHead
  labels: BarLabels
  format: (template: string, values: Record<string, string | number>) => string
  /** The previous (-1) or next (1) episode: scrolled to when it is on the page, else opened. */
  goEpisode: (dir: 1 | -1) => void
  /** The single-character shortcuts are on (announced with aria-keyshortcuts). */
  shortcuts: boolean
  helpOpen: boolean
  openHelp: () => void
  settingsOpen: boolean
  openSettings: () => void
  /** PAPER: no auto-scroll. */
  paper: boolean
  autoScroll: boolean
  toggleAutoScroll: () => void
  speed: number
  setSpeed: (speed: number) => void
  /** Shares the episode on screen (its canonical URL; share.client.ts). */
  share: () => void
}

/** An icon that points along the line (arrows): mirrored in right-to-left editions by CSS. */
const arrow = (name: IslandIconName) => (
  <span className="viewer-flip">
    <Icon name={name} size={22} />
  </span>
)

export default function ViewerBar(p: Props) {
  const { episode, labels } = p
  const step = (dir: 1 | -1) => (e: MouseEvent) => {
    e.preventDefault()
    p.goEpisode(dir)
  }
  const neighbour = (dir: 1 | -1) => {
    const target = dir === 1 ? episode.next : episode.prev
    const icon = dir === 1 ? 'next' : 'previous'
    // The previous episode gives its place to Share on a phone (the CSS; scrolling up reads it in continuous reading).
    const kind = dir === 1 ? 'viewer-tool viewer-tool-next' : 'viewer-tool viewer-tool-prev'
    // Kept in place when there is none, so the bar does not shift while reading on.
    if (!target)
      return (
        <span className={`${kind} viewer-tool-off`} aria-hidden="true">
          {arrow(icon)}
        </span>
      )
    return (
      <a className={kind} href={`/viewer/${target.id}`} onClick={step(dir)}>
        {arrow(icon)}
        <span className="sr-only">{dir === 1 ? labels.nextEpisode : labels.prevEpisode}</span>
      </a>
    )
  }
  return (
    <div className={`viewer-bar${p.autoScroll ? ' is-auto' : ''}`}>
      <a className="viewer-tool viewer-bar-back" href={`/detail/${p.seriesId}`}>
        {arrow('left')}
        <span className="sr-only">{labels.backToSeries}</span>
      </a>
      <p className="viewer-bar-title">
        <span className="viewer-bar-series">{p.seriesTitle}</span>
        <span className="viewer-bar-episode">
          {episodeLabel(
            episode.title,
            p.format(labels.episodeNumber, { no: episode.no }),
            p.format(labels.episodeHeading, { no: episode.no, title: episode.title }),
          )}
        </span>
      </p>
      {p.autoScroll && (
        <label className="viewer-speed">
          <span className="sr-only">{labels.autoScrollSpeed}</span>
          <input
            type="range"
            min={0}
            max={AUTO_SCROLL_SPEEDS.length - 1}
            step={1}
            value={speedIndex(p.speed)}
            aria-valuetext={`${p.speed} px/s`}
            onChange={(e) => p.setSpeed(AUTO_SCROLL_SPEEDS[Number(e.currentTarget.value)]!)}
          />
        </label>
      )}
      {neighbour(-1)}
      {neighbour(1)}
      <a className="viewer-tool" href={`/comment?contentsId=${p.seriesId}&episodeId=${episode.id}`}>
        <Icon name="comment" size={22} />
        <span className="sr-only">{labels.comments}</span>
      </a>
      <button
        type="button"
        className="viewer-tool viewer-tool-keys"
        aria-haspopup="dialog"
        aria-expanded={p.helpOpen}
        aria-keyshortcuts={p.shortcuts ? '?' : undefined}
        onClick={p.openHelp}
      >
        <span aria-hidden="true">?</span>
        <span className="sr-only">{labels.helpOpen}</span>
      </button>
      {/* no aria-controls: beside aria-haspopup axe cannot tell the popup it names and asks for a review (pa11y: an error) */}
      <button type="button" className="viewer-tool" aria-haspopup="dialog" aria-expanded={p.settingsOpen} onClick={p.openSettings}>
        <span aria-hidden="true">Aa</span>
        <span className="sr-only">{labels.settingsOpen}</span>
      </button>
      {!p.paper && (
        <button
          type="button"
          className="viewer-tool"
          aria-pressed={p.autoScroll}
          aria-keyshortcuts={p.shortcuts ? 'a' : undefined}
          onClick={p.toggleAutoScroll}
        >
          <Icon name={p.autoScroll ? 'pause' : 'play'} size={22} />
          <span className="sr-only">{labels.autoScroll}</span>
        </button>
      )}
      <button
        type="button"
        className="viewer-tool viewer-tool-fullscreen"
        aria-keyshortcuts={p.shortcuts ? 'f' : undefined}
        onClick={toggleFullscreen}
      >
        <Icon name="fullscreen" size={22} />
        <span className="sr-only">{labels.fullscreen}</span>
      </button>
      <button type="button" className="viewer-tool viewer-tool-share" onClick={p.share}>
        <Icon name="share" size={22} />
        <span className="sr-only">{labels.share}</span>
      </button>
    </div>
  )
}
