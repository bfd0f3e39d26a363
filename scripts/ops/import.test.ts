/** Series import without D1: metadata validation, file checks, WebP renditions, the statements it writes. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { IMAGE_WIDTHS } from '../seed/data.ts'
import { importSeries, planImport } from './import.ts'
import { importKeys, SeriesManifest } from '../../src/features/catalogue/series-import.ts'
import { finishImport, type Statement } from '../../src/features/catalogue/series-import.server.ts'
import type { Db } from '../../src/lib/server/db.ts'
import { writeSampleSeries } from './sample.ts'

let dir: string
beforeAll(async () => {
  dir = await writeSampleSeries(mkdtempSync(join(tmpdir(), 'ops-import-')))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The problems an import of `folder` is refused with (an ImportError, before anything is sent); none if it plans. */
async function problemsOf(folder: string): Promise<string[]> {
  try {
    await planImport(folder, 'test')
  } catch (e) {
    if (e instanceof Error && e.name === 'ImportError') return (e as Error & { problems: string[] }).problems
    throw e
  }
  return []
}

/** The validated manifest and the probed sizes of a folder, as an import plans them. */
const planOf = async (folder: string) => (await planImport(folder, 'test')).request

function withManifest(edit: (m: any) => void): string {
  const copy = mkdtempSync(join(tmpdir(), 'ops-import-bad-'))
  const m = JSON.parse(readFileSync(join(dir, 'series.json'), 'utf8'))
  edit(m)
  writeFileSync(join(copy, 'series.json'), JSON.stringify(m))
  return copy
}

describe('series folder', () => {
  it('accepts the sample series (scripts/ops/sample-series) with its generated images', async () => {
    const { manifest, sizes } = await planOf(dir)
    expect(manifest.episodes).toHaveLength(2)
    expect(manifest.episodes.every((e) => e.images.length === 2)).toBe(true)
    expect(sizes.cover).toEqual({ width: 480, height: 640 })
    expect(sizes.slices[0]).toEqual([
      { width: 800, height: 1000 },
      { width: 800, height: 1300 },
    ])
  })

  it('names every invalid field', async () => {
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
    const problems = await problemsOf(bad)
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
    expect((await problemsOf(lines)).map((p) => p.split(':')[0])).toEqual([
      'episodes.1.transcript.0.0.kind',
      'episodes.1.transcript.1.0.text',
      'episodes.1.transcript.1.0',
    ])
    for (const d of [bad, lines]) rmSync(d, { recursive: true, force: true })
  })

  it('refuses duplicate episode numbers, missing files and paths outside the folder', async () => {
    const dup = withManifest((m) => (m.episodes[1].no = m.episodes[0].no))
    expect(await problemsOf(dup)).toEqual([expect.stringMatching(/^episodes\.1\.no: episode 1 appears twice/)])
    const outside = withManifest((m) => (m.cover = '../cover.png'))
    expect((await problemsOf(outside))[0]).toMatch(/^cover: must be a file inside the folder/)
    const missing = withManifest(() => {})
    expect((await problemsOf(missing)).length).toBe(5) // cover + 4 slices absent from the copy
    expect((await problemsOf(join(missing, 'nowhere')))[0]).toMatch(/series\.json: missing/)
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
    // the sample series with its first slice replaced by a 900×1500 image, imported against a stand-in API
    const tall = mkdtempSync(join(tmpdir(), 'ops-import-tall-'))
    cpSync(dir, tall, { recursive: true })
    const plan = await planImport(tall, 'test')
    const first = plan.request.manifest.episodes[0]!.images[0]!
    await sharp({ create: { width: 900, height: 1500, channels: 3, background: '#3a7' } })
      .png()
      .toFile(join(tall, first))
    const puts: { key: string; bytes: Uint8Array }[] = []
    const api = {
      start: async () => ({ seriesId: 7, keys: importKeys(7, plan.request.manifest) }),
      put: async (key: string, bytes: Uint8Array) => void puts.push({ key, bytes }),
      finish: async () => {},
      abort: async () => {},
    }
    await importSeries(api, plan)
    const out = puts.filter((p) => p.key.startsWith('series/7/ep/1/1/'))
    expect(out.map((r) => r.key)).toEqual(IMAGE_WIDTHS.slice.map((w) => `series/7/ep/1/1/${w}.webp`))
    expect(IMAGE_WIDTHS.slice).toEqual([640, 828, 1080])
    for (const r of out) {
      const width = Number(r.key.split('/').at(-1)!.replace('.webp', ''))
      const meta = await sharp(r.bytes).metadata()
      expect(meta.format).toBe('webp')
      expect(meta.width).toBe(width)
      expect(meta.height).toBe(Math.round((1500 * width) / 900))
    }
    rmSync(tall, { recursive: true, force: true })
  })
})

/**
 * The statements `finishImport` writes for an open import of `manifest` (every object uploaded), in order, without the
 * last one (which deletes the import row): a stand-in Db records the batches, a stand-in bucket lists every key.
 */
async function importStatements(seriesId: number, manifest: SeriesManifest, sizes: unknown, now: Date): Promise<Statement[]> {
  const written: Statement[] = []
  const db = {
    first: async () => ({ request: JSON.stringify({ manifest, sizes }), finishingAt: null }),
    run: async () => 1,
    batch: async (statements: Statement[]) => void written.push(...statements),
  } as unknown as Db
  const keys = importKeys(seriesId, manifest)
  const media = {
    list: async ({ prefix }: { prefix: string }) => ({
      objects: keys.filter((k) => k.startsWith(prefix)).map((key) => ({ key })),
      truncated: false,
    }),
  } as unknown as R2Bucket
  expect(await finishImport(db, media, seriesId, now)).toMatchObject({ seriesId })
  expect(written.at(-1)).toEqual({ sql: 'DELETE FROM series_imports WHERE series_id = ?', params: [seriesId] })
  return written.slice(0, -1)
}

describe('import statements', () => {
  it('stay under 100 bound parameters, insert every slice and end by publishing the series', async () => {
    const { manifest } = await planOf(dir)
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
    const statements = await importStatements(77, manifest, sizes, new Date('2026-11-22T00:00:00Z'))
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
    const { manifest, sizes } = await planOf(dir)
    manifest.episodes[1]!.transcript = [[], [{ kind: 'sfx', text: 'Tac' }]]
    const statements = await importStatements(5, manifest, sizes, new Date('2026-11-22T00:00:00Z'))
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
