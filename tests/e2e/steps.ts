import type { Page, TestInfo } from '@playwright/test'
import { execFile } from 'node:child_process'
import { quietEnv, root } from '../../scripts/lib.ts'
import { messagesOf } from './journey.ts'
import { PASSWORD } from './viewer.helpers.ts'

/** Steps shared by the edition suites (alarm.ts, alarm-send.ts, library-hidden.ts, wayback.ts): labels in the edition's language. */

/** Signs in through the login form of edition `id` (an account of viewer.helpers.ts's newAccount by default) and waits to leave it. */
export async function signIn(page: Page, id: string, email: string, password = PASSWORD) {
  const t = messagesOf(id)
  await page.goto('/user/login')
  await page.getByLabel(t('auth.login.email')).fill(email)
  await page.getByLabel(t('auth.login.password')).fill(password)
  await page.getByRole('button', { name: t('auth.login.submit') }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'))
}

/** The phone viewport the suites read at. */
export const PHONE = { width: 390, height: 844 }

/** A browser context that is a phone: its viewport, touch, and a dense screen. */
export const PHONE_CONTEXT = { viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }

/**
 * Screenshots of the page at 390 and 1280 px from its top, attached to the report as `<name>-<width>`: the full page
 * at 390 px and the first screen at 1280 px, unless `fullPage` says for both; the viewport is then `after` if given,
 * else left at 1280 px.
 */
export async function shoot(
  page: Page,
  info: TestInfo,
  name: string,
  opts: { fullPage?: boolean; after?: { width: number; height: number } } = {},
) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.evaluate(() => scrollTo(0, 0))
    await page.waitForTimeout(200)
    const fullPage = opts.fullPage ?? width === 390
    await info.attach(`${name}-${width}`, { body: await page.screenshot({ fullPage }), contentType: 'image/png' })
  }
  if (opts.after) await page.setViewportSize(opts.after)
}

/** `node scripts/ops.ts …` against the edition at `baseURL`, as an operator runs it (a local run: its own token, no --yes). */
export function ops(baseURL: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...quietEnv, OPS_URL: baseURL }
  delete env.OPS_TOKEN
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/ops.ts', ...args], { cwd: root, env }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}
