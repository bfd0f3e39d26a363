import { describe, expect, it } from 'vitest'
import { LogBody, logLine } from './logger.ts'

const LINE = {
  logType: 'ERROR',
  platform: 'IOS_APP',
  date: '2026-11-27T05:00:00+09:00',
  url: 'https://kr.bomtoon.example/viewer/3',
  action: 'purchase.fail',
  data: { code: 'COIN_INSUFFICIENT' },
}

describe('LogBody (spec §7 Logger)', () => {
  it('takes the spec fields, ip and data optional', () => {
    expect(LogBody.parse(LINE)).toEqual(LINE)
    expect(LogBody.safeParse({ ...LINE, ip: '203.0.113.9', data: undefined }).success).toBe(true)
  })

  it('refuses an unknown platform, a date that is not ISO 8601, a missing action, an unbounded type', () => {
    for (const bad of [
      { ...LINE, platform: 'ANDROID' },
      { ...LINE, date: 'yesterday' },
      { ...LINE, action: '' },
      { ...LINE, logType: 'x'.repeat(33) },
      { ...LINE, logType: 'a b' },
      { ...LINE, url: 'u'.repeat(2049) },
    ])
      expect(LogBody.safeParse(bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false)
  })
})

describe('logLine', () => {
  it('is one JSON object: what the client sent, then what the server knows of the call', () => {
    const line = logLine(LogBody.parse(LINE), { requestId: 'r-1', edition: 'kr', address: '198.51.100.7', at: '2026-11-27T00:00:00.000Z' })
    expect(line).not.toContain('\n')
    expect(JSON.parse(line)).toEqual({
      source: 'client-log',
      ...LINE,
      requestId: 'r-1',
      edition: 'kr',
      address: '198.51.100.7',
      receivedAt: '2026-11-27T00:00:00.000Z',
    })
  })
})
