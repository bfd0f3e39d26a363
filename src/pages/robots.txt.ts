/** Per-edition robots.txt: points to the sitemap and keeps crawlers out of the API and personal pages. */
import type { APIRoute } from 'astro'
import { edition } from '../lib/i18n/page.ts'
import { robotsTxt } from '../features/catalogue/seo.ts'

export const prerender = true

export const GET: APIRoute = () => new Response(robotsTxt(edition.siteUrl), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
