/**
 * Account transfer on real workerd + D1 (spec §2 /transfer/*, §4): start, consent (code by mail), redeem on the new
 * device (FINISH), once per account, not cancellable after it proceeds; absent on editions without the feature.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { appFor, frEdition, frMessages, request } from './app.ts'
import { bearer, expectError, makeUser, outboxFor, read, tokensFor, app as frApp } from './account.helpers.ts'

const app = appFor({ ...frEdition, features: { ...frEdition.features, transfer: true } }, frMessages)
const call = (method: string, path: string, token?: string, body?: unknown) =>
  request(app, path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

beforeAll(async () => {
  await seedDemo(env.DB)
})

async function codeOf(email: string) {
  const [mail] = await outboxFor(email, 'transfer-code')
  return /\b([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\b/.exec(mail?.body ?? '')?.[1]
}

describe('account transfer', () => {
  it('start → consent (code mailed) → redeem on the new device → FINISH; once per account', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data.status).toBeNull()
    expect((await read(await call('POST', '/api/v1/user/transfer/start', t.accessToken.value))).data.status).toBe('START')
    await expectError(await call('POST', '/api/v1/user/transfer/request', t.accessToken.value, { agree: false }), 400, 'INVALID_PARAMETER')
    expect(await outboxFor(user.email, 'transfer-code')).toHaveLength(0)
    const req = await read(await call('POST', '/api/v1/user/transfer/request', t.accessToken.value, { agree: true }))
    expect(req.data).toMatchObject({ status: 'REQUEST', sent: true })
    const code = (await codeOf(user.email))!
    expect(code).toBeTruthy()
    // not cancellable, not restartable once it proceeded
    await expectError(await call('DELETE', '/api/v1/user/transfer', t.accessToken.value), 409, 'ALREADY_USED_ANOTHER_PLATFORM')
    await expectError(await call('POST', '/api/v1/user/transfer/start', t.accessToken.value), 409, 'ALREADY_USED_ANOTHER_PLATFORM')
    // a wrong code changes nothing
    await expectError(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code: 'AAAA-BBBB-CCCC' }), 404, 'NOT_FOUND_USER')
    const redeemed = await read(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code: code.toLowerCase() }))
    expect(redeemed.data.userId).toBe(user.id)
    expect((await read(await call('GET', '/api/v1/user/me', redeemed.data.accessToken.value))).data.user.email).toBe(user.email)
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data.status).toBe('FINISH')
    // single use
    await expectError(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code }), 404, 'NOT_FOUND_USER')
    await expectError(await call('POST', '/api/v1/user/transfer/start', t.accessToken.value), 409, 'ALREADY_USED_ANOTHER_PLATFORM')
  })

  it('can be cancelled while START; an expired code does not redeem', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await call('POST', '/api/v1/user/transfer/start', t.accessToken.value)
    expect((await read(await call('DELETE', '/api/v1/user/transfer', t.accessToken.value))).data.status).toBeNull()
    await call('POST', '/api/v1/user/transfer/start', t.accessToken.value)
    await call('POST', '/api/v1/user/transfer/request', t.accessToken.value, { agree: true })
    const code = (await codeOf(user.email))!
    await env.DB.prepare('UPDATE account_transfers SET code_expires_at = ? WHERE user_id = ?')
      .bind(new Date(Date.now() - 1).toISOString(), user.id)
      .run()
    await expectError(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code }), 404, 'NOT_FOUND_USER')
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data).toMatchObject({
      status: 'ERROR',
      errorReason: 'EXPIRED',
    })
    // from ERROR the reader starts again
    expect((await read(await call('POST', '/api/v1/user/transfer/start', t.accessToken.value))).data).toMatchObject({
      status: 'START',
      errorReason: null,
    })
  })

  it('the 5th wrong code ends the transfer in ERROR (EXCEED_AUTH_COUNT); the reader starts again and a new code works', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await call('POST', '/api/v1/user/transfer/start', t.accessToken.value)
    await call('POST', '/api/v1/user/transfer/request', t.accessToken.value, { agree: true })
    const code = (await codeOf(user.email))!
    const wrong = (i: number) => `${code.slice(0, 4)}-${code.slice(5, 9) === 'ZZZZ' ? 'YYYY' : 'ZZZZ'}-ZZZ${i + 2}`
    for (let i = 0; i < 4; i++)
      await expectError(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code: wrong(i) }), 404, 'NOT_FOUND_USER')
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data.status).toBe('REQUEST')
    await expectError(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code: wrong(4) }), 409, 'EXCEED_AUTH_COUNT')
    // the right code is dead too
    await expectError(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code }), 404, 'NOT_FOUND_USER')
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data).toMatchObject({
      status: 'ERROR',
      errorReason: 'ATTEMPTS',
    })
    await call('POST', '/api/v1/user/transfer/start', t.accessToken.value)
    await call('POST', '/api/v1/user/transfer/request', t.accessToken.value, { agree: true })
    const mails = await outboxFor(user.email, 'transfer-code')
    expect(mails).toHaveLength(2)
    const again = (await codeOf(user.email))!
    expect(again).not.toBe(code)
    expect((await read(await call('POST', '/api/v1/user/transfer/redeem', undefined, { code: again }))).data.userId).toBe(user.id)
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data).toMatchObject({
      status: 'FINISH',
      errorReason: null,
    })
  })

  it('needs a reader, and does not exist on editions without the feature', async () => {
    await expectError(await call('POST', '/api/v1/user/transfer/start'), 401, 'NOT_LOGIN_USER')
    const t = await tokensFor((await makeUser()).email)
    await expectError(
      await request(frApp, '/api/v1/user/transfer/start', { method: 'POST', headers: bearer(t.accessToken.value) }),
      404,
      'NOT_EXIST',
    )
  })

  it('plain forms: start → confirm → status; an account that proceeded goes to the wrong page', async () => {
    const user = await makeUser()
    const res = await request(app, '/api/v1/auth/web/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
      body: new URLSearchParams({ email: user.email, password: 'Reader-2026!' }).toString(),
    })
    const cookie = `wt_session=${/wt_session=([^;]*)/.exec(res.headers.get('set-cookie')!)![1]}`
    const post = (path: string, fields: Record<string, string> = {}) =>
      request(app, path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', cookie },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      })
    expect((await post('/api/v1/user/web/transfer/start')).headers.get('location')).toBe('/transfer/apply/confirm')
    expect((await post('/api/v1/user/web/transfer/request')).headers.get('location')).toBe(
      '/transfer/apply/confirm?error=INVALID_PARAMETER',
    )
    expect((await post('/api/v1/user/web/transfer/request', { agree: 'on' })).headers.get('location')).toBe('/transfer/apply/status')
    expect((await post('/api/v1/user/web/transfer/start')).headers.get('location')).toBe('/transfer/apply/wrong')
    expect((await post('/api/v1/user/web/transfer/cancel')).headers.get('location')).toBe('/transfer/apply/wrong')
  })
})
