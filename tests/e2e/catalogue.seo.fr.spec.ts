import { expect, test } from '@playwright/test'

/** Issue 5 §6 and "bad input": JSON-LD on every page type, the sitemap against the catalogue, clear error pages. */

const PAGES = [
  '/',
  '/home/weekly',
  '/home/ranking',
  '/home/free',
  '/home/pick',
  '/detail/24',
  '/notice',
  '/faq',
  '/search',
  '/event',
  '/benefit',
  '/policy',
]

function jsonLdBlocks(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
}

test.describe('structured data', () => {
  test('every JSON-LD block of every page type parses and names its schema.org type', async ({ request }) => {
    const types = new Set<string>()
    for (const path of PAGES) {
      const res = await request.get(path)
      expect(res.status(), path).toBe(200)
      for (const block of jsonLdBlocks(await res.text()) as Record<string, unknown>[]) {
        expect(block['@context'], path).toBe('https://schema.org')
        expect(typeof block['@type'], path).toBe('string')
        types.add(String(block['@type']))
      }
    }
    expect([...types]).toEqual(expect.arrayContaining(['WebSite', 'ComicSeries', 'BreadcrumbList']))
  })

  test('an episode page carries ComicIssue JSON-LD pointing at its series', async ({ request }) => {
    const detail = await (await request.get('/detail/24')).text()
    const series = (jsonLdBlocks(detail) as Record<string, any>[]).find((b) => b['@type'] === 'ComicSeries')!
    const free = (series.hasPart as { url: string; isAccessibleForFree: boolean }[]).find((p) => p.isAccessibleForFree)!
    const viewer = await (await request.get(new URL(free.url).pathname)).text()
    const issue = (jsonLdBlocks(viewer) as Record<string, any>[]).find((b) => b['@type'] === 'ComicIssue')
    expect(issue).toBeTruthy()
    expect(issue!['@id']).toBe(free.url)
    expect(issue!.isPartOf['@id']).toBe(series['@id'])
  })

  test('the sitemap lists every public series (as a guest sees them) and no adult one', async ({ request }) => {
    const publicIds = new Set<number>()
    let cursor: string | null = null
    do {
      const res = await request.get(`/api/v1/contents?tab=NEWEST&size=50${cursor ? `&cursor=${cursor}` : ''}`)
      const body = (await res.json()) as { data: { items: { id: number; isAdult: boolean }[]; next: string | null } }
      for (const s of body.data.items) publicIds.add(s.id)
      cursor = body.data.next
    } while (cursor)
    expect(publicIds.size).toBeGreaterThan(20)
    const xml = await (await request.get('/sitemap.xml')).text()
    const listed = new Set([...xml.matchAll(/\/detail\/(\d+)<\/loc>/g)].map((m) => Number(m[1])))
    expect([...publicIds].filter((id) => !listed.has(id))).toEqual([])
    expect([...listed].filter((id) => !publicIds.has(id))).toEqual([]) // anything else listed would be adult or unpublished
    expect(xml).toContain('/event</loc>')
    expect(xml).toContain('/benefit</loc>')
  })
})

test.describe('bad input answers a clear page, never a 500', () => {
  test('unknown or malformed ids are the 404 page', async ({ page }) => {
    for (const path of [
      '/detail/999999',
      '/detail/abc',
      '/detail/0',
      '/detail/99999999999999999999',
      '/notice/detail/999999',
      '/home/nope',
      '/home/pick/999999',
    ]) {
      const res = await page.goto(path)
      expect(res!.status(), path).toBe(404)
      await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible()
    }
  })

  test('malformed or out-of-range cursors and pages: a 400 page with a way back, or an empty last page', async ({ page }) => {
    for (const path of [
      '/home/ranking?cursor=%%%',
      '/home/ranking?cursor=' + 'A'.repeat(5000),
      '/home/weekly?day=FUNDAY',
      '/notice?page=-1',
      '/notice?page=99999',
    ]) {
      const res = await page.goto(path)
      expect(res!.status(), path).toBe(400)
      await expect(page.getByRole('link', { name: /Revenir à la première page/ }), path).toBeVisible()
    }
    // a well-formed cursor beyond the end: an empty page (200), not an error
    const beyond = Buffer.from(JSON.stringify([-1, 2147483647])).toString('base64url')
    const res = await page.goto(`/home/ranking?cursor=${beyond}`)
    expect(res!.status()).toBe(200)
    await expect(page.getByText('Aucune série ici pour le moment.')).toBeVisible()
  })

  test('huge and hostile search queries are answered, capped or refused with a message', async ({ page }) => {
    for (const q of ['"'.repeat(3000), 'NEAR(a b) OR * -x :y ^z', '\u0000\u202e<script>alert(1)</script>', 'x'.repeat(20_000)]) {
      const res = await page.goto(`/search?keyword=${encodeURIComponent(q)}`)
      expect(res!.status(), q.slice(0, 20)).toBeLessThan(500)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recherche')
    }
    expect((await page.goto('/search?keyword=reine&cursor=%21%21'))!.status()).toBe(400)
  })
})

test.describe('event and benefit landings', () => {
  test('events say who may take part; the adults-only one keeps its details for signed-in readers', async ({ page }) => {
    await page.goto('/event')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Évènements')
    await expect(page.getByText('Réservé aux adultes (18 ans et plus)')).toBeVisible()
    await expect(page.getByText('Réservé aux lecteurs de moins de 18 ans')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Connectez-vous pour voir cet évènement' })).toHaveAttribute(
      'href',
      '/user/login?callback=%2Fevent',
    )
    await expect(page.getByText('Une sélection réservée aux lecteurs majeurs.')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Participer' }).first()).toHaveAttribute('href', '/roulette')
    await expect(page.getByText('Roulette d’été (terminée)')).toHaveCount(0) // ended
  })

  test('benefits are the edition’s content with links to each benefit', async ({ page }) => {
    await page.goto('/benefit')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Avantages')
    const nav = page.getByRole('navigation', { name: 'Profiter des avantages' })
    await expect(nav.getByRole('link')).toHaveCount(4)
    await nav.getByRole('link', { name: 'Évènements en cours' }).click()
    await expect(page).toHaveURL(/\/event$/)
  })
})

test.describe('adult series detail (spec §5, §8 ADULT_ONLY_CONTENTS)', () => {
  async function signIn(page: import('@playwright/test').Page, email: string, password: string, to: string) {
    await page.goto(`/user/login?callback=${encodeURIComponent(to)}`)
    await page.getByLabel('Adresse e-mail').fill(email)
    await page.getByLabel('Mot de passe').fill(password)
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await expect(page).toHaveURL(new RegExp(`${to}$`))
  }

  test('a guest and a minor get the age notice (403), an adult reader the series, never cached for others', async ({ page, browser }) => {
    const guest = await page.goto('/detail/7')
    expect(guest!.status()).toBe(403)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contenu réservé aux adultes')
    expect(guest!.headers()['cache-control']).toContain('no-store')

    const adult = await browser.newPage()
    await signIn(adult, 'reader@example.com', 'Reader-2026!', '/detail/7')
    const res = await adult.reload()
    expect(res!.status()).toBe(200)
    await expect(adult.getByRole('heading', { level: 2, name: /Épisodes/ })).toBeVisible()
    await expect(adult.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    await adult.close()

    const minor = await browser.newPage()
    await signIn(minor, 'minor@example.com', 'Minor-2026!', '/detail/7')
    const m = await minor.reload()
    expect(m!.status()).toBe(403)
    await minor.close()

    expect((await page.goto('/detail/7'))!.status()).toBe(403) // the adult's page never reached the shared cache
  })
})
