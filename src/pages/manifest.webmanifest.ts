/** The edition's web app manifest (issue 19 point 1), pre-rendered per edition at build. */
import type { APIRoute } from 'astro'
import { edition, t } from '../lib/i18n/page.ts'
import { webManifest } from '../features/install/install.ts'

export const prerender = true

export const GET: APIRoute = () =>
  new Response(JSON.stringify(webManifest(edition, t)), { headers: { 'Content-Type': 'application/manifest+json; charset=utf-8' } })
