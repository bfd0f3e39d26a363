/**
 * One phone number, one bucket (issue 26 point 2), on real workerd + D1 through the app's router: numbers are
 * read with libphonenumber-js in the edition's country (fr: FR) and kept as E.164, so the ways of writing one
 * number share one live code and one daily limit; numbers that are not mobile numbers get no SMS.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { expectError, json, outboxFor, read } from './account.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const send = (phone: string) => json('POST', '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone })

describe('one phone number, one bucket', () => {
  it('+33…, 33…, 0033… and 0… of one mobile number: one live code, the others ALREADY_SEND_SMS', async () => {
    const [first, ...others] = ['+33 6 98 76 54 32', '33698765432', '0033698765432', '06 98 76 54 32']
    const sent = await read(await send(first!))
    expect(sent).toMatchObject({ result: 'SUCCESS', data: { sent: true } })
    for (const phone of others) await expectError(await send(phone), 409, 'ALREADY_SEND_SMS')
    expect(await outboxFor('+33698765432')).toHaveLength(1)
    const codes = await env.DB.prepare(`SELECT target FROM one_time_codes WHERE kind = 'SMS' AND target LIKE '%698765432'`).all<{
      target: string
    }>()
    expect(codes.results.map((r) => r.target)).toEqual(['+33698765432'])
  })

  it('the daily limit counts every form of the number together', async () => {
    const forms = ['+33698765400', '33698765400', '0033698765400', '0698765400', '+33 6 98 76 54 00', '06.98.76.54.00']
    for (const [i, phone] of forms.entries()) {
      // the previous code is spent (as after a verification), so only the daily limit can refuse
      await env.DB.prepare(`UPDATE one_time_codes SET used_at = ? WHERE kind = 'SMS' AND target = '+33698765400'`)
        .bind(new Date().toISOString())
        .run()
      const res = await send(phone)
      if (i < 5) expect((await read(res)).result, phone).toBe('SUCCESS')
      else await expectError(res, 409, 'EXCEED_AUTH_COUNT')
    }
    expect(await outboxFor('+33698765400')).toHaveLength(5)
  })

  it('refuses what is not a mobile number (landline, premium, the overseas +33 697 range, garbage): no SMS', async () => {
    for (const phone of ['01 42 34 56 78', '+33899123456', '+33697226223', '0697226223', '12345678', '+1 555 0100']) {
      await expectError(await send(phone), 400, 'INVALID_PARAMETER')
    }
    expect(await outboxFor('+33142345678')).toHaveLength(0)
  })
})
