import { describe, expect, it } from 'vitest'
import { idempotencyOutcome, isIdempotencyKey, requestHash } from './idempotency.ts'

describe('Idempotency-Key (docs/API.md: 1–255 chars)', () => {
  it('accepts 1 to 255 visible characters only', () => {
    expect(isIdempotencyKey('a')).toBe(true)
    expect(isIdempotencyKey('x'.repeat(255))).toBe(true)
    expect(isIdempotencyKey(crypto.randomUUID())).toBe(true)
    for (const bad of [undefined, null, '', 'x'.repeat(256), 'with space', 'tab\t', 'é']) expect(isIdempotencyKey(bad)).toBe(false)
  })

  it('hashes the same JSON the same however it is ordered or spaced, and binds the route', async () => {
    // nested objects' keys sorted, arrays kept in order: the hash is SHA-256 of the route and that canonical text
    const canonical = '{"a":{"c":null,"d":[2,1]},"b":1}'
    const sha256 = async (text: string) =>
      [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('')
    expect(await requestHash('POST /x', '{"b":1,"a":{"d":[2,1],"c":null}}')).toBe(await sha256(`POST /x\n${canonical}`))
    const a = await requestHash('POST /purchase', '{"kind":"RENT","episodeIds":[1,2]}')
    expect(await requestHash('POST /purchase', ' { "episodeIds": [1, 2], "kind": "RENT" } ')).toBe(a)
    expect(await requestHash('POST /purchase', '{"kind":"RENT","episodeIds":[2,1]}')).not.toBe(a)
    expect(await requestHash('POST /other', '{"kind":"RENT","episodeIds":[1,2]}')).not.toBe(a)
    expect(await requestHash('POST /purchase', 'not json')).toMatch(/^[0-9a-f]{64}$/)
  })

  it('turns the stored row into an outcome', () => {
    const claim = { userId: 1, key: 'k', scope: 's', requestHash: 'h' }
    expect(idempotencyOutcome(claim, null)).toEqual({ kind: 'created' })
    expect(idempotencyOutcome(claim, { scope: 's', requestHash: 'h', status: 200, body: '{}' })).toEqual({
      kind: 'exists',
      response: { status: 200, body: '{}' },
    })
    expect(idempotencyOutcome(claim, { scope: 's', requestHash: 'x', status: 200, body: '{}' })).toEqual({
      kind: 'exists_with_different_body',
    })
    expect(idempotencyOutcome(claim, { scope: 't', requestHash: 'h', status: 200, body: '{}' })).toEqual({
      kind: 'exists_with_different_body',
    })
  })
})
