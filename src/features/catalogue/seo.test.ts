import { describe, expect, it } from 'vitest'
import { comicIssueLd, jsonLdText, SITEMAP_STATIC_PATHS } from './seo.ts'

describe('ComicIssue JSON-LD of an episode page', () => {
  const ep = { id: 42, no: 3, title: 'Le retour </script>', seriesId: 7, seriesTitle: 'Reine', isFree: true, publishedAt: '2026-11-01T10:00:00.000Z' }
  it('names the issue, its number and the series it is part of (same @id as the detail page)', () => {
    const ld = comicIssueLd(ep, { siteUrl: 'https://fr.example/', locale: 'fr-FR' })
    expect(ld).toMatchObject({
      '@type': 'ComicIssue', '@id': 'https://fr.example/viewer/42', issueNumber: 3, isAccessibleForFree: true, inLanguage: 'fr-FR',
      datePublished: '2026-11-01T10:00:00.000Z',
      isPartOf: { '@type': 'ComicSeries', '@id': 'https://fr.example/detail/7', name: 'Reine' },
    })
    expect(comicIssueLd({ ...ep, publishedAt: null }, { siteUrl: 'https://fr.example/', locale: 'fr-FR' })).not.toHaveProperty('datePublished')
  })
  it('cannot close its script element', () => {
    const text = jsonLdText(comicIssueLd(ep, { siteUrl: 'https://fr.example/', locale: 'fr-FR' }))
    expect(text).not.toContain('</script>')
    expect(JSON.parse(text).name).toBe(ep.title)
  })
  it('lists the event and benefit landings in the sitemap', () => {
    expect(SITEMAP_STATIC_PATHS).toEqual(expect.arrayContaining(['/event', '/benefit']))
  })
})
