import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  homeTabOfGenre,
  BANNER_SLIDE_MS,
  bannerHref,
  bannerImageWidths,
  bannerLayout,
  decodeCursor,
  encodeCursor,
  nextTenSize,
  resolveContents,
  SCHEDULE_DAYS,
  TEN_LIST_SIZES,
} from './catalogue.ts'
import { renderMarkdown } from './markdown.ts'
import { breadcrumbLd, comicSeriesLd, hreflangLinks, jsonLdText, robotsTxt, sitemapXml } from './seo.ts'

import { audienceSees } from '../age/age.ts'

/** A guest's view (never an adult or BL series). */
const GUEST = audienceSees('guest')

const adult = { showAdult: true, showBl: true }

describe('home tab requests (spec §3)', () => {
  it('opens the schedule on today and accepts each day, also as the tab itself', () => {
    expect(resolveContents({}, GUEST, 'FRIDAY')).toMatchObject({
      ok: true,
      request: { tab: 'SCHEDULE', filter: { kind: 'schedule', day: 'FRIDAY' } },
    })
    for (const d of SCHEDULE_DAYS) {
      expect(resolveContents({ tab: 'SCHEDULE', day: d }, GUEST, 'MONDAY')).toMatchObject({ ok: true, request: { filter: { day: d } } })
      expect(resolveContents({ tab: d }, GUEST, 'MONDAY')).toMatchObject({ ok: true, request: { filter: { day: d } } })
    }
  })

  it('maps each tab to its filter and order', () => {
    const cases: [string, object, string][] = [
      ['RANKING', { kind: 'all' }, 'rank'],
      ['NEWEST', { kind: 'all' }, 'newest'],
      ['FREE', { kind: 'free' }, 'rank'],
      ['BL', { kind: 'bl' }, 'rank'],
      ['ACTION', { kind: 'genre', genre: 'ACTION' }, 'rank'],
      ['ROMANCE', { kind: 'genre', genre: 'ROMANCE' }, 'rank'],
      ['FREETIME', { kind: 'wuf' }, 'rank'],
      ['MATURE', { kind: 'adult' }, 'rank'],
    ]
    for (const [tab, filter, order] of cases)
      expect(resolveContents({ tab }, adult, 'MONDAY')).toEqual({ ok: true, request: { tab, filter, order, cursor: null, size: 24 } })
  })

  it('refuses MATURE to an audience that may not see adult series', () => {
    expect(resolveContents({ tab: 'MATURE' }, GUEST, 'MONDAY')).toEqual({ ok: false, code: 'ADULT_ONLY_CONTENTS' })
  })

  it('refuses unknown tabs and days, a day on another tab, bad sizes and cursors', () => {
    for (const p of [
      { tab: 'X' },
      { tab: 'RANKING', day: 'MONDAY' },
      { day: 'NOPE' },
      { tab: 'MONDAY', day: 'TUESDAY' },
      { size: '0' },
      { size: '51' },
      { size: '1e1' },
      { cursor: '' },
      { cursor: '!!' },
      { tab: 'NEWEST', cursor: encodeCursor({ k: 1, id: 1 }) },
    ]) {
      expect(resolveContents(p, adult, 'MONDAY'), JSON.stringify(p)).toMatchObject({ ok: false, code: 'INVALID_PARAMETER' })
    }
  })

  it('round-trips cursors and rejects anything else without throwing', () => {
    expect(decodeCursor(encodeCursor({ k: 123, id: 7 }), 'rank')).toEqual({ k: 123, id: 7 })
    expect(decodeCursor(encodeCursor({ k: '2026-01-01T00:00:00.000Z', id: 7 }), 'newest')).toEqual({ k: '2026-01-01T00:00:00.000Z', id: 7 })
    fc.assert(
      fc.property(fc.string(), (s) => {
        decodeCursor(s, 'rank')
        decodeCursor(s, 'newest')
      }),
    )
  })
})

describe('the home tab a series page leads back to', () => {
  it("is the genre's tab where it has one, else the ranking", () => {
    expect(['ACTION', 'ROMANCE', 'BL', 'DRAMA', undefined].map((g) => homeTabOfGenre(g))).toEqual([
      'action',
      'romance',
      'bl',
      'ranking',
      'ranking',
    ])
  })
})

describe('SEO builders', () => {
  const series = {
    id: 3,
    title: 'Lettres </script><b>',
    description: 'd',
    genre: 'ROMANCE',
    status: 'COMPLETED',
    tags: ['a'],
    creators: [
      { name: 'A', role: 'WRITER' },
      { name: 'B', role: 'ARTIST' },
    ],
    episodes: [
      { id: 10, no: 1, title: 'Ép 1', free: true, publishedAt: '2026-01-01T00:00:00.000Z' },
      { id: 11, no: 2, title: 'Ép 2', free: false, publishedAt: '2026-01-08T00:00:00.000Z' },
    ],
  }
  it('makes a ComicSeries with its episodes as ComicIssue parts, safe inside a script tag', () => {
    const ld = comicSeriesLd(series, {
      siteUrl: 'https://x.example',
      locale: 'fr-FR',
      image: 'https://x.example/c.webp',
      genreName: 'Romance',
    })
    const text = jsonLdText(ld)
    expect(text).not.toContain('</script>')
    const parsed = JSON.parse(text)
    expect(parsed['@type']).toBe('ComicSeries')
    expect(parsed.url).toBe('https://x.example/detail/3')
    expect(parsed.author).toEqual([{ '@type': 'Person', name: 'A' }])
    expect(
      parsed.hasPart.map((p: { '@type': string; url: string; isAccessibleForFree: boolean }) => [p['@type'], p.url, p.isAccessibleForFree]),
    ).toEqual([
      ['ComicIssue', 'https://x.example/viewer/10', true],
      ['ComicIssue', 'https://x.example/viewer/11', false],
    ])
    expect(
      breadcrumbLd(
        [
          { name: 'Home', path: '/' },
          { name: 'S', path: '/detail/3' },
        ],
        'https://x.example',
      ).itemListElement[1],
    ).toEqual({ '@type': 'ListItem', position: 2, name: 'S', item: 'https://x.example/detail/3' })
  })
  it('writes the sitemap and robots.txt for the edition origin', () => {
    const xml = sitemapXml(
      'https://x.example',
      [
        {
          id: 3,
          updatedAt: '2026-02-01T00:00:00.000Z',
          freeEpisodes: [{ id: 10, publishedAt: '2026-01-01T00:00:00.000Z' }],
          creators: [7, 2],
        },
        { id: 4, updatedAt: '2026-02-01T00:00:00.000Z', freeEpisodes: [], creators: [7] },
      ],
      ['/'],
    )
    // each creator's page once
    expect([...xml.matchAll(/<loc>https:\/\/x\.example\/creator\/(\d+)<\/loc>/g)].map((m) => m[1])).toEqual(['2', '7'])
    expect(xml).toContain('<loc>https://x.example/detail/3</loc><lastmod>2026-02-01</lastmod>')
    expect(xml).toContain('<loc>https://x.example/viewer/10</loc>')
    const robots = robotsTxt('https://x.example')
    for (const p of ['/api/', '/user/', '/library/', '/history/']) expect(robots).toContain(`Disallow: ${p}\n`)
    expect(robots).toContain('Sitemap: https://x.example/sitemap.xml')
  })
})

describe('legal pages markdown subset', () => {
  it('renders headings, lists and paragraphs and escapes any markup', () => {
    const { html, title } = renderMarkdown('# Titre\n\nUn <script>alert(1)</script> **gras**\nsuite\n\n- un\n- deux\n## Fin')
    expect(title).toBe('Titre')
    expect(html).toBe(
      '<h1>Titre</h1>\n<p>Un &lt;script&gt;alert(1)&lt;/script&gt; <strong>gras</strong> suite</p>\n<ul><li>un</li><li>deux</li></ul>\n<h2>Fin</h2>',
    )
  })
})

describe('banners (spec §3 display kinds, §9 auto-slide)', () => {
  it('lays out each display kind: image only, text only, image then text, text then image', () => {
    expect(bannerLayout('ONLY_ICON')).toEqual({ image: true, text: false, imageFirst: true })
    expect(bannerLayout('ONLY_TEXT')).toEqual({ image: false, text: true, imageFirst: false })
    expect(bannerLayout('ICON_TEXT')).toEqual({ image: true, text: true, imageFirst: true })
    expect(bannerLayout('TEXT_ICON')).toEqual({ image: true, text: true, imageFirst: false })
    expect(BANNER_SLIDE_MS).toBe(5000)
  })

  it('picks icon or banner widths from the picture size, and keeps only safe links', () => {
    expect(bannerImageWidths(160)).toEqual([64, 128, 256])
    expect(bannerImageWidths(720)).toEqual([640, 828, 1080])
    expect(bannerHref('/detail/24')).toBe('/detail/24')
    expect(bannerHref('https://example.com/x')).toBe('https://example.com/x')
    for (const bad of ['//evil.example', '/\\evil.example', 'javascript:alert(1)', 'data:text/html,x', 'detail/1', ''])
      expect(bannerHref(bad), bad).toBeNull()
  })
})

describe('ten-day list sizes (spec §9: 5, 15, 25)', () => {
  it('grows 5 → 15 → 25 and stays at 25', () => {
    expect(TEN_LIST_SIZES).toEqual([5, 15, 25])
    expect([5, 15, 25, 25].map(nextTenSize)).toEqual([15, 25, 25, 25])
    expect(nextTenSize(1)).toBe(5)
  })
})

describe('hreflang alternates (issue 5 §6)', () => {
  it('links the same path in every edition that serves pages, itself included, plus x-default = fr', () => {
    const links = hreflangLinks('/detail/24')
    expect(links.map((l) => l.hreflang)).toEqual(['fr-FR', 'ar', 'ja-JP', 'ko-KR', 'th-TH', 'zh-TW', 'x-default'])
    expect(links.find((l) => l.hreflang === 'ja-JP')!.href).toBe('https://jp.beltoon.example/detail/24')
    expect(links.find((l) => l.hreflang === 'x-default')!.href).toBe('https://fr.bomtoon.example/detail/24')
    // de redirects every page elsewhere (spec §1): never an alternate
    expect(links.some((l) => l.href.includes('//de.'))).toBe(false)
    expect(new Set(links.map((l) => l.hreflang)).size).toBe(links.length)
  })

  it('has no x-default when the default edition is not among the live ones', () => {
    expect(hreflangLinks('/', [{ id: 'jp', locale: 'ja-JP', siteUrl: 'https://jp.example', redirectAll: false }])).toEqual([
      { hreflang: 'ja-JP', href: 'https://jp.example/' },
    ])
  })
})
