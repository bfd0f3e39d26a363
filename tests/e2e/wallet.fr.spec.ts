import { expect, test, type Page } from '@playwright/test'
import { balanceElsewhere, noSeriousViolations, signInTo } from './helpers.ts'

/**
 * Issue 4 browser proofs: a demo reader rents one episode and buys another through the rent-or-buy choice of
 * the locked viewer (coins used shown before paying, the new balance in the reader's other tab after), sees both in the use
 * history; the gift box and the mileage history are reachable and accessible.
 */

/** The first locked episode (from `from`) whose choice offers `kind` (the state persists between runs). */
async function lockedWith(page: Page, kind: RegExp, from: number): Promise<number> {
  for (let id = from; id < from + 60; id++) {
    const res = await page.goto(`/viewer/${id}`)
    if (res?.status() !== 403) continue
    await page
      .locator('astro-island:not([ssr])')
      .first()
      .waitFor({ state: 'attached', timeout: 5000 })
      .catch(() => {})
    if ((await page.getByRole('radio', { name: kind }).count()) > 0) return id
  }
  throw new Error('no locked episode left to test with')
}

test.describe('rent or buy (French edition)', () => {
  test('a reader buys coins in the sandbox, rents one episode and buys another (coins used shown), and finds all in the history', async ({
    page,
  }) => {
    // the other demo account moves coins here, so the shop spec (reader) can count its balance in parallel
    await signInTo(page, '/shop', { email: 'minor@example.com', password: 'Minor-2026!' })
    await page.getByRole('radio', { name: /^10 pièces/ }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_/)
    await page.getByRole('button', { name: /^Payer/ }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paiement réussi')
    const elsewhere = await balanceElsewhere(page)
    const rentId = await lockedWith(page, /^Louer/, 6)
    await expect(page.getByRole('heading', { name: 'Épisode verrouillé' })).toBeVisible()
    await page.getByRole('radio', { name: /^Louer/ }).check()
    await expect(page.getByTestId('coins-used')).toContainText('Pièces utilisées')
    await noSeriousViolations(page)
    await page.getByRole('button', { name: /^Confirmer/ }).click()
    await expect(page.locator('.viewer-locked, .locked-episode')).toHaveCount(0) // reloaded, open
    await expect(page.getByText(/Louée? jusqu|jusqu'au/).first()).toBeVisible()
    // the rental's new balance went through the session store to the reader's other tab
    await elsewhere.shows(((await (await page.request.get('/api/v1/coin')).json()) as { data: { total: number } }).data.total)
    await elsewhere.close()

    const buyId = await lockedWith(page, /^Acheter pour toujours/, rentId + 1)
    await page.getByRole('radio', { name: /^Acheter pour toujours/ }).check()
    await page.getByRole('button', { name: /^Confirmer/ }).click()
    await expect(page.locator('.locked-episode')).toHaveCount(0)

    await page.goto('/history/charge')
    await expect(page.locator('tbody tr').first()).toContainText('Achat de pièces')
    await page.goto('/history/use')
    const rows = page.locator('tr[data-kind="USE"]')
    await expect(rows.first()).toBeVisible()
    const text = await page.locator('tbody').innerText()
    expect(text).toMatch(/épisode/)
    expect(await rows.count()).toBeGreaterThanOrEqual(2)
    await noSeriousViolations(page)
    expect(buyId).toBeGreaterThan(rentId)
  })

  test('the gift box lists the tickets and a series ticket opens the episode chosen', async ({ page }) => {
    await signInTo(page, '/gift')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boîte à cadeaux')
    await noSeriousViolations(page)
    const ticket = page.locator('li.card[data-kind="RENT"]').filter({ hasText: 'Ticket de location offert' })
    if ((await ticket.count()) > 0) {
      await ticket.getByRole('button', { name: 'Utiliser' }).click()
      await expect(page.getByTestId('gift-used')).toContainText('Cadeau utilisé')
    }
    await expect(page.getByRole('heading', { name: 'Cadeaux utilisés' })).toBeVisible()
  })

  test('the mileage history page shows the points, 180 days', async ({ page }) => {
    await signInTo(page, '/history/mileage')
    await expect(page.getByText('Opérations des 180 derniers jours.')).toBeVisible()
    await expect(page.locator('tr[data-kind]').first()).toBeVisible()
    // its column says points, and amounts are written as /my writes them (issue 35 point 9: "+3600" was "Pièces")
    await expect(page.locator('thead th').last()).toHaveText('Points')
    for (const amount of await page.locator('td.amount').allTextContents()) expect(amount).toMatch(/^[+-]\d{1,3}([\u202f\u00a0]\d{3})*$/)
    await noSeriousViolations(page)
  })

  test('wait-until-free: the series ticket unlocks a locked episode for 72 hours, then says when the next one comes', async ({ page }) => {
    await signInTo(page, '/gift')
    // series 1 and 2 of the demo catalogue are wait-until-free (24 and 72 hours between tickets); their episodes come first
    for (let id = 6; id < 40; id++) {
      const res = await page.goto(`/viewer/${id}`)
      if (res?.status() !== 403) continue
      await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
      const use = page.getByRole('button', { name: 'Utiliser mon ticket gratuit (72 h)' })
      if ((await use.count()) === 0) {
        await expect(page.getByText(/^Prochain ticket gratuit : /)).toBeVisible() // a ticket was used by an earlier run
        return
      }
      await expect(page.getByText(/^Attendez, c'est gratuit : un ticket toutes les (24|72)\sh\.$/)).toBeVisible()
      await use.click()
      await expect(page.locator('.locked-episode')).toHaveCount(0)
      await expect(page.getByText(/jusqu/).first()).toBeVisible()
      // the series' next ticket comes 24 or 72 hours later (what a locked episode of it now shows)
      const preview = (await (await page.request.get(`/api/v1/purchase/preview?episodeId=${id}`)).json()) as {
        data: { ownership: { kind: string }; freetime: { available: boolean; nextTicketAt: string } }
      }
      expect(preview.data.ownership.kind).toBe('FREETIME')
      expect(preview.data.freetime.available).toBe(false)
      expect(Date.parse(preview.data.freetime.nextTicketAt) - Date.now()).toBeGreaterThan(23 * 3_600_000)
      return
    }
    throw new Error('no locked episode of series 1 left')
  })

  test('an unused coin purchase is refunded from the charge history within 7 days', async ({ page }) => {
    await signInTo(page, '/shop', { email: 'minor@example.com', password: 'Minor-2026!' })
    await page.getByRole('radio', { name: /^10 pièces/ }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_/)
    const paymentId = page.url().split('/').pop()!
    await page.getByRole('button', { name: /^Payer/ }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paiement réussi')
    await page.goto('/history/charge')
    const row = page.locator(`li[data-payment="${paymentId}"]`)
    await expect(row).toContainText('10 pièces')
    await noSeriousViolations(page)
    await row.getByRole('button', { name: 'Rembourser' }).click()
    await expect(page.getByRole('status')).toHaveText('Votre achat de pièces a été remboursé.')
    await expect(page.locator(`li[data-payment="${paymentId}"]`)).toHaveCount(0)
    await expect(page.locator('tr[data-kind="REFUND_PURCHASE"]').first()).toContainText('-10')
  })
})
