import { expect, test } from '@playwright/test'
import { googleVars, startProvider, startWorker } from './oidc.ts'
import { DEMO_READER } from './helpers.ts'

/**
 * Issue 3 item 2 in Chromium: the full OAuth sign-in (state + PKCE + nonce) against a REAL local OpenID
 * provider started here, with its own account-picker page, and a worker of the built fr edition configured
 * with it as "google": a newcomer gets an account; the demo reader's e-mail is never linked by itself
 * (AccountNotLinkedError) until the reader signs in and links Google from /setting; a refusal lands on
 * login-error, and a sign-in started in the viewer returns to the viewer.
 */

const PORT = Number(process.env.E2E_PORT_BASE ?? 8791) + 7
const APP = `http://127.0.0.1:${PORT}`
let stopProvider: () => Promise<void>
let stopWorker: () => void

test.describe.configure({ mode: 'serial', timeout: 60_000 })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  const provider = await startProvider(APP)
  stopProvider = provider.stop
  stopWorker = await startWorker(PORT, 'fr', googleVars(provider.issuer))
})
test.afterAll(async () => {
  stopWorker?.()
  await stopProvider?.()
})

test('a newcomer signs in with the local OpenID provider and gets an account, back where they started', async ({ page, context }) => {
  await page.goto(`${APP}/user/login?callback=%2Fnotice`)
  await page.getByRole('link', { name: 'Continuer avec Google' }).click()
  await expect(page.getByRole('heading', { name: 'Local IdP sign-in' })).toBeVisible()
  await page.getByRole('button', { name: 'Carol' }).click()
  await expect(page).toHaveURL(`${APP}/callback/login-newuser?callback=%2Fnotice`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bienvenue !')
  const cookie = (await context.cookies(APP)).find((c) => c.name === 'wt_session')
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
  expect((await context.cookies(APP)).some((c) => c.name === 'wt_oauth')).toBe(false) // the flow's state is spent
  await page.getByRole('link', { name: 'Continuer' }).click()
  await expect(page).toHaveURL(`${APP}/notice`)
  await expect(page.locator('[data-coin-balance]')).toHaveText('Solde : 0 pièce') // French counts 0 in the singular
  const me = await (await page.request.get(`${APP}/api/v1/user/me`)).json()
  expect(me.data.user).toMatchObject({ email: 'carol@example.test', snsProvider: 'google', snsId: 'carol', isAdult: false })
})

test('the demo reader links Google from /setting (never by e-mail alone), then signs in with it back to the viewer', async ({
  page,
  request,
  context,
}) => {
  await page.goto(`${APP}/user/login`)
  await page.getByRole('link', { name: 'Continuer avec Google' }).click()
  await page.getByRole('button', { name: 'Reader' }).click()
  await expect(page).toHaveURL(`${APP}/callback/login-error?error=AccountNotLinkedError`)
  await page.goto(`${APP}/user/login?callback=%2Fsetting`)
  await page.getByLabel('Adresse e-mail').fill(DEMO_READER.email)
  await page.getByLabel('Mot de passe').fill(DEMO_READER.password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(page).toHaveURL(`${APP}/setting`)
  // the provider remembers the Reader picked above: it sends the browser straight back
  await page.getByRole('button', { name: 'Lier Google' }).click()
  await expect(page).toHaveURL(`${APP}/setting?linked=google`)
  await expect(page.getByRole('status').filter({ hasText: 'Google est maintenant lié à votre compte.' })).toBeVisible()
  await context.clearCookies()
  const free = await (await request.get(`${APP}/api/v1/contents?tab=FREE`)).json()
  const detail = await (await request.get(`${APP}/api/v1/contents/${free.data.items[0].id}`)).json()
  const episode = detail.data.episodes.find((e: { free: boolean }) => e.free).id as number
  const back = `/callback/viewer-login-success?callback=${encodeURIComponent(`/viewer/${episode}`)}&position=0.25`
  await page.goto(`${APP}/user/login?callback=${encodeURIComponent(back)}`)
  await page.getByRole('link', { name: 'Continuer avec Google' }).click()
  await page.getByRole('button', { name: 'Reader' }).click()
  await expect(page).toHaveURL(new RegExp(`^${APP}/callback/login-success\\?callback=`))
  await page.getByRole('link', { name: 'Continuer' }).click()
  await expect(page).toHaveURL(`${APP}/viewer/${episode}`)
  const me = await (await page.request.get(`${APP}/api/v1/user/me`)).json()
  expect(me.data.user).toMatchObject({ id: 1, email: 'reader@example.com' })
  const state = await (await page.request.get(`${APP}/api/v1/viewer/${episode}`)).json()
  expect(state.data.progress).toBeCloseTo(0.25)
})

test('refusing at the provider lands on the login-error page with nobody signed in', async ({ page, context }) => {
  await page.goto(`${APP}/user/login`)
  await page.getByRole('link', { name: 'Continuer avec Google' }).click()
  await page.getByRole('button', { name: 'Refuse' }).click()
  await expect(page).toHaveURL(new RegExp(`^${APP}/callback/login-error\\?error=`))
  await expect(page.getByRole('alert')).not.toBeEmpty()
  expect((await context.cookies(APP)).some((c) => c.name === 'wt_session')).toBe(false)
})
