/** Series import without D1: metadata validation, file checks, WebP renditions, the statements it writes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { IMAGE_WIDTHS } from '../seed/data.ts'
import { ImportError, loadSeriesFolder, probeSeries, renderImage } from './import.ts'
import { SeriesManifest } from '../../src/features/catalogue/series-import.ts'
import { importStatements } from '../../src/features/catalogue/series-import.server.ts'
import { drawPng, writeSampleSeries } from './sample.ts'

let dir: string
beforeAll(async () => {
  dir = await writeSampleSeries(mkdtempSync(join(tmpdir(), 'ops-import-')))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function problemsOf(fn: () => unknown): string[] {
  try {
    fn()
  } catch (e) {
    if (e instanceof ImportError) return e.problems
    throw e
  }
  return []
}

function withManifest(edit: (m: any) => void): string {
  const copy = mkdtempSync(join(tmpdir(), 'ops-import-bad-'))
  const m = JSON.parse(readFileSync(join(dir, 'series.json'), 'utf8'))
  edit(m)
  writeFileSync(join(copy, 'series.json'), JSON.stringify(m))
  return copy
}

describe('series folder', () => {
  it('accepts the sample series (scripts/ops/sample-series) with its generated images', async () => {
    const { manifest } = loadSeriesFolder(dir)
    expect(manifest.episodes).toHaveLength(2)
    expect(manifest.episodes.every((e) => e.images.length === 2)).toBe(true)
    const sizes = await probeSeries(dir, manifest)
    expect(sizes.cover).toEqual({ width: 480, height: 640 })
    expect(sizes.slices[0]).toEqual([
      { width: 800, height: 1000 },
      { width: 800, height: 1300 },
    ])
  })

  it('names every invalid field', () => {
    const bad = withManifest((m) => {
      m.genre = 'SPACE'
      m.status = 'ONGOING'
      m.creators = []
      m.episodes[1].free = false
      m.episodes[1].priceRent = null
      m.episodes[1].priceBuy = null
      m.episodes[0].no = -1
      m.episodes[0].alt = ['only one']
      m.episodes[0].transcript = [[{ kind: 'speech', text: 'one slice only' }]]
    })
    const problems = problemsOf(() => loadSeriesFolder(bad))
    for (const field of [
      'genre',
      'status',
      'creators',
      'episodes.1.priceRent',
      'episodes.0.no',
      'episodes.0.alt',
      'episodes.0.transcript',
    ]) {
      expect(
        problems.some((p) => p.startsWith(`${field}:`)),
        `${field} in ${problems.join(' | ')}`,
      ).toBe(true)
    }
    const lines = withManifest(
      (m) => (m.episodes[1].transcript = [[{ kind: 'shout', text: 'AH' }], [{ kind: 'caption', text: ' ', extra: 1 }]]),
    )
    expect(problemsOf(() => loadSeriesFolder(lines)).map((p) => p.split(':')[0])).toEqual([
      'episodes.1.transcript.0.0.kind',
      'episodes.1.transcript.1.0.text',
      'episodes.1.transcript.1.0',
    ])
    for (const d of [bad, lines]) rmSync(d, { recursive: true, force: true })
  })

  it('refuses duplicate episode numbers, missing files and paths outside the folder', () => {
    const dup = withManifest((m) => (m.episodes[1].no = m.episodes[0].no))
    expect(problemsOf(() => loadSeriesFolder(dup))).toEqual([expect.stringMatching(/^episodes\.1\.no: episode 1 appears twice/)])
    const outside = withManifest((m) => (m.cover = '../cover.png'))
    expect(problemsOf(() => loadSeriesFolder(outside))[0]).toMatch(/^cover: must be a file inside the folder/)
    const missing = withManifest(() => {})
    expect(problemsOf(() => loadSeriesFolder(missing)).length).toBe(5) // cover + 4 slices absent from the copy
    expect(problemsOf(() => loadSeriesFolder(join(missing, 'nowhere')))[0]).toMatch(/series\.json: missing/)
    for (const d of [dup, outside, missing]) rmSync(d, { recursive: true, force: true })
  })

  it('applies the defaults of optional fields', () => {
    const m = SeriesManifest.parse({
      title: 'T',
      genre: 'DRAMA',
      status: 'COMPLETED',
      creators: [{ name: 'A', role: 'AUTHOR' }],
      cover: 'c.png',
      episodes: [{ no: 1, title: 'E', free: true, images: ['1.png'] }],
    })
    expect(m).toMatchObject({
      type: 'IMAGE',
      isAdult: false,
      isBl: false,
      readingDirection: 'ltr',
      tags: [],
      schedule: [],
      description: '',
    })
    expect(m.episodes[0]).toMatchObject({ priceRent: null, priceBuy: null })
  })
})

describe('renditions', () => {
  it('renders WebP at the seed widths, keeping the aspect ratio', async () => {
    const src = join(dir, 'tall.png')
    await drawPng(src, 900, 1500, 30, 'tall')
    const out = await renderImage(src, IMAGE_WIDTHS.slice)
    expect(out.map((r) => r.width)).toEqual([640, 828, 1080])
    for (const r of out) {
      const meta = await sharp(r.bytes).metadata()
      expect(meta.format).toBe('webp')
      expect(meta.width).toBe(r.width)
      expect(meta.height).toBe(Math.round((1500 * r.width) / 900))
    }
  })
})

describe('import statements', () => {
  it('stay under 100 bound parameters, insert every slice and end by publishing the series', async () => {
    const { manifest } = loadSeriesFolder(dir)
    // a long episode, to split its slices over several statements
    manifest.episodes[0]!.images = Array.from({ length: 45 }, (_, i) => `s${i}.png`)
    delete manifest.episodes[0]!.alt
    const sizes = {
      cover: { width: 480, height: 640 },
      slices: [
        manifest.episodes[0]!.images.map(() => ({ width: 800, height: 1200 })),
        [
          { width: 800, height: 900 },
          { width: 800, height: 900 },
        ],
      ],
    }
    const statements = importStatements(77, manifest, sizes, new Date('2026-11-22T00:00:00Z'))
    for (const s of statements) expect(s.params.length).toBeLessThanOrEqual(100)
    const sliceRows = statements
      .filter((s) => s.sql.includes('INSERT INTO episode_images'))
      .reduce((n, s) => n + (s.params.length - 2) / 6, 0)
    expect(sliceRows).toBe(47)
    expect(statements[0]).toEqual({ sql: 'UPDATE series SET cover_key = ? WHERE id = ?', params: ['covers/77', 77] })
    expect(statements.at(-1)!.sql).toMatch(/UPDATE series SET .*is_published = 1/)
    expect(statements.some((s) => s.sql.includes('series_fts'))).toBe(true)
    expect(statements.flatMap((s) => s.params).filter((p) => typeof p === 'string' && p.startsWith('series/77/ep/1/'))).toHaveLength(45)
  })

  it('write each slice its alt text and its transcript lines in reading order (null for a slice without text)', async () => {
    const { manifest } = loadSeriesFolder(dir)
    manifest.episodes[1]!.transcript = [[], [{ kind: 'sfx', text: 'Tac' }]]
    const statements = importStatements(5, manifest, await probeSeries(dir, manifest), new Date('2026-11-22T00:00:00Z'))
    const rows = statements
      .filter((s) => s.sql.includes('INSERT INTO episode_images'))
      .flatMap((s) => Array.from({ length: (s.params.length - 2) / 6 }, (_, k) => s.params.slice(2 + k * 6, 8 + k * 6)))
    expect(rows.map((r) => [r[1], r[4], r[5] === null ? null : JSON.parse(r[5] as string)])).toEqual([
      [
        'series/5/ep/1/1',
        "La gardienne monte l'escalier du phare.",
        [
          { kind: 'caption', text: 'Île de Sein, novembre.' },
          { kind: 'speech', speaker: 'Nolwenn', text: 'Encore trois cents marches…' },
        ],
      ],
      [
        'series/5/ep/1/2',
        'La lumière balaie une mer de brume.',
        [
          { kind: 'sfx', text: 'Vrrrooommm' },
          { kind: 'speech', speaker: 'Nolwenn', text: 'Qui allume des feux sur la mer ?' },
        ],
      ],
      ['series/5/ep/2/1', 'Le Phare des Brumes, Ce qui répond, image 1 / 2', null],
      ['series/5/ep/2/2', 'Le Phare des Brumes, Ce qui répond, image 2 / 2', [{ kind: 'sfx', text: 'Tac' }]],
    ])
  })
})
