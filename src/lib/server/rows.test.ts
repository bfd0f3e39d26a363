import { describe, expect, expectTypeOf, it } from 'vitest'
import { firstRow, flag, rows, type Cols, type Flag } from './rows.ts'

describe('typed rows', () => {
  it('Cols: the columns under their camelCase alias, typed as the migrations declare them', () => {
    expectTypeOf<Cols<'episodes', 'id' | 'series_id' | 'is_free' | 'price_rent' | 'content_type'>>().toEqualTypeOf<{
      id: number
      seriesId: number
      isFree: Flag
      priceRent: number | null
      contentType: 'IMAGE' | 'TEXT'
    }>()
    // a column the migrations do not declare (renamed, dropped, misspelt) fails the type check (npx tsc)
    // @ts-expect-error 'free' is not a column of episodes
    expectTypeOf<Cols<'episodes', 'free'>>().toBeObject()
  })

  it('flag() is the one 0/1 → boolean conversion (null: false)', () => {
    expect([flag(1), flag(0), flag(null), flag(undefined)]).toEqual([true, false, false, false])
  })

  it('rows() and firstRow() read one statement of a batch, empty when there is none', () => {
    const result = { results: [{ id: 7 }, { id: 8 }], success: true, meta: {} } as unknown as D1Result
    expect(rows<{ id: number }>(result)).toEqual([{ id: 7 }, { id: 8 }])
    expect(firstRow<{ id: number }>(result)).toEqual({ id: 7 })
    expect(rows(undefined)).toEqual([])
    expect(firstRow(undefined)).toBeUndefined()
  })
})
