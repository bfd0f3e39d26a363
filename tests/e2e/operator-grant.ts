import { expect, test } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { ops, shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 39 point 5, an operator's coins seen by the reader in one edition: the real CLI (`scripts/ops.ts coins grant`
 * and `coins deduct`, a child process against this edition's server: a local run, so no --yes and the local token)
 * gives a new reader 5 bonus coins and takes 2 back, each with its reason; the reader's charge history shows both
 * entries with the operator's reason after the edition's "customer service adjustment". Screenshots at 390 and 1280 px.
 */
export function operatorGrantSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const said = (reason: string) => t('wallet.history.admin').replace('{{reason}}', reason)

  test(`${id}: an operator's grant and deduction show their reason in the reader's coin history`, async ({ page, baseURL }, info) => {
    test.setTimeout(90_000)
    const email = await newAccount(page.request)
    const gift = id === 'ar' ? 'تعويض عن انقطاع الخدمة' : 'Compensation pour la panne du 2 décembre'
    const back = id === 'ar' ? 'تصحيح رصيد مكرر' : 'Crédit en double corrigé'
    const grant = await ops(baseURL!, ['coins', 'grant', '--email', email, '--type', 'BONUS', '--amount', '5', '--reason', gift])
    expect(grant.code, grant.stderr).toBe(0)
    const deduct = await ops(baseURL!, ['coins', 'deduct', '--email', email, '--type', 'BONUS', '--amount', '2', '--reason', back])
    expect(deduct.code, deduct.stderr).toBe(0)

    await signIn(page, id, email)
    await page.goto('/history/charge')
    const rows = page.locator('tbody tr')
    await expect(rows.filter({ hasText: said(gift) })).toHaveCount(1)
    await expect(rows.filter({ hasText: said(back) })).toHaveCount(1)
    await expect(rows.filter({ hasText: said(gift) })).toContainText('5')
    await noSeriousViolations(page)
    await shoot(page, info, 'operator-grant-history')
  })
}
