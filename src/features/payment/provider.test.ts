import { describe, expect, it } from 'vitest'
import {
  constantTimeEqual,
  sandboxProvider,
  sandboxWebhook,
  signSandbox,
  verifySandboxSignature,
  SIGNATURE_TOLERANCE_SECONDS,
} from './provider.ts'

const now = new Date('2026-03-01T10:00:00.000Z')
const t = Math.floor(now.getTime() / 1000)
const body = '{"id":"evt_1"}'

describe('Sandbox-Signature (Stripe-style HMAC with timestamp)', () => {
  it('accepts its own signature and refuses another secret, body or tampered hex', async () => {
    const header = await signSandbox('secret', body, t)
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(await verifySandboxSignature('secret', header, body, now)).toBe(true)
    expect(await verifySandboxSignature('other', header, body, now)).toBe(false)
    expect(await verifySandboxSignature('secret', header, body + ' ', now)).toBe(false)
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0')
    expect(await verifySandboxSignature('secret', flipped, body, now)).toBe(false)
  })
  it('binds the timestamp: changing t breaks the signature', async () => {
    const header = await signSandbox('secret', body, t)
    expect(await verifySandboxSignature('secret', header.replace(`t=${t}`, `t=${t + 1}`), body, now)).toBe(false)
  })
  it(`refuses timestamps more than ${SIGNATURE_TOLERANCE_SECONDS} s old or ahead`, async () => {
    const old = await signSandbox('secret', body, t - SIGNATURE_TOLERANCE_SECONDS - 1)
    const edge = await signSandbox('secret', body, t - SIGNATURE_TOLERANCE_SECONDS)
    const ahead = await signSandbox('secret', body, t + SIGNATURE_TOLERANCE_SECONDS + 1)
    expect(await verifySandboxSignature('secret', old, body, now)).toBe(false)
    expect(await verifySandboxSignature('secret', edge, body, now)).toBe(true)
    expect(await verifySandboxSignature('secret', ahead, body, now)).toBe(false)
  })
  it('accepts one good v1 among several (secret rotation) and refuses malformed headers', async () => {
    const good = await signSandbox('secret', body, t)
    const v1 = good.split('v1=')[1]!
    expect(await verifySandboxSignature('secret', `t=${t},v1=${'0'.repeat(64)},v1=${v1}`, body, now)).toBe(true)
    for (const bad of [
      undefined,
      '',
      'garbage',
      `t=${t}`,
      `v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=${t},v1=${v1.toUpperCase()}`,
      'x'.repeat(2000),
    ]) {
      expect(await verifySandboxSignature('secret', bad, body, now)).toBe(false)
    }
    expect(await verifySandboxSignature('', good, body, now)).toBe(false)
  })
  it('compares in constant time over the full length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true)
    expect(constantTimeEqual('abc', 'abd')).toBe(false)
    expect(constantTimeEqual('abc', 'abcd')).toBe(false)
    expect(constantTimeEqual('', '')).toBe(true)
  })
})

describe('the sandbox provider', () => {
  it('checks out on our own site', async () => {
    expect(
      (await sandboxProvider('s').createCheckout({ id: 'pay_ab', amount: 1, currency: 'EUR', coins: 1, bonus: 0 }, 'http://127.0.0.1:8787'))
        .checkoutUrl,
    ).toBe('http://127.0.0.1:8787/shop/checkout/pay_ab')
  })
  it('reads back the event it signed, and nothing from an unsigned or malformed one', async () => {
    const hook = await sandboxWebhook(
      's',
      { id: 'evt_1', type: 'checkout.completed', paymentId: 'pay_ab', amount: 1499, currency: 'EUR' },
      now,
    )
    const header = (n: string) => (n.toLowerCase() === 'sandbox-signature' ? hook.headers['Sandbox-Signature'] : undefined)
    expect(await sandboxProvider('s').verifyWebhook(hook.body, header, now)).toEqual({
      id: 'evt_1',
      type: 'checkout.completed',
      paymentId: 'pay_ab',
      amount: 1499,
      currency: 'EUR',
    })
    expect(await sandboxProvider(undefined).verifyWebhook(hook.body, header, now)).toBeNull()
    expect(await sandboxProvider('s').verifyWebhook(hook.body, () => undefined, now)).toBeNull()
    const notJson = 'not json'
    const signed = await signSandbox('s', notJson, t)
    expect(await sandboxProvider('s').verifyWebhook(notJson, () => signed, now)).toBeNull()
    const other = JSON.stringify({ id: 'evt_1', type: 'charge.refunded', data: { paymentId: 'pay_ab', amount: 1, currency: 'EUR' } })
    const otherSig = await signSandbox('s', other, t)
    expect(await sandboxProvider('s').verifyWebhook(other, () => otherSig, now)).toBeNull()
  })
})
