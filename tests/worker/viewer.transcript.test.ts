/**
 * Issue 14 part 5 on real workerd + D1: slice transcripts stored in `episode_images.transcript` (0013) come
 * back through `GET /api/v1/viewer/{id}` with each slice's alt text, in reading order, only to a reader the
 * episode opens for; the demo seed carries them for three series in French and in Arabic.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { db, get, newReader, newSeries, read } from './purchase.helpers.ts'
import { seedDemo } from './seed.ts'
import { buildDemo } from '../../scripts/seed/data.ts'
import { demoSliceText } from '../../scripts/seed/transcripts.ts'
import { parseTranscript, type TranscriptLine } from '../../src/features/catalogue/transcript.ts'
import { readerRows } from './reader-rows.ts'

const BALLOONS: TranscriptLine[] = [
  { kind: 'caption', text: 'Minuit.' },
  { kind: 'speech', speaker: 'Ada', text: 'Tu entends ?' },
  { kind: 'sfx', text: 'Crac' },
]

/** Slice 1 with alt text and the balloons, slice 2 with alt text only. */
async function withTranscript(episodeId: number) {
  await db.run(
    `INSERT INTO episode_images (episode_id, position, key, width, height, alt, transcript) VALUES (?, 1, ?, 720, 800, 'Ada écoute à la porte.', ?), (?, 2, ?, 720, 800, 'Une porte fermée.', NULL)`,
    episodeId,
    `test/tr/${episodeId}/1`,
    JSON.stringify(BALLOONS),
    episodeId,
    `test/tr/${episodeId}/2`,
  )
}

let demo: ReturnType<typeof buildDemo>
beforeAll(async () => {
  demo = await seedDemo(env.DB)
})

describe('slice transcripts through the viewer API', () => {
  it('open with a free episode: each slice its alt text and its lines in reading order, null where it has none', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    await withTranscript(s.episodeIds[0]!)
    const { data } = await read(await get(null, `/api/v1/viewer/${s.episodeIds[0]}`))
    expect(data.slices.map((x: { alt: string; transcript: unknown }) => [x.alt, x.transcript])).toEqual([
      ['Ada écoute à la porte.', BALLOONS],
      ['Une porte fermée.', null],
    ])
  })

  it('stay with the images of a paid episode: none for a reader without it, all for its owner', async () => {
    const s = await newSeries({ episodes: 2, free: 1 })
    const paid = s.episodeIds[1]!
    await withTranscript(paid)
    const reader = await newReader()
    for (const who of [null, reader]) {
      const res = await get(who, `/api/v1/viewer/${paid}`)
      expect(res.status).toBe(403)
      expect(await res.text()).not.toContain('Tu entends')
    }
    await readerRows.run(
      reader.id,
      `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at) VALUES (?, ?, ?, 'POSSESSION', NULL)`,
      reader.id,
      s.seriesId,
      paid,
    )
    const { data } = await read(await get(reader, `/api/v1/viewer/${paid}`))
    expect(data.slices[0].transcript).toEqual(BALLOONS)
    expect(data.slices[0].src).toMatch(/\/slice\/1\?/)
  })

  it('refuses a stored value that is not a JSON array; a well-formed array of bad lines reads as none, not as an error', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const id = s.episodeIds[0]!
    for (const bad of ['not json', '{"kind":"speech","text":"x"}']) {
      await expect(
        db.run(
          `INSERT INTO episode_images (episode_id, position, key, width, height, alt, transcript) VALUES (?, 1, 'k', 720, 800, '', ?)`,
          id,
          bad,
        ),
      ).rejects.toThrow(/CHECK/)
    }
    await db.run(
      `INSERT INTO episode_images (episode_id, position, key, width, height, alt, transcript) VALUES (?, 1, 'k', 720, 800, 'x', '[{"kind":"shout","text":"AH"}]')`,
      id,
    )
    const res = await get(null, `/api/v1/viewer/${id}`)
    expect(res.status).toBe(200)
    expect((await read(res)).data.slices[0].transcript).toBeNull()
  })
})

describe('the demo seed', () => {
  const episodesOf = (d: typeof demo, seriesId: number) =>
    d.tables.episodes!.filter((e) => e.series_id === seriesId).map((e) => Number(e.id))
  /** The seed's French text of the first story panel (slice 2) of a series' episodes: null for a series without transcripts. */
  const firstPanel = (seriesId: number) => demoSliceText(seriesId, 2, 'fr', { series: '', episode: '' })
  const hasTranscripts = (seriesId: number) => firstPanel(seriesId) !== null

  it('opens the free episodes of three series with described slices and their transcripts (fr)', async () => {
    const series = demo.tables.series!.map((s) => Number(s.id)).filter(hasTranscripts)
    expect(series.length).toBeGreaterThanOrEqual(3)
    for (const seriesId of series) {
      const first = episodesOf(demo, seriesId)[0]!
      const { data } = await read(await get(null, `/api/v1/viewer/${first}`))
      expect(data.access.via).toBe('FREE')
      const [card, panel1, panel2] = data.slices
      expect(card.alt).toBe(`Page de titre : ${data.seriesTitle}, Épisode 1.`)
      expect(card.transcript).toEqual([{ kind: 'caption', text: `${data.seriesTitle} — Épisode 1` }])
      expect(panel1.alt).toBe(firstPanel(seriesId)!.alt)
      expect(panel1.transcript.map((l: TranscriptLine) => l.text)).toEqual(firstPanel(seriesId)!.transcript.map((l) => l.text))
      expect(panel2.transcript.length).toBeGreaterThan(0)
    }
    expect(hasTranscripts(2)).toBe(false)
    // a series without transcripts keeps its generated alt text and no transcript
    const { data } = await read(await get(null, `/api/v1/viewer/${episodesOf(demo, 2)[0]}`))
    expect(data.slices.map((x: { alt: string; transcript: unknown }) => [x.alt, x.transcript])).toEqual(
      [1, 2, 3].map((n) => [`${data.seriesTitle}, épisode 1, image ${n} sur 3`, null]),
    )
  })

  it('writes the same slices in Arabic for the ar edition (and valid transcripts in every edition)', () => {
    const ar = buildDemo({ currency: 'SAR', locale: 'ar', now: new Date(), passwordHash: 'x', minorPasswordHash: 'x' })
    const first = ar.tables.episodes!.find((e) => e.series_id === 24)!.id
    const slices = ar.tables.episode_images!.filter((i) => i.episode_id === first)
    expect(slices[0]!.alt).toBe('صفحة العنوان: ملكة الظلال، الحلقة 1.')
    expect(parseTranscript(slices[1]!.transcript as string)).toEqual([
      { kind: 'speech', speaker: 'إيزولد', text: 'من يجرؤ على الدخول دون استئذان؟' },
      { kind: 'speech', speaker: 'الرسول', text: 'جلالتك… جيش الشمال عبر النهر.' },
    ])
    for (const locale of ['fr-FR', 'ar', 'de-DE', 'ja-JP']) {
      const { tables } = buildDemo({ currency: 'EUR', locale, now: new Date(), passwordHash: 'x', minorPasswordHash: 'x' })
      const described = new Set(tables.episodes!.filter((e) => hasTranscripts(Number(e.series_id))).map((e) => e.id))
      const stored = tables.episode_images!.filter((r) => r.transcript !== null)
      expect(stored.length, locale).toBe(described.size * 3)
      for (const r of stored) {
        expect(described.has(r.episode_id!), locale).toBe(true)
        expect(parseTranscript(r.transcript as string), locale).not.toBeNull()
      }
    }
  })
})
