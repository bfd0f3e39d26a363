import { describe, expect, it } from 'vitest'
import { expiredSliceEpisode } from './client.ts'

describe('expiredSliceEpisode', () => {
  const url = (exp: number) => `/api/v1/viewer/42/slice/3?w=640&exp=${exp}&k=series%2F1%2Fep%2F2%2F3&sig=${'A'.repeat(43)}`
  const now = Date.parse('2026-11-25T12:00:00.000Z')

  it("names the episode of a reader's signed URL once its expiry has passed, so the viewer asks for fresh ones", () => {
    expect(expiredSliceEpisode(url(now / 1000), now)).toBe(42)
    expect(expiredSliceEpisode(url(now / 1000 - 60), now)).toBe(42)
  })

  it('leaves alone an unexpired URL and public /media ones (their failure is a real one: the retry control)', () => {
    expect(expiredSliceEpisode(url(now / 1000 + 1), now)).toBeNull()
    expect(expiredSliceEpisode(`/media/series/1/ep/1/1/640.webp?s=${'A'.repeat(43)}`, now)).toBeNull()
    expect(expiredSliceEpisode('/api/v1/viewer/42/slice/3?w=640', now)).toBeNull()
  })
})
