/**
 * Issue 19 point 1, the site as an installable app: the web app manifest of an edition and its icons, drawn
 * from the edition's logo. Pure: the build draws the PNGs from `logoSvg` with sharp (`icons.build.ts`), the
 * manifest endpoint (`/manifest.webmanifest`) serves `webManifest`, and both read the one list `INSTALL_ICONS`.
 */
import type { Edition } from '../../lib/edition/schema.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'

/** Where the manifest is served (linked from every page's head, src/layouts/Base.astro). */
export const MANIFEST_PATH = '/manifest.webmanifest'

/**
 * The installed app starts on home and stays on the whole site. `/` rather than `/?source=pwa`: a query string
 * is part of the edge cache's key (functions/middleware/edge-cache.ts), so a start URL of its own would keep a
 * second copy of home per audience class for nothing.
 */
const START = '/'

type Purpose = 'any' | 'maskable'
export type InstallIcon = { path: string; size: number; purpose: Purpose }

/**
 * The icons the build draws into each edition's output (never committed): 192 and 512 px for Chromium's install
 * criteria, a maskable 512 px one whose logo stays inside the safe zone (the centred circle of 40 % radius
 * that every launcher's mask keeps), and the 180 px apple-touch-icon iOS asks for (full bleed: iOS rounds it).
 */
export const INSTALL_ICONS: readonly InstallIcon[] = [
  { path: '/icons/icon-192.png', size: 192, purpose: 'any' },
  { path: '/icons/icon-512.png', size: 512, purpose: 'any' },
  { path: '/icons/maskable-512.png', size: 512, purpose: 'maskable' },
]
/** Drawn full bleed like the maskable icon: iOS cuts its own rounded corners. */
export const APPLE_TOUCH_ICON: InstallIcon = { path: '/apple-touch-icon.png', size: 180, purpose: 'maskable' }

/**
 * The edition's logo: the site's "B" (public/favicon.svg) in the edition's text-on-primary colour on its primary
 * colour. `any`: a rounded square, as the favicon; `maskable`: full bleed, the letter shrunk so that it stays in
 * the safe zone whatever shape the launcher cuts.
 */
export function logoSvg(theme: Pick<Edition['theme'], 'primary' | 'onPrimary'>, purpose: Purpose): string {
  // The letter's box in the favicon's 32-unit square is x 9–22, y 8–26: its farthest corner is 12.2 units
  // (38 %) from the centre. Scaled by 0.8 about the centre it stays within 31 % of the size, well inside the
  // maskable safe zone (a circle of 40 % of the size around the centre, W3C manifest).
  const letter = `<path d="M9 8h8a5 5 0 0 1 2 9.6A5 5 0 0 1 17 26H9z" fill="${theme.onPrimary}"/>`
  const body =
    purpose === 'any'
      ? `<rect width="32" height="32" rx="6" fill="${theme.primary}"/>${letter}`
      : `<rect width="32" height="32" fill="${theme.primary}"/><g transform="translate(16 16) scale(0.8) translate(-16 -16)">${letter}</g>`
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${body}</svg>`
}

/** The manifest's fields (W3C Web Application Manifest) for one edition, in its language and direction. */
export function webManifest(edition: Pick<Edition, 'siteName' | 'locale' | 'direction' | 'theme'>, t: Translate) {
  return {
    id: START,
    name: edition.siteName,
    short_name: t('site.shortName'),
    description: t('site.description'),
    lang: edition.locale,
    dir: edition.direction,
    start_url: START,
    scope: '/',
    display: 'standalone',
    theme_color: edition.theme.primary,
    background_color: edition.theme.background,
    categories: ['books', 'entertainment'],
    icons: INSTALL_ICONS.map((i) => ({ src: i.path, sizes: `${i.size}x${i.size}`, type: 'image/png', purpose: i.purpose })),
  }
}
