import { describe, expect, it } from 'vitest'
import { sandboxProvider, sandboxWebhook } from './provider.ts'
import { constantTimeEqual } from '../../lib/secrets.ts'

/** A webhook's signed timestamp may be 5 minutes off, either way. */
const SIGNATURE_TOLERANCE_SECONDS = 5 * 60

const now = new Date('2026-03-01T10:00:00.000Z')
const t = Math.floor(now.getTime() / 1000)
const event = { id: 'evt_1', type: 'checkout.completed', paymentId: 'pay_1', amount: 500, currency: 'EUR' } as const
/** The body the sandbox checkout sends for `event`. */
const body = JSON.stringify({ id: event.id, type: event.type, data: { paymentId: 'pay_1', amount: 500, currency: 'EUR' } })

/**
 * A Stripe-style `Sandbox-Signature` of any body at unix second `at` — `t=<at>,v1=<HMAC-SHA256 hex of "at.body">` —
 * as a sender holding the secret makes it (the sandbox checkout's own header is checked equal below).
 */
async function signSandbox(secret: string, signedBody: string, at: number): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${at}.${signedBody}`)))
  return `t=${at},v1=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}
/** Whether the sandbox provider accepts a webhook of `rawBody` with this `Sandbox-Signature` header at `at`. */
async function verifySandboxSignature(secret: string, header: string | undefined, rawBody: string, at: Date): Promise<boolean> {
  const accepted = await sandboxProvider(secret).verifyWebhook(rawBody, (name) => (name === 'Sandbox-Signature' ? header : undefined), at)
  if (accepted) expect(accepted).toMatchObject({ id: 'evt_1', paymentId: 'pay_1' })
  return accepted !== null
}

describe('Sandbox-Signature (Stripe-style HMAC with timestamp)', () => {
  it('accepts its own signature and refuses another secret, body or tampered hex', async () => {
    const header = await signSandbox('secret', body, t)
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(await sandboxWebhook('secret', event, now)).toEqual({
      body,
      headers: { 'content-type': 'application/json', 'Sandbox-Signature': header },
    })
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
