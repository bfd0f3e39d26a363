import { describe, expect, it } from 'vitest'
import { hasTranscript, parseTranscript, transcriptJson, transcriptText, type TranscriptLine } from './transcript.ts'
import { comicIssueLd, jsonLdText } from './seo.ts'

const LINES: TranscriptLine[] = [
  { kind: 'caption', text: 'Lundi, 7 h 30.' },
  { kind: 'speech', speaker: 'Léa', text: 'Un crème, comme d’habitude ?' },
  { kind: 'sfx', text: 'Tink' },
]

describe('slice transcripts', () => {
  it('round-trip through the D1 column; no lines is no transcript', () => {
    expect(parseTranscript(transcriptJson(LINES))).toEqual(LINES)
    expect(transcriptJson([])).toBeNull()
    expect(transcriptJson(undefined)).toBeNull()
    expect(parseTranscript(null)).toBeNull()
    expect(parseTranscript('[]')).toBeNull()
  })

  it('read a malformed stored value as no transcript, never as an error', () => {
    for (const raw of ['not json', '{"kind":"speech"}', '[{"kind":"shout","text":"AH"}]', '[{"kind":"speech","text":""}]', '[1]']) {
      expect(parseTranscript(raw), raw).toBeNull()
    }
  })

  it('give the text in reading order, slice after slice, with the speaker of each balloon', () => {
    const slices = [{ transcript: null }, { transcript: LINES.slice(0, 2) }, { transcript: LINES.slice(2) }]
    expect(hasTranscript(slices)).toBe(true)
    expect(hasTranscript([{ transcript: null }, {}])).toBe(false)
    expect(transcriptText(slices)).toBe('Lundi, 7 h 30.\nLéa: Un crème, comme d’habitude ?\nTink')
  })
})

describe('ComicIssue JSON-LD with a transcript', () => {
  const ep = { id: 42, no: 3, title: 'Épisode 3', seriesId: 7, seriesTitle: 'Un café pour deux', isFree: true, publishedAt: null }
  const opts = { siteUrl: 'https://fr.example/', locale: 'fr-FR' }

  it('declares the text alternative and carries the transcript in reading order', () => {
    const ld = JSON.parse(
      jsonLdText(comicIssueLd({ ...ep, slices: [{ transcript: LINES.slice(0, 1) }, { transcript: LINES.slice(1) }] }, opts)),
    )
    expect(ld).toMatchObject({
      '@type': 'ComicIssue',
      accessMode: ['visual', 'textual'],
      accessibilityFeature: ['alternativeText', 'transcript'],
      accessModeSufficient: [
        { '@type': 'ItemList', itemListElement: ['visual'] },
        { '@type': 'ItemList', itemListElement: ['textual'] },
      ],
      text: 'Lundi, 7 h 30.\nLéa: Un crème, comme d’habitude ?\nTink',
    })
  })

  it('stays as before for an episode without transcript, or a locked one (no slices)', () => {
    for (const e of [ep, { ...ep, slices: [] }, { ...ep, slices: [{ transcript: null }] }]) {
      const ld = comicIssueLd(e, opts)
      for (const key of ['accessMode', 'accessModeSufficient', 'accessibilityFeature', 'text']) expect(ld).not.toHaveProperty(key)
    }
  })
})
