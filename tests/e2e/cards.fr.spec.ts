import { expect, test, type APIRequestContext } from '@playwright/test'
import sharp from 'sharp'
import { HOME_PAGES } from '../../src/features/catalogue/catalogue.ts'
import { signInTo } from './helpers.ts'

/**
 * Issue 14 §3: every public page type carries a complete link-preview card (Open Graph and Twitter), its URLs
 * absolute on the edition's site, its image at least 1200 px wide (read from the image's own bytes) with an
 * alt text, and never an adult series' cover, whoever the page was rendered for.
 */

const SITE = 'https://fr.bomtoon.example'
const REQUIRED = [
  'og:title',
  'og:description',
  'og:url',
  'og:type',
  'og:image',
  'og:image:width',
  'og:image:height',
  'og:image:alt',
  'twitter:card',
  'twitter:title',
  'twitter:description',
  'twitter:image',
  'twitter:image:alt',
]

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The card of a page: every `<meta property|name=… content=…>` of its head, by key. */
function cardOf(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf('</head>'))
  const card: Record<string, string> = {}
  for (const m of head.matchAll(/<meta\s+(?:property|name)="((?:og|twitter):[^"]+)"\s+content="([^"]*)"/g)) card[m[1]!] = decode(m[2]!)
  return card
}

async function html(request: APIRequestContext, path: string): Promise<string> {
  const res = await request.get(path)
  expect(res.status(), path).toBe(200)
  return res.text()
}

/** The public pages of every type, their ids taken from the sitemap and the lists (as a guest finds them). */
async function publicPages(request: APIRequestContext) {
  const sitemap = await html(request, '/sitemap.xml')
  const detail = /\/detail\/(\d+)<\/loc>/.exec(sitemap)![1]
  const episode = /\/viewer\/(\d+)<\/loc>/.exec(sitemap)![1]
  const notice = /href="\/notice\/detail\/(\d+)"/.exec(await html(request, '/notice'))![1]
  const theme = /href="\/home\/pick\/(\d+)"/.exec(await html(request, '/home/pick'))![1]
  const guestSeries = new Set([...sitemap.matchAll(/\/detail\/(\d+)<\/loc>/g)].map((m) => m[1]!))
  const pages: { path: string; type: string }[] = [
    { path: '/', type: 'website' },
    ...HOME_PAGES.map((tab) => ({ path: `/home/${tab}`, type: 'website' })),
    { path: `/home/pick/${theme}`, type: 'website' },
    { path: `/detail/${detail}`, type: 'book' },
    { path: `/viewer/${episode}`, type: 'article' },
    { path: '/notice', type: 'website' },
    { path: `/notice/detail/${notice}`, type: 'article' },
    { path: '/faq', type: 'website' },
    { path: '/event', type: 'website' },
    { path: '/benefit', type: 'website' },
  ]
  return { pages, guestSeries }
}

/** Checks one page's card; returns the image's measured width for the report. */
async function checkCard(request: APIRequestContext, path: string, type: string, guestSeries: Set<string>, images: Map<string, number>) {
  const card = cardOf(await html(request, path))
  for (const key of REQUIRED) expect(card[key], `${path} ${key}`).toBeTruthy()
  expect(card['og:type'], path).toBe(type)
  expect(card['og:url'], path).toBe(`${SITE}${path}`)
  expect(card['twitter:card'], path).toBe('summary_large_image')
  expect(card['twitter:image'], path).toBe(card['og:image'])
  expect(card['twitter:image:alt'], path).toBe(card['og:image:alt'])
  const image = new URL(card['og:image']!)
  expect(image.origin, path).toBe(SITE)
  // a cover on a card is always one a guest may see (the sitemap lists exactly those series)
  const cover = /^\/media\/covers\/(\d+)\//.exec(image.pathname)
  if (cover) expect(guestSeries.has(cover[1]!), `${path}: cover of series ${cover[1]}`).toBe(true)
  let width = images.get(image.pathname)
  if (width === undefined) {
    const res = await request.get(image.pathname)
    expect(res.status(), `${path} ${image.pathname}`).toBe(200)
    expect(res.headers()['content-type'], image.pathname).toMatch(/^image\//)
    const meta = await sharp(await res.body()).metadata()
    expect(meta.width, image.pathname).toBeGreaterThanOrEqual(1200)
    expect(String(meta.width), image.pathname).toBe(card['og:image:width'])
    expect(String(meta.height), image.pathname).toBe(card['og:image:height'])
    images.set(image.pathname, (width = meta.width!))
  }
  return { image: image.pathname, width }
}

test.describe('link-preview cards', () => {
  test('every public page type has a complete card with a 1200-px image and its alt text', async ({ request }) => {
    const { pages, guestSeries } = await publicPages(request)
    const images = new Map<string, number>()
    const report: string[] = []
    for (const { path, type } of pages) {
      const { image, width } = await checkCard(request, path, type, guestSeries, images)
      report.push(`${path} ${type} ${image} ${width}px`)
    }
    console.log(`cards: ${pages.length} pages\n${report.join('\n')}`)
    // pages with an image of their own show it: a series' cover on its detail and episode pages
    const detail = cardOf(await html(request, pages.find((p) => p.type === 'book')!.path))
    expect(detail['og:image']).toMatch(/\/media\/covers\/\d+\/1200\.webp$/)
    const episode = cardOf(await html(request, pages.find((p) => p.type === 'article')!.path))
    expect(episode['og:image']).toMatch(/\/media\/covers\/\d+\/1200\.webp$/)
    // pages without one: the edition's image
    expect(cardOf(await html(request, '/faq'))['og:image']).toBe(`${SITE}/social/fr.png`)
  })

  test('an episode card names its series in ComicIssue JSON-LD', async ({ request }) => {
    const { pages } = await publicPages(request)
    const page = await html(request, pages.find((p) => p.type === 'article')!.path)
    const blocks = [...page.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
    const issue = blocks.find((b) => b['@type'] === 'ComicIssue')
    expect(issue.isPartOf).toMatchObject({ '@type': 'ComicSeries', '@id': expect.stringMatching(`^${SITE}/detail/\\d+$`) })
    expect(issue.isPartOf.url).toBe(issue.isPartOf['@id'])
    expect(issue.image).toBe(cardOf(page)['og:image'])
  })

  test("pages rendered for an adult reader still carry a guest's card (no adult cover)", async ({ page, request }) => {
    const { pages, guestSeries } = await publicPages(request)
    await signInTo(page, '/')
    const images = new Map<string, number>()
    for (const p of pages.filter((x) => x.path === '/' || x.path.startsWith('/home/')))
      await checkCard(page.request, p.path, p.type, guestSeries, images)
  })
})
