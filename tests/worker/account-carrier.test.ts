/**
 * Korean carrier identity verification on real workerd + D1 (spec §2 /callback/auth-mobilians, §7 /nice/encode,
 * §8 "tampered with in transit"): the site's signed request, the sandbox carrier's signed result, and every
 * changed, forged, replayed or late result refused with nothing saved.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { bearer, db, expectError, freshPhone, json, makeUser, read, tokensFor } from './account.helpers.ts'
import { sandboxAnswer, startCarrier } from '../../src/features/account/carrier.server.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const encode = (token: string, purpose = 'PHONE') =>
  json('GET', `/api/v1/auth/carrier/encode?purpose=${purpose}&returnPath=%2Fsetting%2Fphone`, undefined, bearer(token))
const result = (fields: Record<string, string>) => json('POST', '/api/v1/auth/carrier/result', fields)
const identity = (phone: string, birthDate = '1990-04-01') => ({ name: '홍길동', phone, birthDate, carrier: 'SKT' as const })
const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const unb64 = (s: string) => JSON.parse(atob(s.replace(/-/g, '+').replace(/_/g, '/')))

async function userWithRequest(purpose = 'PHONE') {
  const user = await makeUser()
  const t = await tokensFor(user.email)
  const res = await read(await encode(t.accessToken.value, purpose))
  expect(res.data.action).toBe('/nice/sandbox')
  return { user, t, request: { data: res.data.fields.EncodeData as string, mac: res.data.fields.Mac as string } }
}
const phoneOf = (id: number) => db().prepare('SELECT phone FROM users WHERE id = ?').bind(id).first<string | null>('phone')

describe('carrier verification (sandbox provider)', () => {
  it('needs a signed-in reader to start', async () => {
    await expectError(await json('GET', '/api/v1/auth/carrier/encode?purpose=PHONE', undefined), 401, 'NOT_LOGIN_USER')
  })

  it('saves the verified phone once; the same result again is refused', async () => {
    const { user, request } = await userWithRequest()
    const phone = freshPhone()
    const fields = await sandboxAnswer(request, identity(phone))
    const ok = await read(await result(fields))
    expect(ok.data).toMatchObject({ purpose: 'PHONE', returnPath: '/setting/phone' })
    expect(await phoneOf(user.id)).toBe(phone)
    await expectError(await result(fields), 400, 'CARRIER_TAMPERED')
  })

  it('refuses a result changed in transit with the spec message, saving nothing', async () => {
    const { user, request } = await userWithRequest()
    const fields = await sandboxAnswer(request, identity(freshPhone()))
    const payload = unb64(fields.EncodeData!)
    const changed = { ...fields, EncodeData: b64({ ...payload, phone: '+821099999999' }) }
    const res = await result(changed)
    const body = await read(res.clone())
    await expectError(res, 400, 'CARRIER_TAMPERED')
    expect(body.message).toBe('Le résultat de la vérification a été modifié pendant la transmission. Veuillez recommencer la vérification.')
    // another reader's id slipped into the request: same refusal
    await expectError(
      await result({ ...fields, EncodeData: b64({ ...payload, request: { ...payload.request, userId: 1 } }) }),
      400,
      'CARRIER_TAMPERED',
    )
    await expectError(
      await result({ ...fields, Mac: fields.Mac!.slice(0, -2) + (fields.Mac!.endsWith('AA') ? 'BB' : 'AA') }),
      400,
      'CARRIER_TAMPERED',
    )
    await expectError(await result({ EncodeData: 'e30', Mac: '' }), 400, 'CARRIER_TAMPERED')
    expect(await phoneOf(user.id)).toBeNull()
  })

  it('the sandbox refuses a forged request', async () => {
    const { request } = await userWithRequest()
    await expect(
      sandboxAnswer({ data: b64({ ...unb64(request.data), userId: 1 }), mac: request.mac }, identity(freshPhone())),
    ).rejects.toMatchObject({ code: 'CARRIER_TAMPERED' })
  })

  it("a result after the request's 10 minutes is TIMEOUT", async () => {
    const user = await makeUser()
    const start = (await startCarrier(user.id, 'PHONE', '/my', new Date(Date.now() - 11 * 60_000)))!
    const fields = await sandboxAnswer({ data: start.fields.EncodeData!, mac: start.fields.Mac! }, identity(freshPhone()))
    await expectError(await result(fields), 410, 'TIMEOUT')
    expect(await phoneOf(user.id)).toBeNull()
  })

  it('ADULT_KR sets isAdultKr from the verified birth date (edition adult age)', async () => {
    const adult = await userWithRequest('ADULT_KR')
    expect((await read(await result(await sandboxAnswer(adult.request, identity(freshPhone(), '1990-01-01'))))).data.isAdultKr).toBe(true)
    expect((await read(await json('GET', '/api/v1/user/me', undefined, bearer(adult.t.accessToken.value)))).data.user.isAdultKr).toBe(true)
    const minor = await userWithRequest('ADULT_KR')
    const y = new Date().getUTCFullYear() - 10
    expect((await read(await result(await sandboxAnswer(minor.request, identity(freshPhone(), `${y}-01-01`))))).data.isAdultKr).toBe(false)
  })
})
