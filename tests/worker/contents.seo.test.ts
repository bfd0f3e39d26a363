import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { frEdition } from './app.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { seriesDetail, sitemapSeries } from '../../src/features/catalogue/catalogue.server.ts'
import { breadcrumbLd, comicSeriesLd, jsonLdText, sitemapXml } from '../../src/features/catalogue/seo.ts'
import type { DemoCatalogue } from '../../scripts/seed/data.ts'

import { audienceSees } from '../../src/features/age/age.ts'

/** A guest's view (never an adult or BL series). */
const GUEST = audienceSees('guest')

let demo: DemoCatalogue
beforeAll(async () => {
  demo = await seedDemo(env.DB)
})

describe('SEO on the demo catalogue', () => {
  it('every public series gets parseable ComicSeries JSON-LD whose parts are its episodes', async () => {
    for (const row of demo.tables.series!.filter((s) => s.is_adult === 0)) {
      const s = (await seriesDetail(createDb(env.DB), Number(row.id), GUEST))!
      const text = jsonLdText(comicSeriesLd(s, { siteUrl: frEdition.siteUrl, locale: frEdition.locale, image: null, genreName: s.genre }))
      const ld = JSON.parse(text)
      expect(ld['@type']).toBe('ComicSeries')
      expect(ld.name).toBe(s.title)
      expect(ld.url).toBe(`${frEdition.siteUrl}/detail/${s.id}`)
      expect(ld.hasPart.map((p: { url: string }) => p.url)).toEqual(s.episodes.map((e) => `${frEdition.siteUrl}/viewer/${e.id}`))
      const crumbs = JSON.parse(
        jsonLdText(
          breadcrumbLd(
            [
              { name: 'x', path: '/' },
              { name: s.title, path: `/detail/${s.id}` },
            ],
            frEdition.siteUrl,
          ),
        ),
      )
      expect(crumbs.itemListElement.at(-1).item).toBe(ld.url)
    }
  })

  it('the sitemap lists every public series and its free episodes, no adult series, in one query', async () => {
    const db = createDb(env.DB)
    const xml = sitemapXml(frEdition.siteUrl, await sitemapSeries(db))
    expect(db.queryCount).toBe(1)
    const locs = new Set([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]))
    for (const s of demo.tables.series!) {
      expect(locs.has(`${frEdition.siteUrl}/detail/${s.id}`), String(s.id)).toBe(s.is_adult === 0)
    }
    // creators' pages: those of a public series, never one of adult series only
    const publicSeries = new Set(demo.tables.series!.filter((s) => s.is_adult === 0).map((s) => s.id))
    for (const sc of demo.tables.series_creators ?? []) {
      const listed = locs.has(`${frEdition.siteUrl}/creator/${sc.creator_id}`)
      const ofPublic = (demo.tables.series_creators ?? []).some((o) => o.creator_id === sc.creator_id && publicSeries.has(o.series_id!))
      expect(listed, `creator ${sc.creator_id}`).toBe(ofPublic)
    }
    expect([...locs].some((l) => l!.includes('/creator/'))).toBe(true)
    const adult = new Set(demo.tables.series!.filter((s) => s.is_adult === 1).map((s) => s.id))
    for (const e of demo.tables.episodes!) {
      const listed = locs.has(`${frEdition.siteUrl}/viewer/${e.id}`)
      expect(listed, `episode ${e.id}`).toBe(e.is_free === 1 && !adult.has(e.series_id!))
    }
  })
})
