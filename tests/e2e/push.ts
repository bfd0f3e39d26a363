import { expect, test, type Page } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { signedIn } from './settings.ts'
import { PHONE, shoot } from './steps.ts'
import { e2ePushPort, startPushService, type PushSubscriptionJson } from '../../scripts/push-service.ts'

/**
 * Issue 13 point 2, shared by push.fr.spec.ts and push.ar.spec.ts: on /setting/push a signed-in reader turns Web
 * Push on for this browser (the notification permission granted, as a reader would on the browser's prompt), the
 * subscription is stored (a reload still shows it on), a test push reaches the browser's push service encrypted for
 * this browser, and the reader turns it off again (no push goes out any more).
 * Headless Chromium has no push service, so `PushManager.subscribe` is the one browser part stood in for: it answers
 * the subscription the local push service made (scripts/push-service.ts, where the edition's server sends its pushes:
 * real P-256 keys, decrypted there); the permission, the service worker's registration and the route are real.
 * Screenshots at 390 and 1280 px.
 */
async function standInPushService(page: Page, json: PushSubscriptionJson) {
  await page.addInitScript((json) => {
    const make = () => ({
      endpoint: json.endpoint,
      toJSON: () => json,
      unsubscribe: async () => (localStorage.removeItem('e2e-push'), true),
    })
    PushManager.prototype.subscribe = async function () {
      localStorage.setItem('e2e-push', '1')
      return make() as unknown as PushSubscription
    }
    PushManager.prototype.getSubscription = async function () {
      return (localStorage.getItem('e2e-push') ? make() : null) as unknown as PushSubscription
    }
  }, json)
}
export function pushSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)

  test.describe(`${id}: Web Push on this device`, () => {
    test('the button subscribes this browser, and unsubscribes it', async ({ browser, baseURL }, info) => {
      test.setTimeout(90_000)
      const page = await signedIn(browser, baseURL!)
      await page.context().grantPermissions(['notifications'], { origin: baseURL! })
      const service = await startPushService({ port: e2ePushPort(Number(new URL(baseURL!).port)) })
      try {
        const subscription = service.subscribe('e2e')
        await standInPushService(page, subscription)
        const headers = { origin: baseURL! }
        const all = { isAgreePush: true, isAgreePushNight: true, isAgreePushFreetime: true, isAgreePushContents: true }
        expect((await page.request.put('/api/v1/app/push', { data: all, headers })).status()).toBe(200)
        const testPush = async () =>
          (
            await (
              await page.request.post('/api/v1/app/push/test', { data: { kind: 'notice', title: 'Test', body: '', url: '/my' }, headers })
            ).json()
          ).data
        await page.goto('/setting/push')
        await expect(page.locator('html')).toHaveAttribute('dir', id === 'ar' ? 'rtl' : 'ltr')
        const on = page.getByRole('button', { name: t('account.push.deviceOn') })
        const status = page.locator('[data-push-status]')
        await expect(on).toBeVisible()
        expect((await on.boundingBox())!.height).toBeGreaterThanOrEqual(44)
        await on.focus()
        await page.keyboard.press('Enter')
        await expect(status).toHaveText(t('account.push.deviceSubscribed'), { timeout: 20_000 })
        const off = page.getByRole('button', { name: t('account.push.deviceOff') })
        await expect(off).toBeFocused()
        await noSeriousViolations(page)
        await shoot(page, info, `push-on-${id}`, { fullPage: true, after: PHONE })

        await page.reload()
        await expect(off).toBeVisible()
        await expect(status).toHaveText(t('account.push.deviceSubscribed'))
        expect(await testPush()).toEqual({ status: 'sent', delivered: 1, removed: 0, failed: [] })
        const path = new URL(subscription.endpoint).pathname
        const pushes = () => service.received.filter((r) => r.path === path)
        expect(pushes()).toHaveLength(1)
        expect(pushes()[0]).toMatchObject({
          encoding: 'aes128gcm',
          vapid: { aud: 'https://fcm.googleapis.com', signatureValid: true },
          payload: { kind: 'notice', title: 'Test', body: '', url: '/my' },
        })
        await off.click()
        await expect(status).toHaveText(t('account.push.deviceUnsubscribed'))
        await expect(on).toBeVisible()
        await page.reload()
        await expect(on).toBeVisible()
        await expect(status).toHaveText('')
        expect(await testPush()).toEqual({ status: 'skipped', reason: 'no-subscription' })
        expect(pushes()).toHaveLength(1)
        await page.context().close()
      } finally {
        await service.close() // a retry binds the same port
      }
    })
  })
}
