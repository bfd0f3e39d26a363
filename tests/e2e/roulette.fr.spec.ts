import { expect, test, type Page } from '@playwright/test'
import { headerBalance, noSeriousViolations, signInTo } from './helpers.ts'

/**
 * Roulette and library shelves in the browser (spec §2 /roulette, /library/my, /library/favorite): the demo
 * reader spins with the keyboard, hears the prize in the live region and sees the balance follow; the shelves
 * list what the reader owns and likes. The demo state persists between runs, so the reader first takes the
 * ROULETTE3 coupon's tickets (once per account) and the test compares with the API rather than fixed figures.
 */

type Coin = { coin: number; freeCoin: number; bonus: number; mileage: number; total: number }
const coinOf = async (page: Page) => ((await (await page.request.get('/api/v1/coin')).json()) as { data: Coin }).data

test.describe('roulette (French edition)', () => {
  test('the reader spins with the keyboard, the prize is announced and the balance follows', async ({ page, baseURL }) => {
    await signInTo(page, '/roulette')
    await page.request.post('/api/v1/coupon/code', {
      headers: { origin: baseURL!, 'content-type': 'application/json' },
      data: { code: 'ROULETTE3' },
    })
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/roulette')
    await expect(page.getByRole('heading', { level: 1, name: 'Roulette' })).toBeVisible()
    // the seeded wheel: one prize of 1 coin reads in the singular
    await expect(page.locator('#roulette-prizes li')).toHaveText([
      '1 pièce bonus',
      '3 pièces bonus',
      '5 pièces bonus',
      '10 pièces gratuites',
      '100 points',
      'Perdu',
    ])
    await noSeriousViolations(page)
    const state = (
      (await (await page.request.get('/api/v1/roulette')).json()) as {
        data: { tickets: number; freeSpins: number; prizes: { type: string; amount: number }[] }
      }
    ).data
    const spinButton = page.getByRole('button', { name: 'Lancer la roue' })
    if (state.tickets + state.freeSpins === 0) {
      // every spin of this persisted demo state is used: the page says so and offers no spin
      await expect(spinButton).toBeDisabled()
      await expect(page.getByRole('status')).toHaveText('Vous n’avez plus de ticket.')
      return
    }
    const before = await coinOf(page)
    await spinButton.focus()
    await page.keyboard.press('Enter')
    const status = page.getByRole('status')
    await expect(status).toHaveText(/Gagné : .+ !|Pas de chance cette fois\./)
    const after = await coinOf(page)
    const text = (await status.textContent()) ?? ''
    const left = state.tickets + state.freeSpins - 1
    await expect(page.locator('#roulette-tickets, #roulette-free')).toHaveText([/^\d+ tickets?$/, /^\d+ tours? gratuits? aujourd’hui$/])
    if (text.startsWith('Gagné')) {
      const labels = await page.locator('#roulette-prizes li').allTextContents()
      const index = labels.findIndex((label) => text === `Gagné : ${label.trim()} !`)
      expect(index).toBeGreaterThanOrEqual(0)
      const won = state.prizes[index]!
      const key = ({ COIN: 'coin', FREE_COIN: 'freeCoin', BONUS: 'bonus', MILEAGE: 'mileage' } as const)[won.type as 'COIN']
      expect(after[key] - before[key]).toBe(won.amount)
      await expect(page.locator('#roulette-balance')).toHaveText(`Solde : ${after.total} ${after.total < 2 ? 'pièce' : 'pièces'}`)
      // the header's balance follows without a reload (the session store)
      await expect(headerBalance(page)).toHaveText(
        `Solde : ${new Intl.NumberFormat('fr-FR').format(after.total)} ${after.total < 2 ? 'pièce' : 'pièces'}`,
      )
    } else {
      expect(after).toEqual(before)
    }
    if (left === 0) await expect(spinButton).toBeDisabled()
    else await expect(spinButton).toBeEnabled()
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })
    test('the same button spins through the plain form and the page shows the prize', async ({ page }) => {
      await signInTo(page, '/roulette')
      const state = ((await (await page.request.get('/api/v1/roulette')).json()) as { data: { tickets: number; freeSpins: number } }).data
      const spinButton = page.getByRole('button', { name: 'Lancer la roue' })
      if (state.tickets + state.freeSpins === 0) return expect(spinButton).toBeDisabled()
      await spinButton.click()
      await expect(page).toHaveURL(/\/roulette\?prize=[A-Z_]+:\d+#roulette-status$/)
      await expect(page.getByRole('status')).toHaveText(/Gagné : .+ !|Pas de chance cette fois\./)
      const after = ((await (await page.request.get('/api/v1/roulette')).json()) as { data: { tickets: number; freeSpins: number } }).data
      expect(after.tickets + after.freeSpins).toBe(state.tickets + state.freeSpins - 1)
    })
  })

  test('the library shelves list the owned episodes and the favourites', async ({ page, baseURL }) => {
    await signInTo(page, '/library/my')
    // rent one episode of a demo series (the demo reader starts with coins and no episode)
    for (const seriesId of [1, 2, 3, 9, 24]) {
      const detail = (await (await page.request.get(`/api/v1/contents/${seriesId}`)).json()) as {
        data?: { episodes: { id: number; free: boolean; ownership: unknown; price: { rent: number | null } }[] }
      }
      const episode = detail.data?.episodes.find((e) => !e.free && e.ownership === null && e.price.rent)
      if (!episode) continue
      const res = await page.request.post('/api/v1/purchase', {
        headers: { origin: baseURL!, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        data: { episodeIds: [episode.id], kind: 'RENT' },
      })
      if (res.ok()) break
    }
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'Ma bibliothèque' })).toBeVisible()
    const owned = (
      (await (await page.request.get('/api/v1/library/my')).json()) as { data: { items: { title: string; episodes: { no: number }[] }[] } }
    ).data
    expect(owned.items.length).toBeGreaterThan(0)
    const first = owned.items[0]!
    await expect(page.getByRole('heading', { level: 2, name: first.title })).toBeVisible()
    await expect(page.getByRole('list', { name: `Épisodes de ${first.title}` }).getByRole('link')).toHaveCount(first.episodes.length)
    await noSeriousViolations(page)

    await page.getByRole('navigation', { name: 'Bibliothèque' }).getByRole('link', { name: 'Favoris' }).click()
    await expect(page).toHaveURL(/\/library\/favorite$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Mes favoris' })).toBeVisible()
    await expect(
      page
        .getByRole('listitem')
        .filter({ hasText: /Ajouté le/ })
        .first(),
    ).toBeVisible()
    await noSeriousViolations(page)
  })

  test('guests are sent to sign in', async ({ page }) => {
    for (const path of ['/roulette', '/library/my', '/library/favorite']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/user\/login\?callback=/)
    }
  })
})
