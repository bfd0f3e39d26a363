import { describe, expect, it } from 'vitest'
import { BoundedMap } from './bounded-map.ts'

describe('BoundedMap', () => {
  it('keeps up to its bound, changes a kept key in place, and starts again empty past it', () => {
    const m = new BoundedMap<string, number>(2)
    m.set('a', 1).set('b', 2).set('a', 3)
    expect([...m]).toEqual([
      ['a', 3],
      ['b', 2],
    ])
    m.set('c', 4)
    expect([...m]).toEqual([['c', 4]])
  })
})
