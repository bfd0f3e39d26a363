/**
 * The next episode's block while the episode loads: its heading and the loading line. The block's offer
 * (NextEpisode.tsx: prices, rent or buy, the automatic unlock) loads only when a next episode is locked or fails,
 * and then keeps the block, so most reading never loads it.
 */
import type { NextLabels } from './NextEpisode.tsx'
import type { EpisodeLink } from './viewer.ts'
import { episodeLabel } from '../../lib/i18n/episode-label.ts'

type Format = (template: string, values: Record<string, string | number>) => string

/** The block's heading: "Épisode {no} : {title}", or the number alone for an episode titled by its number. */
export const nextHeading = (link: EpisodeLink, labels: Pick<NextLabels, 'episodeHeading' | 'episodeNumber'>, format: Format) =>
  episodeLabel(link.title, format(labels.episodeNumber, { no: link.no }), format(labels.episodeHeading, { no: link.no, title: link.title }))

export const nextHeadingId = (link: EpisodeLink) => `viewer-next-${link.id}`

export default function NextLoading({ link, labels, format }: { link: EpisodeLink; labels: NextLabels; format: Format }) {
  return (
    <section className="viewer-next" aria-labelledby={nextHeadingId(link)} aria-busy="true">
      <h2 id={nextHeadingId(link)}>{nextHeading(link, labels, format)}</h2>
      <p className="viewer-next-status">{labels.loading}</p>
    </section>
  )
}
