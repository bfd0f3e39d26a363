import { describe, expect, it } from 'vitest'
import { canonicalPath, canonicalUrl } from './canonical.ts'
import { comicIssueLd, coverCardImage, jsonLdText, listCardImage, linkCardTags, siteCardImage, sitemapXml } from './seo.ts'

describe('ComicIssue JSON-LD of an episode page', () => {
  const ep = {
    id: 42,
    no: 3,
    title: 'Le retour </script>',
    seriesId: 7,
    seriesTitle: 'Reine',
    isFree: true,
    publishedAt: '2026-11-01T10:00:00.000Z',
  }
  it('names the issue, its number and the series it is part of (same @id as the detail page)', () => {
    const ld = comicIssueLd(ep, { siteUrl: 'https://fr.example/', locale: 'fr-FR' })
    expect(ld).toMatchObject({
      '@type': 'ComicIssue',
      '@id': 'https://fr.example/viewer/42',
      issueNumber: 3,
      isAccessibleForFree: true,
      inLanguage: 'fr-FR',
      datePublished: '2026-11-01T10:00:00.000Z',
      isPartOf: { '@type': 'ComicSeries', '@id': 'https://fr.example/detail/7', name: 'Reine' },
    })
    expect(comicIssueLd({ ...ep, publishedAt: null }, { siteUrl: 'https://fr.example/', locale: 'fr-FR' })).not.toHaveProperty(
      'datePublished',
    )
  })
  it('cannot close its script element', () => {
    const text = jsonLdText(comicIssueLd(ep, { siteUrl: 'https://fr.example/', locale: 'fr-FR' }))
    expect(text).not.toContain('</script>')
    expect(JSON.parse(text).name).toBe(ep.title)
  })
  it('lists the event and benefit landings in the sitemap', () => {
    const xml = sitemapXml('https://fr.example/', [])
    expect(xml).toContain('<url><loc>https://fr.example/event</loc></url>')
    expect(xml).toContain('<url><loc>https://fr.example/benefit</loc></url>')
  })
})

describe('link-preview card of a page', () => {
  const site = { siteUrl: 'https://fr.example/', siteName: 'Bomtoon', locale: 'fr-FR', image: siteCardImage('fr', 'Bomtoon, des webtoons') }
  const tags = (page: Parameters<typeof linkCardTags>[0]) => Object.fromEntries(linkCardTags(page, site).map((t) => [t.key, t.content]))
  const series = { coverKey: 'covers/7', coverWidth: 480, coverHeight: 640, isAdult: false }

  it('gives every page the full card, with the edition image when the page has none', () => {
    expect(tags({ path: '/faq', title: 'FAQ | Bomtoon', description: 'Questions' })).toEqual({
      'og:type': 'website',
      'og:site_name': 'Bomtoon',
      'og:locale': 'fr_FR',
      'og:title': 'FAQ | Bomtoon',
      'og:description': 'Questions',
      'og:url': 'https://fr.example/faq',
      'og:image': 'https://fr.example/social/fr.png',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': 'Bomtoon, des webtoons',
      'twitter:card': 'summary_large_image',
      'twitter:title': 'FAQ | Bomtoon',
      'twitter:description': 'Questions',
      'twitter:image': 'https://fr.example/social/fr.png',
      'twitter:image:alt': 'Bomtoon, des webtoons',
    })
  })
  it('shows an episode as an article with its series cover at 1200 px, alt text on both cards', () => {
    const t = tags({
      path: '/viewer/42',
      title: 'Ep',
      description: 'd',
      type: 'article',
      image: coverCardImage(series, 'Couverture de Reine'),
    })
    expect(t).toMatchObject({
      'og:type': 'article',
      'og:url': 'https://fr.example/viewer/42',
      'og:image': 'https://fr.example/media/covers/7/1200.webp',
      'og:image:width': '1200',
      'og:image:height': '1600',
      'og:image:alt': 'Couverture de Reine',
      'twitter:image:alt': 'Couverture de Reine',
    })
  })
  it("never shows an adult series' cover: the card falls back to the edition image", () => {
    expect(coverCardImage({ ...series, isAdult: true }, 'x')).toBeNull()
    expect(coverCardImage({ ...series, isAdult: 1 }, 'x')).toBeNull()
    expect(coverCardImage({ ...series, coverKey: null }, 'x')).toBeNull()
    expect(
      tags({ path: '/detail/7', title: 'T', description: 'd', type: 'book', image: coverCardImage({ ...series, isAdult: true }, 'x') })[
        'og:image'
      ],
    ).toBe('https://fr.example/social/fr.png')
    const adult = { ...series, coverKey: 'covers/1', isAdult: true, title: 'Adulte' }
    const alt = (title: string) => `Couverture de ${title}`
    expect(listCardImage([adult, { ...series, coverKey: null, title: 'Sans' }, { ...series, title: 'Reine' }], alt)).toMatchObject({
      src: '/media/covers/7/1200.webp',
      alt: 'Couverture de Reine',
    })
    expect(listCardImage([adult], alt)).toBeNull()
  })
  it('points at the path as served: no trailing slash (prerendered pages)', () => {
    expect(tags({ path: '/benefit/', title: 'T', description: 'd' })['og:url']).toBe('https://fr.example/benefit')
    expect(canonicalPath('/')).toBe('/')
  })
  it('gives the canonical URL a reader shares: the edition origin, never the address the page was served from', () => {
    expect(canonicalUrl('/detail/7/', 'https://fr.example')).toBe('https://fr.example/detail/7')
    expect(canonicalUrl('/viewer/42', 'https://ar.example/')).toBe('https://ar.example/viewer/42')
    expect(canonicalUrl('/', 'https://fr.example')).toBe('https://fr.example/')
  })
  it('sizes a cover of unknown size as 3:4', () => {
    expect(coverCardImage({ coverKey: 'covers/7', isAdult: false }, 'a')).toEqual({
      src: '/media/covers/7/1200.webp',
      width: 1200,
      height: 1600,
      alt: 'a',
    })
  })
})
