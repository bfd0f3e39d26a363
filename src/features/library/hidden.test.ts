import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { HiddenRequest, libraryPageAfter } from './hidden.ts'

describe('libraryPageAfter', () => {
  it('goes back to the library page the form came from, saying what happened', () => {
    expect(libraryPageAfter('recent', { hidden: 12 })).toBe('/library/recent?hidden=12')
    expect(libraryPageAfter('hidden', { shown: true })).toBe('/library/hidden?shown=1')
    expect(libraryPageAfter('favorite', { error: 'NOT_EXIST' })).toBe('/library/favorite?error=NOT_EXIST')
  })

  it('never leaves the library, whatever the form said its page was', () => {
    fc.assert(
      fc.property(fc.anything(), (from) => {
        expect(libraryPageAfter(from, { error: 'INVALID_PARAMETER' })).toMatch(
          /^\/library\/(my|favorite|recent|hidden)\?error=INVALID_PARAMETER$/,
        )
      }),
    )
    expect(libraryPageAfter('//evil.example', { hidden: 1 })).toBe('/library/my?hidden=1')
  })
})

describe('HiddenRequest', () => {
  it('takes a series id and a yes/no, nothing else', () => {
    expect(HiddenRequest.parse({ seriesId: 3, hidden: true })).toEqual({ seriesId: 3, hidden: true })
    for (const bad of [
      { seriesId: 0, hidden: true },
      { seriesId: 3, hidden: 'true' },
      { seriesId: 3 },
      { seriesId: 3, hidden: false, userId: 1 },
      { seriesId: 2 ** 53, hidden: true },
      { seriesId: 1.5, hidden: true },
    ])
      expect(HiddenRequest.safeParse(bad).success).toBe(false)
  })
})
