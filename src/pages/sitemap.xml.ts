/** Per-edition sitemap (issue 5 §6): static pages, every public series and its free episodes; never adult series. */
import type { APIRoute } from 'astro'
import { edition } from '../lib/i18n/page.ts'
import { pageRequest } from '../lib/server/page-request.ts'
import { sitemapSeries } from '../features/catalogue/catalogue.server.ts'
import { sitemapXml } from '../features/catalogue/seo.ts'

export const GET: APIRoute = async ({ locals }) => {
  const xml = sitemapXml(edition.siteUrl, await sitemapSeries(pageRequest(locals).db))
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=3600, stale-while-revalidate=86400',
    },
  })
}
