/** The pure rules of uploads into a running series: `episode.json`, the add request, the keys of a replaced slice. */
import { describe, expect, it } from 'vitest'
import {
  EpisodeAddRequest,
  EpisodeManifest,
  episodeKeyOf,
  importKeySeries,
  replacedSliceKey,
  sliceJobs,
  sliceRenditionKeys,
} from './series-import.ts'

describe('episode.json (EpisodeManifest)', () => {
  it('is an episode of series.json with its number optional, under the same rules', () => {
    const next = EpisodeManifest.parse({ title: 'Douze', free: true, images: ['1.png'] })
    expect(next.no).toBeUndefined()
    expect(next).toMatchObject({ priceRent: null, priceBuy: null, images: ['1.png'] })
    expect(EpisodeManifest.parse({ no: 12, title: 'Douze', priceBuy: 4, images: ['1.png'] }).no).toBe(12)
    const paths = (raw: unknown) => (EpisodeManifest.safeParse(raw).error?.issues ?? []).map((i) => i.path.join('.'))
    expect(paths({ title: 'x', images: ['1.png'] })).toEqual(['priceRent'])
    expect(paths({ title: 'x', free: true, images: ['1.png'], alt: [] })).toEqual(['alt'])
    expect(paths({ title: 'x', free: true, images: ['../1.png'] })).toEqual(['images.0'])
    expect(paths({ no: 0, title: 'x', free: true, images: ['1.png'] })).toEqual(['no'])
  })

  it('the add request needs one size per image', () => {
    const episode = { title: 'x', free: true, images: ['1.png', '2.png'] }
    const size = { width: 800, height: 1000 }
    expect(EpisodeAddRequest.safeParse({ episode, sizes: [size, size], reason: 'r' }).success).toBe(true)
    expect(EpisodeAddRequest.safeParse({ episode, sizes: [size], reason: 'r' }).error?.issues[0]?.path).toEqual(['sizes'])
  })
})

describe('keys of a running series', () => {
  it("a new episode's slices use the import's scheme", () => {
    expect(sliceJobs(45, 12, ['a.png', 'b.png']).map((j) => j.prefix)).toEqual(['series/45/ep/12/1', 'series/45/ep/12/2'])
    expect(sliceRenditionKeys('series/45/ep/12/1')).toEqual([
      'series/45/ep/12/1/640.webp',
      'series/45/ep/12/1/828.webp',
      'series/45/ep/12/1/1080.webp',
    ])
  })

  it('a replaced slice gets a new prefix per replacement, which the upload route reads back', () => {
    const at = new Date('2026-11-29T02:00:00.000Z')
    const key = replacedSliceKey(45, 12, 2, at)
    expect(key).toBe(`series/45/ep/12/2-${at.getTime().toString(36)}`)
    expect(replacedSliceKey(45, 12, 2, new Date(at.getTime() + 1))).not.toBe(key)
    expect(episodeKeyOf(`${key}/640.webp`)).toEqual({ seriesId: 45, no: 12 })
    expect(episodeKeyOf('series/45/ep/12/2/640.webp')).toEqual({ seriesId: 45, no: 12 })
    for (const bad of ['series/45/ep/12/2-X/640.webp', 'series/45/ep/0/2/640.webp', 'covers/45/256.webp', 'series/45/ep/12/../640.webp'])
      expect(episodeKeyOf(bad), bad).toBeNull()
    // the import's route never takes a replaced slice's key
    expect(importKeySeries(`${key}/640.webp`)).toBeNull()
  })
})
