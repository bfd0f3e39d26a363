/**
 * SEO for crawlers (issue 5 §6): JSON-LD (ComicSeries with hasPart episodes, BreadcrumbList), the
 * sitemap and robots.txt of an edition. Pure: the pages pass what they read from D1 and the edition.
 */
import type { SitemapSeries } from './catalogue.server.ts'
import { CARD_IMAGE_WIDTH, SITE_CARD_SIZE } from './catalogue.ts'
import { hasTranscript, transcriptText, type TranscriptLine } from './transcript.ts'
import { canonicalUrl } from './canonical.ts'
import ar from '../../../editions/ar/edition.json'
import de from '../../../editions/de/edition.json'
import fr from '../../../editions/fr/edition.json'
import jp from '../../../editions/jp/edition.json'
import kr from '../../../editions/kr/edition.json'
import th from '../../../editions/th/edition.json'
import tw from '../../../editions/tw/edition.json'

/** `path` as an absolute URL of the edition (`siteUrl` is its public origin). */
function absoluteUrl(path: string, siteUrl: string): string {
  if (!/^\/[\w/-]*$/.test(path)) return new URL(path, siteUrl).href
  // a plain path (most: `/viewer/12`, once per episode of a series page) goes after the site's origin, as URL puts it
  let origin = origins.get(siteUrl)
  if (origin === undefined) origins.set(siteUrl, (origin = new URL(siteUrl).origin))
  return origin + path
}
const origins = new Map<string, string>()

/** JSON for a `<script type="application/ld+json">`: `<` is escaped so no `</script>` can close it early. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

export type SeriesForLd = {
  id: number
  title: string
  description: string
  genre: string
  status: string
  creators: { name: string; role: string }[]
  tags: string[]
  episodes: { id: number; no: number; title: string; free: boolean; publishedAt: string }[]
}

const CREATOR_PROPERTY: Record<string, 'author' | 'illustrator' | 'contributor'> = {
  AUTHOR: 'author',
  WRITER: 'author',
  ORIGINAL: 'author',
  ARTIST: 'illustrator',
  ADAPTER: 'contributor',
}

/** schema.org ComicSeries of a detail page, its episodes as ComicIssue parts (real viewer URLs). */
export function comicSeriesLd(s: SeriesForLd, opts: { siteUrl: string; locale: string; image?: string | null; genreName: string }) {
  const url = absoluteUrl(`/detail/${s.id}`, opts.siteUrl)
  const people = (prop: string) =>
    s.creators.filter((c) => CREATOR_PROPERTY[c.role] === prop).map((c) => ({ '@type': 'Person', name: c.name }))
  return {
    '@context': 'https://schema.org',
    '@type': 'ComicSeries',
    '@id': url,
    url,
    name: s.title,
    description: s.description,
    inLanguage: opts.locale,
    genre: opts.genreName,
    ...(s.tags.length ? { keywords: s.tags.join(', ') } : {}),
    ...(opts.image ? { image: opts.image } : {}),
    author: people('author'),
    illustrator: people('illustrator'),
    contributor: people('contributor'),
    creativeWorkStatus: s.status,
    hasPart: s.episodes.map((e) => ({
      '@type': 'ComicIssue',
      '@id': absoluteUrl(`/viewer/${e.id}`, opts.siteUrl),
      url: absoluteUrl(`/viewer/${e.id}`, opts.siteUrl),
      name: e.title,
      issueNumber: e.no,
      datePublished: e.publishedAt,
      isAccessibleForFree: e.free,
    })),
  }
}

/**
 * A creator's page (issue 37 point 2) as schema.org reads it: a `Person` with their page's URL and, as `workExample`,
 * the series it lists (adult ones are left out, as from every card).
 */
export function personLd(
  c: { id: number; name: string; works: readonly { series: readonly { id: number; title: string; isAdult: boolean }[] }[] },
  siteUrl: string,
) {
  const url = absoluteUrl(`/creator/${c.id}`, siteUrl)
  const seen = new Set<number>()
  const works = c.works
    .flatMap((w) => w.series)
    .filter((s) => !s.isAdult && !seen.has(s.id) && seen.add(s.id))
    .map((s) => ({ '@type': 'ComicSeries', '@id': absoluteUrl(`/detail/${s.id}`, siteUrl), name: s.title }))
  return { '@context': 'https://schema.org', '@type': 'Person', '@id': url, url, name: c.name, workExample: works }
}

export type EpisodeForLd = {
  id: number
  no: number
  title: string
  seriesId: number
  seriesTitle: string
  isFree: boolean
  publishedAt?: string | null
  /** The slices the page shows (none when locked); their transcripts, when any, go into the JSON-LD. */
  slices?: readonly { transcript?: readonly TranscriptLine[] | null }[]
}

/**
 * schema.org ComicIssue of an episode page (/viewer/{id}), part of its ComicSeries (the detail page's
 * `@id`, so crawlers join the two). An episode whose slices carry a transcript declares it (schema.org
 * accessibility properties: readable as images or as text alone) and carries it as its `text`.
 */
export function comicIssueLd(e: EpisodeForLd, opts: { siteUrl: string; locale: string; image?: string | null }) {
  const url = absoluteUrl(`/viewer/${e.id}`, opts.siteUrl)
  const transcript = e.slices && hasTranscript(e.slices) ? transcriptText(e.slices) : null
  return {
    '@context': 'https://schema.org',
    '@type': 'ComicIssue',
    '@id': url,
    url,
    name: e.title,
    issueNumber: e.no,
    inLanguage: opts.locale,
    isAccessibleForFree: e.isFree,
    ...(e.publishedAt ? { datePublished: e.publishedAt } : {}),
    ...(opts.image ? { image: opts.image } : {}),
    isPartOf: {
      '@type': 'ComicSeries',
      '@id': absoluteUrl(`/detail/${e.seriesId}`, opts.siteUrl),
      name: e.seriesTitle,
      url: absoluteUrl(`/detail/${e.seriesId}`, opts.siteUrl),
    },
    ...(transcript
      ? {
          accessMode: ['visual', 'textual'],
          accessModeSufficient: [
            { '@type': 'ItemList', itemListElement: ['visual'] },
            { '@type': 'ItemList', itemListElement: ['textual'] },
          ],
          accessibilityFeature: ['alternativeText', 'transcript'],
          text: transcript,
        }
      : {}),
  }
}

// ───────────────────────────── link-preview cards (issue 14 §3) ─────────────────────────────

/** The image of a link-preview card: a path (or absolute URL), its pixel size and its alt text. */
export type CardImage = { src: string; width: number; height: number; alt: string }

/** The edition's own card image, for pages without one of their own. */
export const siteCardImage = (editionId: string, alt: string): CardImage => ({ src: `/social/${editionId}.png`, ...SITE_CARD_SIZE, alt })

/** A series as the card needs it (detail row, list card, episode's series). */
export type CardSeries = { coverKey: string | null; coverWidth?: number | null; coverHeight?: number | null; isAdult: boolean | number }

/** Covers are drawn 3:4 when their stored size is unknown (the seed's and most imports' ratio). */
const COVER_RATIO = 4 / 3

/**
 * The card image of a series: its cover's 1200-px rendition. Null for an adult series or one without a
 * cover: a card is always what a guest may see (the page then falls back to the edition's image).
 */
export function coverCardImage(s: CardSeries | null | undefined, alt: string): CardImage | null {
  if (!s?.coverKey || s.isAdult) return null
  const ratio = s.coverWidth && s.coverHeight ? s.coverHeight / s.coverWidth : COVER_RATIO
  return {
    src: `/media/${s.coverKey}/${CARD_IMAGE_WIDTH}.webp`,
    width: CARD_IMAGE_WIDTH,
    height: Math.round(CARD_IMAGE_WIDTH * ratio),
    alt,
  }
}

/** A list page's card image: the cover of the list's first series a guest may see, alt text from its title. */
export function listCardImage(
  items: readonly (CardSeries & { title: string })[] | null | undefined,
  alt: (title: string) => string,
): CardImage | null {
  const lead = items?.find((s) => s.coverKey && !s.isAdult)
  return lead ? coverCardImage(lead, alt(lead.title)) : null
}

export type CardPage = {
  /** The page's path: its canonical URL is this path on the edition's site. */
  path: string
  title: string
  description: string
  /** Open Graph type: `article` for an episode, `book` for a series, `website` elsewhere. */
  type?: 'website' | 'book' | 'article'
  /** The page's own image (see coverCardImage); the edition's image when absent. */
  image?: CardImage | null
}
export type CardSite = { siteUrl: string; siteName: string; locale: string; image: CardImage }
export type CardTag = { attr: 'property' | 'name'; key: string; content: string }

/**
 * Every tag of a page's link-preview card (Open Graph and Twitter): title, description, canonical URL, type,
 * an image with its size and alt text on every page (the edition's own when the page has none), and a
 * large-image Twitter card. Every URL is absolute on the edition's site.
 */
export function linkCardTags(page: CardPage, site: CardSite): CardTag[] {
  const image = page.image ?? site.image
  const src = absoluteUrl(image.src, site.siteUrl)
  const og = (key: string, content: string | number): CardTag => ({ attr: 'property', key: `og:${key}`, content: String(content) })
  const tw = (key: string, content: string): CardTag => ({ attr: 'name', key: `twitter:${key}`, content })
  return [
    og('type', page.type ?? 'website'),
    og('site_name', site.siteName),
    og('locale', site.locale.replace('-', '_')),
    og('title', page.title),
    og('description', page.description),
    og('url', canonicalUrl(page.path, site.siteUrl)),
    og('image', src),
    og('image:width', image.width),
    og('image:height', image.height),
    og('image:alt', image.alt),
    tw('card', 'summary_large_image'),
    tw('title', page.title),
    tw('description', page.description),
    tw('image', src),
    tw('image:alt', image.alt),
  ]
}

/** schema.org BreadcrumbList from (name, path) pairs, first to last. */
export function breadcrumbLd(items: { name: string; path: string }[], siteUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((it, i) => ({ '@type': 'ListItem', position: i + 1, name: it.name, item: absoluteUrl(it.path, siteUrl) })),
  }
}

/** Public pages listed in every sitemap besides the series (never /api, /user, /library, /history). */
const SITEMAP_STATIC_PATHS = [
  '/',
  '/home/weekly',
  '/home/free',
  '/home/ranking',
  '/home/bl',
  '/home/romance',
  '/home/action',
  '/home/pick',
  '/notice',
  '/faq',
  '/policy',
  '/privacy',
  '/event',
  '/benefit',
] as const

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
const day = (iso: string) => (/^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : null)

/**
 * The edition's sitemap (sitemaps.org 0.9): static pages, every public series (`/detail/{id}`) and its
 * free episodes (`/viewer/{id}`), then their creators' pages (`/creator/{id}`, once each). The caller passes only public
 * series (adult ones never reach it, nor a creator of adult series only).
 */
export function sitemapXml(siteUrl: string, series: SitemapSeries[], staticPaths: readonly string[] = SITEMAP_STATIC_PATHS): string {
  const url = (path: string, lastmod: string | null) =>
    `<url><loc>${xmlEscape(absoluteUrl(path, siteUrl))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`
  const lines = [
    ...staticPaths.map((p) => url(p, null)),
    ...series.flatMap((s) => [
      url(`/detail/${s.id}`, day(s.updatedAt)),
      ...s.freeEpisodes.map((e) => url(`/viewer/${e.id}`, day(e.publishedAt))),
    ]),
    ...[...new Set(series.flatMap((s) => s.creators))].sort((a, b) => a - b).map((id) => url(`/creator/${id}`, null)),
  ]
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lines.join('\n')}\n</urlset>\n`
}

/** Paths crawlers are asked to skip: the API and every personal page. */
const ROBOTS_DISALLOW = ['/api/', '/user/', '/library/', '/history/'] as const

export function robotsTxt(siteUrl: string): string {
  return [
    'User-agent: *',
    ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${absoluteUrl('/sitemap.xml', siteUrl)}`,
    '',
  ].join('\n')
}

// ───────────────────────────── hreflang (issue 5 §6) ─────────────────────────────

/** Where each edition is published; read at build from every `editions/<id>/edition.json`. */
export type EditionSite = { id: string; locale: string; siteUrl: string; redirectAll: boolean }

/** Every edition's public origin and language (the build's `virtual:edition` carries only its own). */
const EDITION_SITES: readonly EditionSite[] = [fr, ar, de, jp, kr, th, tw].map((e) => ({
  id: e.id,
  locale: e.locale,
  siteUrl: e.siteUrl,
  redirectAll: Boolean(e.redirectAllUrl),
}))

/** Spec §1: French is the default edition, the `x-default` of every alternate set. */
const DEFAULT_EDITION_ID = 'fr'

/**
 * `<link rel="alternate" hreflang>` targets for `path`: the same path in every edition (the page's own
 * edition included, as hreflang requires), plus `x-default`. Editions that redirect every page elsewhere
 * (de, spec §1) are left out: an alternate must answer 200, not a redirect.
 */
export function hreflangLinks(
  path: string,
  sites: readonly EditionSite[] = EDITION_SITES,
  defaultId = DEFAULT_EDITION_ID,
): { hreflang: string; href: string }[] {
  const live = sites.filter((s) => !s.redirectAll)
  const links = live.map((s) => ({ hreflang: s.locale, href: absoluteUrl(path, s.siteUrl) }))
  const fallback = live.find((s) => s.id === defaultId)
  return fallback ? [...links, { hreflang: 'x-default', href: absoluteUrl(path, fallback.siteUrl) }] : links
}
