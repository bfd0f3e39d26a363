import { describe, expect, it } from 'vitest'
import { generateTransferCode, nextTransferStatus, normaliseTransferCode, transferLocator } from './transfer.ts'

describe('account transfer transitions (spec §4)', () => {
  it('starts once per account and can be retried after an error', () => {
    expect(nextTransferStatus(null, 'start')).toEqual({ status: 'START' })
    expect(nextTransferStatus('START', 'start')).toEqual({ status: 'START' })
    expect(nextTransferStatus('ERROR', 'start')).toEqual({ status: 'START' })
    expect(nextTransferStatus('REQUEST', 'start')).toEqual({ error: 'ALREADY_USED_ANOTHER_PLATFORM' })
    expect(nextTransferStatus('FINISH', 'start')).toEqual({ error: 'ALREADY_USED_ANOTHER_PLATFORM' })
  })
  it('cannot be cancelled after it proceeds', () => {
    expect(nextTransferStatus('START', 'cancel')).toEqual({ status: null })
    expect(nextTransferStatus('REQUEST', 'cancel')).toEqual({ error: 'ALREADY_USED_ANOTHER_PLATFORM' })
    expect(nextTransferStatus('FINISH', 'cancel')).toEqual({ error: 'ALREADY_USED_ANOTHER_PLATFORM' })
    expect(nextTransferStatus(null, 'cancel')).toEqual({ error: 'NOT_EXIST' })
  })
  it('requests from START only and finishes from REQUEST only', () => {
    expect(nextTransferStatus('START', 'request')).toEqual({ status: 'REQUEST' })
    expect(nextTransferStatus(null, 'request')).toEqual({ error: 'INVALID_PARAMETER' })
    expect(nextTransferStatus('REQUEST', 'finish')).toEqual({ status: 'FINISH' })
    expect(nextTransferStatus('START', 'finish')).toEqual({ error: 'INVALID_PARAMETER' })
  })
  it('a requested transfer fails to ERROR (wrong codes, expiry), from which the reader starts again', () => {
    expect(nextTransferStatus('REQUEST', 'fail')).toEqual({ status: 'ERROR' })
    for (const other of [null, 'START', 'FINISH', 'ERROR'] as const)
      expect(nextTransferStatus(other, 'fail')).toEqual({ error: 'INVALID_PARAMETER' })
    expect(nextTransferStatus('ERROR', 'start')).toEqual({ status: 'START' })
    expect(nextTransferStatus('ERROR', 'cancel')).toEqual({ status: null })
  })
  it('codes are 12 unambiguous characters and read back as typed', () => {
    const code = generateTransferCode()
    expect(code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{12}$/) // no I, O, 0 or 1
    expect(normaliseTransferCode(`${code.slice(0, 4).toLowerCase()}-${code.slice(4, 8)} ${code.slice(8)}`)).toBe(code)
    expect(transferLocator(code)).toBe(code.slice(0, 4))
    expect(normaliseTransferCode('ABCD-EFGH-IJK0')).toBeNull() // I and 0 are not in the alphabet
  })
})
