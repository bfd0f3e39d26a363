import { describe, expect, it } from 'vitest'
import { ageOn, sign, verify } from './carrier.ts'

describe('carrier signatures', () => {
  it('verifies its own signature and refuses any change, another label or another secret', async () => {
    const signed = await sign('s'.repeat(32), 'result', { phone: '+821012345678' })
    expect(await verify('s'.repeat(32), 'result', signed)).toEqual({ phone: '+821012345678' })
    expect(await verify('s'.repeat(32), 'request', signed)).toBeNull()
    expect(await verify('t'.repeat(32), 'result', signed)).toBeNull()
    const other = await sign('s'.repeat(32), 'result', { phone: '+821099999999' })
    expect(await verify('s'.repeat(32), 'result', { data: other.data, mac: signed.mac })).toBeNull()
    expect(await verify('s'.repeat(32), 'result', { data: signed.data, mac: 'not base64!' })).toBeNull()
  })
  it('counts full years', () => {
    expect(ageOn('2008-11-23', new Date('2026-11-22T12:00:00Z'))).toBe(17)
    expect(ageOn('2008-11-22', new Date('2026-11-22T12:00:00Z'))).toBe(18)
  })
})
