import { describe, expect, it } from 'vitest'
import { resumeTarget } from './resume.ts'

describe('resumeTarget (issue 25 §5)', () => {
  it('resumes an episode where the reader stopped', () => {
    expect(resumeTarget({ episodeId: 12, episodeNo: 3, position: 0.4, nextEpisodeId: 13 })).toEqual({
      href: '/viewer/12?p=0.4',
      no: 3,
      next: false,
    })
    expect(resumeTarget({ episodeId: 12, episodeNo: 3, position: 0, nextEpisodeId: 13 })).toEqual({
      href: '/viewer/12',
      no: 3,
      next: false,
    })
  })

  it('offers the next episode once one is finished, and the start of the last one when none follows', () => {
    expect(resumeTarget({ episodeId: 12, episodeNo: 3, position: 0.98, nextEpisodeId: 13 })).toEqual({
      href: '/viewer/13',
      no: 4,
      next: true,
    })
    expect(resumeTarget({ episodeId: 12, episodeNo: 3, position: 1, nextEpisodeId: null })).toEqual({
      href: '/viewer/12',
      no: 3,
      next: false,
    })
  })
})
